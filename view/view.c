/* See view.h. */
#include "view/view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock_model.h"
#include "core/ratio.h"
#include "session/jobs.h"
#include "view/fit.h"
#include "view/fmt.h"
#include "view/view_replay.h"
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

/* The source's state in width cells: "down 12s, retry 4s", or "down 12s"
 * where that does not fit. */
static void state_text(const struct source_model *m, double now,
                       double interval, int width, char *buf, size_t n,
                       bool utf8)
{
    char full[64], shorter[64];
    switch (m->state) {
    case SRC_CONNECTING:
        snprintf(full, sizeof(full), "connecting");
        break;
    case SRC_LIVE:
        if (model_is_stale(m, now, interval))
            snprintf(full, sizeof(full), "stale %.0fs", now - m->last_ok);
        else
            snprintf(full, sizeof(full), "live %.1fms", m->fetch_ms);
        break;
    case SRC_DOWN:
        snprintf(full, sizeof(full), "down %.0fs, retry %.0fs",
                 now - m->down_since, fmax(0, m->retry_at - now));
        snprintf(shorter, sizeof(shorter), "down %.0fs", now - m->down_since);
        const char *cand[] = {full, shorter};
        fit_first(buf, n, width, cand, 2, utf8);
        return;
    }
    fit_text(buf, n, width, full, utf8);
}

/* "6.18" of "6.18.44-fc-123": the release up to its second dot. */
static void short_release(const char *rel, char *buf, size_t n)
{
    const char *dot = strchr(rel, '.');
    dot = dot ? strchr(dot + 1, '.') : NULL;
    int len = dot ? (int)(dot - rel) : (int)strlen(rel);
    snprintf(buf, n, "%.*s", len, rel);
}

#define HEADER_MAX        256 /* a header candidate: names, target, figures */
#define HEADER_CANDIDATES 8   /* forms of a header line, longest first */

/* Copies into buf the first candidate that fits width cells, or the last
 * one with an ellipsis; returns which one it took. */
static int first_fit(char *buf, size_t n, int width, char cand[][HEADER_MAX],
                     int k, bool utf8)
{
    const char *c[HEADER_CANDIDATES];
    for (int i = 0; i < k && i < HEADER_CANDIDATES; i++)
        c[i] = cand[i];
    int i = fit_first(buf, n, width, c, k, utf8);
    return i < k ? i : k - 1;
}

/* True when info_text's form `form` names the host. */
static bool info_names_host(int form)
{
    return form == 0 || form == 1 || form == 3;
}

/* What the source is, "myhost 6.1.0-18-amd64 EEVDF voluntary 2cpu 23G"
 * where it fits, else shorter: the release to its minor number, then no
 * host name (the backend line takes it), then the host again with the
 * scheduler without its preemption model (the model tells 6.12 from
 * 6.12-rt, so it goes after the host), then neither, then no scheduler,
 * then no memory, then only CPUs and memory. Returns the form. */
static int info_text(const struct source_model *m, int width, char *buf,
                     size_t n, bool utf8)
{
    const struct source_info *i = &m->info;
    char mem[16] = "?", cpus[16] = "?", rel[32], sched[48] = "", fam[24] = "";
    if (i->mem_bytes > 0)
        fmt_bytes(mem, sizeof(mem), i->mem_bytes);
    if (i->ncpu > 0)
        snprintf(cpus, sizeof(cpus), "%d", i->ncpu);
    if (i->sched[0] || i->preempt[0]) /* " EEVDF voluntary" */
        snprintf(sched, sizeof(sched), " %s%s%s", i->sched,
                 i->sched[0] && i->preempt[0] ? " " : "", i->preempt);
    if (i->sched[0])
        snprintf(fam, sizeof(fam), " %s", i->sched);
    const char *host = i->host[0] ? i->host : "?";
    const char *release = i->release[0] ? i->release : "?";
    short_release(release, rel, sizeof(rel));
    char cand[HEADER_CANDIDATES][HEADER_MAX];
    snprintf(cand[0], sizeof(cand[0]), "%s %s%s %scpu %s", host, release, sched,
             cpus, mem);
    snprintf(cand[1], sizeof(cand[1]), "%s %s%s %scpu %s", host, rel, sched,
             cpus, mem);
    snprintf(cand[2], sizeof(cand[2]), "%s%s %scpu %s", rel, sched, cpus, mem);
    snprintf(cand[3], sizeof(cand[3]), "%s %s%s %scpu %s", host, rel, fam, cpus,
             mem);
    snprintf(cand[4], sizeof(cand[4]), "%s%s %scpu %s", rel, fam, cpus, mem);
    snprintf(cand[5], sizeof(cand[5]), "%s %scpu %s", rel, cpus, mem);
    snprintf(cand[6], sizeof(cand[6]), "%s%s %scpu", rel, fam, cpus);
    snprintf(cand[7], sizeof(cand[7]), "%scpu %s", cpus, mem);
    return first_fit(buf, n, width, cand, HEADER_CANDIDATES, utf8);
}

