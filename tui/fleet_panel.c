/* See fleet_panel.h. The fixed columns are the guest, its host and its
 * state; the rest scroll (Left Right). A ratio beyond 1.5 either way is
 * coloured as on the main screen; a stale or dataless row is drawn in
 * its state's colour and shows no figures (the view gives none). */
#include "tui/fleet_panel.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/colors.h"
#include "tui/panel.h"
#include "view/fit.h"

#define FIXED_COLS 3 /* FC_NAME, FC_HOST, FC_STATE */
#define MARK_W     2 /* "* " before a marked guest */

static const char *const dist_names[] = {"median", "p95", "worst"};

/* The columns that fit from first_col on, after the fixed ones: their
 * count into *ncols, ids into cols. */
static int layout(const struct fleet_panel *p, enum fleet_col *cols)
{
    int n = 0, x = MARK_W;
    for (int c = 0; c < FIXED_COLS; c++) {
        cols[n++] = (enum fleet_col)c;
        x += fleet_cols[c].width + 1;
    }
    for (int c = FIXED_COLS + p->first_col; c < FC_COUNT; c++) {
        if (x + fleet_cols[c].width + 1 > COLS)
            break;
        cols[n++] = (enum fleet_col)c;
        x += fleet_cols[c].width + 1;
    }
    return n;
}

/* One cell at the cursor in its column's width: text left, numbers right. */
static void cell(enum fleet_col c, const char *text, int attr)
{
    char buf[384]; /* a column's cells, up to 4 bytes each */
    fit_pad(buf, sizeof(buf) - 1, fleet_cols[c].width, text,
            fleet_col_numeric(c));
    strcat(buf, " ");
    attron(attr);
    addnstr(buf, COLS - getcurx(stdscr) > 0 ? COLS - getcurx(stdscr) : 0);
    attroff(attr);
}

static void draw_header(const struct fleet_view *v, const enum fleet_col *cols,
                        int ncols, int y, bool utf8)
{
    move(y, 0);
    attron(colors_attr(ROLE_LABEL));
    addstr("  ");
    attroff(colors_attr(ROLE_LABEL));
    for (int k = 0; k < ncols; k++) {
        enum fleet_col c = cols[k];
        const char *h =
            utf8 ? fleet_cols[c].header : fleet_cols[c].header_ascii;
        char buf[64];
        fit_pad(buf, sizeof(buf), fleet_cols[c].width, h, fleet_col_numeric(c));
        int attr = colors_attr(ROLE_LABEL) | (c == v->sort ? A_UNDERLINE : 0);
        attron(attr);
        addnstr(buf, COLS - getcurx(stdscr));
        attroff(attr);
        addstr(" ");
    }
}

static void draw_dist(const struct fleet_view *v, const struct fleet_model *m,
                      const enum fleet_col *cols, int ncols, int y, int which)
{
    char buf[64];
    move(y, 0);
    addstr("  ");
    for (int k = 0; k < ncols; k++) {
        enum fleet_col c = cols[k];
        if (c == FC_NAME) {
            cell(c, dist_names[which], colors_attr(ROLE_LABEL));
        } else if (c == FC_HOST && which == 2 &&
                   v->dist[v->sort].worst_src >= 0) {
            /* who is worst by the sort column */
            cell(c, m->src[v->dist[v->sort].worst_src].lab.name,
                 colors_attr(ROLE_LABEL));
        } else {
            fleet_dist_text(v, c, which, buf, sizeof(buf));
            cell(c, buf, colors_attr(ROLE_LABEL));
        }
    }
}

/* The colour of a cell: states, and ratios beyond 1.5 either way. */
static int cell_attr(const struct fleet_view *v, const struct fleet_model *m,
                     int i, enum fleet_col c)
{
    const struct fleet_source *s = &m->src[i];
    if (c == FC_STATE)
        return colors_attr(s->state == FLEET_LIVE   ? ROLE_LIVE
                           : s->state == FLEET_LATE ? ROLE_STALE
                                                    : ROLE_DOWN);
    enum fleet_col_kind k = fleet_cols[c].kind;
    if (k == FCK_RATIO || k == FCK_WL || k == FCK_INDEX) {
        double x = fleet_cell_number(v, m, i, c);
        if (isfinite(x) && x > 1.5)
            return colors_attr(ROLE_RATIO_BAD);
        if (isfinite(x) && x < 1 / 1.5)
            return colors_attr(ROLE_RATIO_GOOD);
    }
    return colors_attr(ROLE_NORMAL);
}

