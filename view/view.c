/* See view.h. */
#include "view/view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/ratio.h"
#include "view/fit.h"
#include "view/fmt.h"
#include "view/view_replay.h"

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

/* The source's state in width cells: "down 12s, retry 4s", or "down 12s"
 * where that does not fit. */
static void state_text(const struct source_model *m, double now,
                       double interval, int width, char *buf, size_t n,
                       bool utf8)
{
    char full[64], shorter[64];
    switch (m->state) {
    case SRC_CONNECTING:
        snprintf(full, sizeof(full), "connecting");
        break;
    case SRC_LIVE:
        if (model_is_stale(m, now, interval))
            snprintf(full, sizeof(full), "stale %.0fs", now - m->last_ok);
        else
            snprintf(full, sizeof(full), "live %.1fms", m->fetch_ms);
        break;
    case SRC_DOWN:
        snprintf(full, sizeof(full), "down %.0fs, retry %.0fs",
                 now - m->down_since, fmax(0, m->retry_at - now));
        snprintf(shorter, sizeof(shorter), "down %.0fs", now - m->down_since);
        const char *cand[] = {full, shorter};
        fit_first(buf, n, width, cand, 2, utf8);
        return;
    }
    fit_text(buf, n, width, full, utf8);
}

/* "6.18" of "6.18.44-fc-123": the release up to its second dot. */
static void short_release(const char *rel, char *buf, size_t n)
{
    const char *dot = strchr(rel, '.');
    dot = dot ? strchr(dot + 1, '.') : NULL;
    int len = dot ? (int)(dot - rel) : (int)strlen(rel);
    snprintf(buf, n, "%.*s", len, rel);
}

#define HEADER_MAX        256 /* a header candidate: names, target, figures */
#define HEADER_CANDIDATES 8   /* forms of a header line, longest first */

/* Copies into buf the first candidate that fits width cells, or the last
 * one with an ellipsis; returns which one it took. */
static int first_fit(char *buf, size_t n, int width, char cand[][HEADER_MAX],
                     int k, bool utf8)
{
    const char *c[HEADER_CANDIDATES];
    for (int i = 0; i < k && i < HEADER_CANDIDATES; i++)
        c[i] = cand[i];
    int i = fit_first(buf, n, width, c, k, utf8);
    return i < k ? i : k - 1;
}

/* True when info_text's form `form` names the host. */
static bool info_names_host(int form)
{
    return form == 0 || form == 1 || form == 3;
}

/* What the source is, "myhost 6.1.0-18-amd64 EEVDF voluntary 2cpu 23G"
 * where it fits, else shorter: the release to its minor number, then no
 * host name (the backend line takes it), then the host again with the
 * scheduler without its preemption model (the model tells 6.12 from
 * 6.12-rt, so it goes after the host), then neither, then no scheduler,
 * then no memory, then only CPUs and memory. Returns the form. */
static int info_text(const struct source_model *m, int width, char *buf,
                     size_t n, bool utf8)
{
    const struct source_info *i = &m->info;
    char mem[16] = "?", cpus[16] = "?", rel[32], sched[48] = "", fam[24] = "";
    if (i->mem_bytes > 0)
        fmt_bytes(mem, sizeof(mem), i->mem_bytes);
    if (i->ncpu > 0)
        snprintf(cpus, sizeof(cpus), "%d", i->ncpu);
    if (i->sched[0] || i->preempt[0]) /* " EEVDF voluntary" */
        snprintf(sched, sizeof(sched), " %s%s%s", i->sched,
                 i->sched[0] && i->preempt[0] ? " " : "", i->preempt);
    if (i->sched[0])
        snprintf(fam, sizeof(fam), " %s", i->sched);
    const char *host = i->host[0] ? i->host : "?";
    const char *release = i->release[0] ? i->release : "?";
    short_release(release, rel, sizeof(rel));
    char cand[HEADER_CANDIDATES][HEADER_MAX];
    snprintf(cand[0], sizeof(cand[0]), "%s %s%s %scpu %s", host, release, sched,
             cpus, mem);
    snprintf(cand[1], sizeof(cand[1]), "%s %s%s %scpu %s", host, rel, sched,
             cpus, mem);
    snprintf(cand[2], sizeof(cand[2]), "%s%s %scpu %s", rel, sched, cpus, mem);
    snprintf(cand[3], sizeof(cand[3]), "%s %s%s %scpu %s", host, rel, fam, cpus,
             mem);
    snprintf(cand[4], sizeof(cand[4]), "%s%s %scpu %s", rel, fam, cpus, mem);
    snprintf(cand[5], sizeof(cand[5]), "%s %scpu %s", rel, cpus, mem);
    snprintf(cand[6], sizeof(cand[6]), "%s%s %scpu", rel, fam, cpus);
    snprintf(cand[7], sizeof(cand[7]), "%scpu %s", cpus, mem);
    return first_fit(buf, n, width, cand, HEADER_CANDIDATES, utf8);
}

