/* Wake-up latency, schbench's method (Chris Mason's schbench, 2016,
 * git.kernel.org/pub/scm/linux/kernel/git/mason/schbench.git: message
 * threads, each with its own workers; a worker that has done its work
 * posts itself to its message thread and sleeps on a futex; the message
 * thread stamps the time and wakes it; the worker, once running, records
 * now minus that stamp: the scheduler's wake-up latency). Each worker does
 * a fixed amount of work per wake-up (schbench's cputime: a spin on the
 * clock). Stamps and latencies are on CLOCK_MONOTONIC. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workloads/lat_common.h"
#include "workloads/meter.h"
#include "workloads/spread.h"
#include "workloads/workload.h"

enum { P_MESSAGES, P_WORKERS, P_WORK, P_PLACEMENT, P_CPU };

#define WU_MAX_MSG     16
#define WU_MAX_WORKERS 64 /* per message thread */
#define PUBLISH_NS     50000000L
#define WAIT_NS        100000000L /* a futex wait's longest: stops are seen */

enum { BLOCKED = 0, RUNNABLE = 1 };

struct wu_worker {
    struct wu_msg *msg;
    _Atomic uint32_t state;  /* futex: BLOCKED until the message thread */
    _Atomic int posted;      /* waiting for its message thread */
    _Atomic int64_t wake_ns; /* when the message thread woke it */
    _Atomic uint64_t done;
    struct lat_hist h;
    int index; /* among all threads, for placement */
    pthread_t tid;
};

struct wu_msg {
    struct wu_run *run;
    _Atomic uint32_t seq; /* futex: a worker posted */
    int nworkers;
    struct wu_worker *w;
    int index;
    pthread_t tid;
};

struct wu_run {
    struct wl_ctx *ctx;
    struct spread sp;
    int64_t work_ns;
    int64_t end_ns; /* 0: count */
    uint64_t quota; /* wakes per worker when counting */
    _Atomic int stop;
    struct wu_msg msg[WU_MAX_MSG];
    struct wu_worker worker[WU_MAX_MSG][WU_MAX_WORKERS];
};

static void futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
    struct timespec ts = {0, WAIT_NS};
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr)
{
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
            NULL, 0);
}

static bool stopping(struct wu_run *r)
{
    return atomic_load_explicit(&r->stop, memory_order_relaxed) ||
           wl_should_stop(r->ctx);
}

/* A worker: post, sleep until woken, stamp the latency, work; again. */
static void *worker_main(void *arg)
{
    struct wu_worker *w = arg;
    struct wu_msg *m = w->msg;
    struct wu_run *r = m->run;
    spread_pin(&r->sp, w->index);
    while (!stopping(r)) {
        atomic_store(&w->state, BLOCKED);
        atomic_store(&w->posted, 1);
        atomic_fetch_add(&m->seq, 1);
        futex_wake(&m->seq);
        while (atomic_load(&w->state) == BLOCKED && !stopping(r))
            futex_wait(&w->state, BLOCKED);
        int64_t now = lat_now_ns();
        if (atomic_load(&w->state) == BLOCKED)
            break; /* a stop, not a wake */
        lat_hist_add(&w->h, (double)(now - atomic_load(&w->wake_ns)));
        uint64_t d = atomic_fetch_add(&w->done, 1) + 1;
        if ((r->end_ns && now >= r->end_ns) || (!r->end_ns && d >= r->quota))
            atomic_store(&r->stop, 1);
        lat_spin(r->work_ns);
    }
    return NULL;
}

/* A message thread: wake every worker that has posted, stamping each. */
static void *msg_main(void *arg)
{
    struct wu_msg *m = arg;
    struct wu_run *r = m->run;
    spread_pin(&r->sp, m->index);
    while (!stopping(r)) {
        uint32_t seq = atomic_load(&m->seq);
        bool woke = false;
        for (int i = 0; i < m->nworkers; i++) {
            struct wu_worker *w = &m->w[i];
            if (!atomic_exchange(&w->posted, 0))
                continue;
            atomic_store(&w->wake_ns, lat_now_ns());
            atomic_store(&w->state, RUNNABLE);
            futex_wake(&w->state);
            woke = true;
        }
        if (!woke)
            futex_wait(&m->seq, seq);
    }
    for (int i = 0; i < m->nworkers; i++) /* let them see the stop */
        futex_wake(&m->w[i].state);
    return NULL;
}

