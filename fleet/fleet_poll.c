/* See fleet_poll.h: one poll, without its thread (fleet_poller.c). The
 * first discovery (fleet_discovery.c) runs in slices of a request
 * timeout, each reported (how far it is), so a slow pmproxy holds no
 * front end without a word; later ones run a step per poll into a second
 * table that replaces the first once complete, so sources that come and
 * go are found without a poll ever taking much longer than its values. A
 * failed poll says which part failed: pmproxy, its key-value server
 * (pmproxy answers /series/ping, which needs no key-value server, but not
 * the series request) or the sources. */
#include "fleet/fleet_poll.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/grow.h"
#include "base/safe_text.h"
#include "fleet/fleet_discovery.h"
#include "fleet/idmap.h"

#define REDISCOVER 10 /* polls between the starts of discoveries */
#define INFO_EVERY 60 /* polls between reads of what sources are */
#define PING_TIMEOUT                                                           \
    1.0 /* s for /series/ping, asked when a series request went unanswered */

struct fleet_poll_state {
    struct http *http;
    double timeout;
    struct discovery disc[2]; /* in use, and the one being made */
    int cur;
    unsigned long polls;   /* since the last discovery began */
    struct fleet_raw *out; /* the poll being filled (callbacks) */
    char err[256];
    char note[200];    /* fleet_raw's note */
    double disc_began; /* host monotonic time the first discovery began */
    bool had_sources;  /* a discovery found some, once */
    bool up;
    double down_since;
    unsigned long answered, discoveries;
};

/* The first discovery, a slice of about a request timeout at a time (the
 * steps done are kept for the next slice, also when one fails). 0 once
 * complete, 1 when not yet (st->note says how far), -1 with st->err. */
static int first_discovery(struct fleet_poll_state *st, struct discovery *d)
{
    double now = clock_mono(), until = now + st->timeout;
    if (!st->disc_began) {
        disc_reset(d);
        st->disc_began = now;
    }
    /* a discovery waits for pmproxy longer than a poll of values */
    http_set_timeout(st->http, fmax(3 * st->timeout, 3.0));
    int rc = 0;
    while (rc == 0 && !d->complete && clock_mono() < until)
        rc = disc_step(d, st->http, st->err, sizeof(st->err));
    http_set_timeout(st->http, st->timeout);
    if (rc < 0)
        return -1;
    if (!d->complete) {
        int done, n = disc_steps(d, &done);
        snprintf(st->note, sizeof(st->note),
                 "discovering the fleet: %d of %d steps in %.0f s (pmproxy "
                 "answers slowly)",
                 done, n, clock_mono() - st->disc_began);
        return 1;
    }
    st->disc_began = 0;
    st->discoveries++;
    st->polls = 0;
    return 0;
}

static bool raw_reserve(struct fleet_raw *r, int n)
{
    void *p = grow(r->src, &r->cap, n, sizeof(r->src[0]), n);
    if (p)
        r->src = p;
    return p != NULL;
}

/* /series/values: one newest value into out. */
static void on_value(void *arg, const char *series, const char *instance,
                     double stamp, const char *value)
{
    struct fleet_poll_state *st = arg;
    struct discovery *d = &st->disc[st->cur];
    int code = idmap_get(&d->by_series, series_key(series));
    if (code < 0)
        return;
    int i = code / FLEET_NAMES_MAX, k = code % FLEET_NAMES_MAX;
    struct disc_src *ds = &d->src[i];
    ds->valued = true;
    if (ds->inst[k] && (!instance || series_key(instance) != ds->inst[k]))
        return;
    struct fleet_src_raw *r = &st->out->src[i];
    if (fleet_metrics()->names[k].text) {
        char text[64];
        size_t len = strlen(value);
        if (len >= 2 && value[0] == '"' && value[len - 1] == '"')
            snprintf(text, sizeof(text), "%.*s", (int)(len - 2), value + 1);
        else
            snprintf(text, sizeof(text), "%s", value);
        safe_text_copy(r->release, sizeof(r->release), text, 0);
        r->stamp[k] = stamp;
        return;
    }
    char *end;
    errno = 0;
    unsigned long long whole = strtoull(value, &end, 10);
    bool integral = *end == '\0' && errno == 0 && value[0] != '-';
    double v = integral ? (double)whole : strtod(value, &end);
    if (*end != '\0' || !isfinite(v))
        return;
    r->stamp[k] = stamp;
    r->value[k] = v * ds->scale[k];
    r->count[k] = integral && ds->scale[k] == 1 ? (uint64_t)whole
                                                : (uint64_t)(v * ds->scale[k]);
}

