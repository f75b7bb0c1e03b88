/* The cells of the main table, as strings: what the screen draws and what
 * --text prints come from these same functions, so the two cannot drift. */
#ifndef PARALLAX_VIEW_H
#define PARALLAX_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

#define VIEW_LABEL_W 16 /* the row label column */
#define VIEW_VALUE_W 8  /* a figure, right-aligned */
#define VIEW_SPARK_W 12 /* a sparkline at its widest */

/* "host (live, 0.3 ms)", "guest1 (down: connection refused)" */
void view_source_title(const struct source_model *m, char *buf, size_t n);

/* What the source is: "myhost 6.1.0 2cpu 23.4G" ("?" where unknown). */
void view_source_info(const struct source_model *m, char *buf, size_t n);

/* Which collector reads it: "via pcp local" or "via libgtop+/proc". */
void view_source_backend(const struct source_model *m, char *buf, size_t n);

/* The figure of metric `id` (right-aligned in VIEW_VALUE_W) and its
 * sparkline of `spark_w` cells. */
void view_metric_cell(const struct source_model *m, int id, char *val,
                      size_t vn, char *spark, size_t sn, int spark_w,
                      bool utf8);

#endif