/* How the source is read, "pcp 10.0.0.2:44321 +pmda" where it fits (with
 * the host name in place of "pcp" when the line above had no room for
 * it); else the target and the agent, then the host name (cut to fit) and
 * the agent, then the agent alone. For this host, the back-end, after the
 * host name where that is missing. */
static void backend_text(const struct source_model *m, int width, char *buf,
                         size_t n, bool utf8)
{
    const char *be = m->backend ? m->backend : m->target[0] ? "pcp" : "?";
    const char *tail = be; /* what must show: the agent, or the back-end */
    if (m->target[0])
        tail = m->state == SRC_LIVE || m->samples
                   ? (m->info.pmda ? "+pmda" : "no pmda")
                   : m->target;
    char info[HEADER_MAX], cand[5][HEADER_MAX];
    bool host_shown =
        m->state != SRC_DOWN &&
        info_names_host(info_text(m, width, info, sizeof(info), utf8));
    const char *host = host_shown ? "" : m->info.host;
    int k = 0, room = width - 1 - (int)strlen(tail);
    if (m->target[0] && host[0] && tail != m->target) /* who, then how */
        snprintf(cand[k++], sizeof(cand[0]), "%s %s %s", host, m->target, tail);
    if (m->target[0]) {
        snprintf(cand[k++], sizeof(cand[0]), "%s %s%s%s", be, m->target,
                 tail == m->target ? "" : " ", tail == m->target ? "" : tail);
        if (tail != m->target)
            snprintf(cand[k++], sizeof(cand[0]), "%s %s", m->target, tail);
    }
    if (host[0] && room >= 3)
        snprintf(cand[k++], sizeof(cand[0]), "%.*s %s", room, host, tail);
    snprintf(cand[k++], sizeof(cand[0]), "%s", tail);
    first_fit(buf, n, width, cand, k, utf8);
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
                        double interval, int width, char *buf, size_t n,
                        bool utf8)
{
    char text[HEADER_MAX];
    if (m->replay.on && (row == 3 || (row == 1 && m->state == SRC_LIVE))) {
        const char *dir = strrchr(m->target, '/'); /* a recorded column */
        if (row == 1)
            view_replay_state(m, text, sizeof(text));
        else
            snprintf(text, sizeof(text), "archive %s",
                     dir ? dir + 1 : m->target);
        fit_text(buf, n, width, text, utf8);
        return;
    }
    if (view_is_baseline(m) && (row == 1 || row == 3)) {
        const char *file = strrchr(m->target, '/');
        snprintf(text, sizeof(text), "%s",
                 row == 1 ? "saved run"
                 : file   ? file + 1
                          : m->target);
        fit_text(buf, n, width, text, utf8);
        return;
    }
    switch (row) {
    case 0:
        fit_text(buf, n, width, m->name, utf8);
        break;
    case 1:
        state_text(m, now, interval, width, buf, n, utf8);
        break;
    case 2: /* what it is; why not, while it is down */
        if (m->state == SRC_DOWN)
            fit_text(buf, n, width, down_reason(m), utf8);
        else
            info_text(m, width, buf, n, utf8);
        break;
    default:
        backend_text(m, width, buf, n, utf8);
        break;
    }
}

void view_metric_cell(const struct source_model *m, int id, char *val,
                      size_t vn, char *spark, size_t sn, int spark_w, bool utf8)
{
    const struct metric_desc *d = &metric_descs[id];
    char raw[32];
    fmt_value(raw, sizeof(raw), m->value[id], d->format);
    if (fit_cells(raw) > VIEW_FIGURE_W) /* 12345.67 load: 12.3k */
        fit_si(raw, sizeof(raw), VIEW_FIGURE_W, m->value[id], 0);
    fmt_right(val, vn, VIEW_VALUE_W, raw);
    double top = d->format == MF_PERCENT ? 100 : 0;
    fmt_spark(spark, sn, &m->hist[id], spark_w, top, utf8);
    /* a guest that counts no system calls says why in a word: its agent
     * says, or it has none */
    const char *why = m->info.syscalls_why[0] ? m->info.syscalls_why
                                              : view_no_agent(m, !m->target[0]);
    if (id == METRIC_SYSCALLS && !isfinite(m->value[id]) && why)
        snprintf(spark, sn, "%-*.*s", spark_w, spark_w, why);
}

double view_metric_ratio(const struct source_model *guest,
                         const struct source_model *host, int id)
{
    return ratio_oriented(guest->value[id], host->value[id],
                          metric_descs[id].ratio);
}

