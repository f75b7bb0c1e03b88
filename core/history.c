/* The sparkline ring; see history.h. */
#include "core/history.h"

#include <math.h>

void history_push(struct history *h, double v)
{
    h->v[h->head] = v;
    h->head = (h->head + 1) % HISTORY_LEN;
    if (h->count < HISTORY_LEN)
        h->count++;
}

double history_get(const struct history *h, unsigned age)
{
    if (age >= h->count)
        return NAN;
    return h->v[(h->head + HISTORY_LEN - 1 - age) % HISTORY_LEN];
}