/* How the source is read, "pcp 10.0.0.2:44321 +pmda" where it fits (with
 * the host name in place of "pcp" when the line above had no room for
 * it); else the target and the agent, then the host name (cut to fit) and
 * the agent, then the agent alone. For this host, the back-end, after the
 * host name where that is missing. */
static void backend_text(const struct source_model *m, int width, char *buf,
                         size_t n, bool utf8)
{
    const char *be = m->backend ? m->backend : m->target[0] ? "pcp" : "?";
    const char *tail = be; /* what must show: the agent, or the back-end */
    if (m->target[0])
        tail = m->state == SRC_LIVE || m->samples
                   ? (m->info.pmda ? "+pmda" : "no pmda")
                   : m->target;
    char info[HEADER_MAX], cand[5][HEADER_MAX];
    bool host_shown =
        m->state != SRC_DOWN &&
        info_names_host(info_text(m, width, info, sizeof(info), utf8));
    const char *host = host_shown ? "" : m->info.host;
    int k = 0, room = width - 1 - (int)strlen(tail);
    if (m->target[0] && host[0] && tail != m->target) /* who, then how */
        snprintf(cand[k++], sizeof(cand[0]), "%s %s %s", host, m->target, tail);
    if (m->target[0]) {
        snprintf(cand[k++], sizeof(cand[0]), "%s %s%s%s", be, m->target,
                 tail == m->target ? "" : " ", tail == m->target ? "" : tail);
        if (tail != m->target)
            snprintf(cand[k++], sizeof(cand[0]), "%s %s", m->target, tail);
    }
    if (host[0] && room >= 3)
        snprintf(cand[k++], sizeof(cand[0]), "%.*s %s", room, host, tail);
    snprintf(cand[k++], sizeof(cand[0]), "%s", tail);
    first_fit(buf, n, width, cand, k, utf8);
}

/* Why the source is down; for a recorded column the cause alone when the
 * error names its archive first (the row below names the archive). */
static const char *down_reason(const struct source_model *m)
{
    size_t len = strlen(m->target);
    const char *cause = len ? strstr(m->error, ": ") : NULL;
    if (m->replay.on && cause && strncmp(m->error, m->target, len) == 0)
        return cause + 2;
    return m->error;
}

bool view_is_baseline(const struct source_model *m)
{
    return m->backend && strcmp(m->backend, "baseline") == 0;
}

void view_source_header(const struct source_model *m, int row, double now,
                        double interval, int width, char *buf, size_t n,
                        bool utf8)
{
    char text[HEADER_MAX];
    if (m->replay.on && (row == 3 || (row == 1 && m->state == SRC_LIVE))) {
        const char *dir = strrchr(m->target, '/'); /* a recorded column */
        if (row == 1)
            view_replay_state(m, text, sizeof(text));
        else
            snprintf(text, sizeof(text), "archive %s",
                     dir ? dir + 1 : m->target);
        fit_text(buf, n, width, text, utf8);
        return;
    }
    if (view_is_baseline(m) && (row == 1 || row == 3)) {
        const char *file = strrchr(m->target, '/');
        snprintf(text, sizeof(text), "%s",
                 row == 1 ? "saved run"
                 : file   ? file + 1
                          : m->target);
        fit_text(buf, n, width, text, utf8);
        return;
    }
    switch (row) {
    case 0:
        fit_text(buf, n, width, m->name, utf8);
        break;
    case 1:
        state_text(m, now, interval, width, buf, n, utf8);
        break;
    case 2: /* what it is; why not, while it is down */
        if (m->state == SRC_DOWN)
            fit_text(buf, n, width, down_reason(m), utf8);
        else
            info_text(m, width, buf, n, utf8);
        break;
    default:
        backend_text(m, width, buf, n, utf8);
        break;
    }
}

