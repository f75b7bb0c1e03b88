/* Floating point in the spirit of Whetstone (Curnow and Wichmann, 1976),
 * written afresh for parallax after the eight-module layout of the
 * Longbottom version UnixBench runs: array elements, an array passed to a
 * procedure, conditional jumps, integer arithmetic, trigonometric
 * functions, procedure calls, array references and standard functions,
 * weighted 12, 14, 345, 210, 32, 899, 616 and 93 per pass. One operation
 * is one pass with I = 10, a million Whetstone instructions, so the
 * figure is MWIPS. Every result lands in the state and a volatile sink,
 * and the loop bounds come from the state, so nothing can be folded. */
#include "workloads/workload.h"

#include <math.h>
#include <stdlib.h>

#define WH_I 10 /* the classic loop multiplier: one pass = 1 MWI */

struct whet {
    double t0, t1, t2; /* 0.49999975, 0.50000025, 2.0 */
    double e[4];       /* modules 1 and 2, carried between passes */
    double x, y, z;    /* module 6, carried between passes */
    double acc;        /* every other module's result ends up here */
    long jump;         /* module 3's state */
    long n[9];         /* loop counts of modules 1..8 */
    uint64_t pass;
};

static void wh_array_proc(double *e, double t, double t2)
{
    for (int i = 0; i < 6; i++) {
        e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
        e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
        e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
        e[3] = (-e[0] + e[1] + e[2] + e[3]) / t2;
    }
}

static void wh_call_proc(struct whet *w, double t)
{
    w->x = w->y;
    w->y = w->z;
    w->x = t * (w->x + w->y);
    w->y = w->t1 * (w->x + w->y);
    w->z = (w->x + w->y) / w->t2;
}

static void wh_ref_proc(double *e, long j, long k, long l)
{
    e[j] = e[k];
    e[k] = e[l];
    e[l] = e[j];
}

/* Modules 1 and 2: element and array-parameter arithmetic. */
static void wh_arrays(struct whet *w, double t)
{
    double *e = w->e;
    for (long i = 0; i < w->n[1]; i++) {
        e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
        e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
        e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
        e[3] = (-e[0] + e[1] + e[2] + e[3]) * t;
    }
    for (long i = 0; i < w->n[2]; i++)
        wh_array_proc(e, t, w->t2);
}

/* Modules 3 and 4: jumps and integer arithmetic. */
static void wh_integers(struct whet *w)
{
    long j = w->jump;
    for (long i = 0; i < w->n[3]; i++) {
        j = j == 1 ? 2 : 3;
        j = j > 2 ? 0 : 1;
        j = j < 1 ? 1 : 0;
    }
    w->jump = j;

    double e[4] = {0};
    long k = 2, l = 3;
    j = 1;
    for (long i = 0; i < w->n[4]; i++) {
        j = j * (k - j) * (l - k);
        k = l * k - (l - j) * k;
        l = (l - k) * (k + j);
        e[(l - 2) & 3] = (double)(j + k + l);
        e[(k - 2) & 3] = (double)(j * k * l);
    }
    w->acc += e[0] + e[1];
}

/* Module 5: trigonometric functions. */
static void wh_trig(struct whet *w, double t)
{
    double x = 0.5, y = 0.5;
    for (long i = 1; i < w->n[5]; i++) {
        x = t * atan(w->t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1));
        y = t * atan(w->t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1));
    }
    w->acc += y;
}

/* Modules 6, 7, 8: procedure calls, array references, sqrt/exp/log. */
static void wh_calls(struct whet *w)
{
    for (long i = 0; i < w->n[6]; i++)
        wh_call_proc(w, w->t0);
    double r[3] = {1.0, 2.0, 3.0};
    for (long i = 0; i < w->n[7]; i++)
        wh_ref_proc(r, 0, 1, 2);
    double x = 0.75;
    for (long i = 0; i < w->n[8]; i++)
        x = sqrt(exp(log(x) / w->t1));
    w->acc += r[2] + x;
}

static int whet_setup(struct wl_ctx *ctx)
{
    static const long weight[9] = {0, 12, 14, 345, 210, 32, 899, 616, 93};
    struct whet *w = calloc(1, sizeof(*w));
    if (!w)
        return -1;
    w->t0 = 0.49999975, w->t1 = 0.50000025, w->t2 = 2.0;
    w->e[0] = 1.0, w->e[1] = w->e[2] = w->e[3] = -1.0;
    w->x = w->y = w->z = 1.0;
    w->jump = 1;
    for (int m = 1; m <= 8; m++)
        w->n[m] = weight[m] * WH_I;
    ctx->state = w;
    return 0;
}

static volatile double whet_sink;

static int whet_step(struct wl_ctx *ctx, uint64_t n)
{
    struct whet *w = ctx->state;
    for (uint64_t i = 0; i < n; i++, w->pass++) {
        /* alternate t and 1 - t, as the original does, against underflow */
        double t = (w->pass & 1) ? 1.0 - w->t0 : w->t0;
        wh_arrays(w, t);
        wh_integers(w);
        wh_trig(w, t);
        wh_calls(w);
    }
    whet_sink = w->e[0] + w->e[3] + w->z + w->acc + (double)w->jump;
    return 0;
}

static void whet_teardown(struct wl_ctx *ctx)
{
    free(ctx->state);
    ctx->state = NULL;
}

const struct workload wl_whet = {
    .name = "whet",
    .desc = "floating point in the spirit of Whetstone (UnixBench "
            "whetstone-double)",
    .unit = "MWIPS",
    .better = WL_HIGHER_IS_BETTER,
    .setup = whet_setup,
    .step = whet_step,
    .teardown = whet_teardown,
    .figure_kind = WF_OPS_PER_SEC,
    .scale = 1,
};
