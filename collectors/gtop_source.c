/* The fallback backend for this host when PCP cannot be opened (or when
 * asked for, --local=gtop): libgtop for CPU times and load, /proc (the
 * direct reader, collectors/proc_source.c) for all libgtop does not give
 * (steal, context switches, forks, interrupts, runnable tasks, disk bytes,
 * memory used, what the host is). Values come in the metric table's
 * units. */
#include <dlfcn.h>
#include <glibtop.h>
#include <glibtop/cpu.h>
#include <glibtop/loadavg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "collectors/backend.h"

/* libgtop (and the GLib it pulls in) is loaded only when this fallback
 * is used: linked in, it cost every run over a megabyte of resident
 * memory for a backend that /proc and PCP's local context nearly always
 * replace. */
#define GTOP_SONAME "libgtop-2.0.so.11"

static struct {
    glibtop *(*init)(void);
    void (*cpu)(glibtop_cpu *);
    void (*loadavg)(glibtop_loadavg *);
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
    gtop.ok = gtop.init && gtop.cpu && gtop.loadavg;
}

struct gtop_state {
    void *proc; /* backend_proc's state: the rest of the metrics */
};

static void *gtop_open(const char *target, char *err, size_t errlen)
{
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
    st->proc = backend_proc.open(target, err, errlen);
    if (!st->proc) {
        free(st);
        return NULL;
    }
    return st;
}

static int gtop_fetch(void *state, struct sample *out)
{
    struct gtop_state *st = state;
    glibtop_cpu cpu;
    glibtop_loadavg load;

    if (backend_proc.fetch(st->proc, out) < 0)
        return -1;
    gtop.cpu(&cpu);
    gtop.loadavg(&load);
    out->t_after = clock_mono();

    /* libgtop counts CPU time in ticks of cpu.frequency per second */
    double ms = 1000.0 / (double)(cpu.frequency ? cpu.frequency : 100);
    sample_set_count(out, METRIC_CPU_USER, (uint64_t)((double)cpu.user * ms));
    sample_set_count(out, METRIC_CPU_SYS, (uint64_t)((double)cpu.sys * ms));
    sample_set_count(out, METRIC_CPU_NICE, (uint64_t)((double)cpu.nice * ms));
    sample_set_count(out, METRIC_CPU_IRQ,
                     (uint64_t)((double)(cpu.irq + cpu.softirq) * ms));
    sample_set_count(out, METRIC_CPU_IDLE, (uint64_t)((double)cpu.idle * ms));
    sample_set_count(out, METRIC_CPU_IOWAIT,
                     (uint64_t)((double)cpu.iowait * ms));
    sample_set_value(out, METRIC_LOAD1, load.loadavg[0]);
    return 0;
}

static void gtop_close(void *state)
{
    struct gtop_state *st = state;
    backend_proc.close(st->proc);
    free(st);
}

const struct backend backend_gtop = {
    .name = "libgtop+/proc",
    .open = gtop_open,
    .fetch = gtop_fetch,
    .close = gtop_close,
};
