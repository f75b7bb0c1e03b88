/* Timer latency, cyclictest's method (rt-tests, Thomas Gleixner's
 * cyclictest.c: timerthread): N threads each wake on an absolute
 * clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) every interval; the
 * latency of a wake is the time read on waking minus the time asked for.
 * Like cyclictest, a thread that overslept whole periods skips them
 * (counted as overruns) instead of firing at once to catch up. Optional:
 * SCHED_FIFO at a priority and mlockall, where the system permits (where
 * not, the run goes on and its extras say what it got), and CPU hogs
 * beside it. Every thread has its own histogram, merged at the end. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "workloads/lat_common.h"
#include "workloads/meter.h"
#include "workloads/spread.h"
#include "workloads/workload.h"

enum { P_THREADS, P_INTERVAL, P_PRIO, P_MLOCK, P_HOGS, P_PLACEMENT, P_CPU };

#define TL_MAX_THREADS 64
#define PUBLISH_NS     50000000L /* how often the main thread publishes */

struct tl_thread {
    struct tl_run *run;
    int index;
    struct lat_hist h;
    _Atomic uint64_t done;
    uint64_t overruns;
    int prio_got; /* the SCHED_FIFO priority it runs at; 0: none */
    int error;    /* errno of a failed sleep or pin, 0 */
    pthread_t tid;
};

struct tl_run {
    struct wl_ctx *ctx;
    struct spread sp;
    int64_t interval_ns;
    int prio;
    int64_t end_ns; /* CLOCK_MONOTONIC at which to end; 0: count */
    uint64_t quota; /* samples per thread when counting */
    struct tl_thread t[TL_MAX_THREADS];
};

static void set_fifo(struct tl_thread *t, int prio)
{
    struct sched_param sp = {.sched_priority = prio};
    if (prio > 0 && pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0)
        t->prio_got = prio;
}

static bool thread_done(const struct tl_run *r, const struct tl_thread *t,
                        int64_t now)
{
    if (wl_should_stop(r->ctx))
        return true;
    if (r->end_ns)
        return now >= r->end_ns;
    return atomic_load_explicit(&t->done, memory_order_relaxed) >= r->quota;
}

static void *tl_main(void *arg)
{
    struct tl_thread *t = arg;
    struct tl_run *r = t->run;
    if (spread_pin(&r->sp, t->index) < 0) {
        t->error = errno;
        return NULL;
    }
    set_fifo(t, r->prio);
    struct timespec next, now;
    clock_gettime(CLOCK_MONOTONIC, &next);
    int64_t want = lat_ns(&next) + r->interval_ns;
    for (;;) {
        next.tv_sec = (time_t)(want / 1000000000);
        next.tv_nsec = (long)(want % 1000000000);
        int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        if (rc != 0 && rc != EINTR) {
            t->error = rc;
            return NULL;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t got = lat_ns(&now);
        if (rc == 0) {
            lat_hist_add(&t->h, (double)(got - want));
            atomic_fetch_add_explicit(&t->done, 1, memory_order_relaxed);
        }
        if (thread_done(r, t, got))
            return NULL;
        if (rc == 0)
            want += r->interval_ns;
        while (want <= got) { /* cyclictest: no catching up */
            want += r->interval_ns;
            t->overruns++;
        }
    }
}

static uint64_t total_done(struct tl_run *r, int n)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += atomic_load_explicit(&r->t[i].done, memory_order_relaxed);
    return sum;
}

/* Joins the threads started, after a failure to start the next. */
static void join_rest(struct tl_run *r, int n)
{
    for (int i = 0; i < n; i++)
        if (r->t[i].tid)
            pthread_join(r->t[i].tid, NULL);
}

