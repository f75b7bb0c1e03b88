/* See table_panel.h. The host column is always shown; guests (each with
 * its ratio column) fill the rest of the width. Sparklines get the room
 * that is left, up to twice their --text width, and shrink before any
 * column scrolls out. */
#include "tui/table_panel.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "core/view.h"
#include "tui/colors.h"
#include "tui/panel.h"

#define SPARK_MAX (2 * VIEW_SPARK_W)
#define SPARK_MIN 4 /* below this, scroll rather than shrink */
#define BAD_RATIO 1.5

struct layout {
    int spark_w;
    int src_w;   /* width of a source column */
    int nguests; /* guests that fit */
};

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct layout compute_layout(const struct session *s, int first)
{
    struct layout l;
    int guests = s->nsrc - first > 0 ? s->nsrc - first : 0;
    int fixed = VIEW_VALUE_W + 3; /* figure, space, gap */
    for (;; guests--) {
        int room = COLS - VIEW_LABEL_W - guests * VIEW_RATIO_W;
        int per = room / (guests + 1);
        l.spark_w = per - fixed;
        if (l.spark_w > SPARK_MAX)
            l.spark_w = SPARK_MAX;
        if (l.spark_w >= SPARK_MIN || guests <= 0)
            break;
    }
    if (l.spark_w < 0)
        l.spark_w = 0;
    l.src_w = fixed + l.spark_w;
    l.nguests = guests;
    return l;
}

static int state_role(const struct source_model *m, double now, double iv)
{
    if (m->state == SRC_DOWN)
        return ROLE_DOWN;
    if (m->state == SRC_CONNECTING || model_is_stale(m, now, iv))
        return ROLE_STALE;
    return ROLE_LIVE;
}

static void put(int y, int x, int w, int attr, const char *text)
{
    if (x >= COLS || w <= 0)
        return;
    if (x + w > COLS)
        w = COLS - x;
    attron(attr);
    mvaddnstr(y, x, text, w);
    attroff(attr);
}

static void draw_source_column(const struct session *s, int src, int x,
                               const struct layout *l, int y0, int height,
                               bool utf8)
{
    const struct source_model *m = &s->model[src];
    double now = mono();
    for (int row = 0; row < VIEW_HEADER_ROWS && row < height; row++) {
        char buf[160];
        view_source_header(m, row, now, s->interval, buf, sizeof(buf));
        int attr = A_NORMAL;
        if (row == 0)
            attr = colors_attr(ROLE_SOURCE);
        else if (row == 1)
            attr = colors_attr(state_role(m, now, s->interval));
        put(y0 + row, x + 1, l->src_w - 2, attr, buf);
    }
    for (int id = 0; id < METRIC_COUNT; id++) {
        int y = y0 + VIEW_HEADER_ROWS + 1 + id;
        if (y >= y0 + height)
            break;
        char val[32], spark[SPARK_MAX * 4 + 1];
        view_metric_cell(m, id, val, sizeof(val), spark, sizeof(spark),
                         l->spark_w, utf8);
        put(y, x, VIEW_VALUE_W, A_NORMAL, val);
        if (l->spark_w > 0 && x + VIEW_VALUE_W + 1 + l->spark_w <= COLS) {
            attron(colors_attr(ROLE_SPARK));
            mvaddstr(y, x + VIEW_VALUE_W + 1, spark);
            attroff(colors_attr(ROLE_SPARK));
        }
    }
}

static void draw_ratio_column(const struct session *s, int src, int x, int y0,
                              int height, bool utf8)
{
    if (x + VIEW_RATIO_W <= COLS) { /* one cell; two bytes in UTF-8 */
        attron(colors_attr(ROLE_SOURCE));
        mvaddstr(y0, x + VIEW_RATIO_W - 1, utf8 ? "\u00d7" : "x");
        attroff(colors_attr(ROLE_SOURCE));
    }
    for (int id = 0; id < METRIC_COUNT; id++) {
        int y = y0 + VIEW_HEADER_ROWS + 1 + id;
        if (y >= y0 + height)
            break;
        double r = view_metric_ratio(&s->model[src], &s->model[0], id);
        char buf[16];
        view_ratio_text(r, buf, sizeof(buf));
        int attr = A_NORMAL;
        if (isfinite(r) && r >= BAD_RATIO)
            attr = colors_attr(ROLE_RATIO_BAD);
        else if (isfinite(r) && r <= 1 / BAD_RATIO)
            attr = colors_attr(ROLE_RATIO_GOOD);
        put(y, x, VIEW_RATIO_W, attr, buf);
    }
}

void table_panel_draw(const struct table_panel *p, const struct session *s,
                      int y0, int height, bool utf8)
{
    int first = p->first_guest < 1 ? 1 : p->first_guest;
    struct layout l = compute_layout(s, first);
    for (int id = 0; id < METRIC_COUNT; id++) {
        int y = y0 + VIEW_HEADER_ROWS + 1 + id;
        if (y < y0 + height)
            put(y, 0, VIEW_LABEL_W - 1, colors_attr(ROLE_LABEL),
                metric_descs[id].label);
    }
    if (first > 1)
        put(y0, 0, VIEW_LABEL_W, colors_attr(ROLE_STALE), "< more");
    int x = VIEW_LABEL_W;
    draw_source_column(s, 0, x, &l, y0, height, utf8);
    x += l.src_w;
    for (int g = first; g < first + l.nguests && g < s->nsrc; g++) {
        draw_source_column(s, g, x, &l, y0, height, utf8);
        x += l.src_w;
        draw_ratio_column(s, g, x, y0, height, utf8);
        x += VIEW_RATIO_W;
    }
    if (first + l.nguests < s->nsrc)
        put(y0 + 1, 0, VIEW_LABEL_W, colors_attr(ROLE_STALE), "more >");
}

int table_panel_key(struct table_panel *p, const struct session *s, int ch)
{
    int first = p->first_guest < 1 ? 1 : p->first_guest;
    switch (ch) {
    case KEY_RIGHT:
        if (first + compute_layout(s, first).nguests < s->nsrc)
            p->first_guest = first + 1;
        return KR_HANDLED | KR_REDRAW;
    case KEY_LEFT:
        if (first > 1)
            p->first_guest = first - 1;
        return KR_HANDLED | KR_REDRAW;
    default:
        return KR_IGNORED;
    }
}
