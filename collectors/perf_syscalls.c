/* Counting raw_syscalls:sys_enter on every online CPU: find the tracepoint
 * id in tracefs, open one counting perf event per CPU (pid -1: every task
 * on that CPU), and sum them on read. */
#include "collectors/perf_syscalls.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TRACEFS     "/sys/kernel/tracing"
#define DEBUG_TRACE "/sys/kernel/debug/tracing"
#define EVENT_ID    "/events/raw_syscalls/sys_enter/id"

static int read_id(const char *dir, uint64_t *id)
{
    char path[256];
    snprintf(path, sizeof path, "%s%s", dir, EVENT_ID);
    FILE *f = fopen(path, "re");
    if (!f)
        return -errno;
    unsigned long long v;
    int ok = fscanf(f, "%llu", &v) == 1;
    fclose(f);
    if (!ok)
        return -EINVAL;
    *id = v;
    return 0;
}

/* Mounts tracefs where it belongs when nothing is mounted there (perf(1)
 * does the same); only root may. */
static void mount_tracefs(void)
{
    if (geteuid() == 0 && access(TRACEFS "/events", F_OK) < 0 &&
        access(TRACEFS, F_OK) == 0)
        mount("nodev", TRACEFS, "tracefs", 0, NULL);
}

/* True when the kernel knows tracefs at all (User-Mode Linux does not). */
static bool kernel_has_tracefs(void)
{
    char line[128];
    bool has = false;
    FILE *f = fopen("/proc/filesystems", "r");
    if (!f)
        return true; /* cannot tell: say what to mount */
    while (!has && fgets(line, sizeof(line), f))
        has = strcmp(line, "nodev\ttracefs\n") == 0;
    fclose(f);
    return has;
}

static int find_id(uint64_t *id, char *err, size_t errlen)
{
    int rc = read_id(TRACEFS, id);
    if (rc == -ENOENT) {
        mount_tracefs();
        rc = read_id(TRACEFS, id);
    }
    if (rc == -ENOENT || rc == -ENOTDIR)
        rc = read_id(DEBUG_TRACE, id);
    if (rc == 0)
        return 0;
    if (rc == -EACCES || rc == -EPERM)
        snprintf(err, errlen,
                 "cannot read the raw_syscalls:sys_enter id in tracefs: "
                 "permission denied; run as root");
    else if (rc == -ENOENT && access(TRACEFS "/events", F_OK) == 0)
        snprintf(err, errlen,
                 "this kernel has no raw_syscalls:sys_enter tracepoint "
                 "(CONFIG_FTRACE_SYSCALLS)");
    else if (rc == -ENOENT && !kernel_has_tracefs())
        snprintf(err, errlen,
                 "this kernel has no tracefs (CONFIG_TRACING), so no "
                 "tracepoint to count system calls with");
    else if (rc == -ENOENT)
        snprintf(
            err, errlen,
            "tracefs is not mounted; as root: mount -t tracefs nodev " TRACEFS);
    else
        snprintf(err, errlen, "cannot read the raw_syscalls:sys_enter id: %s",
                 strerror(-rc));
    return rc;
}

/* The CPUs in /sys/devices/system/cpu/online ("0-3,6"), or 0..n-1. */
static int online_cpus(int **cpus)
{
    long conf = sysconf(_SC_NPROCESSORS_CONF);
    int max = conf > 0 ? (int)conf : 1;
    *cpus = calloc((size_t)max, sizeof **cpus);
    if (!*cpus)
        return -ENOMEM;
    int n = 0;
    char buf[1024] = "";
    FILE *f = fopen("/sys/devices/system/cpu/online", "re");
    if (f) {
        if (!fgets(buf, sizeof buf, f))
            buf[0] = '\0';
        fclose(f);
    }
    for (char *p = buf; *p && *p != '\n';) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p)
            break;
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        for (long c = lo; c <= hi && n < max; c++)
            (*cpus)[n++] = (int)c;
        p = *end == ',' ? end + 1 : end;
    }
    if (n == 0) {
        long onln = sysconf(_SC_NPROCESSORS_ONLN);
        for (int c = 0; c < (onln > 0 ? onln : 1) && n < max; c++)
            (*cpus)[n++] = c;
    }
    return n;
}

static int open_failed(struct perf_syscalls *ps, int rc, char *err,
                       size_t errlen)
{
    int paranoid = -9;
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
    if (f) {
        if (fscanf(f, "%d", &paranoid) != 1)
            paranoid = -9;
        fclose(f);
    }
    if (rc == -EACCES || rc == -EPERM)
        snprintf(err, errlen,
                 "perf_event_open: permission denied (perf_event_paranoid "
                 "is %d); run as root or with CAP_PERFMON",
                 paranoid);
    else if (rc == -ENOSYS || rc == -ENOENT || rc == -EOPNOTSUPP)
        snprintf(err, errlen,
                 "perf_event_open: this kernel cannot count "
                 "tracepoints (%s)",
                 strerror(-rc));
    else
        snprintf(err, errlen, "perf_event_open: %s", strerror(-rc));
    perf_syscalls_close(ps);
    return rc;
}

int perf_syscalls_open(struct perf_syscalls *ps, char *err, size_t errlen)
{
    *ps = (struct perf_syscalls){0};
    uint64_t id;
    int rc = find_id(&id, err, errlen);
    if (rc < 0)
        return rc;
    int *cpus;
    int n = online_cpus(&cpus);
    if (n < 0) {
        snprintf(err, errlen, "out of memory");
        return n;
    }
    ps->fd = calloc((size_t)n, sizeof *ps->fd);
    if (!ps->fd) {
        free(cpus);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    struct perf_event_attr attr = {
        .type = PERF_TYPE_TRACEPOINT,
        .size = sizeof attr,
        .config = id,
    };
    for (int i = 0; i < n; i++) {
        long fd = syscall(SYS_perf_event_open, &attr, -1, cpus[i], -1,
                          PERF_FLAG_FD_CLOEXEC);
        if (fd < 0 && errno == ENODEV)
            continue; /* went offline since we listed it */
        if (fd < 0) {
            rc = -errno;
            free(cpus);
            return open_failed(ps, rc, err, errlen);
        }
        ps->fd[ps->nfd++] = (int)fd;
    }
    free(cpus);
    if (ps->nfd == 0)
        return open_failed(ps, -ENODEV, err, errlen);
    return 0;
}

int perf_syscalls_read(struct perf_syscalls *ps, uint64_t *total)
{
    if (ps->nfd == 0)
        return -EBADF;
    uint64_t sum = 0;
    for (int i = 0; i < ps->nfd; i++) {
        uint64_t v;
        ssize_t n = read(ps->fd[i], &v, sizeof v);
        if (n != (ssize_t)sizeof v)
            return n < 0 ? -errno : -EIO;
        sum += v;
    }
    *total = sum;
    return 0;
}

void perf_syscalls_close(struct perf_syscalls *ps)
{
    for (int i = 0; i < ps->nfd; i++)
        close(ps->fd[i]);
    free(ps->fd);
    *ps = (struct perf_syscalls){0};
}
