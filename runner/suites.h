/* Named suites: lists of workload names run together by parallax-run and
 * the TUI's suite key. Names resolve against the registry at run time, so
 * a misspelt or missing member is an error message, not a crash. */
#ifndef PARALLAX_SUITES_H
#define PARALLAX_SUITES_H

#include <stddef.h>

#include "workloads/workload.h"

#define SUITE_MAX_MEMBERS 256

struct wl_suite {
    const char *name;
    const char *desc;
    const char *const *members; /* NULL-terminated; NULL: the whole registry */
};

/* NULL-terminated, in the order --list shows them. */
extern const struct wl_suite *const wl_suites[];

/* The suite named `name`, or NULL. */
const struct wl_suite *suite_find(const char *name);

/* Fills out[0..max) with s's workloads, in suite order. Returns how many,
 * or -1 with a message in err when a member is not in the registry or
 * there are more than max. */
int suite_resolve(const struct wl_suite *s, const struct workload **out,
                  int max, char *err, size_t errlen);

/* Fills out[0..max) with the workloads `what` names: a suite, or a comma
 * list of workloads. Returns how many, or -1 with a message in err that
 * names the word it did not know and the suites there are. */
int suite_or_list_resolve(const char *what, const struct workload **out,
                          int max, char *err, size_t errlen);

/* Writes the suite names, "syscalls, quick, ...", into buf. */
void suite_names(char *buf, size_t len);

#endif