static void draw_row(const struct fleet_view *v, const struct fleet_model *m,
                     const struct fleet_run *r, const enum fleet_col *cols,
                     int ncols, int y, int i, bool selected, double now)
{
    char buf[96];
    move(y, 0);
    int sel = selected ? colors_attr(ROLE_SELECTION) : 0;
    attron(sel);
    addstr(fleet_view_marked(v, i) ? "* " : "  ");
    attroff(sel);
    for (int k = 0; k < ncols; k++) {
        fleet_cell_text(v, m, r, i, cols[k], now, buf, sizeof(buf));
        cell(cols[k], buf, selected ? sel : cell_attr(v, m, i, cols[k]));
    }
    if (selected && getcurx(stdscr) < COLS) { /* the bar runs to the edge */
        attron(sel);
        hline(' ', COLS - getcurx(stdscr));
        attroff(sel);
    }
}

void fleet_panel_draw(struct fleet_panel *p, const struct fleet_view *v,
                      const struct fleet_model *m, const struct fleet_run *r,
                      int y0, int height, double now, bool utf8)
{
    enum fleet_col cols[FC_COUNT];
    int ncols = layout(p, cols);
    if (height < 5)
        return;
    draw_header(v, cols, ncols, y0, utf8);
    for (int k = 0; k < 3; k++)
        draw_dist(v, m, cols, ncols, y0 + 1 + k, k);
    attron(colors_attr(ROLE_RULE));
    mvhline(y0 + 4, 0, utf8 ? ACS_HLINE : '-', COLS);
    attroff(colors_attr(ROLE_RULE));
    p->rows = height - 5;
    if (p->sel >= v->nrows)
        p->sel = v->nrows - 1;
    if (p->sel < 0)
        p->sel = 0;
    if (p->sel < p->top)
        p->top = p->sel;
    if (p->sel >= p->top + p->rows)
        p->top = p->sel - p->rows + 1;
    if (p->top > v->nrows - p->rows)
        p->top = v->nrows - p->rows > 0 ? v->nrows - p->rows : 0;
    for (int k = 0; k < p->rows && p->top + k < v->nrows; k++)
        draw_row(v, m, r, cols, ncols, y0 + 5 + k, v->row[p->top + k],
                 p->top + k == p->sel, now);
    if (v->nrows == 0 && m->link == FLEET_LINK_UP)
        mvaddnstr(y0 + 5, 2, "no guest matches the filter (/ to change it)",
                  COLS - 2);
}

int fleet_panel_selected(const struct fleet_panel *p,
                         const struct fleet_view *v)
{
    return p->sel >= 0 && p->sel < v->nrows ? v->row[p->sel] : -1;
}

/* Moves the sort to the next numeric or text column in direction d. */
static void sort_step(struct fleet_view *v, int d)
{
    int c = (int)v->sort + d;
    if (c < 0)
        c = FC_COUNT - 1;
    if (c >= FC_COUNT)
        c = 0;
    v->sort = (enum fleet_col)c;
}

int fleet_panel_key(struct fleet_panel *p, struct fleet_view *v, int ch)
{
    int page = p->rows > 1 ? p->rows - 1 : 1;
    switch (ch) {
    case KEY_UP:
    case 'k':
        p->sel--;
        break;
    case KEY_DOWN:
    case 'j':
        p->sel++;
        break;
    case KEY_PPAGE:
        p->sel -= page;
        break;
    case KEY_NPAGE:
        p->sel += page;
        break;
    case KEY_HOME:
        p->sel = 0;
        break;
    case KEY_END:
        p->sel = v->nrows - 1;
        break;
    case KEY_LEFT:
        if (p->first_col > 0)
            p->first_col--;
        break;
    case KEY_RIGHT:
        if (FIXED_COLS + p->first_col < FC_COUNT - 1)
            p->first_col++;
        break;
    case '<':
    case '>':
        sort_step(v, ch == '<' ? -1 : 1);
        snprintf(p->status, sizeof(p->status), "sorted by %s, %s",
                 fleet_cols[v->sort].header_ascii,
                 v->reverse ? "best first" : "worst first");
        break;
    case 'r':
        v->reverse = !v->reverse;
        snprintf(p->status, sizeof(p->status), "sorted by %s, %s",
                 fleet_cols[v->sort].header_ascii,
                 v->reverse ? "best first" : "worst first");
        break;
    case ' ': {
        int i = fleet_panel_selected(p, v);
        if (i >= 0)
            fleet_view_mark(v, i, !fleet_view_marked(v, i));
        p->sel++;
        snprintf(p->status, sizeof(p->status),
                 "%d guests marked for the next run (w)", v->nmarked);
        break;
    }
    default:
        return KR_IGNORED;
    }
    if (p->sel >= v->nrows)
        p->sel = v->nrows - 1;
    if (p->sel < 0)
        p->sel = 0;
    return KR_HANDLED | KR_REDRAW;
}
