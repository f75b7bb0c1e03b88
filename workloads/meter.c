/* Wall and CPU clocks for composite workloads. */
#include "workloads/meter.h"

#include <sys/resource.h>
#include <time.h>

double wl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double wl_realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv_secs(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

void wl_cpu_times(double *user, double *sys)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    *user = tv_secs(self.ru_utime) + tv_secs(kids.ru_utime);
    *sys = tv_secs(self.ru_stime) + tv_secs(kids.ru_stime);
}

void wl_meter_start(struct wl_meter *m)
{
    m->wall0 = wl_now();
    wl_cpu_times(&m->user0, &m->sys0);
}

void wl_meter_publish(const struct wl_meter *m, struct wl_progress *p,
                      uint64_t ops)
{
    double user, sys;
    wl_cpu_times(&user, &sys);
    atomic_store_explicit(&p->wall, wl_now() - m->wall0, memory_order_relaxed);
    atomic_store_explicit(&p->user, user - m->user0, memory_order_relaxed);
    atomic_store_explicit(&p->sys, sys - m->sys0, memory_order_relaxed);
    atomic_store_explicit(&p->ops, ops, memory_order_release);
}
