/* Reading a JSON report back as a baseline: one of its sources becomes a
 * fixed column (a source model that never updates) with its workload
 * figures, to compare a run against one from another boot or kernel. */
#ifndef PARALLAX_REPORT_READ_H
#define PARALLAX_REPORT_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

#define BASELINE_MAX_WL 64
/* The largest report read, in bytes: one of 64 sources with every workload
 * is under 1 MiB; a 58 MB file took jansson 793 MB and 4.7 s. */
#define REPORT_READ_MAX (4 << 20)

/* A workload figure of the baseline. */
struct baseline_wl {
    char name[32];
    char unit[16];
    int n;         /* repeats the figure is the median of */
    double median; /* NaN when the report had none */
    double min, max, mean;
    double ci95; /* half-width of the 95% interval, NaN when n < 2 */
    /* the median's interval and its coverage; NaN from a report older
     * than them */
    double med_lo, med_hi, med_cover;
};

struct baseline {
    /* "baseline:<label> <day>" (+ " v<version>" when another parallax
     * made it), live, as reported */
    struct source_model model;
    char date[40];    /* when the report was made, as it says ("?") */
    char version[32]; /* the parallax that made it ("?") */
    int nwl;
    struct baseline_wl wl[BASELINE_MAX_WL];
};

/* Reads source `source` (NULL: the first, this host of that run) of the
 * report at path into b, named "baseline:<label> YYYY-MM-DD" (label NULL:
 * the source's own name; the day the report's) and " v<version>" after
 * that when another parallax version wrote it. Its texts are made safe for
 * a terminal. 0, or -1 with one line in err naming the file and what is
 * wrong (unreadable, not a regular file, larger than REPORT_READ_MAX, not
 * JSON, another format or version, a missing or mistyped field, a figure
 * out of range, no such source). */
int report_read(const char *path, const char *source, const char *label,
                struct baseline *b, char *err, size_t errlen);

/* report_read of a report already in memory (len bytes of text; path
 * names it in messages). */
int report_parse(const char *text, size_t len, const char *path,
                 const char *source, const char *label, struct baseline *b,
                 char *err, size_t errlen);

/* True when this parallax's version wrote the baseline's report. */
bool baseline_same_version(const struct baseline *b);

/* The baseline's figure for workload `name`, or NULL. */
const struct baseline_wl *baseline_wl_find(const struct baseline *b,
                                           const char *name);

#endif
