/* See fleet_view.h. "Worst" is what the column's badness says: a ratio or
 * a share is worse the higher it is, a drift the further from zero, an
 * offset by how far from zero it certainly is (its size less its
 * uncertainty). Rows without a figure sort last either way. */
#include "view/fleet_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ratio.h"
#include "view/fmt.h"
#include "workloads/registry.h"

const struct fleet_col_desc fleet_cols[FC_COUNT] = {
#define FLEET_COL_DESC(id, h, ha, w, k, m)                                     \
    [id] = {                                                                   \
        .header = h, .header_ascii = ha, .width = w, .kind = k, .metric = m},
    FLEET_COLUMNS(FLEET_COL_DESC)
#undef FLEET_COL_DESC
};

bool fleet_col_numeric(enum fleet_col c)
{
    switch (fleet_cols[c].kind) {
    case FCK_NAME:
    case FCK_HOST:
    case FCK_STATE:
    case FCK_KERNEL:
    case FCK_VARIANT:
    case FCK_RUN:
        return false;
    default:
        return true;
    }
}

void fleet_view_init(struct fleet_view *v)
{
    memset(v, 0, sizeof(*v));
    v->sort = FC_DRIFT;
    v->wl = -1;
}

static bool matches(const struct fleet_view *v, const struct fleet_model *m,
                    int i, bool guests_only)
{
    const struct fleet_source *s = &m->src[i];
    if (!s->present)
        return false;
    if (guests_only && s->lab.role == FLEET_HOST)
        return false;
    return fleet_filter_match(&v->filter, s);
}

/* The workload ratio of source i for registry workload w: against its
 * host's result, turned so that > 1 is worse in the guest. */
double fleet_wl_ratio(const struct fleet_model *m, int i, int w)
{
    const struct fleet_source *s = &m->src[i];
    const struct fleet_result *g = fleet_result(m, i, w);
    const struct fleet_result *h =
        s->host >= 0 ? fleet_result(m, s->host, w) : NULL;
    if (!g || !h)
        return NAN;
    return ratio_oriented(g->median, h->median,
                          workload_registry[w]->better == WL_LOWER_IS_BETTER
                              ? RO_HIGHER_WORSE
                              : RO_LOWER_WORSE);
}

double fleet_cell_number(const struct fleet_view *v,
                         const struct fleet_model *m, int i, enum fleet_col c)
{
    const struct fleet_source *s = &m->src[i];
    const struct fleet_col_desc *d = &fleet_cols[c];
    switch (d->kind) {
    case FCK_BUSY:
        return s->value[METRIC_CPU_USER] + s->value[METRIC_CPU_SYS];
    case FCK_FIGURE:
        return s->value[d->metric];
    case FCK_RATIO:
        return fleet_metric_ratio(m, i, d->metric);
    case FCK_WL:
        return v->wl >= 0 ? fleet_wl_ratio(m, i, v->wl) : NAN;
    case FCK_INDEX: {
        double r[FLEET_WL_MAX];
        int n = 0;
        for (int w = 0; w < FLEET_WL_MAX && workload_registry[w]; w++)
            r[n++] = fleet_wl_ratio(m, i, w);
        return ratio_geomean(r, n);
    }
    case FCK_DIVERGE: {
        const struct fleet_result *g =
            v->wl >= 0 ? fleet_result(m, i, v->wl) : NULL;
        return g ? g->diverge : NAN;
    }
    case FCK_OFFSET:
        return s->offset;
    case FCK_DRIFT:
        return s->drift_ppm;
    default:
        return NAN;
    }
}

/* How bad a number is: larger is worse. */
static double badness(const struct fleet_model *m, int i, enum fleet_col c,
                      double x)
{
    if (!isfinite(x))
        return NAN;
    if (fleet_cols[c].kind == FCK_OFFSET) /* the part that is certain */
        return fmax(0, fabs(x) - m->src[i].offset_res);
    if (fleet_cols[c].kind == FCK_DRIFT)
        return fabs(x);
    if (fleet_cols[c].kind == FCK_DIVERGE)
        return fabs(x - 1); /* 1 is true time */
    return x;
}