/* Reads the newest values of discovery cur into out. */
static int read_values(struct fleet_poll_state *st, struct fleet_raw *out)
{
    struct discovery *d = &st->disc[st->cur];
    if (!raw_reserve(out, d->n)) {
        snprintf(st->err, sizeof(st->err), "out of memory");
        return -1;
    }
    out->nsrc = d->n;
    for (int i = 0; i < d->n; i++) {
        struct fleet_src_raw *r = &out->src[i];
        d->src[i].valued = false;
        memset(r, 0, sizeof(*r));
        snprintf(r->id, sizeof(r->id), "%s", d->src[i].id);
        r->lab = d->src[i].lab;
        for (int k = 0; k < FLEET_NAMES_MAX; k++)
            r->stamp[k] = r->value[k] = NAN;
    }
    st->out = out;
    out->read_begin = clock_real();
    int rc = series_values(st->http, &d->all, on_value, st, st->err,
                           sizeof(st->err));
    /* what the sources are: after each discovery, then every INFO_EVERY */
    if (rc == 0 && st->polls % INFO_EVERY == 1)
        rc = series_values(st->http, &d->info, on_value, st, st->err,
                           sizeof(st->err));
    out->read_end = clock_real();
    return rc;
}

struct fleet_poll_state *fleet_poll_state_new(const char *url, double timeout)
{
    struct fleet_poll_state *st = calloc(1, sizeof(*st));
    if (!st)
        return NULL;
    st->http = http_new(url, timeout);
    if (!st->http) {
        free(st);
        return NULL;
    }
    st->timeout = timeout;
    return st;
}

void fleet_poll_state_free(struct fleet_poll_state *st)
{
    if (!st)
        return;
    http_free(st->http);
    disc_free(&st->disc[0]);
    disc_free(&st->disc[1]);
    free(st);
}

/* The poll proper: 0, 1 while the first discovery is not done, or -1
 * with st->err. */
static int poll_once(struct fleet_poll_state *st, struct fleet_raw *out)
{
    struct discovery *cur = &st->disc[st->cur], *next = &st->disc[!st->cur];
    if (!cur->complete) { /* the first discovery, before any value */
        int rc = first_discovery(st, cur);
        if (rc != 0)
            return rc;
        st->note[0] = '\0';
    } else if (next->complete || (next->step == 0 && st->polls >= REDISCOVER)) {
        if (next->complete) { /* the new table takes over */
            int kept = disc_keep_recorded(cur, next);
            if (kept)
                snprintf(st->note, sizeof(st->note),
                         "pmproxy's key-value server no longer lists %d of "
                         "the sources shown (it restarted empty?): restart "
                         "pmproxy to have them listed (docs/fleet.md)",
                         kept);
            else
                st->note[0] = '\0';
            st->cur = !st->cur;
            st->discoveries++;
            st->polls = 0;
            cur = next;
            next = &st->disc[!st->cur];
            disc_reset(next);
        } else if (disc_step(next, st->http, st->err, sizeof(st->err)) < 0) {
            disc_reset(next); /* begin again later */
            return -1;
        }
    } else if (next->step > 0 &&
               disc_step(next, st->http, st->err, sizeof(st->err)) < 0) {
        disc_reset(next);
        return -1;
    }
    st->polls++;
    if (cur->n == 0) {
        if (st->had_sources) /* and none of them is recorded now */
            snprintf(st->err, sizeof(st->err),
                     "pmproxy's key-value server has lost the fleet (it "
                     "restarted empty?): pmproxy lists it again once "
                     "restarted (docs/fleet.md)");
        else
            snprintf(st->err, sizeof(st->err),
                     "pmproxy knows no sources: no pmlogger archives under "
                     "its PCP_ARCHIVE_DIR (are the fleet's loggers running?)");
        cur->complete = false; /* look again next time */
        return -1;
    }
    st->had_sources = true;
    return read_values(st, out);
}

