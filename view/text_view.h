/* The main table as plain text, for --text: no escape sequences. */
#ifndef PARALLAX_TEXT_VIEW_H
#define PARALLAX_TEXT_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "core/model.h"

/* Prints one refresh of the sources' table to f. */
void text_view_print(FILE *f, const struct source_model *srcs, int nsrc,
                     double interval, bool utf8);

#endif
