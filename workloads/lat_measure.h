/* Timing for the latency workloads that, like their lmbench programs,
 * subtract an overhead they measure themselves (ctx, prot-fault,
 * page-fault). Their figure needs that overhead, which only the child
 * knows, so they are composite workloads and time their own loops here,
 * in batches as the runner does. */
#ifndef PARALLAX_LAT_MEASURE_H
#define PARALLAX_LAT_MEASURE_H

#include <stdint.h>

#include "workloads/workload.h"

/* n operations of a loop; 0, or -1 with a reason on stderr. */
typedef int (*lat_loop_fn)(void *arg, uint64_t n);

/* Microseconds per operation of fn: the median of 11 intervals of at least
 * 10 ms, as lmbench's benchmp reports the median of its 11 tries. NaN when
 * fn failed or a stop was asked for. */
double lat_calibrate(const struct wl_ctx *ctx, lat_loop_fn fn, void *arg);

/* A loop that lmbench times to subtract from the measured one. Run after
 * each measured batch with the same n, it sees the same conditions (a
 * busy machine skews a separate calibration). us: its microseconds per
 * operation over the whole run, filled in by lat_measure. */
struct lat_ref {
    lat_loop_fn fn;
    double us;
};

/* The figure of one batch from the microseconds per operation of the
 * measured loop (us) and of each ref (ref_us[i]). */
typedef double (*lat_figure_fn)(void *arg, double us, const double *ref_us);

#define LAT_MAX_REFS 4

/* Warms fn (and the refs) up for one interval, then runs batches of fn,
 * each followed by the nrefs refs, for ctx->duration seconds or
 * ctx->count operations of fn, publishing progress. Fills res->ops, wall,
 * user and sys with what fn's batches took, refs[i].us, and res->figure:
 * the median over the batches of figure() (lmbench reports the median of
 * its tries; a difference taken batch by batch keeps both sides under
 * the same conditions). 0 when complete, 1 when a stop was asked for, -1
 * when a loop failed. */
int lat_measure(struct wl_ctx *ctx, lat_loop_fn fn, void *arg,
                struct lat_ref *refs, int nrefs, lat_figure_fn figure,
                struct wl_result *res);

/* Appends the secondary figure name=value unit to res if there is room. */
void lat_extra(struct wl_result *res, const char *name, const char *unit,
               double value);

#endif
