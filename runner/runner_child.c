/* The child side of a run: process hygiene, then the workload's setup,
 * warm-up and measured repeats, publishing progress into shared memory.
 * Step workloads are called in batches sized to take 5-20 ms each, so a
 * stop request is seen quickly and the timing overhead stays negligible. */
#include "runner/runner_child.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "runner/tmpdir.h"
#include "workloads/meter.h"
#include "workloads/proc.h"

#define BATCH_MIN_S      0.005
#define BATCH_TARGET_S   0.010
#define BATCH_MAX_S      0.020
#define BATCH_GROWTH_MAX 16.0

/* What the measured phase so far has cost. */
struct span {
    uint64_t ops;
    double wall, user, sys;
    double real0, real1; /* CLOCK_REALTIME at its start and end */
};

/* Records why the run failed; returns -1 for the caller to pass up. */
__attribute__((format(printf, 2, 3))) static int
fail(const struct wl_child_args *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->shared->error, sizeof a->shared->error, fmt, ap);
    va_end(ap);
    return -1;
}

static _Noreturn void exit_failed(const struct wl_child_args *a)
{
    atomic_store(&a->shared->progress.phase, WL_FAILED);
    _exit(1);
}

static bool stop_asked(const struct wl_child_args *a)
{
    return atomic_load_explicit(&a->shared->progress.stop,
                                memory_order_relaxed);
}

static void publish(struct wl_progress *p, const struct span *s)
{
    atomic_store_explicit(&p->wall, s->wall, memory_order_relaxed);
    atomic_store_explicit(&p->user, s->user, memory_order_relaxed);
    atomic_store_explicit(&p->sys, s->sys, memory_order_relaxed);
    atomic_store_explicit(&p->ops, s->ops, memory_order_release);
}

/* The next batch size: aim for BATCH_TARGET_S, grow at most 16x at a time
 * (a first op can be unusually fast or slow), and do not run far past the
 * deadline. */
static uint64_t next_batch(uint64_t n, double took, double left)
{
    double per_op = took / (double)n;
    double want = n;
    if (took < BATCH_MIN_S || took > BATCH_MAX_S)
        want = took > 0 ? n * (BATCH_TARGET_S / took) : n * BATCH_GROWTH_MAX;
    if (want > n * BATCH_GROWTH_MAX)
        want = n * BATCH_GROWTH_MAX;
    if (left > 0 && per_op > 0 && want * per_op > left)
        want = ceil(left / per_op);
    return want < 1 ? 1 : want > 1e15 ? (uint64_t)1e15 : (uint64_t)want;
}

/* The run's CPU seconds: this process, its reaped children, and what its
 * live helper reports. */
static void run_cpu_times(const struct wl_ctx *ctx, double *user, double *sys)
{
    wl_cpu_times(user, sys);
    *user += ctx->helper_user;
    *sys += ctx->helper_sys;
}

/* Calls step until `secs` have passed or `count` ops are done (count > 0).
 * Publishes progress when `measured`. 0 when complete, 1 when a stop was
 * asked for, -1 when step failed. */
static int run_steps(const struct wl_child_args *a, struct wl_ctx *ctx,
                     double secs, uint64_t count, bool measured,
                     struct span *out)
{
    *out = (struct span){.real0 = wl_realtime()};
    double t0 = wl_now(), u0, s0;
    if (measured)
        atomic_store(&a->shared->repeat_t0, out->real0);
    run_cpu_times(ctx, &u0, &s0);
    uint64_t n = 1;
    for (;;) {
        if (stop_asked(a))
            return 1;
        if (count && n > count - out->ops)
            n = count - out->ops;
        double b0 = wl_now();
        if (a->w->step(ctx, n) < 0)
            return -1;
        double t = wl_now();
        out->ops += n;
        out->wall = t - t0;
        out->real1 = wl_realtime();
        if (measured) {
            double u, s;
            run_cpu_times(ctx, &u, &s);
            out->user = u - u0;
            out->sys = s - s0;
            publish(ctx->progress, out);
        }
        if (count ? out->ops >= count : out->wall >= secs)
            return 0;
        n = next_batch(n, t - b0, count ? 0 : secs - out->wall);
    }
}

static int param_index(const struct workload *w, const char *name)
{
    for (int i = 0; i < WL_MAX_PARAMS && w->params[i].name; i++)
        if (strcmp(w->params[i].name, name) == 0)
            return i;
    return -1;
}

/* The placement to report unless the workload says otherwise. */
static int default_placement(const struct wl_child_args *a)
{
    int i = param_index(a->w, "placement");
    if (i >= 0)
        return (int)a->param[i];
    return a->opt->cpu >= 0 ? WL_PLACE_SAME : WL_PLACE_ANY;
}

static void reset_progress(struct wl_progress *p, enum wl_phase phase)
{
    publish(p, &(struct span){0});
    atomic_store(&p->phase, phase);
}

static void add_result(const struct wl_child_args *a, int i,
                       const struct wl_result *res)
{
    a->shared->result[i] = *res;
    atomic_store_explicit(&a->shared->nresults, i + 1, memory_order_release);
}

