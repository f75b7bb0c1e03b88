/* See baselines.h. In the screen stderr is the log by the time baselines
 * are read, so the version warning lands there; the column's name says
 * the version too. */
#include "report/baselines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_read.h"
#include "core/version.h"

/* Another version's report is read (the layout is the same), but its
 * figures may come from other workload code: said once, not refused. */
static void warn_version(const char *path, const struct baseline *b)
{
    fprintf(stderr,
            "parallax: warning: %s was written by parallax %s, this is %s: "
            "its figures may not compare; measure the baseline again with "
            "this version to be sure\n",
            path, b->version, PARALLAX_VERSION);
}

/* The saved workload figures of b into the cells of column src. */
static void set_figures(struct jobs *j, int src, const struct baseline *b)
{
    for (int w = 0; w < j->nwl; w++) {
        const struct baseline_wl *bw = baseline_wl_find(b, j->wl[w]->name);
        if (!bw)
            continue;
        struct wl_stats st = {.n = bw->n,
                              .median = bw->median,
                              .min = bw->min,
                              .max = bw->max,
                              .mean = bw->mean,
                              .sd = NAN,
                              .ci95 = bw->ci95,
                              .med_lo = bw->med_lo,
                              .med_hi = bw->med_hi,
                              .med_cover = bw->med_cover};
        jobs_set_done(j, src, w, &st);
    }
}

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
        if (rc == 0 && !baseline_same_version(b))
            warn_version(path, b);
        if (rc == 0)
            rc = session_add_fixed(s, &b->model, err, errlen);
        if (rc == 0)
            set_figures(j, s->nsrc - 1, b);
    }
    free(b);
    return rc;
}
