/* The fleet's filter language: terms that every row shown must match,
 * each a shell glob on one of its labels or states (host:H kernel:K
 * variant:V name:N state:S role:R, or a bare word for name), as
 * --fleet-filter and the fleet screen's / take them. No curses. */
#ifndef PARALLAX_FLEET_FILTER_H
#define PARALLAX_FLEET_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "fleet/fleet_model.h"

#define FLEET_FILTER_MAX 8

/* What a term matches. */
enum fleet_filter_field {
    FF_NAME,
    FF_HOST,
    FF_KERNEL,
    FF_VARIANT,
    FF_STATE,
    FF_ROLE,
};

/* A filter: every term must match. */
struct fleet_filter {
    int n;
    struct {
        enum fleet_filter_field field;
        char glob[48];
    } term[FLEET_FILTER_MAX];
};

/* Parses text into f. 0, or -1 with a one-line reason in err. */
int fleet_filter_parse(const char *text, struct fleet_filter *f, char *err,
                       size_t errlen);

/* True when source s matches every term of f. */
bool fleet_filter_match(const struct fleet_filter *f,
                        const struct fleet_source *s);

/* True when a term of f is on the role (the fleet's hosts are then not
 * left out of the rows). */
bool fleet_filter_has_role(const struct fleet_filter *f);

/* The words the filter matches a state and a role by, which the table
 * shows too: "live", "late", "stale", "no data"; "host", "guest",
 * "none". */
const char *fleet_state_name(enum fleet_state s);
const char *fleet_role_name(enum fleet_role r);

#endif
