/* See vm_pcp.h. A listing (every VM_PROC_GAP_S at most) asks pmdaproc
 * for its process instance domain, keeps the instances named after a VMM
 * ("027332 qemu-system-x86_64": a thread's instance bears its process's
 * name) and fetches what they are; each reading then fetches those
 * instances alone (an instance profile), never every process's. */
#include "collectors/vm_pcp.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>

#include "base/clock.h"
#include "base/safe_text.h"
#include "collectors/pcp_store.h"
#include "collectors/vm_proc.h"

enum {
    PM_PSARGS,
    PM_TGID,
    PM_PPID,
    PM_START,
    PM_THREADS,
    PM_CMD,
    PM_RUN,
    PM_WAIT,
    PM_SLICES,
    PM_RSS,
    PM_RCHAR,
    PM_WCHAR,
    PM_COUNT
};
static const char *const names[PM_COUNT] = {
    [PM_PSARGS] = "proc.psinfo.psargs",
    [PM_TGID] = "proc.psinfo.tgid",
    [PM_PPID] = "proc.psinfo.ppid",
    [PM_START] = "proc.psinfo.start_time",
    [PM_THREADS] = "proc.psinfo.threads",
    [PM_CMD] = "proc.psinfo.cmd",
    [PM_RUN] = "proc.schedstat.cpu_time",
    [PM_WAIT] = "proc.schedstat.run_delay",
    [PM_SLICES] = "proc.schedstat.pcount",
    [PM_RSS] = "proc.memory.rss",
    [PM_RCHAR] = "proc.io.rchar",
    [PM_WCHAR] = "proc.io.wchar",
};
/* a listing's metrics, then a reading's */
static const int listing[] = {PM_PSARGS, PM_TGID, PM_PPID, PM_START,
                              PM_THREADS};
static const int reading[] = {PM_TGID,   PM_START, PM_CMD,   PM_RUN,  PM_WAIT,
                              PM_SLICES, PM_RSS,   PM_RCHAR, PM_WCHAR};
#define NLISTING (int)(sizeof(listing) / sizeof(listing[0]))
#define NREADING (int)(sizeof(reading) / sizeof(reading[0]))

/* A VM the last listing found: its process and the instances of its
 * threads (for UML, its guest's processes and theirs too). */
struct vm_found {
    struct vm_id id;
    int threads; /* the process's threads, as proc.psinfo.threads says */
    int ninst;
    int inst[VM_MAX_THREADS];
};

struct vm_pcp {
    int ctx;
    pmID pmid[PM_COUNT];
    pmDesc desc[PM_COUNT];
    pmInDom indom;
    double listed_at; /* host monotonic, 0 before the first listing */
    bool relist;      /* a VM known ended: list again at the next read */
    char why[VM_WHY]; /* why the listing found none it could read */
    int nvm;
    struct vm_found vm[VM_MAX];
    int ninst; /* every VM's instances: the reading's profile */
    int inst[VM_MAX * VM_MAX_THREADS];
};

struct vm_pcp *vm_pcp_open(const char *target, char *err, size_t n)
{
    struct vm_pcp *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    p->ctx = pmNewContext(PM_CONTEXT_HOST, target);
    if (p->ctx < 0) {
        char e[PM_MAXERRMSGLEN];
        snprintf(err, n, "no pmcd at %s: %s", target,
                 pmErrStr_r(p->ctx, e, sizeof(e)));
        free(p);
        return NULL;
    }
    const char *ask[PM_COUNT]; /* libpcp's takes them as const char ** */
    memcpy(ask, names, sizeof(ask));
    int got = pmLookupName(PM_COUNT, ask, p->pmid);
    for (int k = 0; got >= 0 && k < PM_COUNT; k++)
        if (p->pmid[k] == PM_ID_NULL ||
            pmLookupDesc(p->pmid[k], &p->desc[k]) < 0)
            got = -1;
    if (got < 0) {
        snprintf(err, n,
                 "%s has no proc agent's metrics (proc.psinfo.*, "
                 "proc.schedstat.*): install PCP's proc PMDA there",
                 target);
        pmDestroyContext(p->ctx);
        free(p);
        return NULL;
    }
    p->indom = p->desc[PM_TGID].indom;
    /* the threads as instances, for this client (refused by pmcd's
     * default access list from afar: then only pmdaproc -L lists them) */
    char msg[256];
    pcp_store_value(target, "proc.control.perclient.threads", "1", msg,
                    sizeof(msg));
    return p;
}

