/* See pmda_jobs.h. Instance names are learnt once at lookup and again only
 * when an unknown instance appears (an agent restarted with a different
 * catalogue), so a fetch costs no extra round trips. */
#include "collectors/pmda_jobs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pmda_jobs_names[PMDA_NMETRICS] = {
#define PJ_NAME(k, row) [PJ_##k] = AGENT_NAME(row),
#define PC_NAME(k, row) [PJ_COUNT + PC_##k] = AGENT_NAME(row),
    AGENT_JOB_READS(PJ_NAME) AGENT_JOB_READS_HOST(PJ_NAME)
        AGENT_PROBE_READS(PC_NAME) AGENT_PROBE_READS_HOST(PC_NAME)
#undef PJ_NAME
#undef PC_NAME
};

/* Metrics an older agent may not have. */
static bool optional(int i)
{
    return (i >= PJ_FIRST_OPTIONAL && i < PJ_COUNT) ||
           i >= PJ_COUNT + PC_FIRST_OPTIONAL;
}

/* What a missing optional metric is fetched as: one of the same kind
 * (a string per workload, a number per workload, a singular number). */
static int stand_in(int i)
{
    if (i == PJ_EXTRAS || i == PJ_LANES || i == PJ_REPEAT_LOG || i == PJ_HIST)
        return PJ_ERROR;
    return i < PJ_COUNT ? PJ_FIGURE : PJ_COUNT + PC_SPIN_CPU;
}

static void learn_instances(struct pmda_jobs *pj)
{
    int *inst = NULL;
    char **name = NULL;
    int n = pmGetInDom(pj->desc[PJ_STATE].indom, &inst, &name);
    pj->ninst = 0;
    for (int i = 0; i < n && pj->ninst < SAMPLE_MAX_JOBS; i++) {
        pj->inst[pj->ninst] = inst[i];
        snprintf(pj->name[pj->ninst], sizeof(pj->name[0]), "%s", name[i]);
        pj->ninst++;
    }
    free(inst);
    free(name);
}

bool pmda_jobs_lookup(struct pmda_jobs *pj)
{
    pj->known = false;
    /* the optional ones alone: libpcp fails a whole list with an unknown
     * name in it */
    const char *rest[PMDA_NMETRICS];
    pmID id[PMDA_NMETRICS];
    int n = 0;
    for (int i = 0; i < PMDA_NMETRICS; i++)
        if (!optional(i))
            rest[n++] = pmda_jobs_names[i];
    if (pmLookupName(n, rest, id) != n)
        return false;
    for (int i = 0, k = 0; i < PMDA_NMETRICS; i++) {
        pj->has[i] = !optional(i);
        if (!optional(i))
            pj->id[i] = id[k++];
    }
    for (int i = 0; i < PMDA_NMETRICS; i++)
        if (!optional(i) && pmLookupDesc(pj->id[i], &pj->desc[i]) < 0)
            return false;
    /* an agent older than its namespace may know the name, not the metric */
    for (int i = 0; i < PMDA_NMETRICS; i++)
        if (optional(i))
            pj->has[i] = pmLookupName(1, (const char **)&pmda_jobs_names[i],
                                      &pj->id[i]) == 1 &&
                         pmLookupDesc(pj->id[i], &pj->desc[i]) >= 0;
    const char *renew = AGENT_NAME(CTL_RENEW);
    pmID renew_id;
    pmDesc renew_desc;
    pj->lease = pmLookupName(1, &renew, &renew_id) == 1 &&
                pmLookupDesc(renew_id, &renew_desc) >= 0;
    for (int i = 0; i < PMDA_NMETRICS; i++)
        if (!pj->has[i]) { /* fetch another of its kind twice instead */
            pj->id[i] = pj->id[stand_in(i)];
            pj->desc[i] = pj->desc[stand_in(i)];
        }
    learn_instances(pj);
    pj->known = true;
    return true;
}

static int slot_of(struct pmda_jobs *pj, int inst)
{
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < pj->ninst; i++)
            if (pj->inst[i] == inst)
                return i;
        if (pass == 0)
            learn_instances(pj);
    }
    return -1;
}

/* The value of instance `inst` in vs as type `type`, false if absent. */
static bool value_of(const pmDesc *d, const pmValueSet *vs, int inst, int type,
                     pmAtomValue *a)
{
    for (int j = 0; j < vs->numval; j++)
        if (vs->vlist[j].inst == inst)
            return pmExtractValue(vs->valfmt, &vs->vlist[j], d->type, a,
                                  type) >= 0;
    return false;
}

static double num(struct pmda_jobs *pj, pmValueSet *const *vs, int m, int inst)
{
    pmAtomValue a;
    if (!pj->has[m] || vs[m]->numval <= 0 ||
        !value_of(&pj->desc[m], vs[m], inst, PM_TYPE_DOUBLE, &a))
        return NAN;
    return a.d;
}