enum view_ratio_kind view_metric_ratio_kind(const struct source_model *guest,
                                            const struct source_model *host,
                                            int id)
{
    enum ratio_orientation ro = metric_descs[id].ratio;
    double g = guest->value[id], h = host->value[id];
    if (ro == RO_NONE || (isfinite(g) && isfinite(h) && (g == 0 || h == 0)))
        return VR_NONE;
    return ratio_judged(ro) ? VR_JUDGED : VR_PLAIN;
}

enum view_mark view_ratio_mark(double r, enum view_ratio_kind kind)
{
    if (!isfinite(r))
        return VM_PLAIN;
    if (kind != VR_JUDGED) /* a rate: its row's fault says (view_time_cell) */
        return VM_PLAIN;
    return r >= VIEW_BAD_RATIO       ? VM_BAD
           : r <= 1 / VIEW_BAD_RATIO ? VM_GOOD
                                     : VM_PLAIN;
}

void view_ratio_text(double r, enum view_ratio_kind kind, char *buf, size_t n)
{
    char raw[16];
    if (kind == VR_EMPTY)
        raw[0] = '\0';
    else if (kind == VR_NONE)
        strcpy(raw, "-");
    else if (kind == VR_RATE)
        fit_rate(raw, sizeof(raw), VIEW_RATIO_W - 1, r, 0);
    else
        fit_ratio(raw, sizeof(raw), VIEW_RATIO_W - 1, r); /* n/a if none */
    fmt_right(buf, n, VIEW_RATIO_W, raw);
}

void view_factor_text(double f, char *buf, size_t n, bool utf8)
{
    const char *x = utf8 ? "\u00d7" : "x";
    if (!isfinite(f))
        snprintf(buf, n, "%s?", x);
    else if (f >= 100)
        snprintf(buf, n, "%s%.0f", x, f);
    else if (f >= 10)
        snprintf(buf, n, "%s%.1f", x, f);
    else
        snprintf(buf, n, "%s%.2f", x, f);
}

void view_column_ratio_text(const struct source_model *m, double r,
                            enum view_ratio_kind kind, char *buf, size_t n)
{
    if (!view_is_baseline(m) || !isfinite(r) || kind == VR_RATE) {
        view_ratio_text(r, kind, buf, n);
        return;
    }
    char raw[16];
    double pct = (r - 1) * 100;
    if (pct < 99999.5)
        snprintf(raw, sizeof(raw), "%+.0f%%", pct);
    else
        snprintf(raw, sizeof(raw), ">1e5%%"); /* r > 0: never below -100% */
    fmt_right(buf, n, VIEW_RATIO_W, raw);
}

const char *view_column_ratio_header(const struct source_model *m, int row,
                                     bool utf8)
{
    bool base = view_is_baseline(m);
    if (row == 0)
        return base ? utf8 ? "\u0394%" : "d%" : utf8 ? "\u00d7" : "x";
    if (row == 1)
        return base ? "+ bad" : ">1 bad";
    return "";
}

/* The legend, in UTF-8; ASCII output gets ascii_of's replacements. */
static const char *const legend[] = {
    "\u00d7  guest/host: above 1 is worse in the guest (coloured beyond 1.5 "
    "or below 1/1.5), or busier on uncoloured rows (activity)",
    "\u0394% a saved run against this host: + is worse, or busier, there",
    "n/a a figure is missing on one side; - no ratio: none by design, or a "
    "side is 0; <0.01 is below 0.01, never 0",
    "clock drift: in ppm up to \u00b11%, beyond as the clock's rate "
    "(\u00d71.0100, \u00d7415); its \u00d7 column holds that rate",
    "!  a fault: clock offset beyond 1 s, drift beyond 500 ppm, CPU "
    "billed/wall outside 0.95-1.05 (coloured on screen)",
    "\u2026  the end of a cell cut to fit its column",
};

/* text with its UTF-8 signs in ASCII: × x, Δ d, ± +-, … ~. */
static void ascii_of(const char *text, char *buf, size_t n)
{
    static const struct {
        const char *utf8, *ascii;
    } subst[] = {
        {"\u00d7", "x"}, {"\u0394", "d"}, {"\u00b1", "+-"}, {"\u2026", "~"}};
    size_t o = 0;
    while (*text && o + 3 < n) {
        size_t i = 0, k = sizeof(subst) / sizeof(subst[0]);
        while (i < k && strncmp(text, subst[i].utf8, strlen(subst[i].utf8)))
            i++;
        if (i < k) {
            o += (size_t)snprintf(buf + o, n - o, "%s", subst[i].ascii);
            text += strlen(subst[i].utf8);
        } else {
            buf[o++] = *text++;
        }
    }
    buf[o] = '\0';
}

bool view_legend(int line, bool utf8, char *buf, size_t n)
{
    if (line < 0 || line >= (int)(sizeof(legend) / sizeof(legend[0])))
        return false;
    if (utf8)
        snprintf(buf, n, "%s", legend[line]);
    else
        ascii_of(legend[line], buf, n);
    return true;
}
