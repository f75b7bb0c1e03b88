/* The host's view of the VMs on it: each VM is a process (qemu, a
 * User-Mode Linux kernel, firecracker, cloud-hypervisor) whose threads the
 * host's scheduler runs and makes wait. A reading holds its raw counters
 * (collectors/vm_proc.c fills it from /proc); the model turns two readings
 * into what its vCPUs ran and waited, apart from the VMM's other threads. */
#ifndef PARALLAX_VM_MODEL_H
#define PARALLAX_VM_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VM_MAX         16 /* VMs watched on one host */
#define VM_MAX_THREADS 64 /* threads of one VM read */
#define VM_MAX_VCPUS   16 /* vCPUs shown one by one */
#define VM_WHY         96 /* a one-line reason */
#define VM_MARKS                                                               \
    8 /* readings' totals kept: a span's ends found up                         \
         to 8 readings back (a probe reported late) */

enum vm_kind { VMK_QEMU, VMK_UML, VMK_FIRECRACKER, VMK_CLOUD_HV };

/* A VM process found on the host: pid and start time (ticks since boot)
 * name it across pid reuse. */
struct vm_id {
    int pid;
    unsigned long long start;
    enum vm_kind kind;
    char name[64]; /* -name guest=NAME, --id NAME, umid=NAME; else "" */
};

/* One thread of a VM (for UML also a guest process the kernel traces). */
struct vm_thread {
    int tid;
    char comm[20];
    int vcpu;           /* its vCPU number, -1 for the VMM's other work */
    bool have_sched;    /* schedstat read */
    uint64_t run_ns;    /* time on a CPU */
    uint64_t wait_ns;   /* runnable, waiting on a run queue */
    uint64_t slices;    /* times it got a CPU */
    bool have_ctx;      /* context switches known */
    uint64_t ctx_vol;   /* switches onto it (schedstat's slices), or the
                           voluntary ones where status is read */
    uint64_t ctx_invol; /* and the involuntary ones there, else 0 */
};

/* One reading of a VM process, at host monotonic time t. */
struct vm_raw {
    struct vm_id id;
    double t;
    bool gone; /* the process ended (or is no longer this VM) */
    int nthreads;
    struct vm_thread th[VM_MAX_THREADS];
    char vcpu_how[64]; /* how vCPU threads were told apart */
    bool have_rss;
    double rss_bytes;
    bool have_io;
    uint64_t rchar, wchar;  /* bytes read and written through syscalls */
    char sched_why[VM_WHY]; /* why run/wait cannot be read, "" when they can */
    char io_why[VM_WHY];    /* why /proc/PID/io cannot be read */
    char kvm_why[VM_WHY];   /* why there are no KVM exit counters */
};

/* The figures of one VM over the last interval; NaN = cannot tell. */
struct vm_figures {
    int nvcpu;
    double vcpu_run[VM_MAX_VCPUS];  /* % of a CPU each vCPU ran */
    double vcpu_wait[VM_MAX_VCPUS]; /* % of wall time it waited runnable */
    double run_pct;   /* all vCPUs: % of one CPU (2 busy vCPUs: 200) */
    double wait_pct;  /* vCPUs' mean wait, % of wall: the steal it should see */
    double other_run; /* the VMM's other threads: % of a CPU */
    double other_wait;
    int nother;
    double rss_bytes;
    double read_bps, write_bps; /* bytes per second through syscalls */
    double ctxsw_ps;            /* all threads' context switches per s */
    /* ns run and waited by the vCPUs over the interval (the threads seen
     * in both readings) */
    uint64_t vcpu_run_ns, vcpu_wait_ns;
};

/* A VM's vCPU run and wait time as of one of its readings: a guest run's
 * span (session/job_vcpu.c) and a clock probe's (session/probe_vcpu.c)
 * are marked at their ends. */
struct vm_mark {
    int pid;
    double t;         /* the reading's host monotonic time */
    uint64_t run_ns;  /* vcpu_run_total_ns then */
    uint64_t wait_ns; /* vcpu_wait_total_ns then */
};

struct vm_model {
    struct vm_raw cur, prev;
    bool have_prev;
    double first_seen; /* host monotonic */
    struct vm_figures fig;
    /* ns its vCPUs ran and waited since first seen, summed interval by
     * interval (a UML guest's processes come and go: a thread's own total
     * would not) */
    uint64_t vcpu_run_total_ns, vcpu_wait_total_ns;
    struct vm_mark mark[VM_MARKS]; /* the newest readings', oldest first */
    int nmark;
};

/* A guest run against its VM's vCPUs: the CPU the guest billed the run,
 * by its clock, and what the vCPUs ran over a span holding the run (the
 * reading before its start to the one after its end). */
struct vm_run_cpu {
    char workload[32];
    double billed_s; /* the guest's user + sys over the run's repeats */
    double ran_s;    /* its vCPUs' run time, host's clock */
    double t0, t1;   /* the span, host monotonic */
};

/* The VMs on a host, as the newest scan found them. */
struct vm_set {
    int n;
    struct vm_model vm[VM_MAX];
    double last_scan; /* host monotonic, 0 before the first */
    char why[VM_WHY]; /* why none can be read (a host read through pmcd:
                         its proc agent refuses us), "" when they can */
};

/* Empties set. */
void vm_set_init(struct vm_set *set);

/* Folds a scan's readings (n of them, one per VM found alive) into set: a
 * VM seen before gets its figures from its previous reading, a new one
 * joins (no figures until its second reading), one not in raws goes.
 * Returns how many VMs came or went. */
int vm_set_update(struct vm_set *set, const struct vm_raw *raws, int n);

/* The mark of vm's latest reading at or before host monotonic time `at`
 * (before), or its earliest at or after it (!before), among the newest
 * VM_MARKS. False when none lies on that side. */
bool vm_model_mark(const struct vm_model *vm, double at, bool before,
                   struct vm_mark *out);

/* The VM of process pid in set, or NULL. */
const struct vm_model *vm_set_find(const struct vm_set *set, int pid);

/* The figures between two readings of one VM (prev older than cur). */
void vm_figures_between(const struct vm_raw *prev, const struct vm_raw *cur,
                        struct vm_figures *out);

/* "qemu", "uml", "firecracker", "cloud-hypervisor". */
const char *vm_kind_name(enum vm_kind k);

/* The column name of a VM: its name, else "KIND-PID". */
void vm_label(const struct vm_id *id, char *buf, size_t n);

#endif
