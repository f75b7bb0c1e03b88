/* The PCP backends: read the metric table (and what a source is) with one
 * pmFetch per sample from a PCP context: the local context for this host
 * (no daemon; the context belongs to the thread that opens it, so a sampler
 * thread opens, fetches and closes it) or a host context for a pmcd; and,
 * for collectors/archive_source.c, an archive context (pcp_source.h). */
#include "collectors/pcp_source.h"

#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pcp/pmapi.h>

#include "collectors/backend.h"
#include "collectors/kernel_sched.h"
#include "collectors/pcp_store.h"
#include "collectors/pmda_jobs.h"
#include "collectors/syscalls_switch.h"

/* What a source is, fetched with the metrics: the scheduler and
 * preemption model from pmdaparallax, or else told from uname -v. */
enum info_id {
    INFO_HOST,
    INFO_RELEASE,
    INFO_NCPU,
    INFO_PHYSMEM,
    INFO_VERSION,
    INFO_SCHED,
    INFO_PREEMPT,
    INFO_COUNT
};
static const char *const info_names[INFO_COUNT] = {
    [INFO_HOST] = "kernel.uname.nodename",
    [INFO_RELEASE] = "kernel.uname.release",
    [INFO_NCPU] = "hinv.ncpu",
    [INFO_PHYSMEM] = "mem.physmem",
    [INFO_VERSION] = "kernel.uname.version",
    [INFO_SCHED] = "parallax.kernel.scheduler",
    [INFO_PREEMPT] = "parallax.kernel.preempt",
};

#define NPMID          (METRIC_COUNT + INFO_COUNT)
#define MAX_EXTRA      PCP_EXTRA_MAX
#define DERIVED_PREFIX "pxderived."
/* What a source is seldom changes (a reboot ends the connection anyway):
 * it is fetched on the first fetch of a context and then every this many,
 * not every time (two of its values are strings libpcp allocates). */
#define INFO_EVERY 60
/* Table entries "A - B" of two plain names are fetched as A and B and
 * subtracted here: a registered derived metric makes libpcp rebuild every
 * fetch's result of every context, one allocation per value set. */
#define MAX_DIFFS 4

struct pcp_state {
    int ctx;
    bool archive; /* an archive context: every metric, every fetch */
    pmID pmids[NPMID + PMDA_NMETRICS]; /* the table, then pmdaparallax's */
    pmDesc desc[NPMID];
    bool known[NPMID]; /* the source has this metric */
    int inst[NPMID];   /* instance to pick, PM_IN_NULL for singular */
    bool pmda_named;   /* the namespace has parallax.* */
    bool pmda;         /* and pmdaparallax answered the last fetch */
    struct pmda_jobs pj;
    /* what pmFetch asks for: the metrics, pmdaparallax's when it answers,
     * the caller's extra metrics, then the info, which only every
     * INFO_EVERY-th fetch includes */
    pmID fetch_ids[NPMID + MAX_DIFFS + PMDA_NMETRICS + MAX_EXTRA];
    /* an archive: each later duplicate in fetch_ids is asked for as
     * PM_ID_NULL and takes the value set of the first (libpcp 6.0.3's
     * interpolation never returns from a fetch naming a metric twice) */
    short alias[NPMID + MAX_DIFFS + PMDA_NMETRICS + MAX_EXTRA];
    int nsteady;            /* metrics, B operands, pmdaparallax's, extra */
    struct pcp_extra extra; /* the caller's, n 0 when none */
    int extra_at;           /* where they start in fetch_ids */
    pmDesc extra_desc[MAX_EXTRA];
    bool extra_known[MAX_EXTRA];
    int ndiff;              /* "A - B" entries: A in the metric's slot */
    int diff_of[MAX_DIFFS]; /* the metric id of each */
    pmID diff_b[MAX_DIFFS]; /* and its B, fetched after the metrics */
    pmDesc diff_desc[MAX_DIFFS];
    unsigned long fetches;   /* since the context opened */
    struct source_info info; /* the last info fetched */
    char version[128];       /* kernel.uname.version, "" when not known */
    int syscalls_err;        /* the agent's last answer for the counter */
    char target[128];        /* "host[:port]", for the store hint */
    pmID tick_id; /* parallax.agent.running: a clock tick's one metric */
    pmDesc tick_desc;
    bool tick_ok;
};

