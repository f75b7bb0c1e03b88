/* See sampler.h. The thread sleeps on a condition variable bound to
 * CLOCK_MONOTONIC, so a stop wakes it at once and wall-clock steps do not
 * disturb the interval. Fetch deadlines are instants of the gate's grid,
 * so the cadence does not drift with the fetch time and every source of a
 * session fetches at the same moments. */
#include "collectors/sampler.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/worker.h"
#include "collectors/syscalls_switch.h"

/* Threads sampler_stop gave up waiting for that have not ended yet
 * (sampler_drain). */
static atomic_int abandoned_live;

#define RETRY_MIN    1.0  /* seconds before reopening a source that failed */
#define RETRY_MAX    30.0 /* backoff ceiling */
#define STOP_WAIT_MS 200  /* how long sampler_stop waits for the thread */
#define GATHER_MAX   0.03 /* s a round's first sample waits for the others */

struct wake_gate {
    pthread_mutex_t lock;
    int fd;       /* -1 once the session let go */
    int refs;     /* the session's and each sampler's */
    bool holding; /* a sampler will write the byte for the current round */
    double epoch; /* host monotonic time the grid counts from */
};

struct store_cmd {
    unsigned id;
    char name[64];
    char value[256];
};

/* A standing store, made again every `every` seconds (sampler_renew). */
struct renewal {
    char name[64];
    char value[SAMPLER_RENEW_MAX];
    double every;
    double due;       /* host monotonic time of the next one */
    bool rearm;       /* set anew: the thread's wait is off */
    char failed[256]; /* the last failure reported, "" after a success */
    char report[256]; /* a failure for the next sample, "" if none */
};

struct sampler {
    struct worker w; /* the thread, its lock and its wake-up */
    const struct backend *const *candidates;
    char *target;
    double interval;
    bool retime; /* the interval changed: the next deadline is off */
    bool watch;  /* tick the source's clock between samples */
    struct wake_gate *gate;
    bool busy;        /* in the backend (opening, fetching, storing) */
    int storing;      /* stores taken from cmd, not yet made */
    bool fresh;       /* slot holds a sample not yet taken */
    unsigned next_id; /* of stores */
    int ncmd;         /* stores waiting for the thread */
    struct store_cmd cmd[SAMPLE_MAX_STORES];
    struct renewal renew;
    /* Three samples change hands instead of being copied (they are tens
     * of KB): the thread fills one, tb.slot holds the newest, tb.held is
     * the one the main loop reads. */
    struct sample *buf[3];
    struct triple tb;
};

struct wake_gate *wake_gate_new(int wake_fd)
{
    struct wake_gate *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    pthread_mutex_init(&g->lock, NULL);
    g->fd = wake_fd;
    g->refs = 1;
    g->epoch = clock_mono();
    return g;
}

double wake_gate_epoch(const struct wake_gate *g)
{
    return g->epoch; /* set before any thread shares g, never again */
}

static void gate_ref(struct wake_gate *g)
{
    pthread_mutex_lock(&g->lock);
    g->refs++;
    pthread_mutex_unlock(&g->lock);
}

static void gate_unref(struct wake_gate *g, bool close_fd)
{
    pthread_mutex_lock(&g->lock);
    if (close_fd)
        g->fd = -1;
    bool last = --g->refs == 0;
    pthread_mutex_unlock(&g->lock);
    if (last) {
        pthread_mutex_destroy(&g->lock);
        free(g);
    }
}

void wake_gate_release(struct wake_gate *g)
{
    if (g)
        gate_unref(g, true);
}

/* The first instant of the grid after host monotonic time t. */
static double grid_after(const struct sampler *s, double t, double iv)
{
    double epoch = s->gate ? s->gate->epoch : 0;
    return epoch + (floor((t - epoch) / iv) + 1) * iv;
}

/* Moves what `old`, a sample nobody took, carried that must not be lost
 * (store results: a start whose outcome never arrives is a run that never
 * ends; clock ticks) in front of smp's own. */
