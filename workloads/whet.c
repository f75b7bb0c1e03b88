/* Floating point in the spirit of Whetstone (Curnow and Wichmann, 1976),
 * written afresh for parallax after the structure of the self-timing
 * Longbottom version that UnixBench runs: sections for array elements, an
 * array passed to a procedure, conditional jumps, integer arithmetic,
 * trigonometric functions, procedure calls, array references and standard
 * functions, whose inner loops run 12, 14, 345, 210, 32, 899, 616 and 93
 * times a multiplier; each section is its own double loop (passes outside,
 * that inner loop inside) over variables held in locals, as there. One
 * operation is one pass with the multiplier at 10, a million Whetstone
 * instructions, so the figure is MWIPS.
 *
 * What is timed is what UnixBench's build times. Its integer section (4)
 * starts at a fixed point of its recurrence (j, k, l = 1, 2, 3 map to
 * themselves), so an optimising compiler computes it at compile time:
 * UnixBench's -O3 binary spends no time there (it reports 0.000 s for N4),
 * and its MWIPS is the passes over the time of the other seven sections.
 * Running that section for real would cost 6-7% more per pass than the
 * pass UnixBench times, so parallax leaves it out rather than let the
 * compiler delete it.
 *
 * Nothing that runs can be folded: every section starts from values loaded
 * from the state (opaque to the compiler) and stores its results back, and
 * in every iteration WH_OPAQUE hides a loop-carried value from the
 * optimiser, so no algebra (log of exp, a period of the jumps) reaches
 * across iterations. Within one iteration the compiler may simplify as it
 * does the original (-ffast-math turns sqrt(exp(a)) into exp(a / 2)). */
#include "workloads/workload.h"

#include <math.h>
#include <stdlib.h>

#define WH_MULT 10 /* inner loops run MULT x the weights: one pass = 1 MWI */

/* Afterwards the optimiser knows nothing of v's value (a double, or for
 * _INT a long); with GCC or Clang this costs no instruction. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define WH_OPAQUE(v)     __asm__("" : "+x"(v))
#define WH_OPAQUE_INT(v) __asm__("" : "+r"(v))
#elif defined(__GNUC__) && defined(__aarch64__)
#define WH_OPAQUE(v)     __asm__("" : "+w"(v))
#define WH_OPAQUE_INT(v) __asm__("" : "+r"(v))
#else
#define WH_OPAQUE(v)                                                           \
    do {                                                                       \
        volatile double wh_v_ = (v);                                           \
        (v) = wh_v_;                                                           \
    } while (0)
#define WH_OPAQUE_INT(v)                                                       \
    do {                                                                       \
        volatile long wh_v_ = (v);                                             \
        (v) = wh_v_;                                                           \
    } while (0)
#endif

/* What the sections carry from one step to the next. */
struct whet {
    double t, t1, t2;  /* 0.49999975, 0.50000025, 2.0 */
    double e1[4];      /* sections 1 and 2 */
    long j3;           /* section 3 */
    double x5, y5;     /* section 5 */
    double x6, y6, z6; /* section 6 */
    double e7[3];      /* section 7 */
    double x8;         /* section 8 */
    uint64_t pass;     /* passes done: T's phase */
};

/* Section 2's procedure: six rounds over an array parameter. */
static inline void wh_pa(double e[4], double t, double t2)
{
    for (int j = 0; j < 6; j++) {
        e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
        e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
        e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
        e[3] = (-e[0] + e[1] + e[2] + e[3]) / t2;
    }
}

/* Section 7's procedure: three array references. */
static inline void wh_po(double e[3], long j, long k, long l)
{
    e[j] = e[k];
    e[k] = e[l];
    e[l] = e[j];
}

/* Section 6's procedure: arithmetic on variables passed by reference. */
static inline void wh_p3(double *x, double *y, double *z, double t, double t1,
                         double t2)
{
    *x = *y;
    *y = *z;
    *x = t * (*x + *y);
    *y = t1 * (*x + *y);
    *z = (*x + *y) / t2;
}

/* T for the first of the next passes: T and 1 - T alternate from pass to
 * pass, against underflow, and carry on from one step to the next. */
static double wh_phase_t(const struct whet *w)
{
    return (w->pass & 1) ? 1.0 - w->t : w->t;
}