/* True when expr is "A - B" of two plain names (A and B set, n bytes
 * each). */
static bool split_diff(const char *expr, char *a, char *b, size_t n)
{
    const char *op = strstr(expr, " - ");
    if (!op || (size_t)(op - expr) >= n || strchr(op + 3, ' ') ||
        strlen(op + 3) >= n || memchr(expr, ' ', (size_t)(op - expr)))
        return false;
    snprintf(a, n, "%.*s", (int)(op - expr), expr);
    snprintf(b, n, "%s", op + 3);
    return *a && *b;
}

/* The name a table entry is fetched by: A of "A - B"; other derived
 * expressions (they contain a space) are registered once, process-wide,
 * under DERIVED_PREFIX.key. */
static void pcp_name(int id, char *buf, size_t n)
{
    const struct metric_desc *d = &metric_descs[id];
    char b[128];
    if (strchr(d->pcp, ' ') && !split_diff(d->pcp, buf, b, n))
        snprintf(buf, n, DERIVED_PREFIX "%s", d->key);
    else if (!strchr(d->pcp, ' '))
        snprintf(buf, n, "%s", d->pcp);
}

/* Exported by libpcp but declared only in its internal headers. */
double __pmRequestTimeout(void);

/* Reads PCP's configuration (libpcp exports it with setenv) and registers
 * the derived metrics, once, before any thread exists. */
void pcp_source_global_init(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    pmGetConfig("PCP_VAR_DIR");
    /* a guest that does not answer holds only its own sampler, and not for
     * PCP's defaults (5 s to connect, 10 s per request) */
    setenv("PMCD_CONNECT_TIMEOUT", "3", 0);
    setenv("PMCD_REQUEST_TIMEOUT", "4", 0);
    /* libpcp reads the request timeout only when asked, and uses its 10 s
     * default for a first connection until then: ask now */
    __pmRequestTimeout();
    for (int id = 0; id < METRIC_COUNT; id++) {
        char name[128], b[128], *msg = NULL;
        if (!strchr(metric_descs[id].pcp, ' ') ||
            split_diff(metric_descs[id].pcp, name, b, sizeof(name)))
            continue;
        pcp_name(id, name, sizeof(name));
        if (pmRegisterDerivedMetric(name, metric_descs[id].pcp, &msg) < 0)
            free(msg); /* the metric then reads as missing */
    }
}

static pmUnits target_units(enum metric_unit u)
{
    pmUnits units = {0};
    switch (u) {
    case MU_MSEC:
        units.dimTime = 1;
        units.scaleTime = PM_TIME_MSEC;
        break;
    case MU_BYTE:
        units.dimSpace = 1;
        units.scaleSpace = PM_SPACE_BYTE;
        break;
    case MU_COUNT:
        units.dimCount = 1;
        break;
    case MU_NONE:
        break;
    }
    return units;
}

static void fmt_err(char *err, size_t n, const char *what, int sts)
{
    char msg[PM_MAXERRMSGLEN];
    snprintf(err, n, "%s: %s", what, pmErrStr_r(sts, msg, sizeof(msg)));
}

/* Looks up names, descriptors and instances. Fails only when PCP cannot
 * answer at all (no PMNS, no context); single missing metrics read n/a. */
