/* See fleet_metrics.h. */
#include "fleet/fleet_metrics.h"

#include <string.h>

/* The PCP names of "A - B" entries live here: the table keeps the
 * expression, the fleet needs each side as a name of its own. */
static char diff_names[METRIC_COUNT][2][96];

/* The metrics the fleet screen's columns show (view/fleet_view.h;
 * test_fleet_model checks that each column's is here), and every CPU
 * state: a share is of the CPU time they all counted. */
static const enum metric_id polled[] = {
    METRIC_CPU_USER,   METRIC_CPU_SYS,  METRIC_CPU_NICE,  METRIC_CPU_IDLE,
    METRIC_CPU_IOWAIT, METRIC_CPU_IRQ,  METRIC_CPU_STEAL, METRIC_CTXSW,
    METRIC_INTR,       METRIC_RUNNABLE, METRIC_LOAD1,
};

bool fleet_metric_polled(enum metric_id id)
{
    for (size_t i = 0; i < sizeof(polled) / sizeof(polled[0]); i++)
        if (polled[i] == id)
            return true;
    return false;
}

static int add_name(struct fleet_metrics *m, const char *name, const char *inst,
                    bool text, enum metric_unit unit, enum fleet_use use)
{
    for (int i = 0; i < m->nnames; i++) {
        if (strcmp(m->names[i].name, name) != 0 ||
            !(inst ? m->names[i].inst && strcmp(inst, m->names[i].inst) == 0
                   : !m->names[i].inst))
            continue;
        if (use < m->names[i].use) /* the most frequent use wins */
            m->names[i].use = use;
        return i;
    }
    if (m->nnames == FLEET_NAMES_MAX)
        return -1;
    m->names[m->nnames] = (struct fleet_name){name, inst, text, unit, use};
    return m->nnames++;
}

/* Splits "A - B" into diff_names[id]; false for a plain name. */
static bool split(int id)
{
    const char *expr = metric_descs[id].pcp;
    const char *op = strstr(expr, " - ");
    if (!op || (size_t)(op - expr) >= sizeof(diff_names[id][0]) ||
        strlen(op + 3) >= sizeof(diff_names[id][1]))
        return false;
    memcpy(diff_names[id][0], expr, (size_t)(op - expr));
    diff_names[id][0][op - expr] = '\0';
    strcpy(diff_names[id][1], op + 3);
    return true;
}

static void build(struct fleet_metrics *m)
{
    m->nnames = 0;
    for (int id = 0; id < METRIC_COUNT; id++) {
        const struct metric_desc *d = &metric_descs[id];
        enum fleet_use use = fleet_metric_polled(id) ? FLEET_POLL : FLEET_PAIR;
        m->b[id] = -1;
        if (id == METRIC_SYSCALLS) {
            /* a read opens the agent's tracepoint counter, which doubles
             * the cost of every system call: a logger reading it every
             * second would slow the whole fleet down */
            m->a[id] = -1;
        } else if (split(id)) {
            m->a[id] =
                add_name(m, diff_names[id][0], d->inst, false, d->unit, use);
            m->b[id] =
                add_name(m, diff_names[id][1], d->inst, false, d->unit, use);
        } else if (strchr(d->pcp, ' ')) {
            m->a[id] = -1; /* another kind of expression: not read */
        } else {
            m->a[id] = add_name(m, d->pcp, d->inst, false, d->unit, use);
        }
    }
    m->anchor = m->a[METRIC_CPU_USER];
    m->release =
        add_name(m, "kernel.uname.release", NULL, true, MU_NONE, FLEET_INFO);
    m->ncpu = add_name(m, "hinv.ncpu", NULL, false, MU_COUNT, FLEET_INFO);
    m->physmem = add_name(m, "mem.physmem", NULL, false, MU_BYTE, FLEET_INFO);
}

const struct fleet_metrics *fleet_metrics(void)
{
    static struct fleet_metrics m;
    static bool built;
    if (!built) { /* first called before any thread starts */
        build(&m);
        built = true;
    }
    return &m;
}

static const struct {
    const char *units;
    enum metric_unit unit;
    double scale;
} unit_table[] = {
    {"millisec", MU_MSEC, 1},
    {"sec", MU_MSEC, 1e3},
    {"microsec", MU_MSEC, 1e-3},
    {"nanosec", MU_MSEC, 1e-6},
    {"byte", MU_BYTE, 1},
    {"Kbyte", MU_BYTE, 1024.0},
    {"Mbyte", MU_BYTE, 1048576.0},
    {"Gbyte", MU_BYTE, 1073741824.0},
    {"count", MU_COUNT, 1},
    {"none", MU_NONE, 1},
    {"", MU_NONE, 1},
    {"none", MU_COUNT, 1},
    {"", MU_COUNT, 1},
};

bool fleet_unit_scale(const char *units, enum metric_unit want, double *scale)
{
    for (size_t i = 0; i < sizeof(unit_table) / sizeof(unit_table[0]); i++)
        if (unit_table[i].unit == want &&
            strcmp(unit_table[i].units, units) == 0) {
            *scale = unit_table[i].scale;
            return true;
        }
    return false;
}
