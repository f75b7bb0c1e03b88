/* The one table of the counters parallax shows for every source. Enum ids,
 * keys, labels, PCP names and display kinds are all generated from
 * METRIC_TABLE; collectors, model and views index by enum metric_id. */
#ifndef PARALLAX_METRICS_H
#define PARALLAX_METRICS_H

#include <stdbool.h>

/* How a raw value becomes a shown figure. */
enum metric_kind {
    MK_CPU,     /* counter of CPU milliseconds in one state: its share of the
                   CPU time every state counted in the interval, % */
    MK_RATE,    /* counter: per second */
    MK_INSTANT, /* instantaneous value, shown as is */
};

/* The unit a collector must deliver the raw value in. */
enum metric_unit {
    MU_MSEC,  /* milliseconds */
    MU_BYTE,  /* bytes */
    MU_COUNT, /* events or tasks */
    MU_NONE,  /* dimensionless (load average) */
};

/* Which way a guest/host ratio is turned so that > 1 means worse in the
 * guest, or busier where busier is neither better nor worse (an idle
 * guest's few context switches are not "good"); RO_NONE where the figures
 * do not compare at all (forks, bytes). */
enum ratio_orientation {
    RO_NONE,
    RO_HIGHER_WORSE,  /* guest / host */
    RO_LOWER_WORSE,   /* host / guest */
    RO_HIGHER_BUSIER, /* guest / host, a measure of activity */
    RO_LOWER_BUSIER,  /* host / guest, a measure of idleness */
};

/* How the shown figure is formatted. */
enum metric_format {
    MF_PERCENT, /* 12.3 */
    MF_SI,      /* 9.3k, 1.2M */
    MF_BYTES,   /* 12.0M, 3.1G (binary) */
    MF_FIXED2,  /* 0.43 */
};

/* X(id, key, label, PCP name or derived expression, PCP instance or NULL,
 *   kind, raw unit, format, ratio orientation) */
#define METRIC_TABLE(X)                                                        \
    X(CPU_USER, "cpu_user", "CPU user %", "kernel.all.cpu.user", NULL, MK_CPU, \
      MU_MSEC, MF_PERCENT, RO_HIGHER_BUSIER)                                   \
    X(CPU_SYS, "cpu_sys", "CPU sys %", "kernel.all.cpu.sys", NULL, MK_CPU,     \
      MU_MSEC, MF_PERCENT, RO_HIGHER_BUSIER)                                   \
    X(CPU_NICE, "cpu_nice", "CPU nice %", "kernel.all.cpu.nice", NULL, MK_CPU, \
      MU_MSEC, MF_PERCENT, RO_HIGHER_BUSIER)                                   \
    X(CPU_IDLE, "cpu_idle", "CPU idle %", "kernel.all.cpu.idle", NULL, MK_CPU, \
      MU_MSEC, MF_PERCENT, RO_LOWER_BUSIER)                                    \
    X(CPU_IOWAIT, "cpu_iowait", "iowait %", "kernel.all.cpu.wait.total", NULL, \
      MK_CPU, MU_MSEC, MF_PERCENT, RO_HIGHER_WORSE)                            \
    X(CPU_IRQ, "cpu_irq", "irq %", "kernel.all.cpu.intr", NULL, MK_CPU,        \
      MU_MSEC, MF_PERCENT, RO_HIGHER_BUSIER)                                   \
    X(CPU_STEAL, "cpu_steal", "steal %", "kernel.all.cpu.steal", NULL, MK_CPU, \
      MU_MSEC, MF_PERCENT, RO_HIGHER_WORSE)                                    \
    X(CTXSW, "ctxsw", "ctx switch/s", "kernel.all.pswitch", NULL, MK_RATE,     \
      MU_COUNT, MF_SI, RO_HIGHER_BUSIER)                                       \
    X(FORKS, "forks", "forks/s", "kernel.all.sysfork", NULL, MK_RATE,          \
      MU_COUNT, MF_SI, RO_NONE)                                                \
    X(SYSCALLS, "syscalls", "syscalls/s", "parallax.syscalls.total", NULL,     \
      MK_RATE, MU_COUNT, MF_SI, RO_HIGHER_BUSIER)                              \
    X(INTR, "intr", "interrupts/s", "kernel.all.intr", NULL, MK_RATE,          \
      MU_COUNT, MF_SI, RO_HIGHER_BUSIER)                                       \
    X(RUNNABLE, "runnable", "runnable", "kernel.all.runnable", NULL,           \
      MK_INSTANT, MU_COUNT, MF_SI, RO_HIGHER_BUSIER)                           \
    X(LOAD1, "load1", "load avg 1m", "kernel.all.load", "1 minute",            \
      MK_INSTANT, MU_NONE, MF_FIXED2, RO_HIGHER_BUSIER)                        \
    X(DISK_READ, "disk_read", "disk read B/s", "disk.all.read_bytes", NULL,    \
      MK_RATE, MU_BYTE, MF_BYTES, RO_NONE)                                     \
    X(DISK_WRITE, "disk_write", "disk write B/s", "disk.all.write_bytes",      \
      NULL, MK_RATE, MU_BYTE, MF_BYTES, RO_NONE)                               \
    X(MEM_USED, "mem_used", "memory used", "mem.physmem - mem.util.available", \
      NULL, MK_INSTANT, MU_BYTE, MF_BYTES, RO_NONE)

enum metric_id {
#define METRIC_ENUM(id, ...) METRIC_##id,
    METRIC_TABLE(METRIC_ENUM)
#undef METRIC_ENUM
        METRIC_COUNT
};

struct metric_desc {
    const char *key;   /* stable identifier for reports and tests */
    const char *label; /* row label on screen */
    const char *pcp;   /* PCP metric name, or a derived-metric expression */
    const char *inst;  /* PCP instance name, NULL for singular metrics */
    enum metric_kind kind;
    enum metric_unit unit;
    enum metric_format format;
    enum ratio_orientation ratio;
};

extern const struct metric_desc metric_descs[METRIC_COUNT];

/* True when the metric is a counter (its value is a rate of change). */
bool metric_is_counter(enum metric_id id);

/* The id whose key is `key`, or -1. */
int metric_by_key(const char *key);

#endif
