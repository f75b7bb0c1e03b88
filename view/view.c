/* See view.h. */
#include "view/view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "view/fmt.h"
#include "view/view_replay.h"
#include "core/jobs.h"
#include "core/ratio.h"

int view_columns(int nsrc, struct view_col *cols, int max)
{
    int n = 0;
    for (int i = 0; i < nsrc && n < max; i++) {
        cols[n++] = (struct view_col){VC_SOURCE, i};
        if (i > 0 && n < max)
            cols[n++] = (struct view_col){VC_RATIO, i};
    }
    return n;
}

static void state_text(const struct source_model *m, double now,
                       double interval, char *buf, size_t n)
{
    switch (m->state) {
    case SRC_CONNECTING:
        snprintf(buf, n, "connecting");
        break;
    case SRC_LIVE:
        if (model_is_stale(m, now, interval))
            snprintf(buf, n, "stale %.0fs", now - m->last_ok);
        else
            snprintf(buf, n, "live %.1fms", m->fetch_ms);
        break;
    case SRC_DOWN:
        snprintf(buf, n, "down %.0fs, retry %.0fs", now - m->down_since,
                 fmax(0, m->retry_at - now));
        break;
    }
}

/* "6.18" of "6.18.44-fc-123": the release up to its second dot. */
static void short_release(const char *rel, char *buf, size_t n)
{
    const char *dot = strchr(rel, '.');
    dot = dot ? strchr(dot + 1, '.') : NULL;
    int len = dot ? (int)(dot - rel) : (int)strlen(rel);
    snprintf(buf, n, "%.*s", len, rel);
}

#define HEADER_MAX 256 /* a header candidate: names, target, figures */

/* Copies into buf the first candidate that fits width cells (the header
 * texts are ASCII), or the last one cut; returns which one it took. */
static int first_fit(char *buf, size_t n, int width, char cand[][HEADER_MAX],
                     int k)
{
    int i = 0;
    while (i < k - 1 && (int)strlen(cand[i]) > width)
        i++;
    snprintf(buf, n, "%.*s", width > 0 ? width : 0, cand[i]);
    return i;
}

#define INFO_WITH_HOST 2 /* info_text's first candidates name the host */

/* What the source is, "myhost 6.1.0-18-amd64 2cpu 23G" where it fits,
 * else shorter: the release to its minor number, then no host name (the
 * backend line takes it), then only CPUs and memory. Returns the form. */
static int info_text(const struct source_model *m, int width, char *buf,
                     size_t n)
{
    const struct source_info *i = &m->info;
    char mem[16] = "?", cpus[16] = "?", rel[32];
    if (i->mem_bytes > 0)
        fmt_bytes(mem, sizeof(mem), i->mem_bytes);
    if (i->ncpu > 0)
        snprintf(cpus, sizeof(cpus), "%d", i->ncpu);
    const char *host = i->host[0] ? i->host : "?";
    const char *release = i->release[0] ? i->release : "?";
    short_release(release, rel, sizeof(rel));
    char cand[4][HEADER_MAX];
    snprintf(cand[0], sizeof(cand[0]), "%s %s %scpu %s", host, release, cpus,
             mem);
    snprintf(cand[1], sizeof(cand[1]), "%s %s %scpu %s", host, rel, cpus, mem);
    snprintf(cand[2], sizeof(cand[2]), "%s %scpu %s", rel, cpus, mem);
    snprintf(cand[3], sizeof(cand[3]), "%scpu %s", cpus, mem);
    return first_fit(buf, n, width, cand, 4);
}

/* How the source is read, "pcp 10.0.0.2:44321 +pmda" where it fits; else
 * the target and the agent, then the host name (when the line above had
 * no room for it, cut to fit) and the agent, then the agent alone. For
 * this host, the back-end, after the host name where that is missing. */
static void backend_text(const struct source_model *m, int width, char *buf,
                         size_t n)
{
    const char *be = m->backend ? m->backend : m->target[0] ? "pcp" : "?";
    const char *tail = be; /* what must show: the agent, or the back-end */
    if (m->target[0])
        tail = m->state == SRC_LIVE || m->samples
                   ? (m->info.pmda ? "+pmda" : "no pmda")
                   : m->target;
    char info[HEADER_MAX], cand[4][HEADER_MAX];
    bool host_shown = m->state != SRC_DOWN &&
                      info_text(m, width, info, sizeof(info)) < INFO_WITH_HOST;
    const char *host = host_shown ? "" : m->info.host;
    int k = 0, room = width - 1 - (int)strlen(tail);
    if (m->target[0]) {
        snprintf(cand[k++], sizeof(cand[0]), "%s %s%s%s", be, m->target,
                 tail == m->target ? "" : " ", tail == m->target ? "" : tail);
        if (tail != m->target)
            snprintf(cand[k++], sizeof(cand[0]), "%s %s", m->target, tail);
    }
    if (host[0] && room >= 3)
        snprintf(cand[k++], sizeof(cand[0]), "%.*s %s", room, host, tail);
    snprintf(cand[k++], sizeof(cand[0]), "%s", tail);
    first_fit(buf, n, width, cand, k);
}

