/* See vm_view.h. */
#include "view/vm_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "session/vm_watch.h"
#include "view/fmt.h"
#include "view/view.h"
#include "view/vm_recorded_view.h"

/* Columns 0..n-1 are the VMs found, then one per guest given ,vm=NAME
 * that no VM runs yet (its header and a row that says why), then the
 * recorded ones (view/vm_recorded_view.h). */
static int vm_count(const struct session *s)
{
    return s->vms ? s->vms->set.n : 0;
}

/* The live columns: the VMs found, then the guests waiting for theirs;
 * the other hosts' and the recorded ones come after them. */
static int live_count(const struct session *s)
{
    return s->vms ? s->vms->set.n + vm_watch_unjoined(s->vms) : 0;
}

/* The VMs other hosts run, read through their pmcds (-h ...,vms). */
static int remote_count(const struct session *s)
{
    int n = 0;
    for (int i = 1; i < s->nsrc; i++)
        n += s->host_vms[i] ? s->host_vms[i]->n : 0;
    return n;
}

int vm_view_count(const struct session *s)
{
    return live_count(s) + remote_count(s) + vm_recorded_count(s, NULL);
}

bool vm_view_shown(const struct session *s)
{
    for (int i = 1; i < s->nsrc; i++)
        if (s->host_vms[i])
            return true;
    return s->vms || vm_recorded_count(s, NULL) > 0;
}

int vm_view_first(const struct session *s, int src, int *n)
{
    *n = src == 0 && s->vms ? s->vms->set.n : 0;
    if (src <= 0)
        return 0;
    int k = live_count(s);
    for (int i = 1; i < src && i < s->nsrc; i++)
        k += s->host_vms[i] ? s->host_vms[i]->n : 0;
    *n = src < s->nsrc && s->host_vms[src] ? s->host_vms[src]->n : 0;
    return k;
}

/* Column k's VM on another host and that host's source (*host), or
 * NULL. */
static const struct vm_model *remote_at(const struct session *s, int k,
                                        int *host)
{
    k -= live_count(s);
    for (int i = 1; i < s->nsrc && k >= 0; i++) {
        int n = s->host_vms[i] ? s->host_vms[i]->n : 0;
        if (k < n) {
            *host = i;
            return &s->host_vms[i]->vm[k];
        }
        k -= n;
    }
    return NULL;
}

const struct vm_recorded *vm_view_recorded(const struct session *s, int k,
                                           int *src)
{
    *src = -1;
    if (k < vm_count(s)) /* a live VM: every cell of every tick asks */
        return NULL;
    int live = live_count(s) + remote_count(s);
    return k >= live ? vm_recorded_at(s, k - live, src) : NULL;
}

void vm_view_count_text(const struct session *s, char *buf, size_t n)
{
    int vms = vm_count(s), waiting = live_count(s) - vms;
    int held, rec = vm_recorded_count(s, &held);
    bool others = false; /* other hosts' VMs follow: this host's are "here" */
    for (int i = 1; i < s->nsrc; i++)
        others |= s->host_vms[i] != NULL;
    int used = s->vms || (!rec && !others)
                   ? snprintf(buf, n, "%d VM%s%s", vms, vms == 1 ? "" : "s",
                              others ? " here" : "")
                   : 0;
    if (waiting > 0 && used >= 0 && (size_t)used < n)
        used += snprintf(buf + used, n - (size_t)used,
                         " (%d guest%s given vm= not joined)", waiting,
                         waiting == 1 ? "" : "s");
    if (rec > 0 && used >= 0 && (size_t)used < n)
        used += snprintf(buf + used, n - (size_t)used, "%s%d VM%s recorded",
                         used ? ", " : "", rec, rec == 1 ? "" : "s");
    if (held > rec && used >= 0 && (size_t)used < n)
        used += snprintf(buf + used, n - (size_t)used,
                         " (of %d: a record's room)", held);
    for (int i = 1; i < s->nsrc; i++) { /* ", 2 VMs on h1" */
        const struct vm_set *set = s->host_vms[i];
        if (!set || used < 0 || (size_t)used >= n)
            continue;
        used += snprintf(buf + used, n - (size_t)used, "%s%d VM%s on %s",
                         used ? ", " : "", set->n, set->n == 1 ? "" : "s",
                         s->model[i].name);
        if (set->why[0] && used >= 0 && (size_t)used < n)
            used += snprintf(buf + used, n - (size_t)used, " (%s)", set->why);
    }
}

