/* See report_text.h. One section per function, each one table; the cells
 * come from the same view helpers the screen uses, so the report says
 * what the screen said. ASCII only: no sparklines, "+-" for the interval,
 * "x" for ratios. */
#include "report/report_text.h"

#include <math.h>
#include <string.h>

#include "view/fmt.h"
#include "core/jobs.h"
#include "report/report_common.h"
#include "report/report_table.h"
#include "core/version.h"
#include "view/view.h"
#include "view/view_replay.h"
#include "view/view_time.h"

#define MAX_COLS (2 * SESSION_MAX_SOURCES + 1)

static void heading(FILE *f, const char *title, const char *note)
{
    fprintf(f, "\n%s\n", title);
    if (note)
        rtable_wrap(f, "", note);
    fputc('\n', f);
}

static void print_header(FILE *f, const struct session *s,
                         const struct report_meta *meta)
{
    char date[64];
    struct tm tm;
    strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S %z",
             localtime_r(&meta->when, &tm));
    fprintf(f, "parallax report\n===============\n\n");
    fprintf(f, "version:   parallax %s\n", PARALLAX_VERSION);
    fprintf(f, "date:      %s\n", date);
    fprintf(f, "interval:  %.1f s\n", s->interval);
    fprintf(f, "sources:   %d\n", s->nsrc);
}

/* What a source reads; a long one (a baseline's path) by its file name,
 * whole in a note. */
static void add_target(struct rtable *t, const char *target)
{
    const char *file = strrchr(target, '/');
    if (!target[0])
        rtable_add(t, "local");
    else if (strlen(target) <= RTABLE_CELL_W)
        rtable_add(t, "%s", target);
    else
        rtable_add_noted(t, file ? file + 1 : "", target);
}

static void print_sources(FILE *f, const struct session *s,
                          const struct report_meta *meta)
{
    heading(f, "SOURCES", NULL);
    struct rtable *t = rtable_new("llllrrll");
    rtable_add(t, "source");
    rtable_add(t, "target");
    rtable_add(t, "host name");
    rtable_add(t, "kernel");
    rtable_add(t, "cpus");
    rtable_add(t, "memory");
    rtable_add(t, "clocksource");
    rtable_add(t, "state");
    for (int i = 0; i < s->nsrc; i++) {
        const struct source_model *m = &s->model[i];
        const struct source_info *in = &m->info;
        char mem[16] = "?";
        if (in->mem_bytes > 0)
            fmt_bytes(mem, sizeof(mem), in->mem_bytes);
        rtable_add(t, "%s", m->name);
        add_target(t, m->target);
        rtable_add(t, "%s", in->host[0] ? in->host : "?");
        rtable_add(t, "%s", in->release[0] ? in->release : "?");
        if (in->ncpu > 0)
            rtable_add(t, "%d", in->ncpu);
        else
            rtable_add(t, "?");
        rtable_add(t, "%s", mem);
        rtable_add(t, "%s", report_clocksource(meta, i));
        char rec[48];
        if (view_is_baseline(m)) { /* its name says when it was saved */
            rtable_add(t, "saved run");
        } else if (m->replay.on && m->state == SRC_LIVE) {
            view_replay_state(m, rec, sizeof(rec)); /* "rec 14:02:11" */
            rtable_add(t, "%s", rec);
        } else
            rtable_add_noted(t, report_state_name(m->state),
                             m->state == SRC_DOWN ? m->error : "");
    }
    rtable_print(f, t);
    rtable_free(t);
}

static void add_ratio(struct rtable *t, double r)
{
    char buf[32];
    view_ratio_text(r, buf, sizeof(buf));
    rtable_add(t, "%s", buf);
}

/* v after prefix with prec significant digits, or "-" for n/a. Large
 * figures are written out whole: 25500000 and +-110, not 2.55e+07 and
 * +-1.1e+02, which read badly in a table. */
