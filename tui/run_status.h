/* What the status line says of the runs it announced, kept true: a
 * suite's progress ("running the quick suite: 3/12 pipe-lat"), then its
 * end ("the quick suite ended: 12 workloads, 1 run failed"); a single
 * workload's end. It speaks only while the status line still shows what
 * it last wrote there: another message (a refusal, a snapshot) stays. */
#ifndef PARALLAX_RUN_STATUS_H
#define PARALLAX_RUN_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "session/jobs.h"

#define RUN_STATUS_MAX 384 /* as long as the table panel's status */

struct run_status {
    enum { RS_NONE, RS_ONE, RS_SUITE } watch;
    int wl;         /* RS_ONE: the workload; RS_SUITE: its current one */
    int len;        /* RS_SUITE: how many workloads it has */
    char suite[32]; /* its name */
    char said[RUN_STATUS_MAX]; /* what was last written to the status */
};

/* The suite `name` of `len` workloads was started: says so in status. */
void run_status_suite(struct run_status *r, const char *name, int len,
                      char *status, size_t n);

/* Workload w was started: says so in status. */
void run_status_one(struct run_status *r, const struct jobs *j, int w,
                    char *status, size_t n);

/* Brings status up to date with the runs announced, while it still shows
 * what was last said. True when it changed. */
bool run_status_update(struct run_status *r, const struct jobs *j, char *status,
                       size_t n);

/* The workload the running suite is at, or -1 when no suite runs. */
int run_status_suite_at(const struct jobs *j);

#endif
