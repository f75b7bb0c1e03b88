/* This host read straight from /proc: the files PCP's linux agent reads for
 * the same metrics (kernel.all.cpu.*, pswitch, sysfork, intr, runnable,
 * load, disk.all.*_bytes, mem.physmem and mem.util.available), with the
 * same meaning and units, but without a PCP context around them. Measured
 * on a 2-CPU VM (bench/profile.sh): a fetch through the local context ran
 * 300 k instructions in its sampler thread, this runs 39 k; and the local
 * context's agents and their tables held about 1 MB of resident memory.
 *
 * The files stay open and are re-read from offset 0 with pread (the kernel
 * regenerates a /proc file read from its start); buffers grow only when a
 * file outgrows them, so the steady state allocates nothing. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "collectors/backend.h"
#include "collectors/kernel_sched.h"

/* What a source is (names, CPUs, memory) is read on the first fetch and
 * then every this many, as the PCP backends do. */
#define INFO_EVERY 60
#define MAX_DEVS   64 /* /proc/diskstats names remembered as disk or not */

enum proc_file { PF_STAT, PF_LOADAVG, PF_MEMINFO, PF_DISKSTATS, PF_COUNT };
static const char *const proc_paths[PF_COUNT] = {
    [PF_STAT] = "/proc/stat",
    [PF_LOADAVG] = "/proc/loadavg",
    [PF_MEMINFO] = "/proc/meminfo",
    [PF_DISKSTATS] = "/proc/diskstats",
};

struct dev {
    char name[32];
    bool disk;
};

struct proc_state {
    int fd[PF_COUNT];
    char *buf[PF_COUNT];
    size_t cap[PF_COUNT];
    double ms_per_tick; /* /proc/stat counts CPU time in USER_HZ ticks */
    unsigned long fetches;
    struct source_info info;
    int ndev; /* devices classified since the last info refresh */
    struct dev dev[MAX_DEVS];
};

static void proc_close(void *state)
{
    struct proc_state *st = state;
    for (int i = 0; i < PF_COUNT; i++) {
        if (st->fd[i] >= 0)
            close(st->fd[i]);
        free(st->buf[i]);
    }
    free(st);
}

static void *proc_open(const char *target, char *err, size_t errlen)
{
    (void)target;
    struct proc_state *st = calloc(1, sizeof(*st));
    if (!st) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (int i = 0; i < PF_COUNT; i++)
        st->fd[i] = -1;
    for (int i = 0; i < PF_COUNT; i++) {
        st->fd[i] = open(proc_paths[i], O_RDONLY | O_CLOEXEC);
        st->cap[i] = 4096;
        st->buf[i] = malloc(st->cap[i]);
        if (st->fd[i] < 0 || !st->buf[i]) {
            snprintf(err, errlen, "cannot read %s: %s (is /proc mounted?)",
                     proc_paths[i], strerror(st->fd[i] < 0 ? errno : ENOMEM));
            proc_close(st);
            return NULL;
        }
    }
    long hz = sysconf(_SC_CLK_TCK);
    st->ms_per_tick = 1000.0 / (double)(hz > 0 ? hz : 100);
    return st;
}

/* The whole file, 0-terminated, or NULL. A read that fills the buffer may
 * have been cut: the buffer doubles and the file is read again. */
static const char *slurp(struct proc_state *st, enum proc_file f)
{
    for (;;) {
        ssize_t n = pread(st->fd[f], st->buf[f], st->cap[f] - 1, 0);
        if (n < 0)
            return NULL;
        if ((size_t)n < st->cap[f] - 1) {
            st->buf[f][n] = '\0';
            return st->buf[f];
        }
        char *bigger = realloc(st->buf[f], st->cap[f] * 2);
        if (!bigger)
            return NULL;
        st->buf[f] = bigger;
        st->cap[f] *= 2;
    }
}

/* The text after "key" at the start of a line of text, or NULL. */
static const char *field(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
        if (strncmp(p, key, n) == 0)
            return p + n;
    return NULL;
}

/* One counter after `key` in text, if the line is there. */
static void stat_count(const char *text, const char *key, int id,
                       struct sample *out)
{
    const char *p = field(text, key);
    if (p)
        sample_set_count(out, id, strtoull(p, NULL, 10));
}

/* /proc/stat: the "cpu " line's user nice system idle iowait irq softirq
 * steal, in ticks (irq and softirq together, as PCP's kernel.all.cpu.intr;
 * user and nice include guest time, as PCP's and top's do); ctxt,
 * processes and intr's total. */
static void read_stat(struct proc_state *st, struct sample *out)
{
    const char *text = slurp(st, PF_STAT);
    const char *p = text ? field(text, "cpu ") : NULL;
    if (!p)
        return;
    unsigned long long v[8];
    char *end;
    for (int i = 0; i < 8; i++, p = end) {
        v[i] = strtoull(p, &end, 10);
        if (end == p)
            return;
    }
    static const int cpu_ids[8] = {
        METRIC_CPU_USER,   METRIC_CPU_NICE, METRIC_CPU_SYS, METRIC_CPU_IDLE,
        METRIC_CPU_IOWAIT, METRIC_CPU_IRQ,  METRIC_CPU_IRQ, METRIC_CPU_STEAL};
    unsigned long long ticks[METRIC_COUNT] = {0};
    for (int i = 0; i < 8; i++)
        ticks[cpu_ids[i]] += v[i];
    for (int i = 0; i < 8; i++)
        if (i != 6) /* softirq went into irq's */
            sample_set_count(
                out, cpu_ids[i],
                (uint64_t)((double)ticks[cpu_ids[i]] * st->ms_per_tick));
    stat_count(text, "ctxt ", METRIC_CTXSW, out);
    stat_count(text, "processes ", METRIC_FORKS, out);
    stat_count(text, "intr ", METRIC_INTR, out);
}