static void add_num(struct rtable *t, const char *prefix, int prec, double v)
{
    char buf[64];
    if (!isfinite(v)) {
        rtable_add(t, "-");
        return;
    }
    snprintf(buf, sizeof(buf), "%.*g", prec, v);
    if (strchr(buf, 'e') && fabs(v) >= 1)
        snprintf(buf, sizeof(buf), "%.0f", v);
    rtable_add(t, "%s%s", prefix, buf);
}

static void workload_row(struct rtable *t, const struct jobs *j, int src,
                         const char *name, int w)
{
    const struct job_cell *c = jobs_cell(j, src, w);
    rtable_add(t, "%s", src == 0 ? j->wl[w]->name : "");
    rtable_add(t, "%s", src == 0 ? j->wl[w]->unit : "");
    rtable_add(t, "%s", name);
    rtable_add(t, "%s", report_job_state_name(c->state));
    rtable_add(t, "%d", c->stats.n);
    add_num(t, "", 4, c->stats.median);
    add_num(t, "+-", 2, c->stats.ci95);
    if (src == 0)
        rtable_add(t, "%s", "");
    else
        add_ratio(t, view_job_ratio(j, src, w));
    /* why it failed goes under the table: it can be long */
    rtable_add_noted(t, "", c->state == JOB_FAILED ? c->note : "");
}

static void print_workloads(FILE *f, const struct session *s,
                            const struct jobs *j)
{
    heading(f, "WORKLOADS",
            "median of n repeats, 95% interval of the mean; x host > 1: worse "
            "in the guest");
    struct rtable *t = rtable_new("lllrrrrrl");
    const char *head[] = {"workload", "unit",   "source", "state", "n",
                          "median",   "95% ci", "x host", "note"};
    for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
        rtable_add(t, "%s", head[i]);
    int rows = 0;
    for (int w = 0; w < j->nwl; w++) {
        if (!report_wl_ran(j, s->nsrc, w))
            continue;
        for (int src = 0; src < s->nsrc; src++)
            workload_row(t, j, src, s->model[src].name, w);
        rows++;
    }
    if (rows)
        rtable_print(f, t);
    else
        fprintf(f, "(no workload ran)\n");
    rtable_free(t);
}

/* "l" then "r" for each guest: the index table's alignment. */
static void guest_align(char *buf, int nsrc)
{
    int n = 0;
    buf[n++] = 'l';
    for (int i = 1; i < nsrc; i++)
        buf[n++] = 'r';
    buf[n] = '\0';
}

static void print_index(FILE *f, const struct session *s, const struct jobs *j)
{
    heading(f, "INDEX VALUES",
            "guest/host ratio per workload (> 1: worse in the guest); final "
            "score: their geometric mean");
    if (s->nsrc < 2) {
        fprintf(f, "(no guest)\n");
        return;
    }
    char align[MAX_COLS + 1];
    guest_align(align, s->nsrc);
    struct rtable *t = rtable_new(align);
    rtable_add(t, "workload");
    for (int g = 1; g < s->nsrc; g++)
        rtable_add(t, "%s", s->model[g].name);
    for (int w = 0; w < j->nwl; w++) {
        if (!report_wl_ran(j, s->nsrc, w))
            continue;
        rtable_add(t, "%s", j->wl[w]->name);
        for (int g = 1; g < s->nsrc; g++)
            add_ratio(t, view_job_ratio(j, g, w));
    }
    rtable_add(t, "FINAL SCORE (geo-mean)");
    for (int g = 1; g < s->nsrc; g++)
        add_ratio(t, view_job_index(j, g));
    rtable_print(f, t);
    rtable_free(t);
}

