/* See colors.h. Colours are brought down to what the terminal has
 * (theme/theme_color.c). Without colour (NO_COLOR, monochrome terminals)
 * roles keep their attributes, and the ones drawn on a background of their
 * own get reverse, so that nothing depends on colour alone. */
#include <curses.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme/theme_color.h"
#include "theme/theme_path.h"
#include "tui/colors.h"

static struct theme current;
static char current_name[THEME_NAME_MAX]; /* chosen, even if its file failed */
static bool selected, started;
static int ncolors;            /* 0: attributes only */
static bool terminal_defaults; /* -1 means the terminal's own colour */
static int attrs[ROLE_COUNT];

static int curses_attrs(unsigned a)
{
    int out = A_NORMAL;
    if (a & THEME_BOLD)
        out |= A_BOLD;
    if (a & THEME_DIM)
        out |= A_DIM;
    if (a & THEME_UNDERLINE)
        out |= A_UNDERLINE;
    if (a & THEME_REVERSE)
        out |= A_REVERSE;
    if (a & THEME_ITALIC)
        out |= A_ITALIC;
    if (a & THEME_BLINK)
        out |= A_BLINK;
    return out;
}

/* A theme colour as curses takes it; *bold when only bold makes it bright. */
static short curses_color(short c, bool fg, bool *bold)
{
    bool bright;
    c = theme_color_fit(c, ncolors, &bright);
    if (bright && fg)
        *bold = true;
    if (c == THEME_DEFAULT && !terminal_defaults)
        return fg ? COLOR_WHITE : COLOR_BLACK;
    return c;
}

static void apply(void)
{
    const struct theme_style *normal = &current.style[ROLE_NORMAL];
    for (int r = 0; r < ROLE_COUNT; r++) {
        struct theme_style st = current.style[r];
        int a = curses_attrs(st.attrs);
        if (ncolors && r + 1 < COLOR_PAIRS) {
            bool bold = false;
            if (r != ROLE_NORMAL) { /* "default" is normal's colour */
                if (st.fg == THEME_DEFAULT)
                    st.fg = normal->fg;
                if (st.bg == THEME_DEFAULT)
                    st.bg = normal->bg;
            }
            short fg = curses_color(st.fg, true, &bold);
            short bg = curses_color(st.bg, false, &bold);
            init_pair((short)(r + 1), fg, bg);
            a |= COLOR_PAIR(r + 1) | (bold ? A_BOLD : 0);
        } else if (r != ROLE_NORMAL && st.bg != THEME_DEFAULT) {
            a |= A_REVERSE; /* bars stay visible */
        }
        attrs[r] = a;
    }
    bkgd((chtype)' ' | (chtype)attrs[ROLE_NORMAL]);
}

static void use_builtin(void)
{
    theme_builtin(&current);
    snprintf(current_name, sizeof(current_name), "default");
    selected = true;
}

int colors_select(const char *name, char *status, size_t statuslen, char *err,
                  size_t errlen)
{
    struct theme_dirs d;
    theme_dirs_get(&d);
    if (!name)
        name = "default";
    int rc = theme_load(&d, name, &current, err, errlen);
    if (rc == -1) {
        use_builtin();
        return -1;
    }
    snprintf(current_name, sizeof(current_name), "%s", name);
    selected = true;
    if (rc == -2)
        snprintf(status, statuslen, "%s; showing the built-in theme", err);
    return 0;
}

void colors_init(void)
{
    const char *no_color = getenv("NO_COLOR");
    if (!selected)
        use_builtin();
    ncolors = 0;
    if (has_colors() && !(no_color && *no_color) && start_color() == OK &&
        COLORS >= 8) {
        ncolors = COLORS;
        terminal_defaults = use_default_colors() == OK;
    }
    started = true;
    apply();
}

void colors_cycle(char *status, size_t statuslen)
{
    struct theme_dirs d;
    struct theme_names names;
    char err[512];
    theme_dirs_get(&d);
    theme_names_get(&d, &names);
    snprintf(current_name, sizeof(current_name), "%s",
             theme_names_next(&names, current_name));
    theme_names_free(&names);
    if (theme_load(&d, current_name, &current, err, sizeof(err)) == 0)
        snprintf(status, statuslen, "theme %s", current_name);
    else /* the file went away or has an error: current is the built-in */
        snprintf(status, statuslen, "%s; showing the built-in theme", err);
    if (started) {
        apply();
        clearok(curscr, TRUE); /* repaint every cell in its new look */
    }
}

const char *colors_theme_name(void)
{
    return current_name;
}

int colors_attr(enum color_role role)
{
    return attrs[role];
}
