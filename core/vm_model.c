/* See vm_model.h. A thread's figures come from the same thread in both
 * readings (by tid): a thread that started in between shows from its
 * second reading, as a rate needs a base. */
#include "core/vm_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void vm_set_init(struct vm_set *set)
{
    set->n = 0;
    set->last_scan = 0;
    set->why[0] = '\0';
}

static const struct vm_thread *find_thread(const struct vm_raw *r, int tid)
{
    for (int i = 0; i < r->nthreads; i++)
        if (r->th[i].tid == tid)
            return &r->th[i];
    return NULL;
}

/* a counter's growth per second, 0 when it went back (a new thread) */
static double per_s(uint64_t now, uint64_t before, double dt)
{
    return now >= before ? (double)(now - before) / dt : 0;
}

void vm_figures_between(const struct vm_raw *prev, const struct vm_raw *cur,
                        struct vm_figures *f)
{
    double nan = NAN, dt = cur->t - prev->t;
    *f = (struct vm_figures){.run_pct = nan,
                             .wait_pct = nan,
                             .other_run = nan,
                             .other_wait = nan,
                             .rss_bytes = cur->have_rss ? cur->rss_bytes : nan,
                             .read_bps = nan,
                             .write_bps = nan,
                             .ctxsw_ps = nan};
    for (int k = 0; k < VM_MAX_VCPUS; k++)
        f->vcpu_run[k] = f->vcpu_wait[k] = nan;
    if (!(dt > 0))
        return;
    if (cur->have_io && prev->have_io) {
        f->read_bps = per_s(cur->rchar, prev->rchar, dt);
        f->write_bps = per_s(cur->wchar, prev->wchar, dt);
    }
    double run = 0, wait = 0, orun = 0, owait = 0, ctx = 0;
    int nsched = 0, nctx = 0;
    for (int i = 0; i < cur->nthreads; i++) {
        const struct vm_thread *c = &cur->th[i];
        const struct vm_thread *p = find_thread(prev, c->tid);
        if (!p)
            continue;
        if (c->have_ctx && p->have_ctx) {
            ctx +=
                per_s(c->ctx_vol + c->ctx_invol, p->ctx_vol + p->ctx_invol, dt);
            nctx++;
        }
        if (!c->have_sched || !p->have_sched)
            continue;
        nsched++;
        /* ns per s / 1e7: % of one CPU, % of wall */
        double r = per_s(c->run_ns, p->run_ns, dt) / 1e7;
        double w = per_s(c->wait_ns, p->wait_ns, dt) / 1e7;
        if (c->vcpu < 0) {
            orun += r;
            owait += w;
            f->nother++;
            continue;
        }
        run += r;
        wait += w;
        if (c->vcpu >= f->nvcpu)
            f->nvcpu = c->vcpu + 1;
        if (c->vcpu < VM_MAX_VCPUS) { /* UML: its guest processes add up */
            int k = c->vcpu;
            f->vcpu_run[k] = (isnan(f->vcpu_run[k]) ? 0 : f->vcpu_run[k]) + r;
            f->vcpu_wait[k] =
                (isnan(f->vcpu_wait[k]) ? 0 : f->vcpu_wait[k]) + w;
        }
        f->vcpu_run_ns += c->run_ns - p->run_ns;
        f->vcpu_wait_ns += c->wait_ns - p->wait_ns;
    }
    if (nctx)
        f->ctxsw_ps = ctx;
    if (!nsched)
        return;
    f->other_run = f->nother ? orun : 0;
    f->other_wait = f->nother ? owait / f->nother : 0;
    if (f->nvcpu > 0) {
        f->run_pct = run;
        f->wait_pct = wait / f->nvcpu;
    }
}

static int find_vm(const struct vm_set *set, const struct vm_id *id)
{
    for (int i = 0; i < set->n; i++)
        if (set->vm[i].cur.id.pid == id->pid &&
            set->vm[i].cur.id.start == id->start)
            return i;
    return -1;
}

/* Keeps the totals as of vm's newest reading, dropping the oldest. */
static void add_mark(struct vm_model *vm)
{
    if (vm->nmark == VM_MARKS) {
        memmove(vm->mark, vm->mark + 1, (VM_MARKS - 1) * sizeof(vm->mark[0]));
        vm->nmark--;
    }
    vm->mark[vm->nmark++] = (struct vm_mark){.pid = vm->cur.id.pid,
                                             .t = vm->cur.t,
                                             .run_ns = vm->vcpu_run_total_ns,
                                             .wait_ns = vm->vcpu_wait_total_ns};
}

bool vm_model_mark(const struct vm_model *vm, double at, bool before,
                   struct vm_mark *out)
{
    if (before) {
        for (int k = vm->nmark - 1; k >= 0; k--)
            if (vm->mark[k].t <= at) {
                *out = vm->mark[k];
                return true;
            }
    } else {
        for (int k = 0; k < vm->nmark; k++)
            if (vm->mark[k].t >= at) {
                *out = vm->mark[k];
                return true;
            }
    }
    return false;
}

int vm_set_update(struct vm_set *set, const struct vm_raw *raws, int n)
{
    int changed = 0;
    bool seen[VM_MAX] = {false};
    for (int k = 0; k < n; k++) {
        if (raws[k].gone)
            continue;
        int i = find_vm(set, &raws[k].id);
        if (i < 0) {
            if (set->n == VM_MAX)
                continue;
            i = set->n++;
            set->vm[i].have_prev = false;
            set->vm[i].first_seen = raws[k].t;
            set->vm[i].vcpu_run_total_ns = 0;
            set->vm[i].vcpu_wait_total_ns = 0;
            set->vm[i].nmark = 0;
            vm_figures_between(&raws[k], &raws[k], &set->vm[i].fig);
            changed++;
        } else {
            set->vm[i].prev = set->vm[i].cur;
            set->vm[i].have_prev = true;
        }
        set->vm[i].cur = raws[k];
        if (set->vm[i].have_prev) {
            vm_figures_between(&set->vm[i].prev, &set->vm[i].cur,
                               &set->vm[i].fig);
            set->vm[i].vcpu_run_total_ns += set->vm[i].fig.vcpu_run_ns;
            set->vm[i].vcpu_wait_total_ns += set->vm[i].fig.vcpu_wait_ns;
        }
        add_mark(&set->vm[i]);
        seen[i] = true;
    }
    int kept = 0; /* the VMs not found any more go, in order */
    for (int i = 0; i < set->n; i++) {
        if (!seen[i]) {
            changed++;
            continue;
        }
        if (kept != i)
            set->vm[kept] = set->vm[i];
        kept++;
    }
    set->n = kept;
    return changed;
}

const struct vm_model *vm_set_find(const struct vm_set *set, int pid)
{
    for (int i = 0; pid > 0 && i < set->n; i++)
        if (set->vm[i].cur.id.pid == pid)
            return &set->vm[i];
    return NULL;
}

const char *vm_kind_name(enum vm_kind k)
{
    static const char *const names[] = {"qemu", "uml", "firecracker",
                                        "cloud-hypervisor"};
    return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

void vm_label(const struct vm_id *id, char *buf, size_t n)
{
    if (id->name[0])
        snprintf(buf, n, "%s", id->name);
    else
        snprintf(buf, n, "%s-%d", vm_kind_name(id->kind), id->pid);
}
