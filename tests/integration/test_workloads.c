/* Every workload of the registry, run briefly through the real runner:
 * it must finish, give a positive finite figure that follows from its own
 * counters, bill no more CPU than the wall time allows, and leave no
 * process and no file behind. New workloads are covered by being
 * registered; those whose default work is long get smaller parameters in
 * `overrides` below. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/near.h"

#include "runner/runner.h"
#include "workloads/extras.h"
#include "workloads/params.h"
#include "workloads/registry.h"

#define RUN_SECS     0.2
#define TIMEOUT_SECS 60

/* Smaller work for composite workloads in tests: key=value, checked by
 * params_set, so an entry that no longer fits its workload fails. */
static const struct {
    const char *workload;
    const char *kv[WL_MAX_PARAMS];
} overrides[] = {
    {NULL, {NULL}}, /* keep: C wants a non-empty initializer */
};

static char tmp[256];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int tmp_entries(void)
{
    DIR *d = opendir(tmp);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

/* Sets w's key=value pairs kv (up to WL_MAX_PARAMS, ending at a NULL) in
 * vals; one that does not fit w fails the test. */
static void set_params(const struct workload *w, double *vals,
                       const char *const *kv)
{
    char err[256];
    for (int k = 0; k < WL_MAX_PARAMS && kv[k]; k++)
        if (params_set(w, vals, kv[k], err, sizeof err) < 0)
            fail_msg("%s: %s", w->name, err);
}

static void apply_overrides(const struct workload *w, double *vals)
{
    params_defaults(w, vals);
    for (size_t i = 0; i < sizeof overrides / sizeof overrides[0]; i++)
        if (overrides[i].workload &&
            strcmp(overrides[i].workload, w->name) == 0)
            set_params(w, vals, overrides[i].kv);
}

static void check_result(const struct workload *w, const double *vals,
                         const struct wl_result *res)
{
    if (!(isfinite(res->figure) && res->figure > 0))
        fail_msg("%s: figure %g is not positive and finite", w->name,
                 res->figure);
    assert_true(res->ops > 0);
    assert_true(isfinite(res->wall) && res->wall > 0);
    assert_true(isfinite(res->user) && res->user >= 0);
    assert_true(isfinite(res->sys) && res->sys >= 0);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (res->user + res->sys > res->wall * cpus * 1.05 + 0.02)
        fail_msg("%s: %.3f s CPU in %.3f s wall on %ld CPUs", w->name,
                 res->user + res->sys, res->wall, cpus);
    assert_in_range(res->placement, WL_PLACE_ANY, WL_PLACE_SPLIT);
    assert_in_range(res->nextra, 0, WL_MAX_EXTRA);
    for (int k = 0; k < res->nextra; k++) {
        assert_true(res->extra[k].name[0] != '\0');
        assert_true(isfinite(res->extra[k].value));
    }
    if (w->step) {
        /* the figure follows from the counters the run published */
        struct wl_ctx ctx = {.param = vals};
        double expect = w->figure ? w->figure(&ctx, res->ops, res->wall)
                        : w->figure_kind == WF_OPS_PER_SEC
                            ? res->ops / res->wall * (w->scale ? w->scale : 1)
                            : res->wall / res->ops * (w->scale ? w->scale : 1);
        assert_near(res->figure, expect, fabs(expect) * 1e-9);
        assert_true(res->wall >= RUN_SECS);
    }
}

/* Runs w with vals through the runner for RUN_SECS; the run, done (a
 * failed run fails the test), for its result and status. */
static struct wl_run *run_briefly(const struct workload *w, const double *vals)
{
    struct wl_run_opts o;
    wl_run_opts_default(&o);
    o.duration = RUN_SECS;
    o.warmup = 0;
    char err[512];
    struct wl_run *r = wl_run_start(w, vals, &o, err, sizeof err);
    if (!r)
        fail_msg("%s: %s", w->name, err);
    double t0 = now();
    while (!wl_run_state_final(wl_run_poll(r)) && now() - t0 < TIMEOUT_SECS)
        usleep(10000);
    if (!wl_run_state_final(wl_run_poll(r))) {
        wl_run_free(r);
        fail_msg("%s: still running after %d s", w->name, TIMEOUT_SECS);
    }
    if (wl_run_poll(r) != WL_RUN_DONE)
        fail_msg("%s: %s", wl_run_state_name(wl_run_poll(r)), wl_run_error(r));
    assert_int_equal(wl_run_nresults(r), 1);
    return r;
}

static void test_workload(void **state)
{
    const struct workload *w = *state;
    double vals[WL_MAX_PARAMS];
    apply_overrides(w, vals);
    struct wl_run *r = run_briefly(w, vals);
    const struct wl_result *res = wl_run_result(r, 0);
    check_result(w, vals, res);
    struct wl_run_status st;
    wl_run_status(r, &st);
    assert_true(st.ops > 0); /* progress was published */
    if (w->step)
        assert_int_equal(st.ops, res->ops);
    printf("  %-20s %12.4g %-8s ops %llu wall %.3f user %.3f sys %.3f\n",
           w->name, res->figure, w->unit, (unsigned long long)res->ops,
           res->wall, res->user, res->sys);
    wl_run_free(r);
    if (tmp_entries() != 0)
        fail_msg("%s left files in its directory's parent", w->name);
}

/* disk's per-char phases cover char_mb MB (at most the file), not the
 * whole file: its progress counts one unit per 8 KB they write and read,
 * and char_mb=0 leaves them out as bonnie++'s -f does. */
static uint64_t disk_ops(const char *char_mb, int *per_char_extras)
{
    const struct workload *w = workload_find("disk");
    assert_non_null(w);
    double vals[WL_MAX_PARAMS];
    params_defaults(w, vals);
    set_params(w, vals,
               (const char *const[]){"size_mb=2", "files=8", char_mb, NULL});
    struct wl_run *r = run_briefly(w, vals);
    const struct wl_result *res = wl_run_result(r, 0);
    uint64_t ops = res->ops;
    *per_char_extras = 0;
    for (int k = 0; k < res->nextra; k++)
        *per_char_extras += strstr(res->extra[k].name, "per-char") != NULL;
    assert_near(res->figure, wl_extra(res, "seq out block"), 0);
    wl_run_free(r);
    return ops;
}

static void test_disk_char_mb(void **state)
{
    (void)state;
    int none, one, clamped;
    uint64_t ops0 = disk_ops("char_mb=0", &none);
    uint64_t ops1 = disk_ops("char_mb=1", &one);
    uint64_t ops9 = disk_ops("char_mb=9", &clamped); /* the file is 2 MB */
    assert_int_equal(none, 0);
    assert_int_equal(one, 2);
    assert_int_equal(clamped, 2);
    assert_int_equal(ops1 - ops0, 2 * (1 << 20) / 8192);
    assert_int_equal(ops9 - ops0, 2 * (2 << 20) / 8192);
}

static void test_overrides_name_workloads(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof overrides / sizeof overrides[0]; i++)
        if (overrides[i].workload && !workload_find(overrides[i].workload))
            fail_msg("override for unknown workload %s", overrides[i].workload);
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/parallax-test-workloads.XXXXXX");
    if (!mkdtemp(tmp))
        return 1;
    setenv("TMPDIR", tmp, 1);
    int n = workload_count();
    struct CMUnitTest *tests = calloc((size_t)n + 2, sizeof *tests);
    tests[0] =
        (struct CMUnitTest)cmocka_unit_test(test_overrides_name_workloads);
    tests[n + 1] = (struct CMUnitTest)cmocka_unit_test(test_disk_char_mb);
    for (int i = 0; i < n; i++)
        tests[i + 1] = (struct CMUnitTest){
            .name = workload_registry[i]->name,
            .test_func = test_workload,
            .initial_state = (void *)workload_registry[i],
        };
    int failed =
        _cmocka_run_group_tests("workloads", tests, (size_t)n + 2, NULL, NULL);
    free(tests);
    rmdir(tmp);
    return failed;
}
