/* See fleet_report.h. Both writers take the same distributions from
 * stats_of, so the text and the JSON cannot disagree; a figure that is
 * n/a is "-" in the text and null in the JSON, never 0. */
#include "report/fleet_report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/version.h"
#include "report/report.h"
#include "view/fleet_table.h"
#include "workloads/registry.h"

/* A workload's figures over the guests of the run. */
struct wl_stats_ {
    int guests, failed;
    struct fleet_dist ratio, diverge;
    int worst_ratio[FLEET_REPORT_WORST], worst_div[FLEET_REPORT_WORST];
};

/* The distributions of registry workload w over the run's guests. */
static void stats_of(const struct fleet_model *m, const struct fleet_run *r,
                     int w, struct wl_stats_ *st)
{
    int n = 0, *src = malloc(sizeof(int) * (size_t)(r->n + 1));
    double *x = malloc(sizeof(double) * (size_t)(r->n + 1) * 4);
    memset(st, 0, sizeof(*st));
    if (!src || !x) {
        free(src);
        free(x);
        return;
    }
    double *bad = x + r->n + 1, *dx = bad + r->n + 1, *dbad = dx + r->n + 1;
    for (int k = 0; k < r->n; k++) {
        const struct fleet_member *f = &r->m[k];
        if (f->host)
            continue;
        st->guests++;
        const struct fleet_result *res = fleet_result(m, f->src, w);
        if (!res)
            st->failed += f->state == FM_FAILED || f->state == FM_STOPPED;
        src[n] = f->src;
        x[n] = bad[n] = fleet_wl_ratio(m, f->src, w);
        dx[n] = res ? res->diverge : NAN;
        dbad[n] = fabs(dx[n] - 1);
        n++;
    }
    fleet_dist_compute(bad, x, src, n, &st->ratio, st->worst_ratio,
                       FLEET_REPORT_WORST);
    fleet_dist_compute(dbad, dx, src, n, &st->diverge, st->worst_div,
                       FLEET_REPORT_WORST);
    if (isfinite(st->diverge.median)) { /* badness back to figures */
        st->diverge.median += 1;
        st->diverge.p95 += 1;
    }
    free(src);
    free(x);
}

static void fmt_num(char *buf, size_t n, double v, int digits)
{
    if (isfinite(v))
        snprintf(buf, n, "%.*f", digits, v);
    else
        snprintf(buf, n, "-");
}

/* "g042 1.35, g017 1.20" of the worst sources and their figures. */
static void worst_text(const struct fleet_model *m, const int *worst,
                       double (*fig)(const struct fleet_model *, int, int),
                       int w, int digits, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < FLEET_REPORT_WORST && worst[k] >= 0 && len < n; k++) {
        char v[32];
        fmt_num(v, sizeof(v), fig(m, worst[k], w), digits);
        len += (size_t)snprintf(buf + len, n - len, "%s%s %s", k ? ", " : "",
                                m->src[worst[k]].lab.name, v);
    }
}

static double div_of(const struct fleet_model *m, int i, int w)
{
    const struct fleet_result *res = fleet_result(m, i, w);
    return res ? res->diverge : NAN;
}

static void when_text(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    strftime(buf, n, "%Y-%m-%d %H:%M:%S %z", localtime_r(&t, &tm));
}