/* Why the source is down; for a recorded column the cause alone when the
 * error names its archive first (the row below names the archive). */
static const char *down_reason(const struct source_model *m)
{
    size_t len = strlen(m->target);
    const char *cause = len ? strstr(m->error, ": ") : NULL;
    if (m->replay.on && cause && strncmp(m->error, m->target, len) == 0)
        return cause + 2;
    return m->error;
}

bool view_is_baseline(const struct source_model *m)
{
    return m->backend && strcmp(m->backend, "baseline") == 0;
}

void view_source_header(const struct source_model *m, int row, double now,
                        double interval, int width, char *buf, size_t n)
{
    if (m->replay.on && (row == 3 || (row == 1 && m->state == SRC_LIVE))) {
        const char *dir = strrchr(m->target, '/'); /* a recorded column */
        if (row == 1)
            view_replay_state(m, buf, n);
        else
            snprintf(buf, n, "archive %s", dir ? dir + 1 : m->target);
        return;
    }
    if (view_is_baseline(m) && (row == 1 || row == 3)) {
        const char *file = strrchr(m->target, '/');
        snprintf(buf, n, "%s",
                 row == 1 ? "saved run"
                 : file   ? file + 1
                          : m->target);
        return;
    }
    switch (row) {
    case 0:
        snprintf(buf, n, "%s", m->name);
        break;
    case 1:
        state_text(m, now, interval, buf, n);
        break;
    case 2: /* what it is; why not, while it is down */
        if (m->state == SRC_DOWN)
            snprintf(buf, n, "%s", down_reason(m));
        else
            info_text(m, width, buf, n);
        break;
    default:
        backend_text(m, width, buf, n);
        break;
    }
}

void view_metric_cell(const struct source_model *m, int id, char *val,
                      size_t vn, char *spark, size_t sn, int spark_w, bool utf8)
{
    const struct metric_desc *d = &metric_descs[id];
    char raw[32];
    fmt_value(raw, sizeof(raw), m->value[id], d->format);
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    double top = d->format == MF_PERCENT ? 100 : 0;
    fmt_spark(spark, sn, &m->hist[id], spark_w, top, utf8);
}

double view_metric_ratio(const struct source_model *guest,
                         const struct source_model *host, int id)
{
    return ratio_oriented(guest->value[id], host->value[id],
                          metric_descs[id].ratio);
}

void view_ratio_text(double r, char *buf, size_t n)
{
    char raw[16];
    if (!isfinite(r))
        strcpy(raw, "-");
    else if (r >= 100)
        snprintf(raw, sizeof(raw), "%.0f", r);
    else if (r >= 10)
        snprintf(raw, sizeof(raw), "%.1f", r);
    else
        snprintf(raw, sizeof(raw), "%.2f", r);
    fmt_right(buf, n, VIEW_RATIO_W, raw);
}

void view_job_cell(const struct jobs *j, int src, int w, char *val, size_t vn,
                   char *detail, size_t dn, bool utf8)
{
    const struct job_cell *c = jobs_cell(j, src, w);
    const char *unit = j->wl[w]->unit;
    char raw[32] = "";
    double fig = jobs_figure(c);
    if (isfinite(fig))
        fmt_value(raw, sizeof(raw), fig, MF_SI);
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    switch (c->state) {
    case JOB_IDLE:
        if (dn)
            detail[0] = '\0';
        break;
    case JOB_RUNNING:
    case JOB_STOPPING:
        snprintf(detail, dn, "%s %d/%d %s",
                 c->state == JOB_RUNNING ? ">" : "stop", c->repeat + 1,
                 c->repeats, unit);
        break;
    case JOB_FAILED:
        snprintf(detail, dn, "failed: %s", c->note);
        break;
    case JOB_DONE:
    case JOB_STOPPED:
        if (isfinite(c->stats.ci95)) {
            char ci[32];
            fmt_value(ci, sizeof(ci), c->stats.ci95, MF_SI);
            snprintf(detail, dn, "%s%s %s", utf8 ? "\u00b1" : "+-", ci, unit);
        } else {
            snprintf(detail, dn, "%s", unit);
        }
        break;
    }
}

