/* See view.h. */
#include "view/view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "view/fmt.h"
#include "core/jobs.h"
#include "core/ratio.h"
#include "workloads/stats.h"

int view_columns(int nsrc, struct view_col *cols, int max)
{
    int n = 0;
    for (int i = 0; i < nsrc && n < max; i++) {
        cols[n++] = (struct view_col){VC_SOURCE, i};
        if (i > 0 && n < max)
            cols[n++] = (struct view_col){VC_RATIO, i};
    }
    return n;
}

static void state_text(const struct source_model *m, double now,
                       double interval, char *buf, size_t n)
{
    switch (m->state) {
    case SRC_CONNECTING:
        snprintf(buf, n, "connecting");
        break;
    case SRC_LIVE:
        if (model_is_stale(m, now, interval))
            snprintf(buf, n, "stale %.0fs", now - m->last_ok);
        else
            snprintf(buf, n, "live %.1fms", m->fetch_ms);
        break;
    case SRC_DOWN:
        snprintf(buf, n, "down %.0fs, retry %.0fs", now - m->down_since,
                 fmax(0, m->retry_at - now));
        break;
    }
}

/* "6.18" of "6.18.44-fc-123": the release up to its second dot. */
static void short_release(const char *rel, char *buf, size_t n)
{
    const char *dot = strchr(rel, '.');
    dot = dot ? strchr(dot + 1, '.') : NULL;
    int len = dot ? (int)(dot - rel) : (int)strlen(rel);
    snprintf(buf, n, "%.*s", len, rel);
}

#define HEADER_MAX 256 /* a header candidate: names, target, figures */

/* Copies into buf the first candidate that fits width cells (the header
 * texts are ASCII), or the last one cut; returns which one it took. */
static int first_fit(char *buf, size_t n, int width, char cand[][HEADER_MAX],
                     int k)
{
    int i = 0;
    while (i < k - 1 && (int)strlen(cand[i]) > width)
        i++;
    snprintf(buf, n, "%.*s", width > 0 ? width : 0, cand[i]);
    return i;
}

#define INFO_WITH_HOST 2 /* info_text's first candidates name the host */

/* What the source is, "myhost 6.1.0-18-amd64 2cpu 23G" where it fits,
 * else shorter: the release to its minor number, then no host name (the
 * backend line takes it), then only CPUs and memory. Returns the form. */
static int info_text(const struct source_model *m, int width, char *buf,
                     size_t n)
{
    const struct source_info *i = &m->info;
    char mem[16] = "?", cpus[16] = "?", rel[32];
    if (i->mem_bytes > 0)
        fmt_bytes(mem, sizeof(mem), i->mem_bytes);
    if (i->ncpu > 0)
        snprintf(cpus, sizeof(cpus), "%d", i->ncpu);
    const char *host = i->host[0] ? i->host : "?";
    const char *release = i->release[0] ? i->release : "?";
    short_release(release, rel, sizeof(rel));
    char cand[4][HEADER_MAX];
    snprintf(cand[0], sizeof(cand[0]), "%s %s %scpu %s", host, release, cpus,
             mem);
    snprintf(cand[1], sizeof(cand[1]), "%s %s %scpu %s", host, rel, cpus, mem);
    snprintf(cand[2], sizeof(cand[2]), "%s %scpu %s", rel, cpus, mem);
    snprintf(cand[3], sizeof(cand[3]), "%scpu %s", cpus, mem);
    return first_fit(buf, n, width, cand, 4);
}

/* How the source is read, "pcp 10.0.0.2:44321 +pmda" where it fits; else
 * the target and the agent, then the host name (when the line above had
 * no room for it, cut to fit) and the agent, then the agent alone. For
 * this host, the back-end, after the host name where that is missing. */
