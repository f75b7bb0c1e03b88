/* parallax-hello: the tiny program the exec workloads run, built twice:
 * static (parallax-hello, lmbench's hello-s) and dynamically linked
 * (parallax-hello-dyn, lmbench's hello and UnixBench's execl).
 *   parallax-hello            writes "Hello world\n" and exits, as
 *                             lmbench's hello does for lat_proc exec/shell
 *   parallax-hello --execl N  execs itself N-1 more times, then exits 0, as
 *                             UnixBench's execl does
 *   parallax-hello --fork-server KIND CPU PATH
 *                             the fork workloads' forking process: reads a
 *                             count (uint64_t) from fd 0, makes that many
 *                             fork, child, wait rounds (KIND exit: the child
 *                             exits; exec: it execs PATH; sh: it runs
 *                             /bin/sh -c PATH; on CPU unless -1), replies
 *                             with struct fork_reply on fd 1; ends at EOF.
 *                             lmbench forks from lat_proc, a small program;
 *                             fork costs more the more a process has mapped,
 *                             and the runner has libpcp, libcrypto and more.
 * It must stay cheap to load: no stdio, nothing but a few system calls. */
#define _GNU_SOURCE

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/helper/fork_server.h"

#define EXECL_MAX 1000000000UL

static void say(int fd, const char *s)
{
    if (write(fd, s, strlen(s)) < 0)
        return; /* lat_proc closes stdout: nobody to tell */
}

static int usage(void)
{
    say(2, "usage: parallax-hello [--execl N]  (N: 1..1000000000)\n"
           "       parallax-hello --fork-server exit|exec|sh CPU PATH\n");
    return 2;
}

/* N as a count of runs, 0 when it is not one. */
static unsigned long parse_count(const char *s)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    if (errno || end == s || *end || *s == '-' || n < 1 || n > EXECL_MAX)
        return 0;
    return n;
}

/* Replaces this process with a fresh copy of this program for the
 * remaining n-1 runs; the path is always our own executable. */
static int execl_chain(unsigned long n)
{
    if (n <= 1)
        return 0;
    char left[24], *p = left + sizeof left;
    *--p = '\0';
    unsigned long v = n - 1;
    do
        *--p = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    execl("/proc/self/exe", "parallax-hello", "--execl", p, (char *)NULL);
    say(2, "parallax-hello: cannot exec /proc/self/exe: ");
    say(2, strerror(errno));
    say(2, "\n");
    return 127;
}

static double secs(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* The child's CPU, -1 for any. The child looks it up in its environment,
 * as lat_proc's children do in handle_scheduler (getenv LMBENCH_SCHED).
 * What runs around a fork is what fork-exit times: this lookup (libc code
 * and data a new child has not mapped yet) and the store to child_pid
 * below take a round from 25 page faults to lat_proc's 31 (perf stat -e
 * page-faults; exceptions:page_fault_user shows where), and fork-exit
 * from 0.83-0.90 of lat_proc's figure to 0.95 here. */
static int child_cpu(void)
{
    const char *s = getenv(FORK_CPU_ENV);
    if (!s || !*s)
        return -1;
    return (int)strtol(s, NULL, 10);
}

static _Noreturn void fork_child(enum fork_kind kind, const char *path)
{
    int cpu = child_cpu();
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) < 0)
            _exit(126);
    }
    if (kind == FORK_EXIT)
        exit(0); /* as lat_proc's child: exit, libc's teardown included */
    close(0);
    close(1); /* as lat_proc's children do */
    if (kind == FORK_EXEC) {
        char *args[] = {(char *)path, NULL};
        char *envp[] = {NULL};
        execve(path, args, envp);
    } else {
        execl("/bin/sh", "sh", "-c", path, (char *)NULL);
    }
    _exit(127);
}

/* The child being waited for, in a global as lat_proc keeps it (for its
 * SIGTERM cleanup): the parent's stores to it around each round are part
 * of what lat_proc times. */
static volatile pid_t child_pid;

/* n rounds; 0, or the failing child's wait status (or -1). */
static int fork_rounds(uint64_t n, enum fork_kind kind, const char *path)
{
    while (n-- > 0) {
        child_pid = fork();
        if (child_pid < 0)
            return -1;
        if (child_pid == 0)
            fork_child(kind, path);
        int st;
        while (waitpid(child_pid, &st, 0) < 0)
            if (errno != EINTR)
                return -1;
        child_pid = 0;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return st ? st : -1;
    }
    return 0;
}

static int fork_server(const char *kind_s, const char *cpu_s, const char *path)
{
    enum fork_kind kind = strcmp(kind_s, "exit") == 0   ? FORK_EXIT
                          : strcmp(kind_s, "exec") == 0 ? FORK_EXEC
                          : strcmp(kind_s, "sh") == 0   ? FORK_SHELL
                                                        : (enum fork_kind) - 1;
    char *end;
    long cpu = strtol(cpu_s, &end, 10);
    if ((int)kind < 0 || end == cpu_s || *end || cpu < -1 || cpu > 1023)
        return usage();
    /* for the children to find (child_cpu) */
    if ((cpu >= 0 ? setenv(FORK_CPU_ENV, cpu_s, 1) : unsetenv(FORK_CPU_ENV)) <
        0)
        return 1;
    uint64_t n;
    while (fork_read_full(0, &n, sizeof n) == 0) {
        struct fork_reply rep = {.status = fork_rounds(n, kind, path)};
        struct rusage self, kids;
        getrusage(RUSAGE_SELF, &self);
        getrusage(RUSAGE_CHILDREN, &kids);
        rep.user = secs(self.ru_utime) + secs(kids.ru_utime);
        rep.sys = secs(self.ru_stime) + secs(kids.ru_stime);
        if (write(1, &rep, sizeof rep) != (ssize_t)sizeof rep)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        say(1, "Hello world\n");
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--execl") == 0) {
        unsigned long n = parse_count(argv[2]);
        return n ? execl_chain(n) : usage();
    }
    if (argc == 5 && strcmp(argv[1], "--fork-server") == 0)
        return fork_server(argv[2], argv[3], argv[4]);
    return usage();
}