/* The text a text column sorts by. */
static const char *sort_text(const struct fleet_model *m, int i,
                             enum fleet_col c)
{
    const struct fleet_source *s = &m->src[i];
    switch (fleet_cols[c].kind) {
    case FCK_HOST:
        return s->lab.host;
    case FCK_KERNEL:
        return s->release;
    case FCK_VARIANT:
        return s->lab.variant;
    case FCK_STATE:
        return fleet_state_name(s->state);
    default:
        return s->lab.name;
    }
}

/* qsort has no context argument: the build sorts one view at a time. */
static struct {
    const struct fleet_view *v;
    const struct fleet_model *m;
    double *key; /* per model index */
} sorting;

static int cmp_rows(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    const struct fleet_view *v = sorting.v;
    const struct fleet_model *m = sorting.m;
    int r = 0;
    if (fleet_col_numeric(v->sort)) {
        double x = sorting.key[a], y = sorting.key[b];
        if (isnan(x) != isnan(y))
            return isnan(x) ? 1 : -1; /* no figure: last, always */
        if (!isnan(x))
            r = (x < y) - (x > y); /* worst first */
    } else {
        r = strcmp(sort_text(m, a, v->sort), sort_text(m, b, v->sort));
    }
    if (v->reverse)
        r = -r;
    return r ? r : strcmp(m->src[a].lab.name, m->src[b].lab.name);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void fleet_dist_compute(double *bad, const double *x, const int *src, int n,
                        struct fleet_dist *d, int *worst, int k)
{
    d->n = 0;
    d->median = d->p95 = d->worst = NAN;
    d->worst_src = -1;
    for (int j = 0; j < k; j++)
        worst[j] = -1;
    /* the k worst, by insertion; then the badness alone, sorted */
    for (int i = 0; i < n; i++) {
        if (!isfinite(bad[i]))
            continue;
        for (int j = 0; j < k; j++) {
            if (worst[j] >= 0 && bad[worst[j]] >= bad[i])
                continue;
            memmove(worst + j + 1, worst + j,
                    sizeof(*worst) * (size_t)(k - j - 1));
            worst[j] = i;
            break;
        }
    }
    if (k > 0 && worst[0] >= 0) {
        d->worst = x[worst[0]];
        d->worst_src = src[worst[0]];
    }
    for (int j = 0; j < k; j++)
        worst[j] = worst[j] >= 0 ? src[worst[j]] : -1;
    for (int i = 0; i < n; i++)
        if (isfinite(bad[i]))
            bad[d->n++] = bad[i];
    if (d->n == 0)
        return;
    qsort(bad, (size_t)d->n, sizeof(*bad), cmp_double);
    d->median =
        d->n % 2 ? bad[d->n / 2] : (bad[d->n / 2 - 1] + bad[d->n / 2]) / 2;
    int r = (int)ceil(0.95 * d->n) - 1; /* nearest rank */
    d->p95 = bad[r < 0 ? 0 : r];
}

/* Column c's distribution over the rows (by badness; the worst signed). */
static void distribution(struct fleet_view *v, const struct fleet_model *m,
                         enum fleet_col c, double *bad, double *x)
{
    for (int r = 0; r < v->nrows; r++) {
        x[r] = fleet_cell_number(v, m, v->row[r], c);
        bad[r] = badness(m, v->row[r], c, x[r]);
    }
    int worst;
    fleet_dist_compute(bad, x, v->row, v->nrows, &v->dist[c], &worst, 1);
}

void fleet_view_build(struct fleet_view *v, const struct fleet_model *m,
                      const struct fleet_run *r)
{
    (void)r;
    if (m->n > v->cap) {
        int *row = realloc(v->row, sizeof(*row) * (size_t)m->n);
        if (!row)
            return;
        v->row = row;
        v->cap = m->n;
    }
    /* guests, unless the filter asks for a role or there are none */
    bool guests_only = !fleet_filter_has_role(&v->filter) && m->nguests > 0;
    v->nrows = 0;
    for (int i = 0; i < m->n; i++)
        if (matches(v, m, i, guests_only))
            v->row[v->nrows++] = i;
    size_t len = (size_t)(m->n > 0 ? m->n : 1);
    double *work = malloc(sizeof(double) * len * 2);
    if (!work)
        return;
    for (int c = 0; c < FC_COUNT; c++)
        if (fleet_col_numeric(c))
            distribution(v, m, c, work, work + len);
        else
            v->dist[c] = (struct fleet_dist){.worst_src = -1};
    if (fleet_col_numeric(v->sort) && m->n > 0) {
        for (int k = 0; k < v->nrows; k++) {
            int i = v->row[k];
            work[i] =
                badness(m, i, v->sort, fleet_cell_number(v, m, i, v->sort));
        }
    }
    sorting.v = v;
    sorting.m = m;
    sorting.key = work;
    if (v->nrows > 1) /* no rows yet: v->row may still be NULL */
        qsort(v->row, (size_t)v->nrows, sizeof(*v->row), cmp_rows);
    free(work);
}

/* A number as a column shows it. */
static void number_text(enum fleet_col c, double x, double res, char *buf,
                        size_t n)
{
    if (!isfinite(x)) {
        snprintf(buf, n, "-");
        return;
    }
    switch (fleet_cols[c].kind) {
    case FCK_BUSY:
    case FCK_FIGURE:
        fmt_value(buf, n, x, MF_PERCENT);
        break;
    case FCK_OFFSET:
        /* bounds that take zero in: only their width is known */
        if (isfinite(res) && fabs(x) <= res)
            snprintf(buf, n, res < 9.95 ? "±%.2f" : "±%.0f", res);
        else
            snprintf(buf, n, fabs(x) < 9.95 ? "%+.2f" : "%+.0f", x);
        break;
    case FCK_DRIFT:
        snprintf(buf, n, "%+.0f", x);
        break;
    case FCK_DIVERGE:
        snprintf(buf, n, "%.3f", x);
        break;
    default: /* ratios: two or three significant digits */
        snprintf(buf, n,
                 fabs(x) < 10    ? "%.2f"
                 : fabs(x) < 100 ? "%.1f"
                                 : "%.0f",
                 x);
        break;
    }
}

/* An age in whole seconds, minutes or hours. */
static void age_text(double s, char *buf, size_t n)
{
    if (s < 120)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 7200)
        snprintf(buf, n, "%.0fm", s / 60);
    else
        snprintf(buf, n, "%.0fh", s / 3600);
}

