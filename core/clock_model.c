/* Clock model: offset and drift of a source's clock against the host.
 *
 * Every sample i has x = host monotonic midpoint, y = source - host
 * realtime at the midpoint, and rtt. The source stamped its reply somewhere
 * inside the request, so |y - line(x)| <= rate * rtt / 2 (+ the stamp's
 * resolution): the error of each sample is bounded, and the bound is known.
 * The fit builds on that:
 *
 * 1. Keep the lowest-rtt half of the window (at least CLOCK_MIN_SAMPLES):
 *    slow fetches carry little information and most of the risk.
 * 2. Coarse robust line: Siegel's repeated median over the COARSE_MAX
 *    fastest of those. Unweighted, so no single sample steers it, and it
 *    stands until half of them lie (Theil-Sen gives way at ~29%, which a
 *    step during the first fetches reaches).
 * 3. Gate: drop samples further from that line than their bound plus
 *    GATE_K robust residual spreads (stamps that cannot be right: a step,
 *    a lie).
 * 4. The answer: the set of lines that pass within every remaining
 *    sample's bound (a convex polygon; its projections are computed
 *    exactly from pairs). Drift and offset are the middles of its slope
 *    range and of its range at the newest sample; their uncertainties are
 *    the half-widths. These are hard bounds, not standard deviations: if
 *    every stamp was taken inside its request, the truth is inside. The
 *    fastest fetches decide, so jitter and slow fetches cannot move it;
 *    on synthetic series its rms drift error is 1.3-1.4x smaller than
 *    weighted least squares' on the same samples.
 * 5. If the bounds contradict each other (the source clock wanders, a
 *    small lie got through), fall back on weighted least squares, weight
 *    1/sigma^2 with sigma = rate*rtt/sqrt(12) (a stamp uniform in the
 *    request), covariance inflated by chi^2/dof when above 1, reported at
 *    2 sigma. Not in a short window (under 2 CLOCK_MIN_SAMPLES used):
 *    there a contradiction is more likely a step that step 2 cannot
 *    outvote yet, so there is no answer until it can.
 *
 * Limits: a path that is always asymmetric (replies always stamped early)
 * biases the offset by up to the smallest rtt/2, which no fit from one side
 * can see. A stamp that lies by less than the gate while claiming a tiny
 * rtt pulls the answer by up to its lie; honest sources don't produce
 * those, and steps, which are real, are handled below.
 *
 * Steps: after each fit, when the newest STEP_CONFIRM kept samples all sit
 * beyond their bound + STEP_K uncertainties + STEP_FLOOR on the same side,
 * the source's clock (or the host's realtime) jumped: the window restarts
 * at the first of them. One lying sample never restarts the window; slow
 * fetches never count as evidence. Until then (about 5 fetches at 1 Hz when
 * half of them are slow) the fit still shows the old clock.
 *
 * Cost: O(k^2) for the polygon (k <= CLOCK_WINDOW/2: 1770 pairs) and for
 * the repeated median (COARSE_MAX^2), O(n) for the rest; no allocation,
 * ~5 KB of stack. Measured ~20 us per add with a full window
 * (test_clock_model's test_cost).
 */
#include "core/clock_model.h"

#include <math.h>
#include <string.h>

#define KEEP_MAX                                                               \
    (CLOCK_WINDOW / 2 > CLOCK_MIN_SAMPLES ? CLOCK_WINDOW / 2                   \
                                          : CLOCK_MIN_SAMPLES)
#define COARSE_MAX   24     /* fastest kept samples in the coarse fit */
#define STAMP_RES    1e-6   /* PCP timestamps are microseconds */
#define GATE_K       3.0    /* spreads beyond the bound that reject a sample */
#define STEP_K       5.0    /* uncertainties beyond the bound: a step */
#define STEP_FLOOR   1e-3   /* s: smaller jumps are absorbed, not restarts */
#define STEP_CONFIRM 3      /* newest kept samples that must agree */
#define MAD_SIGMA    1.4826 /* MAD to sigma for a normal distribution */

struct fit_work {
    int n;                  /* kept samples */
    double x[KEEP_MAX];     /* host monotonic, s, relative to the newest */
    double y[KEEP_MAX];     /* offset, s */
    double rtt[KEEP_MAX];   /* s */
    int pos[KEEP_MAX];      /* position in the window, 0 = oldest */
    double sigma[KEEP_MAX]; /* standard deviation of y, s */
    bool use[KEEP_MAX];     /* survived the gate */
    double rate;            /* d source / d host from the coarse fit */
};

