/* See view_time.h. Everything here reads the extras of the last finished
 * repeat (job_cell.last), which guests hand over through pmdaparallax. */
#include "view/view_time.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock_model.h"
#include "core/ratio.h"
#include "view/fit.h"
#include "view/fmt.h"
#include "view/latency_view.h"
#include "view/view.h"
#include "workloads/extras.h"
#include "workloads/sleep_acc.h"

const char *const time_row_labels[TIME_ROW_COUNT] = {
#define TIME_LABEL(id, label) [id] = label,
    TIME_ROWS(TIME_LABEL)
#undef TIME_LABEL
};

#define BILLED_LO 0.95 /* CPU billed/wall outside this band is flagged */
#define BILLED_HI 1.05
/* a guest's billed/wall above what the host gave its vCPUs by this much
 * (a share of the wall) is a fault: it billed time it was held */
#define HELD_UNSEEN 0.10

static double billed_ratio(const struct source_model *m)
{
    const struct probe_sample *p = &m->probe;
    if (!p->count || !(p->spin_wall > 0))
        return NAN;
    return p->spin_cpu / p->spin_wall;
}

/* The clock offset's figure and interval; true beyond the threshold. */
static bool offset_cell(const struct clock_fit *f, char *raw, size_t rn,
                        char *detail, size_t dn, bool utf8)
{
    unsigned fl = utf8 ? FIT_UTF8 : 0;
    char err[32];
    fit_duration(raw, rn, VIEW_FIGURE_W, f->offset, fl | FIT_SIGN);
    fit_duration(err, sizeof(err), VIEW_ERR_W, f->offset_err, fl);
    snprintf(detail, dn, "%s%s", utf8 ? "\u00b1" : "+-", err);
    /* beyond the threshold by more than its own bound: an early fit's wide
     * one is no fault */
    return fabs(f->offset) - f->offset_err > VIEW_OFFSET_FAULT_S;
}

/* The drift in ppm ("+28" with "±3 ppm") or, beyond ±1%, as the rate the
 * clock runs at ("×415" with "runs fast"); true beyond the threshold. */
static bool drift_cell(const struct clock_fit *f, char *raw, size_t rn,
                       char *detail, size_t dn, bool utf8)
{
    unsigned fl = (utf8 ? FIT_UTF8 : 0) | FIT_SIGN;
    const char *pm = utf8 ? "\u00b1" : "+-";
    if (fit_drift(raw, rn, VIEW_FIGURE_W, f->drift_ppm, fl, NULL))
        snprintf(detail, dn, "%s", f->drift_ppm > 0 ? "fast" : "slow");
    else
        snprintf(detail, dn, "%s%.0fppm", pm, f->drift_err_ppm);
    return fabs(f->drift_ppm) - f->drift_err_ppm > VIEW_DRIFT_FAULT_PPM;
}

double view_probe_host_saw(const struct source_model *m, bool is_host,
                           double *err)
{
    const struct probe_sample *p = &m->probe;
    double e = NAN, d = NAN;
    struct time_at a, b;
    bool steady = !m->rates.unsteady;
    if (is_host || !p->count) {
        /* nothing to see */
    } else if (time_map_host(&m->tmap, p->sleep_t0, steady, &a) == TM_OK &&
               time_map_host(&m->tmap, p->sleep_t1, steady, &b) == TM_OK) {
        d = b.host - a.host;
        e = a.err + b.err;
    } else {
        struct clock_fit f;
        clock_model_fit(&m->clock, &f);
        d = clock_model_host_duration(&f, p->sleep_took);
        e = d * f.drift_err_ppm * 1e-6;
    }
    if (err)
        *err = e;
    return d;
}

const char *view_no_agent(const struct source_model *m, bool is_host)
{
    /* a column of this host replayed or saved has its probes (parallax
     * probes the host itself), a guest only through its agent */
    return !is_host && m->state == SRC_LIVE && !m->info.pmda && !m->probe.count
               ? VIEW_NO_AGENT
               : NULL;
}

void view_billed_split(const struct source_model *m, struct billed_split *b)
{
    const struct probe_sample *p = &m->probe;
    *b = (struct billed_split){NAN, NAN, NAN, m->value[METRIC_CPU_STEAL]};
    if (!p->count || !(p->spin_wall > 0))
        return;
    b->ran = p->spin_cpu / p->spin_wall;
    if (isfinite(p->spin_waited)) {
        b->waited = p->spin_waited / p->spin_wall;
        b->lost = fmax(0, 1 - b->ran - b->waited);
    }
}

