/* The metrics of pmdaparallax, the guest agent: one row each, the one
 * table of their names, PMIDs and descriptors. Without PCP, so that every
 * user includes it: the agent (pmda/metrics.h turns the rows into
 * libpcp_pmda's table), the host's client of the agent
 * (collectors/pmda_jobs.c), the fleet's /pmapi client
 * (fleet/pmapi_source.c) and the recording's table (core/record_table.h,
 * whose rows of the same meaning take these names). pmda/pmns and
 * pmda/help name the same rows (tests/integration/test_pmda_pmcd.sh
 * compares them, test_agent_names.sh each user's names with a real
 * pmcd's).
 *
 * X(id, cluster, item, type, indom, semantics, units, name after
 *   "parallax.") with cluster a row of enum agent_cluster without its
 * AGENT_CL_, type U32 U64 DOUBLE or STRING, indom ONE (no instances),
 * WL (one per workload of the catalogue) or LAT (one per latency bucket of
 * a workload, pmda/latency.c), semantics COUNTER INSTANT or
 * DISCRETE, units NONE SEC or COUNT. */
#ifndef PARALLAX_AGENT_METRICS_H
#define PARALLAX_AGENT_METRICS_H

/* The clusters of the agent's PMIDs (pmda/pmns: PARALLAX:cluster:item). */
enum agent_cluster {
    AGENT_CL_AGENT,
    AGENT_CL_CATALOGUE,
    AGENT_CL_WORKLOAD,
    AGENT_CL_STATS,
    AGENT_CL_CLOCK,
    AGENT_CL_SYSCALLS,
    AGENT_CL_CONTROL,
    AGENT_CL_KERNEL,
    AGENT_CL_LATENCY,
};

