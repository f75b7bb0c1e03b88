/* See keys.h. The bar follows the htop habit: help first, quit last. */
#include "tui/keys.h"

#include <stddef.h>

const struct key_doc key_docs[] = {
    {"F1 h ?", "this help", "F1", "Help", 0},
    {"Space", "start the selected workload everywhere; again: stop it", "Space",
     "Start/Stop", 1},
    {"a", "run the quick suite, one workload after another", "a", "Suite", 6},
    {"x", "stop every workload", "x", "Stop all", 5},
    {"g", "add a guest: [NAME=]HOST[:PORT][,pid=N|,vm=VM]", "g", "Add guest",
     3},
    {"s", "snapshot: save a text and a JSON report", "s", "Snapshot", 4},
    {"t", "next colour theme", "t", "Theme", 7},
    {"r", "record every live source as PCP archives; again: stop", "r",
     "Record", 9},
    {", .", "replay (-a): pause or play; one recorded interval on", NULL, NULL,
     0},
    {"[ ]", "replay slower, faster (1/8 to 64 times the recorded pace)", NULL,
     NULL, 0},
    {"n", "replay: to the start of the next recorded workload run", NULL, NULL,
     0},
    {"y", "count system calls (syscalls/s); each call costs more meanwhile",
     NULL, NULL, 0},
    {"l", "latency distributions: every source's histogram side by side", NULL,
     NULL, 0},
    {"v", "the host's view: what each VM on this host got; again: the table",
     NULL, NULL, 0},
    {"p", "pause the display (sampling goes on); again: resume", "p", "Pause",
     2},
    {"+ -", "sample less (+) or more (-) often", NULL, NULL, 0},
    {"Up Down j k", "select a workload", NULL, NULL, 0},
    {"Enter", "choose the sources that take part: asks for numbers or names",
     "Enter", "Sources", 8},
    {"0-9", "toggle whether source N takes part (0: this host)", NULL, NULL, 0},
    {"Tab", "give the counters, the time rows or the workloads the height",
     NULL, NULL, 0},
    {"PgUp PgDn",
     "scroll the workloads; the counter and time rows instead while some of "
     "them are hidden and the workloads lack the focus (the workloads' rule "
     "says which show)",
     NULL, NULL, 0},
    {"Left Right", "scroll the guests sideways", NULL, NULL, 0},
    {"^L", "redraw the screen", NULL, NULL, 0},
    {"q F10", "quit (asks first while workloads run)", "q", "Quit", 0},
};

const int key_docs_count = sizeof(key_docs) / sizeof(key_docs[0]);
_Static_assert(sizeof(key_docs) / sizeof(key_docs[0]) <= KEY_DOCS_MAX,
               "raise KEY_DOCS_MAX");
