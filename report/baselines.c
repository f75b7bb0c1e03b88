/* See baselines.h. In the screen stderr is the log by the time baselines
 * are read, so the version warning lands there; the column's name says
 * the version too. */
#include "report/baselines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/version.h"
#include "report/archive_baseline.h"
#include "report/report_read.h"

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

/* FILE[:SOURCE] into path and source (NULL: none named): the colon is
 * a source's only when FILE exists without it. */
static const char *split_source(const char *arg, char *path, size_t n)
{
    snprintf(path, n, "%s", arg);
    char *colon = strrchr(path, ':');
    if (!colon || access(arg, F_OK) == 0 || colon == path)
        return NULL;
    *colon = '\0';
    if (access(path, F_OK) != 0) {
        *colon = ':';
        return NULL;
    }
    return arg + (colon - path) + 1;
}

/* A recording as a column: its end, with its workloads' last results. */
static int open_archive(struct session *s, struct jobs *j, const char *path,
                        const char *source, const char *label, char *err,
                        size_t errlen)
{
    struct source_model *m = malloc(sizeof(*m));
    int rc =
        m ? archive_baseline_read(path, source, label, m, err, errlen) : -1;
    if (!m)
        snprintf(err, errlen, "out of memory");
    if (rc == 0)
        rc = session_add_fixed(s, m, err, errlen);
    for (int w = 0; rc == 0 && w < j->nwl; w++)
        for (int k = 0; k < m->njobs; k++)
            if (strcmp(m->job[k].name, j->wl[w]->name) == 0)
                jobs_set_recorded(j, s->nsrc - 1, w, &m->job[k],
                                  model_job_extras(m, &m->job[k]),
                                  model_pool_text(m, m->job[k].hist_at));
    free(m);
    return rc;
}

int baselines_open(struct session *s, struct jobs *j, const char *const *args,
                   int n, char *err, size_t errlen)
{
    if (n <= 0) /* no --baseline: its 100 KB stay unallocated (issue 29) */
        return 0;
    struct baseline *b = malloc(sizeof(*b)); /* large: not on the stack */
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        /* LABEL=FILE, unless the '=' is part of a path */
        char label[64] = "", path[4096];
        const char *file = args[i], *eq = strchr(args[i], '=');
        if (eq && !memchr(args[i], '/', (size_t)(eq - args[i]))) {
            snprintf(label, sizeof(label), "%.*s", (int)(eq - args[i]),
                     args[i]);
            file = eq + 1;
        }
        const char *source = split_source(file, path, sizeof(path));
        if (archive_baseline_is(path)) {
            rc = open_archive(s, j, path, source, label[0] ? label : NULL, err,
                              errlen);
            continue;
        }
        rc = report_read(path, source, label[0] ? label : NULL, b, err, errlen);
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