/* Why CPU billed/wall is off, its largest cause first: "off: waited 52%"
 * (other load on that system took the CPU), "off: stolen 40%" (time lost
 * while the source's steal counter rose), "off: lost 40%" (lost without
 * steal: accounting), "off: billed over wall". */
static void billed_detail(const struct source_model *m, double r, char *detail,
                          size_t dn)
{
    struct billed_split b;
    view_billed_split(m, &b);
    if (r > BILLED_HI) {
        snprintf(detail, dn, "off: billed over wall");
        return;
    }
    if (!isfinite(b.waited)) {
        snprintf(detail, dn, "off: not %.2f-%.2f", BILLED_LO, BILLED_HI);
        return;
    }
    const char *why = b.waited >= b.lost  ? "waited"
                      : b.steal_pct > 0.5 ? "stolen"
                                          : "lost";
    double share = b.waited >= b.lost ? b.waited : b.lost;
    snprintf(detail, dn, "off: %s %.0f%%", why, share * 100);
}

/* The host's view of the probe (struct probe_held), where the guest is
 * joined to its VM: a guest that billed its spin more of the wall than
 * the host gave its vCPUs (the share held beyond what the guest's own
 * billed/wall says was lost) could not see why, and it is a fault; else
 * the held share is only said. True when it is a fault. */
static bool held_detail(const struct source_model *m, double r, bool fault,
                        char *detail, size_t dn)
{
    const struct probe_held *h = &m->held;
    if (!h->count || h->count != m->probe.count)
        return false;
    if (h->unseen && !fault)
        snprintf(detail, dn, "host: spin unseen");
    if (!isfinite(h->share))
        return false;
    if (r + h->share - 1 > HELD_UNSEEN) {
        snprintf(detail, dn, "off: held by host %.0f%%", h->share * 100);
        return true;
    }
    if (!fault)
        snprintf(detail, dn, "host held %.0f%%", h->share * 100);
    return false;
}

/* The clock's rate over the last seconds, "×0.364", and whether it held:
 * "±0.02%", or "varies ×53-×858" over the rates seen. */
static void rate_cell(const struct source_model *m, char *raw, size_t rn,
                      char *detail, size_t dn, bool utf8)
{
    const struct time_rates *r = &m->rates;
    if (!r->recent.ok)
        return;
    double v = r->recent.rate;
    fit_rate(raw, rn, VIEW_FIGURE_W, v, FIT_TIMES | (utf8 ? FIT_UTF8 : 0));
    if (r->unsteady) {
        char lo[16], hi[16];
        view_factor_text(r->lo, lo, sizeof(lo), utf8);
        view_factor_text(r->hi, hi, sizeof(hi), false);
        snprintf(detail, dn, "varies %s-%s", lo, hi + 1); /* "×53-858" */
    } else {
        snprintf(detail, dn, "%s%.2g%%", utf8 ? "\u00b1" : "+-",
                 r->recent.err / fabs(v) * 100);
    }
}

bool view_time_cell(const struct source_model *m, bool is_host, int row,
                    char *val, size_t vn, char *detail, size_t dn, bool utf8)
{
    struct clock_fit f;
    clock_model_fit(&m->clock, &f);
    char raw[32] = "n/a";
    bool fault = false;
    unsigned fl = utf8 ? FIT_UTF8 : 0;
    detail[0] = '\0';
    switch (row) {
    case TR_OFFSET:
    case TR_DRIFT:
        if (is_host)
            snprintf(raw, sizeof(raw), "-");
        else if (f.ok && row == TR_OFFSET)
            fault = offset_cell(&f, raw, sizeof(raw), detail, dn, utf8);
        else if (f.ok)
            fault = drift_cell(&f, raw, sizeof(raw), detail, dn, utf8);
        else if (m->state == SRC_LIVE && row == TR_OFFSET)
            snprintf(detail, dn, "fitting");
        break;
    case TR_RATE:
        if (is_host)
            snprintf(raw, sizeof(raw), "-");
        else
            rate_cell(m, raw, sizeof(raw), detail, dn, utf8);
        break;
    case TR_SLEEP:
        if (!m->probe.count && view_no_agent(m, is_host))
            snprintf(detail, dn, "%s", VIEW_NO_AGENT);
        if (m->probe.count) {
            fit_duration(raw, sizeof(raw), VIEW_FIGURE_W, m->probe.sleep_took,
                         fl);
            double err, host = view_probe_host_saw(m, is_host, &err);
            char h[32];
            /* too short to time on a clock that varies: its bound */
            bool bound = isfinite(host) && err > host / 2;
            fit_duration(h, sizeof(h), VIEW_FIGURE_W, bound ? host + err : host,
                         fl);
            if (isfinite(host))
                snprintf(detail, dn, "host saw %s%s",
                         bound ? (utf8 ? "\u2264" : "<=") : "", h);
        }
        break;
    case TR_BILLED: {
        double r = billed_ratio(m);
        if (!isfinite(r) && view_no_agent(m, is_host))
            snprintf(detail, dn, "%s", VIEW_NO_AGENT);
        if (isfinite(r)) {
            snprintf(raw, sizeof(raw), "%.2f", r);
            fault = r < BILLED_LO || r > BILLED_HI;
            if (fault)
                billed_detail(m, r, detail, dn);
            if (!is_host)
                fault |= held_detail(m, r, fault, detail, dn);
        }
        break;
    }
    }
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    return fault;
}

