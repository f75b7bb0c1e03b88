/* The VMs of a host reached through its pmcd, from its proc agent's
 * metrics (pmdaproc): the processes whose psargs are a VMM's
 * (vm_proc_classify, as on this host), each thread's run time and
 * run-queue wait (proc.schedstat.*), its name (proc.psinfo.cmd: "CPU
 * 0/TCG"), the VM's resident memory and I/O bytes. Threads are instances
 * only where the agent lists them: run with -L, or for a client that may
 * store proc.control.perclient.threads (one it asks for here; pmcd's
 * default access list lets only local ones). pmdaproc answers a client it
 * cannot identify (any TCP one) only when run with -A. The context
 * belongs to the thread that opens it. */
#ifndef PARALLAX_VM_PCP_H
#define PARALLAX_VM_PCP_H

#include <stddef.h>

#include "core/vm_model.h"

struct vm_pcp;

/* A context to pmcd at target (HOST[:PORT]); NULL with a one-line
 * reason in err. */
struct vm_pcp *vm_pcp_open(const char *target, char *err, size_t n);
void vm_pcp_close(struct vm_pcp *p);

/* Reads every VM the host runs (up to max) into out, listing them anew
 * when VM_PROC_GAP_S passed since the last listing or a VM known ended;
 * out[i].t is this host's monotonic time amid the fetch (as a VM read
 * from /proc: figures, marks and records take it alike). Returns how
 * many, or -1 with a one-line reason in why (the connection is then of
 * no more use: close it). A VM's figures that cannot be read say why in
 * its sched_why, io_why. */
int vm_pcp_read(struct vm_pcp *p, double now, struct vm_raw *out, int max,
                char *why, size_t n);

/* psargs ("qemu-system-x86_64 -name guest=a") as a NUL-separated argv
 * into buf (n bytes); returns its length. */
size_t vm_pcp_argv(const char *psargs, char *buf, size_t n);

#endif
