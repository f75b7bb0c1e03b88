/* See view.h. */
#include "core/view.h"

#include <stdio.h>

#include "core/fmt.h"

void view_source_title(const struct source_model *m, char *buf, size_t n)
{
    switch (m->state) {
    case SRC_CONNECTING:
        snprintf(buf, n, "%s (connecting)", m->name);
        break;
    case SRC_LIVE:
        snprintf(buf, n, "%s (live, %.1f ms)", m->name, m->fetch_ms);
        break;
    case SRC_DOWN:
        snprintf(buf, n, "%s (down: %s)", m->name, m->error);
        break;
    }
}

void view_source_info(const struct source_model *m, char *buf, size_t n)
{
    const struct source_info *i = &m->info;
    char mem[16] = "?";
    if (i->mem_bytes > 0)
        fmt_bytes(mem, sizeof(mem), i->mem_bytes);
    char cpus[16] = "?";
    if (i->ncpu > 0)
        snprintf(cpus, sizeof(cpus), "%d", i->ncpu);
    snprintf(buf, n, "%s %s %scpu %s", i->host[0] ? i->host : "?",
             i->release[0] ? i->release : "?", cpus, mem);
}

void view_source_backend(const struct source_model *m, char *buf, size_t n)
{
    snprintf(buf, n, "via %s", m->backend ? m->backend : "?");
}

void view_metric_cell(const struct source_model *m, int id, char *val,
                      size_t vn, char *spark, size_t sn, int spark_w, bool utf8)
{
    const struct metric_desc *d = &metric_descs[id];
    char raw[32];
    fmt_value(raw, sizeof(raw), m->value[id], d->format);
    snprintf(val, vn, "%*s", VIEW_VALUE_W, raw);
    double top = d->format == MF_PERCENT ? 100 : 0;
    fmt_spark(spark, sn, &m->hist[id], spark_w, top, utf8);
}
