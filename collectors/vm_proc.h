/* The VMs on this host, found and read from /proc: qemu-system-* (named by
 * -name guest=NAME or -name NAME), User-Mode Linux kernels, firecracker and
 * cloud-hypervisor; each VM's threads' run time and run-queue wait
 * (/proc/PID/task/TID/schedstat), context switches, resident memory and
 * I/O bytes. vCPU threads are told apart by the names VMMs give them
 * ("CPU 0/TCG", "CPU 0/KVM", "fc_vcpu 0", "vcpu0"). */
#ifndef PARALLAX_VM_PROC_H
#define PARALLAX_VM_PROC_H

#include <stdbool.h>
#include <stddef.h>

#include "collectors/proc_fds.h"
#include "core/vm_model.h"

/* What a scan remembers between calls: processes known not to be VMs.
 * A process new since the last scan is not read yet (most are gone by the
 * next: a build's compilers, a shell's pipes); at the next its cmdline is
 * read, and once more when it is VM_PROC_YOUNG_S old (a wrapper that
 * execs a VMM late), never again after; so a scan of a quiet host reads
 * one directory, and one of a busy host two files a process at most.
 * (Read every scan for its first 5 s, a machine starting 20 processes a
 * second cost 100 reads, 700 µs, a tick: bench/vmview_cost.sh.) */
#define VM_PROC_YOUNG_S   5.0
#define VM_PROC_KNOWN_MAX 4096
struct vm_proc_cache {
    int last_pid;       /* the newest pid at the last scan (/proc/loadavg) */
    double last_full;   /* host monotonic time of the last scan */
    double young_until; /* till then a process seen may still exec a VMM */
    int n;
    struct {
        int pid;
        int reads; /* of its cmdline so far: 0, 1, 2 */
        double seen;
    } not_vm[VM_PROC_KNOWN_MAX];
    int nvm, vm_pid[VM_MAX]; /* the VMs the last scan found: read each scan */
    struct proc_fds fds;     /* the VMs' files, kept open between readings */
    /* Each VM's threads as last listed. Its task directory is listed
     * again only when the thread count its stat gives has changed or a
     * thread's file failed (one ended: another may have taken its place):
     * the listing (7.3 µs) was a quarter of a VM's reading. */
    unsigned reads;
    struct vm_tids {
        int pid;
        unsigned long long start;
        int count;     /* the stat's thread count when listed; 0: none */
        unsigned used; /* the reading it was last used in */
        int n, tid[VM_MAX_THREADS];
    } tids[VM_MAX];
};

/* Empties c. */
void vm_proc_cache_init(struct vm_proc_cache *c);

/* Closes the files c keeps (then empty, as after init). */
void vm_proc_cache_close(struct vm_proc_cache *c);

/* Whether the process whose argv is the n bytes of NUL-separated cmdline
 * is a VM, and which (into id: kind and name; not pid or start). */
bool vm_proc_classify(const char *cmdline, size_t n, struct vm_id *id);

/* The kind of VMM a program at path (or its base name) is by its name
 * alone: qemu-system-*, firecracker, cloud-hypervisor, a User-Mode Linux
 * kernel's linux, vmlinux or linux.uml* (which its parameters must
 * confirm); -1 for any other. */
int vm_proc_exe_kind(const char *path);

/* The VM of process pid, into id. False with a one-line reason in why
 * when pid is no VM process here. */
bool vm_proc_identify(int pid, struct vm_id *id, char *why, size_t n);

/* Whether a scan can find anything new at host monotonic time now: a
 * process was created since the last one (the newest pid moved), one seen
 * then may still exec a VMM, or VM_PROC_FULL_S passed (a process that
 * execs one long after it started); and VM_PROC_GAP_S passed since the
 * last scan, so a host that starts processes all the time is listed every
 * 2 s, not every tick (at 40-70 new processes a second the listing was
 * 17% of the viewing parallax's CPU: bench/vmview_cost.sh). A VM shows up
 * that much later; one known is read every tick. Without a scan the VMs
 * known are all there are. */
#define VM_PROC_FULL_S 10.0
#define VM_PROC_GAP_S  2.0
bool vm_proc_scan_due(const struct vm_proc_cache *c, double now);

/* Every VM process on this host (up to max) into ids; returns how many.
 * now is host monotonic time. */
int vm_proc_scan(struct vm_proc_cache *c, double now, struct vm_id *ids,
                 int max);

/* Reads VM id now into out (out->gone when it ended or is another
 * process), through the files c keeps open (c NULL: none kept). */
void vm_proc_read(struct vm_proc_cache *c, const struct vm_id *id,
                  struct vm_raw *out);

/* After every VM of a tick was read: closes the files of those that were
 * not (ended, or no longer watched). */
void vm_proc_read_done(struct vm_proc_cache *c);

/* After a VM's threads were read into out (eperm of them refused their
 * schedstat): which are its vCPUs (by name, else by what it is: the note
 * in vcpu_how says how), why run and wait cannot be read, why no KVM
 * exits are; here: a VM of this host (false: one read through pmcd). */
void vm_proc_tell(struct vm_raw *out, int eperm, bool here);

/* The vCPU number a VMM's thread name gives ("CPU 1/TCG": 1), or -1. */
int vm_proc_vcpu_of(enum vm_kind kind, const char *comm);

#endif
