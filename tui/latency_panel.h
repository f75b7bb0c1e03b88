/* The distribution view (l): the latency workloads' histograms of every
 * source side by side over the table (view/latency_view.h draws the
 * text). Left/Right switch workload, c counts or shares, any other key
 * closes it. */
#ifndef PARALLAX_LATENCY_PANEL_H
#define PARALLAX_LATENCY_PANEL_H

#include <stdbool.h>

#include "session/jobs.h"
#include "session/session.h"

struct latency_panel {
    bool open;
    int wl;      /* the workload shown (catalogue index) */
    bool shares; /* shares of each source's samples, not counts */
};

/* Opens the view on the first latency workload a source has finished
 * (else the first of the catalogue's). */
void latency_panel_open(struct latency_panel *p, const struct session *s,
                        const struct jobs *j);

/* Draws it from row y0 to y1. */
void latency_panel_draw(const struct latency_panel *p, const struct session *s,
                        const struct jobs *j, int y0, int y1);

/* Feeds one key to the open view; returns key_result flags. */
int latency_panel_key(struct latency_panel *p, const struct jobs *j, int ch);

#endif
