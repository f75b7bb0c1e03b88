/* The fleet's network thread: reads every source pmproxy knows through
 * /series (what pmlogger recorded and pmproxy put in its key-value
 * server), so a slow or paused guest costs nothing here: its logger
 * absorbs it. Once a full discovery has found the sources (their series,
 * units and labels), each interval is one or a few /series/values
 * requests for the newest value of every series, plus one step of the
 * next discovery. Every request has a timeout; the main loop is woken
 * with each answer (or failure) and never waits on the network. The
 * thread is fleet_poller.c, one poll fleet_poll.c, the discovery
 * fleet_discovery.c. */
#ifndef PARALLAX_FLEET_POLL_H
#define PARALLAX_FLEET_POLL_H

#include <stdbool.h>
#include <stdint.h>

#include "fleet/fleet_labels.h"
#include "fleet/fleet_metrics.h"
#include "fleet/series.h"

/* One source as the last poll saw it. */
struct fleet_src_raw {
    char id[SERIES_ID_LEN + 1]; /* pmproxy's source (its context's hash) */
    struct fleet_labels lab;
    /* per fleet_metrics name: the newest value's stamp (s since the
     * epoch, by the source's clock; NaN: no value) and the value in the
     * table's units; counters also whole */
    double stamp[FLEET_NAMES_MAX];
    double value[FLEET_NAMES_MAX];
    uint64_t count[FLEET_NAMES_MAX];
    char release[64];
};

enum fleet_link {
    FLEET_LINK_CONNECTING, /* no answer yet, or the first discovery is not
                              done: see note */
    FLEET_LINK_UP,         /* the last poll was answered */
    FLEET_LINK_DOWN,       /* it was not: see error */
};

struct fleet_raw {
    enum fleet_link link;
    char error[256];    /* why the last poll failed */
    char note[200];     /* how far the first discovery is (connecting), or
                           what the fleet lacks (up): "" none */
    double answered_at; /* host monotonic time of the last answer, 0 */
    double down_since;  /* ... when the link went down, 0 when up */
    double poll_ms;     /* the last poll's requests, in all */
    /* this host's realtime clock (s since the epoch) when the values'
     * requests began and when their last answer came: a record first
     * seen in this poll was written between the previous poll's begin
     * and this end */
    double read_begin, read_end;
    unsigned long polls;       /* polls answered */
    unsigned long discoveries; /* full discoveries done */
    int nsrc, cap;
    struct fleet_src_raw *src;
};

struct fleet_poll;

/* Starts reading the pmproxy at `url` every `interval` seconds (each
 * request given 0.9 of it, at least 2 s and at most 10 s); a byte on
 * wake_fd after each poll, and after each slice of the first discovery.
 * NULL when the thread cannot start. */
struct fleet_poll *fleet_poll_start(const char *url, double interval,
                                    int wake_fd);

/* The newest result not yet taken, or NULL. Valid, and left alone by the
 * thread, until the next fleet_poll_take. */
const struct fleet_raw *fleet_poll_take(struct fleet_poll *p);

/* Changes the interval; the thread polls at once. */
void fleet_poll_set_interval(struct fleet_poll *p, double interval);

/* Stops the thread (one stuck in a request is left to end by its timeout
 * and free itself) and frees p. */
void fleet_poll_stop(struct fleet_poll *p);

/* The poller's work without its thread (tests, the bench): a state
 * reading url with requests of `timeout` s, each run one poll into out.
 * Until the fleet is discovered (its first discovery's requests get 3
 * times that, at least 3 s), a run is a slice of the discovery of about
 * `timeout` s and returns true (out: FLEET_LINK_CONNECTING and how far,
 * unless it failed); then false. */
struct fleet_poll_state;
struct fleet_poll_state *fleet_poll_state_new(const char *url, double timeout);
bool fleet_poll_state_run(struct fleet_poll_state *st, struct fleet_raw *out);
/* A new timeout for st's requests (the poller's, when the interval
 * changes). */
void fleet_poll_state_set_timeout(struct fleet_poll_state *st, double timeout);
void fleet_poll_state_free(struct fleet_poll_state *st);

/* Frees out's source array. */
void fleet_raw_free(struct fleet_raw *r);

#endif