void fleet_cell_text(const struct fleet_view *v, const struct fleet_model *m,
                     const struct fleet_run *r, int i, enum fleet_col c,
                     double now, char *buf, size_t n)
{
    const struct fleet_source *s = &m->src[i];
    char age[16];
    switch (fleet_cols[c].kind) {
    case FCK_NAME:
        snprintf(buf, n, "%s", s->lab.name);
        break;
    case FCK_HOST:
        if (s->lab.role == FLEET_HOST)
            snprintf(buf, n, "(host)");
        else if (s->host >= 0)
            snprintf(buf, n, "%s", s->lab.host);
        else if (s->lab.host[0]) /* named, but not among the sources */
            snprintf(buf, n, "%s?", s->lab.host);
        else
            snprintf(buf, n, "-");
        break;
    case FCK_STATE:
        if (s->state == FLEET_STALE || s->state == FLEET_LATE) {
            age_text(now - s->seen_at, age, sizeof(age));
            snprintf(buf, n, "%s %s", fleet_state_name(s->state), age);
        } else {
            snprintf(buf, n, "%s", fleet_state_name(s->state));
        }
        break;
    case FCK_KERNEL:
        snprintf(buf, n, "%s", s->release[0] ? s->release : "-");
        break;
    case FCK_VARIANT:
        snprintf(buf, n, "%s", s->lab.variant[0] ? s->lab.variant : "-");
        break;
    case FCK_RUN: {
        const struct fleet_member *f = r ? fleet_run_member(r, i) : NULL;
        if (f)
            fleet_member_text(r, f, buf, n);
        else
            snprintf(buf, n, "-");
        break;
    }
    default:
        number_text(c, fleet_cell_number(v, m, i, c), s->offset_res, buf, n);
        break;
    }
}