static void backend_text(const struct source_model *m, int width, char *buf,
                         size_t n)
{
    const char *be = m->backend ? m->backend : m->target[0] ? "pcp" : "?";
    const char *tail = be; /* what must show: the agent, or the back-end */
    if (m->target[0])
        tail = m->state == SRC_LIVE || m->samples
                   ? (m->info.pmda ? "+pmda" : "no pmda")
                   : m->target;
    char info[HEADER_MAX], cand[4][HEADER_MAX];
    bool host_shown = m->state != SRC_DOWN &&
                      info_text(m, width, info, sizeof(info)) < INFO_WITH_HOST;
    const char *host = host_shown ? "" : m->info.host;
    int k = 0, room = width - 1 - (int)strlen(tail);
    if (m->target[0]) {
        snprintf(cand[k++], sizeof(cand[0]), "%s %s%s%s", be, m->target,
                 tail == m->target ? "" : " ", tail == m->target ? "" : tail);
        if (tail != m->target)
            snprintf(cand[k++], sizeof(cand[0]), "%s %s", m->target, tail);
    }
    if (host[0] && room >= 3)
        snprintf(cand[k++], sizeof(cand[0]), "%.*s %s", room, host, tail);
    snprintf(cand[k++], sizeof(cand[0]), "%s", tail);
    first_fit(buf, n, width, cand, k);
}

bool view_is_baseline(const struct source_model *m)
{
    return m->backend && strcmp(m->backend, "baseline") == 0;
}

void view_source_header(const struct source_model *m, int row, double now,
                        double interval, int width, char *buf, size_t n)
{
    if (view_is_baseline(m) && (row == 1 || row == 3)) {
        const char *file = strrchr(m->target, '/');
        snprintf(buf, n, "%s",
                 row == 1 ? "saved run"
                 : file   ? file + 1
                          : m->target);
        return;
    }
    switch (row) {
    case 0:
        snprintf(buf, n, "%s", m->name);
        break;
    case 1:
        state_text(m, now, interval, buf, n);
        break;
    case 2: /* what it is; why not, while it is down */
        if (m->state == SRC_DOWN)
            snprintf(buf, n, "%s", m->error);
        else
            info_text(m, width, buf, n);
        break;
    default:
        backend_text(m, width, buf, n);
        break;
    }
}

void view_metric_cell(const struct source_model *m, int id, char *val,
                      size_t vn, char *spark, size_t sn, int spark_w, bool utf8)
{
    const struct metric_desc *d = &metric_descs[id];
    char raw[32];
    fmt_value(raw, sizeof(raw), m->value[id], d->format);
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    double top = d->format == MF_PERCENT ? 100 : 0;
    fmt_spark(spark, sn, &m->hist[id], spark_w, top, utf8);
}

double view_metric_ratio(const struct source_model *guest,
                         const struct source_model *host, int id)
{
    return ratio_oriented(guest->value[id], host->value[id],
                          metric_descs[id].ratio);
}

void view_ratio_text(double r, char *buf, size_t n)
{
    char raw[16];
    if (!isfinite(r))
        strcpy(raw, "-");
    else if (r >= 100)
        snprintf(raw, sizeof(raw), "%.0f", r);
    else if (r >= 10)
        snprintf(raw, sizeof(raw), "%.1f", r);
    else
        snprintf(raw, sizeof(raw), "%.2f", r);
    fmt_right(buf, n, VIEW_RATIO_W, raw);
}

/* "120..1.61k": an interval of figures, as fmt_value writes them. */
static void interval_text(char *buf, size_t n, double lo, double hi)
{
    char a[24], b[24];
    fmt_value(a, sizeof(a), lo, MF_SI);
    fmt_value(b, sizeof(b), hi, MF_SI);
    snprintf(buf, n, "%.23s..%.23s", a, b);
}

