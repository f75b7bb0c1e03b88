/* See baselines.h. */
#include "core/baselines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report_read.h"

int baselines_open(struct session *s, struct jobs *j, const char *const *args,
                   int n, char *err, size_t errlen)
{
    struct baseline *b = malloc(sizeof(*b)); /* large: not on the stack */
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        /* LABEL=FILE, unless the '=' is part of a path */
        char label[64] = "";
        const char *path = args[i], *eq = strchr(args[i], '=');
        if (eq && !memchr(args[i], '/', (size_t)(eq - args[i]))) {
            snprintf(label, sizeof(label), "%.*s", (int)(eq - args[i]),
                     args[i]);
            path = eq + 1;
        }
        rc = report_read(path, NULL, label[0] ? label : NULL, b, err, errlen);
        if (rc == 0)
            rc = session_add_fixed(s, &b->model, err, errlen);
        if (rc == 0)
            jobs_set_baseline(j, s->nsrc - 1, b);
    }
    free(b);
    return rc;
}
