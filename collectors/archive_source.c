/* See archive_source.h: backend_archive_reader, which runs in the
 * archive reader's process (parallax_archive.c). The sampler fetches on the
 * session's grid; each fetch moves the replay clock on by the live time since
 * the last one times the speed and shows the newest position it has passed (a
 * position the clock skipped is not shown: rates then span two records,
 * as they would live). A paused or ended replay answers "again": no new
 * record, only where it stands. parallax's own recordings are read record
 * by record (PM_MODE_FORW), another logger's on a grid (PM_MODE_INTERP);
 * both through the same reader as a live pmcd (pcp_source.h), with the
 * fetch's timing read beside the table so the model sees each sample as
 * it was taken: the record's timestamp is the host's realtime at the
 * fetch's midpoint, parallax.fetch.rtt its length. */
#include "collectors/archive_source.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>

#include "base/clock.h"
#include "base/safe_text.h"
#include "collectors/archive_scan.h"
#include "collectors/archive_window.h"
#include "collectors/backend.h"
#include "collectors/pcp_source.h"
#include "core/record_table.h"
#include "core/vm_recorded.h"

#define SPEED_MIN 0.125
#define SPEED_MAX 64.0
#define GAP_STEPS 3 /* a pause in the recording longer is not waited out */

/* What each record says beside the table. */
enum extra {
    EX_RTT,
    EX_SOURCE_TIME,
    EX_HOST_REAL,
    EX_HOST_MONO,
    EX_STATE,
    EX_ERROR,
    EX_PMDA,
    EX_HELD,
    EX_COUNT
};
/* then the VMs' metrics (this host's archive: archive/record_vms.c): the
 * rows of their columns, then the extras */
#define EX_VM_ROW0   EX_COUNT
#define EX_VM_EXTRA0 (EX_VM_ROW0 + VM_ROW_COUNT)
#define EX_ALL       (EX_VM_EXTRA0 + VX_COUNT)

struct arch {
    void *pcp;
    char target[128];
    struct archive_index ix;
    int cur;        /* the position shown last, -1 before the first */
    int pending;    /* the position to show next (a jump, a step), or -1 */
    double clock;   /* the replay clock: recorded time now */
    double live_at; /* host monotonic time it was last moved */
    double speed;
    bool paused;
    bool jumped; /* pending is not the next position: rates restart */
    int lined;   /* the run a "run NAME" went to, until its end shows */
    char note[160];
    const char *names[EX_ALL];
    char vm_names[EX_ALL - EX_COUNT][48];
    double ex[EX_COUNT]; /* the record being read; NaN: not in it */
    char ex_error[160];
    int nvm; /* the VMs the record being read holds, by instance */
    int vm_inst[SAMPLE_MAX_VMS];
    struct vm_recorded vm[SAMPLE_MAX_VMS];
};

/* The VM of instance inst in the record being read (found, or added
 * named by the archive); NULL when the record holds too many. */
static struct vm_recorded *vm_of(struct arch *a, pmInDom indom, int inst)
{
    for (int i = 0; i < a->nvm; i++)
        if (a->vm_inst[i] == inst)
            return &a->vm[i];
    if (a->nvm == SAMPLE_MAX_VMS)
        return NULL;
    struct vm_recorded *v = &a->vm[a->nvm];
    vm_recorded_clear(v);
    char *name = NULL;
    if (pmNameInDom(indom, inst, &name) < 0 || !name)
        return NULL;
    safe_text_copy(v->name, sizeof(v->name), name, 0);
    free(name);
    a->vm_inst[a->nvm] = inst;
    return &a->vm[a->nvm++];
}

