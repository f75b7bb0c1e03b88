/* The host's view of the VMs on this host, kept by a session: every host
 * tick, a scan of /proc for VM processes and a reading of each one
 * (collectors/vm_proc.h) folded into the VM set (core/vm_model.h), and
 * which guest column, if any, each VM process runs: the demo guests by
 * the qemu parallax started, any guest by -h NAME=ADDR,pid=N or by
 * ,vm=VMNAME (the VM of that name whenever one runs: it may start after
 * parallax, and a restart is followed), and a guest given neither by its
 * own column name where exactly one VM bears it (libvirt names both). */
#ifndef PARALLAX_VM_WATCH_H
#define PARALLAX_VM_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/vm_model.h"

#define VM_WATCH_SOURCES 64 /* as SESSION_MAX_SOURCES */

/* How a source asks to be joined to a VM. */
enum vm_join {
    VMJ_NONE, /* it is not */
    VMJ_PID,  /* the process given: ,pid=N, a demo guest's qemu */
    VMJ_VM,   /* the VM named by ,vm=NAME */
    VMJ_NAME  /* the one VM named as its column, if there is one */
};

struct vm_watch {
    struct vm_set set;
    int pid[VM_WATCH_SOURCES];               /* the VM process of source i, 0:
                                                none */
    unsigned char by[VM_WATCH_SOURCES];      /* enum vm_join */
    char want[VM_WATCH_SOURCES][64];         /* VMJ_VM, VMJ_NAME: the name */
    char why[VM_WATCH_SOURCES][VM_WHY];      /* VMJ_VM unjoined: why */
    unsigned changes;                        /* VMs that came or went, so far */
    struct vm_run_cpu run[VM_WATCH_SOURCES]; /* source i's latest guest run
                                                against its vCPUs; t1 0:
                                                none */
    struct vm_proc_cache *cache;
};

/* A watch of no VM yet; NULL when out of memory. */
struct vm_watch *vm_watch_new(void);
void vm_watch_free(struct vm_watch *w);

/* Checks that pid is a VM process here and joins it to source src. 0, or
 * -1 with a one-line reason in err. */
int vm_watch_join(struct vm_watch *w, int src, int pid, char *err,
                  size_t errlen);

/* Joins source src by name: to the VM named name whenever one runs
 * (by_vm: -h ...,vm=NAME; until then vm_watch_why says why not), else to
 * the one VM named as the source's column (name) where exactly one is
 * and no other source has it. Takes effect at the next tick. */
void vm_watch_join_name(struct vm_watch *w, int src, const char *name,
                        bool by_vm);

/* Source src joined to nothing (its column failed to start). */
void vm_watch_leave(struct vm_watch *w, int src);

/* Why source src, given ,vm=NAME, is joined to no VM now ("no VM named X
 * on this host yet"); "" when it is joined or was not given vm=. */
const char *vm_watch_why(const struct vm_watch *w, int src);

/* How source src is joined ("pid", "vm=NAME", "name"), "" when it is
 * not. */
void vm_watch_how(const struct vm_watch *w, int src, char *buf, size_t n);

/* The sources given ,vm=NAME and joined to no VM now, in source order:
 * how many, and the k-th. */
int vm_watch_unjoined(const struct vm_watch *w);
int vm_watch_unjoined_at(const struct vm_watch *w, int k);

/* Scans for VMs and reads each one, at host monotonic time now, then
 * joins the sources asking by name to the VMs now there. */
void vm_watch_tick(struct vm_watch *w, double now);

/* Marks the vCPU run and wait time of the VM source src is joined to, at
 * its latest reading at or before host monotonic time `at` (before), or
 * its earliest at or after it (!before), among the newest VM_MARKS. False
 * when src is joined to none, or no reading lies on that side. */
bool vm_watch_mark(const struct vm_watch *w, int src, double at, bool before,
                   struct vm_mark *out);

/* Keeps run as source src's latest guest run against its vCPUs; the
 * latest, or NULL when none has been seen. */
void vm_watch_set_run(struct vm_watch *w, int src,
                      const struct vm_run_cpu *run);
const struct vm_run_cpu *vm_watch_run(const struct vm_watch *w, int src);

/* The source joined to VM process pid, or -1. */
int vm_watch_source_of(const struct vm_watch *w, int pid);

#endif
