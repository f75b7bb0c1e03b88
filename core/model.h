/* The model of one source: the figures views show, computed once per sample
 * from raw counters (rates, CPU shares), with a short history per metric.
 * Views only read it; only model_update writes it. */
#ifndef PARALLAX_MODEL_H
#define PARALLAX_MODEL_H

#include <stdbool.h>

#include "core/history.h"
#include "core/metrics.h"
#include "core/sample.h"

enum source_state {
    SRC_CONNECTING, /* no sample yet */
    SRC_LIVE,       /* the last fetch succeeded */
    SRC_DOWN,       /* the last fetch failed; figures are n/a */
};

struct source_model {
    char name[64];
    const char *backend; /* collector in use, NULL before the first sample */
    struct source_info info;
    enum source_state state;
    char error[160]; /* why the source is down */
    double fetch_ms; /* round trip of the last fetch */
    double last_ok;  /* host monotonic time of the last good sample */
    unsigned long samples;
    struct sample prev; /* last good sample, the base for rates */
    bool have_prev;
    double value[METRIC_COUNT]; /* shown figures, NaN = n/a */
    struct history hist[METRIC_COUNT];
};

/* Resets m to a source named `name` that has no sample yet. */
void model_init(struct source_model *m, const char *name);

/* Folds one sample into m: figures, state and history. */
void model_update(struct source_model *m, const struct sample *s);

#endif
