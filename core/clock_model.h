/* Clock model of one source against the host: offset and drift fitted
 * robustly from fetch timestamps. Pure arithmetic: no PCP, no curses, no
 * allocation; one struct per source, not thread-safe (one sampler owns it).
 *
 * Each fetch gives a sample: the host's monotonic clock before and after
 * the request, the host's realtime at the midpoint, and the source's own
 * timestamp, which the source took somewhere inside the request. So the
 * sample's offset (source - host realtime at the midpoint) is off by at
 * most rate * rtt / 2: a hard bound the fit builds on. See clock_model.c
 * for the algorithm. */
#ifndef PARALLAX_CLOCK_MODEL_H
#define PARALLAX_CLOCK_MODEL_H

#include <stdbool.h>

#define CLOCK_WINDOW      120 /* samples kept (2 minutes at 1 Hz) */
#define CLOCK_MIN_SAMPLES 8   /* fewer valid samples: no fit */

/* The uncertainties are half-widths of the set of lines that agree with
 * every used sample's rtt bound: hard bounds, the truth is inside if the
 * source stamped inside its requests. When the bounds contradict each other
 * (a source clock that wanders) they are 2 sigma of a weighted fit. */
struct clock_fit {
    bool ok;              /* false: too few samples, no time span, unsure */
    int n_used;           /* samples the fit used */
    double offset;        /* source - host realtime, s, at the newest sample */
    double drift_ppm;     /* (d source / d host - 1) * 1e6 */
    double offset_err;    /* uncertainty of offset, s */
    double drift_err_ppm; /* uncertainty of drift_ppm */
    /* Set by the source's model (model.c), not by the fit: */
    bool coarse;   /* no robust fit yet: two fetches' line, hard bounds */
    bool unsteady; /* the rate was seen to vary: drift_ppm is the middle of
                      the rates seen, its error half their range */
};

struct clock_sample {
    double mono;   /* host monotonic midpoint, s */
    double rtt;    /* host monotonic after - before, s */
    double offset; /* source - host realtime at the midpoint, s */
};

struct clock_model {
    struct clock_sample ring[CLOCK_WINDOW];
    int head;             /* index of the oldest sample */
    int count;            /* samples in the window */
    unsigned skipped;     /* refused: not finite, after < before, backwards */
    unsigned steps;       /* window restarts after a clock step */
    double last_step;     /* size of the last step, s (+: source jumped on) */
    struct clock_fit fit; /* the fit after the last add */
};

/* Empties the model: no samples, no fit. */
void clock_model_init(struct clock_model *c);

/* Adds one fetch: host monotonic before/after (s), host realtime at the
 * midpoint (s since epoch), source timestamp (s since epoch). Refuses
 * non-finite values, after < before and a midpoint before the previous
 * one; restarts the window when the source's clock stepped; then refits
 * (the cost of a fit, see the .c). */
void clock_model_add(struct clock_model *c, double mono_before,
                     double mono_after, double host_real_mid,
                     double source_time);

/* The fit as of the last add (clock_model_add fits, as its step detector
 * needs the fit; this copies). ok=false with fewer than CLOCK_MIN_SAMPLES
 * samples since init or the last step. */
void clock_model_fit(const struct clock_model *c, struct clock_fit *out);

/* Replaces the fit until the next add: the source's model stands in a
 * coarse fit where the robust one has no answer yet, or an honest one
 * where the rate was seen to vary (time_map.h). */
void clock_model_set_fit(struct clock_model *c, const struct clock_fit *f);

/* Host seconds that a duration measured by the source's clock took, through
 * the fitted rate; NaN when the fit is not ok or the source clock may not
 * advance. A "10 s" sleep on a source running at 10/27 gives 27. */
double clock_model_host_duration(const struct clock_fit *f,
                                 double source_seconds);

#endif
