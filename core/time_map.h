/* A source's clock mapped onto the host's, piece by piece, from its fetch
 * stamps: each fetch says the source's clock read `source` somewhere
 * between the host's monotonic `before` and `after`. A stamp the source
 * took between two fetches happened, in host time, between the first's
 * before and the second's after (a hard bracket, whatever its clock did
 * meanwhile), and where that clock kept a steady rate between them, at the
 * point a straight line through the two puts it. Unlike the clock fit
 * (clock_model.h), which wants one rate over two minutes, this follows a
 * clock whose rate changes (an icount guest: 400x idle, 5x busy), and
 * says from the rates it saw whether it does. Pure arithmetic, no
 * allocation; one per source. */
#ifndef PARALLAX_TIME_MAP_H
#define PARALLAX_TIME_MAP_H

#include <stdbool.h>

#define TIME_MAP_MAX     1024  /* fetches kept: 17 min at 1 Hz, 20 s of ticks */
#define TIME_MAP_RECENT  10.0  /* s of host time the recent rate covers */
#define TIME_MAP_SEGMENT 2.0   /* s: the shortest span a seen rate covers */
#define TIME_MAP_RANGE   120.0 /* s: the rates seen over this long */
/* rates this far apart (relative) beyond their errors: the rate varies */
#define TIME_MAP_TOL 1e-3
/* s: a steady clock's stamp is placed between the quickest fetches this
 * near on either side */
#define TIME_MAP_ANCHOR 10.0

struct time_point {
    double before, after; /* host CLOCK_MONOTONIC around the fetch, s */
    double source;        /* the source's stamp of it, s since the epoch */
};

struct time_map {
    struct time_point ring[TIME_MAP_MAX];
    int head, count;  /* oldest, and how many */
    unsigned skipped; /* refused: not finite, or going backwards */
};

/* A source stamp on the host's monotonic clock. */
struct time_at {
    double host;   /* the estimate: a straight line between the fetches */
    double lo, hi; /* hard bounds: the fetches around it */
    double err;    /* the estimate's uncertainty: the fetches' round trips
                      for a steady clock, up to the bounds otherwise */
};

enum time_map_rc {
    TM_OK,
    TM_PENDING, /* newer than the newest fetch: wait for the next */
    TM_LOST,    /* older than the oldest fetch kept, or no fetch yet */
};

/* A rate: source seconds per host second, with its uncertainty. */
struct time_rate {
    bool ok;
    double rate, err;
    double span; /* host seconds it covers */
};

/* What the map says of the source's rate. */
struct time_rates {
    struct time_rate recent; /* over the last TIME_MAP_RECENT s */
    struct time_rate all;    /* from the oldest fetch kept to the newest */
    double lo, hi;           /* the lowest and highest rate of the spans of
                                at least TIME_MAP_SEGMENT s over the last
                                TIME_MAP_RANGE s; NaN without two fetches */
    int nspans;              /* how many such spans */
    bool unsteady;           /* two of them differ by more than their
                                errors and TIME_MAP_TOL */
};

/* Empties the map. */
void time_map_init(struct time_map *m);

/* Adds a fetch; refuses non-finite values, after < before, and a fetch
 * whose midpoint or stamp goes back (a stepped clock starts afresh). */
void time_map_add(struct time_map *m, double before, double after,
                  double source);

/* Maps source stamp `source` onto the host's monotonic clock; `steady`
 * says whether the clock's rate may be taken as constant (time_rates.
 * unsteady false): then the stamp is placed between the quickest fetches
 * within TIME_MAP_ANCHOR s on either side (a slow fetch next to it does
 * not blur it) and err narrows to their round trips; else between the
 * two fetches around it, err up to them. */
enum time_map_rc time_map_host(const struct time_map *m, double source,
                               bool steady, struct time_at *at);

/* The rates the map has seen. */
void time_map_rates(const struct time_map *m, struct time_rates *r);

/* The source's seconds that `real` host seconds take on a clock r
 * describes: real times its recent rate where that rate is known and
 * steady (within TIME_MAP_TOL of 1 is real time: the noise of a few
 * fetches changes nothing), else `real` itself (*scaled false). A guest
 * run asked for so many of its own seconds lasts as long in real time as
 * the host's. */
double time_rates_source_seconds(const struct time_rates *r, double real,
                                 bool *scaled);

#endif
