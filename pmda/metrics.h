/* The metric table of pmdaparallax: one row per metric, from which the id
 * enum, libpcp_pmda's pmdaMetric array and the name list are generated.
 * pmda/pmns and pmda/help name the same rows (the tests compare them). */
#ifndef PARALLAX_PMDA_METRICS_H
#define PARALLAX_PMDA_METRICS_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#define CATALOGUE_INDOM 0 /* serial of the workloads' instance domain */
#define LATENCY_INDOM   1 /* ... of the latency buckets' (pmda/latency.c) */

enum cluster {
    CL_AGENT,
    CL_CATALOGUE,
    CL_WORKLOAD,
    CL_STATS,
    CL_CLOCK,
    CL_SYSCALLS,
    CL_CONTROL,
    CL_KERNEL,
    CL_LATENCY,
};

#define U_NONE  PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define U_SEC   PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)
#define U_COUNT PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)
#define I_NULL  PM_INDOM_NULL
#define I_WL    CATALOGUE_INDOM
#define I_LAT   LATENCY_INDOM

/* X(id, cluster, item, type, indom, semantics, units, name after
 *   "parallax.") */
#define PARALLAX_METRICS(X)                                                    \
    X(AGENT_VERSION, CL_AGENT, 0, STRING, I_NULL, DISCRETE, NONE,              \
      "agent.version")                                                         \
    X(AGENT_USER, CL_AGENT, 1, STRING, I_NULL, DISCRETE, NONE, "agent.user")   \
    X(AGENT_MAX_RUNS, CL_AGENT, 2, U32, I_NULL, DISCRETE, NONE,                \
      "agent.max_runs")                                                        \
    X(AGENT_RUNNING, CL_AGENT, 3, U32, I_NULL, INSTANT, NONE, "agent.running") \
    X(AGENT_PROBE_INTERVAL, CL_AGENT, 4, DOUBLE, I_NULL, DISCRETE, SEC,        \
      "agent.probe_interval")                                                  \
    X(KERNEL_SCHED, CL_KERNEL, 0, STRING, I_NULL, DISCRETE, NONE,              \
      "kernel.scheduler")                                                      \
    X(KERNEL_PREEMPT, CL_KERNEL, 1, STRING, I_NULL, DISCRETE, NONE,            \
      "kernel.preempt")                                                        \
    X(CAT_DESC, CL_CATALOGUE, 0, STRING, I_WL, DISCRETE, NONE,                 \
      "catalogue.desc")                                                        \
    X(CAT_UNIT, CL_CATALOGUE, 1, STRING, I_WL, DISCRETE, NONE,                 \
      "catalogue.unit")                                                        \
    X(CAT_BETTER, CL_CATALOGUE, 2, STRING, I_WL, DISCRETE, NONE,               \
      "catalogue.better")                                                      \
    X(CAT_PARAMS, CL_CATALOGUE, 3, STRING, I_WL, DISCRETE, NONE,               \
      "catalogue.params")                                                      \
    X(WL_STATE, CL_WORKLOAD, 0, STRING, I_WL, INSTANT, NONE, "workload.state") \
    X(WL_STATE_CODE, CL_WORKLOAD, 1, U32, I_WL, INSTANT, NONE,                 \
      "workload.state_code")                                                   \
    X(WL_RUNS, CL_WORKLOAD, 2, U64, I_WL, COUNTER, COUNT, "workload.runs")     \
    X(WL_OPS, CL_WORKLOAD, 3, U64, I_WL, COUNTER, COUNT, "workload.ops")       \
    X(WL_WALL, CL_WORKLOAD, 4, DOUBLE, I_WL, INSTANT, SEC, "workload.wall")    \
    X(WL_USER, CL_WORKLOAD, 5, DOUBLE, I_WL, INSTANT, SEC, "workload.user")    \
    X(WL_SYS, CL_WORKLOAD, 6, DOUBLE, I_WL, INSTANT, SEC, "workload.sys")      \
    X(WL_FIGURE, CL_WORKLOAD, 7, DOUBLE, I_WL, INSTANT, NONE,                  \
      "workload.figure")                                                       \
    X(WL_REPEATS_DONE, CL_WORKLOAD, 8, U32, I_WL, INSTANT, NONE,               \
      "workload.repeats_done")                                                 \
    X(WL_REPEATS, CL_WORKLOAD, 9, U32, I_WL, DISCRETE, NONE,                   \
      "workload.repeats")                                                      \
    X(WL_ARGS, CL_WORKLOAD, 10, STRING, I_WL, DISCRETE, NONE, "workload.args") \
    X(WL_ERROR, CL_WORKLOAD, 11, STRING, I_WL, DISCRETE, NONE,                 \
      "workload.error")                                                        \
    X(WL_EXTRAS, CL_WORKLOAD, 12, STRING, I_WL, DISCRETE, NONE,                \
      "workload.extras")                                                       \
    X(WL_RUN_START, CL_WORKLOAD, 13, DOUBLE, I_WL, DISCRETE, SEC,              \
      "workload.run_start")                                                    \
    X(WL_RUN_END, CL_WORKLOAD, 14, DOUBLE, I_WL, DISCRETE, SEC,                \
      "workload.run_end")                                                      \
    X(WL_REPEAT_LOG, CL_WORKLOAD, 15, STRING, I_WL, INSTANT, NONE,             \
      "workload.repeat_log")                                                   \
    X(WL_LANES, CL_WORKLOAD, 16, STRING, I_WL, INSTANT, NONE,                  \
      "workload.lanes")                                                        \
    X(WL_LEASE, CL_WORKLOAD, 17, DOUBLE, I_WL, INSTANT, SEC, "workload.lease") \
    X(WL_HIST, CL_WORKLOAD, 18, STRING, I_WL, DISCRETE, NONE, "workload.hist") \
    X(LAT_COUNT, CL_LATENCY, 0, U64, I_LAT, INSTANT, COUNT, "latency.count")   \
    X(LAT_LO, CL_LATENCY, 1, DOUBLE, I_LAT, DISCRETE, SEC, "latency.lo")       \
    X(LAT_HI, CL_LATENCY, 2, DOUBLE, I_LAT, DISCRETE, SEC, "latency.hi")       \
    X(LAT_P50, CL_LATENCY, 3, DOUBLE, I_WL, INSTANT, SEC, "latency.p50")       \
    X(LAT_P90, CL_LATENCY, 4, DOUBLE, I_WL, INSTANT, SEC, "latency.p90")       \
    X(LAT_P99, CL_LATENCY, 5, DOUBLE, I_WL, INSTANT, SEC, "latency.p99")       \
    X(LAT_P999, CL_LATENCY, 6, DOUBLE, I_WL, INSTANT, SEC, "latency.p99_9")    \
    X(LAT_MAX, CL_LATENCY, 7, DOUBLE, I_WL, INSTANT, SEC, "latency.max")       \
    X(LAT_SAMPLES, CL_LATENCY, 8, U64, I_WL, INSTANT, COUNT,                   \
      "latency.samples")                                                       \
    X(ST_N, CL_STATS, 0, U32, I_WL, INSTANT, NONE, "workload.stats.n")         \
    X(ST_MEDIAN, CL_STATS, 1, DOUBLE, I_WL, INSTANT, NONE,                     \
      "workload.stats.median")                                                 \
    X(ST_MIN, CL_STATS, 2, DOUBLE, I_WL, INSTANT, NONE, "workload.stats.min")  \
    X(ST_MAX, CL_STATS, 3, DOUBLE, I_WL, INSTANT, NONE, "workload.stats.max")  \
    X(ST_MEAN, CL_STATS, 4, DOUBLE, I_WL, INSTANT, NONE,                       \
      "workload.stats.mean")                                                   \
    X(ST_CI_LO, CL_STATS, 5, DOUBLE, I_WL, INSTANT, NONE,                      \
      "workload.stats.ci95_lo")                                                \
    X(ST_CI_HI, CL_STATS, 6, DOUBLE, I_WL, INSTANT, NONE,                      \
      "workload.stats.ci95_hi")                                                \
    X(ST_MED_LO, CL_STATS, 7, DOUBLE, I_WL, INSTANT, NONE,                     \
      "workload.stats.median_lo")                                              \
    X(ST_MED_HI, CL_STATS, 8, DOUBLE, I_WL, INSTANT, NONE,                     \
      "workload.stats.median_hi")                                              \
    X(ST_MED_COVER, CL_STATS, 9, DOUBLE, I_WL, INSTANT, NONE,                  \
      "workload.stats.median_cover")                                           \
    X(CLK_PROBES, CL_CLOCK, 0, U64, I_NULL, COUNTER, COUNT, "clock.probes")    \
    X(CLK_SLEEP_REQ, CL_CLOCK, 1, DOUBLE, I_NULL, INSTANT, SEC,                \
      "clock.sleep.requested")                                                 \
    X(CLK_SLEEP_TOOK, CL_CLOCK, 2, DOUBLE, I_NULL, INSTANT, SEC,               \
      "clock.sleep.measured")                                                  \
    X(CLK_SLEEP_OVER, CL_CLOCK, 3, DOUBLE, I_NULL, INSTANT, SEC,               \
      "clock.sleep.overshoot")                                                 \
    X(CLK_CPU_WALL, CL_CLOCK, 4, DOUBLE, I_NULL, INSTANT, SEC,                 \
      "clock.cpu.wall")                                                        \
    X(CLK_CPU_BILLED, CL_CLOCK, 5, DOUBLE, I_NULL, INSTANT, SEC,               \
      "clock.cpu.billed")                                                      \
    X(CLK_CPU_RATIO, CL_CLOCK, 6, DOUBLE, I_NULL, INSTANT, NONE,               \
      "clock.cpu.ratio")                                                       \
    X(CLK_CPU_WAITED, CL_CLOCK, 7, DOUBLE, I_NULL, INSTANT, SEC,               \
      "clock.cpu.waited")                                                      \
    X(CLK_SLEEP_START, CL_CLOCK, 8, DOUBLE, I_NULL, INSTANT, SEC,              \
      "clock.sleep.start")                                                     \
    X(CLK_SLEEP_END, CL_CLOCK, 9, DOUBLE, I_NULL, INSTANT, SEC,                \
      "clock.sleep.end")                                                       \
    X(SYS_TOTAL, CL_SYSCALLS, 0, U64, I_NULL, COUNTER, COUNT,                  \
      "syscalls.total")                                                        \
    X(SYS_STATUS, CL_SYSCALLS, 1, STRING, I_NULL, INSTANT, NONE,               \
      "syscalls.status")                                                       \
    X(CTL_START, CL_CONTROL, 0, STRING, I_NULL, DISCRETE, NONE,                \
      "control.start")                                                         \
    X(CTL_STOP, CL_CONTROL, 1, STRING, I_NULL, DISCRETE, NONE, "control.stop") \
    X(CTL_STOP_ALL, CL_CONTROL, 2, U32, I_NULL, COUNTER, NONE,                 \
      "control.stop_all")                                                      \
    X(CTL_PROBE, CL_CONTROL, 3, U32, I_NULL, COUNTER, NONE, "control.probe")   \
    X(CTL_ERROR, CL_CONTROL, 4, STRING, I_NULL, DISCRETE, NONE,                \
      "control.error")                                                         \
    X(CTL_RENEW, CL_CONTROL, 5, STRING, I_NULL, DISCRETE, NONE, "control.renew")

enum metric_id {
#define METRIC_ENUM(id, ...) M_##id,
    PARALLAX_METRICS(METRIC_ENUM)
#undef METRIC_ENUM
        M_COUNT
};

/* libpcp_pmda's table, indexed by enum metric_id (pmdaInit fills in the
 * domain and the instance domain). */
extern pmdaMetric metric_table[M_COUNT];

/* The id of a row of metric_table, or -1 when m is not one. */
int metric_id_of(const pmdaMetric *m);

/* The full name of a metric, "parallax.control.start". */
const char *metric_name(enum metric_id id);

/* The metric a PMID names, or -1. */
int metric_by_pmid(pmID pmid);

#endif