/* The header row of a grid of sources and their ratios to the host. */
static struct rtable *source_grid(const struct session *s, const char *first)
{
    char align[MAX_COLS + 1];
    struct view_col cols[MAX_COLS];
    int ncol = view_columns(s->nsrc, cols, MAX_COLS - 1);
    memset(align, 'r', (size_t)ncol + 1);
    align[0] = 'l';
    align[ncol + 1] = '\0';
    struct rtable *t = rtable_new(align);
    rtable_add(t, "%s", first);
    for (int c = 0; c < ncol; c++)
        rtable_add(t, "%s",
                   cols[c].kind == VC_RATIO ? "x" : s->model[cols[c].src].name);
    return t;
}

static void metric_row(struct rtable *t, const struct session *s, int id)
{
    const struct source_model *m = s->model;
    rtable_add(t, "%s", metric_descs[id].label);
    for (int i = 0; i < s->nsrc; i++) {
        char val[32], spark[4];
        view_metric_cell(&m[i], id, val, sizeof(val), spark, sizeof(spark), 0,
                         false);
        rtable_add(t, "%s", val);
        if (i > 0)
            add_ratio(t, view_metric_ratio(&m[i], &m[0], id));
    }
}

static void print_counters(FILE *f, const struct session *s)
{
    heading(f, "COUNTERS", "x: guest/host, > 1 is worse in the guest");
    struct rtable *t = source_grid(s, "counter");
    for (int id = 0; id < METRIC_COUNT; id++)
        metric_row(t, s, id);
    rtable_print(f, t);
    rtable_free(t);
}

static void time_line_row(struct rtable *t, const struct session *s,
                          const struct jobs *j, const struct time_line *tl)
{
    rtable_add(t, "%s", tl->label);
    for (int i = 0; i < s->nsrc; i++) {
        char val[32], detail[64];
        view_time_line_cell(s, j, i, tl, val, sizeof(val), detail,
                            sizeof(detail), false);
        rtable_add(t, "%s%s%s", val, detail[0] ? " " : "", detail);
        if (i > 0)
            add_ratio(t, view_time_line_ratio(s, j, i, tl));
    }
}

/* The Time lines from..to-1 of tl as one grid (the rules split them). */
static void time_grid(FILE *f, const struct session *s, const struct jobs *j,
                      const struct time_line *tl, int from, int to, bool steal)
{
    struct rtable *t = source_grid(s, steal ? "time" : "fairness");
    for (int i = from; i < to; i++)
        time_line_row(t, s, j, &tl[i]);
    if (steal)
        metric_row(t, s, METRIC_CPU_STEAL);
    rtable_print(f, t);
    rtable_free(t);
}

/* The Time section, then the fairness table when sched finished a repeat
 * on some source: the same lines as the screen's, every task included. */
static void print_time(FILE *f, const struct session *s, const struct jobs *j)
{
    static struct time_line tl[VIEW_TIME_LINES_MAX];
    int n = view_time_lines(s, j, tl, VIEW_TIME_LINES_MAX, WL_MAX_EXTRA);
    int rule = 0;
    while (rule < n && tl[rule].kind != TL_RULE)
        rule++;
    heading(f, "TIME",
            "clock against the host's, the probe's sleep, the sleep "
            "workload's sleeps by the source's clock and as the host saw "
            "them, CPU billed over wall (flagged outside 0.95-1.05), steal");
    time_grid(f, s, j, tl, 0, rule, true);
    if (rule >= n)
        return;
    heading(f, "SCHEDULER FAIRNESS (sched, last repeat on each source)",
            "j1: tasks one after another; jN: all released at once; "
            "expected: jN wall time if the CPUs were shared perfectly; "
            "Jain's index over the tasks' jN throughputs");
    time_grid(f, s, j, tl, rule + 1, n, false);
}

int report_text_write(FILE *f, const struct session *s, const struct jobs *j,
                      const struct report_meta *meta)
{
    print_header(f, s, meta);
    print_sources(f, s, meta);
    print_workloads(f, s, j);
    print_index(f, s, j);
    print_counters(f, s);
    print_time(f, s, j);
    fprintf(f, "\n-- end of report --\n");
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
