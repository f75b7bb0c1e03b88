/* The placement parameter of the latency workloads with a peer process,
 * run through the real runner: with placement=1 the measuring process and
 * its peer may run on `cpu` only and were last seen there; with 2 the peer
 * sits on the next CPU (fork-exit's children too); impossible placements
 * fail with a reason. The kernel's view (sched_getaffinity,
 * /proc/PID/stat) is the witness. */
#include <dirent.h>
#include <sched.h>
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

#include "runner/runner.h"
#include "workloads/params.h"
#include "workloads/registry.h"

#define WAIT_SECS 20

static const char *const peer_workloads[] = {"pipe-lat", "ctx", "unix-lat",
                                             "tcp-lat"};
static char tmp[256];

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The fields of /proc/pid/stat after the command: [0] is state (field 3
 * of proc(5)), so field k is at [k - 3]. false when pid has gone. */
static bool proc_stat(pid_t pid, char *state, int *ppid, int *processor)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    char *p = strrchr(buf, ')');
    if (!p || sscanf(p + 1, " %c %d", state, ppid) != 2)
        return false;
    /* processor is field 39: skip 36 fields after the state */
    char *save, *tok = strtok_r(p + 1, " ", &save);
    for (int k = 3; tok && k < 39; k++)
        tok = strtok_r(NULL, " ", &save);
    if (!tok)
        return false;
    *processor = atoi(tok);
    return true;
}

/* A live child of parent, or 0. */
static pid_t find_child(pid_t parent)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    pid_t found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        pid_t pid = atoi(e->d_name);
        char state;
        int ppid, cpu;
        if (pid > 0 && proc_stat(pid, &state, &ppid, &cpu) && ppid == parent &&
            state != 'Z')
            found = pid;
    }
    closedir(d);
    return found;
}

/* The CPU a pid is confined to, -1 for several, -2 when it has gone
 * (fork-exit's children live for a few hundred microseconds). */
static int confined_to(pid_t pid)
{
    cpu_set_t set;
    if (sched_getaffinity(pid, sizeof set, &set) < 0)
        return -2;
    if (CPU_COUNT(&set) != 1)
        return -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            return c;
    return -1;
}

/* The only CPU pid may run on, or -1 when it may run on several. */
static int only_cpu(pid_t pid)
{
    int c = confined_to(pid);
    assert_int_not_equal(c, -2);
    return c;
}

/* The CPUs we may use: the first, and the one after it (-1: none). */
static void our_cpus(int *first, int *second)
{
    cpu_set_t set;
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    *first = *second = -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set)) {
            if (*first < 0)
                *first = c;
            else if (*second < 0)
                *second = c;
        }
}

static struct wl_run *start(const char *name, int placement, int cpu, int pin)
{
    const struct workload *w = workload_find(name);
    assert_non_null(w);
    double vals[WL_MAX_PARAMS];
    char kv[2][32], err[512];
    params_defaults(w, vals);
    snprintf(kv[0], sizeof kv[0], "placement=%d", placement);
    snprintf(kv[1], sizeof kv[1], "cpu=%d", cpu);
    for (int i = 0; i < 2; i++)
        if (params_set(w, vals, kv[i], err, sizeof err) < 0)
            fail_msg("%s: %s", name, err);
    struct wl_run_opts o;
    wl_run_opts_default(&o);
    o.duration = WAIT_SECS;
    o.warmup = 0;
    o.cpu = pin;
    struct wl_run *r = wl_run_start(w, vals, &o, err, sizeof err);
    if (!r)
        fail_msg("%s: %s", name, err);
    return r;
}

/* Waits until r measures (its peer is up and placed, operations done). */
static void wait_measuring(struct wl_run *r, const char *name)
{
    struct wl_run_status st = {0};
    for (int i = 0; i < WAIT_SECS * 100; i++, sleep_ms(10)) {
        if (wl_run_state_final(wl_run_poll(r)))
            fail_msg("%s: %s", name, wl_run_error(r));
        wl_run_status(r, &st);
        if (st.phase == WL_MEASURING && st.ops > 0)
            break;
    }
    assert_true(st.ops > 0);
}