/* Value set k of the VMs' metrics (k from EX_VM_ROW0) into their VMs. */
static void decode_vm(struct arch *a, int k, const pmValueSet *vs,
                      const pmDesc *desc)
{
    for (int j = 0; j < vs->numval; j++) {
        struct vm_recorded *v = vm_of(a, desc->indom, vs->vlist[j].inst);
        pmAtomValue x;
        if (!v)
            continue;
        if (desc->type == PM_TYPE_STRING) {
            if (pmExtractValue(vs->valfmt, &vs->vlist[j], desc->type, &x,
                               PM_TYPE_STRING) < 0)
                continue;
            /* each field one line in the VM's text (core/vm_recorded.h) */
            switch (k - EX_VM_EXTRA0) {
            case VX_KIND:
                safe_text_copy(v->kind, sizeof(v->kind), x.cp, 0);
                break;
            case VX_GUEST:
                safe_text_copy(v->guest, sizeof(v->guest), x.cp, 0);
                break;
            case VX_JOINED:
                safe_text_copy(v->how, sizeof(v->how), x.cp, 0);
                break;
            case VX_NOTES:
                vm_recorded_set_notes(v, x.cp);
                break;
            case VX_SHOWN:
                vm_recorded_set_shown(v, x.cp);
                break;
            case VX_VCPUS_TOLD:
                safe_text_copy(v->told, sizeof(v->told), x.cp, 0);
                break;
            case VX_FAULTS:
                vm_recorded_set_faults(v, x.cp);
                break;
            }
            free(x.cp);
            continue;
        }
        if (pmExtractValue(vs->valfmt, &vs->vlist[j], desc->type, &x,
                           PM_TYPE_DOUBLE) < 0)
            continue;
        if (k < EX_VM_EXTRA0) {
            v->fig[k - EX_VM_ROW0] = x.d;
            continue;
        }
        switch (k - EX_VM_EXTRA0) {
        case VX_PID:
            v->pid = x.d >= 0 && x.d < 1e9 ? (int)x.d : -1;
            break;
        case VX_NVCPU:
            v->nvcpu = x.d >= 0 && x.d < 1e6 ? (int)x.d : -1;
            break;
        case VX_RUN_TIME:
            v->run_s = x.d;
            break;
        case VX_WAIT_TIME:
            v->wait_s = x.d;
            break;
        case VX_READ_MONO:
            v->read_mono = x.d;
            break;
        }
    }
}

/* The record's VMs into the sample's pool, one text each. */
static void put_vms(struct arch *a, struct sample *out)
{
    char text[VM_ROW_COUNT * (VM_RECORDED_NOTE + 64) + 1024];
    out->nvms = 0;
    out->nvms_held = a->nvm;
    for (int i = 0; i < a->nvm; i++) {
        int at = vm_recorded_format(&a->vm[i], text, sizeof(text)) > 0
                     ? sample_pool_add(out, text)
                     : -1;
        if (at >= 0)
            out->vm_at[out->nvms++] = at;
    }
}

static void decode_extra(void *arg, pmValueSet *const *vs, const pmDesc *desc,
                         const bool *known, struct sample *out)
{
    struct arch *a = arg;
    a->nvm = 0;
    for (int k = EX_VM_ROW0; k < EX_ALL; k++)
        if (known[k] && vs[k]->numval > 0 && desc[k].indom != PM_INDOM_NULL)
            decode_vm(a, k, vs[k], &desc[k]);
    put_vms(a, out);
    for (int k = 0; k < EX_COUNT; k++) {
        pmAtomValue v;
        if (!known[k] || vs[k]->numval <= 0)
            continue;
        if (k == EX_ERROR) {
            if (pmExtractValue(vs[k]->valfmt, &vs[k]->vlist[0], desc[k].type,
                               &v, PM_TYPE_STRING) >= 0) {
                snprintf(a->ex_error, sizeof(a->ex_error), "%s", v.cp);
                free(v.cp);
            }
        } else if (pmExtractValue(vs[k]->valfmt, &vs[k]->vlist[0], desc[k].type,
                                  &v, PM_TYPE_DOUBLE) >= 0) {
            a->ex[k] = v.d;
        }
    }
}

