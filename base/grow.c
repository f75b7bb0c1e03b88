/* See grow.h. */
#include "base/grow.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

void *grow(void *items, int *cap, int need, size_t size, int first)
{
    if (need <= *cap)
        return items;
    long long n = *cap > 0 ? *cap : first > 0 ? first : 1;
    while (n < need)
        n *= 2;
    if (n > INT_MAX || (size_t)n > SIZE_MAX / size)
        return NULL;
    void *p = realloc(items, size * (size_t)n);
    if (p)
        *cap = (int)n;
    return p;
}
