/* The recorded VM columns of the host's view: the VMs a replayed host's
 * archive holds at the record shown (core/vm_recorded.h), after the live
 * ones in vm_view.h's numbering, drawn from their recorded figures,
 * details and faults as they were shown. view/vm_view.c calls these for
 * its columns beyond the live ones. */
#ifndef PARALLAX_VM_RECORDED_VIEW_H
#define PARALLAX_VM_RECORDED_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "core/vm_recorded.h"
#include "session/session.h"

/* The VMs the replayed columns' records shown hold, as columns; and into
 * *held (when not NULL) how many those records hold (more when a record
 * held more than the reader could send: core/sample.h's pool). */
int vm_recorded_count(const struct session *s, int *held);

/* The k-th of them (0 .. vm_recorded_count - 1) and the replayed column
 * it is in (*src), or NULL. */
const struct vm_recorded *vm_recorded_at(const struct session *s, int k,
                                         int *src);

/* Header row `row` of recorded VM v from column src (vm_view_header's). */
void vm_recorded_header(const struct session *s, int src,
                        const struct vm_recorded *v, int row, char *buf,
                        size_t n);

/* Row `row` of v as it was shown: its figure, its detail; true when it
 * was shown as a fault. */
bool vm_recorded_cell(const struct vm_recorded *v, int row, char *val,
                      size_t vn, char *detail, size_t dn, bool utf8);

#endif
