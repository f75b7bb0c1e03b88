/* See latency_panel.h. */
#include "tui/latency_panel.h"

#include <curses.h>

#include "tui/colors.h"
#include "tui/panel.h"
#include "view/latency_view.h"

void latency_panel_open(struct latency_panel *p, const struct session *s,
                        const struct jobs *j)
{
    p->open = true;
    p->wl = latency_next_workload(j, -1, 1);
    for (int w = p->wl; w >= 0;) { /* the first with a distribution */
        struct lat_view v;
        for (int src = 0; src < s->nsrc; src++) {
            latency_view_of(j, src, w, &v);
            if (v.ok) {
                p->wl = w;
                return;
            }
        }
        int next = latency_next_workload(j, w, 1);
        if (next <= w)
            break;
        w = next;
    }
}

void latency_panel_draw(const struct latency_panel *p, const struct session *s,
                        const struct jobs *j, int y0, int y1)
{
    static char lines[LAT_VIEW_LINES][LAT_VIEW_LINE_MAX];
    for (int y = y0; y <= y1; y++) {
        move(y, 0);
        clrtoeol();
    }
    attron(colors_attr(ROLE_TITLE));
    mvprintw(y0, 0, "%-*.*s", COLS, COLS,
             p->wl >= 0 ? j->wl[p->wl]->name : "no latency workload");
    mvprintw(y0, COLS > 56 ? COLS - 56 : 0, "%.*s", COLS,
             "last repeat  <- -> workload  c counts/shares  any: close");
    attroff(colors_attr(ROLE_TITLE));
    int n = p->wl >= 0 ? latency_view_text(s, j, p->wl, p->shares, COLS - 1,
                                           y1 - y0, lines)
                       : 0;
    if (n == 0)
        mvprintw(y0 + 1, 0, "%.*s", COLS - 1,
                 "no source has finished a repeat of it yet (Space starts "
                 "the selected workload)");
    for (int i = 0; i < n && y0 + 1 + i <= y1; i++)
        mvprintw(y0 + 1 + i, 0, "%s", lines[i]);
}

int latency_panel_key(struct latency_panel *p, const struct jobs *j, int ch)
{
    switch (ch) {
    case KEY_RESIZE:
        return KR_HANDLED | KR_REDRAW;
    case KEY_LEFT:
    case KEY_RIGHT:
        p->wl = latency_next_workload(j, p->wl, ch == KEY_RIGHT ? 1 : -1);
        return KR_HANDLED | KR_REDRAW;
    case 'c':
        p->shares = !p->shares;
        return KR_HANDLED | KR_REDRAW;
    default:
        p->open = false;
        return KR_HANDLED | KR_REDRAW;
    }
}