void view_metric_cell(const struct source_model *m, int id, char *val,
                      size_t vn, char *spark, size_t sn, int spark_w, bool utf8)
{
    const struct metric_desc *d = &metric_descs[id];
    char raw[32];
    fmt_value(raw, sizeof(raw), m->value[id], d->format);
    if (fit_cells(raw) > VIEW_FIGURE_W) /* 12345.67 load: 12.3k */
        fit_si(raw, sizeof(raw), VIEW_FIGURE_W, m->value[id], 0);
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    double top = d->format == MF_PERCENT ? 100 : 0;
    fmt_spark(spark, sn, &m->hist[id], spark_w, top, utf8);
    /* a guest that counts no system calls says why in a word: its agent
     * says, or it has none */
    const char *why = m->info.syscalls_why[0] ? m->info.syscalls_why
                                              : view_no_agent(m, !m->target[0]);
    if (id == METRIC_SYSCALLS && !isfinite(m->value[id]) && why)
        snprintf(spark, sn, "%-*.*s", spark_w, spark_w, why);
}

double view_metric_ratio(const struct source_model *guest,
                         const struct source_model *host, int id)
{
    return ratio_oriented(guest->value[id], host->value[id],
                          metric_descs[id].ratio);
}

enum view_ratio_kind view_metric_ratio_kind(const struct source_model *guest,
                                            const struct source_model *host,
                                            int id)
{
    enum ratio_orientation ro = metric_descs[id].ratio;
    double g = guest->value[id], h = host->value[id];
    if (ro == RO_NONE || (isfinite(g) && isfinite(h) && (g == 0 || h == 0)))
        return VR_NONE;
    return ratio_judged(ro) ? VR_JUDGED : VR_PLAIN;
}

enum view_mark view_ratio_mark(double r, enum view_ratio_kind kind)
{
    if (!isfinite(r))
        return VM_PLAIN;
    if (kind != VR_JUDGED) /* a rate: its row's fault says (view_time_cell) */
        return VM_PLAIN;
    return r >= VIEW_BAD_RATIO       ? VM_BAD
           : r <= 1 / VIEW_BAD_RATIO ? VM_GOOD
                                     : VM_PLAIN;
}

void view_ratio_text(double r, enum view_ratio_kind kind, char *buf, size_t n)
{
    char raw[16];
    if (kind == VR_EMPTY)
        raw[0] = '\0';
    else if (kind == VR_NONE)
        strcpy(raw, "-");
    else if (kind == VR_RATE)
        fit_rate(raw, sizeof(raw), VIEW_RATIO_W - 1, r, 0);
    else
        fit_ratio(raw, sizeof(raw), VIEW_RATIO_W - 1, r); /* n/a if none */
    fmt_right(buf, n, VIEW_RATIO_W, raw);
}

/* Seconds in one `unit` of a workload's figure, or 0 when it is not a
 * time. */
static double unit_seconds(const char *unit)
{
    static const struct {
        const char *name;
        double secs;
    } units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(unit, units[i].name) == 0)
            return units[i].secs;
    return 0;
}

/* v of a workload whose unit is `secs` seconds (0: not a time) in at most
 * width cells: a duration, or an SI figure. */
static void job_figure(char *buf, size_t n, int width, double v, double secs,
                       bool utf8)
{
    if (secs > 0)
        fit_duration(buf, n, width, v * secs, utf8 ? FIT_UTF8 : 0);
    else
        fit_si(buf, n, width, v, 0);
}

/* "1.20µs..1.31µs", "3.41M..3.62M": an interval of figures, each as the
 * cell writes a figure of that unit. */