static const struct vm_model *vm_at(const struct session *s, int k)
{
    int host;
    if (k >= 0 && k < vm_count(s))
        return &s->vms->set.vm[k];
    return k >= 0 ? remote_at(s, k, &host) : NULL;
}

const struct vm_model *vm_view_vm(const struct session *s, int k)
{
    return vm_at(s, k);
}

int vm_view_host(const struct session *s, int k)
{
    int host = 0;
    if (k < 0 || (k >= vm_count(s) && !remote_at(s, k, &host)))
        return -1;
    return host;
}

/* The source of unjoined column k, or -1 when k is a VM's. */
static int unjoined_source(const struct session *s, int k)
{
    if (k < vm_count(s) || k >= live_count(s))
        return -1;
    int src = vm_watch_unjoined_at(s->vms, k - vm_count(s));
    return src > 0 && src < s->nsrc ? src : -1;
}

int vm_view_source(const struct session *s, int k)
{
    if (k >= live_count(s)) /* another host's VMs are joined to none */
        return -1;
    const struct vm_model *vm = vm_at(s, k);
    int src =
        vm ? vm_watch_source_of(s->vms, vm->cur.id.pid) : unjoined_source(s, k);
    return src > 0 && src < s->nsrc ? src : -1;
}

const char *vm_view_unjoined_why(const struct session *s, int k)
{
    int src = unjoined_source(s, k);
    return src > 0 ? vm_watch_why(s->vms, src) : NULL;
}

void vm_view_joined_how(const struct session *s, int k, char *buf, size_t n)
{
    int src = vm_view_source(s, k), from;
    const struct vm_recorded *v = vm_view_recorded(s, k, &from);
    buf[0] = '\0';
    if (v)
        snprintf(buf, n, "%s", v->how);
    if (src > 0 && vm_at(s, k))
        vm_watch_how(s->vms, src, buf, n);
}

void vm_view_header(const struct session *s, int k, int row, char *buf,
                    size_t n)
{
    const struct vm_model *vm = vm_at(s, k);
    int src = vm_view_source(s, k), from, host;
    char how[80];
    buf[0] = '\0';
    const struct vm_recorded *v = vm_view_recorded(s, k, &from);
    if (v) {
        vm_recorded_header(s, from, v, row, buf, n);
        return;
    }
    if (!vm && src > 0) { /* a guest given vm=NAME, no such VM yet */
        if (row == 0)
            snprintf(buf, n, "%s", s->model[src].name);
        else if (row == 1)
            snprintf(buf, n, "vm=%s", s->vms->want[src]);
        else
            snprintf(buf, n, "not joined");
        return;
    }
    if (!vm)
        return;
    switch (row) {
    case 0:
        if (src > 0)
            snprintf(buf, n, "%s", s->model[src].name);
        else
            vm_label(&vm->cur.id, buf, n);
        break;
    case 1:
        snprintf(buf, n, "%s %d %dvcpu", vm_kind_name(vm->cur.id.kind),
                 vm->cur.id.pid, vm->fig.nvcpu);
        break;
    default:
        host = vm_view_host(s, k);
        vm_view_joined_how(s, k, how, sizeof(how));
        if (host > 0)
            snprintf(buf, n, "on %s", s->model[host].name);
        else if (src > 0 && how[0])
            snprintf(buf, n, "joined by %s", how);
        else
            snprintf(buf, n, "%s",
                     src > 0 ? "joined: host+guest" : "host side only");
        break;
    }
}

const char *vm_view_vcpu_how(const struct session *s, int k)
{
    const struct vm_model *vm = vm_at(s, k);
    int from;
    const struct vm_recorded *v = vm_view_recorded(s, k, &from);
    if (v) /* an archive from before vcpus_told: nothing to say */
        return v->told;
    return vm ? vm->cur.vcpu_how : "";
}

static double metric(const struct session *s, int src, int id)
{
    if (src <= 0 || src >= s->nsrc || s->model[src].state != SRC_LIVE)
        return NAN;
    return s->model[src].value[id];
}

double vm_view_guest_busy(const struct session *s, int src)
{
    double busy = 0;
    const int ids[] = {METRIC_CPU_USER, METRIC_CPU_SYS, METRIC_CPU_NICE,
                       METRIC_CPU_IRQ};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
        busy += metric(s, src, ids[i]);
    return busy;
}

double vm_view_guest_steal(const struct session *s, int src)
{
    return metric(s, src, METRIC_CPU_STEAL);
}

/* The host's figure for the guest's CPUs' busy time: what its vCPUs ran
 * over what the guest said they were busy; NaN when either is unknown
 * or the guest said 0. */
