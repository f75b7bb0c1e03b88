/* The clock probe's spin against the world: a task cannot run and wait for
 * a CPU at the same instant, and both lie within the spin's wall time, so
 * billed CPU time plus run-queue wait never exceed that wall. Checked
 * probe by probe with a CPU hog pinned beside the probe (on the first CPU
 * this test may use, whatever their number), so that it waits for the CPU
 * in every spin; and the spin's wall against this test's own clock around
 * the probe. */
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "workloads/clock_probe.h"

#define PROBES 40
/* The wait is on the scheduler's clock, the wall on CLOCK_MONOTONIC, which
 * NTP slews by at most 500 ppm: ran + waited may pass 1 by that much. */
#define CLOCKS_AGREE 1e-3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Pins this process to the first CPU it may use; the probes it forks
 * inherit that. */
static void pin_first_cpu(void)
{
    cpu_set_t set;
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    int cpu = 0;
    while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set))
        cpu++;
    assert_true(cpu < CPU_SETSIZE);
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    assert_int_equal(sched_setaffinity(0, sizeof set, &set), 0);
}

/* A child that spins on this process's CPU until killed. */
static pid_t start_hog(void)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        for (volatile unsigned long n = 0;; n++)
            ;
    }
    return pid;
}

/* One probe, start to result; *took is this test's clock around it. */
static void run_probe(struct probe *p, double *took)
{
    char err[160];
    double t0 = now();
    assert_int_equal(probe_start(p, err, sizeof err), 0);
    int rc;
    do {
        struct pollfd pf = {.fd = p->fd, .events = POLLIN};
        poll(&pf, 1, 100);
        rc = probe_collect(p, err, sizeof err);
    } while (rc == 0);
    if (rc < 0)
        fail_msg("%s", err);
    *took = now() - t0;
}

static void test_ran_and_waited_fit_the_wall(void **state)
{
    (void)state;
    pin_first_cpu();
    pid_t hog = start_hog();
    struct probe p = PROBE_INIT;
    double most_waited = 0;
    int counted = 0;
    for (int i = 0; i < PROBES; i++) {
        double took;
        run_probe(&p, &took);
        const struct probe_result *r = &p.last;
        double ran = r->spin_cpu / r->spin_wall;
        double waited = r->spin_waited / r->spin_wall;
        if (!(r->spin_wall >= PROBE_SPIN_S && r->spin_wall < took))
            fail_msg("probe %d: spin wall %.6f s, not from %.3f s to the "
                     "%.6f s this test saw",
                     i, r->spin_wall, PROBE_SPIN_S, took);
        if (!isfinite(waited)) {
            print_message("probe %d: no run-queue wait (no schedstats)\n", i);
            continue;
        }
        if (!(ran >= 0 && waited >= 0 && ran + waited <= 1 + CLOCKS_AGREE))
            fail_msg("probe %d: ran %.4f + waited %.4f = %.4f of the wall, "
                     "over 1 + %g",
                     i, ran, waited, ran + waited, CLOCKS_AGREE);
        most_waited = fmax(most_waited, waited);
        counted++;
    }
    kill(hog, SIGKILL);
    waitpid(hog, NULL, 0);
    if (!counted) {
        print_message("this kernel keeps no schedstats: nothing to check\n");
        skip();
    }
    print_message("%d probes beside a hog: ran + waited <= 1, "
                  "waited up to %.3f\n",
                  PROBES, most_waited);
    /* the hog shared the CPU: the spins waited, so the check had teeth */
    if (!(most_waited > 0.1))
        fail_msg("no probe waited for the CPU (%.3f at most)", most_waited);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ran_and_waited_fit_the_wall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
