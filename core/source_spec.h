/* A source named on the command line or at the add-guest prompt:
 * "HOST[:PORT]" or "LABEL=HOST[:PORT]", either followed by ",pid=N": the
 * process on this host that runs the guest (its VM, for the host's view). */
#ifndef PARALLAX_SOURCE_SPEC_H
#define PARALLAX_SOURCE_SPEC_H

#include <stddef.h>

struct source_spec {
    char name[64];    /* the column's label: LABEL, or HOST[:PORT] */
    char target[128]; /* what pmNewContext gets: HOST[:PORT] */
    int pid;          /* its VM process on this host, 0 when not given */
};

/* Parses arg into out. 0, or -1 with a one-line message in err. */
int source_spec_parse(const char *arg, struct source_spec *out, char *err,
                      size_t errlen);

#endif
