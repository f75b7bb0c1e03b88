/* The one table of what a recording holds besides the metric table's
 * counters (core/metrics.h, recorded under their PCP names): per source,
 * what it is, how the fetch went, the Time rows and the clock probe; per
 * workload (one instance per catalogue name), the run and its figures.
 * Adding a field is one row: archive/recorder.c defines, describes and
 * writes every row; a row pmdaparallax also exports takes its name from
 * the agent's table (AGENT_NAME, core/agent_metrics.h) and means the
 * same there, so collectors/archive_source.c reads both alike.
 *
 * X(id, PCP name, type, semantics, units, when, help, value) with type
 * U32, U64, DOUBLE or STRING; semantics COUNTER, INSTANT or DISCRETE;
 * units NONE, SEC, COUNT, BYTE or KBYTE; when EACH (in every record) or
 * CHANGE (in the first and whenever it changes: what a source is, counts
 * that seldom change; a replay carries it on, as PCP's tools carry on
 * a value pmlogger logs once). The clock probe, which changes once in
 * minutes, is in every record: a replay that starts later (-S), jumps or
 * skips a record (two in one interval) would show an older probe. value
 * is an expression over `r`, the recorder's view of one source (struct
 * rec_src) or one workload on it (struct rec_job), both in
 * archive/recorder.c: a number (NaN: no value this time) or a string
 * (NULL or "": none). */
#ifndef PARALLAX_RECORD_TABLE_H
#define PARALLAX_RECORD_TABLE_H

#include "core/agent_metrics.h"

