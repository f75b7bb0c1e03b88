/* See selfcost.h. RUSAGE_SELF sums every thread of the process (the
 * sampler threads too) and leaves out the workloads' child processes:
 * they are what is measured, not the cost of measuring. */
#include "core/selfcost.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/clock.h"

static double cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) < 0)
        return NAN;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* /proc/self/statm: size, then resident, in pages. Read with plain
 * open/read: this runs every tick, and stdio would allocate each time. */
static double rss_bytes(void)
{
    char buf[128];
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NAN;
    ssize_t len = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    unsigned long size, resident;
    if (len <= 0)
        return NAN;
    buf[len] = '\0';
    if (sscanf(buf, "%lu %lu", &size, &resident) != 2)
        return NAN;
    return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

void selfcost_init(struct selfcost *c)
{
    c->t_wall = clock_mono();
    c->t_cpu = cpu_seconds();
    c->cpu_pct = NAN;
    c->rss_bytes = rss_bytes();
}

void selfcost_tick(struct selfcost *c, double min_s)
{
    double now = clock_mono();
    if (now - c->t_wall < min_s)
        return;
    double cpu = cpu_seconds();
    c->cpu_pct = 100 * (cpu - c->t_cpu) / (now - c->t_wall);
    c->t_wall = now;
    c->t_cpu = cpu;
    c->rss_bytes = rss_bytes();
}

void selfcost_format(const struct selfcost *c, bool brief, char *buf, size_t n)
{
    char cpu[16] = "?", mem[16] = "?";
    if (isfinite(c->cpu_pct))
        snprintf(cpu, sizeof(cpu), "%.1f%%", c->cpu_pct);
    double mb = c->rss_bytes / (1024.0 * 1024.0);
    if (isfinite(mb))
        snprintf(mem, sizeof(mem), mb < 10 ? "%.1f" : "%.0f", mb);
    snprintf(buf, n,
             brief ? "self %s cpu %s MB" : "parallax itself: %s cpu, %s MB",
             cpu, mem);
}
