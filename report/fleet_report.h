/* The fleet report: what a fleet run measured across the guests, as text
 * and as JSON: for each workload the distribution (median, p95, worst)
 * of the guests' ratios to their hosts and of each run's divergence
 * (the guest's seconds per real second), with the worst guests named;
 * then every guest's figures, and the fleet table as shown. Figures are
 * as each source's agent reported them, by its own clock ("reported");
 * the divergence says how far that clock was from real time. */
#ifndef PARALLAX_FLEET_REPORT_H
#define PARALLAX_FLEET_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "fleet/fleet_model.h"
#include "fleet/fleet_run.h"
#include "report/report.h"
#include "view/fleet_view.h"

#define FLEET_REPORT_WORST 3 /* guests named as the worst of each figure */

/* Writes the text report to f. 0, or -1 when f fails. */
int fleet_report_text(FILE *f, const struct fleet_view *v,
                      const struct fleet_model *m, const struct fleet_run *r);

/* Writes the JSON report to f. 0, or -1 when f fails. */
int fleet_report_json(FILE *f, const struct fleet_view *v,
                      const struct fleet_model *m, const struct fleet_run *r);

/* The fleet report as a pair of writers (report/report.h), over a. */
struct fleet_report_of {
    const struct fleet_view *v;
    const struct fleet_model *m;
    const struct fleet_run *r;
};
struct report_pair fleet_report_pair(const struct fleet_report_of *a);

/* Saves both as parallax-fleet-YYYYmmdd-HHMMSS-mmm.txt and .json into dir
 * (NULL: the report directory), atomically; the .txt path into path.
 * 0, or -1 with one line in err. */
int fleet_report_save(const char *dir, const struct fleet_view *v,
                      const struct fleet_model *m, const struct fleet_run *r,
                      char *path, size_t pathlen, char *err, size_t errlen);

#endif
