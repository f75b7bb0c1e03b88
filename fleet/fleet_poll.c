/* See fleet_poll.h. A discovery finds, for every name of fleet_metrics,
 * its series (/series/query), which source each belongs to and its units
 * (/series/descs), the instance wanted (/series/instances), then each
 * source's labels (/series/labels). The first discovery runs in slices of
 * a request timeout, each reported (how far it is), so a slow pmproxy
 * holds no front end without a word; later ones run a step per poll into
 * a second table that replaces the first once complete, so sources that
 * come and go are found without a poll ever taking much longer than its
 * values. A failed poll says which part failed: pmproxy, its key-value
 * server (pmproxy answers /series/ping, which needs no key-value server,
 * but not the series request) or the sources. */
#include "fleet/fleet_poll.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/grow.h"
#include "base/safe_text.h"
#include "fleet/idmap.h"

#define STOP_WAIT_MS 200 /* how long fleet_poll_stop waits for the thread */
#define REDISCOVER   10  /* polls between the starts of discoveries */
#define INFO_EVERY   60  /* polls between reads of what sources are */
#define TIMEOUT_MIN                                                            \
    2.0                          /* s: a request's timeout, at the least (a    \
                                    thousand sources' values take 0.36 s here, \
                                    longer while pmproxy takes in a burst); a  \
                                    pmproxy that says nothing shows sooner, by \
                                    the model's age of its last answer */
#define TIMEOUT_MAX 10.0         /* ... and at the most */
#define GOLDEN      0.6180339887 /* the poll's phase moves on by this */
#define MIN_GAP     0.3          /* of an interval between two polls */
#define PING_TIMEOUT                                                           \
    1.0 /* s for /series/ping, asked when a series request went unanswered */

/* One source as a discovery found it. */
struct disc_src {
    char id[SERIES_ID_LEN + 1];
    struct fleet_labels lab;
    char series[FLEET_NAMES_MAX][SERIES_ID_LEN + 1]; /* "" none */
    uint64_t inst[FLEET_NAMES_MAX]; /* the instance wanted, 0 singular */
    double scale[FLEET_NAMES_MAX];  /* into the table's units; 0: none */
    bool valued;                    /* a value of it came in the last poll */
};

struct discovery {
    int n, cap;
    struct disc_src *src;
    struct idmap by_source; /* source key -> index */
    struct idmap by_series; /* series key -> index * FLEET_NAMES_MAX + name */
    struct series_ids all;  /* the series read every poll */
    struct series_ids info; /* what the sources are: now and then */
    int step;               /* the next step: a name, then the labels */
    bool complete;
};

struct fleet_poll_state {
    struct http *http;
    double timeout;
    struct discovery disc[2]; /* in use, and the one being made */
    int cur;
    unsigned long polls;   /* since the last discovery began */
    struct fleet_raw *out; /* the poll being filled (callbacks) */
    int name;              /* the name a discovery step is on (callbacks) */
    struct discovery *d;   /* the discovery a callback fills */
    char err[256];
    char note[200];    /* fleet_raw's note */
    double disc_began; /* host monotonic time the first discovery began */
    bool had_sources;  /* a discovery found some, once */
    bool up;
    double down_since;
    unsigned long answered, discoveries;
};

static void disc_reset(struct discovery *d)
{
    d->n = 0;
    d->step = 0;
    d->complete = false;
    d->all.n = d->info.n = 0;
    idmap_clear(&d->by_source);
    idmap_clear(&d->by_series);
}

static void disc_free(struct discovery *d)
{
    free(d->src);
    idmap_free(&d->by_source);
    idmap_free(&d->by_series);
    series_ids_free(&d->all);
    series_ids_free(&d->info);
    memset(d, 0, sizeof(*d));
}

