/* Number and sparkline formatting shared by the screen and the text view,
 * so both show the same characters for the same model. */
#ifndef PARALLAX_FMT_H
#define PARALLAX_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/history.h"
#include "core/metrics.h"

/* Writes v in the metric format f into buf; NaN gives "n/a". */
void fmt_value(char *buf, size_t n, double v, enum metric_format f);

/* Writes the `width` newest figures of h as a sparkline, oldest first,
 * scaled from 0 to `top` (or to the largest figure shown when top <= 0).
 * Missing figures are blanks. UTF-8 blocks, or ASCII when !utf8. */
void fmt_spark(char *buf, size_t n, const struct history *h, int width,
               double top, bool utf8);

/* Writes a byte count as 1.5G, 512M, ... */
void fmt_bytes(char *buf, size_t n, double v);

/* text right-aligned in `width` cells, a UTF-8 character a cell
 * (snprintf's "%*s" for ASCII text, without its cost: the screen pads
 * every cell of every draw; "%*s" counts bytes, and ×1.0100 glued itself
 * to the cell before it) */
void fmt_right(char *buf, size_t n, int width, const char *text);

#endif
