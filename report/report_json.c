/* See report_json.h. A figure that is n/a is null, never 0; ratios are
 * oriented as on screen (> 1: worse in the guest). Each source object is
 * complete on its own so that a reader can take any one as a baseline. */
#include "report/report_json.h"
#include "report/vm_report.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "base/version.h"
#include "report/report_common.h"
#include "session/jobs.h"
#include "view/latency_view.h"
#include "view/view.h"
#include "view/view_jobs.h"
#include "view/view_time.h"
#include "workloads/sleep_acc.h"

/* A number, or null for n/a (JSON has no NaN). */
static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *info_json(const struct source_model *m,
                         const struct report_meta *meta, int src)
{
    const struct source_info *in = &m->info;
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:o, s:b, s:s, s:s, s:s}", "name",
        m->name, "target", m->target, "host", in->host, "kernel", in->release,
        "scheduler", in->sched, "preempt", in->preempt, "ncpu", in->ncpu,
        "mem_bytes", num(in->mem_bytes > 0 ? in->mem_bytes : NAN), "pmda",
        in->pmda, "clocksource", report_clocksource(meta, src), "state",
        report_state_name(m->state), "error",
        m->state == SRC_DOWN ? m->error : "");
    if (o && m->replay.on) /* a recorded column: the record it shows */
        json_object_set_new(o, "recorded_at",
                            num(m->replay.at > 0 ? m->replay.at : NAN));
    return o;
}

static json_t *metrics_json(const struct session *s, int src, bool ratios)
{
    json_t *o = json_object();
    for (int id = 0; id < METRIC_COUNT; id++) {
        double v = ratios ? view_metric_ratio(&s->model[src], &s->model[0], id)
                          : s->model[src].value[id];
        json_object_set_new(o, metric_descs[id].key, num(v));
    }
    return o;
}

static json_t *probe_json(const struct probe_sample *p)
{
    if (!p->count)
        return json_null();
    return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "count",
                     (json_int_t)p->count, "sleep_req_s", num(p->sleep_req),
                     "sleep_took_s", num(p->sleep_took), "spin_wall_s",
                     num(p->spin_wall), "spin_cpu_s", num(p->spin_cpu),
                     "spin_waited_s", num(p->spin_waited));
}

/* The host's view of the newest probe (struct probe_held): null unless
 * the guest is joined to its VM here and the probe was placed; unseen
 * (share null) where the VM readings missed its spin. */
static json_t *held_json(const struct source_model *m)
{
    const struct probe_held *h = &m->held;
    if (!h->count || h->count != m->probe.count ||
        (!isfinite(h->share) && !h->unseen))
        return json_null();
    return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:b}", "probe",
                     (json_int_t)h->count, "share", num(h->share), "ran_s",
                     num(h->ran_s), "waited_s", num(h->waited_s), "t0",
                     num(h->t0), "t1", num(h->t1), "unseen", h->unseen);
}

/* The sleep workload's sleeps on src: requested, took by its clock, and
 * what the host saw of them; empty before it ran there. */
static json_t *sleeps_json(const struct session *s, const struct jobs *j,
                           int src)
{
    json_t *a = json_array();
    for (int d = 0; d < (int)sleep_ndurs; d++) {
        double req, took, host;
        if (view_sleep_figures(s, j, src, d, &req, &took, &host))
            json_array_append_new(a, json_pack("{s:o, s:o, s:o}", "requested_s",
                                               num(req), "took_s", num(took),
                                               "host_saw_s", num(host)));
    }
    return a;
}

/* The labels of the Time rows that are faults on source src (an offset
 * beyond 1 s, a drift beyond 500 ppm: view_time_cell), as the text report
 * marks them with "!". */
static json_t *faults_json(const struct session *s, int src)
{
    json_t *a = json_array();
    char val[32], detail[64];
    for (int row = 0; row < TIME_ROW_COUNT; row++)
        if (view_time_cell(&s->model[src], src == 0, row, val, sizeof(val),
                           detail, sizeof(detail), false))
            json_array_append_new(a, json_string(time_row_labels[row]));
    return a;
}

/* Where the probe's spin's wall time went (view_billed_split). */
static json_t *billed_json(const struct source_model *m)
{
    struct billed_split b;
    view_billed_split(m, &b);
    return json_pack("{s:o, s:o, s:o}", "ran", num(b.ran), "waited",
                     num(b.waited), "lost", num(b.lost));
}