void vm_pcp_close(struct vm_pcp *p)
{
    if (!p)
        return;
    pmDestroyContext(p->ctx);
    free(p);
}

size_t vm_pcp_argv(const char *psargs, char *buf, size_t n)
{
    size_t k = 0;
    bool gap = true;
    for (const char *c = psargs; *c && k + 1 < n; c++) {
        if (*c == ' ') {
            if (!gap)
                buf[k++] = '\0';
            gap = true;
            continue;
        }
        buf[k++] = *c;
        gap = false;
    }
    if (!gap && k < n)
        buf[k++] = '\0';
    return k;
}

/* Whether an instance's name ("027332 qemu-system-x86_64") is a VMM's:
 * what a listing looks at closer. */
static bool vmm_named(const char *inst_name)
{
    const char *exe = strchr(inst_name, ' ');
    return vm_proc_exe_kind(exe ? exe + 1 : inst_name) >= 0;
}

/* Instance inst's value in vs as a number, or def. */
/* Where instance inst is in vs, or -1. The search starts at *hint (NULL:
 * at 0) and leaves it there: a reading's value sets list its instances in
 * one order, so a VM's threads looked up in turn are found at once, where
 * a search from 0 made a reading of 16 VMs of 64 threads some 7 million
 * comparisons. */
static int slot_of(const pmValueSet *vs, int inst, int *hint)
{
    int n = vs ? vs->numval : 0,
        h = hint && *hint >= 0 && *hint < n ? *hint : 0;
    for (int k = 0; k < n; k++) {
        int j = h + k < n ? h + k : h + k - n;
        if (vs->vlist[j].inst == inst) {
            if (hint)
                *hint = j;
            return j;
        }
    }
    return -1;
}

static double num_at(const pmValueSet *vs, const pmDesc *d, int inst,
                     double def, int *hint)
{
    int j = slot_of(vs, inst, hint);
    pmAtomValue a;
    if (j >= 0 && pmExtractValue(vs->valfmt, &vs->vlist[j], d->type, &a,
                                 PM_TYPE_DOUBLE) >= 0)
        return a.d;
    return def;
}

static double num_of(const pmValueSet *vs, const pmDesc *d, int inst,
                     double def)
{
    return num_at(vs, d, inst, def, NULL);
}

/* A whole number from another host (a pid, a count), -1 when it is none
 * or beyond an int. */
static int int_of(double v)
{
    return v >= 0 && v <= INT_MAX ? (int)v : -1;
}

/* ... a counter from another host, 0 when it is none or beyond 64 bits */
static uint64_t u64_of(double v)
{
    return v >= 0 && v < 18446744073709549568.0 ? (uint64_t)v : 0;
}

/* Instance inst's string in vs into buf ("" when none). */
static void text_at(const pmValueSet *vs, int inst, char *buf, size_t n,
                    int *hint)
{
    buf[0] = '\0';
    int j = slot_of(vs, inst, hint);
    if (j >= 0 && vs->valfmt != PM_VAL_INSITU) {
        const pmValueBlock *vb = vs->vlist[j].value.pval;
        size_t len =
            vb->vlen > PM_VAL_HDR_SIZE ? vb->vlen - PM_VAL_HDR_SIZE : 0;
        snprintf(buf, n, "%.*s", (int)strnlen(vb->vbuf, len), vb->vbuf);
    }
}

static void text_of(const pmValueSet *vs, int inst, char *buf, size_t n)
{
    text_at(vs, inst, buf, n, NULL);
}

/* Fetches metrics ids (k of them) for the ninst instances inst. */
static int fetch(struct vm_pcp *p, const int *ids, int k, const int *inst,
                 int ninst, pmResult **rp)
{
    pmID pm[PM_COUNT];
    for (int i = 0; i < k; i++)
        pm[i] = p->pmid[ids[i]];
    pmDelProfile(p->indom, 0, NULL);
    pmAddProfile(p->indom, ninst, (int *)inst);
    return pmFetch(k, pm, rp);
}

/* The value set of metric id in a fetch of ids (k of them). */
static const pmValueSet *vset(const pmResult *r, const int *ids, int k, int id)
{
    for (int i = 0; i < k && i < r->numpmid; i++)
        if (ids[i] == id)
            return r->vset[i];
    return NULL;
}

/* pmdaproc refuses a client it cannot tell the user of (any TCP one) */
#define REFUSED                                                                \
    "its proc agent refuses us: run pmdaproc -A there, or read it as local:"

/* Why a value set holds no values: pmdaproc's refusal told with its
 * fix. */
