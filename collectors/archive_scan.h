/* Reading a recording through once when it opens: whether it is whole
 * (none corrupt, every metric described, the host's clock steady), the
 * positions a replay steps through, and where workload runs start, for
 * lining recorded runs up with live ones. Used by archive_source.c. */
#ifndef PARALLAX_ARCHIVE_SCAN_H
#define PARALLAX_ARCHIVE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* A run: the first position that shows it (its runs counter rose), and
 * the first that shows it ended (its state no longer running; the last
 * position when none does). */
struct archive_run {
    int pos, end;
    int inst; /* its instance in the archive */
    char name[32];
};

struct archive_index {
    bool ours; /* parallax recorded it: a position per record */
    int npos;  /* else a grid at the archive's usual step (pmlogger's) */
    struct timespec *pos;
    bool *gap; /* a mark or a new boot lies before pos[k] */
    int nruns;
    struct archive_run *runs;
    double step; /* the usual time between records, s */
};

/* Reads the archive open in PCP context ctx (the current one) through
 * and fills ix. 0, or -1 with one line in err naming target and what is
 * wrong. */
int archive_scan(int ctx, const char *target, struct archive_index *ix,
                 char *err, size_t errlen);

/* The time of position k, s since the epoch. */
double archive_pos_time(const struct archive_index *ix, int k);

void archive_index_free(struct archive_index *ix);

#endif