#define AGENT_METRICS(X)                                                       \
    X(AGENT_VERSION, AGENT, 0, STRING, ONE, DISCRETE, NONE, "agent.version")   \
    X(AGENT_USER, AGENT, 1, STRING, ONE, DISCRETE, NONE, "agent.user")         \
    X(AGENT_MAX_RUNS, AGENT, 2, U32, ONE, DISCRETE, NONE, "agent.max_runs")    \
    X(AGENT_RUNNING, AGENT, 3, U32, ONE, INSTANT, NONE, "agent.running")       \
    X(AGENT_PROBE_INTERVAL, AGENT, 4, DOUBLE, ONE, DISCRETE, SEC,              \
      "agent.probe_interval")                                                  \
    X(KERNEL_SCHED, KERNEL, 0, STRING, ONE, DISCRETE, NONE,                    \
      "kernel.scheduler")                                                      \
    X(KERNEL_PREEMPT, KERNEL, 1, STRING, ONE, DISCRETE, NONE,                  \
      "kernel.preempt")                                                        \
    X(CAT_DESC, CATALOGUE, 0, STRING, WL, DISCRETE, NONE, "catalogue.desc")    \
    X(CAT_UNIT, CATALOGUE, 1, STRING, WL, DISCRETE, NONE, "catalogue.unit")    \
    X(CAT_BETTER, CATALOGUE, 2, STRING, WL, DISCRETE, NONE,                    \
      "catalogue.better")                                                      \
    X(CAT_PARAMS, CATALOGUE, 3, STRING, WL, DISCRETE, NONE,                    \
      "catalogue.params")                                                      \
    X(WL_STATE, WORKLOAD, 0, STRING, WL, INSTANT, NONE, "workload.state")      \
    X(WL_STATE_CODE, WORKLOAD, 1, U32, WL, INSTANT, NONE,                      \
      "workload.state_code")                                                   \
    X(WL_RUNS, WORKLOAD, 2, U64, WL, COUNTER, COUNT, "workload.runs")          \
    X(WL_OPS, WORKLOAD, 3, U64, WL, COUNTER, COUNT, "workload.ops")            \
    X(WL_WALL, WORKLOAD, 4, DOUBLE, WL, INSTANT, SEC, "workload.wall")         \
    X(WL_USER, WORKLOAD, 5, DOUBLE, WL, INSTANT, SEC, "workload.user")         \
    X(WL_SYS, WORKLOAD, 6, DOUBLE, WL, INSTANT, SEC, "workload.sys")           \
    X(WL_FIGURE, WORKLOAD, 7, DOUBLE, WL, INSTANT, NONE, "workload.figure")    \
    X(WL_REPEATS_DONE, WORKLOAD, 8, U32, WL, INSTANT, NONE,                    \
      "workload.repeats_done")                                                 \
    X(WL_REPEATS, WORKLOAD, 9, U32, WL, DISCRETE, NONE, "workload.repeats")    \
    X(WL_ARGS, WORKLOAD, 10, STRING, WL, DISCRETE, NONE, "workload.args")      \
    X(WL_ERROR, WORKLOAD, 11, STRING, WL, DISCRETE, NONE, "workload.error")    \
    X(WL_EXTRAS, WORKLOAD, 12, STRING, WL, DISCRETE, NONE, "workload.extras")  \
    X(WL_RUN_START, WORKLOAD, 13, DOUBLE, WL, DISCRETE, SEC,                   \
      "workload.run_start")                                                    \
    X(WL_RUN_END, WORKLOAD, 14, DOUBLE, WL, DISCRETE, SEC, "workload.run_end") \
    X(WL_REPEAT_LOG, WORKLOAD, 15, STRING, WL, INSTANT, NONE,                  \
      "workload.repeat_log")                                                   \
    X(WL_LANES, WORKLOAD, 16, STRING, WL, INSTANT, NONE, "workload.lanes")     \
    X(WL_LEASE, WORKLOAD, 17, DOUBLE, WL, INSTANT, SEC, "workload.lease")      \
    X(WL_HIST, WORKLOAD, 18, STRING, WL, DISCRETE, NONE, "workload.hist")      \
    X(LAT_COUNT, LATENCY, 0, U64, LAT, INSTANT, COUNT, "latency.count")        \
    X(LAT_LO, LATENCY, 1, DOUBLE, LAT, DISCRETE, SEC, "latency.lo")            \
    X(LAT_HI, LATENCY, 2, DOUBLE, LAT, DISCRETE, SEC, "latency.hi")            \
    X(LAT_P50, LATENCY, 3, DOUBLE, WL, INSTANT, SEC, "latency.p50")            \
    X(LAT_P90, LATENCY, 4, DOUBLE, WL, INSTANT, SEC, "latency.p90")            \
    X(LAT_P99, LATENCY, 5, DOUBLE, WL, INSTANT, SEC, "latency.p99")            \
    X(LAT_P999, LATENCY, 6, DOUBLE, WL, INSTANT, SEC, "latency.p99_9")         \
    X(LAT_MAX, LATENCY, 7, DOUBLE, WL, INSTANT, SEC, "latency.max")            \
    X(LAT_SAMPLES, LATENCY, 8, U64, WL, INSTANT, COUNT, "latency.samples")     \
    X(ST_N, STATS, 0, U32, WL, INSTANT, NONE, "workload.stats.n")              \
    X(ST_MEDIAN, STATS, 1, DOUBLE, WL, INSTANT, NONE, "workload.stats.median") \
    X(ST_MIN, STATS, 2, DOUBLE, WL, INSTANT, NONE, "workload.stats.min")       \
    X(ST_MAX, STATS, 3, DOUBLE, WL, INSTANT, NONE, "workload.stats.max")       \
    X(ST_MEAN, STATS, 4, DOUBLE, WL, INSTANT, NONE, "workload.stats.mean")     \
    X(ST_CI_LO, STATS, 5, DOUBLE, WL, INSTANT, NONE, "workload.stats.ci95_lo") \
    X(ST_CI_HI, STATS, 6, DOUBLE, WL, INSTANT, NONE, "workload.stats.ci95_hi") \
    X(ST_MED_LO, STATS, 7, DOUBLE, WL, INSTANT, NONE,                          \
      "workload.stats.median_lo")                                              \
    X(ST_MED_HI, STATS, 8, DOUBLE, WL, INSTANT, NONE,                          \
      "workload.stats.median_hi")                                              \
    X(ST_MED_COVER, STATS, 9, DOUBLE, WL, INSTANT, NONE,                       \
      "workload.stats.median_cover")                                           \
    X(CLK_PROBES, CLOCK, 0, U64, ONE, COUNTER, COUNT, "clock.probes")          \
    X(CLK_SLEEP_REQ, CLOCK, 1, DOUBLE, ONE, INSTANT, SEC,                      \
      "clock.sleep.requested")                                                 \
    X(CLK_SLEEP_TOOK, CLOCK, 2, DOUBLE, ONE, INSTANT, SEC,                     \
      "clock.sleep.measured")                                                  \
    X(CLK_SLEEP_OVER, CLOCK, 3, DOUBLE, ONE, INSTANT, SEC,                     \
      "clock.sleep.overshoot")                                                 \
    X(CLK_CPU_WALL, CLOCK, 4, DOUBLE, ONE, INSTANT, SEC, "clock.cpu.wall")     \
    X(CLK_CPU_BILLED, CLOCK, 5, DOUBLE, ONE, INSTANT, SEC, "clock.cpu.billed") \
    X(CLK_CPU_RATIO, CLOCK, 6, DOUBLE, ONE, INSTANT, NONE, "clock.cpu.ratio")  \
    X(CLK_CPU_WAITED, CLOCK, 7, DOUBLE, ONE, INSTANT, SEC, "clock.cpu.waited") \
    X(CLK_SLEEP_START, CLOCK, 8, DOUBLE, ONE, INSTANT, SEC,                    \
      "clock.sleep.start")                                                     \
    X(CLK_SLEEP_END, CLOCK, 9, DOUBLE, ONE, INSTANT, SEC, "clock.sleep.end")   \
    X(SYS_TOTAL, SYSCALLS, 0, U64, ONE, COUNTER, COUNT, "syscalls.total")      \
    X(SYS_STATUS, SYSCALLS, 1, STRING, ONE, INSTANT, NONE, "syscalls.status")  \
    X(CTL_START, CONTROL, 0, STRING, ONE, DISCRETE, NONE, "control.start")     \
    X(CTL_STOP, CONTROL, 1, STRING, ONE, DISCRETE, NONE, "control.stop")       \
    X(CTL_STOP_ALL, CONTROL, 2, U32, ONE, COUNTER, NONE, "control.stop_all")   \
    X(CTL_PROBE, CONTROL, 3, U32, ONE, COUNTER, NONE, "control.probe")         \
    X(CTL_ERROR, CONTROL, 4, STRING, ONE, DISCRETE, NONE, "control.error")     \
    X(CTL_RENEW, CONTROL, 5, STRING, ONE, DISCRETE, NONE, "control.renew")

