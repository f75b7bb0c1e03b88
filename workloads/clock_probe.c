/* The probe child: clean process state (dies with the agent, default
 * signals, no inherited descriptors), one relative sleep, one spin on the
 * monotonic clock, then the figures down a pipe in a single write. */
#include "workloads/clock_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workloads/proc.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One instant of the spin read three ways: the wall (monotonic), the CPU
 * time billed to this process, and the time it has waited on a run queue
 * (NaN without schedstats, CONFIG_SCHED_INFO). */
struct stamp {
    double wall, cpu, waited;
};

/* Reads /proc/self/schedstat (open as fd): the run-queue wait in ns and
 * how many times this task has been put on a CPU. */
static bool schedstat(int fd, unsigned long long *wait,
                      unsigned long long *arrivals)
{
    char buf[96];
    unsigned long long run;
    ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;
    if (n <= 0)
        return false;
    buf[n] = '\0';
    return sscanf(buf, "%llu %llu %llu", &run, wait, arrivals) == 3;
}

/* The wait is counted when a task gets back on a CPU, so a switch between
 * the reads of a stamp adds a wait its wall does not hold (one landed in
 * 24% of the probes under stress-ng: waited over 100% of the wall). The
 * stamp is read again until no switch came between: the count of
 * arrivals on a CPU the same before and after the clocks. The start reads
 * the wall before the CPU time and the end after it, so that the CPU
 * time's window lies inside the wall's. */
static void stamp(int fd, bool end, struct stamp *s)
{
    for (int tries = 0; tries < 16; tries++) {
        unsigned long long w0, a0, w1, a1;
        bool ok = schedstat(fd, &w0, &a0);
        if (!end)
            s->wall = clock_s(CLOCK_MONOTONIC);
        s->cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        if (end)
            s->wall = clock_s(CLOCK_MONOTONIC);
        ok = ok && schedstat(fd, &w1, &a1);
        s->waited = ok ? w0 * 1e-9 : NAN;
        if (!ok || a0 == a1)
            return;
    }
    s->waited = NAN; /* never one stretch on a CPU: unknown, not wrong */
}

static void measure(struct probe_result *r)
{
    int fd = open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);
    struct timespec req = {0, (long)(PROBE_SLEEP_S * 1e9)};
    r->sleep_t0 = clock_s(CLOCK_REALTIME);
    double t0 = clock_s(CLOCK_MONOTONIC);
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &req, &req) == EINTR)
        ;
    r->sleep_req = PROBE_SLEEP_S;
    r->sleep_took = clock_s(CLOCK_MONOTONIC) - t0;
    r->sleep_t1 = clock_s(CLOCK_REALTIME);

    struct stamp a, b;
    stamp(fd, false, &a);
    double t = a.wall;
    volatile unsigned long spin = 0;
    while (t - a.wall < PROBE_SPIN_S) {
        for (int i = 0; i < 1000; i++)
            spin++;
        t = clock_s(CLOCK_MONOTONIC);
    }
    stamp(fd, true, &b);
    if (fd >= 0)
        close(fd);
    r->spin_cpu = b.cpu - a.cpu;
    r->spin_wall = b.wall - a.wall;
    r->spin_waited = b.waited - a.waited;
}

static _Noreturn void child(pid_t parent, int wfd)
{
    proc_die_with_parent(parent);
    proc_reset_signals();
    proc_stdio_null();
    if (wfd != 3) {
        dup2(wfd, 3);
        wfd = 3;
    }
    close_range(4, ~0U, 0);
    struct probe_result r;
    measure(&r);
    _exit(write(wfd, &r, sizeof r) == (ssize_t)sizeof r ? 0 : 1);
}

int probe_start(struct probe *p, char *err, size_t errlen)
{
    if (p->pid > 0)
        return 0;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "clock probe: pipe: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "clock probe: fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0)
        child(parent, fds[1]);
    close(fds[1]);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    p->pid = pid;
    p->fd = fds[0];
    p->started = clock_s(CLOCK_MONOTONIC);
    return 0;
}

static void reap(struct probe *p)
{
    if (p->fd >= 0)
        close(p->fd);
    while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    p->pid = 0;
    p->fd = -1;
}

int probe_collect(struct probe *p, char *err, size_t errlen)
{
    if (p->pid <= 0)
        return 0;
    struct probe_result r;
    ssize_t n = read(p->fd, &r, sizeof r);
    if (n == (ssize_t)sizeof r) {
        reap(p);
        p->last = r;
        p->count++;
        return 1;
    }
    if (n >= 0 || (errno != EAGAIN && errno != EINTR)) {
        reap(p);
        snprintf(err, errlen, "clock probe: the child ended without a result");
        return -1;
    }
    if (clock_s(CLOCK_MONOTONIC) - p->started > PROBE_TIMEOUT_S) {
        probe_cancel(p);
        snprintf(err, errlen, "clock probe: no result after %.0f s; killed",
                 PROBE_TIMEOUT_S);
        return -1;
    }
    return 0;
}

void probe_cancel(struct probe *p)
{
    if (p->pid <= 0)
        return;
    kill(p->pid, SIGKILL);
    reap(p);
}
