/* See report_read.h. The checks go from the outside in (a regular file of
 * a report's size, JSON, our format, our version, the source asked for,
 * its fields and their ranges) so that the one line of error names the
 * first thing that is wrong. Metrics a version-1 report lacks read as n/a:
 * the metric table may grow. Every string read is made safe for a
 * terminal (base/safe_text.h), the error line too: it may quote the file. */
#include "report/report_read.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safe_text.h"
#include "base/version.h"
#include "report/report_json.h"
#include "runner/runner.h"

/* Bounds of what a report may hold. A figure beyond them is damage (or a
 * forgery), not a measurement: 1e308 once printed as a 31-digit figure and
 * a +inf% difference. */
#define NCPU_MAX 65536
#define MEM_MAX  1152921504606846976.0 /* 2^60 bytes, 1 EiB */
/* A CPU share is at most 100 (a share of the CPU time counted), but
 * older reports took it over the source's clock and could hold more, so
 * more is damage only well above that. */
#define PERCENT_MAX 1000.0
#define FIXED2_MAX  1e6  /* load averages, printed with every digit */
#define FIGURE_MAX  1e15 /* rates, counts, bytes, workload figures */
#define SECONDS_MAX 1e6  /* the clock probe's sleeps and spins */

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
    safe_text(err);
    return -1;
}

/* A number from min to max, or null (n/a); false when v is something
 * else. */
static bool get_num_in(const json_t *v, double min, double max, double *out)
{
    if (!v || json_is_null(v)) {
        *out = NAN;
        return true;
    }
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return *out >= min && *out <= max;
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
    const char *host = "", *kernel = "", *sched = "", *preempt = "";
    int ncpu = 0, pmda = 0;
    json_t *mem = NULL;
    json_error_t je;
    /* scheduler and preempt: only in reports written since issue 18 */
    if (json_unpack_ex(
            (json_t *)src, &je, 0, "{s:s, s:s, s?:s, s?:s, s:i, s:o, s:b}",
            "host", &host, "kernel", &kernel, "scheduler", &sched, "preempt",
            &preempt, "ncpu", &ncpu, "mem_bytes", &mem, "pmda", &pmda) < 0)
        return fail(err, errlen, path, "damaged report: source: %s", je.text);
    if (ncpu < 0 || ncpu > NCPU_MAX)
        return fail(err, errlen, path,
                    "damaged report: ncpu %d is not 0 (unknown) to %d", ncpu,
                    NCPU_MAX);
    safe_text_copy(in->host, sizeof(in->host), host, 0);
    safe_text_copy(in->release, sizeof(in->release), kernel, 0);
    safe_text_copy(in->sched, sizeof(in->sched), sched, 0);
    safe_text_copy(in->preempt, sizeof(in->preempt), preempt, 0);
    in->ncpu = ncpu;
    in->pmda = pmda;
    if (!get_num_in(mem, 0, MEM_MAX, &in->mem_bytes))
        return fail(err, errlen, path,
                    "damaged report: mem_bytes is not a number of bytes "
                    "from 0 to 2^60");
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
        double max = metric_descs[id].kind == MK_CPU        ? PERCENT_MAX
                     : metric_descs[id].format == MF_FIXED2 ? FIXED2_MAX
                                                            : FIGURE_MAX;
        if (!get_num_in(v, 0, max, &m->value[id]))
            return fail(err, errlen, path,
                        "damaged report: metric %s is not a number from 0 "
                        "to %g",
                        key, max);
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
        if (!get_num_in(v[i], 0, SECONDS_MAX, dst[i]))
            return fail(err, errlen, path,
                        "damaged report: a probe figure is not 0 to %g s",
                        SECONDS_MAX);
    if (count < 0)
        return fail(err, errlen, path, "damaged report: probe count %lld",
                    (long long)count);
    p->count = (unsigned long)count;
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
        /* a figure is above 0: a difference against it is a ratio */
        if (json_unpack_ex(w, &je, 0, "{s:i, s:o, s:o}", "n", &bw->n, "median",
                           &med, "ci95", &ci) < 0 ||
            bw->n < 0 || bw->n > WL_RUN_MAX_REPEATS ||
            !get_num_in(med, 1e-300, FIGURE_MAX, &bw->median) ||
            !get_num_in(ci, 0, FIGURE_MAX, &bw->ci95) ||
            !get_num_in(json_object_get(w, "min"), 0, FIGURE_MAX, &bw->min) ||
            !get_num_in(json_object_get(w, "max"), 0, FIGURE_MAX, &bw->max) ||
            !get_num_in(json_object_get(w, "mean"), 0, FIGURE_MAX, &bw->mean) ||
            !get_num_in(json_object_get(w, "median_lo"), 0, FIGURE_MAX,
                        &bw->med_lo) ||
            !get_num_in(json_object_get(w, "median_hi"), 0, FIGURE_MAX,
                        &bw->med_hi) ||
            !get_num_in(json_object_get(w, "median_cover"), 0, 1,
                        &bw->med_cover))
            return fail(err, errlen, path,
                        "damaged report: workload %.32s: n is not 0 to %d, or "
                        "a figure is not a number from 0 (the median above "
                        "0) to %g",
                        name, WL_RUN_MAX_REPEATS, FIGURE_MAX);
        safe_text_copy(bw->name, sizeof(bw->name), name, 0);
        safe_text_copy(bw->unit, sizeof(bw->unit), unit_of(root, name), 0);
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
    char when[16] = "", ver[20] = "", full[96];
    int y, mo, d;
    if (sscanf(b->date, "%4d-%2d-%2d", &y, &mo, &d) == 3)
        snprintf(when, sizeof(when), " %04d-%02d-%02d", y % 10000, mo % 100,
                 d % 100);
    if (!baseline_same_version(b)) {
        strcpy(ver, " v");
        safe_text_copy(ver + 2, sizeof(ver) - 2, b->version, 0);
    }
    /* the label gives way, cut between characters: the date and version
     * tell runs apart */
    snprintf(full, sizeof(full), "baseline:%.63s", label);
    safe_text_copy(buf, n - strlen(when) - strlen(ver), full, 0);
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
    char name[sizeof(b->model.name)], safe[sizeof(b->model.name)];
    safe_text_copy(safe, sizeof(safe), label ? label : sname, 0);
    column_name(name, sizeof(name), safe, b);
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

int report_parse(const char *text, size_t len, const char *path,
                 const char *source, const char *label, struct baseline *b,
                 char *err, size_t errlen)
{
    memset(b, 0, sizeof(*b));
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je);
    if (!root)
        return fail(err, errlen, path, "damaged report: line %d: %s", je.line,
                    je.text);
    int rc = check_header(root, path, err, errlen);
    const json_t *src = rc == 0 ? find_source(root, source) : NULL;
    if (rc == 0 && !src)
        rc = source ? fail(err, errlen, path, "no source named %s", source)
                    : fail(err, errlen, path, "damaged report: no sources");
    if (rc == 0) {
        safe_text_copy(b->date, sizeof(b->date), str_or(root, "date"), 0);
        safe_text_copy(b->version, sizeof(b->version), str_or(root, "parallax"),
                       0);
        rc = read_source(root, src, path, label, b, err, errlen);
    }
    json_decref(root);
    return rc;
}

