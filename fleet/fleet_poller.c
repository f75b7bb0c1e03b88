/* See fleet_poll.h: the poller's thread (base/worker.h), one poll
 * (fleet_poll.c) each interval, at a phase that moves on each time. */
#include "fleet/fleet_poll.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/worker.h"

#define STOP_WAIT_MS 200 /* how long fleet_poll_stop waits for the thread */
#define TIMEOUT_MIN                                                            \
    2.0                          /* s: a request's timeout, at the least (a    \
                                    thousand sources' values take 0.36 s here, \
                                    longer while pmproxy takes in a burst); a  \
                                    pmproxy that says nothing shows sooner, by \
                                    the model's age of its last answer */
#define TIMEOUT_MAX 10.0         /* ... and at the most */
#define GOLDEN      0.6180339887 /* the poll's phase moves on by this */
#define MIN_GAP     0.3          /* of an interval between two polls */

struct fleet_poll {
    struct worker w; /* the thread, its lock and its wake-up */
    char *url;
    double interval;
    bool retime;
    int wake_fd;
    struct fleet_raw buf[3]; /* filled by the thread, newest, held */
    struct fleet_raw *fill;
    struct triple tb;
};

static double request_timeout(double interval)
{
    return fmin(fmax(0.9 * interval, TIMEOUT_MIN), TIMEOUT_MAX);
}

static void poll_free(struct fleet_poll *p)
{
    for (int i = 0; i < 3; i++)
        fleet_raw_free(&p->buf[i]);
    worker_destroy(&p->w);
    free(p->url);
    free(p);
}

static bool retimed(void *arg)
{
    return ((struct fleet_poll *)arg)->retime;
}

/* Sleeps until host monotonic `until`, a new interval or a stop. */
static bool sleep_until(struct fleet_poll *p, double until)
{
    pthread_mutex_lock(&p->w.lock);
    bool stop = worker_wait_until(&p->w, until, retimed, p);
    p->retime = false;
    pthread_mutex_unlock(&p->w.lock);
    return stop;
}

static void *poll_main(void *arg)
{
    struct fleet_poll *p = arg;
    pthread_mutex_lock(&p->w.lock);
    double iv = p->interval;
    pthread_mutex_unlock(&p->w.lock);
    struct fleet_poll_state *st =
        fleet_poll_state_new(p->url, request_timeout(iv));
    double epoch = clock_mono();
    double phase = 0;
    while (st) {
        bool discovering = fleet_poll_state_run(st, p->fill);
        bool unread;
        pthread_mutex_lock(&p->w.lock);
        p->fill = triple_put(&p->tb, p->fill, &unread);
        int fd = p->wake_fd;
        double niv = p->interval;
        pthread_mutex_unlock(&p->w.lock);
        char c = 1;
        if (fd >= 0 && write(fd, &c, 1) < 0 && errno != EAGAIN)
            DIAG(DIAG_DEBUG, "fleet: cannot wake the main loop");
        if (niv != iv) { /* a new interval: a new grid from now */
            iv = niv;
            epoch = clock_mono();
            fleet_poll_state_set_timeout(st, request_timeout(iv));
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
    if (worker_finish(&p->w)) /* abandoned: the thread frees */
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
    if (worker_init(&p->w) != 0) {
        free(p);
        return NULL;
    }
    p->url = strdup(url);
    p->interval = interval;
    p->wake_fd = wake_fd;
    p->fill = &p->buf[0];
    p->tb.slot = &p->buf[1];
    p->tb.held = &p->buf[2];
    if (!p->url || worker_start(&p->w, poll_main, p) != 0) {
        poll_free(p);
        return NULL;
    }
    return p;
}

const struct fleet_raw *fleet_poll_take(struct fleet_poll *p)
{
    return worker_take(&p->w, &p->tb);
}

void fleet_poll_set_interval(struct fleet_poll *p, double interval)
{
    pthread_mutex_lock(&p->w.lock);
    p->interval = interval;
    p->retime = true;
    pthread_cond_signal(&p->w.wake);
    pthread_mutex_unlock(&p->w.lock);
}

static void free_of(void *p)
{
    poll_free(p);
}

void fleet_poll_stop(struct fleet_poll *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->w.lock);
    p->wake_fd = -1;
    pthread_mutex_unlock(&p->w.lock);
    /* one stuck in a request is abandoned and frees itself */
    worker_stop(&p->w, free_of, p, STOP_WAIT_MS);
}