/* What the recording lacks, for the column: the table's rows it does not
 * hold, and the clock rows when no parallax recorded it. */
static void lacks(struct arch *a)
{
    int len = 0;
    for (int id = 0; id < METRIC_COUNT; id++)
        if (!pcp_source_has(a->pcp, id) && len < (int)sizeof(a->note) - 40)
            len +=
                snprintf(a->note + len, sizeof(a->note) - (size_t)len, "%s%s",
                         len ? ", " : "lacks ", metric_descs[id].label);
    if (!a->ix.ours)
        snprintf(a->note + len, sizeof(a->note) - (size_t)len,
                 "%sno clock rows: not recorded by parallax", len ? "; " : "");
}

static void arch_free(struct arch *a)
{
    if (a->pcp)
        pcp_source_close(a->pcp);
    archive_index_free(&a->ix);
    free(a);
}

/* PCP's "Missing archive file" and kin, said for the path. */
static void open_error(const char *target, const char *why, char *err,
                       size_t errlen)
{
    if (strstr(why, "none of parallax's metrics"))
        snprintf(err, errlen,
                 "%s: holds none of parallax's metrics (kernel.all.*, "
                 "parallax.*): not a recording of a host",
                 target);
    else
        snprintf(err, errlen, "%s: not a readable PCP archive (%s)", target,
                 why);
}

static void *arch_open(const char *target, char *err, size_t errlen)
{
    struct arch *a = calloc(1, sizeof(*a));
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(a->target, sizeof(a->target), "%s", target);
    a->names[EX_RTT] = record_source_names[RECORD_FETCH_RTT];
    a->names[EX_SOURCE_TIME] = record_source_names[RECORD_FETCH_SOURCE_TIME];
    a->names[EX_HOST_REAL] = record_source_names[RECORD_FETCH_HOST_REAL];
    a->names[EX_HOST_MONO] = record_source_names[RECORD_FETCH_HOST_MONO];
    a->names[EX_STATE] = record_source_names[RECORD_SRC_STATE];
    a->names[EX_ERROR] = record_source_names[RECORD_SRC_ERROR];
    a->names[EX_PMDA] = record_source_names[RECORD_SRC_PMDA];
    a->names[EX_HELD] = record_source_names[RECORD_TIME_PROBE_HELD];
    for (int k = EX_VM_ROW0; k < EX_ALL; k++) {
        char *name = a->vm_names[k - EX_COUNT];
        snprintf(name, sizeof(a->vm_names[0]), "parallax.vm.%s",
                 k < EX_VM_EXTRA0 ? vm_row_keys[k - EX_VM_ROW0]
                                  : vm_extra_keys[k - EX_VM_EXTRA0]);
        a->names[k] = name;
    }
    struct pcp_extra extra = {
        .names = a->names, .n = EX_ALL, .decode = decode_extra, .arg = a};
    char why[256];
    a->pcp =
        pcp_source_open(PM_CONTEXT_ARCHIVE, target, &extra, why, sizeof(why));
    if (!a->pcp) {
        open_error(target, why, err, errlen);
        arch_free(a);
        return NULL;
    }
    if (archive_scan(pcp_source_context(a->pcp), target, &a->ix, err, errlen) <
        0) {
        arch_free(a);
        return NULL;
    }
    int first; /* -S, -T, -O: where the replay starts, what it holds */
    if (archive_window_apply(pcp_source_context(a->pcp), &a->ix, target, &first,
                             err, errlen) < 0) {
        arch_free(a);
        return NULL;
    }
    lacks(a);
    a->ex[EX_PMDA] = NAN;
    a->cur = -1;
    a->pending = first;
    a->lined = -1;
    a->speed = 1;
    a->clock = archive_pos_time(&a->ix, first);
    a->live_at = clock_mono();
    return a;
}