double view_time_ratio(const struct source_model *guest,
                       const struct source_model *host, int row)
{
    if (row == TR_DRIFT) {
        struct clock_fit f;
        clock_model_fit(&guest->clock, &f);
        return f.ok && 1 + f.drift_ppm * 1e-6 > 0 ? 1 + f.drift_ppm * 1e-6
                                                  : NAN;
    }
    if (row != TR_SLEEP || !guest->probe.count || !host->probe.count)
        return NAN;
    /* what the guest's sleep really took against the host's own, when
     * the host could time it */
    double err, saw = view_probe_host_saw(guest, false, &err);
    if (!(err <= saw / 2))
        return NAN;
    return ratio_oriented(saw, host->probe.sleep_took, RO_HIGHER_WORSE);
}

enum view_ratio_kind view_time_ratio_kind(int row)
{
    switch (row) {
    case TR_DRIFT:
        return VR_RATE;
    case TR_SLEEP:
        return VR_JUDGED;
    default: /* an offset or a billed share is no ratio to the host's */
        return VR_NONE;
    }
}

void view_mark_fault(char *val, bool fault)
{
    size_t blanks = strspn(val, " ");
    if (fault && blanks > 0)
        val[blanks - 1] = VIEW_FAULT_MARK;
}

/* The fairness figures, after the "tasks/cpus" line (index 0). A figure
 * is extra `num`, over extra `den` when given. */
struct fair_row {
    const char *label;
    const char *num, *den;
    enum ratio_orientation ro;
};

static const struct fair_row fair_rows[] = {
    {"tasks/cpus", NULL, NULL, RO_NONE},
    {"j1 wall s", "j1 wall total", NULL, RO_HIGHER_WORSE},
    {"j1 user s", "j1 user total", NULL, RO_HIGHER_WORSE},
    {"jN expected s", "jN wall expected", NULL, RO_HIGHER_WORSE},
    {"jN actual s", "jN wall actual", NULL, RO_HIGHER_WORSE},
    {"actual/expect", "jN wall actual", "jN wall expected", RO_HIGHER_WORSE},
    {"jN user s", "jN user total", NULL, RO_HIGHER_WORSE},
    {"Jain index", "jain index (throughput)", NULL, RO_LOWER_WORSE},
};
#define NFAIR (int)(sizeof(fair_rows) / sizeof(fair_rows[0]))

static int wl_index(const struct jobs *j, const char *name)
{
    for (int w = 0; w < j->nwl; w++)
        if (strcmp(j->wl[w]->name, name) == 0)
            return w;
    return -1;
}

/* The extras of workload w's last finished repeat on src, or NULL (also
 * when w < 0: not in the catalogue). */
static const struct wl_result *last_of(const struct jobs *j, int src, int w)
{
    if (w < 0)
        return NULL;
    const struct wl_result *r = &jobs_cell(j, src, w)->last;
    return r->nextra > 0 ? r : NULL;
}

/* A figure of the sleep workload (index w) for duration d on src. */
static double sleep_extra(const struct jobs *j, int w, int src, int d,
                          const char *what)
{
    const struct wl_result *r = last_of(j, src, w);
    if (!r)
        return NAN;
    char name[40];
    snprintf(name, sizeof(name), "%s overshoot %s", sleep_durs[d].label, what);
    return wl_extra(r, name);
}

/* Seconds a sleep of duration d took on src's clock, or NaN. */
static double sleep_took(const struct jobs *j, int w, int src, int d)
{
    return (double)sleep_durs[d].ns * 1e-9 +
           sleep_extra(j, w, src, d, "mean") * 1e-6;
}