static uint64_t total_done(struct wu_run *r, int nm, int nw)
{
    uint64_t sum = 0;
    for (int i = 0; i < nm; i++)
        for (int k = 0; k < nw; k++)
            sum += atomic_load_explicit(&r->worker[i][k].done,
                                        memory_order_relaxed);
    return sum;
}

/* Starts message thread i and its workers; false when one fails. */
static bool start_group(struct wu_run *r, int i, int nw)
{
    struct wu_msg *m = &r->msg[i];
    *m = (struct wu_msg){
        .run = r, .nworkers = nw, .w = r->worker[i], .index = i * (nw + 1)};
    for (int k = 0; k < nw; k++)
        r->worker[i][k] =
            (struct wu_worker){.msg = m, .index = i * (nw + 1) + k + 1};
    if (pthread_create(&m->tid, NULL, msg_main, m) != 0)
        return false;
    /* named, so that a tracer (perf sched, bench/wakeup_ref.sh) tells the
     * workers' wake-ups from the rest */
    pthread_setname_np(m->tid, "wakeup-msg");
    for (int k = 0; k < nw; k++) {
        if (pthread_create(&r->worker[i][k].tid, NULL, worker_main,
                           &r->worker[i][k]) != 0)
            return false;
        pthread_setname_np(r->worker[i][k].tid, "wakeup-worker");
    }
    return true;
}

static void join_all(struct wu_run *r, int nm, int nw)
{
    for (int i = 0; i < nm; i++) {
        for (int k = 0; k < nw; k++)
            if (r->worker[i][k].tid)
                pthread_join(r->worker[i][k].tid, NULL);
        if (r->msg[i].tid)
            pthread_join(r->msg[i].tid, NULL);
    }
}

static int wu_run(struct wl_ctx *ctx, struct wl_result *res)
{
    static struct wu_run r; /* one run per process: the runner's child */
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    int nm = (int)ctx->param[P_MESSAGES], nw = (int)ctx->param[P_WORKERS];
    r.work_ns = (int64_t)ctx->param[P_WORK] * 1000;
    if (spread_init(&r.sp, ctx, P_PLACEMENT, "wakeup-lat") < 0)
        return -1;
    if (ctx->count > 0)
        r.quota = (ctx->count + (uint64_t)(nm * nw) - 1) / (uint64_t)(nm * nw);
    else
        r.end_ns = lat_now_ns() + (int64_t)(ctx->duration * 1e9);
    struct wl_meter m;
    wl_meter_start(&m);
    bool ok = true;
    for (int i = 0; i < nm && ok; i++)
        ok = start_group(&r, i, nw);
    const struct timespec pause = {0, PUBLISH_NS};
    while (ok && !stopping(&r)) {
        wl_meter_publish(&m, ctx->progress, total_done(&r, nm, nw));
        nanosleep(&pause, NULL);
    }
    atomic_store(&r.stop, 1);
    for (int i = 0; i < nm; i++) {
        futex_wake(&r.msg[i].seq);
        for (int k = 0; k < nw; k++)
            futex_wake(&r.worker[i][k].state);
    }
    join_all(&r, nm, nw);
    if (!ok) {
        fprintf(stderr, "wakeup-lat: cannot start its threads\n");
        return -1;
    }
    struct lat_hist all = {0};
    for (int i = 0; i < nm; i++)
        for (int k = 0; k < nw; k++)
            lat_hist_merge(&all, &r.worker[i][k].h);
    wl_meter_publish(&m, ctx->progress, all.n);
    lat_result(res, &all);
    res->placement = r.sp.kind;
    return 0;
}

static double wu_figure(const struct wl_ctx *ctx, uint64_t ops, double secs)
{
    (void)ctx, (void)ops, (void)secs;
    return NAN;
}

const struct workload wl_wakeup_lat = {
    .name = "wakeup-lat",
    .desc = "wake-up latency (schbench's method): message threads wake "
            "workers that work; figure p99",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params =
        {
            {"messages", "message threads", 1, 1, WU_MAX_MSG, true},
            {"workers", "workers per message thread", 2, 1, WU_MAX_WORKERS,
             true},
            {"work", "us of work (a spin) per wake-up", 100, 0, 100000, true},
            SPREAD_PARAM_PLACEMENT,
            SPREAD_PARAM_CPU,
        },
    .run = wu_run,
    .figure = wu_figure,
};