static int pcp_lookup(struct pcp_state *st, char *err, size_t errlen)
{
    char names_buf[NPMID][128];
    const char *names[NPMID];
    for (int i = 0; i < NPMID; i++) {
        if (i < METRIC_COUNT)
            pcp_name(i, names_buf[i], sizeof(names_buf[i]));
        else
            snprintf(names_buf[i], sizeof(names_buf[i]), "%s",
                     info_names[i - METRIC_COUNT]);
        names[i] = names_buf[i];
    }
    /* partial success returns how many were found; none is an error */
    int sts = pmLookupName(NPMID, names, st->pmids);
    if (sts < 0) {
        fmt_err(err, errlen, "PCP namespace", sts);
        return -1;
    }
    int found = 0;
    for (int i = 0; i < NPMID; i++) {
        st->inst[i] = (int)PM_IN_NULL;
        st->known[i] = st->pmids[i] != PM_ID_NULL &&
                       pmLookupDesc(st->pmids[i], &st->desc[i]) >= 0;
        if (!st->known[i])
            continue;
        const char *inst = i < METRIC_COUNT ? metric_descs[i].inst : NULL;
        if (inst) {
            st->inst[i] = st->archive /* every instance it ever had */
                              ? pmLookupInDomArchive(st->desc[i].indom, inst)
                              : pmLookupInDom(st->desc[i].indom, inst);
            if (st->inst[i] < 0)
                st->known[i] = false;
        }
        found += st->known[i];
    }
    if (found == 0) {
        snprintf(err, errlen, "PCP answers none of parallax's metrics");
        return -1;
    }
    return 0;
}

/* Looks up the B of each "A - B" entry; an entry whose B the source lacks
 * reads as missing. */
static void lookup_diffs(struct pcp_state *st)
{
    for (int id = 0; id < METRIC_COUNT && st->ndiff < MAX_DIFFS; id++) {
        char a[128], b[128];
        if (!split_diff(metric_descs[id].pcp, a, b, sizeof(a)))
            continue;
        int k = st->ndiff++;
        const char *name = b;
        st->diff_of[k] = id;
        st->diff_b[k] = PM_ID_NULL;
        if (pmLookupName(1, &name, &st->diff_b[k]) != 1 ||
            pmLookupDesc(st->diff_b[k], &st->diff_desc[k]) < 0 ||
            metric_descs[id].inst || metric_is_counter(id))
            st->known[id] = false; /* only singular instant values */
    }
}

/* The source's namespace has parallax.*: pmdaparallax is installed, but
 * only its answers say it runs (pmcd may have no agent for its domain). */
static bool has_pmda(void)
{
    char **names = NULL;
    int n = pmGetChildren("parallax", &names);
    free(names);
    return n > 0;
}

void pcp_target_host(const char *target, char *host, size_t n)
{
    snprintf(host, n, "%s", target[0] == '[' ? target + 1 : target);
    char *end = strchr(host, target[0] == '[' ? ']' : ':');
    if (end && (target[0] == '[' || !strchr(end + 1, ':')))
        *end = '\0';
}

/* libpcp says "No route to host" also for a name that does not resolve:
 * true, with err saying so, when that is why. */
static bool name_fails(const char *target, char *err, size_t errlen)
{
    char host[128];
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *ai = NULL;
    pcp_target_host(target, host, sizeof(host));
    int rc = getaddrinfo(host, NULL, &hints, &ai);
    if (ai)
        freeaddrinfo(ai);
    if (rc == 0 || rc == EAI_SYSTEM || rc == EAI_MEMORY)
        return false;
    snprintf(err, errlen, "pmcd: the name does not resolve (%s)",
             gai_strerror(rc));
    return true;
}

/* Looks up the caller's extra metrics; one the context lacks is fetched
 * as the table's first (a PM_ID_NULL would fail the fetch) and ignored. */
static void lookup_extra(struct pcp_state *st, int at)
{
    st->extra_at = at;
    for (int k = 0; k < st->extra.n; k++) {
        pmID id = PM_ID_NULL;
        const char *name = st->extra.names[k];
        st->extra_known[k] = pmLookupName(1, &name, &id) == 1 &&
                             pmLookupDesc(id, &st->extra_desc[k]) >= 0;
        st->fetch_ids[at + k] = st->extra_known[k] ? id : st->pmids[0];
    }
}

/* An archive's fetch names each metric once: see alias. */
static void dedupe(struct pcp_state *st, int n)
{
    for (int i = 0; i < n; i++) {
        st->alias[i] = -1;
        for (int k = 0; k < i && st->fetch_ids[i] != PM_ID_NULL; k++)
            if (st->fetch_ids[k] == st->fetch_ids[i]) {
                st->alias[i] = (short)k;
                st->fetch_ids[i] = PM_ID_NULL;
            }
    }
}