/* The clock probe's singular values, in the units help gives (s). */
static void decode_probe(struct pmda_jobs *pj, pmValueSet *const *vs,
                         struct sample *out)
{
    double v[PC_COUNT];
    for (int i = 0; i < PC_COUNT; i++) {
        pmAtomValue a;
        const pmValueSet *s = vs[PJ_COUNT + i];
        v[i] = pj->has[PJ_COUNT + i] && s->numval > 0 &&
                       pmExtractValue(s->valfmt, &s->vlist[0],
                                      pj->desc[PJ_COUNT + i].type, &a,
                                      PM_TYPE_DOUBLE) >= 0
                   ? a.d
                   : NAN;
    }
    out->probe.count = isfinite(v[PC_PROBES]) ? (unsigned long)v[PC_PROBES] : 0;
    out->probe.sleep_req = v[PC_SLEEP_REQ];
    out->probe.sleep_took = v[PC_SLEEP_TOOK];
    out->probe.spin_wall = v[PC_SPIN_WALL];
    out->probe.spin_cpu = v[PC_SPIN_CPU];
    out->probe.spin_waited = v[PC_SPIN_WAITED];
    out->probe.sleep_t0 = v[PC_SLEEP_START];
    out->probe.sleep_t1 = v[PC_SLEEP_END];
}

/* Metric m's string for instance inst into the pool: where, or -1. */
static int pool_string(struct pmda_jobs *pj, pmValueSet *const *vs, int m,
                       int inst, struct sample *out)
{
    pmAtomValue a;
    if (!pj->has[m] || vs[m]->numval <= 0 ||
        !value_of(&pj->desc[m], vs[m], inst, PM_TYPE_STRING, &a))
        return -1;
    int at = sample_pool_add(out, a.cp);
    free(a.cp);
    return at;
}

/* "120 118 121" into l; what does not parse ends the list. */
static void read_lanes(const char *text, struct wl_lanes *l)
{
    char *end;
    l->n = 0;
    for (const char *p = text; *p && l->n < WL_MAX_LANES; p = end) {
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p)
            break;
        l->done[l->n++] = v;
    }
}

void pmda_jobs_decode(struct pmda_jobs *pj, pmValueSet *const *vs,
                      struct sample *out)
{
    decode_probe(pj, vs, out);
    out->njobs = 0;
    out->extras_len = 0;
    const pmValueSet *states = vs[PJ_STATE];
    for (int j = 0; j < states->numval && out->njobs < SAMPLE_MAX_JOBS; j++) {
        int inst = states->vlist[j].inst;
        int slot = slot_of(pj, inst);
        if (slot < 0)
            continue;
        struct pmda_job *job = &out->job[out->njobs++];
        snprintf(job->name, sizeof(job->name), "%s", pj->name[slot]);
        double state = num(pj, vs, PJ_STATE, inst);
        job->state = isfinite(state) ? (int)state : 0;
        double runs = num(pj, vs, PJ_RUNS, inst);
        job->runs = isfinite(runs) ? (unsigned)runs : 0;
        job->figure = num(pj, vs, PJ_FIGURE, inst);
        job->repeats_done = (int)fmax(0, num(pj, vs, PJ_REPEATS_DONE, inst));
        job->repeats = (int)fmax(0, num(pj, vs, PJ_REPEATS, inst));
        double n = num(pj, vs, PJ_N, inst);
        job->n = isfinite(n) ? (int)n : 0;
        job->median = num(pj, vs, PJ_MEDIAN, inst);
        job->min = num(pj, vs, PJ_MIN, inst);
        job->max = num(pj, vs, PJ_MAX, inst);
        job->mean = num(pj, vs, PJ_MEAN, inst);
        job->ci_lo = num(pj, vs, PJ_CI_LO, inst);
        job->ci_hi = num(pj, vs, PJ_CI_HI, inst);
        pmAtomValue a;
        job->error[0] = '\0';
        if (vs[PJ_ERROR]->numval > 0 &&
            value_of(&pj->desc[PJ_ERROR], vs[PJ_ERROR], inst, PM_TYPE_STRING,
                     &a)) {
            snprintf(job->error, sizeof(job->error), "%s", a.cp);
            free(a.cp);
        }
        job->extras_at = pool_string(pj, vs, PJ_EXTRAS, inst, out);
        job->log_at = pool_string(pj, vs, PJ_REPEAT_LOG, inst, out);
        job->hist_at = pool_string(pj, vs, PJ_HIST, inst, out);
        job->has_times = pj->has[PJ_REPEAT_LOG];
        job->run_start = num(pj, vs, PJ_RUN_START, inst);
        job->run_end = num(pj, vs, PJ_RUN_END, inst);
        job->user = num(pj, vs, PJ_USER, inst);
        job->sys = num(pj, vs, PJ_SYS, inst);
        job->lanes.n = 0;
        if (pj->has[PJ_LANES] && vs[PJ_LANES]->numval > 0 &&
            value_of(&pj->desc[PJ_LANES], vs[PJ_LANES], inst, PM_TYPE_STRING,
                     &a)) {
            read_lanes(a.cp, &job->lanes);
            free(a.cp);
        }
    }
}