void fleet_dist_text(const struct fleet_view *v, enum fleet_col c, int which,
                     char *buf, size_t n)
{
    const struct fleet_dist *d = &v->dist[c];
    buf[0] = '\0';
    if (!fleet_col_numeric(c))
        return;
    double x = which == 0 ? d->median : which == 1 ? d->p95 : d->worst;
    /* median and p95 are of the badness: sizes for offset and drift */
    if (which < 2 && fleet_cols[c].kind == FCK_DIVERGE && isfinite(x))
        x += 1;
    number_text(c, x, NAN, buf, n);
}

bool fleet_view_mark(struct fleet_view *v, int i, bool on)
{
    if (i >= v->marked_cap) {
        int cap = i + 64;
        bool *p = realloc(v->marked, sizeof(*p) * (size_t)cap);
        if (!p)
            return false;
        memset(p + v->marked_cap, 0,
               sizeof(*p) * (size_t)(cap - v->marked_cap));
        v->marked = p;
        v->marked_cap = cap;
    }
    v->nmarked += on - v->marked[i];
    v->marked[i] = on;
    return true;
}

bool fleet_view_marked(const struct fleet_view *v, int i)
{
    return i < v->marked_cap && v->marked[i];
}

int fleet_view_chosen(const struct fleet_view *v, int *out, int max)
{
    int n = 0;
    for (int pass = 0; pass < 2 && n == 0; pass++)
        for (int r = 0; r < v->nrows && n < max; r++)
            if (pass == 1 || fleet_view_marked(v, v->row[r]))
                out[n++] = v->row[r];
    return n;
}

void fleet_view_summary(const struct fleet_view *v, const struct fleet_model *m,
                        const struct fleet_run *r, double now, char *buf,
                        size_t n)
{
    char age[16];
    if (m->link == FLEET_LINK_CONNECTING) {
        snprintf(buf, n, "pmproxy %s: %s", m->url,
                 m->note[0] ? m->note : "connecting");
        return;
    }
    if (m->link == FLEET_LINK_DOWN) {
        age_text(now - m->down_since, age, sizeof(age));
        snprintf(buf, n, "no fleet data for %s: %s (pmproxy %s)", age, m->error,
                 m->url);
        return;
    }
    size_t len = (size_t)snprintf(
        buf, n,
        "hosts %d, guests %d, live %d, late %d, shown %d%s%s; poll %.0f ms",
        m->nhosts, m->nguests, m->nlive, m->nlate, v->nrows,
        v->filter_text[0] ? " by " : "", v->filter_text, m->poll_ms);
    if (r && r->m && len < n) {
        struct fleet_run_counts c;
        fleet_run_count(r, &c);
        len += (size_t)snprintf(
            buf + len, n - len,
            "; run %s: %d running, %d done, %d failed, %d queued", r->what,
            c.active, c.done, c.failed, c.queued);
    }
    if (m->note[0] && len < n)
        snprintf(buf + len, n - len, "; %s", m->note);
}

void fleet_view_free(struct fleet_view *v)
{
    free(v->row);
    free(v->marked);
    memset(v, 0, sizeof(*v));
}
