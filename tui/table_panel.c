/* See table_panel.h: the table's layout and drawing (its keys and
 * selection are tui/table_keys.c). The host column is always shown;
 * guests (each with its ratio column) fill the rest of the width.
 * Sparklines get the room that is left, up to twice their --text width,
 * and shrink before any column scrolls out. All cell text comes from
 * view/ (view.c, view_time.c, view_jobs.c). */
#include "tui/table_panel.h"
#include "base/clock.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "tui/colors.h"
#include "tui/panel.h"
#include "tui/row_cache.h"
#include "view/fit.h"
#include "view/view.h"
#include "view/view_jobs.h"
#include "view/view_time.h"

#define SPARK_MAX (2 * VIEW_SPARK_W)
#define SPARK_MIN 4 /* below this, scroll rather than shrink */
struct layout {
    /* the counters section: the metric rows, a "time" line, the Time
     * lines (clock, sleeps, fairness: view/view_time.h) */
    struct time_line tl[VIEW_TIME_LINES_MAX];
    int ntl, counter_rows;
    int spark_w;
    int src_w;                      /* width of a source column */
    int nguests;                    /* guests that fit */
    int first;                      /* the first guest shown */
    int y_metrics, n_metrics;       /* counter and Time rows shown */
    int top;                        /* the first of them shown */
    int y_sep, y_wl, n_wl, y_index; /* workloads section */
    double now;                     /* the moment the sources' ages count to */
};

static void layout_columns(struct layout *l, const struct session *s, int first)
{
    int guests = s->nsrc - first > 0 ? s->nsrc - first : 0;
    int fixed = VIEW_VALUE_W + 3; /* figure, space, gap */
    for (;; guests--) {
        int room = COLS - VIEW_LABEL_W - guests * VIEW_RATIO_W;
        l->spark_w = room / (guests + 1) - fixed;
        if (l->spark_w > SPARK_MAX)
            l->spark_w = SPARK_MAX;
        if (l->spark_w >= SPARK_MIN || guests <= 0)
            break;
    }
    if (l->spark_w < 0)
        l->spark_w = 0;
    l->src_w = fixed + l->spark_w;
    l->nguests = guests;
    l->first = first;
}

int table_panel_guests_fit(const struct session *s, int first)
{
    struct layout l;
    layout_columns(&l, s, first);
    return l.nguests;
}

/* Splits the rows below the headers between counters (with the Time rows)
 * and workloads, and picks the first counter or Time row shown. */
static void layout_rows(struct layout *l, const struct table_panel *p,
                        const struct jobs *j, int y0, int height)
{
    int avail = height - VIEW_HEADER_ROWS - 1;
    int wl_need = j->nwl + 2; /* separator, rows, index */
    int rows = l->counter_rows;
    if (rows + wl_need <= avail)
        l->n_metrics = rows;
    else if (p->focus != FOCUS_WORKLOADS)
        l->n_metrics = avail - 3 < rows ? avail - 3 : rows;
    else
        l->n_metrics = avail - wl_need > 4 ? avail - wl_need : 4;
    if (l->n_metrics < 0)
        l->n_metrics = 0;
    l->top = p->upper_top;
    if (l->top > rows - l->n_metrics)
        l->top = rows - l->n_metrics;
    /* never the " time " rule as the last row, a heading with no rows */
    if (l->n_metrics > 1 && l->top + l->n_metrics - 1 == METRIC_COUNT &&
        l->top < rows - l->n_metrics)
        l->top++;
    if (l->top < 0)
        l->top = 0;
    l->y_metrics = y0 + VIEW_HEADER_ROWS + 1;
    l->y_sep = l->y_metrics + l->n_metrics;
    l->y_wl = l->y_sep + 1;
    l->n_wl = avail - l->n_metrics - 2;
    if (l->n_wl > j->nwl)
        l->n_wl = j->nwl;
    if (l->n_wl < 0)
        l->n_wl = 0;
    l->y_index = l->y_wl + l->n_wl;
}