/* A request that failed in HTTP (no answer, no connection...): which part
 * failed, into st->err. A series request waits on pmproxy's key-value
 * server; /series/ping is pmproxy's own (pmproxy 6.0.3 answers it
 * without one), so an answered ping while the request was not puts the
 * key-value server at fault. */
static void blame(struct fleet_poll_state *st)
{
    char said[sizeof(st->err)];
    snprintf(said, sizeof(said), "%s", st->err);
    enum http_fail fail = http_last_fail(st->http);
    if (fail == HTTP_TIMEOUT) {
        const char *body;
        char err[160];
        double t = http_timeout(st->http);
        http_set_timeout(st->http, fmin(t, PING_TIMEOUT));
        int status = http_request(st->http, "/series/ping", NULL, &body, err,
                                  sizeof(err));
        http_set_timeout(st->http, t);
        if (status == 200) {
            snprintf(st->err, sizeof(st->err),
                     "pmproxy's key-value server does not answer: pmproxy "
                     "answers /series/ping but not a series request: %.110s; "
                     "see pmproxy's log",
                     said);
            return;
        }
    }
    snprintf(st->err, sizeof(st->err), "pmproxy %s%.160s",
             fail == HTTP_TIMEOUT || fail == HTTP_NO_CONNECTION
                 ? "does not answer: "
             : fail == HTTP_TOO_LONG ? "sent "
                                     : "failed: ",
             said);
}

bool fleet_poll_state_run(struct fleet_poll_state *st, struct fleet_raw *out)
{
    double t0 = clock_mono();
    st->err[0] = '\0';
    int rc = poll_once(st, out);
    if (rc < 0 && http_last_fail(st->http) != HTTP_OK)
        blame(st);
    double t1 = clock_mono();
    if (rc == 0) {
        st->up = true;
        st->down_since = 0;
        st->answered++;
        out->answered_at = t1;
        out->error[0] = '\0';
    } else if (rc < 0) {
        if (st->up || !st->down_since)
            st->down_since = t1;
        st->up = false;
        /* a failed poll shows no values, however old: the view must not
         * present them as current */
        out->nsrc = 0;
        /* the one door of the poller's reasons to a screen or a report:
         * they quote pmproxy and jansson (issue 24) */
        safe_text_copy(out->error, sizeof(out->error), st->err, 0);
        DIAG(DIAG_DEBUG, "fleet: poll failed: %s", out->error);
    } else { /* still discovering: nothing to show, not a failure */
        out->nsrc = 0;
        out->error[0] = '\0';
    }
    safe_text_copy(out->note, sizeof(out->note), st->note, 0);
    out->link = rc == 0  ? FLEET_LINK_UP
                : rc > 0 ? FLEET_LINK_CONNECTING
                         : FLEET_LINK_DOWN;
    out->down_since = st->down_since;
    out->poll_ms = (t1 - t0) * 1e3;
    out->polls = st->answered;
    out->discoveries = st->discoveries;
    return rc > 0;
}

void fleet_raw_free(struct fleet_raw *r)
{
    free(r->src);
    r->src = NULL;
    r->nsrc = r->cap = 0;
}

void fleet_poll_state_set_timeout(struct fleet_poll_state *st, double timeout)
{
    st->timeout = timeout;
    http_set_timeout(st->http, timeout);
}