static void interval_text(char *buf, size_t n, double lo, double hi,
                          double secs, bool utf8)
{
    char a[24], b[24];
    job_figure(a, sizeof(a), VIEW_ERR_W, lo, secs, utf8);
    job_figure(b, sizeof(b), VIEW_ERR_W, hi, secs, utf8);
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

void view_job_cell(const struct jobs *j, const struct source_model *m, int src,
                   int w, char *val, size_t vn, char *detail, size_t dn,
                   bool utf8)
{
    const struct job_cell *c = jobs_cell(j, src, w);
    const char *unit = j->wl[w]->unit;
    double secs = unit_seconds(unit);
    /* a time says its unit in the figure; anything else in the detail,
     * first, so that a narrow cell keeps it */
    const char *u = secs > 0 ? "" : unit, *sp = secs > 0 ? "" : " ";
    char raw[32] = "";
    double fig = jobs_figure(c);
    if (isfinite(fig))
        job_figure(raw, sizeof(raw), VIEW_FIGURE_W, fig, secs, utf8);
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    switch (c->state) {
    case JOB_IDLE: {
        const char *why = m ? view_no_agent(m, src == 0) : NULL;
        if (dn)
            snprintf(detail, dn, "%s", why ? why : "");
        break;
    }
    case JOB_RUNNING:
    case JOB_STOPPING:
        snprintf(detail, dn, "%s%s%s %d/%d", u, sp,
                 c->state == JOB_RUNNING ? ">" : "stop", c->repeat + 1,
                 c->repeats);
        break;
    case JOB_FAILED: /* "failed" takes the empty figure's cell */
        if (!isfinite(fig))
            fmt_right(val, vn, VIEW_VALUE_W, "failed");
        snprintf(detail, dn, "%s%s", isfinite(fig) ? "failed: " : "", c->note);
        break;
    case JOB_DONE:
    case JOB_STOPPED: {
        char marks[96], iv[56] = "";
        int used =
            flag_text(c, view_job_flags(j, src, w), marks, sizeof(marks), utf8);
        if (isfinite(c->stats.med_lo))
            interval_text(iv, sizeof(iv), c->stats.med_lo, c->stats.med_hi,
                          secs, utf8);
        else if (used > 0 && marks[used - 1] == ' ')
            marks[used - 1] = '\0'; /* nothing after the marks */
        snprintf(detail, dn, "%s%s%s%s", u, sp, marks, iv);
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

enum view_ratio_kind view_job_ratio_kind(const struct jobs *j, int guest, int w)
{
    return jobs_cell(j, guest, w)->state == JOB_IDLE &&
                   jobs_cell(j, 0, w)->state == JOB_IDLE
               ? VR_EMPTY
               : VR_JUDGED;
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

void view_column_ratio_text(const struct source_model *m, double r,
                            enum view_ratio_kind kind, char *buf, size_t n)
{
    if (!view_is_baseline(m) || !isfinite(r) || kind == VR_RATE) {
        view_ratio_text(r, kind, buf, n);
        return;
    }
    char raw[16];
    double pct = (r - 1) * 100;
    if (pct < 99999.5)
        snprintf(raw, sizeof(raw), "%+.0f%%", pct);
    else
        snprintf(raw, sizeof(raw), ">1e5%%"); /* r > 0: never below -100% */
    fmt_right(buf, n, VIEW_RATIO_W, raw);
}

const char *view_column_ratio_header(const struct source_model *m, int row,
                                     bool utf8)
{
    bool base = view_is_baseline(m);
    if (row == 0)
        return base ? utf8 ? "\u0394%" : "d%" : utf8 ? "\u00d7" : "x";
    if (row == 1)
        return base ? "+ bad" : ">1 bad";
    return "";
}

/* The legend, in UTF-8; ASCII output gets ascii_of's replacements. */
static const char *const legend[] = {
    "\u00d7  guest/host: above 1 is worse in the guest (coloured beyond 1.5 "
    "or below 1/1.5), or busier on uncoloured rows (activity)",
    "\u0394% a saved run against this host: + is worse, or busier, there",
    "n/a a figure is missing on one side; - no ratio: none by design, or a "
    "side is 0; <0.01 is below 0.01, never 0",
    "clock drift: in ppm up to \u00b11%, beyond as the clock's rate "
    "(\u00d71.0100, \u00d7415); its \u00d7 column holds that rate",
    "!  a fault: clock offset beyond 1 s, drift beyond 500 ppm, CPU "
    "billed/wall outside 0.95-1.05 (coloured on screen)",
    "\u2026  the end of a cell cut to fit its column",
};

/* text with its UTF-8 signs in ASCII: × x, Δ d, ± +-, … ~. */
static void ascii_of(const char *text, char *buf, size_t n)
{
    static const struct {
        const char *utf8, *ascii;
    } subst[] = {
        {"\u00d7", "x"}, {"\u0394", "d"}, {"\u00b1", "+-"}, {"\u2026", "~"}};
    size_t o = 0;
    while (*text && o + 3 < n) {
        size_t i = 0, k = sizeof(subst) / sizeof(subst[0]);
        while (i < k && strncmp(text, subst[i].utf8, strlen(subst[i].utf8)))
            i++;
        if (i < k) {
            o += (size_t)snprintf(buf + o, n - o, "%s", subst[i].ascii);
            text += strlen(subst[i].utf8);
        } else {
            buf[o++] = *text++;
        }
    }
    buf[o] = '\0';
}

bool view_legend(int line, bool utf8, char *buf, size_t n)
{
    if (line < 0 || line >= (int)(sizeof(legend) / sizeof(legend[0])))
        return false;
    if (utf8)
        snprintf(buf, n, "%s", legend[line]);
    else
        ascii_of(legend[line], buf, n);
    return true;
}