static int tl_measure(struct tl_run *r, int n, struct wl_result *res)
{
    struct wl_meter m;
    wl_meter_start(&m);
    int started = 0;
    for (; started < n; started++) {
        r->t[started] = (struct tl_thread){.run = r, .index = started};
        if (pthread_create(&r->t[started].tid, NULL, tl_main, &r->t[started]) !=
            0)
            break;
    }
    if (started < n) {
        atomic_store(&r->ctx->progress->stop, 1); /* end the ones started */
        join_rest(r, started);
        fprintf(stderr, "timer-lat: cannot start thread %d\n", started + 1);
        return -1;
    }
    /* a thread reaped by tryjoin is marked (tid 0), never joined twice */
    const struct timespec pause = {0, PUBLISH_NS};
    int left = n;
    while (left > 0) {
        wl_meter_publish(&m, r->ctx->progress, total_done(r, n));
        for (int i = 0; i < n; i++)
            if (r->t[i].tid && pthread_tryjoin_np(r->t[i].tid, NULL) == 0) {
                r->t[i].tid = 0;
                left--;
            }
        if (left > 0)
            nanosleep(&pause, NULL);
    }
    struct lat_hist all = {0};
    uint64_t overruns = 0;
    int prio_got = r->prio, err = 0;
    for (int i = 0; i < n; i++) {
        lat_hist_merge(&all, &r->t[i].h);
        overruns += r->t[i].overruns;
        if (r->t[i].prio_got < prio_got)
            prio_got = r->t[i].prio_got;
        if (r->t[i].error)
            err = r->t[i].error;
    }
    wl_meter_publish(&m, r->ctx->progress, all.n);
    if (err) {
        fprintf(stderr, "timer-lat: %s\n", strerror(err));
        return -1;
    }
    lat_result(res, &all);
    lat_add_extra(res, "overruns", "", (double)overruns);
    lat_add_extra(res, "fifo prio", "", prio_got);
    if (r->prio > 0 && prio_got < r->prio)
        fprintf(stderr,
                "timer-lat: SCHED_FIFO %d not permitted here; ran "
                "SCHED_OTHER\n",
                r->prio);
    return 0;
}

static int tl_run(struct wl_ctx *ctx, struct wl_result *res)
{
    static struct tl_run r; /* one run per process: the runner's child */
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    int n = (int)ctx->param[P_THREADS];
    r.interval_ns = (int64_t)ctx->param[P_INTERVAL] * 1000;
    r.prio = (int)ctx->param[P_PRIO];
    if (spread_init(&r.sp, ctx, P_PLACEMENT, "timer-lat") < 0)
        return -1;
    bool locked =
        ctx->param[P_MLOCK] != 0 && mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
    if (ctx->param[P_MLOCK] != 0 && !locked)
        fprintf(stderr, "timer-lat: mlockall not permitted here (%s)\n",
                strerror(errno));
    if (ctx->count > 0) {
        r.quota = (ctx->count + (uint64_t)n - 1) / (uint64_t)n;
    } else {
        r.end_ns = lat_now_ns() + (int64_t)(ctx->duration * 1e9);
    }
    struct lat_hogs hogs;
    if (lat_hogs_start(&hogs, (int)ctx->param[P_HOGS]) < 0) {
        fprintf(stderr, "timer-lat: cannot start the CPU hogs\n");
        return -1;
    }
    int rc = tl_measure(&r, n, res);
    lat_hogs_stop(&hogs);
    if (locked)
        munlockall();
    if (rc == 0) {
        lat_add_extra(res, "mlocked", "", locked);
        res->placement = r.sp.kind;
    }
    return rc;
}

/* No live figure: the percentiles come at the end of a repeat. */
static double tl_figure(const struct wl_ctx *ctx, uint64_t ops, double secs)
{
    (void)ctx, (void)ops, (void)secs;
    return NAN;
}

const struct workload wl_timer_lat = {
    .name = "timer-lat",
    .desc = "timer latency (cyclictest's method): wake late by, absolute "
            "sleeps every interval; figure p99",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params =
        {
            {"threads", "measuring threads", 1, 1, TL_MAX_THREADS, true},
            {"interval", "us between wakes of each thread", 1000, 50, 1000000,
             true},
            {"prio", "SCHED_FIFO priority, 0: SCHED_OTHER", 0, 0, 99, true},
            {"mlock", "1: mlockall (where permitted)", 0, 0, 1, true},
            {"hogs", "CPU-hog threads beside it", 0, 0, 64, true},
            SPREAD_PARAM_PLACEMENT,
            SPREAD_PARAM_CPU,
        },
    .run = tl_run,
    .figure = tl_figure,
};
