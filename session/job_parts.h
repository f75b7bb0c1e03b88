/* What the parts of the jobs share (session/job_*.c only; everyone else
 * includes session/jobs.h): the cell table's own calls, and the few
 * helpers that starting, folding and the leases each need. */
#ifndef PARALLAX_JOB_PARTS_H
#define PARALLAX_JOB_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "session/jobs.h"

#define JOBS_HOST 0 /* this host's source index */

/* A cell never touched: idle, every figure NaN. */
extern const struct job_cell job_blank;

/* The cell of workload w on source src, made (blank) on first use; NULL
 * when out of memory. */
struct job_cell *job_cell_at(struct jobs *j, int src, int w);

/* Makes c blank for a new run, keeping its stamps' memory. */
void job_cell_reset(struct job_cell *c);

/* True while source src's cell of w runs or stops. */
bool job_cell_live(const struct jobs *j, int src, int w);

/* The first source whose runs go through pmdaparallax stores: 1, or 0
 * when model[0] is a remote host (a fleet pair, session_open_pair). */
int jobs_first_remote(const struct session *s);

/* The guest's report of workload w, or NULL. */
const struct pmda_job *jobs_guest_job(const struct jobs *j,
                                      const struct source_model *m, int w);

/* The statistics an agent reports of a run (blank where it has none). */
void job_stats_of(struct wl_stats *st, const struct pmda_job *pj);

/* -v: how a run ended, for the log */
void jobs_log_end(const struct jobs *j, const struct session *s, int src, int w,
                  const struct job_cell *c);

/* The host's view of a guest run (session/job_vcpu.c): at its start,
 * marks the vCPU time of the VM source src is joined to; at its end,
 * keeps what the guest billed it. */
void job_vcpu_start(struct job_cell *c, const struct session *s, int src);
void job_vcpu_end(struct job_cell *c, const struct pmda_job *pj);

/* Marks the ends of the guest runs that ended, once a VM reading after
 * the end is in, and hands each finished one to the session's VM watch
 * (vm_watch_set_run). */
void jobs_vcpu_update(struct jobs *j, const struct session *s);

/* True while c's run has ended and its end's VM reading is not in. */
bool job_vcpu_pending(const struct job_cell *c);

/* Whether a guest's runs need its clock ticked between samples: where
 * its rate varies (or is not known yet) the samples alone bracket a stamp
 * too loosely; a steady clock is placed precisely between them, and its
 * guest is spared the fetches. */
bool jobs_wants_ticks(const struct source_model *m);

/* The lease a guest's start asks for: " --lease=S" (in the guest's
 * seconds) into buf and true; false, buf untouched, where its agent takes
 * none or --lease is 0 (said once in the log: a run there outlives a
 * killed parallax). session/job_leases.c */
bool jobs_lease_arg(struct jobs *j, const struct source_model *m, int src,
                    char *buf, size_t n);

/* Has each guest's sampler renew, in one store, the leases of the runs
 * this parallax started there and follows, with the length and at the
 * pace its clock asks for now (session/lease.h); none once they have ended
 * or are being stopped (a stop that never arrives is then made good by
 * the lease). A foreign run is not ours to keep going. */
void jobs_renew_leases(const struct jobs *j, const struct session *s);

#endif