#define RECORD_SOURCE_TABLE(X)                                                 \
    X(INFO_HOST, "kernel.uname.nodename", STRING, DISCRETE, NONE, CHANGE,      \
      "Host name the source gave", r->m->info.host)                            \
    X(INFO_RELEASE, "kernel.uname.release", STRING, DISCRETE, NONE, CHANGE,    \
      "Kernel release of the source", r->m->info.release)                      \
    X(INFO_NCPU, "hinv.ncpu", U32, DISCRETE, NONE, CHANGE,                     \
      "CPUs of the source", r->m->info.ncpu > 0 ? r->m->info.ncpu : NAN)       \
    X(INFO_PHYSMEM, "mem.physmem", U64, DISCRETE, KBYTE, EACH,                 \
      "Physical memory of the source",                                         \
      r->m->info.mem_bytes > 0 ? r->m->info.mem_bytes / 1024 : NAN)            \
    X(MEM_AVAILABLE, "mem.util.available", U64, INSTANT, KBYTE, EACH,          \
      "Memory available: mem.physmem less the memory used parallax showed "    \
      "(its row is mem.physmem - mem.util.available)",                         \
      rec_available_kb(r))                                                     \
    X(SRC_NAME, "parallax.source.name", STRING, DISCRETE, NONE, CHANGE,        \
      "The source's column name in parallax: host, or the NAME of -h",         \
      r->m->name)                                                              \
    X(SRC_TARGET, "parallax.source.target", STRING, DISCRETE, NONE, CHANGE,    \
      "The pmcd parallax read, host[:port]; \"this host\" for the host",       \
      r->m->target[0] ? r->m->target : "this host")                            \
    X(SRC_BACKEND, "parallax.source.backend", STRING, DISCRETE, NONE, CHANGE,  \
      "How parallax read the source: /proc, pcp local, libgtop+/proc, pcp",    \
      r->m->backend)                                                           \
    X(SRC_PMDA, "parallax.source.pmda", U32, DISCRETE, NONE, CHANGE,           \
      "1 when pmdaparallax answered on the source, else 0", r->m->info.pmda)   \
    X(SRC_STATE, "parallax.source.state", U32, INSTANT, NONE, EACH,            \
      "0 connecting, 1 live, 2 down (see parallax.source.error)",              \
      (double)r->m->state)                                                     \
    X(SRC_ERROR, "parallax.source.error", STRING, INSTANT, NONE, EACH,         \
      "Why the source is down; no value while it answers",                     \
      r->m->state == SRC_DOWN ? r->m->error : NULL)                            \
    X(FETCH_RTT, "parallax.fetch.rtt", DOUBLE, INSTANT, SEC, EACH,             \
      "How long the fetch took by the host's monotonic clock; the record's "   \
      "timestamp is the host's realtime at its midpoint",                      \
      rec_live(r) ? r->smp->t_after - r->smp->t_before : NAN)                  \
    X(FETCH_SOURCE_TIME, "parallax.fetch.source_time", DOUBLE, INSTANT, SEC,   \
      EACH,                                                                    \
      "The source's own timestamp of the fetch, seconds since the epoch; no "  \
      "value where it gives none (this host read from /proc)",                 \
      rec_live(r) ? r->smp->t_source : NAN)                                    \
    X(FETCH_HOST_REAL, "parallax.fetch.host_real", DOUBLE, INSTANT, SEC, EACH, \
      "The host's realtime at the fetch's midpoint, whole (the record's "      \
      "timestamp has it to the microsecond): the clock fit's reference",       \
      rec_live(r) ? r->smp->t_real : NAN)                                      \
    X(FETCH_HOST_MONO, "parallax.fetch.host_mono", DOUBLE, INSTANT, SEC, EACH, \
      "The host's CLOCK_MONOTONIC at the fetch's midpoint: against the "       \
      "record's timestamp it tells whether the host's clock stepped",          \
      rec_live(r) ? sample_midpoint(r->smp) : NAN)                             \
    X(TIME_OFFSET, "parallax.time.offset", DOUBLE, INSTANT, SEC, EACH,         \
      "Clock offset, the source's clock less the host's, fitted from the "     \
      "fetches (the clock offset row); no value until the fit holds",          \
      r->fit.ok ? r->fit.offset : NAN)                                         \
    X(TIME_OFFSET_ERR, "parallax.time.offset_err", DOUBLE, INSTANT, SEC, EACH, \
      "Half-width of the clock offset's bound",                                \
      r->fit.ok ? r->fit.offset_err : NAN)                                     \
    X(TIME_DRIFT, "parallax.time.drift", DOUBLE, INSTANT, NONE, EACH,          \
      "Clock drift in parts per million, (source seconds per host second - "   \
      "1) x 1e6 (the clock drift row)",                                        \
      r->fit.ok ? r->fit.drift_ppm : NAN)                                      \
    X(TIME_DRIFT_ERR, "parallax.time.drift_err", DOUBLE, INSTANT, NONE, EACH,  \
      "Half-width of the drift's bound, parts per million",                    \
      r->fit.ok ? r->fit.drift_err_ppm : NAN)                                  \
    X(TIME_FIT_N, "parallax.time.fit_samples", U32, INSTANT, NONE, CHANGE,     \
      "Fetches the clock fit used", r->fit.ok ? r->fit.n_used : NAN)           \
    X(TIME_STEPS, "parallax.time.steps", U32, COUNTER, COUNT, CHANGE,          \
      "Steps of the source's clock seen (each restarts the fit)",              \
      (double)r->m->clock.steps)                                               \
    X(TIME_PROBE_HOST, "parallax.time.probe_host_saw", DOUBLE, INSTANT, SEC,   \
      EACH,                                                                    \
      "What the host's clock says the probe's sleep took: its stamps mapped "  \
      "through the fetches around them, else through the fitted rate (host "   \
      "saw, in the probe row)",                                                \
      view_probe_host_saw(r->m, r->is_host, NULL))                             \
    X(TIME_RATE_RECENT, "parallax.time.rate_recent", DOUBLE, INSTANT, NONE,    \
      EACH,                                                                    \
      "The source's seconds per host second over the last 10 s (the clock "    \
      "rate row); no value until two fetches span it",                         \
      r->m->rates.recent.ok ? r->m->rates.recent.rate : NAN)                   \
    X(TIME_RATE_RECENT_ERR, "parallax.time.rate_recent_err", DOUBLE, INSTANT,  \
      NONE, EACH, "Half-width of that rate's bound",                           \
      r->m->rates.recent.ok ? r->m->rates.recent.err : NAN)                    \
    X(TIME_RATE_LO, "parallax.time.rate_lo", DOUBLE, INSTANT, NONE, EACH,      \
      "Lowest rate of the spans of the last two minutes (at least 2 s each)",  \
      r->m->rates.lo)                                                          \
    X(TIME_RATE_HI, "parallax.time.rate_hi", DOUBLE, INSTANT, NONE, EACH,      \
      "Highest rate of those spans", r->m->rates.hi)                           \
    X(TIME_UNSTEADY, "parallax.time.unsteady", U32, INSTANT, NONE, EACH,       \
      "1 when those rates differ beyond their errors: the clock's rate "       \
      "varies (the row says varies lo-hi), else 0",                            \
      (double)r->m->rates.unsteady)                                            \
    X(CLK_PROBES, AGENT_NAME(CLK_PROBES), U64, COUNTER, COUNT, EACH,           \
      "Clock probes taken on the source (pmdaparallax's, or parallax's on "    \
      "this host)",                                                            \
      r->m->probe.count ? (double)r->m->probe.count : NAN)                     \
    X(CLK_SLEEP_REQ, AGENT_NAME(CLK_SLEEP_REQ), DOUBLE, INSTANT, SEC, EACH,    \
      "Length of the newest probe's sleep",                                    \
      r->m->probe.count ? r->m->probe.sleep_req : NAN)                         \
    X(CLK_SLEEP_TOOK, AGENT_NAME(CLK_SLEEP_TOOK), DOUBLE, INSTANT, SEC, EACH,  \
      "What the newest probe's sleep took by the source's clock",              \
      r->m->probe.count ? r->m->probe.sleep_took : NAN)                        \
    X(CLK_CPU_WALL, AGENT_NAME(CLK_CPU_WALL), DOUBLE, INSTANT, SEC, EACH,      \
      "Wall time of the newest probe's CPU-bound spin",                        \
      r->m->probe.count ? r->m->probe.spin_wall : NAN)                         \
    X(CLK_CPU_BILLED, AGENT_NAME(CLK_CPU_BILLED), DOUBLE, INSTANT, SEC, EACH,  \
      "CPU time billed for that spin",                                         \
      r->m->probe.count ? r->m->probe.spin_cpu : NAN)                          \
    X(CLK_CPU_WAITED, AGENT_NAME(CLK_CPU_WAITED), DOUBLE, INSTANT, SEC, EACH,  \
      "Time that spin waited for a CPU (run queue): with billed, why "         \
      "billed/wall is off",                                                    \
      r->m->probe.count ? r->m->probe.spin_waited : NAN)                       \
    X(TIME_PROBE_HELD, "parallax.time.probe_held", DOUBLE, INSTANT, NONE,      \
      EACH,                                                                    \
      "The host's view of the newest probe, for a guest joined to its VM "     \
      "here: the share of the time its vCPUs wanted a CPU that this host "     \
      "held them off one, over the VM readings around the probe's spin (the "  \
      "billed/wall row's \"host held\")",                                      \
      rec_probe_held(r->m))                                                    \
    X(SELF_CPU, "parallax.self.cpu", DOUBLE, INSTANT, NONE, EACH,              \
      "parallax's own CPU use, % of one CPU over its last second (every "      \
      "thread); this host's recording only",                                   \
      r->self ? r->self->cpu_pct : NAN)                                        \
    X(SELF_RSS, "parallax.self.rss", U64, INSTANT, BYTE, EACH,                 \
      "parallax's resident memory; this host's recording only",                \
      r->self ? r->self->rss_bytes : NAN)

