/* See view_jobs.h. */
#include "view/view_jobs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/ratio.h"
#include "session/jobs.h"
#include "view/fit.h"
#include "view/fmt.h"
#include "workloads/stats.h"

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