/* /proc/loadavg: "0.12 0.30 0.25 2/345 6789": load, then running tasks
 * (the count PCP's kernel.all.runnable gives). */
static void read_loadavg(struct proc_state *st, struct sample *out)
{
    const char *text = slurp(st, PF_LOADAVG);
    double load[3];
    unsigned long running, total;
    if (text && sscanf(text, "%lf %lf %lf %lu/%lu", &load[0], &load[1],
                       &load[2], &running, &total) == 5) {
        sample_set_value(out, METRIC_LOAD1, load[0]);
        sample_set_value(out, METRIC_RUNNABLE, (double)running);
    }
}

/* /proc/meminfo: memory used is MemTotal - MemAvailable, as the table's
 * "mem.physmem - mem.util.available". */
static void read_meminfo(struct proc_state *st, struct sample *out)
{
    const char *text = slurp(st, PF_MEMINFO);
    const char *total = text ? field(text, "MemTotal:") : NULL;
    const char *avail = text ? field(text, "MemAvailable:") : NULL;
    if (!total)
        return;
    double total_b = (double)strtoull(total, NULL, 10) * 1024;
    st->info.mem_bytes = total_b;
    if (avail)
        sample_set_value(out, METRIC_MEM_USED,
                         total_b - (double)strtoull(avail, NULL, 10) * 1024);
}

/* A whole disk (not a partition, loop, ram or device-mapper device) has a
 * device link, as PCP's disk.all counts only whole disks. Remembered per
 * name until the next info refresh: a stat per device per tick is most of
 * this file's cost otherwise. */
static bool is_disk(struct proc_state *st, const char *name, size_t len)
{
    for (int i = 0; i < st->ndev; i++)
        if (strlen(st->dev[i].name) == len &&
            memcmp(st->dev[i].name, name, len) == 0)
            return st->dev[i].disk;
    char path[96];
    struct stat sb;
    snprintf(path, sizeof(path), "/sys/block/%.*s/device", (int)len, name);
    bool disk = stat(path, &sb) == 0;
    if (st->ndev < MAX_DEVS && len < sizeof(st->dev[0].name)) {
        struct dev *d = &st->dev[st->ndev++];
        memcpy(d->name, name, len);
        d->name[len] = '\0';
        d->disk = disk;
    }
    return disk;
}

/* /proc/diskstats: "major minor name" then reads, merged, sectors read,
 * ms, writes, merged, sectors written, ...; 512-byte sectors. */
static void read_diskstats(struct proc_state *st, struct sample *out)
{
    const char *p = slurp(st, PF_DISKSTATS);
    if (!p)
        return;
    uint64_t rbytes = 0, wbytes = 0;
    for (; *p; p = strchr(p, '\n'), p = p ? p + 1 : "") {
        char *end;
        strtoul(p, &end, 10);   /* major */
        strtoul(end, &end, 10); /* minor */
        const char *name = end + strspn(end, " ");
        size_t len = strcspn(name, " \n");
        if (len == 0 || !is_disk(st, name, len))
            continue;
        unsigned long long v[7];
        end = (char *)name + len;
        for (int i = 0; i < 7; i++)
            v[i] = strtoull(end, &end, 10);
        rbytes += v[2] * 512;
        wbytes += v[6] * 512;
    }
    sample_set_count(out, METRIC_DISK_READ, rbytes);
    sample_set_count(out, METRIC_DISK_WRITE, wbytes);
}

static void read_info(struct proc_state *st)
{
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(st->info.host, sizeof(st->info.host), "%.63s", u.nodename);
        snprintf(st->info.release, sizeof(st->info.release), "%.63s",
                 u.release);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    st->info.ncpu = n > 0 ? (int)n : 0;
    struct kernel_sched k;
    kernel_sched_read(&k);
    snprintf(st->info.sched, sizeof(st->info.sched), "%s", k.family);
    snprintf(st->info.preempt, sizeof(st->info.preempt), "%s", k.preempt);
    st->ndev = 0; /* disks come and go: classify them again */
}

static int proc_fetch(void *state, struct sample *out)
{
    struct proc_state *st = state;
    if (st->fetches++ % INFO_EVERY == 0)
        read_info(st);
    out->t_before = clock_mono();
    read_stat(st, out);
    read_loadavg(st, out);
    read_meminfo(st, out);
    read_diskstats(st, out);
    out->t_after = clock_mono();
    out->t_source = clock_real();
    if (!out->have[METRIC_CPU_USER]) {
        snprintf(out->error, sizeof(out->error),
                 "/proc/stat has no \"cpu\" line");
        return -1;
    }
    out->info = st->info;
    return 0;
}

const struct backend backend_proc = {
    .name = "/proc",
    .open = proc_open,
    .fetch = proc_fetch,
    .close = proc_close,
};
