/* A host's VMs as its recording holds them: archive/record_vms.c writes
 * each VM's column under parallax.vm.KEY (the rows of core/vm_rows.h and
 * the extras below), collectors/archive_source.c reads them back, and a
 * replay draws them (view/vm_view.c). The reader is a process of its own,
 * so a VM reaches parallax as one text in its sample's pool
 * (vm_recorded_format, then vm_recorded_parse on this side), and what
 * arrives is taken as untrusted: every field bounded, every string safe. */
#ifndef PARALLAX_VM_RECORDED_H
#define PARALLAX_VM_RECORDED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/vm_rows.h"

/* X(id, key, type, semantics, units, help): beside the rows, what the VM
 * is and its counters; type U32, DOUBLE or STRING, units NONE or SEC. */
#define VM_RECORD_EXTRAS(X)                                                    \
    X(VX_KIND, "kind", STRING, DISCRETE, NONE,                                 \
      "What runs the VM: qemu, uml, firecracker or cloud-hypervisor")          \
    X(VX_PID, "pid", U32, DISCRETE, NONE, "The VM's process on this host")     \
    X(VX_NVCPU, "nvcpu", U32, INSTANT, NONE, "vCPU threads told apart")        \
    X(VX_GUEST, "guest", STRING, INSTANT, NONE,                                \
      "The guest column the VM is joined to; no value when none")              \
    X(VX_JOINED, "joined", STRING, INSTANT, NONE,                              \
      "How it was joined: pid, vm=NAME or name")                               \
    X(VX_RUN_TIME, "vcpu_run_time", DOUBLE, COUNTER, SEC,                      \
      "What the VM's vCPU threads ran on this host since parallax first saw "  \
      "it (schedstat, summed interval by interval): its rate is the vCPU "     \
      "run row over 100")                                                      \
    X(VX_WAIT_TIME, "vcpu_wait_time", DOUBLE, COUNTER, SEC,                    \
      "What its vCPU threads waited runnable on this host's run queues "       \
      "since then: the time the host held them off a CPU")                     \
    X(VX_NOTES, "notes", STRING, INSTANT, NONE,                                \
      "The column's details as shown, one KEY<TAB>detail line per row that "   \
      "has one (why a figure cannot be read, \"held 35%, said 0%\")")          \
    X(VX_FAULTS, "faults", STRING, INSTANT, NONE,                              \
      "The KEYs of the rows shown as faults, space-separated")                 \
    X(VX_READ_MONO, "read_mono", DOUBLE, INSTANT, SEC,                         \
      "The host's CLOCK_MONOTONIC when the VM was read (its counters are as "  \
      "of then; the record's timestamp is this host's fetch, which can come "  \
      "a little before)")                                                      \
    X(VX_SHOWN, "shown", STRING, INSTANT, NONE,                                \
      "What the rows with no figure showed instead, one KEY<TAB>text line "    \
      "each: ... (a first reading), - (nothing yet), n/a (cannot be read)")    \
    X(VX_VCPUS_TOLD, "vcpus_told", STRING, DISCRETE, NONE,                     \
      "How the vCPU threads were told apart (\"vCPUs by thread name\")")

enum vm_extra {
#define VM_EXTRA_ENUM(id, key, type, sem, units, help) id,
    VM_RECORD_EXTRAS(VM_EXTRA_ENUM)
#undef VM_EXTRA_ENUM
        VX_COUNT
};

extern const char *const vm_extra_keys[VX_COUNT];

#define VM_RECORDED_NOTE 160 /* one row's detail */

/* One recorded VM at one record. */
struct vm_recorded {
    char name[96]; /* its instance's name: NAME.PID, NAME.PID.2 */
    char kind[20];
    int pid, nvcpu; /* -1: not recorded */
    char guest[64]; /* the guest column it was joined to, "" when none */
    char how[80];   /* how: "pid", "vm=NAME", "name"; "" */
    char told[64];  /* how its vCPUs were told apart, "" unrecorded */
    double fig[VM_ROW_COUNT]; /* each row's figure, NaN: none */
    double run_s, wait_s;     /* the vCPUs' counters, NaN: none */
    double read_mono;
    unsigned faults; /* bit `row` set: the row was shown as a fault */
    char note[VM_ROW_COUNT][VM_RECORDED_NOTE]; /* each row's detail */
    char shown[VM_ROW_COUNT][8]; /* a row with no figure: what it showed */
};

/* Empties v: no figure, no name. */
void vm_recorded_clear(struct vm_recorded *v);

/* Reads a recorded notes text ("KEY<TAB>detail" lines), shown text (the
 * same lines) and faults text (KEYs, space-separated) into v. */
void vm_recorded_set_notes(struct vm_recorded *v, const char *notes);
void vm_recorded_set_shown(struct vm_recorded *v, const char *shown);
void vm_recorded_set_faults(struct vm_recorded *v, const char *faults);

/* v as one text ("key<TAB>value" lines) into buf (n bytes); the bytes
 * written without the NUL, or -1 when it does not fit. */
int vm_recorded_format(const struct vm_recorded *v, char *buf, size_t n);

/* A text from vm_recorded_format, or anything, into v: what is not a
 * known line is skipped, every field ends within its size and is made
 * safe. False when it names no VM. */
bool vm_recorded_parse(const char *text, struct vm_recorded *v);

/* The VM's own name: its instance's, less .PID and any .N after it. */
void vm_recorded_label(const struct vm_recorded *v, char *buf, size_t n);

#endif