/* Lends (or, with undo, takes back) the aliased value sets of rp. */
static void lend_aliases(const struct pcp_state *st, pmHighResResult *rp,
                         pmValueSet **own, bool undo)
{
    for (int i = 0; st->archive && i < rp->numpmid; i++) {
        if (st->alias[i] < 0)
            continue;
        if (undo) {
            rp->vset[i] = own[i];
        } else {
            own[i] = rp->vset[i];
            rp->vset[i] = rp->vset[st->alias[i]];
        }
    }
}

/* What pmFetch asks for: the metrics, the B of each "A - B", the agent's
 * metrics when it is known, the caller's extra metrics, then the info. */
static void fetch_list(struct pcp_state *st)
{
    int n = METRIC_COUNT;
    memcpy(st->fetch_ids, st->pmids, sizeof(pmID) * METRIC_COUNT);
    for (int k = 0; k < st->ndiff; k++) /* PM_ID_NULL would fail the fetch */
        st->fetch_ids[n++] =
            st->diff_b[k] != PM_ID_NULL ? st->diff_b[k] : st->pmids[0];
    if (st->pj.known) {
        memcpy(st->fetch_ids + n, st->pj.id, sizeof(st->pj.id));
        n += PMDA_NMETRICS;
    }
    lookup_extra(st, n);
    n += st->extra.n;
    st->nsteady = n;
    memcpy(st->fetch_ids + n, st->pmids + METRIC_COUNT,
           sizeof(pmID) * INFO_COUNT);
    if (st->archive)
        dedupe(st, n + INFO_COUNT);
}

void *pcp_source_open(int type, const char *target,
                      const struct pcp_extra *extra, char *err, size_t errlen)
{
    struct pcp_state *st = calloc(1, sizeof(*st));
    if (!st) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(st->target, sizeof(st->target), "%s", target ? target : "");
    st->archive = type == PM_CONTEXT_ARCHIVE;
    if (extra && extra->n <= MAX_EXTRA)
        st->extra = *extra;
    st->ctx = pmNewContext(type, target);
    if (st->ctx < 0) {
        if (st->ctx != -EHOSTUNREACH || type != PM_CONTEXT_HOST ||
            !name_fails(target, err, errlen))
            fmt_err(err, errlen,
                    type == PM_CONTEXT_LOCAL  ? "PCP local context"
                    : type == PM_CONTEXT_HOST ? "pmcd"
                                              : "PCP archive",
                    st->ctx);
        free(st);
        return NULL;
    }
    if (pcp_lookup(st, err, errlen) < 0) {
        pmDestroyContext(st->ctx);
        free(st);
        return NULL;
    }
    st->pmda_named = type != PM_CONTEXT_LOCAL && has_pmda();
    if (st->pmda_named && pmda_jobs_lookup(&st->pj))
        memcpy(st->pmids + NPMID, st->pj.id, sizeof(st->pj.id));
    const char *tick_name = "parallax.agent.running";
    st->tick_ok = st->pmda_named &&
                  pmLookupName(1, &tick_name, &st->tick_id) == 1 &&
                  pmLookupDesc(st->tick_id, &st->tick_desc) >= 0;
    lookup_diffs(st);
    fetch_list(st);
    return st;
}

static void *pcp_open_local(const char *target, char *err, size_t errlen)
{
    (void)target;
    return pcp_source_open(PM_CONTEXT_LOCAL, NULL, NULL, err, errlen);
}

static void *pcp_open_host(const char *target, char *err, size_t errlen)
{
    return pcp_source_open(PM_CONTEXT_HOST, target, NULL, err, errlen);
}

int pcp_source_context(void *state)
{
    return ((struct pcp_state *)state)->ctx;
}

bool pcp_source_has(void *state, int id)
{
    const struct pcp_state *st = state;
    return id >= 0 && id < METRIC_COUNT && st->known[id];
}