/* The answer: y = a + b x (x = 0 at the newest sample) with half-widths
 * (or 2 sigma) of uncertainty. */
struct est {
    double a, b, a_err, b_err;
};

static void swap_d(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

/* k-th smallest (0-based) of v[0..n-1]; reorders v. Hoare quickselect. */
static double select_k(double *v, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        /* median of three as pivot: sorted input stays O(n) */
        if (v[mid] < v[lo])
            swap_d(&v[mid], &v[lo]);
        if (v[hi] < v[lo])
            swap_d(&v[hi], &v[lo]);
        if (v[hi] < v[mid])
            swap_d(&v[hi], &v[mid]);
        double p = v[mid];
        int i = lo, j = hi;
        while (i <= j) {
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i <= j) {
                swap_d(&v[i], &v[j]);
                i++;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

/* Median of v[0..n-1], n >= 1; reorders v. */
static double median(double *v, int n)
{
    double hi = select_k(v, n, n / 2);
    if (n % 2)
        return hi;
    double lo = v[0]; /* after selection v[0..n/2-1] are all <= hi */
    for (int i = 1; i < n / 2; i++)
        if (v[i] > lo)
            lo = v[i];
    return 0.5 * (lo + hi);
}

static const struct clock_sample *at(const struct clock_model *c, int pos)
{
    return &c->ring[(c->head + pos) % CLOCK_WINDOW];
}

/* Indices (ascending) of the k smallest of rtt[0..n-1]; on ties the
 * later (newer) ones. Returns how many: min(k, n). */
static int fastest(const double *rtt, int n, int k, int *idx)
{
    double cut = INFINITY;
    if (k < n) {
        double tmp[CLOCK_WINDOW];
        memcpy(tmp, rtt, n * sizeof *tmp);
        cut = select_k(tmp, n, k - 1);
    }
    int below = 0, ties = 0;
    for (int i = 0; i < n; i++) {
        below += rtt[i] < cut;
        ties += rtt[i] == cut;
    }
    int skip = ties - (k - below), m = 0;
    for (int i = 0; i < n; i++)
        if (rtt[i] < cut || (rtt[i] == cut && skip-- <= 0))
            idx[m++] = i;
    return m;
}

/* Step 1: the lowest-rtt half of the window, in window order. */
static void keep_fastest(const struct clock_model *c, struct fit_work *w)
{
    int n = c->count;
    int k = n / 2 > CLOCK_MIN_SAMPLES ? n / 2 : CLOCK_MIN_SAMPLES;
    if (k > KEEP_MAX)
        k = KEEP_MAX;
    double rtt[CLOCK_WINDOW];
    int idx[CLOCK_WINDOW];
    for (int i = 0; i < n; i++)
        rtt[i] = at(c, i)->rtt;
    double x0 = at(c, n - 1)->mono;
    w->n = fastest(rtt, n, k, idx);
    for (int m = 0; m < w->n; m++) {
        const struct clock_sample *s = at(c, idx[m]);
        w->x[m] = s->mono - x0;
        w->y[m] = s->offset;
        w->rtt[m] = s->rtt;
        w->pos[m] = idx[m];
    }
}

/* Step 2: Siegel's repeated median over the COARSE_MAX fastest kept
 * samples: per sample the median slope to the others, then the median of
 * those. False when they all share one host time. */
static bool repeated_median(const struct fit_work *w, double *a, double *b)
{
    int idx[COARSE_MAX];
    int n = fastest(w->rtt, w->n, COARSE_MAX, idx);
    double per[COARSE_MAX], s[COARSE_MAX];
    int np = 0;
    for (int i = 0; i < n; i++) {
        int ns = 0;
        for (int j = 0; j < n; j++) {
            double dx = w->x[idx[j]] - w->x[idx[i]];
            if (dx != 0)
                s[ns++] = (w->y[idx[j]] - w->y[idx[i]]) / dx;
        }
        if (ns > 0)
            per[np++] = median(s, ns);
    }
    if (np == 0)
        return false;
    *b = median(per, np);
    for (int i = 0; i < n; i++)
        s[i] = w->y[idx[i]] - *b * w->x[idx[i]];
    *a = median(s, n);
    return true;
}

static double bound(const struct fit_work *w, int i)
{
    return w->rate * w->rtt[i] / 2 + STAMP_RES;
}

/* Step 3: drop samples that cannot lie on the coarse line; returns how
 * many are left. */
static int gate_coarse(struct fit_work *w, double a, double b)
{
    double dev[KEEP_MAX];
    for (int i = 0; i < w->n; i++)
        dev[i] = fabs(w->y[i] - a - b * w->x[i]);
    double spread = MAD_SIGMA * median(dev, w->n);
    int used = 0;
    for (int i = 0; i < w->n; i++) {
        double r = fabs(w->y[i] - a - b * w->x[i]);
        w->use[i] = r <= bound(w, i) + GATE_K * spread;
        used += w->use[i];
    }
    return used;
}

/* Step 4: the set of lines that pass within every used sample's bound.
 * Its slope range is the intersection of the pairwise ones; eliminating
 * the slope (Fourier-Motzkin) gives the range of the value at x = 0 the
 * same way: for x_i < x_j, the line through (x_i, hi_i) and (x_j, lo_j)
 * bounds the slope from below and the value at 0 (x <= 0) from below, the
 * other diagonal both from above. False when the bounds contradict. */
static bool feasible(const struct fit_work *w, struct est *e)
{
    double x[KEEP_MAX], lo[KEEP_MAX], hi[KEEP_MAX];
    int m = 0;
    for (int i = 0; i < w->n; i++)
        if (w->use[i]) {
            x[m] = w->x[i];
            lo[m] = w->y[i] - bound(w, i);
            hi[m] = w->y[i] + bound(w, i);
            m++;
        }
    double b_lo = -INFINITY, b_hi = INFINITY;
    double a_lo = -INFINITY, a_hi = INFINITY;
    for (int i = 0; i < m; i++)
        for (int j = i + 1; j < m; j++) {
            double dx = x[j] - x[i]; /* >= 0: samples are in order */
            if (dx == 0) {
                if (lo[i] > hi[j] || lo[j] > hi[i])
                    return false;
                continue;
            }
            double inv = 1 / dx;
            double s_lo = (lo[j] - hi[i]) * inv, s_hi = (hi[j] - lo[i]) * inv;
            double v_lo = hi[i] - x[i] * s_lo, v_hi = lo[i] - x[i] * s_hi;
            /* plain comparisons: fmin/fmax are calls, and nothing is NaN */
            b_lo = s_lo > b_lo ? s_lo : b_lo;
            b_hi = s_hi < b_hi ? s_hi : b_hi;
            a_lo = v_lo > a_lo ? v_lo : a_lo;
            a_hi = v_hi < a_hi ? v_hi : a_hi;
        }
    if (!(b_lo <= b_hi) || !(a_lo <= a_hi) || !isfinite(b_hi - b_lo) ||
        !isfinite(a_hi - a_lo))
        return false;
    e->b = (b_lo + b_hi) / 2;
    e->b_err = (b_hi - b_lo) / 2;
    e->a = (a_lo + a_hi) / 2;
    e->a_err = (a_hi - a_lo) / 2;
    return true;
}

/* Step 5: weighted least squares over the used samples, errors at
 * 2 sigma; false when they share one host time. */
static bool wls(const struct fit_work *w, struct est *e)
{
    double sw = 0, swx = 0, swy = 0;
    int n = 0;
    for (int i = 0; i < w->n; i++) {
        if (!w->use[i])
            continue;
        double wi = 1 / (w->sigma[i] * w->sigma[i]);
        sw += wi;
        swx += wi * w->x[i];
        swy += wi * w->y[i];
        n++;
    }
    if (n < 3)
        return false;
    double xm = swx / sw, ym = swy / sw, sxx = 0, sxy = 0;
    for (int i = 0; i < w->n; i++) {
        if (!w->use[i])
            continue;
        double wi = 1 / (w->sigma[i] * w->sigma[i]);
        double dx = w->x[i] - xm;
        sxx += wi * dx * dx;
        sxy += wi * dx * (w->y[i] - ym);
    }
    if (!(sxx > 0))
        return false;
    e->b = sxy / sxx;
    e->a = ym - e->b * xm;
    double chi2 = 0;
    for (int i = 0; i < w->n; i++) {
        if (!w->use[i])
            continue;
        double r = (w->y[i] - e->a - e->b * w->x[i]) / w->sigma[i];
        chi2 += r * r;
    }
    double scale = chi2 / (n - 2) > 1 ? chi2 / (n - 2) : 1;
    e->a_err = 2 * sqrt(scale * (1 / sw + xm * xm / sxx));
    e->b_err = 2 * sqrt(scale / sxx);
    return true;
}

static void fit_window(const struct clock_model *c, struct fit_work *w,
                       struct est *e, struct clock_fit *out)
{
    memset(out, 0, sizeof *out);
    w->n = 0;
    if (c->count < CLOCK_MIN_SAMPLES)
        return;
    keep_fastest(c, w);
    double a, b;
    if (!repeated_median(w, &a, &b))
        return;
    /* the stamp's position error in source seconds scales with the rate */
    w->rate = fabs(1 + b);
    for (int i = 0; i < w->n; i++) {
        double s = w->rate * w->rtt[i];
        w->sigma[i] = sqrt(s * s / 12 + STAMP_RES * STAMP_RES);
    }
    int used = gate_coarse(w, a, b);
    if (used < 3)
        return;
    /* contradicting bounds in a short window are more likely a step the
     * coarse fit could not outvote yet than a wandering clock: no answer */
    if (!feasible(w, e) && (used < 2 * CLOCK_MIN_SAMPLES || !wls(w, e)))
        return;
    out->ok = true;
    out->n_used = used;
    out->offset = e->a; /* x = 0 is the newest sample */
    out->drift_ppm = e->b * 1e6;
    out->offset_err = e->a_err;
    out->drift_err_ppm = e->b_err * 1e6;
}

/* Window position where a step began, or -1: the newest STEP_CONFIRM kept
 * samples (the slow ones prove nothing) all beyond the fit on one side. */
static int find_step(const struct fit_work *w, const struct est *e,
                     double *size)
{
    int first = w->n - STEP_CONFIRM;
    if (first < 2)
        return -1;
    int sign = 0;
    double sum = 0;
    for (int i = first; i < w->n; i++) {
        double r = w->y[i] - e->a - e->b * w->x[i];
        double lim = bound(w, i) +
                     STEP_K * (e->a_err + fabs(w->x[i]) * e->b_err) +
                     STEP_FLOOR;
        int s = (r > lim) - (r < -lim);
        if (s == 0 || (sign != 0 && s != sign))
            return -1;
        sign = s;
        sum += r;
    }
    *size = sum / STEP_CONFIRM;
    return w->pos[first];
}

void clock_model_init(struct clock_model *c)
{
    memset(c, 0, sizeof *c);
}

void clock_model_add(struct clock_model *c, double mono_before,
                     double mono_after, double host_real_mid,
                     double source_time)
{
    if (!isfinite(mono_before) || !isfinite(mono_after) ||
        !isfinite(host_real_mid) || !isfinite(source_time) ||
        mono_after < mono_before ||
        (c->count > 0 && mono_before + (mono_after - mono_before) / 2 <
                             at(c, c->count - 1)->mono)) {
        c->skipped++;
        return;
    }
    struct clock_sample s = {
        .mono = mono_before + (mono_after - mono_before) / 2,
        .rtt = mono_after - mono_before,
        .offset = source_time - host_real_mid,
    };
    if (c->count == CLOCK_WINDOW) {
        c->head = (c->head + 1) % CLOCK_WINDOW;
        c->count--;
    }
    c->ring[(c->head + c->count) % CLOCK_WINDOW] = s;
    c->count++;

    struct fit_work w;
    struct est e;
    fit_window(c, &w, &e, &c->fit);
    if (!c->fit.ok)
        return;
    double size = 0;
    int p = find_step(&w, &e, &size);
    if (p < 0)
        return;
    c->head = (c->head + p) % CLOCK_WINDOW;
    c->count -= p;
    c->steps++;
    c->last_step = size;
    fit_window(c, &w, &e, &c->fit);
}

void clock_model_fit(const struct clock_model *c, struct clock_fit *out)
{
    *out = c->fit;
}

void clock_model_set_fit(struct clock_model *c, const struct clock_fit *f)
{
    c->fit = *f;
}

double clock_model_host_duration(const struct clock_fit *f,
                                 double source_seconds)
{
    double rate = 1 + f->drift_ppm * 1e-6;
    /* a rate that may be 0 within the uncertainty: a source that stands */
    if (!f->ok || !(rate - f->drift_err_ppm * 1e-6 > 0) ||
        !isfinite(source_seconds))
        return NAN;
    return source_seconds / rate;
}