/* The source `id` of d, added when new; NULL when out of memory. */
static struct disc_src *disc_source(struct discovery *d, const char *id)
{
    int i = idmap_get(&d->by_source, series_key(id));
    if (i >= 0)
        return &d->src[i];
    void *p = grow(d->src, &d->cap, d->n + 1, sizeof(d->src[0]), 64);
    if (!p)
        return NULL;
    d->src = p;
    struct disc_src *s = &d->src[d->n];
    memset(s, 0, sizeof(*s));
    snprintf(s->id, sizeof(s->id), "%s", id);
    if (!idmap_put(&d->by_source, series_key(id), d->n))
        return NULL;
    d->n++;
    return s;
}

/* /series/descs: which source a series of the current name belongs to. */
static void on_desc(void *arg, const char *series, const char *source,
                    const char *units)
{
    struct fleet_poll_state *st = arg;
    const struct fleet_name *fn = &fleet_metrics()->names[st->name];
    struct disc_src *s = disc_source(st->d, source);
    double scale = 1;
    if (!s || (!fn->text && !fleet_unit_scale(units, fn->unit, &scale)))
        return; /* units it cannot turn into the table's: not read */
    snprintf(s->series[st->name], sizeof(s->series[0]), "%s", series);
    s->scale[st->name] = scale;
    idmap_put(&st->d->by_series, series_key(series),
              (int)(s - st->d->src) * FLEET_NAMES_MAX + st->name);
}

/* /series/instances: the key of the instance the name wants. */
static void on_instance(void *arg, const char *series, const char *instance,
                        const char *name)
{
    struct fleet_poll_state *st = arg;
    const struct fleet_name *fn = &fleet_metrics()->names[st->name];
    int code = idmap_get(&st->d->by_series, series_key(series));
    if (code >= 0 && fn->inst && strcmp(name, fn->inst) == 0)
        st->d->src[code / FLEET_NAMES_MAX].inst[st->name] =
            series_key(instance);
}

static void on_label(void *arg, const char *series, const char *name,
                     const char *value)
{
    struct fleet_poll_state *st = arg;
    int code = idmap_get(&st->d->by_series, series_key(series));
    if (code >= 0)
        fleet_labels_set(&st->d->src[code / FLEET_NAMES_MAX].lab, name, value);
}

/* Discovery step for name k of d. */
static int step_name(struct fleet_poll_state *st, struct discovery *d, int k)
{
    const struct fleet_name *fn = &fleet_metrics()->names[k];
    struct series_ids ids = {0};
    int rc = series_query(st->http, fn->name, &ids, st->err, sizeof(st->err));
    st->name = k;
    st->d = d;
    if (rc == 0)
        rc =
            series_descs(st->http, &ids, on_desc, st, st->err, sizeof(st->err));
    if (rc == 0 && fn->inst)
        rc = series_instances(st->http, &ids, on_instance, st, st->err,
                              sizeof(st->err));
    series_ids_free(&ids);
    return rc;
}

/* The last step: each source's labels (through one series of it), and the
 * list of every series for the values. */
static int step_labels(struct fleet_poll_state *st, struct discovery *d)
{
    struct series_ids one = {0};
    d->all.n = d->info.n = 0; /* (a step that failed is taken again) */
    for (int i = 0; i < d->n; i++) {
        for (int k = 0; k < FLEET_NAMES_MAX; k++) {
            if (d->src[i].series[k][0]) {
                series_ids_add(&one, d->src[i].series[k]);
                break;
            }
        }
        for (int k = 0; k < FLEET_NAMES_MAX; k++)
            if (d->src[i].series[k][0])
                series_ids_add(fleet_metrics()->names[k].use == FLEET_POLL
                                   ? &d->all
                                   : &d->info,
                               d->src[i].series[k]);
    }
    st->d = d;
    int rc =
        series_labels(st->http, &one, on_label, st, st->err, sizeof(st->err));
    series_ids_free(&one);
    for (int i = 0; i < d->n; i++)
        fleet_labels_finish(&d->src[i].lab);
    return rc;
}

/* One step of d; complete after the last. 0 or -1 with st->err, which
 * then names what the step asked for. */
