/* The live figures as CSV, as `pmrep -o csv` writes them: a header line
 * naming each column, then one line a refresh; a spreadsheet, pandas or a
 * shell pipeline reads a live run (--text -o csv, --batch -F FILE) or a
 * replayed archive the same way. Columns: Time (the refresh, local time as
 * pmrep prints it, to the second), then per source "SOURCE:time (s)" (the
 * time its figures were taken: this host's realtime at the fetch, a
 * recorded column's record time; s since the epoch) and "SOURCE:KEY
 * (UNIT)" for each row of the metric table (KEY as the JSON report's
 * "metrics" name it). A missing figure is an empty field, as in pmrep's. */
#ifndef PARALLAX_CSV_OUT_H
#define PARALLAX_CSV_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "session/session.h"

struct csv_out {
    FILE *f; /* NULL: not writing */
    bool own;
    bool header;                             /* written */
    int nsrc;                                /* the sources it names */
    unsigned long seen[SESSION_MAX_SOURCES]; /* updates in the last row */
};

/* Starts writing to path (NULL: f, stdout say). 0, or -1 with err. */
int csv_out_open(struct csv_out *c, const char *path, FILE *f, char *err,
                 size_t errlen);

/* One row of every source's figures now (the header first). */
void csv_out_row(struct csv_out *c, const struct session *s);

/* A row when this host has a new sample since the last row (--batch's
 * refresh); with `any`, when any source has one (before the report, so
 * that the last row holds what the report holds). */
void csv_out_tick(struct csv_out *c, const struct session *s, bool any);

/* Ends writing (closes what it opened). -1 when a write failed, with err. */
int csv_out_close(struct csv_out *c, char *err, size_t errlen);

#endif
