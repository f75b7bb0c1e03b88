/* See screen.h. */
#include "tui/screen.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/interval.h"
#include "core/version.h"
#include "tui/colors.h"
#include "tui/keybar.h"
#include "tui/tui.h"

static void draw_title(const struct session *s)
{
    char left[256], clock[16], iv[32], self[80];
    time_t now = time(NULL);
    struct tm tm;
    strftime(clock, sizeof(clock), "%H:%M:%S", localtime_r(&now, &tm));
    interval_format(s->interval, iv, sizeof(iv));
    selfcost_format(&s->self, false, self, sizeof(self));
    snprintf(left, sizeof(left), " parallax %s - interval %s - %s",
             PARALLAX_VERSION, iv, self);
    if ((int)strlen(left) > COLS) { /* a narrow window: the figures first */
        selfcost_format(&s->self, true, self, sizeof(self));
        snprintf(left, sizeof(left), " parallax %s - %s", iv, self);
    }
    attron(colors_attr(ROLE_TITLE));
    mvhline(0, 0, ' ', COLS);
    mvaddnstr(0, 0, left, COLS);
    if (COLS > (int)(strlen(left) + strlen(clock) + 2))
        mvaddstr(0, COLS - (int)strlen(clock) - 1, clock);
    attroff(colors_attr(ROLE_TITLE));
}

static void draw_too_small(void)
{
    char msg[80];
    snprintf(msg, sizeof(msg), "terminal %dx%d is too small: need %dx%d", COLS,
             LINES, TUI_MIN_COLS, TUI_MIN_ROWS);
    mvaddnstr(LINES / 2, 0, msg, COLS);
}

/* The status row: the last action's outcome, after PAUSED while paused. */
static void draw_status(const struct table_panel *table, bool paused)
{
    move(1, 1);
    if (paused) {
        attron(A_BOLD | A_REVERSE);
        addstr(" PAUSED ");
        attroff(A_BOLD | A_REVERSE);
        addstr(" p resumes  ");
    }
    int room = COLS - 1 - getcurx(stdscr);
    attron(colors_attr(ROLE_STATUS));
    if (room > 0)
        addnstr(table->status, room);
    attroff(colors_attr(ROLE_STATUS));
}

void screen_draw(const struct session *s, const struct jobs *j,
                 struct table_panel *table, const struct screen_overlay *ov,
                 bool utf8)
{
    const struct prompt *prompt = ov->prompt;
    erase();
    if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS) {
        draw_too_small();
    } else {
        draw_title(s);
        table_panel_draw(table, s, j, 2, LINES - 3, utf8);
        draw_status(table, ov->paused);
        keybar_draw(LINES - 1);
        if (ov->help)
            help_draw(ov->help, 2, LINES - 2, utf8);
        if (prompt)
            prompt_draw(prompt, 1);
    }
    /* the cursor shows only at the end of a prompt's typed text */
    curs_set(prompt && COLS >= TUI_MIN_COLS && LINES >= TUI_MIN_ROWS);
    refresh();
}
