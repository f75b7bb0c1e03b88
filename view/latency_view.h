/* The latency workloads' distributions (timer-lat, wakeup-lat) as every
 * front end shows them: for a source, its last repeat's percentiles and
 * histogram in real time (a guest's timed by its own clock, turned into
 * real time through that clock's rate, as its other figures are), ratios
 * against the host, and the histogram as lines of text. The screen, the
 * text report and --text draw from this one place. */
#ifndef PARALLAX_LATENCY_VIEW_H
#define PARALLAX_LATENCY_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "session/jobs.h"
#include "workloads/lat_hist.h"

struct lat_view {
    bool ok;              /* the source has a distribution of w */
    bool real;            /* in real time (false: by the source's clock) */
    double rate;          /* the source clock's rate it was turned by, 1 */
    double pct[LAT_NPCT]; /* us: p50, p90, p99, p99.9 */
    double max, mean;     /* us */
    struct lat_hist h;    /* in real time where `real` */
};

/* True when w is a latency workload (it keeps a histogram). */
bool latency_workload(const struct workload *w);

/* What source src shows of latency workload w; v->ok false when it has
 * not finished a repeat. */
void latency_view_of(const struct jobs *j, int src, int w, struct lat_view *v);

/* guest over host (> 1: worse in the guest); NaN when either is missing
 * or the host's is 0. */
double latency_ratio(double guest, double host);

/* A duration in us as a short text: "850ns", "12.6us", "1.41ms", "2.00s". */
void latency_us_text(char *buf, size_t len, double us);

/* The histogram rows to draw for the n distributions h[]: buckets from the
 * lowest used by any to the highest, merged evenly when more than
 * max_rows. Row r covers buckets lo[r]..hi[r]; returns the rows (0 when
 * every h is empty). */
int latency_rows(const struct lat_hist *const *h, int n, int max_rows, int *lo,
                 int *hi);

/* Samples of h in buckets lo..hi. */
uint64_t latency_count(const struct lat_hist *h, int lo, int hi);

/* A bar of `width` cells for count out of top ('#', a '+' for a part
 * under a cell; "" for none, "." for a count too small for a cell). */
void latency_bar(char *buf, size_t len, uint64_t count, uint64_t top,
                 int width);

/* Row lo..hi's range as text, "12.6-14.1us" (fits 16 bytes). */
void latency_range_text(char *buf, size_t len, int lo, int hi);

/* The distribution view's text (the screen's l key): latency workload w
 * on every source with a distribution, side by side, as at most `height`
 * lines of at most `width` columns (ASCII: '#' bars): a header of the
 * sources with p99 and max, then one line per bucket row, counts or
 * (shares) per mille of each source's samples. Returns the lines written
 * (0 when no source has finished a repeat of w). */
#define LAT_VIEW_LINE_MAX 256
#define LAT_VIEW_LINES    64
struct session;
int latency_view_text(const struct session *s, const struct jobs *j, int w,
                      bool shares, int width, int height,
                      char lines[][LAT_VIEW_LINE_MAX]);

/* The catalogue index of the next latency workload after w (dir +1) or
 * before it (-1), wrapping; the first one for w < 0; -1 when none. */
int latency_next_workload(const struct jobs *j, int w, int dir);

#endif