static int disc_step(struct fleet_poll_state *st, struct discovery *d)
{
    const struct fleet_metrics *fm = fleet_metrics();
    int nnames = fm->nnames;
    /* names read through /pmapi only are no step: a later discovery,
     * a step a poll, once took 26 polls where 11 ask something */
    while (d->step < nnames && fm->names[d->step].use == FLEET_PAIR)
        d->step++;
    int rc = d->step >= nnames ? step_labels(st, d) : step_name(st, d, d->step);
    if (rc < 0) {
        char why[sizeof(st->err)];
        snprintf(why, sizeof(why), "%s", st->err);
        snprintf(st->err, sizeof(st->err), "%.120s (discovering %s)", why,
                 d->step >= nnames ? "the sources' labels"
                                   : fm->names[d->step].name);
    }
    if (rc == 0 && ++d->step > nnames)
        d->complete = true;
    return rc;
}

/* The steps of a discovery that ask pmproxy something, and how many of
 * them d has done. */
static int disc_steps(const struct discovery *d, int *done)
{
    const struct fleet_metrics *fm = fleet_metrics();
    int n = 1; /* the labels */
    *done = d->complete;
    for (int k = 0; k < fm->nnames; k++) {
        if (fm->names[k].use == FLEET_PAIR)
            continue;
        n++;
        *done += k < d->step;
    }
    return n;
}

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
        rc = disc_step(st, d);
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

/* Adds source s of an older table to d: its series to d's maps and lists.
 * False when out of memory. */
static bool disc_carry(struct discovery *d, const struct disc_src *s)
{
    struct disc_src *c = disc_source(d, s->id);
    if (!c)
        return false;
    *c = *s;
    int i = (int)(c - d->src);
    for (int k = 0; k < FLEET_NAMES_MAX; k++) {
        if (!c->series[k][0])
            continue;
        idmap_put(&d->by_series, series_key(c->series[k]),
                  i * FLEET_NAMES_MAX + k);
        series_ids_add(fleet_metrics()->names[k].use == FLEET_POLL ? &d->all
                                                                   : &d->info,
                       c->series[k]);
    }
    return true;
}

/* Before a new table replaces `old`: the sources of old whose values
 * still come but that the new discovery did not find go into it too.
 * pmproxy 6.0.3 writes a source's metadata to its key-value server once,
 * when it first reads the archive, and only its values after: a key-value
 * server restarted empty gets the values of every source still recorded,
 * but no query finds them (issue 24). How many were kept. */
static int keep_recorded(struct discovery *old, struct discovery *fresh)
{
    int kept = 0;
    for (int i = 0; i < old->n; i++) {
        const struct disc_src *s = &old->src[i];
        if (s->valued && idmap_get(&fresh->by_source, series_key(s->id)) < 0)
            kept += disc_carry(fresh, s);
    }
    return kept;
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
            int kept = keep_recorded(cur, next);
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
        } else if (disc_step(st, next) < 0) {
            disc_reset(next); /* begin again later */
            return -1;
        }
    } else if (next->step > 0 && disc_step(st, next) < 0) {
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

/* The thread. */
struct fleet_poll {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    char *url;
    double interval;
    bool retime, stop, abandoned, fresh;
    int wake_fd;
    struct fleet_raw buf[3]; /* filled by the thread, newest, held */
    struct fleet_raw *fill, *slot, *held;
};

static double request_timeout(double interval)
{
    return fmin(fmax(0.9 * interval, TIMEOUT_MIN), TIMEOUT_MAX);
}

static void poll_free(struct fleet_poll *p)
{
    for (int i = 0; i < 3; i++)
        fleet_raw_free(&p->buf[i]);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->url);
    free(p);
}