static void carry_over(const struct sample *old, struct sample *smp)
{
    int ns = old->nstores + smp->nstores > SAMPLE_MAX_STORES
                 ? SAMPLE_MAX_STORES - smp->nstores
                 : old->nstores;
    memmove(smp->store + ns, smp->store, sizeof(smp->store[0]) * smp->nstores);
    memcpy(smp->store, old->store + old->nstores - ns,
           sizeof(smp->store[0]) * (size_t)ns);
    smp->nstores += ns;
    /* the old ticks, then the old fetch itself, before smp's ticks */
    struct clock_tick t[SAMPLE_MAX_TICKS + 1];
    int k = old->nticks;
    memcpy(t, old->tick, sizeof(t[0]) * (size_t)k);
    if (old->ok && isfinite(old->t_source))
        t[k++] =
            (struct clock_tick){old->t_before, old->t_after, old->t_source};
    int nt =
        k + smp->nticks > SAMPLE_MAX_TICKS ? SAMPLE_MAX_TICKS - smp->nticks : k;
    memmove(smp->tick + nt, smp->tick, sizeof(smp->tick[0]) * smp->nticks);
    memcpy(smp->tick, t + k - nt, sizeof(smp->tick[0]) * (size_t)nt);
    smp->nticks += nt;
    if (!smp->renew_error[0])
        memcpy(smp->renew_error, old->renew_error, sizeof(smp->renew_error));
}

/* Makes smp the newest sample; returns the buffer to fill next. */
static struct sample *publish(struct sampler *s, struct sample *smp)
{
    bool unread;
    pthread_mutex_lock(&s->w.lock);
    struct sample *old = triple_put(&s->tb, smp, &unread);
    if (unread) /* replaced before the main loop took it */
        carry_over(old, smp);
    pthread_mutex_unlock(&s->w.lock);
    return old;
}

/* A store, a new interval or a renewal set anew (with the lock). */
static bool asked(void *arg)
{
    struct sampler *s = arg;
    return s->ncmd || s->retime || s->renew.rearm;
}

/* Sleeps until host monotonic time `until`, a stop, a store, a new
 * interval or a renewal set anew; true on stop. */
static bool sleep_until(struct sampler *s, double until)
{
    pthread_mutex_lock(&s->w.lock);
    s->busy = false;
    bool stop = worker_wait_until(&s->w, until, asked, s);
    s->busy = true;
    pthread_mutex_unlock(&s->w.lock);
    return stop;
}

static bool watching(struct sampler *s)
{
    pthread_mutex_lock(&s->w.lock);
    bool on = s->watch && !s->w.stop && !asked(s);
    pthread_mutex_unlock(&s->w.lock);
    return on;
}

/* The clock ticks taken while waiting for the next sample, and the live
 * run count the first of them saw (-2: none yet). */
struct ticking {
    struct clock_tick tick[SAMPLE_MAX_TICKS];
    int n;
    int runs0;
};

enum woke {
    WOKE_STOP,    /* sampler_stop */
    WOKE_CHANGED, /* the source's live runs changed in number */
    WOKE_UNTIL,   /* the time waited for came, or something woke it early */
};

/* Waits until `until` like sleep_until, ticking the source's clock into
 * tk meanwhile while watched. */
static enum woke wait_ticking(struct sampler *s, const struct backend *be,
                              void *state, struct ticking *tk, double until)
{
    while (be && be->tick && watching(s) && tk->n < SAMPLE_MAX_TICKS) {
        double t = clock_mono() + SAMPLER_TICK_S;
        if (t >= until)
            break;
        if (sleep_until(s, t))
            return WOKE_STOP;
        int runs = -1;
        if (be->tick(state, &tk->tick[tk->n], &runs) < 0)
            break;
        tk->n++;
        if (tk->runs0 == -2)
            tk->runs0 = runs;
        else if (runs != tk->runs0)
            return WOKE_CHANGED; /* a run started or ended: sample now */
    }
    return sleep_until(s, until) ? WOKE_STOP : WOKE_UNTIL;
}

/* When the standing renewal is due (INFINITY: none); takes in a new one. */
static double renewal_due(struct sampler *s)
{
    pthread_mutex_lock(&s->w.lock);
    s->renew.rearm = false;
    double due = s->renew.value[0] ? s->renew.due : INFINITY;
    pthread_mutex_unlock(&s->w.lock);
    return due;
}

/* True when the next sample is wanted now: a store, a new interval. */
static bool sample_wanted(struct sampler *s)
{
    pthread_mutex_lock(&s->w.lock);
    bool now = s->ncmd || s->retime;
    pthread_mutex_unlock(&s->w.lock);
    return now;
}

/* Makes the standing renewal, and sets the next one; a failure is kept
 * for the next sample unless it was the last one's too. */
