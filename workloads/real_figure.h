/* A figure measured on a clock that ran at another rate, turned into the
 * figure a clock that kept real time would have given: a guest whose
 * clock gave 0.36 s per real second sees its system calls take 0.36 of
 * their real time and its loops run 2.75 times as fast. No PCP here. */
#ifndef PARALLAX_REAL_FIGURE_H
#define PARALLAX_REAL_FIGURE_H

#include "workloads/workload.h"

/* How a figure depends on the clock that timed it. */
enum wl_clock_dim {
    WD_NONE, /* a ratio of two times on the same clock ("x"): unchanged */
    WD_TIME, /* a time (ns, us, ms, s): real = figure / rate */
    WD_RATE, /* a count per time (ops/s, lps, KB/s, MWIPS): figure * rate */
};

/* The dimension w's unit gives its figure. */
enum wl_clock_dim wl_clock_dim(const struct workload *w);

/* w's figure as real time would have given it, when measured on a clock
 * that ran `rate` of its seconds per real second (w->real_figure when the
 * workload has its own rule, else by wl_clock_dim). NaN when rate is not
 * a positive number. */
double wl_real_figure(const struct workload *w, double figure, double rate);

#endif