static int tasks_of(const struct wl_result *r)
{
    int k = 0;
    char name[32];
    do
        snprintf(name, sizeof(name), "task %d jN wall", ++k);
    while (isfinite(wl_extra(r, name)));
    return k - 1;
}

static double fair_value(const struct wl_result *r, int i)
{
    if (!fair_rows[i].num)
        return NAN;
    double v = wl_extra(r, fair_rows[i].num);
    return fair_rows[i].den ? v / wl_extra(r, fair_rows[i].den) : v;
}

/* Task line index: 2k is task k+1's jN user time, 2k+1 its wall time. */
static double task_value(const struct wl_result *r, int index)
{
    char name[32];
    snprintf(name, sizeof(name), "task %d jN %s", index / 2 + 1,
             index % 2 ? "wall" : "user");
    return wl_extra(r, name);
}

static struct time_line *add(struct time_line *out, int *n, int max,
                             enum time_line_kind kind, int index, int wl)
{
    if (*n >= max)
        return NULL;
    struct time_line *tl = &out[(*n)++];
    tl->kind = kind;
    tl->index = index;
    tl->wl = wl;
    tl->label[0] = '\0';
    return tl;
}

/* Task k's share of the work sched's tasks have done side by side on
 * src, in %; NaN when they have not run together there. */
static double share(const struct jobs *j, int src, int w, int k)
{
    if (w < 0)
        return NAN;
    const struct wl_lanes *l = &jobs_cell(j, src, w)->lanes;
    double sum = 0;
    for (int i = 0; i < l->n; i++)
        sum += (double)l->done[i];
    return k < l->n && sum > 0 ? 100 * (double)l->done[k] / sum : NAN;
}

/* True while workload w runs on src. */
static bool live(const struct jobs *j, int src, int w)
{
    enum job_state st = jobs_cell(j, src, w)->state;
    return st == JOB_RUNNING || st == JOB_STOPPING;
}

/* The task shares' lines while sched's tasks run side by side somewhere
 * (at the end every task has done the same work: the shares say only how
 * the work went while it ran): a rule, then one per task. */
static int add_shares(const struct session *s, const struct jobs *j, int wf,
                      struct time_line *out, int n, int max, int max_tasks)
{
    int tasks = 0;
    struct time_line *tl;
    for (int src = 0; wf >= 0 && src < s->nsrc; src++)
        if (live(j, src, wf) && jobs_cell(j, src, wf)->lanes.n > tasks)
            tasks = jobs_cell(j, src, wf)->lanes.n;
    if (tasks == 0)
        return n;
    if ((tl = add(out, &n, max, TL_RULE, 1, wf)))
        snprintf(tl->label, sizeof(tl->label), " task shares ");
    for (int k = 0; k < tasks && k < max_tasks; k++)
        if ((tl = add(out, &n, max, TL_SHARE, k, wf)))
            snprintf(tl->label, sizeof(tl->label), "task %d share %%", k + 1);
    return n;
}

/* p99 and max lines of every latency workload a source has finished. */
static int add_latency(const struct session *s, const struct jobs *j,
                       struct time_line *out, int n, int max)
{
    static const char *const what[] = {"p99", "max"};
    for (int w = 0; w < j->nwl; w++) {
        if (!latency_workload(j->wl[w]))
            continue;
        bool any = false;
        struct lat_view v;
        for (int src = 0; src < s->nsrc && !any; src++) {
            latency_view_of(j, src, w, &v);
            any = v.ok;
        }
        struct time_line *tl;
        for (int k = 0; any && k < 2; k++)
            if ((tl = add(out, &n, max, TL_LAT, k, w)))
                snprintf(tl->label, sizeof(tl->label), "%s %s", j->wl[w]->name,
                         what[k]);
    }
    return n;
}

