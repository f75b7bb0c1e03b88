/* The runner with test workloads: counts, durations, repeats, live
 * progress, stop escalation, crashes, failures with messages, CPU pinning,
 * concurrent runs, helpers that must die with the run, and the private
 * directory that must always go. Real processes, real signals. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/near.h"
#include "tests/stall.h"

#include "runner/runner.h"
#include "runner/tmpdir.h"
#include "workloads/proc.h"

static char tmp[256]; /* our private $TMPDIR */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Entries in our $TMPDIR: run directories left behind. */
static int tmp_entries(void)
{
    DIR *d = opendir(tmp);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* Live processes (not zombies) whose process group is pgid. */
static int group_size(pid_t pgid)
{
    DIR *d = opendir("/proc");
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        char *p = strrchr(buf, ')'), state;
        int ppid, pgrp;
        if (p && sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 &&
            pgrp == pgid && state != 'Z')
            n++;
    }
    closedir(d);
    return n;
}

/* group_size(pgid) once it has been n for 50 ms, or after 10 s: a loaded
 * machine (make asan while other tests ran) took over 2 s to start a
 * helper, and the run's keeper is forked through a short-lived process of
 * the group, which a single look can count as the helper. */
static int group_grown_to(pid_t pgid, int n)
{
    int steady = 0;
    for (int i = 0; i < 1000 && steady < 5; i++) {
        steady = group_size(pgid) == n ? steady + 1 : 0;
        sleep_ms(10);
    }
    return group_size(pgid);
}

static bool group_gone_within(pid_t pgid, int ms)
{
    for (int i = 0; i < ms / 10; i++, sleep_ms(10))
        if (group_size(pgid) == 0)
            return true;
    return group_size(pgid) == 0;
}

/* ---- test workloads ---- */

/* counts calls into ctx->state-less shared memory: ops are all we need */
static int count_step(struct wl_ctx *ctx, uint64_t n)
{
    (void)ctx;
    volatile uint64_t sink = 0;
    for (uint64_t i = 0; i < n; i++)
        sink += i;
    return 0;
}

static const struct workload w_count = {
    .name = "t-count",
    .unit = "ns",
    .step = count_step,
    .figure_kind = WF_TIME_PER_OP,
    .scale = 1e9,
};

static int ms_step(struct wl_ctx *ctx, uint64_t n)
{
    (void)ctx;
    while (n-- > 0)
        sleep_ms(1);
    return 0;
}

static const struct workload w_ms = {
    .name = "t-ms",
    .unit = "ops/s",
    .better = WL_HIGHER_IS_BETTER,
    .step = ms_step,
    .figure_kind = WF_OPS_PER_SEC,
    .scale = 1,
};

/* ignores stop, SIGTERM too: only SIGKILL ends it */
static int stubborn_step(struct wl_ctx *ctx, uint64_t n)
{
    (void)ctx, (void)n;
    signal(SIGTERM, SIG_IGN);
    for (;;)
        pause();
    return 0;
}

static const struct workload w_stubborn = {
    .name = "t-stubborn", .unit = "ns", .step = stubborn_step, .scale = 1e9};

static int crash_step(struct wl_ctx *ctx, uint64_t n)
{
    (void)ctx, (void)n;
    raise(SIGSEGV);
    return 0;
}

static const struct workload w_crash = {
    .name = "t-crash", .unit = "ns", .step = crash_step, .scale = 1e9};

static int failing_step(struct wl_ctx *ctx, uint64_t n)
{
    (void)ctx, (void)n;
    fprintf(stderr, "first line\nboom: no such widget\n");
    return -1;
}

static const struct workload w_failing = {
    .name = "t-failing", .unit = "ns", .step = failing_step, .scale = 1e9};

static int failing_setup(struct wl_ctx *ctx)
{
    (void)ctx;
    fprintf(stderr, "cannot open the frobnicator\n");
    return -1;
}

static const struct workload w_nosetup = {.name = "t-nosetup",
                                          .unit = "ns",
                                          .setup = failing_setup,
                                          .step = count_step,
                                          .scale = 1e9};

/* the CPU test_cpu_pinning pins its run to: the first this process may
 * use (CPU 0 need not be one) */