int fleet_report_text(FILE *f, const struct fleet_view *v,
                      const struct fleet_model *m, const struct fleet_run *r)
{
    char when[64];
    when_text(when, sizeof(when));
    fprintf(f, "parallax %s fleet report, %s\npmproxy %s\n", PARALLAX_VERSION,
            when, m->url);
    if (v->filter_text[0])
        fprintf(f, "filter: %s\n", v->filter_text);
    if (r && r->m) {
        struct fleet_run_counts c;
        fleet_run_count(r, &c);
        fprintf(f,
                "run: %s on %d guests and %d hosts (hosts first), %d at a "
                "time, %d repeats of %g s: %d done, %d failed, %d stopped\n",
                r->what, c.guests, c.hosts, r->concurrency, r->opts.repeats,
                r->opts.duration, c.done, c.failed, c.stopped);
        fprintf(f, "figures as reported: timed by each source's own clock; "
                   "div is the guest's seconds per real second during its "
                   "run\n\n");
        for (int k = 0; k < r->nwl; k++) {
            int w = r->wl[k];
            const struct workload *wl = workload_registry[w];
            struct wl_stats_ st;
            char a[32], b[32], c3[32], worst[256];
            stats_of(m, r, w, &st);
            fprintf(f,
                    "%s (%s, %s is better): %d guests with a ratio, %d "
                    "failed\n",
                    wl->name, wl->unit,
                    wl->better == WL_LOWER_IS_BETTER ? "lower" : "higher",
                    st.ratio.n, st.failed);
            fmt_num(a, sizeof(a), st.ratio.median, 3);
            fmt_num(b, sizeof(b), st.ratio.p95, 3);
            fmt_num(c3, sizeof(c3), st.ratio.worst, 3);
            worst_text(m, st.worst_ratio, fleet_wl_ratio, w, 3, worst,
                       sizeof(worst));
            fprintf(f, "  ratio to host  median %s  p95 %s  worst %s  (%s)\n",
                    a, b, c3, worst);
            fmt_num(a, sizeof(a), st.diverge.median, 4);
            fmt_num(b, sizeof(b), st.diverge.p95, 4);
            fmt_num(c3, sizeof(c3), st.diverge.worst, 4);
            worst_text(m, st.worst_div, div_of, w, 4, worst, sizeof(worst));
            fprintf(f, "  divergence     median %s  p95 %s  worst %s  (%s)\n",
                    a, b, c3, worst);
        }
        bool any = false;
        for (int k = 0; k < r->n; k++) {
            const struct fleet_member *mb = &r->m[k];
            if (mb->state != FM_FAILED && mb->state != FM_STOPPED)
                continue;
            if (!any)
                fprintf(f, "\nnot measured:\n");
            any = true;
            fprintf(f, "  %s%s: %s\n", m->src[mb->src].lab.name,
                    mb->host ? " (host)" : "",
                    mb->note[0] ? mb->note : "stopped");
        }
        fputc('\n', f);
    }
    fleet_table_print(f, v, m, r, clock_mono(), false);
    return ferror(f) ? -1 : 0;
}

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *dist_json(const struct fleet_model *m,
                         const struct fleet_dist *d, const int *worst,
                         double (*fig)(const struct fleet_model *, int, int),
                         int w)
{
    json_t *names = json_array();
    for (int k = 0; k < FLEET_REPORT_WORST && worst[k] >= 0; k++)
        json_array_append_new(
            names, json_pack("{s:s, s:o}", "guest", m->src[worst[k]].lab.name,
                             "value", num(fig(m, worst[k], w))));
    return json_pack("{s:i, s:o, s:o, s:o, s:o}", "n", d->n, "median",
                     num(d->median), "p95", num(d->p95), "worst", num(d->worst),
                     "worst_guests", names);
}

static json_t *run_json(const struct fleet_model *m, const struct fleet_run *r)
{
    if (!r || !r->m)
        return json_null();
    json_t *wls = json_array();
    for (int k = 0; k < r->nwl; k++) {
        int w = r->wl[k];
        struct wl_stats_ st;
        stats_of(m, r, w, &st);
        json_array_append_new(
            wls,
            json_pack(
                "{s:s, s:s, s:s, s:i, s:i, s:o, s:o}", "name",
                workload_registry[w]->name, "unit", workload_registry[w]->unit,
                "better",
                workload_registry[w]->better == WL_LOWER_IS_BETTER ? "lower"
                                                                   : "higher",
                "guests", st.guests, "failed", st.failed, "ratio",
                dist_json(m, &st.ratio, st.worst_ratio, fleet_wl_ratio, w),
                "diverge", dist_json(m, &st.diverge, st.worst_div, div_of, w)));
    }
    return json_pack("{s:s, s:i, s:f, s:i, s:s, s:o}", "what", r->what,
                     "repeats", r->opts.repeats, "duration_s", r->opts.duration,
                     "concurrency", r->concurrency, "figures", "reported",
                     "workloads", wls);
}

static const char *role_text(enum fleet_role role)
{
    return role == FLEET_HOST ? "host" : role == FLEET_GUEST ? "guest" : "";
}