static json_t *time_json(const struct session *s, const struct jobs *j, int src)
{
    const struct source_model *m = &s->model[src];
    struct clock_fit f;
    clock_model_fit(&m->clock, &f);
    bool fit = src > 0 && f.ok;
    double billed = m->probe.count && m->probe.spin_wall > 0
                        ? m->probe.spin_cpu / m->probe.spin_wall
                        : NAN;
    double host_err, host_saw = view_probe_host_saw(m, src == 0, &host_err);
    json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                          "offset_s", num(fit ? f.offset : NAN), "offset_err_s",
                          num(fit ? f.offset_err : NAN), "drift_ppm",
                          num(fit ? f.drift_ppm : NAN), "drift_err_ppm",
                          num(fit ? f.drift_err_ppm : NAN), "sleep_host_s",
                          num(host_saw), "billed", num(billed), "steal_pct",
                          num(m->value[METRIC_CPU_STEAL]), "probe",
                          probe_json(&m->probe));
    if (o && src > 0)
        json_object_set_new(o, "sleep_ratio",
                            num(view_time_ratio(m, &s->model[0], TR_SLEEP)));
    if (o) {
        /* the probe, billed/wall and the workloads need pmdaparallax */
        const char *none = view_no_agent(m, src == 0);
        json_object_set_new(o, "note", json_string(none ? none : ""));
        json_object_set_new(o, "sleep_workload", sleeps_json(s, j, src));
        json_object_set_new(o, "faults", faults_json(s, src));
        json_object_set_new(o, "billed_split", billed_json(m));
        json_object_set_new(o, "probe_held", held_json(m));
        json_object_set_new(o, "sleep_host_err_s", num(host_err));
    }
    if (o && src > 0) {
        const struct time_rates *r = &m->rates;
        json_object_set_new(
            o, "rate",
            json_pack("{s:o, s:o, s:o, s:o, s:b, s:b}", "recent",
                      num(r->recent.ok ? r->recent.rate : NAN), "recent_err",
                      num(r->recent.ok ? r->recent.err : NAN), "lo", num(r->lo),
                      "hi", num(r->hi), "unsteady", r->unsteady, "coarse_fit",
                      fit && f.coarse));
    }
    return o;
}

static json_t *extras_json(const struct wl_result *r)
{
    json_t *a = json_array();
    for (int i = 0; i < r->nextra; i++)
        json_array_append_new(
            a, json_pack("{s:s, s:s, s:o}", "name", r->extra[i].name, "unit",
                         r->extra[i].unit, "value", num(r->extra[i].value)));
    return a;
}

/* A latency workload's distribution (workloads/lat_hist.h) in real time:
 * every bucket used, its edges in ns (hi null for the last, open one),
 * and the exact sample count and maximum. */
static json_t *hist_json(const struct jobs *j, int src, int w)
{
    struct lat_view v;
    latency_view_of(j, src, w, &v);
    if (!v.ok || v.h.n == 0)
        return json_null();
    json_t *b = json_array();
    for (int i = 0; i < LAT_HIST_NBUCKETS; i++)
        if (v.h.count[i])
            json_array_append_new(b, json_pack("{s:o, s:o, s:I}", "lo_ns",
                                               num(lat_hist_lo(i)), "hi_ns",
                                               num(lat_hist_hi(i)), "count",
                                               (json_int_t)v.h.count[i]));
    return json_pack("{s:I, s:o, s:o, s:o, s:i, s:o}", "samples",
                     (json_int_t)v.h.n, "max_ns", num(v.h.max_ns), "min_ns",
                     num(v.h.min_ns), "clock_rate", num(v.rate), "per_decade",
                     LAT_HIST_PER_DECADE, "buckets", b);
}

/* The median's interval, how the figures relate to real time, and how
 * the run was taken (docs/reports.md). */
static void add_real_time(json_t *o, const struct session *s,
                          const struct jobs *j, int src, int w)
{
    const struct job_cell *c = jobs_cell(j, src, w);
    const struct wl_stats *st = &c->stats, *said = &c->said;
    int flags = view_job_flags(j, src, w);
    char where[32];
    report_placement(c, where, sizeof(where));
    json_t *with = json_array();
    for (int k = 0; k < s->nsrc && k < 64; k++)
        if (c->overlap & ((uint64_t)1 << k))
            json_array_append_new(with, json_string(s->model[k].name));
    json_object_set_new(o, "median_lo", num(st->med_lo));
    json_object_set_new(o, "median_hi", num(st->med_hi));
    json_object_set_new(o, "median_cover", num(st->med_cover));
    json_object_set_new(o, "interval", json_string("order-statistic"));
    json_object_set_new(o, "noisy", json_boolean(flags & VJ_NOISY));
    json_object_set_new(o, "partial", json_boolean(flags & VJ_PARTIAL));
    json_object_set_new(o, "basis", json_string(c->real ? "real" : "reported"));
    json_object_set_new(o, "reported",
                        json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}", "n",
                                  said->n, "median", num(said->median),
                                  "median_lo", num(said->med_lo), "median_hi",
                                  num(said->med_hi), "min", num(said->min),
                                  "max", num(said->max)));
    json_object_set_new(o, "clock_rate", num(c->rate));
    json_object_set_new(o, "clock_rate_err", num(c->rate_err));
    json_object_set_new(o, "divergence", num(jobs_divergence(c)));
    json_object_set_new(o, "divergent", json_boolean(flags & VJ_DIVERGENT));
    json_object_set_new(o, "real_s", num(c->real_s));
    json_object_set_new(o, "said_s", num(c->said_s));
    json_object_set_new(o, "run_real_s", num(c->run_real_s));
    bool bracket =
        isfinite(c->store_t[1]) && isfinite(c->ran_t) && isfinite(c->done_t);
    json_object_set_new(o, "host_bracket_s",
                        bracket
                            ? json_pack("[o, o]", num(c->ran_t - c->store_t[1]),
                                        num(c->done_t - c->store_t[0]))
                            : json_null());
    json_object_set_new(o, "bracket_ok", json_boolean(c->bracket_ok));
    json_object_set_new(o, "overlapped_with", with);
    json_object_set_new(o, "placement", json_string(where));
}

