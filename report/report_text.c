/* See report_text.h. One section per function, each one table; the cells
 * come from the same view helpers the screen uses, so the report says
 * what the screen said. ASCII only: no sparklines, "+-" for the interval,
 * "x" for ratios. */
#include "report/report_text.h"
#include "report/vm_report.h"

#include <math.h>
#include <string.h>

#include "base/version.h"
#include "report/report_common.h"
#include "report/report_latency.h"
#include "report/report_table.h"
#include "session/jobs.h"
#include "view/fmt.h"
#include "view/view.h"
#include "view/view_jobs.h"
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

/* Whether figures were taken while other sources ran workloads. */
static void print_overlap(FILE *f, const struct session *s,
                          const struct jobs *j)
{
    int k = report_overlapped(s, j);
    if (k == 0)
        fprintf(f, "runs:      each alone (no other source ran meanwhile)\n");
    else
        fprintf(f, "runs:      %d shared with other sources' runs (TIMING)\n",
                k);
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
    /* the scheduler column where any source tells its scheduler */
    bool sched = false;
    for (int i = 0; i < s->nsrc; i++)
        sched |= s->model[i].info.sched[0] != '\0';
    struct rtable *t = rtable_new(sched ? "lllllrrll" : "llllrrll");
    rtable_add(t, "source");
    rtable_add(t, "target");
    rtable_add(t, "host name");
    rtable_add(t, "kernel");
    if (sched)
        rtable_add(t, "scheduler");
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
        if (sched)
            rtable_add(t, "%s%s%s", in->sched[0] ? in->sched : "?",
                       in->preempt[0] ? " " : "", in->preempt);
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

static void add_ratio(struct rtable *t, double r, enum view_ratio_kind kind)
{
    char buf[32];
    view_ratio_text(r, kind, buf, sizeof(buf));
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

/* "212..236": the median's interval, or "-". Never with an exponent. */
static void add_interval(struct rtable *t, const struct wl_stats *st)
{
    char lo[32], hi[32];
    if (!isfinite(st->med_lo)) {
        rtable_add(t, "-");
        return;
    }
    snprintf(lo, sizeof(lo), "%.4g", st->med_lo);
    snprintf(hi, sizeof(hi), "%.4g", st->med_hi);
    if (strchr(lo, 'e') || strchr(hi, 'e')) {
        snprintf(lo, sizeof(lo), "%.0f", st->med_lo);
        snprintf(hi, sizeof(hi), "%.0f", st->med_hi);
    }
    rtable_add(t, "%s..%s", lo, hi);
}

/* "0.91..1.05", the interval of a ratio, or "-". */
static void add_ratio_interval(struct rtable *t, bool ok, double lo, double hi)
{
    char a[32], b[32];
    if (!ok) {
        rtable_add(t, "-");
        return;
    }
    view_ratio_text(lo, VR_JUDGED, a, sizeof(a));
    view_ratio_text(hi, VR_JUDGED, b, sizeof(b));
    rtable_add(t, "%s..%s", a + strspn(a, " "), b + strspn(b, " "));
}

/* Prints t, or `none` when it has no rows below its header; frees it. */
static void print_or_say(FILE *f, struct rtable *t, int rows, const char *none)
{
    if (rows)
        rtable_print(f, t);
    else
        fprintf(f, "%s\n", none);
    rtable_free(t);
}

/* A table's header row. */
static void add_heads(struct rtable *t, const char *const *head, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rtable_add(t, "%s", head[i]);
}

/* The cell's marks in words, those of `mask` only. */
static void marks_text(const struct jobs *j, int src, int w, int mask,
                       char *buf, size_t n)
{
    view_job_marks(view_job_flags(j, src, w) & mask, true, buf, n);
}

static void workload_row(struct rtable *t, const struct session *s,
                         const struct jobs *j, int src, int w)
{
    const struct job_cell *c = jobs_cell(j, src, w);
    char marks[96];
    rtable_add(t, "%s", src == 0 ? j->wl[w]->name : "");
    rtable_add(t, "%s", src == 0 ? j->wl[w]->unit : "");
    rtable_add(t, "%s", s->model[src].name);
    rtable_add(t, "%s", report_job_state_name(c->state));
    rtable_add(t, "%d", c->stats.n);
    add_num(t, "", 4, c->stats.median);
    add_interval(t, &c->stats);
    if (src == 0)
        rtable_add(t, "%s", "");
    else
        add_ratio(t, view_job_ratio(j, src, w), VR_JUDGED);
    /* marks, and why it failed under the table: it can be long */
    marks_text(j, src, w, VJ_PARTIAL | VJ_REPORTED | VJ_NOISY, marks,
               sizeof(marks));
    const char *none = view_no_agent(&s->model[src], src == 0);
    if (c->state == JOB_IDLE && none)
        snprintf(marks, sizeof(marks), "%s", none);
    rtable_add_noted(t, marks, c->state == JOB_FAILED ? c->note : "");
}

static void print_workloads(FILE *f, const struct session *s,
                            const struct jobs *j)
{
    heading(f, "WORKLOADS",
            "median of n repeats in real time (a guest's repeats timed on "
            "the host's clock, see TIMING); interval: the median's, "
            "distribution-free (order statistics), covering the true median "
            "with 75% chance at 3 repeats, 94% at 5, 95% or more from 6; "
            "x host > 1: worse in the guest; noisy: an interval wider than "
            "half its median; partial: stopped early, left out of the index; "
            "reported only: the source's word, not timed");
    struct rtable *t = rtable_new("lllrrrrrl");
    const char *head[] = {"workload", "unit",     "source", "state", "n",
                          "median",   "interval", "x host", "note"};
    add_heads(t, head, sizeof(head) / sizeof(head[0]));
    int rows = 0;
    for (int w = 0; w < j->nwl; w++) {
        if (!report_wl_ran(j, s->nsrc, w))
            continue;
        for (int src = 0; src < s->nsrc; src++)
            workload_row(t, s, j, src, w);
        rows++;
    }
    print_or_say(f, t, rows, "(no workload ran)");
}

static void timing_row(struct rtable *t, const struct session *s,
                       const struct jobs *j, int src, int w)
{
    const struct job_cell *c = jobs_cell(j, src, w);
    char buf[96];
    rtable_add(t, "%s", j->wl[w]->name);
    rtable_add(t, "%s", s->model[src].name);
    if (src > 0 && c->real) {
        add_num(t, "", 4, c->said.median);
        rtable_add(t, "x%.4g+-%.2g", c->rate, c->rate_err);
    } else {
        rtable_add(t, "-");
        rtable_add(t, src == 0 ? "x1" : "-");
    }
    add_num(t, "", 4, c->real_s);
    rtable_add(t, "%s", c->overlap ? "shared" : "alone");
    report_placement(c, buf, sizeof(buf));
    rtable_add(t, "%s", buf);
    marks_text(j, src, w, VJ_UNBRACKETED | VJ_REPORTED, buf, sizeof(buf));
    double f = jobs_divergence(c);
    char said[32] = "clock differs"; /* an overshoot below zero: no factor */
    if (f > 0)
        snprintf(said, sizeof(said), "said x%.3g", f); /* its figure / real */
    if (view_job_flags(j, src, w) & VJ_DIVERGENT)
        rtable_add(t, "%s%s%s", said, buf[0] ? ", " : "", buf);
    else
        rtable_add(t, "%s", buf);
}

/* How each finished run was timed: the source's own figure and its
 * clock's rate against real time, how long its repeats really took,
 * whether it had the CPUs to itself, and where it ran. */
static void print_timing(FILE *f, const struct session *s, const struct jobs *j)
{
    heading(f, "TIMING",
            "said: the source's own median, by its clock; clock: its "
            "seconds per real second over the measured repeats, +- the "
            "error of timing them on the host's clock (each repeat's "
            "stamps mapped through the fetches around them); real s: "
            "the repeats' real length; ran: alone, or shared with runs on "
            "other sources (they compete for CPUs they share); where: any "
            "CPU, same, split, @cpuN pinned; said xF: its clock differs "
            "beyond that error, so its own figures do not hold: its median "
            "is F times the real one");
    struct rtable *t = rtable_new("llrrrlll");
    const char *head[] = {"workload", "source", "said",  "clock",
                          "real s",   "ran",    "where", "note"};
    add_heads(t, head, sizeof(head) / sizeof(head[0]));
    int rows = 0;
    for (int w = 0; w < j->nwl; w++)
        for (int src = 0; src < s->nsrc; src++)
            if (jobs_cell(j, src, w)->stats.n > 0 &&
                !view_is_baseline(&s->model[src])) {
                timing_row(t, s, j, src, w);
                rows++;
            }
    print_or_say(f, t, rows, "(no run finished a repeat)");
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
            "guest/host ratio per workload in real time (> 1: worse in the "
            "guest) and its interval; final score: their geometric mean, "
            "without partial runs, and the geometric means of the bounds");
    if (s->nsrc < 2) {
        fprintf(f, "(no guest)\n");
        return;
    }
    char align[2 * MAX_COLS + 1];
    guest_align(align, 2 * s->nsrc - 1);
    struct rtable *t = rtable_new(align);
    rtable_add(t, "workload");
    for (int g = 1; g < s->nsrc; g++) {
        rtable_add(t, "%s", s->model[g].name);
        rtable_add(t, "interval");
    }
    double lo, hi;
    for (int w = 0; w < j->nwl; w++) {
        if (!report_wl_ran(j, s->nsrc, w))
            continue;
        rtable_add(t, "%s", j->wl[w]->name);
        for (int g = 1; g < s->nsrc; g++) {
            bool partial = jobs_partial(jobs_cell(j, g, w)) ||
                           jobs_partial(jobs_cell(j, 0, w));
            double r = view_job_ratio(j, g, w);
            if (partial && isfinite(r)) {
                char buf[32];
                view_ratio_text(r, VR_JUDGED, buf, sizeof(buf));
                rtable_add(t, "%s (partial)", buf + strspn(buf, " "));
            } else {
                add_ratio(t, r, VR_JUDGED);
            }
            bool ok = view_job_ratio_interval(j, g, w, &lo, &hi);
            add_ratio_interval(t, ok, lo, hi);
        }
    }
    rtable_add(t, "FINAL SCORE (geo-mean)");
    for (int g = 1; g < s->nsrc; g++) {
        add_ratio(t, view_job_index(j, g), VR_JUDGED);
        bool ok = view_job_index_interval(j, g, &lo, &hi);
        add_ratio_interval(t, ok, lo, hi);
    }
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
            add_ratio(t, view_metric_ratio(&m[i], &m[0], id),
                      view_metric_ratio_kind(&m[i], &m[0], id));
    }
}

