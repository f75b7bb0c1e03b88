/* The main table as plain text, for --text: no escape sequences. */
#ifndef PARALLAX_TEXT_VIEW_H
#define PARALLAX_TEXT_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "core/model.h"

/* Prints the legend of the ratio columns and markers, "# " before each
 * row, wrapped to `columns` (80 when 0), then a blank line: once, before
 * the first refresh. */
void text_view_legend(FILE *f, int columns, bool utf8);

/* Prints one refresh of the sources' table to f, its columns as wide as
 * `columns` allows (sparklines of 4 to 32 cells; wider than `columns`
 * only when that many sources need it); with columns 0 (a width nobody
 * gave), sparklines of VIEW_SPARK_W. */
void text_view_print(FILE *f, const struct source_model *srcs, int nsrc,
                     double interval, int columns, bool utf8);

/* text_view_print without the blank line that ends a refresh, for more
 * of the same refresh to follow (the host's view, view/vm_text.h). */
void text_view_print_open(FILE *f, const struct source_model *srcs, int nsrc,
                          double interval, int columns, bool utf8);

#endif
