/* The main table's keys and selection (see table_panel.h): scrolling
 * sideways and by pages, Tab's focus, the selected workload and the
 * workload keys, the sources that take part; the selection following a
 * running suite. Layout and drawing are tui/table_panel.c's. */
#include "tui/table_panel.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/panel.h"
#include "view/view.h"

#define SUITE_KEY_SUITE "quick"

void table_panel_follow_suite(struct table_panel *p, const struct jobs *j)
{
    int at = run_status_suite_at(j);
    if (at >= 0 && at + 1 != p->followed)
        p->sel = at;
    p->followed = at + 1;
}

/* Space: start the selected workload, or stop it where it runs. */
static void toggle_selected(struct table_panel *p, const struct session *s,
                            struct jobs *j)
{
    const char *name = j->wl[p->sel]->name;
    if (jobs_running(j, p->sel)) {
        jobs_stop(j, s, p->sel);
        snprintf(p->status, sizeof(p->status), "stopping %s", name);
        return;
    }
    char err[160];
    if (jobs_start(j, s, p->sel, err, sizeof(err)) < 0)
        snprintf(p->status, sizeof(p->status), "%s: %s", name, err);
    else
        run_status_one(&p->runs, j, p->sel, p->status, sizeof(p->status));
}

static int workload_key(struct table_panel *p, const struct session *s,
                        struct jobs *j, int ch)
{
    char err[160];
    switch (ch) {
    case ' ':
        toggle_selected(p, s, j);
        return KR_HANDLED | KR_REDRAW;
    case 'a':
        if (jobs_run_suite(j, s, SUITE_KEY_SUITE, err, sizeof(err)) < 0)
            snprintf(p->status, sizeof(p->status), "suite: %s", err);
        else
            run_status_suite(&p->runs, SUITE_KEY_SUITE, j->qlen, p->status,
                             sizeof(p->status));
        return KR_HANDLED | KR_REDRAW;
    case 'x':
        jobs_stop_all(j, s);
        snprintf(p->status, sizeof(p->status), "stopping every workload");
        return KR_HANDLED | KR_REDRAW;
    default:
        if (ch >= '0' && ch <= '9' && ch - '0' < s->nsrc) {
            char text[2] = {(char)ch, '\0'};
            table_panel_toggle(p, s, j, text);
            return KR_HANDLED | KR_REDRAW;
        }
        if (ch >= '0' && ch <= '9') { /* said, not ignored */
            snprintf(p->status, sizeof(p->status),
                     "no source %c: the sources are 0-%d (0 is this host)", ch,
                     s->nsrc - 1);
            return KR_HANDLED | KR_REDRAW;
        }
        return KR_IGNORED;
    }
}

/* Tab: counters, then the Time rows, then the workloads get the height;
 * the counters and Time rows scroll to where their section starts. */
static void cycle_focus(struct table_panel *p)
{
    switch (p->focus) {
    case FOCUS_COUNTERS:
        p->focus = FOCUS_TIME;
        p->upper_top = METRIC_COUNT; /* the " time " rule */
        break;
    case FOCUS_TIME:
        p->focus = FOCUS_WORKLOADS;
        break;
    case FOCUS_WORKLOADS:
        p->focus = FOCUS_COUNTERS;
        p->upper_top = 0;
        break;
    }
}

/* PgDn/PgUp: a page of workloads (table_panel_pages_workloads), the selection
 * moving with it; else a page of counter and Time rows (the draw keeps them in
 * range), which then get the height. */
static void scroll_page(struct table_panel *p, const struct jobs *j, int dir)
{
    if (table_panel_pages_workloads(p, p->upper_hidden)) {
        int page = p->wl_rows > 2 ? p->wl_rows - 1 : 1;
        p->wl_top += dir * page;
        p->sel += dir * page;
        if (p->wl_top > j->nwl - p->wl_rows)
            p->wl_top = j->nwl - p->wl_rows;
        if (p->wl_top < 0)
            p->wl_top = 0;
        if (p->sel >= j->nwl)
            p->sel = j->nwl - 1;
        if (p->sel < 0)
            p->sel = 0;
        return;
    }
    int page = p->upper_rows > 2 ? p->upper_rows - 1 : 1;
    p->upper_top += dir * page;
    if (p->upper_top < 0)
        p->upper_top = 0;
    p->focus = p->upper_top >= METRIC_COUNT ? FOCUS_TIME : FOCUS_COUNTERS;
}

