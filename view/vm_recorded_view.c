/* See vm_recorded_view.h. A recorded figure is formatted as the live cell
 * formats its row (view/vm_view.c): the same number shows the same. */
#include "view/vm_recorded_view.h"

#include <math.h>
#include <stdio.h>

#include "view/fmt.h"
#include "view/view.h"

int vm_recorded_count(const struct session *s, int *held)
{
    int n = 0, h = 0;
    for (int i = 0; i < s->nsrc; i++)
        if (s->recorded[i] && s->model[i].vms) {
            n += s->model[i].nvms;
            h += s->model[i].nvms_held;
        }
    if (held)
        *held = h;
    return n;
}

const struct vm_recorded *vm_recorded_at(const struct session *s, int k,
                                         int *src)
{
    for (int i = 0; k >= 0 && i < s->nsrc; i++) {
        const struct source_model *m = &s->model[i];
        if (!s->recorded[i] || !m->vms)
            continue;
        if (k < m->nvms) {
            *src = i;
            return &m->vms[k];
        }
        k -= m->nvms;
    }
    *src = -1;
    return NULL;
}

void vm_recorded_header(const struct session *s, int src,
                        const struct vm_recorded *v, int row, char *buf,
                        size_t n)
{
    const char *from = src >= 0 ? s->model[src].name : "?";
    switch (row) {
    case 0:
        if (v->guest[0])
            snprintf(buf, n, "%s", v->guest);
        else
            vm_recorded_label(v, buf, n);
        break;
    case 1:
        snprintf(buf, n, "%s %d %dvcpu", v->kind[0] ? v->kind : "vm", v->pid,
                 v->nvcpu < 0 ? 0 : v->nvcpu);
        break;
    default: /* whose recording, and how it was joined then */
        if (v->how[0])
            snprintf(buf, n, "%s: joined by %s", from, v->how);
        else
            snprintf(buf, n, "%s: host side only", from);
        break;
    }
}

bool vm_recorded_cell(const struct vm_recorded *v, int row, char *val,
                      size_t vn, char *detail, size_t dn, bool utf8)
{
    double x = v->fig[row];
    char raw[32] = "n/a";
    snprintf(detail, dn, "%s", v->note[row]);
    if (isfinite(x)) {
        switch (row) {
        case VMR_RSS:
        case VMR_READ:
        case VMR_WRITE:
            fmt_value(raw, sizeof(raw), x, MF_BYTES);
            break;
        case VMR_CTXSW:
            fmt_value(raw, sizeof(raw), x, MF_SI);
            break;
        case VMR_COST:
        case VMR_RUN_CPU:
            view_factor_text(x, raw, sizeof(raw), utf8);
            break;
        default:
            fmt_value(raw, sizeof(raw), x, MF_PERCENT);
            break;
        }
    } else {
        /* what it showed instead; an archive from before .shown: n/a
         * where a detail says why, else nothing */
        snprintf(raw, sizeof(raw), "%s",
                 v->shown[row][0] ? v->shown[row]
                 : detail[0]      ? "n/a"
                                  : "");
    }
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    return v->faults >> row & 1;
}