int view_time_lines(const struct session *s, const struct jobs *j,
                    struct time_line *out, int max, int max_tasks)
{
    int n = 0, ws = wl_index(j, "sleep"), wf = wl_index(j, "sched");
    struct time_line *tl;
    for (int row = 0; row < TIME_ROW_COUNT; row++)
        if ((tl = add(out, &n, max, TL_FIXED, row, -1)))
            snprintf(tl->label, sizeof(tl->label), "%s", time_row_labels[row]);
    for (size_t d = 0; d < sleep_ndurs; d++) {
        bool any = false;
        for (int src = 0; src < s->nsrc && !any; src++)
            any = isfinite(sleep_took(j, ws, src, (int)d));
        if (any && (tl = add(out, &n, max, TL_SLEEP, (int)d, ws)))
            snprintf(tl->label, sizeof(tl->label), "sleep %s took",
                     sleep_durs[d].label);
    }
    n = add_latency(s, j, out, n, max);
    int tasks = -1;
    for (int src = 0; src < s->nsrc; src++) {
        const struct wl_result *r = last_of(j, src, wf);
        int k = r ? tasks_of(r) : -1;
        if (k > tasks)
            tasks = k;
    }
    /* live shares first: the screen's time rows may have room for few */
    n = add_shares(s, j, wf, out, n, max, max_tasks);
    if (tasks < 0)
        return n;
    if ((tl = add(out, &n, max, TL_RULE, 0, wf)))
        snprintf(tl->label, sizeof(tl->label), " fairness ");
    for (int i = 0; i < NFAIR; i++)
        if ((tl = add(out, &n, max, TL_FAIR, i, wf)))
            snprintf(tl->label, sizeof(tl->label), "%s", fair_rows[i].label);
    for (int k = 0; k < 2 * tasks && k < 2 * max_tasks; k++)
        if ((tl = add(out, &n, max, TL_TASK, k, wf)))
            snprintf(tl->label, sizeof(tl->label), "task %d %s s", k / 2 + 1,
                     k % 2 ? "wall" : "user");
    return n;
}

/* A figure in at most VIEW_FIGURE_W cells, up to 3 decimals. */
static void num_text(char *buf, size_t n, double v)
{
    for (int dec = 3; dec >= 0; dec--) {
        snprintf(buf, n, "%.*f", dec, v);
        if (!isfinite(v) || fit_cells(buf) <= VIEW_FIGURE_W)
            break;
    }
    if (!isfinite(v))
        snprintf(buf, n, "n/a");
    else if (fit_cells(buf) > VIEW_FIGURE_W)
        fit_si(buf, n, VIEW_FIGURE_W, v, 0);
}

static void duration_text(char *buf, size_t n, double secs, bool utf8)
{
    fit_duration(buf, n, VIEW_FIGURE_W, secs, utf8 ? FIT_UTF8 : 0);
}

/* Line tl's latency on src in us, real time; NaN for none. */
static double lat_value(const struct jobs *j, int src,
                        const struct time_line *tl, double *rate)
{
    struct lat_view v;
    latency_view_of(j, src, tl->wl, &v);
    *rate = v.rate;
    return !v.ok ? NAN : tl->index == 0 ? v.pct[2] : v.max;
}

/* The figure in real time, and the source's own word beside it when its
 * clock ran at another rate. */
static void lat_cell(const struct jobs *j, int src, const struct time_line *tl,
                     char *raw, size_t rn, char *detail, size_t dn, bool utf8)
{
    double rate, us = lat_value(j, src, tl, &rate);
    if (!isfinite(us))
        return;
    duration_text(raw, rn, us * 1e-6, utf8);
    if (fabs(rate - 1) > 0.01) {
        char said[24];
        duration_text(said, sizeof said, us * rate * 1e-6, utf8);
        snprintf(detail, dn, "said %s", said);
    }
}

/* view_sleep_figures with the sleep workload's index w. */
static bool sleep_figures(const struct session *s, const struct jobs *j, int w,
                          int src, int d, double *requested, double *took,
                          double *host_saw)
{
    *requested = (double)sleep_durs[d].ns * 1e-9;
    *took = sleep_took(j, w, src, d);
    *host_saw = NAN;
    if (!isfinite(*took))
        return false;
    if (src == 0)
        return true;
    /* the run's own rate, timed on the host's clock; else the fit's */
    const struct job_cell *c = jobs_cell(j, src, w);
    struct clock_fit f;
    clock_model_fit(&s->model[src].clock, &f);
    *host_saw = c->real && isfinite(c->rate) && c->rate > 0
                    ? *took / c->rate
                    : clock_model_host_duration(&f, *took);
    return true;
}

bool view_sleep_figures(const struct session *s, const struct jobs *j, int src,
                        int d, double *requested, double *took,
                        double *host_saw)
{
    return sleep_figures(s, j, wl_index(j, "sleep"), src, d, requested, took,
                         host_saw);
}

