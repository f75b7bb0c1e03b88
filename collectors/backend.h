/* A collector backend: how one kind of source is opened, fetched and
 * closed. Backends are const tables (designated initialisers) listed in
 * registries; a sampler thread owns the state a backend opens. */
#ifndef PARALLAX_BACKEND_H
#define PARALLAX_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/clock.h"
#include "core/sample.h"

struct backend {
    const char *name; /* shown on screen: "/proc", "pcp local", ... */
    /* Optional: process-wide set-up, run once in the main thread before any
     * sampler thread starts (libpcp calls setenv while it reads its
     * configuration, which races with getenv in other threads). */
    void (*global_init)(void);
    /* Opens `target` (NULL: this host). Returns the backend's state, or
     * NULL with a one-line reason in err. Called from the owning thread. */
    void *(*open)(const char *target, char *err, size_t errlen);
    /* Fills out (values, timestamps, info). 0, or -1 with out->error set
     * (the source is closed and opened again later), or 1 for a sample
     * that says the source was down (a recording's) without closing it. */
    int (*fetch)(void *state, struct sample *out);
    void (*close)(void *state);
    /* Optional: stores `value` (text, converted to the metric's type) into
     * the metric `name`. 0, or a negative PCP error code with the reason
     * and its fix in msg. */
    int (*store)(void *state, const char *name, const char *value, char *msg,
                 size_t msglen);
    /* Optional: a clock tick, the cheapest fetch that carries the
     * source's timestamp. *runs gets the number of workload runs live on
     * the source when it says (-1: it does not). 0, or -1. */
    int (*tick)(void *state, struct clock_tick *t, int *runs);
};

extern const struct backend backend_proc;
extern const struct backend backend_pcp_local;
extern const struct backend backend_gtop;
extern const struct backend backend_pcp_host; /* target "host[:port]" */
extern const struct backend backend_archive;  /* target: a PCP archive */

/* The backends that can read this host, most preferred first; NULL-ended:
 * all of them, or from the one local_backends_choose named. */
const struct backend *const *local_backends(void);

/* Makes the list start at "proc", "pcp" or "gtop" (--local); call before
 * any sampler starts. False for another name. */
bool local_backends_choose(const char *name);
/* ... and a guest or other host running pmcd. */
extern const struct backend *const remote_backends[];
/* ... and a recording (collectors/archive_source.h). */
extern const struct backend *const archive_backends[];

#endif