/* Waits until the run measures (its peer is up and placed), then checks
 * where the run and its peer may run and last ran. */
static void check_placed(const char *name, int placement, int cpu, int peer_cpu)
{
    struct wl_run *r = start(name, placement, cpu, -1);
    wait_measuring(r, name);
    pid_t run = wl_run_pid(r), peer = find_child(run);
    assert_true(peer > 0);
    char state;
    int ppid, run_last, peer_last;
    assert_true(proc_stat(run, &state, &ppid, &run_last));
    assert_true(proc_stat(peer, &state, &ppid, &peer_last));
    if (only_cpu(run) != cpu || only_cpu(peer) != peer_cpu || run_last != cpu ||
        peer_last != peer_cpu)
        fail_msg("%s placement=%d: run may use cpu %d, last on %d; peer "
                 "may use %d, last on %d; wanted %d and %d",
                 name, placement, only_cpu(run), run_last, only_cpu(peer),
                 peer_last, cpu, peer_cpu);
    wl_run_stop(r);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_STOPPED);
    wl_run_free(r);
}

static void test_same_cpu(void **state)
{
    (void)state;
    int first, second;
    our_cpus(&first, &second);
    for (size_t i = 0; i < sizeof peer_workloads / sizeof *peer_workloads; i++)
        check_placed(peer_workloads[i], 1, first, first);
}

static void test_split(void **state)
{
    (void)state;
    int first, second;
    our_cpus(&first, &second);
    if (second < 0)
        skip(); /* one CPU: nothing to split across */
    for (size_t i = 0; i < sizeof peer_workloads / sizeof *peer_workloads;
         i++) {
        check_placed(peer_workloads[i], 2, first, second);
        check_placed(peer_workloads[i], 2, second, first);
    }
}

/* fork-exit with placement=2: the forking server stays on `cpu` and its
 * children put themselves on the other CPU (they find it in their
 * environment, as lat_proc's children do). Children are caught alive
 * through /proc/SERVER/task/SERVER/children; one seen confined to the
 * other CPU is the proof, none in 2 s a failure. */
static void test_fork_children_split(void **state)
{
    (void)state;
    int first, second;
    our_cpus(&first, &second);
    if (second < 0)
        skip();
    struct wl_run *r = start("fork-exit", 2, first, -1);
    wait_measuring(r, "fork-exit");
    pid_t server = find_child(wl_run_pid(r));
    assert_true(server > 0);
    assert_int_equal(only_cpu(server), first);
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)server,
             (int)server);
    int seen = 0, on_second = 0;
    for (int i = 0; i < 2000 && !on_second; i++) {
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        int child;
        while (fscanf(f, "%d", &child) == 1) {
            int c = confined_to(child);
            seen += c != -2;
            on_second += c == second;
        }
        fclose(f);
        sleep_ms(1);
    }
    wl_run_stop(r);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_STOPPED);
    wl_run_free(r);
    if (!on_second)
        fail_msg("fork-exit placement=2: %d children seen, none confined to "
                 "cpu %d",
                 seen, second);
}

/* The run pinned to one CPU by --cpu cannot split, and a cpu outside
 * what the run may use is refused: both say why. */
static void test_impossible_placements(void **state)
{
    (void)state;
    int first, second;
    our_cpus(&first, &second);
    struct wl_run *r = start("pipe-lat", 2, first, first);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_FAILED);
    if (!strstr(wl_run_error(r), "needs a second CPU"))
        fail_msg("unexpected reason: %s", wl_run_error(r));
    wl_run_free(r);

    r = start("fork-exit", 1, 1023, -1);
    assert_int_equal(wl_run_wait(r, NULL), WL_RUN_FAILED);
    if (!strstr(wl_run_error(r), "cpu=1023 is not a CPU this run may use"))
        fail_msg("unexpected reason: %s", wl_run_error(r));
    wl_run_free(r);
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/parallax-test-place.XXXXXX");
    if (!mkdtemp(tmp))
        return 1;
    setenv("TMPDIR", tmp, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_cpu),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_fork_children_split),
        cmocka_unit_test(test_impossible_placements),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(tmp);
    return failed;
}
