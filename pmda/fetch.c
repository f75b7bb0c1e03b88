/* The fetch side: each fetch first reaps and refreshes the runs, then
 * libpcp_pmda asks agent_fetch_value for every metric and instance. Run
 * views and the system call counter are read once per fetch. A value that
 * does not exist yet (no run, no probe) is "no value", never a made-up 0. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/version.h"
#include "pmda/agent.h"
#include "pmda/metrics.h"
#include "workloads/params.h"
#include "workloads/registry.h"

static struct agent *bound;

/* What the current fetch has read so far. */
static struct {
    bool views_ok, sys_ok;
    struct run_view *views; /* one per catalogue entry */
    int sys_rc;
    uint64_t sys_total;
} once;

void agent_bind(struct agent *a)
{
    bound = a;
    free(once.views);
    once.views = calloc((size_t)workload_count() + 1, sizeof *once.views);
}

struct agent *agent_bound(void)
{
    return bound;
}

int agent_fetch(int n, pmID *pmids, pmResult **resp, pmdaExt *pmda)
{
    runs_poll(bound->runs);
    once.views_ok = once.sys_ok = false;
    return pmdaFetch(n, pmids, resp, pmda);
}

static const struct run_view *view(int i)
{
    if (!once.views_ok) {
        for (int k = 0; k < workload_count(); k++)
            runs_view(bound->runs, k, &once.views[k]);
        once.views_ok = true;
    }
    return &once.views[i];
}

/* A perf failure as the PCP code that says it most honestly. */
static int syscall_error(int rc)
{
    switch (-rc) {
    case EACCES:
    case EPERM:
        return PM_ERR_PERMISSION;
    case ENOENT:
    case ENOSYS:
    case ENODEV:
    case EOPNOTSUPP:
        return PM_ERR_APPVERSION; /* this kernel cannot count them */
    default:
        return PM_ERR_AGAIN; /* paused for a run, or a passing failure */
    }
}

static int syscalls_total(pmAtomValue *atom)
{
    if (!once.sys_ok) {
        once.sys_rc = syscount_read(bound->syscount, runs_live(bound->runs) > 0,
                                    &once.sys_total);
        once.sys_ok = true;
    }
    if (once.sys_rc < 0)
        return syscall_error(once.sys_rc);
    atom->ull = once.sys_total;
    return PMDA_FETCH_STATIC;
}

static int dbl(pmAtomValue *atom, double v)
{
    if (!isfinite(v))
        return PMDA_FETCH_NOVALUES;
    atom->d = v;
    return PMDA_FETCH_STATIC;
}

static int str(pmAtomValue *atom, const char *s)
{
    atom->cp = (char *)s;
    return PMDA_FETCH_STATIC;
}

static int u32(pmAtomValue *atom, uint32_t v)
{
    atom->ul = v;
    return PMDA_FETCH_STATIC;
}

static int u64(pmAtomValue *atom, uint64_t v)
{
    atom->ull = v;
    return PMDA_FETCH_STATIC;
}

/* A probe figure, or no value before the first probe. */
static int probe_dbl(pmAtomValue *atom, double v)
{
    return bound->probe.count ? dbl(atom, v) : PMDA_FETCH_NOVALUES;
}

static int singular_value(int id, pmAtomValue *atom)
{
    const struct agent *a = bound;
    const struct probe_result *p = &a->probe.last;
    switch ((enum metric_id)id) {
    case M_AGENT_VERSION:
        return str(atom, PARALLAX_VERSION);
    case M_AGENT_USER:
        return str(atom, a->user);
    case M_AGENT_MAX_RUNS:
        return u32(atom, (uint32_t)runs_max(a->runs));
    case M_AGENT_RUNNING:
        return u32(atom, (uint32_t)runs_live(a->runs));
    case M_AGENT_PROBE_INTERVAL:
        return dbl(atom, a->probe_every);
    case M_KERNEL_SCHED: /* "" when unknown: no value rather than a guess */
        return a->kernel.family[0] ? str(atom, a->kernel.family)
                                   : PMDA_FETCH_NOVALUES;
    case M_KERNEL_PREEMPT:
        return a->kernel.preempt[0] ? str(atom, a->kernel.preempt)
                                    : PMDA_FETCH_NOVALUES;
    case M_CLK_PROBES:
        return u64(atom, a->probe.count);
    case M_CLK_SLEEP_REQ:
        return probe_dbl(atom, p->sleep_req);
    case M_CLK_SLEEP_TOOK:
        return probe_dbl(atom, p->sleep_took);
    case M_CLK_SLEEP_OVER:
        return probe_dbl(atom, p->sleep_took - p->sleep_req);
    case M_CLK_CPU_WALL:
        return probe_dbl(atom, p->spin_wall);
    case M_CLK_CPU_BILLED:
        return probe_dbl(atom, p->spin_cpu);
    case M_CLK_CPU_RATIO:
        return probe_dbl(atom,
                         p->spin_wall > 0 ? p->spin_cpu / p->spin_wall : NAN);
    case M_CLK_CPU_WAITED:
        return probe_dbl(atom, p->spin_waited);
    case M_CLK_SLEEP_START:
        return probe_dbl(atom, p->sleep_t0);
    case M_CLK_SLEEP_END:
        return probe_dbl(atom, p->sleep_t1);
    case M_SYS_TOTAL:
        return syscalls_total(atom);
    case M_SYS_STATUS:
        return str(atom, syscount_status(a->syscount, runs_live(a->runs) > 0));
    case M_CTL_START:
        return str(atom, a->last_start);
    case M_CTL_STOP:
        return str(atom, a->last_stop);
    case M_CTL_STOP_ALL:
        return u32(atom, a->stop_alls);
    case M_CTL_PROBE:
        return u32(atom, a->probes_asked);
    case M_CTL_ERROR:
        return str(atom, a->error);
    case M_CTL_RENEW:
        return str(atom, a->last_renew);
    default:
        return PM_ERR_PMID;
    }
}

