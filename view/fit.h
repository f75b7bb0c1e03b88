/* Text and figures that fit a cell of a given width: a figure takes the
 * unit and precision that fit (1.20µs rather than 1.2k ns, +1.000d rather
 * than +86400000.2ms), and what still does not fit ends in an ellipsis, so
 * a cell is never cut silently and never runs into its neighbour. Widths
 * are in cells: one per UTF-8 character (µ, ±, ×, … take one). */
#ifndef PARALLAX_FIT_H
#define PARALLAX_FIT_H

#include <stdbool.h>
#include <stddef.h>

/* Flags of the figure formatters. */
#define FIT_SIGN 1u /* a + before positive figures (offsets, drifts) */
#define FIT_UTF8 2u /* µ and ×; else us and x */

/* A drift beyond this many ppm is shown as a rate factor (×1.0123), not
 * in ppm: the "beyond ±1%". */
#define FIT_DRIFT_PPM_MAX 10000.0

/* The cells text takes: its UTF-8 characters. */
int fit_cells(const char *text);

/* The bytes of text's first `cells` characters (all of it when shorter). */
size_t fit_bytes(const char *text, int cells);

/* text in exactly `width` cells, for a table's column: its first `width`
 * characters (cut silently: a column's width is its own) and spaces to
 * the width, after it (left-aligned) or before it (right). */
void fit_pad(char *buf, size_t n, int width, const char *text, bool right);

/* text in at most `width` cells: whole, or cut with an ellipsis ("…", "~"
 * in ASCII) in its last cell. True when whole. */
bool fit_text(char *buf, size_t n, int width, const char *text, bool utf8);

/* The first of the k candidates (longest first) that fits width cells,
 * else the last one cut by fit_text. Returns the index taken, k when cut. */
int fit_first(char *buf, size_t n, int width, const char *const *cand, int k,
              bool utf8);

/* Wrapping text at spaces into rows of `width` cells: the bytes of its
 * first row (a word longer than the row is broken); *rest (may be NULL)
 * is where the next row starts, past the spaces. */
int fit_wrap(const char *text, int width, const char **rest);

/* secs as a duration in the unit that fits width cells with the most
 * digits (up to 4 significant): ns µs ms s min h d ("10.14ms", "+1.000d",
 * "294ns"). "n/a" when not finite. False when cut (an ellipsis). */
bool fit_duration(char *buf, size_t n, int width, double secs, unsigned flags);

/* v with an SI prefix (k M G T P E) and up to 3 significant digits, as
 * many as fit: "294", "1.23k", "12.3M", "0.043". False when cut. */
bool fit_si(char *buf, size_t n, int width, double v, unsigned flags);

/* A guest/host ratio (finite, > 0): "0.83", "12.3", "415", "4.8e8", and
 * "<0.01" rather than 0.00. False when cut. */
bool fit_ratio(char *buf, size_t n, int width, double r);

/* A clock's rate as a factor of real time, ×1.0100, ×0.364, ×415, ×4.8e8
 * (x in ASCII; no sign when FIT_TIMES is not given): 4 decimals within 10%
 * of 1, else 3 significant digits, fewer when the width asks. False when
 * cut. */
#define FIT_TIMES 4u /* the × (x) before a rate factor */
bool fit_rate(char *buf, size_t n, int width, double factor, unsigned flags);

/* A clock drift of ppm parts per million: in ppm ("+28", "-9996", the
 * unit is the caller's to say) while |ppm| <= FIT_DRIFT_PPM_MAX, else as
 * the rate factor 1 + ppm/1e6 through fit_rate with FIT_TIMES. Returns
 * whether it wrote a factor; *whole (may be NULL) false when cut. */
bool fit_drift(char *buf, size_t n, int width, double ppm, unsigned flags,
               bool *whole);

#endif
