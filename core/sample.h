/* One fetch from one source, as a collector delivers it: raw counters and
 * instant values in the units of the metric table, stamped with the host's
 * monotonic clock around the request and with the source's own clock. */
#ifndef PARALLAX_SAMPLE_H
#define PARALLAX_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/metrics.h"
#include "workloads/workload.h"

/* What a source is: shown in its column header and in reports. */
struct source_info {
    char host[64];
    char release[64]; /* kernel release */
    int ncpu;         /* 0 when unknown */
    double mem_bytes; /* physical memory, 0 when unknown */
    bool pmda;        /* pmdaparallax answers there */
    bool lease;       /* and takes leases (parallax.control.renew) */
    char sched[16];   /* its CPU scheduler, "CFS", "EEVDF"; "" unknown */
    char preempt[24]; /* its preemption model, "voluntary", "RT lazy" */
    /* while system calls are wanted and its agent counts none: a word for
     * the cell ("no tracepoint") and the agent's own account */
    char syscalls_why[24];
    char syscalls_status[160];
};

#define SAMPLE_MAX_JOBS   64
#define SAMPLE_MAX_STORES 8
/* the extras texts and repeat logs of every guest workload */
#define SAMPLE_EXTRAS_MAX 8192

/* A workload as pmdaparallax reports it from a guest (parallax.workload.*,
 * one instance per catalogue name). */
struct pmda_job {
    char name[32];
    int state;     /* 0 idle, 1 running, 2 done, 3 failed */
    unsigned runs; /* runs started since the agent started */
    double figure; /* latest figure, NaN when none */
    int repeats_done, repeats;
    int n; /* figures in the statistics */
    /* parallax.workload.stats.*, NaN when n is 0 */
    double median, min, max, mean, ci_lo, ci_hi;
    char error[96];
    int extras_at;  /* its extras text in sample.extras, or -1 when none */
    int log_at;     /* its repeat log (runner/repeat_log.h) there, or -1 */
    int hist_at;    /* its latency histogram (workloads/lat_hist.h), -1 */
    bool has_times; /* the agent gives repeat logs (an older one does not) */
    double run_start, run_end; /* the run's start and end by the guest's
                                  clock, s since the epoch; NaN */
    double user, sys;          /* CPU s the guest billed the run's repeats (its
                                  parallax.workload.user, .sys); NaN */
    struct wl_lanes lanes;     /* parallax.workload.lanes: sched's tasks */
};

/* The newest clock probe of a source (pmdaparallax's parallax.clock.*, or
 * the host's own probe), by the source's own clocks, in seconds. */
struct probe_sample {
    unsigned long count; /* probes taken; 0: none yet */
    double sleep_req, sleep_took;
    double spin_wall, spin_cpu;
    double spin_waited;        /* waited for a CPU meanwhile; NaN: unknown */
    double sleep_t0, sleep_t1; /* the sleep's start and end by the source's
                                  CLOCK_REALTIME; NaN from an older agent */
};

#define SAMPLE_MAX_TICKS 64 /* clock ticks between two samples */
#define SAMPLE_MAX_VMS   16 /* a recording's VMs in one record (VM_MAX) */

/* A clock tick: a one-metric fetch a sampler makes between its samples
 * while a guest run is watched, for its timestamp (sampler_watch). */
struct clock_tick {
    double t_before, t_after; /* host CLOCK_MONOTONIC around it */
    double t_source;          /* the source's stamp of it, epoch s */
};

/* Where a source replayed from a PCP archive stands (collectors/
 * archive_source.c); all zero for a live source. */
struct replay_pos {
    bool on;        /* the sample comes from a recording */
    bool again;     /* no new record: only the position below is news */
    bool restart;   /* after a jump: no rate or clock fit across it */
    bool ended;     /* the recording's last record has been shown */
    double at;      /* recorded host time of the record shown (epoch s) */
    double speed;   /* replay speed (1: as recorded), 0 while paused */
    char run[32];   /* the run lined up ("run NAME") until its end shows */
    char note[160]; /* what the recording lacks, "" when nothing */
};

/* The outcome of a store a sampler made for the main loop. */
struct store_result {
    unsigned id;              /* as returned by sampler_store */
    int status;               /* 0, or a negative PCP error code */
    double t_before, t_after; /* host CLOCK_MONOTONIC around the store */
    char msg[256];            /* why it was refused, and the fix */
};

struct sample {
    double t_before; /* host CLOCK_MONOTONIC seconds before the request */
    double t_after;  /* ... and after it */
    double t_source; /* the source's own timestamp (epoch s), NaN if none */
    double t_real;   /* host CLOCK_REALTIME at the midpoint (epoch s) */
    bool ok;         /* false: the fetch failed, see error */
    char error[160];
    double retry_at;     /* failed: host monotonic time of the next try */
    const char *backend; /* static name of the collector that read it */
    struct source_info info;
    bool have[METRIC_COUNT];      /* false: the source has no such value */
    uint64_t count[METRIC_COUNT]; /* counters (metric_is_counter) */
    uint8_t width[METRIC_COUNT];  /* counter width in bits (32 or 64) */
    double value[METRIC_COUNT];   /* instant values */
    struct probe_sample probe;    /* pmdaparallax's clock probe */
    /* a recording's host's view of that probe (probe_held's share, in
     * core/model.h), where it holds one */
    bool have_held;
    double held_share;
    int njobs; /* pmdaparallax's workloads, when it answers */
    struct pmda_job job[SAMPLE_MAX_JOBS];
    /* the jobs' extras texts (workloads/extras.h), each 0-terminated: a
     * pool, as few workloads have any */
    int extras_len;
    char extras[SAMPLE_EXTRAS_MAX];
    /* a replayed host's VMs as its record holds them (core/vm_recorded.h),
     * each one text in the pool; none for a live source */
    int nvms;
    int vm_at[SAMPLE_MAX_VMS];
    int nvms_held; /* the VMs the record holds: more when the pool is full */
    int nticks;    /* clock ticks since the previous sample, oldest first */
    struct clock_tick tick[SAMPLE_MAX_TICKS];
    int nstores; /* stores done since the previous sample */
    struct store_result store[SAMPLE_MAX_STORES];
    /* a standing renewal (sampler_renew) failed since the previous
     * sample, and not for this reason the time before: why; "" if not */
    char renew_error[256];
    struct replay_pos replay; /* a recording's position, else all zero */
};

/* A counter of the metric table, as a collector sets it (64 bits wide). */
static inline void sample_set_count(struct sample *out, int id, uint64_t v)
{
    out->have[id] = true;
    out->count[id] = v;
    out->width[id] = 64;
}

/* An instant value of the metric table. */
static inline void sample_set_value(struct sample *out, int id, double v)
{
    out->have[id] = true;
    out->value[id] = v;
}

/* Keeps text in the sample's pool when it has any and there is room;
 * returns where, or -1 (a full pool drops the rest: fewer details). */
static inline int sample_pool_add(struct sample *out, const char *text)
{
    size_t len = strlen(text);
    if (len == 0 || (size_t)out->extras_len + len + 1 > sizeof(out->extras))
        return -1;
    memcpy(out->extras + out->extras_len, text, len + 1);
    out->extras_len += (int)len + 1;
    return out->extras_len - (int)len - 1;
}

/* The host's view of when the fetch happened: the request's midpoint. */
static inline double sample_midpoint(const struct sample *s)
{
    return (s->t_before + s->t_after) / 2;
}

#endif
