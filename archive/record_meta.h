/* A recording's metadata: every metric it holds defined in the archive
 * with libpcp_import (its PMID, type, instance domain, semantics, units
 * and help), from the metric table (core/metrics.h, under the rows' PCP
 * names) and the record table (core/record_table.h), and the PMIDs the
 * writer (archive/recorder.c) puts the values under. */
#ifndef PARALLAX_RECORD_META_H
#define PARALLAX_RECORD_META_H

#include <pcp/pmapi.h>

#include "session/jobs.h"

#define REC_DOMAIN 245 /* libpcp_import's own (PMI_DOMAIN) */
/* the PMIDs' clusters: the metric table's rows, the record table's rows
 * of a source, those of a workload */
enum record_cluster { CL_TABLE, CL_SOURCE, CL_WORKLOAD, CL_VM };
#define WL_INDOM_SERIAL 0    /* the catalogue; the metric table's are 1 + id */
#define VM_INDOM_SERIAL 1000 /* the VMs (archive/record_vms.h) */

/* Defines one metric with its help text (one line and whole alike). 0,
 * or libpcp_import's error code. */
int record_define_one(const char *name, pmID id, int type, pmInDom indom,
                      int sem, pmUnits units, const char *help);

/* Defines the metric table's rows, the record table's and the workload
 * catalogue's instances (j's workloads) in the current libpcp_import
 * context. 0, or libpcp_import's error code. */
int record_define(const struct jobs *j);

#endif
