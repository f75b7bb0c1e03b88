/* See fleet_discovery.h. The callbacks of a step's requests fill the
 * discovery they are given, under the name it is on. */
#include "fleet/fleet_discovery.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

void disc_reset(struct discovery *d)
{
    d->n = 0;
    d->step = 0;
    d->complete = false;
    d->all.n = d->info.n = 0;
    idmap_clear(&d->by_source);
    idmap_clear(&d->by_series);
}

void disc_free(struct discovery *d)
{
    free(d->src);
    idmap_free(&d->by_source);
    idmap_free(&d->by_series);
    series_ids_free(&d->all);
    series_ids_free(&d->info);
    memset(d, 0, sizeof(*d));
}

/* The source `id` of d, added when new; NULL when out of memory. */
static struct disc_src *disc_source(struct discovery *d, const char *id)
{
    int i = idmap_get(&d->by_source, series_key(id));
    if (i >= 0)
        return &d->src[i];
    void *p = grow(d->src, &d->cap, d->n + 1, sizeof(d->src[0]), 64);
    if (!p)
        return NULL;
    d->src = p;
    struct disc_src *s = &d->src[d->n];
    memset(s, 0, sizeof(*s));
    snprintf(s->id, sizeof(s->id), "%s", id);
    if (!idmap_put(&d->by_source, series_key(id), d->n))
        return NULL;
    d->n++;
    return s;
}

/* /series/descs: which source a series of the current name belongs to. */
static void on_desc(void *arg, const char *series, const char *source,
                    const char *units)
{
    struct discovery *d = arg;
    const struct fleet_name *fn = &fleet_metrics()->names[d->name];
    struct disc_src *s = disc_source(d, source);
    double scale = 1;
    if (!s || (!fn->text && !fleet_unit_scale(units, fn->unit, &scale)))
        return; /* units it cannot turn into the table's: not read */
    snprintf(s->series[d->name], sizeof(s->series[0]), "%s", series);
    s->scale[d->name] = scale;
    idmap_put(&d->by_series, series_key(series),
              (int)(s - d->src) * FLEET_NAMES_MAX + d->name);
}

/* /series/instances: the key of the instance the name wants. */
static void on_instance(void *arg, const char *series, const char *instance,
                        const char *name)
{
    struct discovery *d = arg;
    const struct fleet_name *fn = &fleet_metrics()->names[d->name];
    int code = idmap_get(&d->by_series, series_key(series));
    if (code >= 0 && fn->inst && strcmp(name, fn->inst) == 0)
        d->src[code / FLEET_NAMES_MAX].inst[d->name] = series_key(instance);
}

static void on_label(void *arg, const char *series, const char *name,
                     const char *value)
{
    struct discovery *d = arg;
    int code = idmap_get(&d->by_series, series_key(series));
    if (code >= 0)
        fleet_labels_set(&d->src[code / FLEET_NAMES_MAX].lab, name, value);
}

/* Discovery step for name k of d. */
static int step_name(struct discovery *d, int k, struct http *http, char *err,
                     size_t errlen)
{
    const struct fleet_name *fn = &fleet_metrics()->names[k];
    struct series_ids ids = {0};
    int rc = series_query(http, fn->name, &ids, err, errlen);
    d->name = k;
    if (rc == 0)
        rc = series_descs(http, &ids, on_desc, d, err, errlen);
    if (rc == 0 && fn->inst)
        rc = series_instances(http, &ids, on_instance, d, err, errlen);
    series_ids_free(&ids);
    return rc;
}

/* The last step: each source's labels (through one series of it), and the
 * list of every series for the values. */
static int step_labels(struct discovery *d, struct http *http, char *err,
                       size_t errlen)
{
    struct series_ids one = {0};
    d->all.n = d->info.n = 0; /* (a step that failed is taken again) */
    for (int i = 0; i < d->n; i++) {
        for (int k = 0; k < FLEET_NAMES_MAX; k++) {
            if (d->src[i].series[k][0]) {
                series_ids_add(&one, d->src[i].series[k]);
                break;
            }
        }
        for (int k = 0; k < FLEET_NAMES_MAX; k++)
            if (d->src[i].series[k][0])
                series_ids_add(fleet_metrics()->names[k].use == FLEET_POLL
                                   ? &d->all
                                   : &d->info,
                               d->src[i].series[k]);
    }
    int rc = series_labels(http, &one, on_label, d, err, errlen);
    series_ids_free(&one);
    for (int i = 0; i < d->n; i++)
        fleet_labels_finish(&d->src[i].lab);
    return rc;
}

int disc_step(struct discovery *d, struct http *http, char *err, size_t errlen)
{
    const struct fleet_metrics *fm = fleet_metrics();
    int nnames = fm->nnames;
    /* names read through /pmapi only are no step: a later discovery,
     * a step a poll, once took 26 polls where 11 ask something */
    while (d->step < nnames && fm->names[d->step].use == FLEET_PAIR)
        d->step++;
    int rc = d->step >= nnames ? step_labels(d, http, err, errlen)
                               : step_name(d, d->step, http, err, errlen);
    if (rc < 0) {
        char why[256];
        snprintf(why, sizeof(why), "%s", err);
        snprintf(err, errlen, "%.120s (discovering %s)", why,
                 d->step >= nnames ? "the sources' labels"
                                   : fm->names[d->step].name);
    }
    if (rc == 0 && ++d->step > nnames)
        d->complete = true;
    return rc;
}

int disc_steps(const struct discovery *d, int *done)
{
    const struct fleet_metrics *fm = fleet_metrics();
    int n = 1; /* the labels */
    *done = d->complete;
    for (int k = 0; k < fm->nnames; k++) {
        if (fm->names[k].use == FLEET_PAIR)
            continue;
        n++;
        *done += k < d->step;
    }
    return n;
}

/* Adds source s of an older table to d: its series to d's maps and lists.
 * False when out of memory. */
static bool disc_carry(struct discovery *d, const struct disc_src *s)
{
    struct disc_src *c = disc_source(d, s->id);
    if (!c)
        return false;
    *c = *s;
    int i = (int)(c - d->src);
    for (int k = 0; k < FLEET_NAMES_MAX; k++) {
        if (!c->series[k][0])
            continue;
        idmap_put(&d->by_series, series_key(c->series[k]),
                  i * FLEET_NAMES_MAX + k);
        series_ids_add(fleet_metrics()->names[k].use == FLEET_POLL ? &d->all
                                                                   : &d->info,
                       c->series[k]);
    }
    return true;
}

int disc_keep_recorded(struct discovery *old, struct discovery *fresh)
{
    int kept = 0;
    for (int i = 0; i < old->n; i++) {
        const struct disc_src *s = &old->src[i];
        if (s->valued && idmap_get(&fresh->by_source, series_key(s->id)) < 0)
            kept += disc_carry(fresh, s);
    }
    return kept;
}
