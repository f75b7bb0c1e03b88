/* See freeze.h. The session copy is calloc'd whole but only its first
 * nsrc models are written: the untouched slots stay unmapped pages, so a
 * pause costs the memory of the sources shown, not of 64. */
#include "session/freeze.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "session/vm_watch.h"

int freeze_take(struct freeze *f, const struct session *s, const struct jobs *j)
{
    freeze_release(f);
    f->s = calloc(1, sizeof(*f->s));
    f->j = calloc(1, sizeof(*f->j));
    if (!f->s || !f->j)
        goto fail;
    f->at = clock_mono();
    f->s->interval = s->interval;
    f->s->nsrc = s->nsrc;
    f->s->self = s->self;
    f->s->vms_off = s->vms_off;
    memcpy(f->s->model, s->model, sizeof(s->model[0]) * (size_t)s->nsrc);
    memcpy(f->s->recorded, s->recorded, sizeof(s->recorded));
    for (int i = 0; i < s->nsrc; i++) /* none may point at the live ones */
        f->s->model[i].vms = NULL;
    for (int i = 0; i < s->nsrc; i++) { /* recorded VMs: the copy's own */
        struct source_model *m = &f->s->model[i];
        if (!s->model[i].vms)
            continue;
        m->vms = malloc(sizeof(*m->vms) * SAMPLE_MAX_VMS);
        if (!m->vms)
            goto fail;
        memcpy(m->vms, s->model[i].vms, sizeof(*m->vms) * SAMPLE_MAX_VMS);
    }
    f->s->wake[0] = f->s->wake[1] = -1;
    if (s->vms) { /* the host's view as it was; no scan cache of its own */
        f->s->vms = malloc(sizeof(*f->s->vms));
        if (!f->s->vms)
            goto fail;
        *f->s->vms = *s->vms;
        f->s->vms->cache = NULL;
    }
    for (int i = 0; i < s->nsrc; i++) { /* other hosts' VMs, no reader */
        if (!s->host_vms[i])
            continue;
        f->s->host_vms[i] = malloc(sizeof(*s->host_vms[i]));
        if (!f->s->host_vms[i])
            goto fail;
        *f->s->host_vms[i] = *s->host_vms[i];
    }
    *f->j = *j;
    /* the cells are the copy's own: none may point at the live ones */
    memset(f->j->cells, 0, sizeof(f->j->cells));
    for (int src = 0; src < SESSION_MAX_SOURCES; src++) {
        if (!j->cells[src])
            continue;
        size_t size = sizeof(struct job_cell) * JOBS_MAX_WL;
        f->j->cells[src] = malloc(size);
        if (!f->j->cells[src])
            goto fail;
        memcpy(f->j->cells[src], j->cells[src], size);
        for (int w = 0; w < JOBS_MAX_WL; w++) /* the live cells' own */
            f->j->cells[src][w].stamps = NULL;
    }
    return 0;
fail:
    freeze_release(f);
    return -1;
}

bool freeze_active(const struct freeze *f)
{
    return f->s != NULL;
}

void freeze_release(struct freeze *f)
{
    if (f->j) {
        for (int src = 0; src < SESSION_MAX_SOURCES; src++)
            free(f->j->cells[src]);
    }
    free(f->j);
    if (f->s) {
        free(f->s->vms);
        for (int i = 0; i < f->s->nsrc; i++) {
            free(f->s->host_vms[i]);
            model_release(&f->s->model[i]);
        }
    }
    free(f->s);
    f->s = NULL;
    f->j = NULL;
}