static void renew(struct sampler *s, const struct backend *be, void *state)
{
    char name[sizeof(s->renew.name)], value[sizeof(s->renew.value)];
    char msg[sizeof(s->renew.failed)] = "";
    pthread_mutex_lock(&s->w.lock);
    snprintf(name, sizeof(name), "%s", s->renew.name);
    snprintf(value, sizeof(value), "%s", s->renew.value);
    s->renew.due = clock_mono() + s->renew.every;
    pthread_mutex_unlock(&s->w.lock);
    if (!value[0] || !be)
        return; /* a source that is down says so itself */
    int rc = be->store ? be->store(state, name, value, msg, sizeof(msg)) : -1;
    if (!be->store)
        snprintf(msg, sizeof(msg), "this source takes no stores");
    pthread_mutex_lock(&s->w.lock);
    if (rc == 0)
        s->renew.failed[0] = '\0';
    else if (strcmp(msg, s->renew.failed) != 0) {
        snprintf(s->renew.failed, sizeof(s->renew.failed), "%s", msg);
        snprintf(s->renew.report, sizeof(s->renew.report), "%s", msg);
    }
    pthread_mutex_unlock(&s->w.lock);
}

/* Waits for the next sample's time `next` (wait_ticking), making the
 * standing renewal whenever it falls due meanwhile; returns early when a
 * sample is wanted now. True on stop. */
static bool wait_next(struct sampler *s, const struct backend *be, void *state,
                      struct ticking *tk, double next)
{
    tk->n = 0;
    tk->runs0 = -2;
    for (;;) {
        double due = renewal_due(s), until = fmin(next, due);
        enum woke w = wait_ticking(s, be, state, tk, until);
        if (w != WOKE_UNTIL)
            return w == WOKE_STOP;
        if (sample_wanted(s) || clock_mono() >= next)
            return false;
        if (clock_mono() >= due)
            renew(s, be, state);
        /* else a renewal was set anew: wait with its time */
    }
}

/* Tells the main loop a sample arrived, once per round: the first sampler
 * to arrive waits a little (at most until its next fetch) for the others,
 * then writes one byte for all of them. */
static void announce(struct sampler *s, double next, double iv)
{
    struct wake_gate *g = s->gate;
    if (!g)
        return;
    pthread_mutex_lock(&g->lock);
    bool hold = !g->holding;
    g->holding = true;
    pthread_mutex_unlock(&g->lock);
    if (!hold)
        return; /* the holder's byte comes after this sample */
    sleep_until(s, fmin(clock_mono() + fmin(GATHER_MAX, iv / 10), next));
    pthread_mutex_lock(&g->lock);
    g->holding = false;
    char c = 1;
    /* a full pipe already has a wake-up pending */
    if (g->fd >= 0 && write(g->fd, &c, 1) < 0 && errno != EAGAIN)
        g->fd = -1;
    pthread_mutex_unlock(&g->lock);
}

/* The host's realtime clock at host monotonic time `mono` (just past). */
static double realtime_at(double mono)
{
    return clock_real() - (clock_mono() - mono);
}

/* Makes the queued stores; their outcomes go into smp. */
static void do_stores(struct sampler *s, const struct backend *be, void *state,
                      struct sample *smp)
{
    struct store_cmd cmd[SAMPLE_MAX_STORES];
    pthread_mutex_lock(&s->w.lock);
    int n = s->ncmd;
    memcpy(cmd, s->cmd, sizeof(cmd[0]) * (size_t)n);
    s->ncmd = 0;
    s->storing = n;
    pthread_mutex_unlock(&s->w.lock);
    for (int i = 0; i < n; i++) {
        struct store_result *r = &smp->store[smp->nstores++];
        r->id = cmd[i].id;
        r->msg[0] = '\0';
        if (!be || !be->store) {
            r->status = -1;
            snprintf(r->msg, sizeof(r->msg), "%s",
                     be ? "this source takes no stores" : "source is down");
            continue;
        }
        r->t_before = clock_mono();
        r->status =
            be->store(state, cmd[i].name, cmd[i].value, r->msg, sizeof(r->msg));
        r->t_after = clock_mono();
    }
    pthread_mutex_lock(&s->w.lock);
    s->storing = 0;
    pthread_mutex_unlock(&s->w.lock);
}

static double current_interval(struct sampler *s)
{
    pthread_mutex_lock(&s->w.lock);
    double iv = s->interval;
    s->retime = false; /* the next deadline follows this interval */
    pthread_mutex_unlock(&s->w.lock);
    return iv;
}