static int pin_cpu = -1;

/* must always run on the CPU the run was pinned to */
static int cpu_step(struct wl_ctx *ctx, uint64_t n)
{
    (void)ctx;
    while (n-- > 0)
        if (sched_getcpu() != pin_cpu)
            return -1;
    return 0;
}

static const struct workload w_cpu = {
    .name = "t-cpu", .unit = "ns", .step = cpu_step, .scale = 1e9};

/* uses its directory: a file must be creatable and the dir private */
static int dir_setup(struct wl_ctx *ctx)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/data", ctx->dir);
    FILE *f = fopen(path, "w");
    if (!f || strncmp(ctx->dir, tmp, strlen(tmp)) != 0)
        return -1;
    fputs("x", f);
    return fclose(f);
}

static const struct workload w_dir = {.name = "t-dir",
                                      .unit = "ns",
                                      .setup = dir_setup,
                                      .step = ms_step,
                                      .scale = 1e9};

/* a composite that measures itself and reports extras */
static int composite_run(struct wl_ctx *ctx, struct wl_result *res)
{
    if (ctx->duration != 0 || ctx->count != 7)
        return -1; /* the run's mode must reach the workload */
    for (int i = 0; i < 7 && !wl_should_stop(ctx); i++) {
        sleep_ms(2);
        atomic_store(&ctx->progress->ops, i + 1);
    }
    res->figure = 3.5;
    res->nextra = 1;
    snprintf(res->extra[0].name, sizeof res->extra[0].name, "half");
    snprintf(res->extra[0].unit, sizeof res->extra[0].unit, "x");
    res->extra[0].value = ctx->param[0] / 2;
    return 0;
}

static const struct workload w_composite = {
    .name = "t-composite",
    .unit = "x",
    .params = {{"k", "", 10, 0, 100, true}},
    .run = composite_run,
};

static int nofig_run(struct wl_ctx *ctx, struct wl_result *res)
{
    (void)ctx, (void)res;
    return 0;
}

static const struct workload w_nofig = {
    .name = "t-nofig", .unit = "x", .run = nofig_run};

/* starts a helper that would sleep forever, then waits to be stopped */
static int helper_run(struct wl_ctx *ctx, struct wl_result *res)
{
    pid_t pid = wl_fork();
    if (pid == 0) {
        signal(SIGTERM, SIG_IGN); /* only death of its parent ends it */
        for (;;)
            pause();
    }
    while (!wl_should_stop(ctx))
        sleep_ms(5);
    res->figure = 1;
    return 0;
}

static const struct workload w_helper = {
    .name = "t-helper", .unit = "x", .run = helper_run};

/* ---- helpers ---- */

static struct wl_run_opts opts(double duration, uint64_t count, int repeats)
{
    struct wl_run_opts o;
    wl_run_opts_default(&o);
    o.duration = duration;
    o.count = count;
    o.repeats = repeats;
    o.warmup = 0;
    return o;
}

static struct wl_run *start(const struct workload *w,
                            const struct wl_run_opts *o)
{
    char err[256];
    struct wl_run *r = wl_run_start(w, NULL, o, err, sizeof err);
    if (!r)
        fail_msg("%s: %s", w->name, err);
    return r;
}

/* ---- tests ---- */

static void test_count_mode_exact(void **state)
{
    (void)state;
    struct wl_run_opts o = opts(0, 123457, 3);
    struct wl_run *r = start(&w_count, &o);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_DONE);
    assert_int_equal(wl_run_nresults(r), 3);
    for (int i = 0; i < 3; i++) {
        const struct wl_result *res = wl_run_result(r, i);
        assert_int_equal(res->ops, 123457);
        assert_true(res->wall > 0);
        assert_near(res->figure, res->wall / res->ops * 1e9,
                    res->figure * 1e-9);
        assert_int_equal(res->placement, WL_PLACE_ANY);
    }
    assert_null(wl_run_result(r, 3));
    assert_string_equal(wl_run_error(r), "");
    wl_run_free(r);
    assert_int_equal(tmp_entries(), 0);
}