static int catalogue_value(int id, const struct workload *w, pmAtomValue *atom)
{
    static char params[512];
    switch ((enum metric_id)id) {
    case M_CAT_DESC:
        return str(atom, w->desc);
    case M_CAT_UNIT:
        return str(atom, w->unit);
    case M_CAT_BETTER:
        return str(atom, w->better == WL_HIGHER_IS_BETTER ? "higher" : "lower");
    case M_CAT_PARAMS:
        params_describe(w, params, sizeof params);
        return str(atom, params);
    default:
        return PM_ERR_PMID;
    }
}

/* "120 118 121": the lanes' counts (libpcp_pmda copies the text before
 * the next call). */
static const char *lanes_text(const struct wl_lanes *l)
{
    static char buf[WL_MAX_LANES * 21 + 1];
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < l->n && k < WL_MAX_LANES; k++)
        used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%llu",
                                 k ? " " : "", (unsigned long long)l->done[k]);
    return buf;
}

static int run_value(int id, const struct run_view *v, pmAtomValue *atom)
{
    const struct wl_stats *s = &v->stats;
    switch ((enum metric_id)id) {
    case M_WL_STATE:
        return str(atom, slot_state_name(v->state));
    case M_WL_STATE_CODE:
        return u32(atom, (uint32_t)v->state);
    case M_WL_RUNS:
        return u64(atom, v->runs);
    case M_WL_OPS:
        return u64(atom, v->ops);
    case M_WL_WALL:
        return dbl(atom, v->wall);
    case M_WL_USER:
        return dbl(atom, v->user);
    case M_WL_SYS:
        return dbl(atom, v->sys);
    case M_WL_FIGURE:
        return dbl(atom, v->figure);
    case M_WL_REPEATS_DONE:
        return u32(atom, (uint32_t)v->nresults);
    case M_WL_REPEATS:
        return v->runs ? u32(atom, (uint32_t)v->repeats) : PMDA_FETCH_NOVALUES;
    case M_WL_ARGS:
        return str(atom, v->args);
    case M_WL_ERROR:
        return str(atom, v->error);
    case M_WL_EXTRAS:
        return str(atom, v->extras);
    case M_WL_RUN_START:
        return v->runs ? dbl(atom, v->run_start) : PMDA_FETCH_NOVALUES;
    case M_WL_RUN_END:
        return dbl(atom, v->run_end);
    case M_WL_REPEAT_LOG:
        return str(atom, v->repeat_log);
    case M_WL_LANES:
        return str(atom, lanes_text(&v->lanes));
    case M_WL_LEASE:
        return dbl(atom, v->lease_left);
    case M_ST_N:
        return u32(atom, (uint32_t)s->n);
    case M_ST_MEDIAN:
        return dbl(atom, s->median);
    case M_ST_MIN:
        return dbl(atom, s->min);
    case M_ST_MAX:
        return dbl(atom, s->max);
    case M_ST_MEAN:
        return dbl(atom, s->mean);
    case M_ST_CI_LO:
        return dbl(atom, s->mean - s->ci95);
    case M_ST_CI_HI:
        return dbl(atom, s->mean + s->ci95);
    case M_ST_MED_LO:
        return dbl(atom, s->med_lo);
    case M_ST_MED_HI:
        return dbl(atom, s->med_hi);
    case M_ST_MED_COVER:
        return dbl(atom, s->med_cover);
    default:
        return PM_ERR_PMID;
    }
}

int agent_fetch_value(pmdaMetric *m, unsigned int inst, pmAtomValue *atom)
{
    int id = metric_id_of(m);
    if (id < 0)
        return PM_ERR_PMID;
    if (m->m_desc.indom == PM_INDOM_NULL)
        return inst == PM_IN_NULL ? singular_value(id, atom) : PM_ERR_INST;
    int i = catalogue_index(bound->catalogue, inst);
    if (i < 0)
        return PM_ERR_INST;
    if (pmID_cluster(m->m_desc.pmid) == AGENT_CL_CATALOGUE)
        return catalogue_value(id, workload_registry[i], atom);
    return run_value(id, view(i), atom);
}
