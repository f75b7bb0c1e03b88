/* See screen.h. */
#include "tui/screen.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/version.h"
#include "tui/colors.h"
#include "tui/tui.h"

static void draw_title(const struct session *s)
{
    char left[128], clock[16];
    time_t now = time(NULL);
    struct tm tm;
    strftime(clock, sizeof(clock), "%H:%M:%S", localtime_r(&now, &tm));
    snprintf(left, sizeof(left), " parallax %s - interval %.1f s - %d source%s",
             PARALLAX_VERSION, s->interval, s->nsrc, s->nsrc == 1 ? "" : "s");
    attron(colors_attr(ROLE_TITLE));
    mvhline(0, 0, ' ', COLS);
    mvaddnstr(0, 0, left, COLS);
    if (COLS > (int)(strlen(left) + strlen(clock) + 2))
        mvaddstr(0, COLS - (int)strlen(clock) - 1, clock);
    attroff(colors_attr(ROLE_TITLE));
}

static void draw_keys(void)
{
    static const char *const keys[][2] = {
        {"q", "Quit"},     {"Tab", "Focus"},   {"Space", "Start/Stop"},
        {"a", "Suite"},    {"x", "Stop all"},  {"g", "Add guest"},
        {"s", "Snapshot"}, {"0-9", "Sources"}, {"<>", "Scroll"}};
    move(LINES - 1, 0);
    clrtoeol();
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        attron(colors_attr(ROLE_KEY));
        printw(" %s", keys[i][0]);
        attroff(colors_attr(ROLE_KEY));
        attron(colors_attr(ROLE_KEY_LABEL));
        printw(" %s ", keys[i][1]);
        attroff(colors_attr(ROLE_KEY_LABEL));
    }
}

static void draw_too_small(void)
{
    char msg[80];
    snprintf(msg, sizeof(msg), "terminal %dx%d is too small: need %dx%d", COLS,
             LINES, TUI_MIN_COLS, TUI_MIN_ROWS);
    mvaddnstr(LINES / 2, 0, msg, COLS);
}

void screen_draw(const struct session *s, const struct jobs *j,
                 struct table_panel *table, const struct prompt *prompt,
                 bool utf8)
{
    erase();
    if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS) {
        draw_too_small();
    } else {
        draw_title(s);
        table_panel_draw(table, s, j, 2, LINES - 3, utf8);
        mvaddnstr(1, 1, table->status, COLS - 1);
        draw_keys();
        if (prompt)
            prompt_draw(prompt, 1);
    }
    /* the cursor shows only at the end of a prompt's typed text */
    curs_set(prompt && COLS >= TUI_MIN_COLS && LINES >= TUI_MIN_ROWS);
    refresh();
}
