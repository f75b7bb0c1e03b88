/* The catalogue: one line per workload. Each group keeps its own block. */
#include "workloads/registry.h"

#include <string.h>

/* system calls (syscall.c) */
/* lmbench-style latencies */
/* UnixBench-style throughputs, CPU, crypto, disk, time, scheduler */

const struct workload *const workload_registry[] = {
    /* system calls */
    /* lmbench-style latencies */
    /* UnixBench-style throughputs, CPU, crypto, disk, time, scheduler */
    NULL,
};

const struct workload *workload_find(const char *name)
{
    for (int i = 0; workload_registry[i]; i++)
        if (strcmp(workload_registry[i]->name, name) == 0)
            return workload_registry[i];
    return NULL;
}

int workload_count(void)
{
    int n = 0;
    while (workload_registry[n])
        n++;
    return n;
}
