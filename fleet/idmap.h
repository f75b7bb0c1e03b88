/* A map from 64-bit keys (series_key of an identifier) to small ints, open
 * addressing: what the fleet's poller uses to find a source or a series
 * among thousands at every answer. Not thread-safe; one owner. */
#ifndef PARALLAX_IDMAP_H
#define PARALLAX_IDMAP_H

#include <stdbool.h>
#include <stdint.h>

struct idmap {
    int cap; /* slots, a power of two */
    int n;
    uint64_t *key; /* 0: empty */
    int *val;
};

/* Sets key (not 0) to val, growing as needed; false when out of memory. */
bool idmap_put(struct idmap *m, uint64_t key, int val);

/* The value of key, or -1. */
int idmap_get(const struct idmap *m, uint64_t key);

/* Empties m, keeping its storage. */
void idmap_clear(struct idmap *m);

/* Frees m's storage. */
void idmap_free(struct idmap *m);

#endif