static void sleep_cell(const struct session *s, const struct jobs *j, int w,
                       int src, int d, char *raw, size_t rn, char *detail,
                       size_t dn, bool utf8)
{
    double req, took, host;
    if (!sleep_figures(s, j, w, src, d, &req, &took, &host))
        return;
    duration_text(raw, rn, took, utf8);
    char h[24];
    if (isfinite(host)) {
        duration_text(h, sizeof(h), host, utf8);
        snprintf(detail, dn, "host saw %s", h);
    } else {
        fit_duration(h, sizeof(h), VIEW_ERR_W,
                     sleep_extra(j, w, src, d, "p99") * 1e-6,
                     utf8 ? FIT_UTF8 : 0);
        snprintf(detail, dn, "p99 +%s", h);
    }
}

bool view_time_line_cell(const struct session *s, const struct jobs *j, int src,
                         const struct time_line *tl, char *val, size_t vn,
                         char *detail, size_t dn, bool utf8)
{
    if (tl->kind == TL_FIXED)
        return view_time_cell(&s->model[src], src == 0, tl->index, val, vn,
                              detail, dn, utf8);
    char raw[32] = "";
    detail[0] = '\0';
    const struct wl_result *r = last_of(j, src, tl->wl);
    switch (tl->kind) {
    case TL_SLEEP:
        sleep_cell(s, j, tl->wl, src, tl->index, raw, sizeof(raw), detail, dn,
                   utf8);
        break;
    case TL_FAIR:
        if (r && tl->index == 0)
            snprintf(raw, sizeof(raw), "%d/%.0f", tasks_of(r),
                     wl_extra(r, "cpus shared"));
        else if (r)
            num_text(raw, sizeof(raw), fair_value(r, tl->index));
        break;
    case TL_TASK:
        if (r)
            num_text(raw, sizeof(raw), task_value(r, tl->index));
        break;
    case TL_SHARE: { /* a source whose run has ended: all equal now */
        double v = share(j, src, tl->wl, tl->index);
        if (isfinite(v) && live(j, src, tl->wl))
            snprintf(raw, sizeof(raw), "%.1f", v);
        break;
    }
    case TL_LAT:
        lat_cell(j, src, tl, raw, sizeof(raw), detail, dn, utf8);
        break;
    case TL_FIXED:
    case TL_RULE:
        break;
    }
    /* a workload's figure a source without the agent cannot give */
    if (!raw[0] && (tl->kind == TL_SLEEP || tl->kind == TL_FAIR) &&
        (tl->kind == TL_SLEEP || tl->index == 0) &&
        view_no_agent(&s->model[src], src == 0))
        snprintf(detail, dn, "%s", VIEW_NO_AGENT);
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    return false;
}

double view_time_line_ratio(const struct session *s, const struct jobs *j,
                            int guest, const struct time_line *tl)
{
    if (tl->kind == TL_FIXED)
        return view_time_ratio(&s->model[guest], &s->model[0], tl->index);
    if (tl->kind == TL_SLEEP) { /* what it really took, on both sides */
        double req, took, saw;
        sleep_figures(s, j, tl->wl, guest, tl->index, &req, &took, &saw);
        return ratio_oriented(saw, sleep_took(j, tl->wl, 0, tl->index),
                              RO_HIGHER_WORSE);
    }
    if (tl->kind == TL_LAT) {
        double rg, rh;
        return latency_ratio(lat_value(j, guest, tl, &rg),
                             lat_value(j, 0, tl, &rh));
    }
    const struct wl_result *g = last_of(j, guest, tl->wl);
    const struct wl_result *h = last_of(j, 0, tl->wl);
    if (!g || !h)
        return NAN;
    if (tl->kind == TL_FAIR)
        return ratio_oriented(fair_value(g, tl->index),
                              fair_value(h, tl->index),
                              fair_rows[tl->index].ro);
    if (tl->kind == TL_TASK)
        return ratio_oriented(task_value(g, tl->index),
                              task_value(h, tl->index), RO_HIGHER_WORSE);
    return NAN;
}

enum view_ratio_kind view_time_line_ratio_kind(const struct time_line *tl)
{
    switch (tl->kind) {
    case TL_FIXED:
        return view_time_ratio_kind(tl->index);
    case TL_FAIR:
        return fair_rows[tl->index].ro == RO_NONE ? VR_NONE : VR_JUDGED;
    case TL_SLEEP:
    case TL_TASK:
    case TL_LAT:
        return VR_JUDGED;
    case TL_SHARE: /* a share of the source's own work: nothing to compare */
        return VR_NONE;
    case TL_RULE:
        break;
    }
    return VR_EMPTY;
}
