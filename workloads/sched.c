/* Scheduler fairness: `tasks` child processes with the same fixed amount
 * of floating-point work, run one after another (j1), then all released at
 * once (jN). j1 gives each task's time alone; from those, the jN wall time
 * expected if the CPUs were shared perfectly (processor sharing over
 * min(tasks, CPUs) CPUs, or per CPU when pinned; calc.h). The figure is
 * the actual jN wall time over that expectation: 1.00 is perfect sharing,
 * above 1 is time lost to the scheduler (or stolen from the machine).
 * Jain's index is taken over the tasks' jN throughputs, work / wall time
 * from the common release: equal work means an unfairly served task is
 * one that finishes late, which CPU times (equal by construction) hide. */
#include "workloads/workload.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workloads/calc.h"
#include "workloads/meter.h"
#include "workloads/proc.h"
#include "workloads/spread.h"

enum { P_TASKS, P_WORK, P_PLACEMENT, P_CPU };

#define SCHED_MAX_TASKS 64
#define UNIT_ITERS      1000000L /* one unit of work: a million multiply-adds */
#define POLL_NS         5000000L /* how often the parent looks at its tasks */

/* One task, in memory shared with its process. */
struct task {
    _Atomic uint64_t done; /* units finished */
    double start, end;     /* CLOCK_MONOTONIC, written by the task */
    double user, sys;      /* from wait4, written by the parent */
    double sink;           /* the work's result, so none of it is dead */
    pid_t pid;
};

struct sched_run {
    struct wl_ctx *ctx;
    struct spread sp;
    int n;
    long work;
    struct task *t; /* n, MAP_SHARED */
    struct wl_meter m;
    bool together;                  /* jN: the tasks' shares are live */
    uint64_t base[SCHED_MAX_TASKS]; /* each task's units before jN */
};

/* A dependent chain of multiply-adds: no step can start before the last
 * one ends, so neither the compiler nor the CPU can shorten it. */
static double burn(double x)
{
    for (long i = 0; i < UNIT_ITERS; i++)
        x = x * 0.9999999 + 1e-7;
    return x;
}

static _Noreturn void task_main(struct sched_run *s, int k, const int *gate)
{
    struct task *t = &s->t[k];
    if (spread_pin(&s->sp, k) < 0)
        _exit(2);
    if (gate) { /* jN: wait until the parent releases everyone at once */
        char c;
        close(gate[1]);
        while (read(gate[0], &c, 1) < 0 && errno == EINTR)
            ;
    }
    t->start = wl_now();
    double x = 1.0 + k;
    for (long u = 0; u < s->work; u++) {
        if (wl_should_stop(s->ctx))
            _exit(1);
        x = burn(x);
        atomic_fetch_add_explicit(&t->done, 1, memory_order_relaxed);
    }
    t->sink = x;
    t->end = wl_now();
    _exit(0);
}

static uint64_t units_done(const struct sched_run *s)
{
    uint64_t sum = 0;
    for (int k = 0; k < s->n; k++)
        sum += atomic_load_explicit(&s->t[k].done, memory_order_relaxed);
    return sum;
}

/* While the tasks run together: the units each has done since they were
 * released, for their live shares (the first WL_MAX_LANES). */
static void publish_lanes(struct sched_run *s)
{
    struct wl_progress *p = s->ctx->progress;
    int n = s->n < WL_MAX_LANES ? s->n : WL_MAX_LANES;
    for (int k = 0; s->together && k < n; k++)
        atomic_store(&p->lane[k],
                     atomic_load_explicit(&s->t[k].done, memory_order_relaxed) -
                         s->base[k]);
    atomic_store(&p->nlanes, s->together ? n : 0);
}

static void kill_tasks(struct sched_run *s, int from, int to)
{
    for (int k = from; k < to; k++)
        if (s->t[k].pid > 0) {
            kill(s->t[k].pid, SIGKILL);
            waitpid(s->t[k].pid, NULL, 0);
            s->t[k].pid = 0;
        }
}

/* Reaps tasks from..to-1, publishing progress meanwhile. 0 when all ended
 * well, 1 when a stop was asked for (tasks killed), -1 on failure. */
static int wait_tasks(struct sched_run *s, int from, int to)
{
    int left = to - from;
    const struct timespec poll = {0, POLL_NS};
    while (left > 0) {
        if (wl_should_stop(s->ctx)) {
            kill_tasks(s, from, to);
            return 1;
        }
        for (int k = from; k < to; k++) {
            struct task *t = &s->t[k];
            int st;
            struct rusage ru;
            if (t->pid <= 0)
                continue;
            pid_t got = wait4(t->pid, &st, WNOHANG, &ru);
            if (got == 0 || (got < 0 && errno == EINTR))
                continue;
            if (got < 0) {
                t->pid = 0;
                kill_tasks(s, from, to);
                return -1;
            }
            t->pid = 0;
            left--;
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
                kill_tasks(s, from, to);
                return wl_should_stop(s->ctx) ? 1 : -1;
            }
            t->user = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
            t->sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
        }
        wl_meter_publish(&s->m, s->ctx->progress, units_done(s));
        publish_lanes(s);
        if (left > 0)
            nanosleep(&poll, NULL);
    }
    return 0;
}

static int start_task(struct sched_run *s, int k, const int *gate)
{
    pid_t pid = wl_fork();
    if (pid == 0)
        task_main(s, k, gate);
    s->t[k].pid = pid;
    return pid < 0 ? -1 : 0;
}

