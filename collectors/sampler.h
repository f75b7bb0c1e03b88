/* A sampler: one thread per source that opens the source's backend, fetches
 * it every interval and hands the newest sample to the main loop, so that a
 * slow source never blocks the screen. The thread owns the backend state
 * (PCP local contexts belong to the thread that opened them). */
#ifndef PARALLAX_SAMPLER_H
#define PARALLAX_SAMPLER_H

#include <stdbool.h>

#include "collectors/backend.h"

struct sampler;

/* The samplers of one session share a wake gate. It puts their fetches on
 * one grid of instants (epoch + k * interval), and turns the samples that
 * arrive together into one byte on the wake pipe, so the main loop wakes
 * and redraws once per round instead of once per source. */
struct wake_gate;

/* A gate writing to wake_fd (< 0: none); NULL when out of memory. */
struct wake_gate *wake_gate_new(int wake_fd);

/* The host monotonic time g's grid counts from (fixed from its start). */
double wake_gate_epoch(const struct wake_gate *g);

/* Drops the caller's hold on g; the last sampler still using it frees it
 * (one abandoned inside a hanging fetch may outlive the session). After
 * this the gate writes nothing more. */
void wake_gate_release(struct wake_gate *g);

/* Starts sampling `target` (NULL: this host) with the first backend of
 * `candidates` that opens, every `interval` seconds on the gate's grid,
 * the first fetch at once. Samples are announced through `gate` (may be
 * NULL). Returns NULL only when the thread cannot be created. */
struct sampler *sampler_start(const struct backend *const *candidates,
                              const char *target, double interval,
                              struct wake_gate *gate);

/* The newest sample not yet taken, or NULL if none. It stays valid, and
 * the sampler's thread leaves it alone, until the next sampler_take on s
 * (three buffers change hands; no copy of a sample). */
const struct sample *sampler_take(struct sampler *s);

/* Queues a store of `value` into the metric `name` on the source; the
 * sampler thread makes it at once, then fetches, and the outcome comes back
 * in that sample's store results under the returned id (> 0). 0 when the
 * queue is full. */
unsigned sampler_store(struct sampler *s, const char *name, const char *value);

/* Has the thread store `value` into the metric `name` every `every`
 * seconds from now on, between samples and without a fetch, until called
 * with an empty value: a lease's renewal (session/jobs.c). Calling it again
 * with another value keeps the schedule. A failure comes with the next
 * sample (renew_error), once for each new reason. */
#define SAMPLER_RENEW_MAX 1024 /* bytes of a renewal's value */
void sampler_renew(struct sampler *s, const char *name, const char *value,
                   double every);

/* While on, the thread stamps the source's clock every SAMPLER_TICK_S
 * between its samples (jobs.c: while a guest whose clock's rate varies
 * runs a workload) (a one-metric fetch, where the backend can), so a
 * guest run's start and end are bracketed closely on the host's clock,
 * and fetches at once when the source's live runs change in number (a
 * run ended). The ticks come with the next sample. */
#define SAMPLER_TICK_S 0.02
void sampler_watch(struct sampler *s, bool on);

/* Changes the interval: the thread fetches at once, then at the new
 * interval's instants. */
void sampler_set_interval(struct sampler *s, double interval);

/* Stops the thread, which makes the stores still queued, closes the
 * backend and frees s. Waits STOP_WAIT_MS at most, and not at all for a
 * guest's thread stuck in a connect or fetch with nothing to store: that
 * one frees s when it ends. */
void sampler_stop(struct sampler *s);

/* Waits up to secs for the threads sampler_stop gave up on (each in a
 * fetch or a store that had not returned) to end and free themselves:
 * for a front end about to exit after a run's connections closed one by
 * one, so that none is cut off mid-request (and LeakSanitizer sees
 * nothing left). Returns at once when there are none. */
void sampler_drain(double secs);

/* sampler_stop for n samplers at once, within one wait. */
void sampler_stop_all(struct sampler *const *v, int n);

#endif