/* The value of vset for instance inst (PM_IN_NULL: the only one). */
static const pmValue *pick(const pmValueSet *vs, int inst)
{
    for (int j = 0; j < vs->numval; j++)
        if (inst == (int)PM_IN_NULL || vs->vlist[j].inst == inst)
            return &vs->vlist[j];
    return NULL;
}

static void store_metric(const struct pcp_state *st, int id,
                         const pmValueSet *vs, struct sample *out)
{
    const pmValue *v = pick(vs, st->inst[id]);
    const pmDesc *d = &st->desc[id];
    pmAtomValue in, conv;
    pmUnits want = target_units(metric_descs[id].unit);
    bool counter = metric_is_counter(id);
    int type = counter ? PM_TYPE_U64 : PM_TYPE_DOUBLE;
    if (!v || pmExtractValue(vs->valfmt, v, d->type, &in, type) < 0)
        return;
    if (metric_descs[id].unit == MU_NONE)
        conv = in;
    else if (pmConvScale(type, &in, &d->units, &conv, &want) < 0)
        return;
    out->have[id] = true;
    if (counter) {
        out->count[id] = conv.ull;
        out->width[id] =
            (d->type == PM_TYPE_32 || d->type == PM_TYPE_U32) ? 32 : 64;
    } else {
        out->value[id] = conv.d;
    }
}

/* An "A - B" entry: both in the metric's unit, then their difference. */
static void store_diff(const struct pcp_state *st, int k, const pmValueSet *va,
                       const pmValueSet *vb, struct sample *out)
{
    int id = st->diff_of[k];
    const pmValue *a = pick(va, PM_IN_NULL), *b = pick(vb, PM_IN_NULL);
    pmUnits want = target_units(metric_descs[id].unit);
    pmAtomValue in, ca, cb;
    if (!a || !b ||
        pmExtractValue(va->valfmt, a, st->desc[id].type, &in, PM_TYPE_DOUBLE) <
            0 ||
        pmConvScale(PM_TYPE_DOUBLE, &in, &st->desc[id].units, &ca, &want) < 0 ||
        pmExtractValue(vb->valfmt, b, st->diff_desc[k].type, &in,
                       PM_TYPE_DOUBLE) < 0 ||
        pmConvScale(PM_TYPE_DOUBLE, &in, &st->diff_desc[k].units, &cb, &want) <
            0)
        return;
    out->have[id] = true;
    out->value[id] = ca.d - cb.d;
}

/* A guest's text as it may reach a terminal or a report: bytes below
 * space and DEL become '?' (an escape sequence in a host name must not
 * retitle or clear the screen). */
static void copy_printable(char *dst, size_t n, const char *src)
{
    size_t k = 0;
    for (; src[k] && k + 1 < n; k++)
        dst[k] = (unsigned char)src[k] < 0x20 || src[k] == 0x7f ? '?' : src[k];
    if (n > 0)
        dst[k] = '\0';
}

static void store_info(int i, const pmDesc *d, const pmValueSet *vs,
                       struct pcp_state *st)
{
    struct source_info *info = &st->info;
    pmAtomValue a;
    const pmValue *v = pick(vs, PM_IN_NULL);
    bool str = i != INFO_NCPU && i != INFO_PHYSMEM;
    if (!v || pmExtractValue(vs->valfmt, v, d->type, &a,
                             str ? PM_TYPE_STRING : PM_TYPE_DOUBLE) < 0)
        return;
    if (str) { /* where each string goes */
        struct {
            char *dst;
            size_t n;
        } to[INFO_COUNT] = {
            [INFO_HOST] = {info->host, sizeof(info->host)},
            [INFO_RELEASE] = {info->release, sizeof(info->release)},
            [INFO_VERSION] = {st->version, sizeof(st->version)},
            [INFO_SCHED] = {info->sched, sizeof(info->sched)},
            [INFO_PREEMPT] = {info->preempt, sizeof(info->preempt)},
        };
        copy_printable(to[i].dst, to[i].n, a.cp);
        free(a.cp);
        return;
    }
    switch (i) {
    case INFO_NCPU:
        info->ncpu = (int)a.d;
        break;
    case INFO_PHYSMEM: /* Kbyte */
        info->mem_bytes = a.d * 1024;
        break;
    }
}

