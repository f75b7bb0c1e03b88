/* See screen.h. */
#include "tui/screen.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/diag.h"
#include "cli/interval.h"
#include "core/version.h"
#include "tui/colors.h"
#include "tui/keybar.h"
#include "tui/row_cache.h"
#include "tui/status.h"
#include "tui/title_bar.h"
#include "tui/tui.h"

static void draw_title(const struct session *s)
{
    char left[256], iv[32], self[80];
    interval_format(s->interval, iv, sizeof(iv));
    selfcost_format(&s->self, false, self, sizeof(self));
    snprintf(left, sizeof(left), " parallax %s - interval %s - %s",
             PARALLAX_VERSION, iv, self);
    if ((int)strlen(left) > COLS) { /* a narrow window: the figures first */
        selfcost_format(&s->self, true, self, sizeof(self));
        snprintf(left, sizeof(left), " parallax %s - %s", iv, self);
    }
    title_bar_draw(left);
}

static void draw_too_small(void)
{
    char msg[80];
    snprintf(msg, sizeof(msg), "terminal %dx%d is too small: need %dx%d", COLS,
             LINES, TUI_MIN_COLS, TUI_MIN_ROWS);
    mvaddnstr(LINES / 2, 0, msg, COLS);
}

#define PAUSED_W 20 /* " PAUSED " and " p resumes  " */
/* a second status row only where the table can spare a row: at 40x12 it
 * would take the only counter row */
#define STATUS_TWO_ROWS_LINES 20

/* Every status message goes to the log whole (-v), however it is cut. */
static void log_status(const char *text)
{
    static char logged[sizeof(((struct table_panel *)0)->status)];
    if (text[0] && strcmp(text, logged) != 0)
        DIAG(DIAG_INFO, "status: %s", text);
    snprintf(logged, sizeof(logged), "%s", text);
}

/* The status rows: the last action's outcome, after PAUSED while paused;
 * a second row when the message needs it. */
static void draw_status(const struct status_lines *st, bool paused)
{
    move(1, 1);
    if (paused) {
        attron(A_BOLD | A_REVERSE);
        addstr(" PAUSED ");
        attroff(A_BOLD | A_REVERSE);
        addstr(" p resumes  ");
    }
    attron(colors_attr(ROLE_STATUS));
    for (int r = 0; r < st->rows; r++)
        mvaddnstr(1 + r, r ? 1 : getcurx(stdscr), st->line[r], COLS - 2);
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
        table_panel_take_message(table, j);
        log_status(table->status);
        struct status_lines st;
        status_fit(table->status, COLS - 2 - (ov->paused ? PAUSED_W : 0),
                   LINES >= STATUS_TWO_ROWS_LINES ? COLS - 2 : 0, &st);
        int rows = prompt || st.rows < 1 ? 1 : st.rows; /* under a prompt */
        table_panel_draw(table, s, j, 1 + rows, LINES - 2 - rows, utf8);
        if (!prompt)
            draw_status(&st, ov->paused);
        keybar_draw(LINES - 1);
        if (ov->help)
            help_draw(ov->help, 2, LINES - 2, utf8);
        if (prompt)
            prompt_draw(prompt, 1);
    }
    /* the cursor shows only at the end of a prompt's typed text */
    bool small = COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS;
    curs_set(prompt && !small);
    if (small) /* no table this time: nothing of it to keep */
        row_cache_begin(0, 0);
    row_cache_end(ov->help || prompt || small);
    refresh();
}
