/* The skeleton of a worker thread that feeds the main loop: what the
 * samplers (collectors/sampler.c) and the fleet's poller
 * (fleet/fleet_poll.c) share. A lock and a condition variable on
 * CLOCK_MONOTONIC (a stop or a new request wakes the thread at once, and
 * a step of the wall clock does not move its deadlines); three buffers
 * that change hands instead of being copied (the thread fills one, one
 * holds the newest, the main loop reads the third); and a stop that
 * waits a bounded time, then leaves a thread stuck in a request to end
 * and free its owner by itself. */
#ifndef PARALLAX_WORKER_H
#define PARALLAX_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct worker {
    pthread_t thread;
    pthread_mutex_t lock; /* the owner's state is under it too */
    pthread_cond_t wake;
    bool stop;      /* asked to end (worker_stop_all) */
    bool abandoned; /* the stop gave up waiting: the thread frees */
    bool ended;     /* the thread is past its last use of its owner */
    /* counts the abandoned threads not yet ended (may be NULL): one is
     * added as a thread is abandoned, the owner takes it off once the
     * thread has freed it */
    atomic_int *abandoned_live;
};

/* The lock and the monotonic condition variable; 0, or -1. */
int worker_init(struct worker *w);
void worker_destroy(struct worker *w);

/* Runs fn(arg) on w's thread; 0, or -1 when it cannot start. */
int worker_start(struct worker *w, void *(*fn)(void *), void *arg);

/* With w->lock held: sleeps until host monotonic time `until`, a stop or
 * woken(arg) (may be NULL; checked whenever the condition is signalled).
 * True on stop. */
bool worker_wait_until(struct worker *w, double until, bool (*woken)(void *),
                       void *arg);

/* The thread's last act on w: true when the stop abandoned it, and the
 * thread is then to free its owner. */
bool worker_finish(struct worker *w);

/* Stops n workers, the i-th at(ctx, i): each is told to stop (its
 * condition signalled), then those that worth(ctx, i) says are worth it
 * (worth NULL: all) are waited for, wait_ms in all, not each. For one
 * that ended, joined(ctx, i) (its owner frees it); one still running is
 * abandoned and frees itself when it ends. */
void worker_stop_all(int n, struct worker *(*at)(void *ctx, int i),
                     bool (*worth)(void *ctx, int i),
                     void (*joined)(void *ctx, int i), void *ctx, int wait_ms);

/* worker_stop_all of the one worker w of owner: free_owner(owner) once it
 * is joined; one still running frees its owner itself when it ends. */
void worker_stop(struct worker *w, void (*free_owner)(void *owner), void *owner,
                 int wait_ms);

/* Three buffers between a thread and the main loop, under the worker's
 * lock: the thread fills one and puts it, the main loop takes the newest. */
struct triple {
    void *slot; /* the newest */
    void *held; /* the main loop's, since its last take */
    bool fresh; /* slot not yet taken */
};

/* With the lock: `filled` is the newest; returns the buffer to fill next
 * (the one it replaces); *unread true when that one was never taken. */
void *triple_put(struct triple *t, void *filled, bool *unread);

/* With the lock: the newest not yet taken, now the caller's until its
 * next take; NULL when there is none. */
void *triple_take(struct triple *t);

/* triple_take of t under w's lock: the main loop's take. */
void *worker_take(struct worker *w, struct triple *t);

#endif
