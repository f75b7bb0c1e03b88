/* See archive_scan.h. The files' framing was checked before libpcp read
 * them (archive_frame.h); what only libpcp's reading shows is checked
 * here: a metric logged that the metadata does not describe (a .meta cut
 * at a record's end), and a clock step, where a record's timestamp (the
 * host's realtime) and parallax.fetch.host_mono (its monotonic clock)
 * advance by different amounts. */
#include "collectors/archive_scan.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>

#include "core/record_table.h"

#define JUMP_MAX      1.0  /* s realtime and monotonic may part by */
#define MAX_INST      64   /* workloads followed */
#define DESCRIBED_MAX 1024 /* metrics whose descriptor was looked up, a set */

double archive_pos_time(const struct archive_index *ix, int k)
{
    return (double)ix->pos[k].tv_sec + (double)ix->pos[k].tv_nsec / 1e9;
}

static double ts_sec(const struct timespec *t)
{
    return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

/* "2026-12-01 14:02:11", local time. */
static void when(double t, char *buf, size_t n)
{
    time_t s = (time_t)t;
    struct tm tm;
    strftime(buf, n, "%Y-%m-%d %H:%M:%S", localtime_r(&s, &tm));
}

/* --- the records --- */

struct scan {
    pmID rtt, mono, runs, state;
    pmInDom runs_indom;
    int ninst;
    int inst[MAX_INST];
    double last[MAX_INST];
    double prev_t, prev_mono;
    bool gap_next;
    int cap, rcap;                 /* of ix->pos and gap, of ix->runs */
    pmID described[DESCRIBED_MAX]; /* open addressing; 0: empty */
    int ndescribed;
};

static pmID lookup(const char *name)
{
    pmID id = PM_ID_NULL;
    return pmLookupName(1, &name, &id) == 1 ? id : PM_ID_NULL;
}

static const pmValueSet *vset_of(const pmHighResResult *rp, pmID id)
{
    for (int i = 0; id != PM_ID_NULL && i < rp->numpmid; i++)
        if (rp->vset[i]->pmid == id && rp->vset[i]->numval > 0)
            return rp->vset[i];
    return NULL;
}

static double value_of(const pmValueSet *vs, int j, int type)
{
    pmAtomValue a;
    if (pmExtractValue(vs->valfmt, &vs->vlist[j], type, &a, PM_TYPE_DOUBLE) < 0)
        return NAN;
    return a.d;
}

static int grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 0;
    int n = *cap ? *cap * 2 : 256;
    void *q = realloc(*p, (size_t)n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* Notes the runs whose counter rose in this record (position k). */
static int note_runs(struct scan *sc, struct archive_index *ix,
                     const pmValueSet *vs, int k)
{
    pmDesc d;
    if (pmLookupDesc(sc->runs, &d) < 0)
        return 0;
    for (int j = 0; j < vs->numval; j++) {
        int inst = vs->vlist[j].inst, i = 0;
        double v = value_of(vs, j, d.type);
        while (i < sc->ninst && sc->inst[i] != inst)
            i++;
        if (i == sc->ninst && sc->ninst < MAX_INST) {
            sc->inst[sc->ninst++] = inst;
            sc->last[i] = k == 0 ? v : 0; /* there from the start: old */
        }
        if (i == MAX_INST || !(v > sc->last[i]))
            continue;
        sc->last[i] = v;
        char *name = NULL;
        if (grow((void **)&ix->runs, &sc->rcap, ix->nruns + 1,
                 sizeof(ix->runs[0])) < 0)
            return -1;
        struct archive_run *r = &ix->runs[ix->nruns++];
        r->pos = k;
        r->end = -1;
        r->inst = inst;
        r->name[0] = '\0';
        if (pmNameInDomArchive(d.indom, inst, &name) >= 0) {
            snprintf(r->name, sizeof(r->name), "%s", name);
            free(name);
        }
    }
    return 0;
}

/* Runs that this record (position k) shows no longer running end here. */
static void note_ends(const struct scan *sc, struct archive_index *ix,
                      const pmValueSet *vs, int k)
{
    pmDesc d;
    if (pmLookupDesc(sc->state, &d) < 0)
        return;
    for (int j = 0; j < vs->numval; j++)
        for (int r = 0; r < ix->nruns; r++)
            if (ix->runs[r].end < 0 && ix->runs[r].pos < k &&
                ix->runs[r].inst == vs->vlist[j].inst &&
                value_of(vs, j, d.type) != 1)
                ix->runs[r].end = k;
}

/* True when every metric of the record has a descriptor in the archive's
 * metadata: one cut at a record's end loses the last ones, and libpcp
 * then gives their values with nothing to read them by. Each metric is
 * looked up once. */
static bool described(struct scan *sc, const pmHighResResult *rp, pmID *lacks)
{
    for (int i = 0; i < rp->numpmid; i++) {
        pmID id = rp->vset[i]->pmid;
        unsigned h = (unsigned)id * 2654435761u % DESCRIBED_MAX;
        while (sc->described[h] && sc->described[h] != id)
            h = (h + 1) % DESCRIBED_MAX;
        if (sc->described[h] == id)
            continue;
        pmDesc d;
        if (pmLookupDesc(id, &d) < 0) {
            *lacks = id;
            return false;
        }
        if (id != 0 && sc->ndescribed < DESCRIBED_MAX / 2) {
            sc->described[h] = id;
            sc->ndescribed++;
        }
    }
    return true;
}

/* One record (not a mark): its position, runs and clock. */
static int take_record(struct scan *sc, struct archive_index *ix,
                       const pmHighResResult *rp, const char *target, char *err,
                       size_t errlen)
{
    double t = ts_sec(&rp->timestamp);
    const pmValueSet *vs;
    pmID lacks;
    if (!described(sc, rp, &lacks)) {
        char at[32], id[32];
        when(t, at, sizeof(at));
        snprintf(err, errlen,
                 "%s: corrupt: its record of %s holds metric %s, which its "
                 "metadata does not describe (a .meta cut short?)",
                 target, at, pmIDStr_r(lacks, id, sizeof(id)));
        return -1;
    }
    if (vset_of(rp, sc->rtt))
        ix->ours = true;
    if ((vs = vset_of(rp, sc->mono))) {
        pmDesc d;
        double mono =
            pmLookupDesc(sc->mono, &d) < 0 ? NAN : value_of(vs, 0, d.type);
        double dm = mono - sc->prev_mono, dr = t - sc->prev_t;
        if (!sc->gap_next && isfinite(dm) && dm < 0)
            sc->gap_next = true; /* monotonic went back: a new boot */
        else if (!sc->gap_next && isfinite(dm) && fabs(dr - dm) > JUMP_MAX) {
            char at[32];
            when(t, at, sizeof(at));
            snprintf(err, errlen,
                     "%s: the host's clock jumped %+.1f s before the record "
                     "of %s (realtime against monotonic: a step or a "
                     "suspend); replay the parts on either side, cut with "
                     "pmlogextract -S/-T",
                     target, dr - dm, at);
            return -1;
        }
        if (isfinite(mono))
            sc->prev_mono = mono;
    }
    int k = ix->npos, had = sc->cap;
    bool *gap = NULL;
    if (grow((void **)&ix->pos, &sc->cap, k + 1, sizeof(ix->pos[0])) < 0 ||
        (sc->cap != had &&
         !(gap = realloc(ix->gap, (size_t)sc->cap * sizeof(bool))))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (gap)
        ix->gap = gap;
    ix->pos[k] = rp->timestamp;
    ix->gap[k] = sc->gap_next;
    ix->npos++;
    sc->gap_next = false;
    sc->prev_t = t;
    if ((vs = vset_of(rp, sc->state)))
        note_ends(sc, ix, vs, k);
    if ((vs = vset_of(rp, sc->runs)) && note_runs(sc, ix, vs, k) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The usual time between records: their median gap (1 s when unknown). */
static double usual_step(const struct archive_index *ix)
{
    double *d = malloc(sizeof(double) * (size_t)(ix->npos + 1));
    int n = 0;
    for (int k = 1; d && k < ix->npos; k++)
        if (!ix->gap[k])
            d[n++] = archive_pos_time(ix, k) - archive_pos_time(ix, k - 1);
    double step = 1;
    if (n > 0) {
        qsort(d, (size_t)n, sizeof(double), cmp_double);
        step = fmax(0.1, d[n / 2]);
    }
    free(d);
    return step;
}

/* Another logger's records come in groups at their own times: a replay
 * steps through them on a grid at the usual step instead, each run at
 * the first grid point that shows it. */
static int make_grid(struct archive_index *ix, char *err, size_t errlen)
{
    double t0 = archive_pos_time(ix, 0),
           t1 = archive_pos_time(ix, ix->npos - 1);
    int n = (int)floor((t1 - t0) / ix->step) + 1;
    struct timespec *pos = malloc(sizeof(*pos) * (size_t)n);
    bool *gap = calloc((size_t)n, sizeof(bool));
    if (!pos || !gap) {
        free(pos);
        free(gap);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int g = 0, k = 0; g < n; g++) {
        double t = t0 + g * ix->step;
        pos[g].tv_sec = (time_t)floor(t);
        pos[g].tv_nsec = (long)((t - floor(t)) * 1e9);
        for (; k < ix->npos && archive_pos_time(ix, k) <= t; k++)
            gap[g] |= ix->gap[k] && g > 0;
    }
    for (int r = 0; r < ix->nruns; r++) {
        double t = archive_pos_time(ix, ix->runs[r].pos);
        double e = archive_pos_time(ix, ix->runs[r].end);
        ix->runs[r].pos = (int)fmin(n - 1, ceil((t - t0) / ix->step));
        ix->runs[r].end = (int)fmin(n - 1, ceil((e - t0) / ix->step));
    }
    free(ix->pos);
    free(ix->gap);
    ix->pos = pos;
    ix->gap = gap;
    ix->npos = n;
    return 0;
}

int archive_scan(int ctx, const char *target, struct archive_index *ix,
                 char *err, size_t errlen)
{
    struct scan sc = {
        .rtt = lookup(record_source_names[RECORD_FETCH_RTT]),
        .mono = lookup(record_source_names[RECORD_FETCH_HOST_MONO]),
        .runs = lookup(record_workload_names[RECORD_WL_RUNS]),
        .state = lookup(record_workload_names[RECORD_WL_STATE_CODE]),
        .prev_t = NAN,
        .prev_mono = NAN,
    };
    pmHighResLogLabel label;
    memset(ix, 0, sizeof(*ix));
    pmUseContext(ctx);
    int sts = pmGetHighResArchiveLabel(&label);
    if (sts >= 0)
        sts = pmSetModeHighRes(PM_MODE_FORW, &label.start, NULL);
    for (;;) {
        pmHighResResult *rp = NULL;
        if (sts >= 0)
            sts = pmFetchHighResArchive(&rp);
        if (sts < 0) {
            if (sts == PM_ERR_EOL)
                break;
            char msg[PM_MAXERRMSGLEN], at[32] = "its start";
            if (ix->npos)
                when(archive_pos_time(ix, ix->npos - 1), at, sizeof(at));
            snprintf(err, errlen,
                     "%s: corrupt after %s: %s (pmlogcheck tells more)", target,
                     at, pmErrStr_r(sts, msg, sizeof(msg)));
            return -1;
        }
        int rc = 0;
        if (rp->numpmid == 0) /* a mark: the logger stopped here */
            sc.gap_next = ix->npos > 0;
        else
            rc = take_record(&sc, ix, rp, target, err, errlen);
        pmFreeHighResResult(rp);
        if (rc < 0)
            return -1;
    }
    if (ix->npos == 0) {
        snprintf(err, errlen, "%s: holds no records", target);
        return -1;
    }
    for (int r = 0; r < ix->nruns; r++)
        if (ix->runs[r].end < 0)
            ix->runs[r].end = ix->npos - 1;
    ix->step = usual_step(ix);
    return ix->ours ? 0 : make_grid(ix, err, errlen);
}

void archive_index_free(struct archive_index *ix)
{
    free(ix->pos);
    free(ix->gap);
    free(ix->runs);
    memset(ix, 0, sizeof(*ix));
}