static int state_role(const struct source_model *m, double now, double iv)
{
    if (m->state == SRC_DOWN)
        return ROLE_DOWN;
    if (m->state == SRC_CONNECTING || model_is_stale(m, now, iv))
        return ROLE_STALE;
    return ROLE_LIVE;
}

/* Cells go in ready-made (addchnstr, add_wchnstr): addnstr decodes every
 * byte as a possible multibyte character and made most of a redraw's
 * cost. Ready-made cells skip the background merge addch does, so attr
 * gets the background's colour and attributes here. */
static chtype cell_attr(int attr)
{
    chtype bk = getbkgd(stdscr) & A_ATTRIBUTES, a = (chtype)attr;
    if (!(a & A_COLOR))
        a |= bk & A_COLOR;
    return a | (bk & ~A_COLOR);
}

static void put(int y, int x, int w, int attr, const char *text)
{
    if (x >= COLS || w <= 0)
        return;
    if (x + w > COLS)
        w = COLS - x;
    row_cache_feed(y, x, w, attr, text);
    chtype cells[256], a = cell_attr(attr);
    int n = 0;
    for (; n < w && n < 256 && text[n]; n++) {
        unsigned char c = (unsigned char)text[n];
        if (c < 0x20 || c >= 0x7f) { /* not plain ASCII: ncurses decodes */
            attron(attr);
            /* addnstr counts bytes: "±0.4ms" lost its "s" in six cells */
            mvaddnstr(y, x, text, (int)fit_bytes(text, w));
            attroff(attr);
            return;
        }
        cells[n] = c | a;
    }
    mvaddchnstr(y, x, cells, n);
}

/* The next character of UTF-8 text at *p (advanced), 0 at its end. */
static wchar_t utf8_next(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    int len = s[0] < 0x80 ? 1 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
    wchar_t c = len == 1 ? s[0] : s[0] & (0x3f >> (len - 1));
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0; /* cut short: stop there */
        c = (c << 6) | (s[i] & 0x3f);
    }
    *p += len;
    return c;
}

/* A UTF-8 string of known cell width (one cell a character, as the
 * sparklines' blocks), drawn only when it fits whole. */