double view_job_ratio(const struct jobs *j, int guest, int w)
{
    const struct job_cell *g = jobs_cell(j, guest, w), *h = jobs_cell(j, 0, w);
    /* only finished figures: a live one against a median would drift */
    if (g->stats.n == 0 || h->stats.n == 0)
        return NAN;
    return ratio_oriented(g->stats.median, h->stats.median,
                          j->wl[w]->better == WL_LOWER_IS_BETTER
                              ? RO_HIGHER_WORSE
                              : RO_LOWER_WORSE);
}

double view_job_index(const struct jobs *j, int guest)
{
    double r[JOBS_MAX_WL];
    for (int w = 0; w < j->nwl; w++)
        r[w] = view_job_ratio(j, guest, w);
    return ratio_geomean(r, j->nwl);
}

const char *const time_row_labels[TIME_ROW_COUNT] = {
#define TIME_LABEL(id, label) [id] = label,
    TIME_ROWS(TIME_LABEL)
#undef TIME_LABEL
};

#define BILLED_LO 0.95 /* CPU billed/wall outside this band is flagged */
#define BILLED_HI 1.05

static double billed_ratio(const struct source_model *m)
{
    const struct probe_sample *p = &m->probe;
    if (!p->count || !(p->spin_wall > 0))
        return NAN;
    return p->spin_cpu / p->spin_wall;
}

void view_time_cell(const struct source_model *m, bool is_host, int row,
                    char *val, size_t vn, char *detail, size_t dn, bool utf8)
{
    const char *pm = utf8 ? "\u00b1" : "+-";
    struct clock_fit f;
    clock_model_fit(&m->clock, &f);
    char raw[32] = "n/a";
    detail[0] = '\0';
    switch (row) {
    case TR_OFFSET:
        if (is_host)
            snprintf(raw, sizeof(raw), "-");
        else if (f.ok) {
            snprintf(raw, sizeof(raw), "%+.1fms", f.offset * 1e3);
            snprintf(detail, dn, "%s%.1fms", pm, f.offset_err * 1e3);
        } else if (m->state == SRC_LIVE)
            snprintf(detail, dn, "fitting");
        break;
    case TR_DRIFT:
        if (is_host)
            snprintf(raw, sizeof(raw), "-");
        else if (f.ok) {
            snprintf(raw, sizeof(raw), "%+.0f", f.drift_ppm);
            snprintf(detail, dn, "%s%.0f ppm", pm, f.drift_err_ppm);
        }
        break;
    case TR_SLEEP:
        if (m->probe.count) {
            snprintf(raw, sizeof(raw), "%.2fms", m->probe.sleep_took * 1e3);
            double host = clock_model_host_duration(&f, m->probe.sleep_took);
            if (!is_host && isfinite(host))
                snprintf(detail, dn, "host saw %.2fms", host * 1e3);
        }
        break;
    case TR_BILLED: {
        double r = billed_ratio(m);
        if (isfinite(r)) {
            snprintf(raw, sizeof(raw), "%.2f", r);
            if (r < BILLED_LO || r > BILLED_HI)
                snprintf(detail, dn, "off: not %.2f-%.2f", BILLED_LO,
                         BILLED_HI);
        }
        break;
    }
    }
    fmt_right(val, vn, VIEW_VALUE_W, raw);
}

double view_time_ratio(const struct source_model *guest,
                       const struct source_model *host, int row)
{
    if (row != TR_SLEEP || !guest->probe.count || !host->probe.count)
        return NAN;
    return ratio_oriented(guest->probe.sleep_took, host->probe.sleep_took,
                          RO_HIGHER_WORSE);
}

void view_column_ratio_text(const struct source_model *m, double r, char *buf,
                            size_t n)
{
    if (!view_is_baseline(m) || !isfinite(r)) {
        view_ratio_text(r, buf, n);
        return;
    }
    char raw[16];
    snprintf(raw, sizeof(raw), "%+.0f%%", (r - 1) * 100);
    fmt_right(buf, n, VIEW_RATIO_W, raw);
}

const char *view_column_ratio_header(const struct source_model *m, bool utf8)
{
    if (view_is_baseline(m))
        return utf8 ? "\u0394%" : "d%";
    return utf8 ? "\u00d7" : "x";
}
