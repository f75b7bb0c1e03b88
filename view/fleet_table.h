/* The fleet table as plain text: what --fleet --text prints after each
 * poll and what the fleet report ends with. */
#ifndef PARALLAX_FLEET_TABLE_H
#define PARALLAX_FLEET_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "view/fleet_view.h"

/* One refresh of v (built from m and r, which may be NULL) to f: a title
 * line, the summary, the header, the distribution rows (median, p95,
 * worst) and one line per row. now is host monotonic time. */
void fleet_table_print(FILE *f, const struct fleet_view *v,
                       const struct fleet_model *m, const struct fleet_run *r,
                       double now, bool utf8);

#endif