/* Opens the first candidate that works; fills smp with why none did. */
static const struct backend *open_source(struct sampler *s, void **state,
                                         struct sample *smp)
{
    char err[sizeof(smp->error)] = "";
    for (int i = 0; s->candidates[i]; i++) {
        *state = s->candidates[i]->open(s->target, err, sizeof(err));
        if (*state)
            return s->candidates[i];
    }
    snprintf(smp->error, sizeof(smp->error), "%s", err);
    return NULL;
}

/* This host's system calls, whatever backend reads the rest: counted
 * with the code pmdaparallax counts them with in guests, while wanted
 * (collectors/syscalls_switch.h). A counter reopened after a pause starts
 * from zero: the model reads that as a reset. */
static void count_host_syscalls(struct sample *smp)
{
    uint64_t total;
    if (syscalls_host_read(&total) == 0)
        sample_set_count(smp, METRIC_SYSCALLS, total);
}

static void sampler_free(struct sampler *s)
{
    worker_destroy(&s->w);
    if (s->gate)
        gate_unref(s->gate, false);
    for (int i = 0; i < 3; i++)
        free(s->buf[i]);
    free(s->target);
    free(s);
}

static void *sampler_main(void *arg)
{
    struct sampler *s = arg;
    const struct backend *be = NULL;
    void *state = NULL;
    double retry = RETRY_MIN;
    struct sample *cur = s->buf[0];
    struct ticking tk = {.n = 0};
    for (;;) {
        memset(cur, 0, sizeof(*cur));
        cur->t_source = NAN;
        memcpy(cur->tick, tk.tick, sizeof(tk.tick[0]) * (size_t)tk.n);
        cur->nticks = tk.n;
        pthread_mutex_lock(&s->w.lock); /* a renewal that failed meanwhile */
        memcpy(cur->renew_error, s->renew.report, sizeof(cur->renew_error));
        s->renew.report[0] = '\0';
        pthread_mutex_unlock(&s->w.lock);
        if (!be)
            be = open_source(s, &state, cur);
        do_stores(s, be, state, cur);
        bool reopen = !be;
        if (be) {
            cur->backend = be->name;
            /* > 0: a recording of a source that was down; the backend
             * stays open */
            int rc = be->fetch(state, cur);
            cur->ok = rc == 0;
            if (cur->ok && !s->target)
                count_host_syscalls(cur);
            if (!cur->replay.on) /* a recording carries its own */
                cur->t_real = realtime_at(sample_midpoint(cur));
            if (rc >= 0) {
                retry = RETRY_MIN;
            } else { /* reopen on the next round */
                be->close(state);
                be = NULL;
                reopen = true;
            }
        }
        if (!cur->ok && !cur->t_after)
            cur->t_before = cur->t_after = clock_mono();

        /* the next instant of the grid: a fetch that overran skips one
         * rather than bursting, and one woken early by a store keeps the
         * cadence of the regular fetches */
        double iv = current_interval(s);
        double next = grid_after(s, clock_mono(), iv);
        if (reopen) {
            next = grid_after(s, clock_mono() + retry - iv, iv);
            retry = fmin(retry * 2, RETRY_MAX);
            cur->retry_at = next;
        }
        cur = publish(s, cur);
        announce(s, next, iv);
        /* the ticks until the next sample go with it */
        if (wait_next(s, be, state, &tk, next))
            break;
    }
    /* stores asked for before the stop are made: a quit's stop of a
     * guest's runs */
    if (be) {
        memset(cur, 0, sizeof(*cur));
        do_stores(s, be, state, cur);
        be->close(state);
    }
    if (worker_finish(&s->w)) { /* abandoned: the thread frees */
        sampler_free(s);
        atomic_fetch_sub(&abandoned_live, 1);
    }
    return NULL;
}