static void put_cells(int y, int x, int cells, int attr, const char *text)
{
    if (x + cells > COLS || cells <= 0)
        return;
    row_cache_feed(y, x, cells, attr, text);
    cchar_t cc[SPARK_MAX + 1];
    chtype a = cell_attr(attr);
    int n = 0;
    wchar_t wc[2] = {0, 0};
    while (n < cells && n <= SPARK_MAX && (wc[0] = utf8_next(&text)))
        setcchar(&cc[n++], wc, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
    mvadd_wchnstr(y, x, cc, n);
}

/* text in w cells at (y, x), with an ellipsis when it does not fit. */
static void put_fit(int y, int x, int w, int attr, const char *text, bool utf8)
{
    char buf[256];
    if (x + w > COLS)
        w = COLS - x;
    fit_text(buf, sizeof(buf), w, text, utf8);
    put(y, x, w, attr, buf);
}

static void draw_headers(const struct session *s, const struct jobs *j, int src,
                         int x, const struct layout *l, int y0, bool utf8)
{
    const struct source_model *m = &s->model[src];
    double now = l->now;
    for (int row = 0; row < VIEW_HEADER_ROWS; row++) {
        char buf[160];
        view_source_header(m, row, now, s->interval, l->src_w - 2, buf,
                           sizeof(buf), utf8);
        int attr = A_NORMAL;
        if (row == 0) {
            attr = colors_attr(ROLE_SOURCE);
            if (j->excluded[src]) { /* does not take part: always said */
                char name[120];
                fit_text(name, sizeof(name),
                         l->src_w - 8 > 1 ? l->src_w - 8 : 1, m->name, utf8);
                snprintf(buf, sizeof(buf), "%s [off]", name);
            }
        } else if (row == 1) {
            attr = colors_attr(state_role(m, now, s->interval));
        }
        put(y0 + row, x + 1, l->src_w - 2, attr, buf);
    }
}

/* A figure the source's clock contradicts, or cut short, stands out as a
 * bad ratio does; one that is only uncertain, as a stale source does. */
static int job_detail_attr(int flags)
{
    if (flags & (VJ_DIVERGENT | VJ_UNBRACKETED | VJ_PARTIAL))
        return colors_attr(ROLE_RATIO_BAD);
    if (flags & (VJ_NOISY | VJ_REPORTED | VJ_OVERLAP))
        return colors_attr(ROLE_STALE);
    return A_NORMAL;
}

static void draw_source_column(const struct session *s, const struct jobs *j,
                               int src, int x, const struct layout *l,
                               int wl_top, bool utf8)
{
    const struct source_model *m = &s->model[src];
    char val[32], spark[SPARK_MAX * 4 + 1], detail[160];
    for (int r = 0; r < l->n_metrics; r++) {
        int y = l->y_metrics + r, id = l->top + r;
        if (id >= METRIC_COUNT) { /* the Time lines */
            int row = id - METRIC_COUNT - 1;
            if (row < 0 || l->tl[row].kind == TL_RULE)
                continue;
            bool fault =
                view_time_line_cell(s, j, src, &l->tl[row], val, sizeof(val),
                                    detail, sizeof(detail), utf8);
            /* a fault stands out: figure and detail */
            int attr = fault ? colors_attr(ROLE_RATIO_BAD) : (int)A_NORMAL;
            put(y, x, VIEW_VALUE_W, attr, val);
            put_fit(y, x + VIEW_VALUE_W + 1, l->spark_w + 2, attr, detail,
                    utf8);
            continue;
        }
        view_metric_cell(m, id, val, sizeof(val), spark, sizeof(spark),
                         l->spark_w, utf8);
        put(y, x, VIEW_VALUE_W, A_NORMAL, val);
        if (l->spark_w > 0)
            put_cells(y, x + VIEW_VALUE_W + 1, l->spark_w,
                      colors_attr(ROLE_SPARK), spark);
    }
    for (int r = 0; r < l->n_wl; r++) {
        int w = wl_top + r;
        view_job_cell(j, m, src, w, val, sizeof(val), detail, sizeof(detail),
                      utf8);
        put(l->y_wl + r, x, VIEW_VALUE_W, A_NORMAL, val);
        put_fit(l->y_wl + r, x + VIEW_VALUE_W + 1, l->spark_w + 2,
                job_detail_attr(view_job_flags(j, src, w)), detail, utf8);
    }
}

/* Colour only where a ratio judges (view_ratio_mark). */
static int ratio_attr(double r, enum view_ratio_kind kind)
{
    switch (view_ratio_mark(r, kind)) {
    case VM_BAD:
        return colors_attr(ROLE_RATIO_BAD);
    case VM_GOOD:
        return colors_attr(ROLE_RATIO_GOOD);
    case VM_PLAIN:
        break;
    }
    return A_NORMAL;
}

/* Ratio r of kind k drawn at (y, x) in source src's ratio column. */
static void put_ratio(const struct session *s, int src, int y, int x, double r,
                      enum view_ratio_kind k, int extra)
{
    char buf[16];
    view_column_ratio_text(&s->model[src], r, k, buf, sizeof(buf));
    put(y, x, VIEW_RATIO_W, ratio_attr(r, k) | extra, buf);
}

static void draw_ratio_column(const struct session *s, const struct jobs *j,
                              int src, int x, const struct layout *l, int y0,
                              int wl_top, bool utf8)
{
    for (int row = 0; row < 2; row++) { /* "×" and what a high one means */
        const char *head = view_column_ratio_header(&s->model[src], row, utf8);
        int cells = fit_cells(head);
        put_cells(y0 + row, x + VIEW_RATIO_W - cells, cells,
                  colors_attr(row ? ROLE_LABEL : ROLE_SOURCE), head);
    }
    for (int row = 0; row < l->n_metrics; row++) {
        int id = l->top + row;
        const struct time_line *tl =
            id > METRIC_COUNT ? &l->tl[id - METRIC_COUNT - 1] : NULL;
        if (id == METRIC_COUNT || (tl && tl->kind == TL_RULE))
            continue; /* the "time" line, a section line */
        double r = !tl ? view_metric_ratio(&s->model[src], &s->model[0], id)
                       : view_time_line_ratio(s, j, src, tl);
        enum view_ratio_kind k =
            !tl ? view_metric_ratio_kind(&s->model[src], &s->model[0], id)
                : view_time_line_ratio_kind(tl);
        int extra = 0;
        char v[32],
            d[160]; /* a clock's rate: coloured when its row's a fault */
        if (k == VR_RATE && view_time_line_cell(s, j, src, tl, v, sizeof(v), d,
                                                sizeof(d), utf8))
            extra = colors_attr(ROLE_RATIO_BAD);
        put_ratio(s, src, l->y_metrics + row, x, r, k, extra);
    }
    bool any = false;
    for (int w = 0; w < j->nwl; w++)
        any |= view_job_ratio_kind(j, src, w) != VR_EMPTY;
    for (int row = 0; row < l->n_wl; row++) {
        int w = wl_top + row;
        put_ratio(s, src, l->y_wl + row, x, view_job_ratio(j, src, w),
                  view_job_ratio_kind(j, src, w), 0);
    }
    put_ratio(s, src, l->y_index, x, view_job_index(j, src),
              any ? VR_JUDGED : VR_EMPTY, A_BOLD);
}

/* A section line across the screen: "─ name ─────". */
static void draw_rule(int y, const char *name, bool utf8)
{
    row_cache_taint(y); /* ACS characters, not cells we hash */
    attron(colors_attr(ROLE_RULE));
    mvhline(y, 0, utf8 ? ACS_HLINE : '-', COLS);
    attroff(colors_attr(ROLE_RULE));
    put(y, 1, (int)strlen(name), colors_attr(ROLE_RULE) | A_BOLD, name);
}

bool table_panel_pages_workloads(const struct table_panel *p, bool upper_hidden)
{
    return p->focus == FOCUS_WORKLOADS || !upper_hidden;
}

/* The workloads' rule: which workloads show when some do not ("workloads
 * 12-22 of 25"), and on its right whether PgUp/PgDn have more to show. */
static void draw_sep(const struct table_panel *p, const struct jobs *j,
                     const struct layout *l, bool utf8)
{
    char title[64];
    if (l->n_wl < j->nwl && l->n_wl > 0)
        snprintf(title, sizeof(title), " workloads %d-%d of %d ", p->wl_top + 1,
                 p->wl_top + l->n_wl, j->nwl);
    else if (l->n_wl < j->nwl)
        snprintf(title, sizeof(title), " workloads: %d hidden ", j->nwl);
    else
        snprintf(title, sizeof(title), " workloads ");
    draw_rule(l->y_sep, title, utf8);
    bool above, below,
        upper_hidden = l->top > 0 || l->top + l->n_metrics < l->counter_rows;
    if (table_panel_pages_workloads(p, upper_hidden)) {
        above = p->wl_top > 0;
        below = p->wl_top + l->n_wl < j->nwl;
    } else {
        above = l->top > 0;
        below = l->top + l->n_metrics < l->counter_rows;
    }
    const char *more = above && below ? " PgUp/PgDn more "
                       : below        ? " PgDn more "
                       : above        ? " PgUp more "
                                      : NULL;
    int w = more ? (int)strlen(more) : 0;
    if (more && COLS - w - 1 > (int)strlen(title) + 2)
        put(l->y_sep, COLS - w - 1, w, colors_attr(ROLE_RULE) | A_BOLD, more);
}

static void draw_labels(const struct table_panel *p, const struct jobs *j,
                        const struct layout *l, bool utf8)
{
    for (int r = 0; r < l->n_metrics; r++) {
        int y = l->y_metrics + r, id = l->top + r;
        const struct time_line *tl =
            id > METRIC_COUNT ? &l->tl[id - METRIC_COUNT - 1] : NULL;
        if (id == METRIC_COUNT)
            draw_rule(y, " time ", utf8);
        else if (tl && tl->kind == TL_RULE)
            draw_rule(y, tl->label, utf8);
        else
            put(y, 0, VIEW_LABEL_W - 1, colors_attr(ROLE_LABEL),
                tl ? tl->label : metric_descs[id].label);
    }
    draw_sep(p, j, l, utf8);
    for (int r = 0; r < l->n_wl; r++) {
        int w = p->wl_top + r;
        char label[VIEW_LABEL_W + 1];
        snprintf(label, sizeof(label), "%c %s", jobs_running(j, w) ? '>' : ' ',
                 j->wl[w]->name);
        int attr = colors_attr(ROLE_LABEL);
        if (w == p->sel && p->focus == FOCUS_WORKLOADS)
            attr = colors_attr(ROLE_SELECTION);
        put(l->y_wl + r, 0, VIEW_LABEL_W - 1, attr, label);
    }
    put(l->y_index, 0, VIEW_LABEL_W - 1, colors_attr(ROLE_LABEL) | A_BOLD,
        "  index");
}

void table_panel_take_message(struct table_panel *p, const struct jobs *j)
{
    if (j->message_seq != p->message_seq) { /* a refusal from a guest */
        p->message_seq = j->message_seq;
        snprintf(p->status, sizeof(p->status), "%s", j->message);
    }
    run_status_update(&p->runs, j, p->status, sizeof(p->status));
}

void table_panel_draw(struct table_panel *p, const struct session *s,
                      const struct jobs *j, int y0, int height, bool utf8)
{
    static struct layout l; /* a few KB: kept off the stack */
    row_cache_begin(y0, height);
    table_panel_follow_suite(p, j);
    l.ntl =
        view_time_lines(s, j, l.tl, VIEW_TIME_LINES_MAX, VIEW_FAIR_TASKS_MAX);
    l.counter_rows = METRIC_COUNT + 1 + l.ntl;
    layout_columns(&l, s, p->first_guest < 1 ? 1 : p->first_guest);
    layout_rows(&l, p, j, y0, height);
    p->upper_top = l.top; /* PgUp after an overshoot moves at once */
    p->upper_rows = l.n_metrics;
    p->upper_hidden = l.top > 0 || l.top + l.n_metrics < l.counter_rows;
    p->wl_rows = l.n_wl;
    l.now = p->shown_at > 0 ? p->shown_at : clock_mono();
    /* keep the selection in view */
    if (p->sel < p->wl_top)
        p->wl_top = p->sel;
    if (l.n_wl > 0 && p->sel >= p->wl_top + l.n_wl)
        p->wl_top = p->sel - l.n_wl + 1;
    if (p->wl_top > j->nwl - l.n_wl)
        p->wl_top = j->nwl - l.n_wl > 0 ? j->nwl - l.n_wl : 0;

    draw_labels(p, j, &l, utf8);
    if (l.first > 1)
        put(y0, 0, VIEW_LABEL_W, colors_attr(ROLE_STALE), "< more");
    int x = VIEW_LABEL_W;
    draw_headers(s, j, 0, x, &l, y0, utf8);
    draw_source_column(s, j, 0, x, &l, p->wl_top, utf8);
    x += l.src_w;
    for (int g = l.first; g < l.first + l.nguests && g < s->nsrc; g++) {
        draw_headers(s, j, g, x, &l, y0, utf8);
        draw_source_column(s, j, g, x, &l, p->wl_top, utf8);
        x += l.src_w;
        draw_ratio_column(s, j, g, x, &l, y0, p->wl_top, utf8);
        x += VIEW_RATIO_W;
    }
    if (l.first + l.nguests < s->nsrc)
        put(y0 + 1, 0, VIEW_LABEL_W, colors_attr(ROLE_STALE), "more >");
}