/* The position to show now: the next one once the replay clock has
 * passed it; the newest passed when the next lies more than a fetch's
 * advance (`adv` s of recorded time) behind it: so every record shows
 * while the replay keeps up, and none holds it back when it cannot. */
static int reached(struct arch *a, double adv)
{
    const struct archive_index *ix = &a->ix;
    int k = a->cur;
    while (k + 1 < ix->npos && archive_pos_time(ix, k + 1) <= a->clock)
        k++;
    if (k > a->cur + 1 &&
        archive_pos_time(ix, k) - archive_pos_time(ix, a->cur + 1) <=
            adv + 1e-3)
        k = a->cur + 1;
    /* a pause in the recording (a logger stopped, a new boot) is skipped */
    if (k == a->cur && k + 1 < ix->npos && !a->paused &&
        archive_pos_time(ix, k + 1) - a->clock > GAP_STEPS * ix->step &&
        a->clock - archive_pos_time(ix, k) > ix->step) {
        k++;
        a->clock = archive_pos_time(ix, k);
    }
    return k;
}

static void position(const struct arch *a, struct replay_pos *p)
{
    p->on = true;
    p->at = archive_pos_time(&a->ix, a->cur < 0 ? 0 : a->cur);
    p->speed = a->paused ? 0 : a->speed;
    p->ended = a->cur == a->ix.npos - 1;
    snprintf(p->run, sizeof(p->run), "%s",
             a->lined >= 0 ? a->ix.runs[a->lined].name : "");
    snprintf(p->note, sizeof(p->note), "%s", a->note);
}

/* Reads position k into out. 0, 1 (it was down then), or -1. */
static int show(struct arch *a, int k, struct sample *out)
{
    const struct archive_index *ix = &a->ix;
    bool jump = a->jumped || ix->gap[k];
    struct timespec t = ix->pos[k];
    struct timespec step = {.tv_sec = (time_t)ix->step,
                            .tv_nsec = (long)(fmod(ix->step, 1) * 1e9)};
    if (ix->ours) { /* the record itself: from just before it */
        t.tv_nsec -= 1000;
        if (t.tv_nsec < 0) {
            t.tv_nsec += 1000000000L;
            t.tv_sec--;
        }
    }
    for (int i = 0; i < EX_COUNT; i++) /* recorded on change: carried on */
        if (i != EX_PMDA)
            a->ex[i] = NAN;
    a->ex_error[0] = '\0';
    pmUseContext(pcp_source_context(a->pcp));
    int sts = pmSetModeHighRes(ix->ours ? PM_MODE_FORW : PM_MODE_INTERP, &t,
                               ix->ours ? NULL : &step);
    if (sts < 0) {
        char msg[PM_MAXERRMSGLEN];
        snprintf(out->error, sizeof(out->error), "%s: %s", a->target,
                 pmErrStr_r(sts, msg, sizeof(msg)));
        return -1;
    }
    if (pcp_source_fetch(a->pcp, out) < 0)
        return -1;
    /* the host's clocks as the fetch saw them: its realtime (the record's
     * timestamp to the microsecond, whole in host_real) and, where
     * recorded, its monotonic clock, on which live rates are taken */
    double at = out->t_source;
    double rtt = isfinite(a->ex[EX_RTT]) ? a->ex[EX_RTT] : 0;
    double mid = isfinite(a->ex[EX_HOST_MONO]) ? a->ex[EX_HOST_MONO] : at;
    out->t_real = isfinite(a->ex[EX_HOST_REAL]) ? a->ex[EX_HOST_REAL] : at;
    out->t_before = mid - rtt / 2;
    out->t_after = mid + rtt / 2;
    out->t_source = a->ex[EX_SOURCE_TIME];
    if (isfinite(a->ex[EX_PMDA]))
        out->info.pmda = a->ex[EX_PMDA] > 0;
    out->have_held = isfinite(a->ex[EX_HELD]);
    out->held_share = a->ex[EX_HELD];
    a->cur = k;
    a->jumped = false;
    if (a->lined >= 0 && k >= a->ix.runs[a->lined].end)
        a->lined = -1;
    position(a, &out->replay);
    out->replay.restart = jump;
    if (a->ex[EX_STATE] == 2) { /* recorded while the source was down */
        snprintf(out->error, sizeof(out->error), "%s",
                 a->ex_error[0] ? a->ex_error : "down");
        return 1;
    }
    return 0;
}