enum agent_metric {
#define AGENT_METRIC_ENUM(id, ...) AM_##id,
    AGENT_METRICS(AGENT_METRIC_ENUM)
#undef AGENT_METRIC_ENUM
        AM_COUNT
};

/* The full names as one object of static storage, a member a row: so
 * that AGENT_NAME(id), "parallax.clock.probes" for CLK_PROBES, is a
 * constant that other tables' initialisers take (core/record_table.c). */
struct agent_metric_names {
#define AGENT_NAME_FIELD(id, cl, item, type, indom, sem, units, name)          \
    char id[sizeof("parallax." name)];
    AGENT_METRICS(AGENT_NAME_FIELD)
#undef AGENT_NAME_FIELD
};
extern const struct agent_metric_names agent_names;
#define AGENT_NAME(id) (agent_names.id)

/* The same names by enum agent_metric. */
extern const char *const agent_metric_names[AM_COUNT];

/* What parallax's clients read of the agent, X(short name, row above):
 * per workload and per clock probe, both clients (the host's through a
 * PCP context, collectors/pmda_jobs.c, and the fleet's through pmproxy's
 * /pmapi, fleet/pmapi_source.c), then what the host's client reads
 * besides (HIST: a latency workload's histogram, workloads/lat_hist.h).
 * The clients number them in this order. */
#define AGENT_JOB_READS(X)                                                     \
    X(STATE, WL_STATE_CODE)                                                    \
    X(RUNS, WL_RUNS)                                                           \
    X(FIGURE, WL_FIGURE)                                                       \
    X(REPEATS_DONE, WL_REPEATS_DONE)                                           \
    X(REPEATS, WL_REPEATS)                                                     \
    X(N, ST_N)                                                                 \
    X(MEDIAN, ST_MEDIAN)                                                       \
    X(MIN, ST_MIN)                                                             \
    X(MAX, ST_MAX)                                                             \
    X(MEAN, ST_MEAN)                                                           \
    X(CI_LO, ST_CI_LO)                                                         \
    X(CI_HI, ST_CI_HI)                                                         \
    X(ERROR, WL_ERROR)                                                         \
    X(EXTRAS, WL_EXTRAS)
#define AGENT_JOB_READS_HOST(X)                                                \
    X(RUN_START, WL_RUN_START)                                                 \
    X(RUN_END, WL_RUN_END)                                                     \
    X(REPEAT_LOG, WL_REPEAT_LOG)                                               \
    X(LANES, WL_LANES)                                                         \
    X(HIST, WL_HIST)                                                           \
    X(USER, WL_USER)                                                           \
    X(SYS, WL_SYS)
#define AGENT_PROBE_READS(X)                                                   \
    X(PROBES, CLK_PROBES)                                                      \
    X(SLEEP_REQ, CLK_SLEEP_REQ)                                                \
    X(SLEEP_TOOK, CLK_SLEEP_TOOK)                                              \
    X(SPIN_WALL, CLK_CPU_WALL)                                                 \
    X(SPIN_CPU, CLK_CPU_BILLED)
#define AGENT_PROBE_READS_HOST(X)                                              \
    X(SPIN_WAITED, CLK_CPU_WAITED)                                             \
    X(SLEEP_START, CLK_SLEEP_START)                                            \
    X(SLEEP_END, CLK_SLEEP_END)

#endif