int table_panel_key(struct table_panel *p, const struct session *s,
                    struct jobs *j, int ch)
{
    int first = p->first_guest < 1 ? 1 : p->first_guest;
    switch (ch) {
    case KEY_RIGHT:
        if (first + table_panel_guests_fit(s, first) < s->nsrc)
            p->first_guest = first + 1;
        return KR_HANDLED | KR_REDRAW;
    case KEY_LEFT:
        if (first > 1)
            p->first_guest = first - 1;
        return KR_HANDLED | KR_REDRAW;
    case '\t':
        cycle_focus(p);
        return KR_HANDLED | KR_REDRAW;
    case KEY_NPAGE:
    case KEY_PPAGE:
        scroll_page(p, j, ch == KEY_NPAGE ? 1 : -1);
        return KR_HANDLED | KR_REDRAW;
    case KEY_DOWN:
    case 'j':
        p->focus = FOCUS_WORKLOADS;
        if (p->sel < j->nwl - 1)
            p->sel++;
        return KR_HANDLED | KR_REDRAW;
    case KEY_UP:
    case 'k':
        p->focus = FOCUS_WORKLOADS;
        if (p->sel > 0)
            p->sel--;
        return KR_HANDLED | KR_REDRAW;
    default:
        return workload_key(p, s, j, ch);
    }
}

/* The source a word of the toggle prompt names, by index or name; -1. */
static int source_named(const struct session *s, const char *word)
{
    char *end;
    long i = strtol(word, &end, 10);
    if (*word && *end == '\0')
        return i >= 0 && i < s->nsrc ? (int)i : -1;
    for (int src = 0; src < s->nsrc; src++)
        if (strcmp(s->model[src].name, word) == 0)
            return src;
    return -1;
}

/* Finds the sources text names (at most max); -1 and the status say
 * which word names none. */
static int sources_named(struct table_panel *p, const struct session *s,
                         const char *text, int *src, int max)
{
    char words[128];
    snprintf(words, sizeof(words), "%s", text);
    int n = 0;
    for (char *save, *w = strtok_r(words, " ,", &save); w && n < max;
         w = strtok_r(NULL, " ,", &save)) {
        if ((src[n++] = source_named(s, w)) < 0) {
            snprintf(p->status, sizeof(p->status),
                     "no source %.32s: give 0-%d (0 is this host) or a name", w,
                     s->nsrc - 1);
            return -1;
        }
    }
    return n;
}

void table_panel_toggle(struct table_panel *p, const struct session *s,
                        struct jobs *j, const char *text)
{
    int src[SESSION_MAX_SOURCES];
    int n = sources_named(p, s, text, src, SESSION_MAX_SOURCES);
    if (n < 0)
        return; /* nothing toggled: the answer was not understood */
    if (n == 1) {
        j->excluded[src[0]] = !j->excluded[src[0]];
        snprintf(p->status, sizeof(p->status), "%s %s workloads",
                 s->model[src[0]].name,
                 j->excluded[src[0]] ? "takes no part in" : "takes part in");
        return;
    }
    int len = snprintf(p->status, sizeof(p->status), "workloads:");
    for (int i = 0; i < n; i++) {
        j->excluded[src[i]] = !j->excluded[src[i]];
        if (len < (int)sizeof(p->status))
            len += snprintf(p->status + len, sizeof(p->status) - (size_t)len,
                            " %s %s%s", s->model[src[i]].name,
                            j->excluded[src[i]] ? "off" : "on",
                            i + 1 < n ? "," : "");
    }
}
