/* The host's view of the VMs on this host, kept by a session: every host
 * tick, a scan of /proc for VM processes and a reading of each one
 * (collectors/vm_proc.h) folded into the VM set (core/vm_model.h), and
 * which guest column, if any, each VM process runs (the demo guests by
 * the qemu parallax started, any guest by -h NAME=ADDR,pid=N). */
#ifndef PARALLAX_VM_WATCH_H
#define PARALLAX_VM_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/vm_model.h"

#define VM_WATCH_SOURCES 64 /* as SESSION_MAX_SOURCES */

struct vm_watch {
    struct vm_set set;
    int pid[VM_WATCH_SOURCES]; /* the VM process of source i, 0: none */
    unsigned changes;          /* VMs that came or went, so far */
    struct vm_proc_cache *cache;
};

/* A watch of no VM yet; NULL when out of memory. */
struct vm_watch *vm_watch_new(void);
void vm_watch_free(struct vm_watch *w);

/* Checks that pid is a VM process here and joins it to source src. 0, or
 * -1 with a one-line reason in err. */
int vm_watch_join(struct vm_watch *w, int src, int pid, char *err,
                  size_t errlen);

/* Scans for VMs and reads each one, at host monotonic time now. */
void vm_watch_tick(struct vm_watch *w, double now);

/* The source joined to VM process pid, or -1. */
int vm_watch_source_of(const struct vm_watch *w, int pid);

#endif
