/* One record's values on their way into an archive through libpcp_import:
 * the first record through its text calls (pmiPutValue, pmiWrite: these
 * also write the help texts and labels), every later one built in place
 * as a pmResult (pmiPutResult): no number printed and parsed again, no
 * allocation per value. The caller adds a metric's values together (all
 * its instances one after another). */
#ifndef PARALLAX_RECORD_VALUES_H
#define PARALLAX_RECORD_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <pcp/pmapi.h>

struct record_values {
    bool text; /* the next record goes through the text calls */
    char *arena;
    size_t cap, used;
    pmResult *res; /* the record being built (not text) */
    int maxvsets;
};

/* Room for records of up to maxvsets metrics, `bytes` in all. 0 or -1. */
int record_values_init(struct record_values *v, int maxvsets, size_t bytes);

/* Starts a record. */
void record_values_begin(struct record_values *v);

/* Adds value *x of `type` (PM_TYPE_U32, _U64, _DOUBLE, _STRING) for
 * instance `inst` named `iname` (PM_IN_NULL and NULL: singular) of the
 * metric id named `name`, which has at most `cap` instances. 0, or a
 * libpcp_import error; a value that finds no room is left out. */
int record_values_put(struct record_values *v, pmID id, const char *name,
                      int inst, const char *iname, int cap, int type,
                      const pmAtomValue *x);

/* Writes the record at t (s since the epoch, to the microsecond). 0, or
 * a libpcp_import error. */
int record_values_write(struct record_values *v, struct timeval t);

void record_values_free(struct record_values *v);

#endif
