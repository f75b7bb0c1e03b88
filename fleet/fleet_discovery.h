/* The fleet's discovery: the /series state machine that finds, for every
 * name of fleet_metrics, its series (/series/query), which source each
 * belongs to and its units (/series/descs), the instance wanted
 * (/series/instances), then each source's labels (/series/labels), one
 * step a call, so that its user (fleet_poll.c) decides how much of it a
 * poll takes. The table it makes says which series of which source to
 * read every poll, and what each value means. */
#ifndef PARALLAX_FLEET_DISCOVERY_H
#define PARALLAX_FLEET_DISCOVERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fleet/fleet_labels.h"
#include "fleet/fleet_metrics.h"
#include "fleet/http.h"
#include "fleet/idmap.h"
#include "fleet/series.h"

/* One source as a discovery found it. */
struct disc_src {
    char id[SERIES_ID_LEN + 1];
    struct fleet_labels lab;
    char series[FLEET_NAMES_MAX][SERIES_ID_LEN + 1]; /* "" none */
    uint64_t inst[FLEET_NAMES_MAX]; /* the instance wanted, 0 singular */
    double scale[FLEET_NAMES_MAX];  /* into the table's units; 0: none */
    bool valued;                    /* a value of it came in the last poll */
};

struct discovery {
    int n, cap;
    struct disc_src *src;
    struct idmap by_source; /* source key -> index */
    struct idmap by_series; /* series key -> index * FLEET_NAMES_MAX + name */
    struct series_ids all;  /* the series read every poll */
    struct series_ids info; /* what the sources are: now and then */
    int step;               /* the next step: a name, then the labels */
    bool complete;
    int name; /* the name a step is on (its callbacks) */
};

/* Empties d for a discovery from its first step (its memory kept). */
void disc_reset(struct discovery *d);

/* Frees d's memory; d is then empty. */
void disc_free(struct discovery *d);

/* One step of d through http: a name of fleet_metrics, or last the
 * labels; d->complete after the last. 0, or -1 with err naming what the
 * step asked for (a step that failed is taken again on the next call). */
int disc_step(struct discovery *d, struct http *http, char *err, size_t errlen);

/* The steps of a discovery that ask pmproxy something, and how many of
 * them d has done. */
int disc_steps(const struct discovery *d, int *done);

/* Before a new table replaces `old`: the sources of old whose values
 * still come (valued) but that the new discovery did not find go into
 * it too. pmproxy 6.0.3 writes a source's metadata to its key-value
 * server once, when it first reads the archive, and only its values
 * after: a key-value server restarted empty gets the values of every
 * source still recorded, but no query finds them (issue 24). How many
 * were kept. */
int disc_keep_recorded(struct discovery *old, struct discovery *fresh);

#endif