static void test_duration_live_progress(void **state)
{
    (void)state;
    struct wl_run_opts o = opts(0.4, 0, 2);
    o.warmup = 0.15;
    double stall0 = stall_s();
    struct wl_run *r = start(&w_ms, &o);
    bool saw_warmup = false, saw_measuring = false;
    uint64_t last_ops = 0;
    struct wl_run_status st;
    while (!wl_run_state_final(wl_run_poll(r))) {
        wl_run_status(r, &st);
        saw_warmup |= st.phase == WL_WARMUP;
        if (st.phase == WL_MEASURING && st.repeat == 0 && st.ops > 0) {
            saw_measuring = true;
            assert_true(st.ops >= last_ops); /* monotonic within a repeat */
            last_ops = st.ops;
            assert_true(isfinite(st.figure) && st.figure > 0);
            assert_true(st.wall > 0);
            assert_prompt(st.wall, 0.425, stall0); /* see below */
        }
        sleep_ms(20);
    }
    assert_true(saw_warmup);
    assert_true(saw_measuring);
    assert_int_equal(wl_run_poll(r), WL_RUN_DONE);
    for (int i = 0; i < 2; i++) {
        const struct wl_result *res = wl_run_result(r, i);
        /* ends at the deadline, batches are kept short: < 25 ms late,
         * or later by what the machine stalled */
        assert_true(res->wall >= 0.4);
        assert_prompt(res->wall, 0.425, stall0);
        /* each operation sleeps 1 ms at least */
        assert_true(res->ops >= 1 && res->ops * 1e-3 <= res->wall);
        assert_near(res->figure, res->ops / res->wall, 1e-6);
        assert_true(res->user + res->sys < res->wall); /* it sleeps */
    }
    wl_run_status(r, &st);
    assert_int_equal(st.nresults, 2);
    wl_run_free(r);
}

/* A cooperative workload ends on the flag alone, well within 100 ms (or
 * later by what the machine stalled). */
static void test_stop_cooperative(void **state)
{
    (void)state;
    struct wl_run_opts o = opts(60, 0, 5);
    struct wl_run *r = start(&w_dir, &o);
    sleep_ms(300);
    double t0 = now(), stall0 = stall_s();
    wl_run_stop(r);
    assert_int_equal(wl_run_poll(r), WL_RUN_STOPPING);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_STOPPED);
    assert_prompt(now() - t0, 0.1, stall0);
    assert_int_equal(wl_run_nresults(r), 0); /* partial repeat dropped */
    assert_int_equal(tmp_entries(), 0);      /* directory gone at once */
    assert_int_equal(group_size(wl_run_pid(r)), 0);
    wl_run_free(r);
}

/* Whether process pid ignores SIGTERM (its SigIgn mask in /proc). */
static bool ignores_term(pid_t pid)
{
    char path[64], line[256];
    unsigned long long mask = 0;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "SigIgn: %llx", &mask) == 1)
            break;
    fclose(f);
    return mask & (1ULL << (SIGTERM - 1));
}

static void test_stop_escalates_to_sigkill(void **state)
{
    (void)state;
    struct wl_run_opts o = opts(60, 0, 1);
    struct wl_run *r = start(&w_stubborn, &o);
    /* in its step, SIGTERM ignored (100 ms was not always enough for a
     * sanitized child on a loaded machine: SIGTERM then ended it) */
    for (int i = 0; i < 1000 && !ignores_term(wl_run_pid(r)); i++)
        sleep_ms(10);
    assert_true(ignores_term(wl_run_pid(r)));
    double t0 = now(), stall0 = stall_s();
    wl_run_stop(r);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_STOPPED);
    double took = now() - t0;
    assert_true(took >= 0.2); /* TERM at 100, KILL at 200 */
    assert_prompt(took, 0.4, stall0);
    assert_int_equal(tmp_entries(), 0);
    wl_run_free(r);
}

static void test_cancel_flag(void **state)
{
    (void)state;
    struct wl_run_opts o = opts(60, 0, 1);
    struct wl_run *r = start(&w_ms, &o);
    static volatile sig_atomic_t cancel = 1;
    assert_int_equal(wl_run_wait(r, &cancel), WL_RUN_STOPPED);
    wl_run_free(r);
}