/* Sleeps until host monotonic `until`, a new interval or a stop. */
static bool sleep_until(struct fleet_poll *p, double until)
{
    struct timespec ts = {.tv_sec = (time_t)until};
    ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
    pthread_mutex_lock(&p->lock);
    while (!p->stop && !p->retime && clock_mono() < until)
        if (pthread_cond_timedwait(&p->wake, &p->lock, &ts) == ETIMEDOUT)
            break;
    bool stop = p->stop;
    p->retime = false;
    pthread_mutex_unlock(&p->lock);
    return stop;
}

static void *poll_main(void *arg)
{
    struct fleet_poll *p = arg;
    pthread_mutex_lock(&p->lock);
    double iv = p->interval;
    pthread_mutex_unlock(&p->lock);
    struct fleet_poll_state *st =
        fleet_poll_state_new(p->url, request_timeout(iv));
    double epoch = clock_mono();
    double phase = 0;
    while (st) {
        bool discovering = fleet_poll_state_run(st, p->fill);
        pthread_mutex_lock(&p->lock);
        struct fleet_raw *t = p->slot;
        p->slot = p->fill;
        p->fill = t;
        p->fresh = true;
        int fd = p->wake_fd;
        double niv = p->interval;
        pthread_mutex_unlock(&p->lock);
        char c = 1;
        if (fd >= 0 && write(fd, &c, 1) < 0 && errno != EAGAIN)
            DIAG(DIAG_DEBUG, "fleet: cannot wake the main loop");
        if (niv != iv) { /* a new interval: a new grid from now */
            iv = niv;
            epoch = clock_mono();
            http_set_timeout(st->http, st->timeout = request_timeout(iv));
        }
        if (discovering) { /* its next slice at once, unless stopped */
            if (sleep_until(p, 0))
                break;
            continue;
        }
        /* each poll lands at another point of the loggers' ticks (a
         * golden-ratio sequence covers the interval evenly), so that the
         * arrival brackets of their records (fleet_model.h, offset)
         * narrow over time instead of repeating one phase */
        phase = fmod(phase + GOLDEN, 1.0);
        double now = clock_mono();
        double next = epoch + (floor((now - epoch) / iv) + 1) * iv + phase * iv;
        if (next - now < MIN_GAP * iv)
            next += iv;
        if (sleep_until(p, next))
            break;
    }
    fleet_poll_state_free(st);
    pthread_mutex_lock(&p->lock);
    bool abandoned = p->abandoned;
    pthread_mutex_unlock(&p->lock);
    if (abandoned)
        poll_free(p);
    return NULL;
}

struct fleet_poll *fleet_poll_start(const char *url, double interval,
                                    int wake_fd)
{
    fleet_metrics(); /* built here, before the thread reads it */
    struct fleet_poll *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->url = strdup(url);
    p->interval = interval;
    p->wake_fd = wake_fd;
    p->fill = &p->buf[0];
    p->slot = &p->buf[1];
    p->held = &p->buf[2];
    pthread_mutex_init(&p->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (!p->url || pthread_create(&p->thread, NULL, poll_main, p) != 0) {
        poll_free(p);
        return NULL;
    }
    return p;
}

const struct fleet_raw *fleet_poll_take(struct fleet_poll *p)
{
    pthread_mutex_lock(&p->lock);
    bool fresh = p->fresh;
    if (fresh) {
        struct fleet_raw *t = p->slot;
        p->slot = p->held;
        p->held = t;
        p->fresh = false;
    }
    pthread_mutex_unlock(&p->lock);
    return fresh ? p->held : NULL;
}

void fleet_poll_set_interval(struct fleet_poll *p, double interval)
{
    pthread_mutex_lock(&p->lock);
    p->interval = interval;
    p->retime = true;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

void fleet_poll_stop(struct fleet_poll *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    p->wake_fd = -1;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += STOP_WAIT_MS * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    if (pthread_timedjoin_np(p->thread, NULL, &until) == 0) {
        poll_free(p);
        return;
    }
    pthread_t thread = p->thread; /* the thread frees p once abandoned */
    pthread_mutex_lock(&p->lock);
    p->abandoned = true;
    pthread_mutex_unlock(&p->lock);
    pthread_detach(thread);
}
