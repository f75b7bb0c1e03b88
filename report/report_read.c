/* See report_read.h. The checks go from the outside in (readable, JSON,
 * our format, our version, the source asked for, its fields) so that the
 * one line of error names the first thing that is wrong. Metrics a
 * version-1 report lacks read as n/a: the metric table may grow. */
#include "report/report_read.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/report_json.h"
#include "core/version.h"

static int fail(char *err, size_t errlen, const char *path, const char *fmt,
                ...) __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, const char *path, const char *fmt,
                ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s: %s", path, why);
    return -1;
}

/* A number or null (n/a); false when v is something else. */
static bool get_num(const json_t *v, double *out)
{
    if (!v || json_is_null(v)) {
        *out = NAN;
        return true;
    }
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return true;
}

static int check_header(const json_t *root, const char *path, char *err,
                        size_t errlen)
{
    const char *format = NULL;
    if (!json_is_object(root))
        return fail(err, errlen, path, "not a parallax report (no object)");
    json_t *fv = json_object_get(root, "format");
    format = json_string_value(fv);
    if (!format || strcmp(format, REPORT_FORMAT) != 0)
        return fail(err, errlen, path,
                    "not a parallax report (\"format\" is not \"%s\")",
                    REPORT_FORMAT);
    json_t *vv = json_object_get(root, "version");
    if (!json_is_integer(vv))
        return fail(err, errlen, path, "damaged report: no \"version\"");
    if (json_integer_value(vv) != REPORT_VERSION)
        return fail(err, errlen, path,
                    "report format version %lld; this parallax reads "
                    "version %d",
                    (long long)json_integer_value(vv), REPORT_VERSION);
    return 0;
}

static const json_t *find_source(const json_t *root, const char *name)
{
    const json_t *sources = json_object_get(root, "sources");
    size_t i;
    json_t *src;
    json_array_foreach(sources, i, src)
    {
        const char *n = json_string_value(json_object_get(src, "name"));
        if (!name || (n && strcmp(n, name) == 0))
            return src;
    }
    return NULL;
}

static int read_info(const json_t *src, struct source_info *in,
                     const char *path, char *err, size_t errlen)
{
    const char *host = "", *kernel = "";
    int ncpu = 0, pmda = 0;
    json_t *mem = NULL;
    json_error_t je;
    if (json_unpack_ex((json_t *)src, &je, 0, "{s:s, s:s, s:i, s:o, s:b}",
                       "host", &host, "kernel", &kernel, "ncpu", &ncpu,
                       "mem_bytes", &mem, "pmda", &pmda) < 0)
        return fail(err, errlen, path, "damaged report: source: %s", je.text);
    snprintf(in->host, sizeof(in->host), "%s", host);
    snprintf(in->release, sizeof(in->release), "%s", kernel);
    in->ncpu = ncpu;
    in->pmda = pmda;
    if (!get_num(mem, &in->mem_bytes))
        return fail(err, errlen, path, "damaged report: mem_bytes");
    if (isnan(in->mem_bytes))
        in->mem_bytes = 0; /* source_info's "unknown" */
    return 0;
}

static int read_metrics(const json_t *src, struct source_model *m,
                        const char *path, char *err, size_t errlen)
{
    const json_t *metrics = json_object_get(src, "metrics");
    if (!json_is_object(metrics))
        return fail(err, errlen, path, "damaged report: no \"metrics\"");
    for (int id = 0; id < METRIC_COUNT; id++) {
        const char *key = metric_descs[id].key;
        const json_t *v = json_object_get(metrics, key);
        if (!v) { /* a row added since that report was written */
            m->value[id] = NAN;
            continue;
        }
        if (!get_num(v, &m->value[id]))
            return fail(err, errlen, path,
                        "damaged report: metric %s is not a number", key);
    }
    return 0;
}

static int read_probe(const json_t *src, struct probe_sample *p,
                      const char *path, char *err, size_t errlen)
{
    const json_t *probe =
        json_object_get(json_object_get(src, "time"), "probe");
    if (!probe || json_is_null(probe))
        return 0;
    json_int_t count = 0;
    json_t *v[4];
    json_error_t je;
    if (json_unpack_ex((json_t *)probe, &je, 0, "{s:I, s:o, s:o, s:o, s:o}",
                       "count", &count, "sleep_req_s", &v[0], "sleep_took_s",
                       &v[1], "spin_wall_s", &v[2], "spin_cpu_s", &v[3]) < 0)
        return fail(err, errlen, path, "damaged report: probe: %s", je.text);
    double *dst[4] = {&p->sleep_req, &p->sleep_took, &p->spin_wall,
                      &p->spin_cpu};
    for (int i = 0; i < 4; i++)
        if (!get_num(v[i], dst[i]))
            return fail(err, errlen, path, "damaged report: probe figure");
    p->count = count > 0 ? (unsigned long)count : 0;
    return 0;
}

static const char *unit_of(const json_t *root, const char *name)
{
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(root, "workloads"), i, w)
    {
        const char *n = json_string_value(json_object_get(w, "name"));
        if (n && strcmp(n, name) == 0) {
            const char *u = json_string_value(json_object_get(w, "unit"));
            return u ? u : "";
        }
    }
    return "";
}