static void test_crash_is_a_failed_result(void **state)
{
    (void)state;
    struct wl_run_opts o = opts(1, 0, 1);
    struct wl_run *r = start(&w_crash, &o);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_FAILED);
    assert_non_null(strstr(wl_run_error(r), "t-crash: crashed: SIGSEGV"));
    assert_int_equal(tmp_entries(), 0);
    wl_run_free(r);
}

static void test_failure_reason_from_stderr(void **state)
{
    (void)state;
    struct wl_run_opts o = opts(1, 0, 1);
    struct wl_run *r = start(&w_failing, &o);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_FAILED);
    assert_string_equal(wl_run_error(r),
                        "t-failing: step failed: boom: no such widget");
    wl_run_free(r);
    r = start(&w_nosetup, &o);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_FAILED);
    assert_string_equal(wl_run_error(r), "t-nosetup: setup failed: cannot "
                                         "open the frobnicator");
    wl_run_free(r);
}

static void test_cpu_pinning(void **state)
{
    (void)state;
    cpu_set_t allowed;
    assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    for (pin_cpu = 0; !CPU_ISSET(pin_cpu, &allowed); pin_cpu++)
        assert_true(pin_cpu < CPU_SETSIZE - 1);
    struct wl_run_opts o = opts(0.1, 0, 1);
    o.cpu = pin_cpu;
    struct wl_run *r = start(&w_cpu, &o);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_DONE);
    assert_int_equal(wl_run_result(r, 0)->placement, WL_PLACE_SAME);
    wl_run_free(r);
    o.cpu = 4000;
    char err[256];
    assert_null(wl_run_start(&w_cpu, NULL, &o, err, sizeof err));
    assert_non_null(strstr(err, "cpu 4000 is not available"));
}

static void test_composite(void **state)
{
    (void)state;
    struct wl_run_opts o = opts(0, 7, 2);
    double param[WL_MAX_PARAMS] = {42};
    char err[256];
    struct wl_run *r = wl_run_start(&w_composite, param, &o, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_DONE);
    assert_int_equal(wl_run_nresults(r), 2);
    const struct wl_result *res = wl_run_result(r, 1);
    assert_near(res->figure, 3.5, 0);
    assert_int_equal(res->ops, 7);   /* taken from progress */
    assert_true(res->wall >= 0.014); /* timed by the runner */
    assert_int_equal(res->nextra, 1);
    assert_string_equal(res->extra[0].name, "half");
    assert_near(res->extra[0].value, 21, 0);
    wl_run_free(r);

    r = start(&w_nofig, &o);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_FAILED);
    assert_non_null(strstr(wl_run_error(r), "gave no figure"));
    wl_run_free(r);
}

static void test_bad_options_and_params(void **state)
{
    (void)state;
    char err[256];
    struct wl_run_opts o = opts(1, 0, 0);
    assert_null(wl_run_start(&w_count, NULL, &o, err, sizeof err));
    assert_non_null(strstr(err, "repeats"));
    o = opts(0, 0, 1);
    assert_null(wl_run_start(&w_count, NULL, &o, err, sizeof err));
    assert_non_null(strstr(err, "duration"));
    o = opts(1, 0, 1);
    double param[WL_MAX_PARAMS] = {101};
    assert_null(wl_run_start(&w_composite, param, &o, err, sizeof err));
    assert_non_null(strstr(err, "k=101 is out of range"));
    assert_int_equal(tmp_entries(), 0);
}

/* Several runs live at once do not mix their progress or results. */
static void test_concurrent_runs(void **state)
{
    (void)state;
    struct wl_run_opts a = opts(0, 1000, 1), b = opts(0, 5000, 2);
    struct wl_run *ra = start(&w_count, &a), *rb = start(&w_count, &b),
                  *rc = start(&w_ms, &(struct wl_run_opts){.duration = 0.2,
                                                           .repeats = 1,
                                                           .cpu = -1});
    assert_int_equal(tmp_entries(), 3);
    assert_int_equal(wl_run_wait(rc, NULL), WL_RUN_DONE);
    assert_int_equal(wl_run_wait(rb, NULL), WL_RUN_DONE);
    assert_int_equal(wl_run_wait(ra, NULL), WL_RUN_DONE);
    assert_int_equal(wl_run_result(ra, 0)->ops, 1000);
    assert_int_equal(wl_run_result(rb, 1)->ops, 5000);
    assert_true(wl_run_result(rc, 0)->wall >= 0.2);
    wl_run_free(ra);
    wl_run_free(rb);
    wl_run_free(rc);
    assert_int_equal(tmp_entries(), 0);
}