/* The whole of the regular file at path, at most REPORT_READ_MAX bytes,
 * into *text (malloc'd; *len bytes). Opened without blocking: a FIFO or a
 * device would otherwise hold parallax in open() or read() for ever. */
static int slurp(const char *path, char **text, size_t *len, char *err,
                 size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return fail(err, errlen, path, "%s", strerror(e));
    }
    const char *what = S_ISDIR(st.st_mode)    ? "a directory"
                       : !S_ISREG(st.st_mode) ? "not a regular file"
                                              : NULL;
    if (!what && st.st_size > REPORT_READ_MAX)
        what = "larger than a report can be";
    char *buf = what ? NULL : malloc((size_t)st.st_size + 1);
    ssize_t n = buf ? read(fd, buf, (size_t)st.st_size + 1) : -1;
    int e = errno;
    close(fd);
    if (what)
        return fail(err, errlen, path,
                    "%s (a report is a .json file of at most %d MiB that s "
                    "or --batch wrote); give one",
                    what, REPORT_READ_MAX >> 20);
    if (n < 0 || n > st.st_size) { /* it grew while read: not ours */
        free(buf);
        return fail(err, errlen, path, "%s",
                    n < 0 ? strerror(buf ? e : ENOMEM)
                          : "changed while read; try again");
    }
    *text = buf;
    *len = (size_t)n;
    return 0;
}

int report_read(const char *path, const char *source, const char *label,
                struct baseline *b, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    memset(b, 0, sizeof(*b));
    if (slurp(path, &text, &len, err, errlen) < 0)
        return -1;
    int rc = report_parse(text, len, path, source, label, b, err, errlen);
    free(text);
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