#define RECORD_WORKLOAD_TABLE(X)                                               \
    X(WL_UNIT, AGENT_NAME(CAT_UNIT), STRING, DISCRETE, NONE, CHANGE,           \
      "Unit of the workload's figures", r->wl->unit)                           \
    X(WL_BETTER, AGENT_NAME(CAT_BETTER), STRING, DISCRETE, NONE, CHANGE,       \
      "\"lower\" or \"higher\": which figure is better",                       \
      r->wl->better == WL_LOWER_IS_BETTER ? "lower" : "higher")                \
    X(WL_STATE_CODE, AGENT_NAME(WL_STATE_CODE), U32, INSTANT, NONE, EACH,      \
      "0 idle or stopped, 1 running, 2 done, 3 failed (pmdaparallax's codes)", \
      rec_state_code(r->c->state))                                             \
    X(WL_STATE, AGENT_NAME(WL_STATE), STRING, INSTANT, NONE, EACH,             \
      "The run's state as parallax showed it: idle, running, stopping, "       \
      "done, stopped or failed",                                               \
      rec_state_name(r->c->state))                                             \
    X(WL_RUNS, AGENT_NAME(WL_RUNS), U64, COUNTER, COUNT, EACH,                 \
      "Runs parallax started of the workload on this source since the "        \
      "recording began: a new run shows as a rise",                            \
      r->runs)                                                                 \
    X(WL_START, "parallax.workload.start_time", DOUBLE, INSTANT, SEC, EACH,    \
      "When the current or last run started, by the host's realtime clock "    \
      "(seconds since the epoch)",                                             \
      r->start)                                                                \
    X(WL_END, "parallax.workload.end_time", DOUBLE, INSTANT, SEC, EACH,        \
      "When the last run ended, by the host's realtime clock; no value while " \
      "one runs",                                                              \
      r->end)                                                                  \
    X(WL_FIGURE, AGENT_NAME(WL_FIGURE), DOUBLE, INSTANT, NONE, EACH,           \
      "The figure parallax showed: the repeat in progress while running, "     \
      "else the median of the run's repeats",                                  \
      jobs_figure(r->c))                                                       \
    X(WL_REPEATS_DONE, AGENT_NAME(WL_REPEATS_DONE), U32, INSTANT, NONE, EACH,  \
      "Repeats of the current or last run that gave a result",                 \
      (double)r->c->stats.n)                                                   \
    X(WL_REPEATS, AGENT_NAME(WL_REPEATS), U32, DISCRETE, NONE, EACH,           \
      "Repeats the run was asked for", (double)r->c->repeats)                  \
    X(ST_N, AGENT_NAME(ST_N), U32, INSTANT, NONE, EACH,                        \
      "Figures in the statistics (finished repeats)", (double)r->c->stats.n)   \
    X(ST_MEDIAN, AGENT_NAME(ST_MEDIAN), DOUBLE, INSTANT, NONE, EACH,           \
      "Median figure of the finished repeats", r->c->stats.median)             \
    X(ST_MIN, AGENT_NAME(ST_MIN), DOUBLE, INSTANT, NONE, EACH,                 \
      "Lowest figure of the finished repeats", r->c->stats.min)                \
    X(ST_MAX, AGENT_NAME(ST_MAX), DOUBLE, INSTANT, NONE, EACH,                 \
      "Highest figure of the finished repeats", r->c->stats.max)               \
    X(ST_MEAN, AGENT_NAME(ST_MEAN), DOUBLE, INSTANT, NONE, EACH,               \
      "Mean figure of the finished repeats", r->c->stats.mean)                 \
    X(ST_CI_LO, AGENT_NAME(ST_CI_LO), DOUBLE, INSTANT, NONE, EACH,             \
      "Lower end of the 95% interval the report gives beside the median",      \
      r->c->stats.mean - r->c->stats.ci95)                                     \
    X(ST_CI_HI, AGENT_NAME(ST_CI_HI), DOUBLE, INSTANT, NONE, EACH,             \
      "Upper end of that interval", r->c->stats.mean + r->c->stats.ci95)       \
    X(ST_MED_LO, AGENT_NAME(ST_MED_LO), DOUBLE, INSTANT, NONE, EACH,           \
      "Lower end of the median's distribution-free interval (order "           \
      "statistics), the interval parallax shows beside the median",            \
      r->c->stats.med_lo)                                                      \
    X(ST_MED_HI, AGENT_NAME(ST_MED_HI), DOUBLE, INSTANT, NONE, EACH,           \
      "Upper end of the median's interval", r->c->stats.med_hi)                \
    X(ST_MED_COVER, AGENT_NAME(ST_MED_COVER), DOUBLE, INSTANT, NONE, EACH,     \
      "The chance that the median's interval holds the true median (0.75 at "  \
      "3 repeats, 0.94 at 5)",                                                 \
      r->c->stats.med_cover)                                                   \
    X(WL_REAL, "parallax.workload.time.real", U32, INSTANT, NONE, EACH,        \
      "1 when the figures are on the host's clock (this host's runs; a "       \
      "guest's once each repeat's stamps were mapped onto it), 0 when they "   \
      "are the source's word only",                                            \
      r->c->stats.n > 0 ? (double)r->c->real : NAN)                            \
    X(WL_SAID_MEDIAN, "parallax.workload.said.median", DOUBLE, INSTANT, NONE,  \
      EACH,                                                                    \
      "The median of the same repeats by the source's own clock (what it "     \
      "reported)",                                                             \
      r->c->said.median)                                                       \
    X(WL_CLOCK_RATE, "parallax.workload.time.clock_rate", DOUBLE, INSTANT,     \
      NONE, EACH,                                                              \
      "The source's seconds per real second over the measured repeats",        \
      r->c->rate)                                                              \
    X(WL_CLOCK_RATE_ERR, "parallax.workload.time.clock_rate_err", DOUBLE,      \
      INSTANT, NONE, EACH, "Half-width of that rate's bound", r->c->rate_err)  \
    X(WL_REAL_S, "parallax.workload.time.real_s", DOUBLE, INSTANT, SEC, EACH,  \
      "The measured repeats' real length, by the host's clock", r->c->real_s)  \
    X(WL_SAID_S, "parallax.workload.time.said_s", DOUBLE, INSTANT, SEC, EACH,  \
      "The same repeats' length by the source's clock", r->c->said_s)          \
    X(WL_RUN_REAL_S, "parallax.workload.time.run_real_s", DOUBLE, INSTANT,     \
      SEC, EACH,                                                               \
      "The whole run's real length, start to end (set-up and the gaps "        \
      "between repeats too)",                                                  \
      r->c->run_real_s)                                                        \
    X(WL_DIVERGENCE, "parallax.workload.time.divergence", DOUBLE, INSTANT,     \
      NONE, EACH,                                                              \
      "The source's median over the real one (2.75 for a throughput on a "     \
      "clock giving 0.36 s per real second); no value where they agree "       \
      "within the measurement's error",                                        \
      jobs_divergent(r->c) ? jobs_divergence(r->c) : NAN)                      \
    X(WL_PARTIAL, "parallax.workload.partial", U32, INSTANT, NONE, EACH,       \
      "1 when the run was stopped before its repeats were done (left out of "  \
      "the index)",                                                            \
      r->c->stats.n > 0 ? (double)jobs_partial(r->c) : NAN)                    \
    X(WL_SHARED, "parallax.workload.shared", U32, INSTANT, NONE, EACH,         \
      "1 when other sources ran workloads while this run ran (they compete "   \
      "for CPUs they share), else 0",                                          \
      r->c->stats.n > 0 ? (double)(r->c->overlap != 0) : NAN)                  \
    X(WL_ERROR, AGENT_NAME(WL_ERROR), STRING, DISCRETE, NONE, EACH,            \
      "Why the run failed; no value unless it did",                            \
      r->c->state == JOB_FAILED ? r->c->note : NULL)                           \
    X(WL_EXTRAS, AGENT_NAME(WL_EXTRAS), STRING, DISCRETE, NONE, EACH,          \
      "Secondary figures of the last finished repeat, one "                    \
      "name<TAB>unit<TAB>value line each (sched's fairness table, sleep's "    \
      "overshoots)",                                                           \
      rec_extras(r))                                                           \
    X(WL_HIST, AGENT_NAME(WL_HIST), STRING, DISCRETE, NONE, EACH,              \
      "A latency workload's distribution over its last finished repeats as "   \
      "parallax showed it, in real time where the figures are (see "           \
      "parallax.workload.time.real): \"n max_ns min_ns sum_ns;bucket:count,"   \
      "...\" (workloads/lat_hist.h); no value for other workloads",            \
      rec_hist(r))

/* The rows as enum ids and their names, for code that only reads them. */
enum record_source_row {
#define RECORD_ROW_ENUM(id, ...) RECORD_##id,
    RECORD_SOURCE_TABLE(RECORD_ROW_ENUM) RECORD_SOURCE_COUNT
};

enum record_workload_row {
    RECORD_WORKLOAD_TABLE(RECORD_ROW_ENUM) RECORD_WORKLOAD_COUNT
#undef RECORD_ROW_ENUM
};

extern const char *const record_source_names[RECORD_SOURCE_COUNT];
extern const char *const record_workload_names[RECORD_WORKLOAD_COUNT];

#endif
