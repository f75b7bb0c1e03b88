/* A latency histogram: log-spaced buckets from 1 us to 1 s, 20 to a
 * decade (each 12% wider than the last), plus one below 1 us and one from
 * 1 s up; counts exact, the maximum exact. One per run of a latency
 * workload (timer-lat, wakeup-lat): it travels in the run's result, over
 * PCP as text (lat_hist_format) and as an instance domain of buckets
 * (parallax.latency.*), and into the reports. Host and guest compute its
 * percentiles with this same code. */
#ifndef PARALLAX_LAT_HIST_H
#define PARALLAX_LAT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LAT_HIST_PER_DECADE 20
#define LAT_HIST_DECADES    6 /* 1 us .. 1 s */
/* bucket 0: below 1 us; 1..120: the log buckets; 121: 1 s and more */
#define LAT_HIST_NBUCKETS (LAT_HIST_PER_DECADE * LAT_HIST_DECADES + 2)

struct lat_hist {
    uint64_t n;    /* samples counted; 0: no histogram */
    double max_ns; /* the largest sample, exact */
    double min_ns; /* the smallest sample, exact */
    double sum_ns; /* for the mean */
    uint64_t count[LAT_HIST_NBUCKETS];
};

/* The percentiles every latency figure shows, in this order. */
#define LAT_NPCT 4
extern const double lat_pct[LAT_NPCT];           /* 50, 90, 99, 99.9 */
extern const char *const lat_pct_name[LAT_NPCT]; /* "p50", ... "p99.9" */

/* Empties h. */
void lat_hist_clear(struct lat_hist *h);

/* The bucket a latency of ns nanoseconds falls in (negative: bucket 0). */
int lat_hist_bucket(double ns);

/* Bucket i's lower and upper edge in ns; the last bucket's upper edge is
 * +inf, bucket 0's lower 0. */
double lat_hist_lo(int i);
double lat_hist_hi(int i);

/* Counts one sample of ns nanoseconds. */
void lat_hist_add(struct lat_hist *h, double ns);

/* Adds every count of src into dst. */
void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src);

/* The p-th percentile (0 < p <= 100) in ns: the nearest-rank sample's
 * bucket, placed inside it geometrically by its rank among the bucket's
 * samples, and never beyond the exact minimum and maximum. NaN when empty. */
double lat_hist_percentile(const struct lat_hist *h, double p);

/* Writes h as text, "n max min sum;i:count,i:count..." (only non-zero
 * buckets, %.17g keeps every bit): how an agent hands a histogram to the
 * host in one string. Always terminated; returns the length ("" when h is
 * empty). */
#define LAT_HIST_TEXT_MAX (96 + LAT_HIST_NBUCKETS * 28)
size_t lat_hist_format(const struct lat_hist *h, char *buf, size_t len);

/* Reads lat_hist_format's text into h. False (h empty) when it does not
 * parse, a bucket is out of range or the counts do not add up to n. */
bool lat_hist_parse(const char *text, struct lat_hist *h);

/* h with every sample divided by rate (a guest's clock ran `rate` of its
 * seconds per real second): each bucket's samples move to the bucket of
 * their geometric centre over rate, the exact figures scale exactly. */
void lat_hist_scale(const struct lat_hist *h, double rate,
                    struct lat_hist *out);

#endif