/* Stopping a run takes its helpers down with it. */
static void test_helpers_die_with_the_run(void **state)
{
    (void)state;
    struct wl_run_opts o = opts(60, 0, 1);
    struct wl_run *r = start(&w_helper, &o);
    pid_t pgid = wl_run_pid(r);
    assert_int_equal(group_grown_to(pgid, 2), 2); /* run + helper */
    wl_run_stop(r);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_STOPPED);
    assert_true(group_gone_within(pgid, 1000));
    wl_run_free(r);
}

/* A parent killed with SIGKILL takes its run and the run's helpers with
 * it (PR_SET_PDEATHSIG), and the run's directory goes with them (its
 * keeper, tmpdir_keep), without waiting for a next run's sweep. */
static void test_parent_sigkill(void **state)
{
    (void)state;
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t parent = fork();
    if (parent == 0) {
        struct wl_run_opts o = opts(60, 0, 1);
        char err[256];
        struct wl_run *r = wl_run_start(&w_helper, NULL, &o, err, sizeof err);
        pid_t pgid = r ? wl_run_pid(r) : -1;
        if (write(fd[1], &pgid, sizeof pgid) != sizeof pgid)
            _exit(1);
        for (;;)
            pause();
    }
    pid_t pgid;
    assert_int_equal(read(fd[0], &pgid, sizeof pgid), sizeof pgid);
    assert_true(pgid > 0);
    assert_int_equal(group_grown_to(pgid, 2), 2); /* run + helper */
    assert_int_equal(tmp_entries(), 1);
    kill(parent, SIGKILL);
    waitpid(parent, NULL, 0);
    assert_true(group_gone_within(pgid, 2000));
    for (int i = 0; i < 200 && tmp_entries() > 0; i++)
        sleep_ms(10);
    assert_int_equal(tmp_entries(), 0);
    close(fd[0]);
    close(fd[1]);
}

static void test_sweep_spares_live_dirs(void **state)
{
    (void)state;
    char err[256], stale[512];
    struct tmpdir live;
    assert_int_equal(tmpdir_create(&live, err, sizeof err), 0);
    snprintf(stale, sizeof stale, "%s/" TMPDIR_PREFIX "stale", tmp);
    assert_int_equal(mkdir(stale, 0700), 0);
    snprintf(stale + strlen(stale), sizeof stale - strlen(stale), "/f");
    fclose(fopen(stale, "w"));
    assert_int_equal(tmpdir_sweep(), 1);
    assert_int_equal(tmp_entries(), 1);
    struct stat sb;
    assert_int_equal(stat(live.path, &sb), 0);
    tmpdir_remove(&live);
    assert_int_equal(tmp_entries(), 0);
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(tmp, sizeof tmp, "/tmp/parallax-test-runner.XXXXXX");
    if (!mkdtemp(tmp))
        return -1;
    setenv("TMPDIR", tmp, 1);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    return rmdir(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_mode_exact),
        cmocka_unit_test(test_duration_live_progress),
        cmocka_unit_test(test_stop_cooperative),
        cmocka_unit_test(test_stop_escalates_to_sigkill),
        cmocka_unit_test(test_cancel_flag),
        cmocka_unit_test(test_crash_is_a_failed_result),
        cmocka_unit_test(test_failure_reason_from_stderr),
        cmocka_unit_test(test_cpu_pinning),
        cmocka_unit_test(test_composite),
        cmocka_unit_test(test_bad_options_and_params),
        cmocka_unit_test(test_concurrent_runs),
        cmocka_unit_test(test_helpers_die_with_the_run),
        cmocka_unit_test(test_parent_sigkill),
        cmocka_unit_test(test_sweep_spares_live_dirs),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