static void refusal(const pmValueSet *vs, char *why, size_t n)
{
    char e[PM_MAXERRMSGLEN];
    if (vs && vs->numval == PM_ERR_PERMISSION)
        snprintf(why, n, REFUSED);
    else if (vs && vs->numval < 0)
        snprintf(why, n, "its proc agent: %s",
                 pmErrStr_r(vs->numval, e, sizeof(e)));
}

/* The VM that process pid is in the listing, or -1. */
static int vm_of(const struct vm_pcp *p, int pid)
{
    for (int v = 0; v < p->nvm; v++)
        if (p->vm[v].id.pid == pid)
            return v;
    return -1;
}

/* Lists the VMs anew: their processes among the instances named after a
 * VMM, then every instance of theirs. 0, or a PCP error. */
static int list_vms(struct vm_pcp *p, double now)
{
    int *ids = NULL;
    char **inames = NULL;
    p->listed_at = now;
    p->relist = false;
    p->nvm = p->ninst = 0;
    p->why[0] = '\0';
    pmDelProfile(p->indom, 0, NULL); /* the whole domain */
    pmAddProfile(p->indom, 0, NULL);
    int n = pmGetInDom(p->indom, &ids, &inames);
    if (n < 0)
        return n;
    int ncand = 0;
    for (int i = 0; i < n; i++)
        if (vmm_named(inames[i]))
            ids[ncand++] = ids[i];
    free(inames);
    pmResult *r = NULL;
    int sts = ncand ? fetch(p, listing, NLISTING, ids, ncand, &r) : 0;
    if (sts < 0 || !r) {
        free(ids);
        return sts;
    }
    const pmValueSet *args = vset(r, listing, NLISTING, PM_PSARGS),
                     *tgid = vset(r, listing, NLISTING, PM_TGID),
                     *ppid = vset(r, listing, NLISTING, PM_PPID);
    refusal(args, p->why, sizeof(p->why));
    /* the VMs: processes (their own thread group) whose argv is a VMM's,
     * a UML kernel's child left to its parent */
    for (int i = 0; i < ncand && p->nvm < VM_MAX; i++) {
        char ps[4096], argv[4096];
        int pid = ids[i];
        if (int_of(num_of(tgid, &p->desc[PM_TGID], pid, -1)) != pid)
            continue;
        text_of(args, pid, ps, sizeof(ps));
        struct vm_found *f = &p->vm[p->nvm];
        memset(&f->id, 0, sizeof(f->id));
        if (!vm_proc_classify(argv, vm_pcp_argv(ps, argv, sizeof(argv)),
                              &f->id))
            continue;
        int parent = vm_of(p, int_of(num_of(ppid, &p->desc[PM_PPID], pid, -1)));
        if (f->id.kind == VMK_UML && parent >= 0)
            continue; /* a UML kernel's own: its threads join it below */
        f->id.pid = pid;
        f->id.start = u64_of(num_of(vset(r, listing, NLISTING, PM_START),
                                    &p->desc[PM_START], pid, 0));
        f->threads = int_of(num_of(vset(r, listing, NLISTING, PM_THREADS),
                                   &p->desc[PM_THREADS], pid, 1));
        f->ninst = 0;
        p->nvm++;
    }
    /* their threads: of the VM's process, or of a process a UML kernel
     * runs (its parent's) */
    for (int i = 0; i < ncand; i++) {
        int g = int_of(num_of(tgid, &p->desc[PM_TGID], ids[i], -1));
        int v = vm_of(p, g);
        if (v < 0)
            v = vm_of(p, int_of(num_of(ppid, &p->desc[PM_PPID], g, -1)));
        if (v < 0 || (g != p->vm[v].id.pid && p->vm[v].id.kind != VMK_UML))
            continue;
        struct vm_found *f = &p->vm[v];
        if (f->ninst < VM_MAX_THREADS) { /* the rest are not read */
            f->inst[f->ninst++] = ids[i];
            p->inst[p->ninst++] = ids[i];
        }
    }
    pmFreeResult(r);
    free(ids);
    return 0;
}

/* a pmdaproc without -L, to a client whose store of
 * proc.control.perclient.threads pmcd refused */
#define NO_THREADS "no threads listed (pmdaproc -L)"

