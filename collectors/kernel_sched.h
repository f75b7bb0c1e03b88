/* Which scheduler and preemption model a Linux kernel runs (CFS or EEVDF;
 * none, voluntary, full, lazy, or PREEMPT_RT), for a column's header: read
 * here for this host, by pmdaparallax for a guest, or told from a guest's
 * kernel.uname.* where it has no pmdaparallax. No PCP, no curses. */
#ifndef PARALLAX_KERNEL_SCHED_H
#define PARALLAX_KERNEL_SCHED_H

#include <stdbool.h>
#include <stddef.h>

struct kernel_sched {
    char family[16];  /* "CFS", "EEVDF", "" when unknown */
    char preempt[24]; /* "voluntary", "RT lazy", "dynamic", "" ... */
};

/* What the kernel tells, any of it NULL when unknown: its release
 * ("6.12.117+deb12-cloud-amd64"), `uname -v` ("#1 SMP PREEMPT_DYNAMIC
 * ..."), the text of debugfs's sched/preempt ("none (voluntary) full"),
 * and which of sched/base_slice_ns (EEVDF) and sched/min_granularity_ns
 * (CFS) debugfs holds. */
struct kernel_facts {
    const char *release, *version, *preempt_file;
    bool base_slice, min_granularity;
};

/* Tells family and preemption model from the facts: debugfs where it
 * answers, else the release (EEVDF from 6.6) and uname -v (PREEMPT_RT,
 * PREEMPT_DYNAMIC: the model is chosen at boot, "dynamic" when debugfs
 * does not say which; PREEMPT: "full"; none of them: "none"). */
void kernel_sched_tell(const struct kernel_facts *f, struct kernel_sched *out);

/* The same for the running kernel, from uname(2) and debugfs (readable by
 * root where mounted: call before dropping privileges). */
void kernel_sched_read(struct kernel_sched *out);

/* "EEVDF voluntary", "CFS none"; "" when neither is known. */
void kernel_sched_text(const struct kernel_sched *k, char *buf, size_t n);

#endif