int view_job_flags(const struct jobs *j, int src, int w)
{
    const struct job_cell *c = jobs_cell(j, src, w);
    if (c->state != JOB_DONE && c->state != JOB_STOPPED)
        return 0;
    const struct wl_stats *st = &c->stats;
    int f = 0;
    if (jobs_divergent(c))
        f |= VJ_DIVERGENT;
    if (jobs_partial(c))
        f |= VJ_PARTIAL;
    if (stats_noisy(st->median, st->med_lo, st->med_hi))
        f |= VJ_NOISY;
    if (!c->real && st->n > 0)
        f |= VJ_REPORTED;
    if (c->overlap)
        f |= VJ_OVERLAP;
    if (!c->bracket_ok)
        f |= VJ_UNBRACKETED;
    return f;
}

/* The words of the VJ_ flags, most telling first: the screen's, and the
 * reports' (with room to say more). */
static const struct {
    int flag;
    const char *word, *words;
} flag_words[] = {
    {VJ_DIVERGENT, "differs", "clock differs"},
    {VJ_UNBRACKETED, "unsure", "outside the host's bracket"},
    {VJ_PARTIAL, "partial", "partial"},
    {VJ_REPORTED, "reported", "reported only"},
    {VJ_NOISY, "noisy", "noisy"},
    {VJ_OVERLAP, "shared", "shared"},
};

int view_job_marks(int flags, bool report, char *buf, size_t n)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (size_t i = 0; i < sizeof(flag_words) / sizeof(flag_words[0]); i++)
        if ((flags & flag_words[i].flag) && used < n)
            used += (size_t)snprintf(
                buf + used, n - used, report ? "%s%s" : "%.0s%s ",
                report && used ? ", " : "",
                report ? flag_words[i].words : flag_words[i].word);
    return (int)(used < n ? used : n);
}

/* The marks of a finished cell, most telling first: "said×2.75 partial
 * noisy shared ". */
static int flag_text(const struct job_cell *c, int flags, char *buf, size_t n,
                     bool utf8)
{
    int used = 0;
    buf[0] = '\0';
    if (flags & VJ_DIVERGENT) { /* its own figure over the real one */
        char d[32];
        double f = jobs_divergence(c);
        if (f > 0)
            view_factor_text(f, d, sizeof(d), utf8);
        else /* an overshoot gone below zero: say the figure itself */
            fmt_value(d, sizeof(d), c->said.median, MF_SI);
        used += snprintf(buf + used, n - (size_t)used, "said%s%s ",
                         f > 0 ? "" : " ", d);
    }
    if (used < (int)n)
        used += view_job_marks(flags & ~VJ_DIVERGENT, false, buf + used,
                               n - (size_t)used);
    /* where it ran, unless anywhere the scheduler chose */
    static const char *const place[] = {"", "same ", "split "};
    if (c->placement > 0 && c->placement <= 2 && used < (int)n)
        used +=
            snprintf(buf + used, n - (size_t)used, "%s", place[c->placement]);
    if (c->cpu >= 0 && used < (int)n)
        used += snprintf(buf + used, n - (size_t)used, "@cpu%d ", c->cpu);
    return used;
}

void view_job_cell(const struct jobs *j, int src, int w, char *val, size_t vn,
                   char *detail, size_t dn, bool utf8)
{
    const struct job_cell *c = jobs_cell(j, src, w);
    const char *unit = j->wl[w]->unit;
    char raw[32] = "";
    double fig = jobs_figure(c);
    if (isfinite(fig))
        fmt_value(raw, sizeof(raw), fig, MF_SI);
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    switch (c->state) {
    case JOB_IDLE:
        if (dn)
            detail[0] = '\0';
        break;
    case JOB_RUNNING:
    case JOB_STOPPING:
        snprintf(detail, dn, "%s %d/%d %s",
                 c->state == JOB_RUNNING ? ">" : "stop", c->repeat + 1,
                 c->repeats, unit);
        break;
    case JOB_FAILED:
        snprintf(detail, dn, "failed: %s", c->note);
        break;
    case JOB_DONE:
    case JOB_STOPPED: {
        char marks[96], iv[56] = "";
        flag_text(c, view_job_flags(j, src, w), marks, sizeof(marks), utf8);
        if (isfinite(c->stats.med_lo))
            interval_text(iv, sizeof(iv), c->stats.med_lo, c->stats.med_hi);
        snprintf(detail, dn, "%s%s%s%s", marks, iv, iv[0] ? " " : "", unit);
        break;
    }
    }
}

