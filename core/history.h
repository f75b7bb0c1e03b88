/* A short ring of recent figures per metric, for sparklines. Missing
 * figures are kept as NaN so gaps stay visible. */
#ifndef PARALLAX_HISTORY_H
#define PARALLAX_HISTORY_H

#define HISTORY_LEN 60

struct history {
    double v[HISTORY_LEN];
    unsigned head;  /* index of the next write */
    unsigned count; /* how many are held, up to HISTORY_LEN */
};

/* Appends v (NaN for a missing figure), dropping the oldest when full. */
void history_push(struct history *h, double v);

/* The figure `age` samples old (0 = newest), NaN when not held. */
double history_get(const struct history *h, unsigned age);

#endif
