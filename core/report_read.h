/* Reading a JSON report back as a baseline: one of its sources becomes a
 * fixed column (a source model that never updates) with its workload
 * figures, to compare a run against one from another boot or kernel. */
#ifndef PARALLAX_REPORT_READ_H
#define PARALLAX_REPORT_READ_H

#include <stddef.h>

#include "core/model.h"

#define BASELINE_MAX_WL 64

/* A workload figure of the baseline. */
struct baseline_wl {
    char name[32];
    char unit[16];
    int n;         /* repeats the figure is the median of */
    double median; /* NaN when the report had none */
    double ci95;   /* half-width of the 95% interval, NaN when n < 2 */
};

struct baseline {
    struct source_model model; /* "baseline:<label>", live, as reported */
    char date[40];             /* when the report was made */
    char version[32];          /* the parallax that made it */
    int nwl;
    struct baseline_wl wl[BASELINE_MAX_WL];
};

/* Reads source `source` (NULL: the first, this host of that run) of the
 * report at path into b, named "baseline:<label>" (label NULL: the
 * source's own name). 0, or -1 with one line in err naming the file and
 * what is wrong (unreadable, not JSON, another format or version, a
 * missing or mistyped field, no such source). */
int report_read(const char *path, const char *source, const char *label,
                struct baseline *b, char *err, size_t errlen);

/* The baseline's figure for workload `name`, or NULL. */
const struct baseline_wl *baseline_wl_find(const struct baseline *b,
                                           const char *name);

#endif