/* Workload w's ratio orientation: > 1 worse in the guest. */
static enum ratio_orientation job_orientation(const struct jobs *j, int w)
{
    return j->wl[w]->better == WL_LOWER_IS_BETTER ? RO_HIGHER_WORSE
                                                  : RO_LOWER_WORSE;
}

double view_job_ratio(const struct jobs *j, int guest, int w)
{
    const struct job_cell *g = jobs_cell(j, guest, w), *h = jobs_cell(j, 0, w);
    /* only finished figures: a live one against a median would drift */
    if (g->stats.n == 0 || h->stats.n == 0)
        return NAN;
    return ratio_oriented(g->stats.median, h->stats.median,
                          job_orientation(j, w));
}

bool view_job_ratio_interval(const struct jobs *j, int guest, int w, double *lo,
                             double *hi)
{
    const struct job_cell *g = jobs_cell(j, guest, w), *h = jobs_cell(j, 0, w);
    *lo = *hi = NAN;
    if (g->stats.n == 0 || h->stats.n == 0)
        return false;
    return ratio_interval(g->stats.med_lo, g->stats.med_hi, h->stats.med_lo,
                          h->stats.med_hi, job_orientation(j, w), lo, hi);
}

/* Whether workload w's ratio on guest counts in its index: a figure
 * from a run stopped early does not, on either side. */
static bool in_index(const struct jobs *j, int guest, int w)
{
    return !jobs_partial(jobs_cell(j, guest, w)) &&
           !jobs_partial(jobs_cell(j, 0, w));
}

double view_job_index(const struct jobs *j, int guest)
{
    double r[JOBS_MAX_WL];
    for (int w = 0; w < j->nwl; w++)
        r[w] = in_index(j, guest, w) ? view_job_ratio(j, guest, w) : NAN;
    return ratio_geomean(r, j->nwl);
}

bool view_job_index_interval(const struct jobs *j, int guest, double *lo,
                             double *hi)
{
    double l[JOBS_MAX_WL], h[JOBS_MAX_WL];
    int n = 0;
    *lo = *hi = NAN;
    for (int w = 0; w < j->nwl; w++) {
        if (!in_index(j, guest, w) || !isfinite(view_job_ratio(j, guest, w)))
            continue;
        if (!view_job_ratio_interval(j, guest, w, &l[n], &h[n]))
            return false; /* a ratio without one: no interval for all */
        n++;
    }
    if (n == 0)
        return false;
    *lo = ratio_geomean(l, n);
    *hi = ratio_geomean(h, n);
    return true;
}

void view_factor_text(double f, char *buf, size_t n, bool utf8)
{
    const char *x = utf8 ? "\u00d7" : "x";
    if (!isfinite(f))
        snprintf(buf, n, "%s?", x);
    else if (f >= 100)
        snprintf(buf, n, "%s%.0f", x, f);
    else if (f >= 10)
        snprintf(buf, n, "%s%.1f", x, f);
    else
        snprintf(buf, n, "%s%.2f", x, f);
}

const char *const time_row_labels[TIME_ROW_COUNT] = {
#define TIME_LABEL(id, label) [id] = label,
    TIME_ROWS(TIME_LABEL)
#undef TIME_LABEL
};

#define BILLED_LO 0.95 /* CPU billed/wall outside this band is flagged */
#define BILLED_HI 1.05

