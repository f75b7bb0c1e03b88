/* See worker.h. */
#include "base/worker.h"

#include <errno.h>
#include <time.h>

#include "base/clock.h"

int worker_init(struct worker *w)
{
    pthread_condattr_t ca;
    if (pthread_mutex_init(&w->lock, NULL) != 0)
        return -1;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&w->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (rc != 0) {
        pthread_mutex_destroy(&w->lock);
        return -1;
    }
    return 0;
}

void worker_destroy(struct worker *w)
{
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
}

int worker_start(struct worker *w, void *(*fn)(void *), void *arg)
{
    return pthread_create(&w->thread, NULL, fn, arg) == 0 ? 0 : -1;
}

bool worker_wait_until(struct worker *w, double until, bool (*woken)(void *),
                       void *arg)
{
    struct timespec ts = {.tv_sec = (time_t)until};
    ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
    while (!w->stop && !(woken && woken(arg)) && clock_mono() < until)
        if (pthread_cond_timedwait(&w->wake, &w->lock, &ts) == ETIMEDOUT)
            break;
    return w->stop;
}

bool worker_finish(struct worker *w)
{
    pthread_mutex_lock(&w->lock);
    w->ended = true;
    bool abandoned = w->abandoned;
    pthread_mutex_unlock(&w->lock);
    return abandoned;
}

void worker_stop_all(int n, struct worker *(*at)(void *ctx, int i),
                     bool (*worth)(void *ctx, int i),
                     void (*joined)(void *ctx, int i), void *ctx, int wait_ms)
{
    for (int i = 0; i < n; i++) {
        struct worker *w = at(ctx, i);
        pthread_mutex_lock(&w->lock);
        w->stop = true;
        pthread_cond_signal(&w->wake);
        pthread_mutex_unlock(&w->lock);
    }
    /* one deadline for all: N hanging threads cost one wait, not N */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += wait_ms * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    for (int i = 0; i < n; i++) {
        struct worker *w = at(ctx, i);
        if ((!worth || worth(ctx, i)) &&
            pthread_timedjoin_np(w->thread, NULL, &until) == 0) {
            joined(ctx, i);
            continue;
        }
        /* The thread frees its owner once abandoned is set, so w may be
         * gone after this lock. One that ended after the wait but before
         * the lock read abandoned as false and frees nothing: it is
         * joined here (it leaked samplers under make asan). */
        pthread_t thread = w->thread;
        pthread_mutex_lock(&w->lock);
        bool ended = w->ended;
        if (!ended) {
            if (w->abandoned_live)
                atomic_fetch_add(w->abandoned_live, 1);
            w->abandoned = true;
        }
        pthread_mutex_unlock(&w->lock);
        if (ended) {
            pthread_join(thread, NULL);
            joined(ctx, i);
        } else {
            pthread_detach(thread);
        }
    }
}

/* worker_stop's one worker, as worker_stop_all takes it */
struct one_worker {
    struct worker *w;
    void (*free_owner)(void *owner);
    void *owner;
};

static struct worker *one_at(void *ctx, int i)
{
    (void)i;
    return ((struct one_worker *)ctx)->w;
}

static void one_joined(void *ctx, int i)
{
    (void)i;
    struct one_worker *o = ctx;
    o->free_owner(o->owner);
}

void worker_stop(struct worker *w, void (*free_owner)(void *owner), void *owner,
                 int wait_ms)
{
    struct one_worker o = {w, free_owner, owner};
    worker_stop_all(1, one_at, NULL, one_joined, &o, wait_ms);
}

void *triple_put(struct triple *t, void *filled, bool *unread)
{
    void *old = t->slot;
    *unread = t->fresh;
    t->slot = filled;
    t->fresh = true;
    return old;
}

void *worker_take(struct worker *w, struct triple *t)
{
    pthread_mutex_lock(&w->lock);
    void *newest = triple_take(t);
    pthread_mutex_unlock(&w->lock);
    return newest;
}

void *triple_take(struct triple *t)
{
    if (!t->fresh)
        return NULL;
    void *newest = t->slot;
    t->slot = t->held;
    t->held = newest;
    t->fresh = false;
    return newest;
}
