/* See vm_report.h. */
#include "report/vm_report.h"

#include <math.h>
#include <string.h>

#include "session/vm_watch.h"
#include "view/vm_text.h"
#include "view/vm_view.h"

void vm_report_text(FILE *f, const struct session *s)
{
    if (!vm_view_shown(s))
        return;
    fprintf(f, "\nThe host's view of its VMs (what the host's scheduler gave "
               "each one; docs/figures.md)\n\n");
    vm_text_print(f, s, 0, true);
}

static json_t *num(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* A guest given ,vm=NAME that no VM on this host runs yet: its column's
 * name, the VM asked for, and why it is not joined. */
static json_t *unjoined_json(const struct session *s, int k)
{
    int src = vm_view_source(s, k);
    const char *why = vm_view_unjoined_why(s, k);
    return json_pack("{s:s, s:n, s:n, s:s, s:n, s:s}", "name",
                     src > 0 ? s->vms->want[src] : "", "kind", "pid", "guest",
                     src > 0 ? s->model[src].name : "", "joined", "why",
                     why ? why : "");
}

/* A recorded VM (-a): what its record shown says, and whose it is. */
static json_t *recorded_json(const struct session *s,
                             const struct vm_recorded *v, int src)
{
    char name[96];
    vm_recorded_label(v, name, sizeof(name));
    json_t *o = json_pack(
        "{s:s, s:s, s:o, s:o, s:o, s:s}", "name", name, "kind", v->kind, "pid",
        v->pid >= 0 ? json_integer(v->pid) : json_null(), "guest",
        v->guest[0] ? json_string(v->guest) : json_null(), "nvcpu",
        v->nvcpu >= 0 ? json_integer(v->nvcpu) : json_null(), "recorded",
        src >= 0 ? s->model[src].name : "");
    json_t *fig = json_object(), *why = json_object();
    for (int row = 0; row < VM_ROW_COUNT; row++) {
        json_object_set_new(fig, vm_row_keys[row], num(v->fig[row]));
        if (v->note[row][0])
            json_object_set_new(why, vm_row_keys[row],
                                json_string(v->note[row]));
    }
    json_object_set_new(o, "held_fault",
                        json_boolean(v->faults >> VMR_HELD & 1));
    json_object_set_new(o, "joined",
                        v->how[0] ? json_stringn(v->how, strcspn(v->how, "="))
                                  : json_null());
    json_object_set_new(o, "figures", fig);
    json_object_set_new(o, "notes", why);
    json_object_set_new(o, "vcpus_told", json_string(v->told));
    json_object_set_new(o, "vcpu_run_time", num(v->run_s));
    json_object_set_new(o, "vcpu_wait_time", num(v->wait_s));
    return o;
}

static json_t *vm_json(const struct session *s, int k)
{
    int from;
    const struct vm_recorded *v = vm_view_recorded(s, k, &from);
    if (v)
        return recorded_json(s, v, from);
    const struct vm_model *vm = vm_view_vm(s, k);
    if (!vm)
        return unjoined_json(s, k);
    int host = vm_view_host(s, k);
    const struct vm_figures *f = &vm->fig;
    char name[96];
    vm_label(&vm->cur.id, name, sizeof(name));
    int src = vm_view_source(s, k);
    json_t *o =
        json_pack("{s:s, s:s, s:i, s:o, s:i, s:s}", "name", name, "kind",
                  vm_kind_name(vm->cur.id.kind), "pid", vm->cur.id.pid, "guest",
                  src > 0 ? json_string(s->model[src].name) : json_null(),
                  "nvcpu", f->nvcpu, "vcpus_told", vm->cur.vcpu_how);
    /* whose: null for this host's, else the source read through its pmcd */
    json_object_set_new(
        o, "host", host > 0 ? json_string(s->model[host].name) : json_null());
    json_t *fig = json_object(), *why = json_object();
    for (int row = 0; row < VM_ROW_COUNT; row++) {
        char val[32], detail[160];
        bool fault = vm_view_cell(s, k, row, val, sizeof(val), detail,
                                  sizeof(detail), true);
        json_object_set_new(fig, vm_row_keys[row],
                            num(vm_view_value(s, k, row)));
        if (detail[0])
            json_object_set_new(why, vm_row_keys[row], json_string(detail));
        if (row == VMR_HELD)
            json_object_set_new(o, "held_fault", json_boolean(fault));
    }
    json_t *vcpus = json_array();
    for (int c = 0; c < f->nvcpu && c < VM_MAX_VCPUS; c++)
        json_array_append_new(vcpus, json_pack("{s:o, s:o}", "run",
                                               num(f->vcpu_run[c]), "wait",
                                               num(f->vcpu_wait[c])));
    char how[80];
    vm_view_joined_how(s, k, how, sizeof(how));
    /* how it was joined: "pid", "vm" (,vm=NAME), "name" (its column's) */
    json_object_set_new(o, "joined",
                        how[0] ? json_stringn(how, strcspn(how, "="))
                               : json_null());
    json_object_set_new(o, "figures", fig);
    json_object_set_new(o, "notes", why);
    json_object_set_new(o, "vcpus", vcpus);
    if (src > 0) {
        json_object_set_new(o, "guest_busy", num(vm_view_guest_busy(s, src)));
        json_object_set_new(o, "guest_steal", num(vm_view_guest_steal(s, src)));
        /* its latest run against the vCPUs; t0, t1 host monotonic */
        const struct vm_run_cpu *r = vm_watch_run(s->vms, src);
        if (r)
            json_object_set_new(
                o, "run",
                json_pack("{s:s, s:o, s:o, s:o, s:o}", "workload", r->workload,
                          "billed_s", num(r->billed_s), "ran_s", num(r->ran_s),
                          "t0", num(r->t0), "t1", num(r->t1)));
    }
    return o;
}

json_t *vm_report_json(const struct session *s)
{
    if (!vm_view_shown(s))
        return json_null();
    json_t *a = json_array();
    for (int k = 0; k < vm_view_count(s); k++)
        json_array_append_new(a, vm_json(s, k));
    return a;
}
