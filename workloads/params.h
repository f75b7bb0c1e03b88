/* Workload parameters from text: "key=value" strings checked against a
 * descriptor's typed parameters. The PMDA feeds it values from the wire,
 * so nothing is trusted: every failure is a one-line message that names
 * the valid keys or bounds. */
#ifndef PARALLAX_PARAMS_H
#define PARALLAX_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "workloads/workload.h"

/* True when text is a decimal number and nothing else: an optional sign,
 * digits with an optional point, an optional exponent; no blanks, hex,
 * inf or nan, and finite. The value goes to *out. Every number parallax
 * reads from people or the wire goes through it (issue 16: -t 0x1 and
 * size_mb=0x10 were taken). */
bool params_decimal(const char *text, double *out);

/* How many parameters w has. */
int params_count(const struct workload *w);

/* Index of w's parameter `name`, or -1. */
int params_index(const struct workload *w, const char *name);

/* Sets vals[0..WL_MAX_PARAMS) to w's defaults (unused slots to 0). */
void params_defaults(const struct workload *w, double *vals);

/* Applies one "key=value" to vals. 0, or -1 with a message in err. */
int params_set(const struct workload *w, double *vals, const char *kv,
               char *err, size_t errlen);

/* Defaults, then each of the n strings kv[]. 0, or -1 as params_set. */
int params_parse(const struct workload *w, double *vals, int n,
                 char *const kv[], char *err, size_t errlen);

/* Checks that every value is finite, within bounds and whole where it
 * must be. 0, or -1 with a message in err. */
int params_check(const struct workload *w, const double *vals, char *err,
                 size_t errlen);

/* Writes "key=value key=value": every parameter when `all`, otherwise
 * only those that differ from their defaults ("" when none). */
void params_format(const struct workload *w, const double *vals, bool all,
                   char *buf, size_t len);

/* Writes the valid keys with bounds, "size=1..4096, placement=0..2", or
 * "none". */
void params_describe(const struct workload *w, char *buf, size_t len);

#endif