struct sampler *sampler_start(const struct backend *const *candidates,
                              const char *target, double interval,
                              struct wake_gate *gate)
{
    for (int i = 0; candidates[i]; i++)
        if (candidates[i]->global_init)
            candidates[i]->global_init();
    struct sampler *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    for (int i = 0; i < 3; i++) {
        s->buf[i] = calloc(1, sizeof(*s->buf[i]));
        if (!s->buf[i]) {
            for (int k = 0; k < i; k++)
                free(s->buf[k]);
            free(s);
            return NULL;
        }
    }
    s->tb.slot = s->buf[1];
    s->tb.held = s->buf[2];
    s->candidates = candidates;
    s->target = target ? strdup(target) : NULL;
    s->interval = interval;
    s->gate = gate;
    s->busy = true; /* opening the source comes first */
    if (gate)
        gate_ref(gate);
    s->w.abandoned_live = &abandoned_live;
    if (worker_init(&s->w) != 0) {
        if (gate)
            gate_unref(gate, false);
        for (int i = 0; i < 3; i++)
            free(s->buf[i]);
        free(s->target);
        free(s);
        return NULL;
    }
    if (worker_start(&s->w, sampler_main, s) != 0) {
        sampler_free(s);
        return NULL;
    }
    return s;
}

const struct sample *sampler_take(struct sampler *s)
{
    return worker_take(&s->w, &s->tb);
}

void sampler_set_interval(struct sampler *s, double interval)
{
    pthread_mutex_lock(&s->w.lock);
    s->interval = interval;
    s->retime = true; /* from an hour down to a second must not wait */
    pthread_cond_signal(&s->w.wake);
    pthread_mutex_unlock(&s->w.lock);
}

/* Whether stopping s is worth a wait: its thread is idle (it ends at
 * once), or has stores to make (a quit's stops), or samples this host
 * (a local read, never stuck). A guest's thread inside a connect or a
 * fetch with nothing to store may hang for seconds: it is not waited for. */
static bool worth_waiting(struct sampler *s)
{
    pthread_mutex_lock(&s->w.lock);
    bool wait = !s->target || !s->busy || s->ncmd > 0 || s->storing > 0;
    pthread_mutex_unlock(&s->w.lock);
    return wait;
}

static struct worker *worker_of(void *v, int i)
{
    return &((struct sampler *const *)v)[i]->w;
}

static bool worth_waiting_of(void *v, int i)
{
    return worth_waiting(((struct sampler *const *)v)[i]);
}

static void free_of(void *v, int i)
{
    sampler_free(((struct sampler *const *)v)[i]);
}

void sampler_stop_all(struct sampler *const *v, int n)
{
    /* (one that is abandoned frees itself when it ends) */
    worker_stop_all(n, worker_of, worth_waiting_of, free_of, (void *)v,
                    STOP_WAIT_MS);
}

void sampler_drain(double secs)
{
    double until = clock_mono() + secs;
    while (atomic_load(&abandoned_live) > 0 && clock_mono() < until) {
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

void sampler_stop(struct sampler *s)
{
    sampler_stop_all(&s, 1);
}

void sampler_watch(struct sampler *s, bool on)
{
    pthread_mutex_lock(&s->w.lock);
    if (on && !s->watch)
        pthread_cond_signal(&s->w.wake); /* start ticking now */
    s->watch = on;
    pthread_mutex_unlock(&s->w.lock);
}

void sampler_renew(struct sampler *s, const char *name, const char *value,
                   double every)
{
    every = fmax(every, 0.1); /* never a busy loop */
    pthread_mutex_lock(&s->w.lock);
    struct renewal *r = &s->renew;
    bool was = r->value[0] != '\0';
    if (strcmp(r->value, value) != 0 || strcmp(r->name, name) != 0 ||
        r->every != every) {
        snprintf(r->name, sizeof(r->name), "%s", name);
        snprintf(r->value, sizeof(r->value), "%s", value);
        r->every = every;
        /* a new one is first due a period from now; a changed one keeps
         * its time unless the new period is shorter */
        double first = clock_mono() + every;
        if (!was || first < r->due)
            r->due = first;
        if (value[0]) {
            r->rearm = true;
            pthread_cond_signal(&s->w.wake);
        }
    }
    pthread_mutex_unlock(&s->w.lock);
}

unsigned sampler_store(struct sampler *s, const char *name, const char *value)
{
    unsigned id = 0;
    pthread_mutex_lock(&s->w.lock);
    if (s->ncmd < SAMPLE_MAX_STORES) {
        struct store_cmd *c = &s->cmd[s->ncmd++];
        id = c->id = ++s->next_id;
        snprintf(c->name, sizeof(c->name), "%s", name);
        snprintf(c->value, sizeof(c->value), "%s", value);
        pthread_cond_signal(&s->w.wake);
    }
    pthread_mutex_unlock(&s->w.lock);
    return id;
}
