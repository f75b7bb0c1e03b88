/* A sampler: one thread per source that opens the source's backend, fetches
 * it every interval and hands the newest sample to the main loop, so that a
 * slow source never blocks the screen. The thread owns the backend state
 * (PCP local contexts belong to the thread that opened them). */
#ifndef PARALLAX_SAMPLER_H
#define PARALLAX_SAMPLER_H

#include <stdbool.h>

#include "collectors/backend.h"

struct sampler;

/* Starts sampling `target` (NULL: this host) with the first backend of
 * `candidates` that opens, every `interval` seconds, the first fetch at
 * once. After each fetch one byte is written to wake_fd (if >= 0).
 * Returns NULL only when the thread cannot be created. */
struct sampler *sampler_start(const struct backend *const *candidates,
                              const char *target, double interval, int wake_fd);

/* Copies the newest sample not yet taken into out; false if none. */
bool sampler_take(struct sampler *s, struct sample *out);

/* Queues a store of `value` into the metric `name` on the source; the
 * sampler thread makes it at once, then fetches, and the outcome comes back
 * in that sample's store results under the returned id (> 0). 0 when the
 * queue is full. */
unsigned sampler_store(struct sampler *s, const char *name, const char *value);

/* Changes the interval from the next fetch on. */
void sampler_set_interval(struct sampler *s, double interval);

/* Stops the thread, closes the backend and frees s. */
void sampler_stop(struct sampler *s);

#endif