static int arch_fetch(void *state, struct sample *out)
{
    struct arch *a = state;
    double now = clock_mono(), adv = 0;
    if (!a->paused && a->cur < a->ix.npos - 1)
        a->clock += adv = (now - a->live_at) * a->speed;
    a->live_at = now;
    bool asked = a->pending >= 0; /* a jump or a step: shown even if it
                                     lands where the replay is */
    int k = asked ? a->pending : reached(a, adv);
    a->pending = -1;
    if (k < 0 || (k == a->cur && !asked)) { /* nothing new */
        position(a, &out->replay);
        out->replay.again = true;
        return 0;
    }
    return show(a, k, out);
}

/* The first run of `name` (NULL: any) that starts after the position
 * shown, or with wrap, the first at all; -1 when none. */
static int next_run(const struct arch *a, const char *name, bool wrap)
{
    for (int pass = 0; pass < (wrap ? 2 : 1); pass++)
        for (int r = 0; r < a->ix.nruns; r++)
            if ((!name || strcmp(a->ix.runs[r].name, name) == 0) &&
                (pass == 1 || a->ix.runs[r].pos - 1 > a->cur))
                return r;
    return -1;
}

/* Puts the replay just before position k: the next fetch shows it. */
static void jump_to(struct arch *a, int k)
{
    k = k < 0 ? 0 : k >= a->ix.npos ? a->ix.npos - 1 : k;
    a->pending = k;
    a->jumped = k != a->cur + 1;
    a->clock = archive_pos_time(&a->ix, k);
}

static int arch_store(void *state, const char *name, const char *value,
                      char *msg, size_t msglen)
{
    struct arch *a = state;
    double x;
    int r;
    if (strcmp(name, ARCHIVE_CONTROL) != 0)
        return 0; /* what a live source would be asked: nothing to do here */
    if (strcmp(value, "pause") == 0) {
        a->paused = true;
    } else if (strcmp(value, "play") == 0) {
        a->paused = false;
        a->live_at = clock_mono();
    } else if (strcmp(value, "step") == 0) {
        a->paused = true;
        if (a->cur + 1 < a->ix.npos)
            jump_to(a, a->cur + 1);
    } else if (sscanf(value, "speed %lf", &x) == 1 && x >= SPEED_MIN &&
               x <= SPEED_MAX) {
        a->speed = x;
    } else if (strcmp(value, "next") == 0) {
        if ((r = next_run(a, NULL, false)) >= 0)
            jump_to(a, a->ix.runs[r].pos - 1);
    } else if (strncmp(value, "run ", 4) == 0) {
        if ((r = next_run(a, value + 4, true)) < 0) {
            snprintf(msg, msglen, "%s holds no run of %s", a->target,
                     value + 4);
            return -ENOENT;
        }
        jump_to(a, a->ix.runs[r].pos - 1);
        a->lined = r;
        a->paused = false;
        a->live_at = clock_mono();
    } else if (sscanf(value, "tail %lf", &x) == 1 && x >= 1) {
        a->paused = true;
        jump_to(a, a->ix.npos - (int)x);
    } else {
        snprintf(msg, msglen, "no replay control '%s'", value);
        return -EINVAL;
    }
    return 0;
}

static void arch_close(void *state)
{
    arch_free(state);
}

const struct backend backend_archive_reader = {
    .name = "archive",
    .global_init = pcp_source_global_init,
    .open = arch_open,
    .fetch = arch_fetch,
    .close = arch_close,
    .store = arch_store,
};