static double cost_factor(const struct session *s, const struct vm_model *vm,
                          int src, double *said, double *ran)
{
    int ncpu = src > 0 ? s->model[src].info.ncpu : 0;
    *said = vm_view_guest_busy(s, src);
    *ran = vm->fig.run_pct;
    if (ncpu <= 0 || isnan(*said) || isnan(*ran) || *said <= 0)
        return NAN;
    return *ran / (*said * ncpu);
}

/* The latest guest run of source src against its vCPUs, or NULL. */
static const struct vm_run_cpu *run_of(const struct session *s, int src)
{
    return src > 0 ? vm_watch_run(s->vms, src) : NULL;
}

/* Billed over ran, NaN when the vCPUs ran nothing to compare with. */
static double billed_factor(const struct vm_run_cpu *r)
{
    return r && r->ran_s > 0 ? r->billed_s / r->ran_s : NAN;
}

double vm_view_value(const struct session *s, int k, int row)
{
    const struct vm_model *vm = vm_at(s, k);
    int from;
    const struct vm_recorded *v = vm_view_recorded(s, k, &from);
    if (v)
        return row >= 0 && row < VM_ROW_COUNT ? v->fig[row] : NAN;
    if (!vm || !vm->have_prev)
        return NAN;
    const struct vm_figures *f = &vm->fig;
    double said, ran;
    switch (row) {
    case VMR_RUN:
        return f->run_pct;
    case VMR_WAIT:
    case VMR_HELD:
        return f->wait_pct;
    case VMR_OTHER:
        return f->other_run;
    case VMR_RSS:
        return f->rss_bytes;
    case VMR_READ:
        return f->read_bps;
    case VMR_WRITE:
        return f->write_bps;
    case VMR_CTXSW:
        return f->ctxsw_ps;
    case VMR_COST:
        return cost_factor(s, vm, vm_view_source(s, k), &said, &ran);
    case VMR_RUN_CPU:
        return billed_factor(run_of(s, vm_view_source(s, k)));
    }
    return NAN;
}

/* A per-vCPU list, "0:38.2 1:4.0", into buf. */
static void per_vcpu(const double *v, int nvcpu, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < nvcpu && c < VM_MAX_VCPUS && used < n; c++)
        used += (size_t)snprintf(buf + used, n - used, "%s%d:%.1f",
                                 c ? " " : "", c, v[c]);
}

static void pct(char *buf, size_t n, double v)
{
    char raw[32];
    fmt_value(raw, sizeof(raw), v, MF_PERCENT);
    fmt_right(buf, n, VIEW_VALUE_W, raw);
}

/* The steal row: held (the vCPUs' wait) against said (the guest's steal);
 * a fault when held exceeds said by VM_HELD_FAULT_PTS. */
static bool held_cell(const struct session *s, const struct vm_model *vm,
                      int src, char *val, size_t vn, char *detail, size_t dn)
{
    double held = vm->fig.wait_pct, said = vm_view_guest_steal(s, src);
    pct(val, vn, held);
    if (src <= 0) {
        snprintf(detail, dn, "no guest: steal unsaid");
        return false;
    }
    if (isnan(held)) {
        snprintf(detail, dn, "held ?");
        return false;
    }
    if (isnan(said)) { /* the guest's column is down, or has no steal */
        snprintf(detail, dn, "held %.0f%%, said n/a", held);
        return false;
    }
    snprintf(detail, dn, "held %.0f%%, said %.0f%%", held, said);
    return held - said > VM_HELD_FAULT_PTS;
}

/* The run row: the CPU the guest billed its latest run against what its
 * vCPUs ran around it; a fault beyond VM_BILLED_FAULT. */
static bool run_cpu_cell(const struct vm_run_cpu *r, int src, char *val,
                         size_t vn, char *detail, size_t dn, bool utf8)
{
    if (src <= 0) {
        snprintf(detail, dn, "no guest: no runs");
        return false;
    }
    if (!r) {
        fmt_right(val, vn, VIEW_VALUE_W, "-");
        snprintf(detail, dn, "no run yet");
        return false;
    }
    double x = billed_factor(r);
    char raw[32] = "n/a";
    if (isfinite(x))
        view_factor_text(x, raw, sizeof(raw), utf8);
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    /* "dhry: billed 2.95s, ran 2.18/4.0s": ran 2.18 s in the 4.0 s span */
    snprintf(detail, dn, "%s: billed %.2fs, ran %.2f/%.1fs", r->workload,
             r->billed_s, r->ran_s, r->t1 - r->t0);
    return isfinite(x) && x > VM_BILLED_FAULT;
}