static json_t *job_json(const struct session *s, const struct jobs *j, int src,
                        int w)
{
    const struct job_cell *c = jobs_cell(j, src, w);
    const struct wl_stats *st = &c->stats;
    const char *none = view_no_agent(&s->model[src], src == 0);
    const char *note = c->state == JOB_FAILED                 ? c->note
                       : c->state == JOB_IDLE && none != NULL ? none
                                                              : "";
    json_t *o =
        json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:s}", "state",
                  report_job_state_name(c->state), "n", st->n, "median",
                  num(st->median), "ci95", num(st->ci95), "min", num(st->min),
                  "max", num(st->max), "mean", num(st->mean), "note", note);
    if (o)
        add_real_time(o, s, j, src, w);
    if (o && src > 0) {
        double lo, hi;
        bool ok = view_job_ratio_interval(j, src, w, &lo, &hi);
        json_object_set_new(o, "ratio", num(view_job_ratio(j, src, w)));
        json_object_set_new(o, "ratio_lo", num(ok ? lo : NAN));
        json_object_set_new(o, "ratio_hi", num(ok ? hi : NAN));
    }
    if (o && c->last.nextra > 0)
        json_object_set_new(o, "extras", extras_json(&c->last));
    if (o && latency_workload(j->wl[w]))
        json_object_set_new(o, "histogram", hist_json(j, src, w));
    return o;
}

static json_t *source_json(const struct session *s, const struct jobs *j,
                           const struct report_meta *meta, int src)
{
    json_t *o = info_json(&s->model[src], meta, src);
    if (!o)
        return NULL;
    json_object_set_new(o, "metrics", metrics_json(s, src, false));
    if (src > 0)
        json_object_set_new(o, "ratios", metrics_json(s, src, true));
    json_object_set_new(o, "time", time_json(s, j, src));
    json_t *wl = json_object();
    for (int w = 0; w < j->nwl; w++)
        if (report_wl_ran(j, s->nsrc, w))
            json_object_set_new(wl, j->wl[w]->name, job_json(s, j, src, w));
    json_object_set_new(o, "workloads", wl);
    if (src > 0) {
        double lo, hi;
        bool ok = view_job_index_interval(j, src, &lo, &hi);
        json_object_set_new(o, "index", num(view_job_index(j, src)));
        json_object_set_new(o, "index_lo", num(ok ? lo : NAN));
        json_object_set_new(o, "index_hi", num(ok ? hi : NAN));
    }
    return o;
}

static json_t *catalogue_json(const struct session *s, const struct jobs *j)
{
    json_t *a = json_array();
    for (int w = 0; w < j->nwl; w++)
        if (report_wl_ran(j, s->nsrc, w))
            json_array_append_new(
                a,
                json_pack("{s:s, s:s, s:s}", "name", j->wl[w]->name, "unit",
                          j->wl[w]->unit, "better",
                          j->wl[w]->better == WL_LOWER_IS_BETTER ? "lower"
                                                                 : "higher"));
    return a;
}

static json_t *fairness_json(const struct jobs *j)
{
    const struct wl_result *r = report_fairness(j);
    if (!r)
        return json_null();
    return json_pack("{s:s, s:o, s:o}", "source", "host", "figure",
                     num(r->figure), "extras", extras_json(r));
}

static json_t *report_json(const struct session *s, const struct jobs *j,
                           const struct report_meta *meta)
{
    char date[64];
    struct tm tm;
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z",
             localtime_r(&meta->when, &tm));
    json_t *sources = json_array();
    for (int src = 0; src < s->nsrc; src++)
        json_array_append_new(sources, source_json(s, j, meta, src));
    return json_pack(
        "{s:s, s:i, s:s, s:s, s:I, s:f, s:i, s:o, s:o, s:o}", "format",
        REPORT_FORMAT, "version", REPORT_VERSION, "parallax", PARALLAX_VERSION,
        "date", date, "epoch", (json_int_t)meta->when, "interval", s->interval,
        "runs_shared", report_overlapped(s, j), "workloads",
        catalogue_json(s, j), "sources", sources, "fairness", fairness_json(j));
}

int report_json_write(FILE *f, const struct session *s, const struct jobs *j,
                      const struct report_meta *meta)
{
    json_t *root = report_json(s, j, meta);
    if (!root)
        return -1;
    json_object_set_new(root, "vms", vm_report_json(s)); /* the host's view */
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (rc == 0)
        fputc('\n', f);
    return rc == 0 && fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
