/* How fast a fleet source's clock runs, from the stamps its pmlogger
 * recorded. A logger fetches on a timer of its own machine's clock, one
 * tick every logging interval; the source stamps each answer with its own
 * clock. So the stamps' advance per tick is the source's clock rate times
 * the interval: a guest's rate over its host's (logged by the same farm)
 * is its drift against the host, good to the logger's timer jitter (tens
 * of microseconds here) over the window, without any round trip. Missing
 * ticks (a paused pmcd, a slow fetch) are counted from the spacing; a
 * stamp that fits no whole number of ticks (a clock step) starts the
 * window afresh. Pure arithmetic. */
#ifndef PARALLAX_FLEET_CLOCK_H
#define PARALLAX_FLEET_CLOCK_H

#define FLEET_TICKS     120 /* stamps kept: 2 minutes at 1 s */
#define FLEET_TICKS_MIN 12  /* fewer usable stamps: no rate */

struct fleet_ticks {
    double stamp[FLEET_TICKS]; /* s since the epoch, by the source */
    int head;                  /* the next write */
    int count;
};

/* Empties t. */
void fleet_ticks_init(struct fleet_ticks *t);

/* Adds a newly recorded stamp; one not newer than the last is ignored
 * (the same record seen again). */
void fleet_ticks_add(struct fleet_ticks *t, double stamp);

/* The newest stamp, NaN when none. */
double fleet_ticks_last(const struct fleet_ticks *t);

/* Source seconds per logger tick over the window since the last step:
 * the line under the stamps against their tick numbers (a stamp is late
 * by its fetch's way to the source, never early), through the fastest
 * stamps of the oldest and newest thirds; NaN with fewer than
 * FLEET_TICKS_MIN usable stamps. */
double fleet_ticks_rate(const struct fleet_ticks *t);

#endif