/* Sections 1 and 2: array elements, then the array as a parameter. */
static void wh_arrays(struct whet *w, long passes)
{
    const double t0 = wh_phase_t(w), t2 = w->t2;
    double e1[4] = {w->e1[0], w->e1[1], w->e1[2], w->e1[3]};
    double t = t0;
    for (long ix = 0; ix < passes; ix++) {
        for (long i = 0; i < 12 * WH_MULT; i++) {
            e1[0] = (e1[0] + e1[1] + e1[2] - e1[3]) * t;
            e1[1] = (e1[0] + e1[1] - e1[2] + e1[3]) * t;
            e1[2] = (e1[0] - e1[1] + e1[2] + e1[3]) * t;
            e1[3] = (-e1[0] + e1[1] + e1[2] + e1[3]) * t;
            WH_OPAQUE(e1[3]);
        }
        t = 1.0 - t;
    }
    t = t0;
    for (long ix = 0; ix < passes; ix++) {
        for (long i = 0; i < 14 * WH_MULT; i++) {
            wh_pa(e1, t, t2);
            WH_OPAQUE(e1[3]);
        }
        t = 1.0 - t;
    }
    for (int i = 0; i < 4; i++)
        w->e1[i] = e1[i];
}

/* Section 3: conditional jumps. (Section 4, integer arithmetic, is not
 * run: see the top of the file.) */
static void wh_jumps(struct whet *w, long passes)
{
    long j = w->j3;
    for (long ix = 0; ix < passes; ix++)
        for (long i = 0; i < 345 * WH_MULT; i++) {
            if (j == 1)
                j = 2;
            else
                j = 3;
            if (j > 2)
                j = 0;
            else
                j = 1;
            if (j < 1)
                j = 1;
            else
                j = 0;
            WH_OPAQUE_INT(j);
        }
    w->j3 = j;
}

/* Section 5: trigonometric functions. */
static void wh_trig(struct whet *w, long passes)
{
    const double t2 = w->t2;
    double x = w->x5, y = w->y5, t = wh_phase_t(w);
    for (long ix = 0; ix < passes; ix++) {
        for (long i = 1; i < 32 * WH_MULT; i++) {
            x = t *
                atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
            y = t *
                atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
            WH_OPAQUE(y);
        }
        t = 1.0 - t;
    }
    w->x5 = x, w->y5 = y;
}

/* Sections 6, 7 and 8: procedure calls, array references, standard
 * functions. */
static void wh_calls(struct whet *w, long passes)
{
    const double t = w->t, t1 = w->t1, t2 = w->t2;
    double x = w->x6, y = w->y6, z = w->z6;
    for (long ix = 0; ix < passes; ix++)
        for (long i = 0; i < 899 * WH_MULT; i++) {
            wh_p3(&x, &y, &z, t, t1, t2);
            WH_OPAQUE(z);
        }
    w->x6 = x, w->y6 = y, w->z6 = z;

    double e1[3] = {w->e7[0], w->e7[1], w->e7[2]};
    for (long ix = 0; ix < passes; ix++)
        for (long i = 0; i < 616 * WH_MULT; i++) {
            wh_po(e1, 0, 1, 2);
            WH_OPAQUE(e1[2]);
        }
    for (int i = 0; i < 3; i++)
        w->e7[i] = e1[i];

    x = w->x8;
    for (long ix = 0; ix < passes; ix++)
        for (long i = 0; i < 93 * WH_MULT; i++) {
            x = sqrt(exp(log(x) / t1));
            WH_OPAQUE(x);
        }
    w->x8 = x;
}

static int whet_setup(struct wl_ctx *ctx)
{
    struct whet *w = calloc(1, sizeof(*w));
    if (!w)
        return -1;
    w->t = 0.49999975, w->t1 = 0.50000025, w->t2 = 2.0;
    w->e1[0] = 1.0, w->e1[1] = w->e1[2] = w->e1[3] = -1.0;
    w->j3 = 1;
    w->x5 = w->y5 = 0.5;
    w->x6 = w->y6 = w->z6 = 1.0;
    w->e7[0] = 1.0, w->e7[1] = 2.0, w->e7[2] = 3.0;
    w->x8 = 0.75;
    ctx->state = w;
    return 0;
}

/* n passes, each section in turn, as the original runs its passes. */
static int whet_step(struct wl_ctx *ctx, uint64_t n)
{
    struct whet *w = ctx->state;
    long passes = (long)n;
    wh_arrays(w, passes);
    wh_jumps(w, passes);
    wh_trig(w, passes);
    wh_calls(w, passes);
    w->pass += n;
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
