/* A result's extra figures as text, one "name<TAB>unit<TAB>value" line
 * each: how pmdaparallax hands them over PCP (one string per workload) and
 * how parallax reads them back, so a guest's fairness table and sleep
 * figures reach the screen and the reports exactly as the host's do. */
#ifndef PARALLAX_EXTRAS_H
#define PARALLAX_EXTRAS_H

#include <stddef.h>

#include "workloads/workload.h"

/* Room enough for WL_MAX_EXTRA lines. */
#define WL_EXTRAS_TEXT_MAX (WL_MAX_EXTRA * 80)

/* Writes r's extras into buf (n bytes, always terminated; "" when none).
 * Returns the length written. */
size_t wl_extras_format(const struct wl_result *r, char *buf, size_t n);

/* Replaces r's extras with those in text. Lines that do not parse are
 * skipped. Returns how many were read. */
int wl_extras_parse(const char *text, struct wl_result *r);

/* The value of r's extra named name, or NaN. */
double wl_extra(const struct wl_result *r, const char *name);

#endif