bool vm_view_cell(const struct session *s, int k, int row, char *val, size_t vn,
                  char *detail, size_t dn, bool utf8)
{
    const struct vm_model *vm = vm_at(s, k);
    char raw[64];
    detail[0] = '\0';
    fmt_right(val, vn, VIEW_VALUE_W, "");
    int from;
    const struct vm_recorded *v = vm_view_recorded(s, k, &from);
    if (v)
        return row >= 0 && row < VM_ROW_COUNT &&
               vm_recorded_cell(v, row, val, vn, detail, dn, utf8);
    const char *why = vm_view_unjoined_why(s, k);
    if (!vm && why && row == VMR_RUN) { /* its one row: why not joined */
        fmt_right(val, vn, VIEW_VALUE_W, "n/a");
        snprintf(detail, dn, "%s", why);
    }
    if (!vm)
        return false;
    const struct vm_raw *r = &vm->cur;
    const struct vm_figures *f = &vm->fig;
    int src = vm_view_source(s, k);
    if (row == VMR_KVM) {
        fmt_right(val, vn, VIEW_VALUE_W, "n/a");
        snprintf(detail, dn, "%s", r->kvm_why);
        return false;
    }
    if (!vm->have_prev) {
        fmt_right(val, vn, VIEW_VALUE_W, "...");
        snprintf(detail, dn, "first reading");
        return false;
    }
    bool sched_row = row == VMR_RUN || row == VMR_WAIT || row == VMR_OTHER ||
                     row == VMR_COST || row == VMR_HELD || row == VMR_RUN_CPU;
    if (sched_row && r->sched_why[0]) {
        fmt_right(val, vn, VIEW_VALUE_W, "n/a");
        snprintf(detail, dn, "%s", r->sched_why);
        return false;
    }
    double said, ran, x;
    switch (row) {
    case VMR_RUN:
        pct(val, vn, f->run_pct);
        if (f->nvcpu > 1)
            per_vcpu(f->vcpu_run, f->nvcpu, detail, dn);
        else
            snprintf(detail, dn, "%% of a CPU");
        break;
    case VMR_WAIT:
        pct(val, vn, f->wait_pct);
        if (f->nvcpu > 1)
            per_vcpu(f->vcpu_wait, f->nvcpu, detail, dn);
        else
            snprintf(detail, dn, "%% of wall, runnable");
        break;
    case VMR_OTHER:
        pct(val, vn, f->other_run);
        snprintf(detail, dn, "%d thread%s, wait %.1f%%", f->nother,
                 f->nother == 1 ? "" : "s", f->other_wait);
        break;
    case VMR_RSS:
        fmt_value(raw, sizeof(raw), f->rss_bytes, MF_BYTES);
        fmt_right(val, vn, VIEW_VALUE_W, raw);
        break;
    case VMR_READ:
    case VMR_WRITE:
        fmt_value(raw, sizeof(raw),
                  row == VMR_READ ? f->read_bps : f->write_bps, MF_BYTES);
        fmt_right(val, vn, VIEW_VALUE_W, raw);
        if (r->io_why[0])
            snprintf(detail, dn, "%s", r->io_why);
        break;
    case VMR_CTXSW:
        fmt_value(raw, sizeof(raw), f->ctxsw_ps, MF_SI);
        fmt_right(val, vn, VIEW_VALUE_W, raw);
        break;
    case VMR_COST:
        x = cost_factor(s, vm, src, &said, &ran);
        if (src <= 0) {
            snprintf(detail, dn, "no guest: busy unsaid");
            break;
        }
        if (isnan(x)) {
            fmt_right(val, vn, VIEW_VALUE_W, isnan(said) ? "n/a" : "-");
            snprintf(detail, dn, "said %s, ran %.0f%%",
                     isnan(said) ? "n/a" : "0%", ran);
            break;
        }
        view_factor_text(x, raw, sizeof(raw), utf8);
        fmt_right(val, vn, VIEW_VALUE_W, raw);
        /* said: a share of all its CPUs; ran: of one host CPU */
        snprintf(detail, dn, "costs %s: said %.0f%% of %d, ran %.0f%%", raw,
                 said, s->model[src].info.ncpu, ran);
        break;
    case VMR_HELD:
        return held_cell(s, vm, src, val, vn, detail, dn);
    case VMR_RUN_CPU:
        return run_cpu_cell(run_of(s, src), src, val, vn, detail, dn, utf8);
    }
    return false;
}
