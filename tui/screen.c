/* See screen.h. */
#include "tui/screen.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/diag.h"
#include "base/version.h"
#include "cli/interval.h"
#include "tui/colors.h"
#include "tui/keybar.h"
#include "tui/lifecycle.h"
#include "tui/row_cache.h"
#include "tui/status.h"
#include "tui/title_bar.h"
#include "tui/vm_panel.h"
#include "view/fit.h"
#include "view/view_replay.h"

static void draw_title(const struct session *s)
{
    char left[512], iv[32], self[80];
    interval_format(s->interval, iv, sizeof(iv));
    selfcost_format(&s->self, false, self, sizeof(self));
    char replay[256];
    view_replay_title(s->model, s->nsrc, replay, sizeof(replay));
    snprintf(left, sizeof(left), " parallax %s - interval %s - %s%s%s",
             PARALLAX_VERSION, iv, self, replay[0] ? " - " : "", replay);
    if ((int)strlen(left) > COLS) { /* a narrow window: the figures first */
        selfcost_format(&s->self, true, self, sizeof(self));
        snprintf(left, sizeof(left), " parallax %s - %s%s%s", iv, self,
                 replay[0] ? " - " : "", replay);
    }
    title_bar_draw(left);
}

/* Says the window is too small in the longest form that fits its width
 * (it was cut at 30 columns): "terminal 30x10 is too small: need 40x12",
 * shorter, then on two rows. */
static void draw_too_small(void)
{
    char cand[4][64], msg[64];
    snprintf(cand[0], sizeof(cand[0]),
             "terminal %dx%d is too small: need %dx%d", COLS, LINES,
             TUI_MIN_COLS, TUI_MIN_ROWS);
    snprintf(cand[1], sizeof(cand[1]), "%dx%d is too small: need %dx%d", COLS,
             LINES, TUI_MIN_COLS, TUI_MIN_ROWS);
    snprintf(cand[2], sizeof(cand[2]), "too small: need %dx%d", TUI_MIN_COLS,
             TUI_MIN_ROWS);
    snprintf(cand[3], sizeof(cand[3]), "need %dx%d", TUI_MIN_COLS,
             TUI_MIN_ROWS);
    const char *c[] = {cand[0], cand[1], cand[2], cand[3]};
    int k = fit_first(msg, sizeof(msg), COLS, c, 4, false);
    if (k >= 2 && LINES >= 2 && COLS >= 10) { /* the size above, whole */
        char size[32], fitted[32];
        snprintf(size, sizeof(size), "window %dx%d", COLS, LINES);
        fit_text(fitted, sizeof(fitted), COLS, size, false);
        mvaddstr(LINES / 2 - 1, 0, fitted);
    }
    mvaddstr(LINES / 2, 0, msg);
}

#define PAUSED_W 20 /* " PAUSED " and " p resumes  " */
#define BADGE_W  6  /* " REC " and a space */
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
static void draw_status(const struct status_lines *st, bool paused,
                        const char *badge)
{
    move(1, 1);
    if (paused) {
        attron(A_BOLD | A_REVERSE);
        addstr(" PAUSED ");
        attroff(A_BOLD | A_REVERSE);
        addstr(" p resumes  ");
    }
    if (badge) {
        attron(A_BOLD | A_REVERSE);
        printw(" %s ", badge);
        attroff(A_BOLD | A_REVERSE);
        addch(' ');
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
        status_fit(table->status,
                   COLS - 2 - (ov->paused ? PAUSED_W : 0) -
                       (ov->badge ? BADGE_W : 0),
                   LINES >= STATUS_TWO_ROWS_LINES ? COLS - 2 : 0, &st);
        int rows = prompt || st.rows < 1 ? 1 : st.rows; /* under a prompt */
        if (ov->vms)
            vm_panel_draw(s, 1 + rows, LINES - 2 - rows, utf8);
        else
            table_panel_draw(table, s, j, 1 + rows, LINES - 2 - rows, utf8);
        if (!prompt)
            draw_status(&st, ov->paused, ov->badge);
        keybar_draw(LINES - 1);
        if (ov->latency)
            latency_panel_draw(ov->latency, s, j, 2, LINES - 2);
        if (ov->help)
            help_draw(ov->help, 2, LINES - 2, utf8);
        if (prompt)
            prompt_draw(prompt, 1);
    }
    /* the cursor shows only at the end of a prompt's typed text */
    bool small = COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS;
    curs_set(prompt && !small);
    if (small || ov->vms) /* no table this time: nothing of it to keep */
        row_cache_begin(0, 0);
    row_cache_end(ov->help || ov->latency || prompt || small || ov->vms);
    refresh();
}