/* The agent counts no system calls (its answer: code): a word for the
 * cell, and, when the answer changes, its own account of why (one more
 * fetch, of parallax.syscalls.status). */
static void syscalls_why(struct pcp_state *st, int code)
{
    struct source_info *i = &st->info;
    if (code == st->syscalls_err)
        return;
    st->syscalls_err = code;
    i->syscalls_why[0] = i->syscalls_status[0] = '\0';
    if (code == 0)
        return;
    snprintf(i->syscalls_why, sizeof(i->syscalls_why), "%s",
             code == PM_ERR_APPVERSION   ? "no tracepoint"
             : code == PM_ERR_PERMISSION ? "not allowed"
             : code == PM_ERR_AGAIN      ? "paused"
                                         : "n/a");
    const char *name = "parallax.syscalls.status";
    pmID id;
    pmResult *rp = NULL;
    pmAtomValue a;
    if (pmLookupName(1, &name, &id) == 1 && pmFetch(1, &id, &rp) >= 0 &&
        rp->vset[0]->numval > 0 &&
        pmExtractValue(rp->vset[0]->valfmt, &rp->vset[0]->vlist[0],
                       PM_TYPE_STRING, &a, PM_TYPE_STRING) >= 0) {
        copy_printable(i->syscalls_status, sizeof(i->syscalls_status), a.cp);
        free(a.cp);
    }
    if (rp)
        pmFreeResult(rp);
}

/* The scheduler and preemption model told from the release and uname -v
 * alone, for a pmcd without pmdaparallax (or an older one). */
static void tell_sched(struct pcp_state *st)
{
    struct kernel_sched k;
    struct kernel_facts f = {.release = st->info.release,
                             .version = st->version};
    kernel_sched_tell(&f, &k);
    snprintf(st->info.sched, sizeof(st->info.sched), "%s", k.family);
    snprintf(st->info.preempt, sizeof(st->info.preempt), "%s", k.preempt);
}

