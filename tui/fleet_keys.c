/* See fleet_keys.h. */
#include "tui/fleet_keys.h"

#include <stddef.h>

const struct key_doc fleet_key_docs[] = {
    {"F1 h ?", "this help", "F1", "Help", 0},
    {"Enter",
     "the selected guest against its host, side by side (/pmapi); "
     "q there comes back",
     "Enter", "Open", 1},
    {"< >", "sort by the column to the left or right (worst first)", "<>",
     "Sort", 3},
    {"r", "reverse the order (best first)", NULL, NULL, 0},
    {"/ f",
     "filter: host:H kernel:K variant:V name:N state:S role:R (globs); "
     "empty clears",
     "/", "Filter", 2},
    {"Space",
     "mark the selected guest for a run (none marked: every guest "
     "shown)",
     "Space", "Mark", 6},
    {"w",
     "run a workload or suite on the marked (or shown) guests and "
     "their hosts",
     "w", "Run", 4},
    {"x", "stop the fleet run", "x", "Stop", 7},
    {"s", "save the fleet report (text and JSON)", "s", "Report", 5},
    {"Up Down j k", "select a guest", NULL, NULL, 0},
    {"PgUp PgDn Home End", "page through the guests", NULL, NULL, 0},
    {"Left Right", "scroll the columns sideways", NULL, NULL, 0},
    {"t", "next colour theme", NULL, NULL, 0},
    {"^L", "redraw the screen", NULL, NULL, 0},
    {"q F10", "quit (stops this parallax's fleet run)", "q", "Quit", 0},
};

const int fleet_key_docs_count =
    sizeof(fleet_key_docs) / sizeof(fleet_key_docs[0]);
_Static_assert(sizeof(fleet_key_docs) / sizeof(fleet_key_docs[0]) <=
                   KEY_DOCS_MAX,
               "raise KEY_DOCS_MAX");