static double billed_ratio(const struct source_model *m)
{
    const struct probe_sample *p = &m->probe;
    if (!p->count || !(p->spin_wall > 0))
        return NAN;
    return p->spin_cpu / p->spin_wall;
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

/* The clock's rate over the last seconds, "×0.364", and whether it held:
 * "±0.02%", or "varies ×53-×858" over the rates seen. */
static void rate_cell(const struct source_model *m, char *raw, size_t rn,
                      char *detail, size_t dn, bool utf8)
{
    const struct time_rates *r = &m->rates;
    if (!r->recent.ok)
        return;
    const char *x = utf8 ? "\u00d7" : "x";
    double v = r->recent.rate;
    snprintf(raw, rn, "%s%.*f", x, v >= 100 ? 0 : v >= 10 ? 1 : 3, v);
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

void view_time_cell(const struct source_model *m, bool is_host, int row,
                    char *val, size_t vn, char *detail, size_t dn, bool utf8)
{
    const char *pm = utf8 ? "\u00b1" : "+-";
    struct clock_fit f;
    clock_model_fit(&m->clock, &f);
    char raw[32] = "n/a";
    detail[0] = '\0';
    switch (row) {
    case TR_OFFSET:
        if (is_host)
            snprintf(raw, sizeof(raw), "-");
        else if (f.ok) {
            snprintf(raw, sizeof(raw), "%+.1fms", f.offset * 1e3);
            snprintf(detail, dn, "%s%.1fms", pm, f.offset_err * 1e3);
        } else if (m->state == SRC_LIVE)
            snprintf(detail, dn, "fitting");
        break;
    case TR_DRIFT:
        if (is_host)
            snprintf(raw, sizeof(raw), "-");
        else if (f.ok) {
            snprintf(raw, sizeof(raw), "%+.0f", f.drift_ppm);
            snprintf(detail, dn, "%s%.0f ppm", pm, f.drift_err_ppm);
        }
        break;
    case TR_RATE:
        if (is_host)
            snprintf(raw, sizeof(raw), "-");
        else
            rate_cell(m, raw, sizeof(raw), detail, dn, utf8);
        break;
    case TR_SLEEP:
        if (m->probe.count) {
            snprintf(raw, sizeof(raw), "%.2fms", m->probe.sleep_took * 1e3);
            double err, host = view_probe_host_saw(m, is_host, &err);
            double ms = (host + err) * 1e3;
            /* too short to time on a clock that varies: its bound */
            if (isfinite(host) && err > host / 2)
                snprintf(detail, dn, "host saw %s%.*fms",
                         utf8 ? "\u2264" : "<=", ms < 10 ? 2 : 0, ms);
            else if (isfinite(host))
                snprintf(detail, dn, "host saw %.2fms", host * 1e3);
        }
        break;
    case TR_BILLED: {
        double r = billed_ratio(m);
        if (isfinite(r)) {
            snprintf(raw, sizeof(raw), "%.2f", r);
            if (r < BILLED_LO || r > BILLED_HI)
                billed_detail(m, r, detail, dn);
        }
        break;
    }
    }
    fmt_right(val, vn, VIEW_VALUE_W, raw);
}

double view_time_ratio(const struct source_model *guest,
                       const struct source_model *host, int row)
{
    if (row != TR_SLEEP || !guest->probe.count || !host->probe.count)
        return NAN;
    /* what the guest's sleep really took against the host's own, when
     * the host could time it */
    double err, saw = view_probe_host_saw(guest, false, &err);
    if (!(err <= saw / 2))
        return NAN;
    return ratio_oriented(saw, host->probe.sleep_took, RO_HIGHER_WORSE);
}

void view_column_ratio_text(const struct source_model *m, double r, char *buf,
                            size_t n)
{
    if (!view_is_baseline(m) || !isfinite(r)) {
        view_ratio_text(r, buf, n);
        return;
    }
    char raw[16];
    snprintf(raw, sizeof(raw), "%+.0f%%", (r - 1) * 100);
    fmt_right(buf, n, VIEW_RATIO_W, raw);
}

const char *view_column_ratio_header(const struct source_model *m, bool utf8)
{
    if (view_is_baseline(m))
        return utf8 ? "\u0394%" : "d%";
    return utf8 ? "\u00d7" : "x";
}