/* VM f's reading from a fetch r of the reading metrics. */
static void read_vm(const struct vm_pcp *p, const struct vm_found *f,
                    const pmResult *r, double at, struct vm_raw *out)
{
    memset(out, 0, offsetof(struct vm_raw, th));
    out->id = f->id;
    out->t = at;
#define V(id) vset(r, reading, NREADING, id)
    int hint = 0; /* where the last instance was found */
#define NUM(id, inst, def) num_at(V(id), &p->desc[id], inst, def, &hint)
    int pid = f->id.pid;
    if (NUM(PM_START, pid, -1) != (double)f->id.start) {
        out->gone = true;
        return;
    }
    int have_sched = 0;
    for (int i = 0; i < f->ninst; i++) {
        int inst = f->inst[i];
        double run = NUM(PM_RUN, inst, -1), wait = NUM(PM_WAIT, inst, -1),
               slices = NUM(PM_SLICES, inst, -1);
        struct vm_thread *t = &out->th[out->nthreads];
        if (NUM(PM_TGID, inst, -1) < 0)
            continue; /* the thread ended */
        t->tid = inst;
        text_at(V(PM_CMD), inst, t->comm, sizeof(t->comm), &hint);
        safe_text(t->comm); /* another host's word */
        t->have_sched = run >= 0 && wait >= 0 && slices >= 0;
        t->run_ns = t->have_sched ? u64_of(run) : 0;
        t->wait_ns = t->have_sched ? u64_of(wait) : 0;
        t->slices = t->have_sched ? u64_of(slices) : 0;
        t->have_ctx = t->have_sched;
        t->ctx_vol = t->slices;
        /* a UML kernel's guest processes are its vCPU's work (a tracer
         * tells them from its helpers here; pmdaproc does not say) */
        bool uml_guest =
            f->id.kind == VMK_UML && int_of(NUM(PM_TGID, inst, -1)) != pid;
        t->vcpu = uml_guest ? 0 : vm_proc_vcpu_of(f->id.kind, t->comm);
        have_sched += t->have_sched;
        out->nthreads++;
    }
    double rss = NUM(PM_RSS, pid, -1), rc = NUM(PM_RCHAR, pid, -1),
           wc = NUM(PM_WCHAR, pid, -1);
    out->have_rss = rss >= 0;
    out->rss_bytes = rss * 1024;
    out->have_io = rc >= 0 && wc >= 0;
    out->rchar = out->have_io ? u64_of(rc) : 0;
    out->wchar = out->have_io ? u64_of(wc) : 0;
    if (!out->have_io)
        refusal(V(PM_RCHAR), out->io_why, sizeof(out->io_why));
    vm_proc_tell(out, 0, false);
    if (!have_sched)
        refusal(V(PM_RUN), out->sched_why, sizeof(out->sched_why));
    else if (f->threads > 1 && f->ninst <= 1) { /* no vCPU to tell */
        snprintf(out->sched_why, sizeof(out->sched_why), NO_THREADS);
        snprintf(out->vcpu_how, sizeof(out->vcpu_how), NO_THREADS);
        snprintf(out->kvm_why, sizeof(out->kvm_why), "KVM or not: " NO_THREADS);
    }
#undef NUM
#undef V
}

int vm_pcp_read(struct vm_pcp *p, double now, struct vm_raw *out, int max,
                char *why, size_t n)
{
    char e[PM_MAXERRMSGLEN];
    why[0] = '\0';
    if (pmUseContext(p->ctx) < 0) {
        snprintf(why, n, "its context is gone");
        return -1;
    }
    int sts = 0;
    if (p->relist || p->listed_at == 0 || now - p->listed_at >= VM_PROC_GAP_S)
        sts = list_vms(p, now);
    if (sts == PM_ERR_PERMISSION) { /* the connection is fine */
        snprintf(why, n, REFUSED);
        return 0;
    }
    if (sts < 0) {
        snprintf(why, n, "listing its processes: %s",
                 pmErrStr_r(sts, e, sizeof(e)));
        return -1;
    }
    snprintf(why, n, "%s", p->why);
    if (p->nvm == 0)
        return 0;
    pmResult *r = NULL;
    double t0 = clock_mono();
    sts = fetch(p, reading, NREADING, p->inst, p->ninst, &r);
    double t = (t0 + clock_mono()) / 2;
    if (sts < 0) {
        snprintf(why, n, "reading its VMs: %s", pmErrStr_r(sts, e, sizeof(e)));
        return -1;
    }
    int k = 0;
    for (int v = 0; v < p->nvm && k < max; v++) {
        read_vm(p, &p->vm[v], r, t, &out[k]);
        if (out[k].gone)
            p->relist = true;
        else
            k++;
    }
    pmFreeResult(r);
    return k;
}