/* j1: each task alone; fills wall[k] with its own start-to-end time. */
static int run_serial(struct sched_run *s, double *wall)
{
    for (int k = 0; k < s->n; k++) {
        if (start_task(s, k, NULL) < 0)
            return -1;
        int rc = wait_tasks(s, k, k + 1);
        if (rc != 0)
            return rc;
        wall[k] = s->t[k].end - s->t[k].start;
    }
    return 0;
}

/* jN: all tasks released together; wall[k] runs from the release to the
 * task's end. */
static int run_parallel(struct sched_run *s, double *wall)
{
    int gate[2];
    if (pipe(gate) < 0)
        return -1;
    int rc = 0;
    for (int k = 0; k < s->n; k++)
        s->base[k] = atomic_load(&s->t[k].done);
    s->together = true;
    for (int k = 0; k < s->n && rc == 0; k++)
        rc = start_task(s, k, gate);
    close(gate[0]);
    double t0 = wl_now();
    close(gate[1]); /* end of file for every task: go */
    if (rc < 0) {
        kill_tasks(s, 0, s->n);
        return -1;
    }
    rc = wait_tasks(s, 0, s->n);
    for (int k = 0; rc == 0 && k < s->n; k++)
        wall[k] = s->t[k].end - t0;
    return rc;
}

/* The perfect-sharing wall time for tasks needing alone[k] seconds each:
 * over the shared CPUs, or, when pinned, CPU by CPU (the slowest wins). */
static double expected_wall(const struct sched_run *s, const double *alone)
{
    if (s->sp.kind == WL_PLACE_ANY)
        return calc_shared_wall(alone, (size_t)s->n, spread_width(&s->sp));
    double worst = 0, group[SCHED_MAX_TASKS];
    for (int k = 0; k < s->n; k++) {
        size_t g = 0;
        for (int j = 0; j < s->n; j++)
            if (spread_cpu(&s->sp, j) == spread_cpu(&s->sp, k))
                group[g++] = alone[j];
        worst = fmax(worst, calc_shared_wall(group, g, 1));
    }
    return worst;
}

static void extra(struct wl_result *res, const char *name, const char *unit,
                  double v)
{
    if (res->nextra >= WL_MAX_EXTRA)
        return;
    struct wl_extra *x = &res->extra[res->nextra++];
    snprintf(x->name, sizeof(x->name), "%s", name);
    snprintf(x->unit, sizeof(x->unit), "%s", unit);
    x->value = v;
}

static void sched_report(const struct sched_run *s, const double *alone,
                         const double *user1, const double *wall,
                         struct wl_result *res)
{
    double thr[SCHED_MAX_TASKS], sum1 = 0, usum1 = 0, usum = 0, span = 0;
    for (int k = 0; k < s->n; k++) {
        thr[k] = (double)s->work / wall[k];
        sum1 += alone[k];
        usum1 += user1[k];
        usum += s->t[k].user;
        span = fmax(span, wall[k]);
    }
    double expect = expected_wall(s, alone);
    res->figure = span / expect;
    extra(res, "cpus shared", "", spread_width(&s->sp));
    extra(res, "j1 wall total", "s", sum1);
    extra(res, "j1 user total", "s", usum1);
    extra(res, "jN wall expected", "s", expect);
    extra(res, "jN wall actual", "s", span);
    extra(res, "jN user total", "s", usum);
    extra(res, "jain index (throughput)", "", calc_jain(thr, (size_t)s->n));
    for (int k = 0; k < s->n && res->nextra + 2 <= WL_MAX_EXTRA; k++) {
        char name[32];
        snprintf(name, sizeof(name), "task %d jN wall", k + 1);
        extra(res, name, "s", wall[k]);
        snprintf(name, sizeof(name), "task %d jN user", k + 1);
        extra(res, name, "s", s->t[k].user);
    }
}

static int sched_run(struct wl_ctx *ctx, struct wl_result *res)
{
    struct sched_run s = {.ctx = ctx,
                          .n = (int)ctx->param[P_TASKS],
                          .work = (long)ctx->param[P_WORK]};
    if (spread_init(&s.sp, ctx, P_PLACEMENT, "sched") < 0)
        return -1;
    size_t len = (size_t)s.n * sizeof(*s.t);
    s.t = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
               -1, 0);
    if (s.t == MAP_FAILED)
        return -1;
    double alone[SCHED_MAX_TASKS], user1[SCHED_MAX_TASKS];
    double wall[SCHED_MAX_TASKS];
    wl_meter_start(&s.m);
    int rc = run_serial(&s, alone);
    for (int k = 0; rc == 0 && k < s.n; k++)
        user1[k] = s.t[k].user; /* `done` counts on through jN */
    if (rc == 0)
        rc = run_parallel(&s, wall);
    if (rc == 0) {
        sched_report(&s, alone, user1, wall, res);
        res->ops = (uint64_t)s.n * 2 * (uint64_t)s.work;
    }
    munmap(s.t, len);
    return rc < 0 ? -1 : 0;
}

const struct workload wl_sched = {
    .name = "sched",
    .desc = "N CPU-bound tasks alone then together: jN wall over perfect "
            "sharing, Jain's index",
    .unit = "x",
    .better = WL_LOWER_IS_BETTER,
    .params =
        {
            {"tasks", "number of CPU-bound tasks", 3, 1, SCHED_MAX_TASKS, true},
            {"work", "work per task, in millions of multiply-adds", 40, 1,
             1000000, true},
            SPREAD_PARAM_PLACEMENT,
            SPREAD_PARAM_CPU,
        },
    .run = sched_run,
};