static void print_counters(FILE *f, const struct session *s)
{
    heading(f, "COUNTERS",
            "x: guest/host, > 1 is worse in the guest (iowait, steal) or "
            "busier (the rest); n/a: a figure is missing; -: no ratio by "
            "design");
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
        bool fault = view_time_line_cell(s, j, i, tl, val, sizeof(val), detail,
                                         sizeof(detail), false);
        view_mark_fault(val, fault);
        rtable_add(t, "%s%s%s", val, detail[0] ? " " : "", detail);
        if (i > 0)
            add_ratio(t, view_time_line_ratio(s, j, i, tl),
                      view_time_line_ratio_kind(tl));
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
            "clock against the host's (! marks an offset beyond 1 s or a "
            "drift beyond 500 ppm; beyond 1% the drift is the clock's rate, "
            "x1.0100, and so is its x column), the probe's sleep, the sleep "
            "workload's sleeps by the source's clock and as the host saw "
            "them, CPU billed over wall (! outside 0.95-1.05), steal");
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
    print_overlap(f, s, j);
    print_sources(f, s, meta);
    print_workloads(f, s, j);
    print_timing(f, s, j);
    report_latency_text(f, s, j);
    print_index(f, s, j);
    print_counters(f, s);
    print_time(f, s, j);
    vm_report_text(f, s);
    fprintf(f, "\n-- end of report --\n");
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
