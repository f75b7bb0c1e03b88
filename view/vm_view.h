/* The host's view of the VMs as cells: one column per VM process found on
 * this host (and on each host given ,vms), named by the guest column it runs
 * where it is joined (a demo guest, a guest given ,pid=N or ,vm=NAME, one named
 * as its VM), else by the VM's own name; rows of what the host's scheduler gave
 * its vCPUs and the VMM's other threads, and where joined the guest's own word
 * beside it (busy said against vCPU run time, steal said against the time its
 * vCPUs were held runnable off a CPU). The screen, --text and the reports draw
 * these same cells. */
#ifndef PARALLAX_VM_VIEW_H
#define PARALLAX_VM_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "core/vm_recorded.h"
#include "core/vm_rows.h"
#include "session/session.h"

#define VM_VIEW_HEADER_ROWS 3
/* held beyond said by more than this many points of wall time is a fault:
 * the host kept a runnable vCPU off a CPU and the guest did not say so */
#define VM_HELD_FAULT_PTS 5.0
/* a guest run billed more CPU than its vCPUs ran around it by more than
 * this factor is a fault: it billed time the host never gave it */
#define VM_BILLED_FAULT 1.05

/* The number of VM columns: the VMs found on this host, in the order
 * found, then one for each guest given ,vm=NAME that no VM runs yet, then
 * the VMs other hosts run (-h NAME=HOST,vms: read through their pmcds),
 * then the VMs a replayed host's record shown holds (-a: the recorded figures
 * and details as they were shown, view/vm_recorded_view.h). */
int vm_view_count(const struct session *s);

/* The columns of source src's VMs: the first's index, and how many in
 * *n (src 0: this host's found, then come the guests waiting for theirs;
 * another: the VMs it runs, read through its pmcd). */
int vm_view_first(const struct session *s, int src, int *n);

/* Column k's VM (this host's or another's), or NULL (a guest waiting for
 * its VM, a recorded one). */
const struct vm_model *vm_view_vm(const struct session *s, int k);

/* The host whose VM column k is: 0 this one, a source read through its
 * pmcd, or -1 (no VM, or a recorded one). */
int vm_view_host(const struct session *s, int k);

/* Column k's recorded VM and the replayed column it is in (*src), or
 * NULL when k is a live column. */
const struct vm_recorded *vm_view_recorded(const struct session *s, int k,
                                           int *src);

/* True when there is a host's view to show: this host's VMs are watched,
 * or a replayed host's record holds VMs. */
bool vm_view_shown(const struct session *s);

/* The VMs found and the guests waiting for theirs, for a title: "2 VMs",
 * "0 VMs (1 guest given vm= not joined)", "1 VM, 2 VMs recorded". */
void vm_view_count_text(const struct session *s, char *buf, size_t n);

/* The source VM column k is joined with (or is, unjoined), or -1. */
int vm_view_source(const struct session *s, int k);

/* Why column k, a guest given ,vm=NAME, has no VM ("no VM named X on this
 * host yet"); NULL when column k is a VM's. */
const char *vm_view_unjoined_why(const struct session *s, int k);

/* How VM column k was joined to its guest ("pid", "vm=NAME", "name"),
 * "" when it is not. */
void vm_view_joined_how(const struct session *s, int k, char *buf, size_t n);

/* Header row `row` of column k: its name; what it is ("qemu 1234 1vcpu",
 * "vm=NAME" for an unjoined guest); whose it is ("joined by vm=NAME",
 * "joined by name", "joined by pid", "host side only", "not joined"). */
void vm_view_header(const struct session *s, int k, int row, char *buf,
                    size_t n);

/* How vCPUs were told apart in column k ("vCPUs by thread name"). */
const char *vm_view_vcpu_how(const struct session *s, int k);

/* Row `row` of column k: its figure (right-aligned in VIEW_VALUE_W) and a
 * detail (why it cannot be read, per-vCPU figures, "held 35%, said 0%").
 * True when the figure is a fault. */
bool vm_view_cell(const struct session *s, int k, int row, char *val, size_t vn,
                  char *detail, size_t dn, bool utf8);

/* The figure of row `row` of column k as a number (reports), NaN when it
 * has none. */
double vm_view_value(const struct session *s, int k, int row);

/* The guest's own busy share and steal, % of its CPUs' time, of source
 * src; NaN when its model has none. */
double vm_view_guest_busy(const struct session *s, int src);
double vm_view_guest_steal(const struct session *s, int src);

#endif
