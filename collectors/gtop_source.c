/* The fallback backend for this host when PCP cannot be opened: libgtop
 * for CPU times, load and memory size, /proc for what libgtop does not
 * give (steal, context switches, forks, interrupts, runnable tasks, disk
 * bytes, available memory). Values come in the metric table's units. */
#include <dlfcn.h>
#include <glibtop.h>
#include <glibtop/cpu.h>
#include <glibtop/loadavg.h>
#include <glibtop/mem.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "collectors/backend.h"

/* libgtop (and the GLib it pulls in) is loaded only when this fallback
 * is used: linked in, it cost every run over a megabyte of resident
 * memory for a backend that PCP's local context nearly always replaces. */
#define GTOP_SONAME "libgtop-2.0.so.11"

static struct {
    glibtop *(*init)(void);
    void (*cpu)(glibtop_cpu *);
    void (*loadavg)(glibtop_loadavg *);
    void (*mem)(glibtop_mem *);
    bool ok;
} gtop;
static pthread_once_t gtop_once = PTHREAD_ONCE_INIT;

static void gtop_load(void)
{
    void *h = dlopen(GTOP_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    *(void **)&gtop.init = dlsym(h, "glibtop_init");
    *(void **)&gtop.cpu = dlsym(h, "glibtop_get_cpu");
    *(void **)&gtop.loadavg = dlsym(h, "glibtop_get_loadavg");
    *(void **)&gtop.mem = dlsym(h, "glibtop_get_mem");
    gtop.ok = gtop.init && gtop.cpu && gtop.loadavg && gtop.mem;
}

struct gtop_state {
    double ms_per_tick; /* /proc/stat counts in USER_HZ ticks */
};

static void *gtop_open(const char *target, char *err, size_t errlen)
{
    (void)target;
    pthread_once(&gtop_once, gtop_load);
    if (!gtop.ok) {
        snprintf(err, errlen, "cannot load %s: %s", GTOP_SONAME,
                 "install libgtop-2.0-11");
        return NULL;
    }
    if (!gtop.init()) {
        snprintf(err, errlen, "libgtop could not be initialised");
        return NULL;
    }
    struct gtop_state *st = calloc(1, sizeof(*st));
    if (!st) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    long hz = sysconf(_SC_CLK_TCK);
    st->ms_per_tick = 1000.0 / (double)(hz > 0 ? hz : 100);
    return st;
}

/* /proc/stat: steal (8th CPU field), ctxt, processes, intr, procs_running */
static void read_proc_stat(const struct gtop_state *st, struct sample *out)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return;
    char line[512];
    unsigned long long v[8];
    while (fgets(line, sizeof(line), f)) {
        /* "cpu " only: "cpu0" would scan as "cpu" and a number */
        if (strncmp(line, "cpu ", 4) == 0 &&
            sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
                   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8)
            sample_set_count(out, METRIC_CPU_STEAL,
                             (uint64_t)((double)v[7] * st->ms_per_tick));
        else if (sscanf(line, "ctxt %llu", &v[0]) == 1)
            sample_set_count(out, METRIC_CTXSW, v[0]);
        else if (sscanf(line, "processes %llu", &v[0]) == 1)
            sample_set_count(out, METRIC_FORKS, v[0]);
        else if (sscanf(line, "intr %llu", &v[0]) == 1)
            sample_set_count(out, METRIC_INTR, v[0]);
        else if (sscanf(line, "procs_running %llu", &v[0]) == 1)
            sample_set_value(out, METRIC_RUNNABLE, (double)v[0]);
    }
    fclose(f);
}

/* A whole disk (not a partition, loop or ram device) has a device link. */
static bool is_disk(const char *name)
{
    char path[320];
    struct stat sb;
    snprintf(path, sizeof(path), "/sys/block/%s/device", name);
    return stat(path, &sb) == 0;
}

/* /proc/diskstats: sectors read (6th) and written (10th), 512 bytes each */
static void read_diskstats(struct sample *out)
{
    FILE *f = fopen("/proc/diskstats", "r");
    if (!f)
        return;
    char line[512], name[64];
    unsigned long long rd, wr, skip;
    uint64_t rbytes = 0, wbytes = 0;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "%*u %*u %63s %llu %llu %llu %llu %llu %llu %llu",
                   name, &skip, &skip, &rd, &skip, &skip, &skip, &wr) != 8)
            continue;
        if (!is_disk(name))
            continue;
        rbytes += rd * 512;
        wbytes += wr * 512;
    }
    fclose(f);
    sample_set_count(out, METRIC_DISK_READ, rbytes);
    sample_set_count(out, METRIC_DISK_WRITE, wbytes);
}

/* /proc/meminfo MemAvailable, in bytes, or -1 */
static double mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1;
    char line[256];
    unsigned long long kb;
    double avail = -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            avail = (double)kb * 1024;
    fclose(f);
    return avail;
}

static void read_info(struct sample *out, double mem_total)
{
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(out->info.host, sizeof(out->info.host), "%.63s", u.nodename);
        snprintf(out->info.release, sizeof(out->info.release), "%.63s",
                 u.release);
    }
    out->info.ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    out->info.mem_bytes = mem_total;
}

static int gtop_fetch(void *state, struct sample *out)
{
    struct gtop_state *st = state;
    glibtop_cpu cpu;
    glibtop_loadavg load;
    glibtop_mem mem;

    out->t_before = clock_mono();
    gtop.cpu(&cpu);
    gtop.loadavg(&load);
    gtop.mem(&mem);
    read_proc_stat(st, out);
    read_diskstats(out);
    double avail = mem_available();
    out->t_after = clock_mono();
    out->t_source = clock_real();

    /* libgtop counts CPU time in ticks of cpu.frequency per second */
    double ms = 1000.0 / (double)(cpu.frequency ? cpu.frequency : 100);
    sample_set_count(out, METRIC_CPU_USER, (uint64_t)((double)cpu.user * ms));
    sample_set_count(out, METRIC_CPU_SYS, (uint64_t)((double)cpu.sys * ms));
    sample_set_count(out, METRIC_CPU_IDLE, (uint64_t)((double)cpu.idle * ms));
    sample_set_count(out, METRIC_CPU_IOWAIT,
                     (uint64_t)((double)cpu.iowait * ms));
    sample_set_value(out, METRIC_LOAD1, load.loadavg[0]);
    if (avail >= 0)
        sample_set_value(out, METRIC_MEM_USED, (double)mem.total - avail);
    read_info(out, (double)mem.total);
    return 0;
}

static void gtop_close(void *state)
{
    free(state);
}

const struct backend backend_gtop = {
    .name = "libgtop+/proc",
    .open = gtop_open,
    .fetch = gtop_fetch,
    .close = gtop_close,
};
