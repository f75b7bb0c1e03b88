/* The workload catalogue: every workload parallax knows, in one array. */
#ifndef PARALLAX_REGISTRY_H
#define PARALLAX_REGISTRY_H

#include "workloads/workload.h"

/* NULL-terminated, in catalogue order. */
extern const struct workload *const workload_registry[];

/* The workload named `name`, or NULL. */
const struct workload *workload_find(const char *name);

/* How many workloads the catalogue holds. */
int workload_count(void);

#endif