static json_t *source_json(const struct fleet_view *v,
                           const struct fleet_model *m,
                           const struct fleet_run *r, int i)
{
    const struct fleet_source *s = &m->src[i];
    json_t *figs = json_object(), *ratios = json_object(), *res = json_object();
    for (int id = 0; id < METRIC_COUNT; id++) {
        json_object_set_new(figs, metric_descs[id].key, num(s->value[id]));
        json_object_set_new(ratios, metric_descs[id].key,
                            num(fleet_metric_ratio(m, i, id)));
    }
    for (int w = 0; w < FLEET_WL_MAX && workload_registry[w]; w++) {
        const struct fleet_result *x = fleet_result(m, i, w);
        if (x)
            json_object_set_new(
                res, workload_registry[w]->name,
                json_pack(
                    "{s:o, s:i, s:o, s:o, s:o, s:o}", "median", num(x->median),
                    "n", x->n, "ratio", num(fleet_wl_ratio(m, i, w)), "diverge",
                    num(x->diverge), "diverge_within", num(x->diverge_within),
                    "ci95", json_pack("[o, o]", num(x->ci_lo), num(x->ci_hi))));
    }
    const struct fleet_member *f = r ? fleet_run_member(r, i) : NULL;
    char run[64] = "";
    if (f)
        fleet_member_text(r, f, run, sizeof(run));
    char state[32];
    fleet_cell_text(v, m, r, i, FC_STATE, clock_mono(), state, sizeof(state));
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, "
        "s:{s:s, s:s}}",
        "name", s->lab.name, "role", role_text(s->lab.role), "host",
        s->lab.host, "variant", s->lab.variant, "pmcd", s->lab.pmcd, "kernel",
        s->release, "state", state, "drift_ppm", num(s->drift_ppm), "offset_s",
        num(s->offset), "offset_resolution_s", num(s->offset_res), "figures",
        figs, "ratios", ratios, "results", res, "run", "state", run, "note",
        f ? f->note : "");
}

int fleet_report_json(FILE *f, const struct fleet_view *v,
                      const struct fleet_model *m, const struct fleet_run *r)
{
    char when[64];
    when_text(when, sizeof(when));
    json_t *rows = json_array();
    for (int k = 0; k < v->nrows; k++)
        json_array_append_new(rows, source_json(v, m, r, v->row[k]));
    /* the run's hosts too: their figures are the ratios' other side */
    for (int k = 0; r && r->m && k < r->n; k++)
        if (r->m[k].host)
            json_array_append_new(rows, source_json(v, m, r, r->m[k].src));
    json_t *root = json_pack(
        "{s:s, s:s, s:s, s:s, s:{s:i, s:i, s:i}, s:o, s:o}", "parallax",
        PARALLAX_VERSION, "kind", "fleet", "when", when, "pmproxy", m->url,
        "fleet", "hosts", m->nhosts, "guests", m->nguests, "live", m->nlive,
        "run", run_json(m, r), "sources", rows);
    if (v->filter_text[0])
        json_object_set_new(root, "filter", json_string(v->filter_text));
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_ENSURE_ASCII);
    fputc('\n', f);
    json_decref(root);
    return rc < 0 || ferror(f) ? -1 : 0;
}

static int pair_text(FILE *f, const void *arg)
{
    const struct fleet_report_of *a = arg;
    return fleet_report_text(f, a->v, a->m, a->r);
}

static int pair_json(FILE *f, const void *arg)
{
    const struct fleet_report_of *a = arg;
    return fleet_report_json(f, a->v, a->m, a->r);
}

struct report_pair fleet_report_pair(const struct fleet_report_of *a)
{
    return (struct report_pair){"parallax-fleet", "fleet reports", pair_text,
                                pair_json, a};
}

int fleet_report_save(const char *dir, const struct fleet_view *v,
                      const struct fleet_model *m, const struct fleet_run *r,
                      char *path, size_t pathlen, char *err, size_t errlen)
{
    char clk[64];
    struct report_meta meta;
    struct fleet_report_of a = {v, m, r};
    struct report_pair p = fleet_report_pair(&a);
    report_meta_now(&meta, clk, sizeof(clk));
    return report_pair_save(dir, &p, &meta, path, pathlen, err, errlen);
}
