/* Every key of the fleet screen, in one table: its help and its key bar
 * are made from it, as the main screen's are from tui/keys.c. */
#ifndef PARALLAX_FLEET_KEYS_H
#define PARALLAX_FLEET_KEYS_H

#include "tui/keys.h"

extern const struct key_doc fleet_key_docs[];
extern const int fleet_key_docs_count;

#endif
