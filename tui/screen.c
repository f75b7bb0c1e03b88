/* See screen.h. Columns: the row labels, then one column per source with
 * its figure and a sparkline as wide as the window allows. The cells come
 * from core/view.c, the same strings --text prints. */
#include "tui/screen.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/version.h"
#include "core/view.h"
#include "tui/tui.h"

#define HEADER_ROWS 3 /* title, info, backend */

static void draw_title(const struct session *s)
{
    char left[128], clock[16];
    time_t now = time(NULL);
    struct tm tm;
    strftime(clock, sizeof(clock), "%H:%M:%S", localtime_r(&now, &tm));
    snprintf(left, sizeof(left), " parallax %s - interval %.1f s",
             PARALLAX_VERSION, s->interval);
    attron(A_REVERSE);
    mvhline(0, 0, ' ', COLS);
    mvaddnstr(0, 0, left, COLS);
    if (COLS > (int)(strlen(left) + strlen(clock) + 2))
        mvaddstr(0, COLS - (int)strlen(clock) - 1, clock);
    attroff(A_REVERSE);
}

static void draw_keys(void)
{
    static const char *const keys[][2] = {{"q", "Quit"}};
    move(LINES - 1, 0);
    clrtoeol();
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        attron(A_BOLD);
        printw(" %s", keys[i][0]);
        attroff(A_BOLD);
        attron(A_REVERSE);
        printw(" %s ", keys[i][1]);
        attroff(A_REVERSE);
    }
}

/* Sparkline cells per column once labels and figures have their room. */
static int spark_width(int nsrc)
{
    int room = (COLS - VIEW_LABEL_W) / (nsrc > 0 ? nsrc : 1);
    int w = room - VIEW_VALUE_W - 3;
    if (w > VIEW_SPARK_W * 2)
        w = VIEW_SPARK_W * 2;
    return w > 0 ? w : 0;
}

static void draw_table(const struct session *s, bool utf8)
{
    int sw = spark_width(s->nsrc);
    int colw = VIEW_VALUE_W + 1 + sw + 2;
    void (*const head[HEADER_ROWS])(const struct source_model *, char *,
                                    size_t) = {
        view_source_title, view_source_info, view_source_backend};
    for (int r = 0; r < HEADER_ROWS; r++) {
        for (int i = 0; i < s->nsrc; i++) {
            char buf[160];
            head[r](&s->model[i], buf, sizeof(buf));
            int x = VIEW_LABEL_W + i * colw;
            if (x < COLS) {
                if (r == 0)
                    attron(A_BOLD);
                mvaddnstr(2 + r, x, buf, COLS - x < colw ? COLS - x : colw);
                attroff(A_BOLD);
            }
        }
    }
    int y0 = 2 + HEADER_ROWS + 1;
    for (int id = 0; id < METRIC_COUNT && y0 + id < LINES - 1; id++) {
        mvaddnstr(y0 + id, 0, metric_descs[id].label, VIEW_LABEL_W - 1);
        for (int i = 0; i < s->nsrc; i++) {
            char val[32], spark[VIEW_SPARK_W * 2 * 4 + 1];
            view_metric_cell(&s->model[i], id, val, sizeof(val), spark,
                             sizeof(spark), sw, utf8);
            int x = VIEW_LABEL_W + i * colw;
            if (x >= COLS)
                break;
            mvaddnstr(y0 + id, x, val, COLS - x);
            if (sw > 0 && x + VIEW_VALUE_W + 1 < COLS)
                mvaddstr(y0 + id, x + VIEW_VALUE_W + 1, spark);
        }
    }
}

static void draw_too_small(void)
{
    char msg[80];
    snprintf(msg, sizeof(msg), "terminal %dx%d is too small: need %dx%d", COLS,
             LINES, TUI_MIN_COLS, TUI_MIN_ROWS);
    mvaddnstr(LINES / 2, 0, msg, COLS);
}

void screen_draw(const struct session *s, bool utf8)
{
    erase();
    if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS) {
        draw_too_small();
    } else {
        draw_title(s);
        draw_table(s, utf8);
        draw_keys();
    }
    refresh();
}
