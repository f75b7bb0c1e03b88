/* See record_vms.h. A VM gets an instance the first time a record holds
 * it (libpcp_import takes an instance added after records were written,
 * and writes the instance domain again with it), numbered in the order
 * seen: a VM that ends keeps its number, one started again under the
 * same pid is another. */
#include "archive/record_vms.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "archive/pmi_lib.h"
#include "archive/record_meta.h"
#include "core/vm_recorded.h"
#include "session/session.h"
#include "session/vm_watch.h"
#include "view/vm_view.h"

#define NOTES_MAX 1024 /* one VM's notes, "KEY<TAB>detail" lines */

/* The extras' items in the archive, after the rows' */
#define VX_ITEM0      64
#define VX_UNITS_SEC  true /* in seconds */
#define VX_UNITS_NONE false

static const struct {
    const char *name;
    int type, sem;
    bool sec;
    const char *help;
} extras[VX_COUNT] = {
#define VM_EXTRA_DEF(id, key, type, sem, units, help)                          \
    {"parallax.vm." key, PM_TYPE_##type, PM_SEM_##sem, VX_UNITS_##units, help},
    VM_RECORD_EXTRAS(VM_EXTRA_DEF)
#undef VM_EXTRA_DEF
};

int record_vms_vsets(void)
{
    return VM_ROW_COUNT + VX_COUNT;
}

size_t record_vms_bytes(void)
{
    /* each value set with a value per VM, and the strings at their
     * longest */
    return (size_t)record_vms_vsets() *
               (sizeof(pmValueSet) + VM_MAX * sizeof(pmValue) + 64) +
           (size_t)VM_MAX * (NOTES_MAX + 4 * 160 + VM_ROW_COUNT * 16);
}

static pmInDom indom(void)
{
    return pmi.make_indom(REC_DOMAIN, VM_INDOM_SERIAL);
}

int record_vms_define(void)
{
    pmUnits none = pmi.make_units(0, 0, 0, 0, 0, 0);
    pmUnits sec = pmi.make_units(0, 1, 0, 0, PM_TIME_SEC, 0);
    int sts = 0;
    for (int row = 0; row < VM_ROW_COUNT && sts >= 0; row++) {
        char name[64], help[160];
        snprintf(name, sizeof(name), "parallax.vm.%s", vm_row_keys[row]);
        snprintf(help, sizeof(help),
                 "parallax's \"%s\" row of the VM's column, the figure the "
                 "JSON report gives as vms[].figures.%s",
                 vm_row_labels[row], vm_row_keys[row]);
        sts = record_define_one(name, pmi.make_id(REC_DOMAIN, CL_VM, row),
                                PM_TYPE_DOUBLE, indom(), PM_SEM_INSTANT, none,
                                help);
    }
    for (int x = 0; x < VX_COUNT && sts >= 0; x++)
        sts = record_define_one(extras[x].name,
                                pmi.make_id(REC_DOMAIN, CL_VM, VX_ITEM0 + x),
                                extras[x].type, indom(), extras[x].sem,
                                extras[x].sec ? sec : none, extras[x].help);
    if (sts >= 0)
        sts = pmi.put_text(
            PM_TEXT_INDOM, PM_TEXT_ONELINE, indom(),
            "The VM processes on this host while it was recorded, NAME.PID "
            "(spaces made _; .2, .3 after it for another VM under a name "
            "given before), in the order seen");
    return sts < 0 ? sts : 0;
}

/* One VM's cells, its instance and its name. */
struct vm_rec {
    int inst;
    const char *iname;
    const struct vm_model *vm;
    int src;
    double fig[VM_ROW_COUNT];
    char notes[NOTES_MAX], faults[256], how[80];
    char shown[VM_ROW_COUNT * 16];
};

static bool taken(const struct record_vms *rv, const char *name)
{
    for (int i = 0; i < rv->n; i++)
        if (strcmp(rv->vm[i].name, name) == 0)
            return true;
    return false;
}

/* The instance name for a VM labelled label with pid, one no VM in rv
 * took (PCP's instance names must differ before their first space, and
 * libpcp_import refuses a name given before) into out. */
static void vm_name(const struct record_vms *rv, const char *label, int pid,
                    char *out, size_t n)
{
    char base[RECORD_VM_NAME_MAX - 8]; /* room for .N */
    snprintf(base, sizeof(base), "%.70s.%d", label, pid);
    for (char *p = base; *p; p++)
        if (*p == ' ')
            *p = '_';
    snprintf(out, n, "%s", base);
    for (int k = 2; taken(rv, out) && k <= RECORD_VMS_MAX + 1; k++)
        snprintf(out, n, "%s.%d", base, k);
}

/* vm's instance, named the first time; -1 when the archive has named as
 * many as it can. */
static int instance_of(struct record_vms *rv, const struct vm_model *vm,
                       int *sts)
{
    for (int i = 0; i < rv->n; i++)
        if (rv->vm[i].pid == vm->cur.id.pid &&
            rv->vm[i].start == vm->cur.id.start)
            return i;
    if (rv->n == RECORD_VMS_MAX)
        return -1;
    char label[64];
    vm_label(&vm->cur.id, label, sizeof(label));
    char *name = rv->vm[rv->n].name;
    vm_name(rv, label, vm->cur.id.pid, name, RECORD_VM_NAME_MAX);
    *sts = pmi.add_instance(indom(), name, rv->n);
    if (*sts < 0)
        return -1;
    rv->vm[rv->n].pid = vm->cur.id.pid;
    rv->vm[rv->n].start = vm->cur.id.start;
    return rv->n++;
}

static void fill(struct vm_rec *r, const struct session *s, int k)
{
    r->src = vm_view_source(s, k);
    vm_view_joined_how(s, k, r->how, sizeof(r->how));
    int nn = 0, nf = 0, ns = 0;
    r->notes[0] = r->faults[0] = r->shown[0] = '\0';
    for (int row = 0; row < VM_ROW_COUNT; row++) {
        char val[32], detail[160];
        bool fault = vm_view_cell(s, k, row, val, sizeof(val), detail,
                                  sizeof(detail), true);
        r->fig[row] = vm_view_value(s, k, row);
        if (detail[0] && nn < (int)sizeof(r->notes))
            nn += snprintf(r->notes + nn, sizeof(r->notes) - (size_t)nn,
                           "%s\t%s\n", vm_row_keys[row], detail);
        const char *text = val + strspn(val, " "); /* right-aligned */
        if (!isfinite(r->fig[row]) && text[0] && ns < (int)sizeof(r->shown))
            ns += snprintf(r->shown + ns, sizeof(r->shown) - (size_t)ns,
                           "%s\t%.7s\n", vm_row_keys[row], text);
        if (fault && nf < (int)sizeof(r->faults))
            nf += snprintf(r->faults + nf, sizeof(r->faults) - (size_t)nf,
                           "%s%s", nf ? " " : "", vm_row_keys[row]);
    }
}

static int put(struct record_values *vals, int item, const char *name,
               const struct vm_rec *r, int type, double num, const char *str)
{
    pmAtomValue v;
    if (type == PM_TYPE_STRING) {
        if (!str || !str[0])
            return 0;
        v.cp = (char *)str;
    } else if (!isfinite(num) || (type != PM_TYPE_DOUBLE && num < 0)) {
        return 0;
    } else if (type == PM_TYPE_U32) {
        v.ul = (uint32_t)num;
    } else {
        v.d = num;
    }
    return record_values_put(vals, pmi.make_id(REC_DOMAIN, CL_VM, item), name,
                             r->inst, r->iname, RECORD_VMS_MAX, type, &v);
}

/* Row x of the extras for r. */
static int put_extra(struct record_values *vals, int x, const struct vm_rec *r,
                     const struct session *s)
{
    const struct vm_model *vm = r->vm;
    const char *str = NULL;
    double num = NAN;
    switch (x) {
    case VX_KIND:
        str = vm_kind_name(vm->cur.id.kind);
        break;
    case VX_PID:
        num = vm->cur.id.pid;
        break;
    case VX_NVCPU:
        num = vm->have_prev ? vm->fig.nvcpu : NAN;
        break;
    case VX_GUEST:
        str = r->src > 0 ? s->model[r->src].name : NULL;
        break;
    case VX_JOINED:
        str = r->how;
        break;
    case VX_RUN_TIME:
        num = (double)vm->vcpu_run_total_ns / 1e9;
        break;
    case VX_WAIT_TIME:
        num = (double)vm->vcpu_wait_total_ns / 1e9;
        break;
    case VX_NOTES:
        str = r->notes;
        break;
    case VX_FAULTS:
        str = r->faults;
        break;
    case VX_READ_MONO:
        num = vm->cur.t;
        break;
    case VX_SHOWN:
        str = r->shown;
        break;
    case VX_VCPUS_TOLD:
        str = vm->cur.vcpu_how;
        break;
    }
    return put(vals, VX_ITEM0 + x, extras[x].name, r, extras[x].type, num, str);
}

int record_vms_put(struct record_vms *rv, struct record_values *vals,
                   const struct session *s, int src)
{
    static struct vm_rec recs[VM_MAX]; /* main thread only */
    int n = 0, sts = 0, count;
    int first = vm_view_first(s, src, &count);
    for (int k = first; k < first + count && n < VM_MAX; k++) {
        struct vm_rec *r = &recs[n];
        r->vm = vm_view_vm(s, k);
        if (!r->vm)
            continue;
        r->inst = instance_of(rv, r->vm, &sts);
        if (sts < 0)
            return sts;
        if (r->inst < 0)
            continue;
        r->iname = rv->vm[r->inst].name;
        fill(r, s, k);
        n++;
    }
    /* a metric's instances together */
    for (int row = 0; row < VM_ROW_COUNT && sts >= 0; row++) {
        char name[64];
        snprintf(name, sizeof(name), "parallax.vm.%s", vm_row_keys[row]);
        for (int i = 0; i < n && sts >= 0; i++)
            sts = put(vals, row, name, &recs[i], PM_TYPE_DOUBLE,
                      recs[i].fig[row], NULL);
    }
    for (int x = 0; x < VX_COUNT && sts >= 0; x++)
        for (int i = 0; i < n && sts >= 0; i++)
            sts = put_extra(vals, x, &recs[i], s);
    return sts;
}
