/* Growing an array by doubling: the one realloc of the tables that grow
 * with what a server sends (the fleet's sources, series, discoveries). */
#ifndef PARALLAX_GROW_H
#define PARALLAX_GROW_H

#include <stddef.h>

/* items (of *cap elements of `size` bytes) with room for `need`: itself
 * when it has, else reallocated to the first of first, 2 first, 4
 * first... that holds need, *cap set to it. NULL when out of memory or
 * past INT_MAX elements: items and *cap are then as they were (and items
 * still the caller's to free). */
void *grow(void *items, int *cap, int need, size_t size, int first);

#endif