/* Step workloads: warm-up once, then one measured span per repeat.
 * 0 when done or stopped, -1 on failure. */
static int run_step_workload(const struct wl_child_args *a, struct wl_ctx *ctx)
{
    struct span s;
    const struct wl_run_opts *o = a->opt;
    if (o->warmup > 0) {
        reset_progress(ctx->progress, WL_WARMUP);
        int rc = run_steps(a, ctx, o->warmup, 0, false, &s);
        if (rc < 0)
            return fail(a, "%s: step failed during warm-up", a->w->name);
        if (rc > 0)
            return 0;
    }
    for (int i = 0; i < o->repeats; i++) {
        atomic_store(&a->shared->repeat, i);
        reset_progress(ctx->progress, WL_MEASURING);
        int rc = run_steps(a, ctx, o->duration, o->count, true, &s);
        if (rc < 0)
            return fail(a, "%s: step failed", a->w->name);
        if (rc > 0)
            return 0; /* a stopped repeat is incomplete: dropped */
        struct wl_result res = {
            .figure = runner_figure(a->w, ctx, s.ops, s.wall),
            .ops = s.ops,
            .wall = s.wall,
            .user = s.user,
            .sys = s.sys,
            .t_start = s.real0,
            .t_end = s.real1,
            .placement = default_placement(a),
        };
        add_result(a, i, &res);
    }
    return 0;
}

/* Composite workloads measure themselves; the runner times the call too
 * and fills in what the workload left empty. 0 or -1 as above. */
static int run_composite(const struct wl_child_args *a, struct wl_ctx *ctx)
{
    for (int i = 0; i < a->opt->repeats; i++) {
        atomic_store(&a->shared->repeat, i);
        reset_progress(ctx->progress, WL_MEASURING);
        struct wl_result res = {.placement = default_placement(a),
                                .figure = NAN};
        double real0 = wl_realtime();
        atomic_store(&a->shared->repeat_t0, real0);
        double t0 = wl_now(), u0, s0, u1, s1;
        wl_cpu_times(&u0, &s0);
        int rc = a->w->run(ctx, &res);
        double real1 = wl_realtime();
        if (stop_asked(a))
            return 0; /* incomplete, whatever it returned */
        if (rc < 0)
            return fail(a, "%s: run failed", a->w->name);
        wl_cpu_times(&u1, &s1);
        if (res.ops == 0)
            res.ops = atomic_load(&ctx->progress->ops);
        if (res.wall <= 0) {
            res.wall = wl_now() - t0;
            res.user = u1 - u0;
            res.sys = s1 - s0;
        }
        if (!isfinite(res.figure))
            return fail(a, "%s: run gave no figure", a->w->name);
        res.t_start = real0;
        res.t_end = real1;
        add_result(a, i, &res);
    }
    return 0;
}

/* stdin and stdout on /dev/null (never the terminal), stderr on err_fd,
 * every other descriptor closed. */
static void setup_fds(int err_fd)
{
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(err_fd >= 0 ? err_fd : null, 2);
    }
    if (close_range(3, ~0U, 0) < 0)
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
}

static int pin(const struct wl_child_args *a)
{
    if (a->opt->cpu < 0)
        return 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(a->opt->cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0)
        return fail(a, "cannot run on cpu %d: %s", a->opt->cpu,
                    strerror(errno));
    return 0;
}

_Noreturn void runner_child(const struct wl_child_args *a)
{
    setpgid(0, 0);
    proc_reset_signals();
    setup_fds(a->err_fd);
    /* before the parent's death can end us: whenever the run ends, its
     * directory goes */
    tmpdir_keep(a->dir);
    proc_die_with_parent(a->parent);
    if (pin(a) < 0)
        exit_failed(a);
    if (chdir(a->dir) < 0) {
        fail(a, "cannot enter %s: %s", a->dir, strerror(errno));
        exit_failed(a);
    }

    struct wl_ctx ctx = {
        .param = a->param,
        .dir = a->dir,
        .progress = &a->shared->progress,
        .duration = a->opt->count ? 0 : a->opt->duration,
        .count = a->opt->count,
    };
    if (a->w->setup && a->w->setup(&ctx) < 0) {
        fail(a, "%s: setup failed", a->w->name);
        exit_failed(a);
    }
    int rc = a->w->run ? run_composite(a, &ctx) : run_step_workload(a, &ctx);
    if (a->w->teardown)
        a->w->teardown(&ctx);
    if (rc < 0)
        exit_failed(a);
    atomic_store(&a->shared->progress.phase, WL_DONE);
    _exit(0);
}

double runner_figure(const struct workload *w, const struct wl_ctx *ctx,
                     uint64_t ops, double secs)
{
    if (ops == 0 || !(secs > 0))
        return NAN;
    if (w->figure)
        return w->figure(ctx, ops, secs);
    double scale = w->scale != 0 ? w->scale : 1;
    if (w->figure_kind == WF_OPS_PER_SEC)
        return ops / secs * scale;
    return secs / ops * scale;
}