int pcp_source_fetch(void *state, struct sample *out)
{
    struct pcp_state *st = state;
    pmHighResResult *rp = NULL;
    bool info = st->archive || st->fetches % INFO_EVERY == 0;
    int n = st->nsteady + (info ? INFO_COUNT : 0);
    /* the agent's system call counter only while one is wanted: fetching
     * it opens the guest's tracepoint (collectors/syscalls_switch.h) */
    bool syscalls =
        st->known[METRIC_SYSCALLS] && (st->archive || syscalls_wanted());
    if (!st->archive) /* an archive's, unchanging, went through dedupe */
        st->fetch_ids[METRIC_SYSCALLS] =
            syscalls ? st->pmids[METRIC_SYSCALLS] : st->pmids[0];
    pmUseContext(st->ctx);
    /* an agent that did not answer at first (pmcd starting it, or without
     * it) is looked for again now and then */
    if (st->pmda_named && !st->pj.known && info && st->fetches > 0 &&
        pmda_jobs_lookup(&st->pj)) {
        memcpy(st->pmids + NPMID, st->pj.id, sizeof(st->pj.id));
        fetch_list(st);
        n = st->nsteady + INFO_COUNT;
    }
    out->t_before = clock_mono();
    /* PCP 6's own form of a result: nanosecond timestamps as pmcd sends
     * them (and one conversion fewer than pmFetch's) */
    int sts = pmFetchHighRes(n, st->fetch_ids, &rp);
    out->t_after = clock_mono();
    if (sts < 0) {
        fmt_err(out->error, sizeof(out->error), "fetch", sts);
        return -1;
    }
    st->fetches++;
    pmValueSet *own[NPMID + MAX_DIFFS + PMDA_NMETRICS + MAX_EXTRA];
    lend_aliases(st, rp, own, false);
    out->t_source =
        (double)rp->timestamp.tv_sec + (double)rp->timestamp.tv_nsec / 1e9;
    bool diff[METRIC_COUNT] = {false};
    for (int k = 0; k < st->ndiff && METRIC_COUNT + k < rp->numpmid; k++) {
        int id = st->diff_of[k];
        diff[id] = true;
        if (st->known[id] && rp->vset[id]->numval > 0 &&
            rp->vset[METRIC_COUNT + k]->numval > 0)
            store_diff(st, k, rp->vset[id], rp->vset[METRIC_COUNT + k], out);
    }
    for (int i = 0; i < rp->numpmid && i < METRIC_COUNT; i++) {
        const pmValueSet *vs = rp->vset[i];
        if (st->known[i] && !diff[i] && vs->numval > 0 &&
            (i != METRIC_SYSCALLS || syscalls))
            store_metric(st, i, vs, out);
    }
    if (st->pmda && METRIC_SYSCALLS < rp->numpmid)
        syscalls_why(st, syscalls && rp->vset[METRIC_SYSCALLS]->numval < 0
                             ? rp->vset[METRIC_SYSCALLS]->numval
                             : 0);
    int pj_at = METRIC_COUNT + st->ndiff;
    /* the agent answers: pmcd gives an error (no agent) in its place */
    st->pmda = st->pj.known && rp->numpmid >= pj_at + PMDA_NMETRICS &&
               rp->vset[pj_at + PJ_COUNT + PC_PROBES]->numval >= 0;
    if (st->pmda)
        pmda_jobs_decode(&st->pj, rp->vset + pj_at, out);
    if (st->extra.n && rp->numpmid >= st->extra_at + st->extra.n)
        st->extra.decode(st->extra.arg, rp->vset + st->extra_at, st->extra_desc,
                         st->extra_known, out);
    for (int k = 0; info && k < INFO_COUNT && st->nsteady + k < rp->numpmid;
         k++) {
        const pmValueSet *vs = rp->vset[st->nsteady + k];
        int i = METRIC_COUNT + k;
        if (st->known[i] && vs->numval > 0)
            store_info(k, &st->desc[i], vs, st);
    }
    if (info && !st->info.sched[0]) /* no pmdaparallax: uname's word */
        tell_sched(st);
    st->info.pmda = st->pmda;
    st->info.lease = st->pmda && st->pj.lease;
    out->info = st->info;
    lend_aliases(st, rp, own, true);
    pmFreeHighResResult(rp);
    return 0;
}

static int pcp_store(void *state, const char *name, const char *value,
                     char *msg, size_t msglen)
{
    struct pcp_state *st = state;
    pmUseContext(st->ctx);
    return pcp_store_value(st->target, name, value, msg, msglen);
}

/* A clock tick: one fetch of the agent's live run count, for its
 * timestamp and the count. */
static int pcp_tick(void *state, struct clock_tick *t, int *runs)
{
    struct pcp_state *st = state;
    pmHighResResult *rp = NULL;
    if (!st->tick_ok)
        return -1;
    pmUseContext(st->ctx);
    t->t_before = clock_mono();
    int sts = pmFetchHighRes(1, &st->tick_id, &rp);
    t->t_after = clock_mono();
    if (sts < 0)
        return -1;
    t->t_source =
        (double)rp->timestamp.tv_sec + (double)rp->timestamp.tv_nsec / 1e9;
    pmAtomValue a;
    const pmValueSet *vs = rp->vset[0];
    *runs = vs->numval > 0 &&
                    pmExtractValue(vs->valfmt, &vs->vlist[0],
                                   st->tick_desc.type, &a, PM_TYPE_32) >= 0
                ? a.l
                : -1;
    pmFreeHighResResult(rp);
    return 0;
}

void pcp_source_close(void *state)
{
    struct pcp_state *st = state;
    pmDestroyContext(st->ctx);
    free(st);
}

const struct backend backend_pcp_local = {
    .name = "pcp local",
    .global_init = pcp_source_global_init,
    .open = pcp_open_local,
    .fetch = pcp_source_fetch,
    .close = pcp_source_close,
};

const struct backend backend_pcp_host = {
    .name = "pcp",
    .global_init = pcp_source_global_init,
    .open = pcp_open_host,
    .fetch = pcp_source_fetch,
    .close = pcp_source_close,
    .store = pcp_store,
    .tick = pcp_tick,
};