static int read_workloads(const json_t *root, const json_t *src,
                          struct baseline *b, const char *path, char *err,
                          size_t errlen)
{
    const json_t *wls = json_object_get(src, "workloads");
    const char *name;
    json_t *w;
    if (!json_is_object(wls))
        return fail(err, errlen, path, "damaged report: no \"workloads\"");
    json_object_foreach((json_t *)wls, name, w)
    {
        if (b->nwl == BASELINE_MAX_WL)
            break;
        struct baseline_wl *bw = &b->wl[b->nwl];
        json_t *med = NULL, *ci = NULL;
        json_error_t je;
        if (json_unpack_ex(w, &je, 0, "{s:i, s:o, s:o}", "n", &bw->n, "median",
                           &med, "ci95", &ci) < 0 ||
            !get_num(med, &bw->median) || !get_num(ci, &bw->ci95) ||
            !get_num(json_object_get(w, "min"), &bw->min) ||
            !get_num(json_object_get(w, "max"), &bw->max) ||
            !get_num(json_object_get(w, "mean"), &bw->mean) ||
            !get_num(json_object_get(w, "median_lo"), &bw->med_lo) ||
            !get_num(json_object_get(w, "median_hi"), &bw->med_hi) ||
            !get_num(json_object_get(w, "median_cover"), &bw->med_cover))
            return fail(err, errlen, path, "damaged report: workload %s", name);
        snprintf(bw->name, sizeof(bw->name), "%s", name);
        snprintf(bw->unit, sizeof(bw->unit), "%s", unit_of(root, name));
        b->nwl++;
    }
    return 0;
}

/* "baseline:LABEL YYYY-MM-DD", and " vVERSION" when another parallax
 * wrote it: what the column and the reports call it. The day only, so
 * that it fits a column of the screen (the file's name, shown below it,
 * has the time); the date the report gives, its writer's. n >= 64. */
static void column_name(char *buf, size_t n, const char *label,
                        const struct baseline *b)
{
    char when[16] = "", ver[20] = "";
    int y, mo, d;
    if (sscanf(b->date, "%4d-%2d-%2d", &y, &mo, &d) == 3)
        snprintf(when, sizeof(when), " %04d-%02d-%02d", y % 10000, mo % 100,
                 d % 100);
    if (!baseline_same_version(b))
        snprintf(ver, sizeof(ver), " v%.16s", b->version);
    /* the label gives way: the date and version tell runs apart */
    snprintf(buf, n, "baseline:%s", label);
    size_t keep = n - 1 - strlen(when) - strlen(ver);
    if (strlen(buf) > keep)
        buf[keep] = '\0';
    strcat(buf, when);
    strcat(buf, ver);
}

static int read_source(const json_t *root, const json_t *src, const char *path,
                       const char *label, struct baseline *b, char *err,
                       size_t errlen)
{
    const char *sname = json_string_value(json_object_get(src, "name"));
    if (!sname)
        return fail(err, errlen, path, "damaged report: a source has no name");
    char name[sizeof(b->model.name)];
    column_name(name, sizeof(name), label ? label : sname, b);
    model_init(&b->model, name, path);
    b->model.backend = "baseline";
    b->model.state = SRC_LIVE;
    b->model.samples = b->model.updates = 1;
    b->model.last_ok = INFINITY; /* never stale: it does not update */
    if (read_info(src, &b->model.info, path, err, errlen) < 0 ||
        read_metrics(src, &b->model, path, err, errlen) < 0 ||
        read_probe(src, &b->model.probe, path, err, errlen) < 0)
        return -1;
    return read_workloads(root, src, b, path, err, errlen);
}

/* The string member `key` of o, or "?". */
static const char *str_or(const json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : "?";
}

int report_read(const char *path, const char *source, const char *label,
                struct baseline *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof(*b));
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root) {
        if (je.line < 1)
            return fail(err, errlen, path, "%s", je.text);
        return fail(err, errlen, path, "damaged report: line %d: %s", je.line,
                    je.text);
    }
    int rc = check_header(root, path, err, errlen);
    const json_t *src = rc == 0 ? find_source(root, source) : NULL;
    if (rc == 0 && !src)
        rc = source ? fail(err, errlen, path, "no source named %s", source)
                    : fail(err, errlen, path, "damaged report: no sources");
    if (rc == 0) {
        snprintf(b->date, sizeof(b->date), "%s", str_or(root, "date"));
        snprintf(b->version, sizeof(b->version), "%s",
                 str_or(root, "parallax"));
        rc = read_source(root, src, path, label, b, err, errlen);
    }
    json_decref(root);
    return rc;
}

bool baseline_same_version(const struct baseline *b)
{
    return strcmp(b->version, PARALLAX_VERSION) == 0;
}

const struct baseline_wl *baseline_wl_find(const struct baseline *b,
                                           const char *name)
{
    for (int i = 0; i < b->nwl; i++)
        if (strcmp(b->wl[i].name, name) == 0)
            return &b->wl[i];
    return NULL;
}
