/* See recorder.h. libpcp_import over pmlogger: parallax already holds
 * every figure it records (read from /proc, from pmcds, from its own
 * runner), and pmlogger can only log what a pmcd serves, so it could
 * record neither this host's workloads nor the fetch timing the clock rows
 * are fitted from. libpcp_import writes the same archives pmlogger does,
 * from what parallax has. Its files are unbuffered: each record is one
 * write. What goes into a record is the record table's rows
 * (core/record_table.h) and the metric table's; archive/record_values.c
 * puts them in, archive/record_meta.c defines them in the archive's
 * metadata and archive/record_naming.c names the archives. This file
 * writes: the records, the runs followed, the recording's life. */
#include "archive/recorder.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <pcp/pmapi.h>

#include "archive/pmi_lib.h"
#include "archive/record_files.h"
#include "archive/record_meta.h"
#include "archive/record_naming.h"
#include "archive/record_values.h"
#include "archive/record_vms.h"
#include "base/clock.h"
#include "base/diag.h"
#include "base/file_kind.h"
#include "base/version.h"
#include "core/record_table.h"
#include "report/report.h"
#include "view/latency_view.h"
#include "view/view.h"
#include "view/view_time.h"
#include "workloads/extras.h"
#include "workloads/lat_hist.h"

#define STEP_MAX 1.0 /* s realtime may part from monotonic by */

/* What the table's value expressions see: one source ... */
struct rec_src {
    const struct source_model *m;
    const struct sample *smp; /* its newest good sample */
    struct clock_fit fit;
    const struct selfcost *self; /* this host only, else NULL */
    bool is_host;
};

/* ... or one workload on it. */
struct rec_job {
    const struct jobs *j;
    int src;
    int w; /* its instance */
    const struct workload *wl;
    const struct job_cell *c;
    double runs, start, end;
    char extras[WL_EXTRAS_TEXT_MAX];
    char hist[LAT_HIST_TEXT_MAX];
};

/* A workload's runs on one source, as the recorder saw them start and
 * end (the cells keep no times). */
struct rec_run {
    enum job_state last;
    double runs, start, end; /* end NaN while it runs */
};

/* The last value written of a row written on change. */
struct rec_last {
    bool set;
    double num;
    uint64_t hash; /* of a string */
};

struct rec_archive {
    int ctx;            /* libpcp_import's, 0 until started (start_all) */
    bool written;       /* its first record is written: libpcp_import made
                           its files and holds pointers into its context */
    unsigned long seen; /* the model's updates already recorded */
    double last_ts;     /* the newest record's timestamp */
    double last_mono;   /* and the host's monotonic clock then */
    char base[RECORD_PATH_MAX];
    struct record_files files; /* kept whole when a write fails */
    bool broken;               /* a write failed: cut back, ends unmarked */
    char safe[64];             /* the source's directory name */
    int nwl;                   /* instances of the workload rows */
    struct record_values vals;
    struct rec_last last_src[RECORD_SOURCE_COUNT];
    struct rec_last last_wl[RECORD_WORKLOAD_COUNT][JOBS_MAX_WL];
    struct rec_run run[JOBS_MAX_WL];
    bool vms; /* with the host's view of its VMs: this host's, or one's
                 read through its pmcd (,vms) */
    struct record_vms named; /* the VMs named in it so far */
};

struct recorder {
    char dir[RECORD_PATH_MAX / 2];
    char stamp[32]; /* YYYYmmdd.HH.MM.SS of the start, local time */
    double since;
    unsigned long records;
    struct rec_archive *a[SESSION_MAX_SOURCES];
};

/* --- what the table's expressions call --- */

static bool rec_live(const struct rec_src *r)
{
    return r->m->state == SRC_LIVE && r->smp;
}

/* mem.util.available such that mem.physmem less it is the memory used
 * parallax showed. */
static double rec_available_kb(const struct rec_src *r)
{
    if (!rec_live(r) || !r->smp->have[METRIC_MEM_USED] ||
        !(r->m->info.mem_bytes > 0))
        return NAN;
    return floor(r->m->info.mem_bytes / 1024) -
           round(r->smp->value[METRIC_MEM_USED] / 1024);
}

/* The host's view of m's newest probe, NaN when it has none. */
static double rec_probe_held(const struct source_model *m)
{
    return m->held.count && m->held.count == m->probe.count ? m->held.share
                                                            : NAN;
}

static double rec_state_code(enum job_state st)
{
    switch (st) {
    case JOB_RUNNING:
    case JOB_STOPPING:
        return 1;
    case JOB_DONE:
        return 2;
    case JOB_FAILED:
        return 3;
    case JOB_IDLE:
    case JOB_STOPPED:
        break;
    }
    return 0;
}

static const char *rec_state_name(enum job_state st)
{
    static const char *const names[] = {"idle", "running", "stopping",
                                        "done", "stopped", "failed"};
    return names[st];
}

static const char *rec_extras(struct rec_job *r)
{
    if (r->c->stats.n <= 0 || r->c->last.nextra <= 0)
        return NULL;
    wl_extras_format(&r->c->last, r->extras, sizeof(r->extras));
    return r->extras;
}

/* A latency workload's distribution as the screen shows it: a guest's in
 * real time where its figures are (the WL_REAL row says which), as its
 * extras are; a replay shows it as recorded. */
static const char *rec_hist(struct rec_job *r)
{
    static struct lat_view v; /* main thread only */
    if (r->c->stats.n <= 0 || r->c->last.hist.n == 0)
        return NULL;
    latency_view_of(r->j, r->src, r->w, &v);
    if (!v.ok || v.h.n == 0)
        return NULL;
    lat_hist_format(&v.h, r->hist, sizeof(r->hist));
    return r->hist;
}

static void fmt_pmi(char *err, size_t n, const char *what, const char *path,
                    int sts)
{
    char msg[PMI_MAXERRMSGLEN];
    snprintf(err, n, "%s %s: %s", what, path,
             pmi.err_str_r(sts, msg, sizeof(msg)));
}

/* Starts source i's archive: its name, host, labels and metrics. */
static int open_archive(const struct recorder *R, struct rec_archive *a,
                        const struct source_model *m, const struct jobs *j,
                        bool vms, char *err, size_t errlen)
{
    if (record_choose_base(R->dir, a->safe, R->stamp, a->base, sizeof(a->base),
                           err, errlen) < 0)
        return -1;
    record_files_init(&a->files, a->base);
    a->ctx = pmi.start(a->base, 0);
    if (a->ctx < 0) {
        fmt_pmi(err, errlen, "cannot start", a->base, a->ctx);
        a->ctx = 0;
        return -1;
    }
    int sts = pmi.put_label(PM_LABEL_CONTEXT, 0, 0, "parallax_version",
                            PARALLAX_VERSION);
    if (sts >= 0)
        sts = pmi.put_label(PM_LABEL_CONTEXT, 0, 0, "parallax_source", m->name);
    if (sts >= 0)
        sts = record_define(j);
    if (sts >= 0 && vms)
        sts = record_vms_define();
    a->nwl = j->nwl;
    a->vms = vms;
    a->named.n = 0;
    if (sts < 0) {
        fmt_pmi(err, errlen, "cannot define the metrics of", a->base, sts);
        return -1;
    }
    /* room for every row and instance, strings at their longest */
    size_t vsets = METRIC_COUNT + RECORD_SOURCE_COUNT + RECORD_WORKLOAD_COUNT;
    size_t bytes =
        sizeof(pmResult) + vsets * sizeof(pmValueSet *) +
        vsets * (sizeof(pmValueSet) + JOBS_MAX_WL * sizeof(pmValue)) +
        (METRIC_COUNT + RECORD_SOURCE_COUNT) * 512 +
        (size_t)a->nwl * RECORD_WORKLOAD_COUNT * 32 +
        (size_t)a->nwl * (WL_EXTRAS_TEXT_MAX + 512);
    if (vms) {
        vsets += (size_t)record_vms_vsets();
        bytes += record_vms_bytes();
    }
    if (record_values_init(&a->vals, (int)vsets, bytes) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    DIAG(DIAG_INFO, "%s: recording to %s", m->name, a->base);
    return 0;
}

/* --- values --- */

#define WHEN_EACH   false
#define WHEN_CHANGE true

static uint64_t hash_of(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* False when a row written on change has not changed since. */
static bool changed(struct rec_last *last, bool on_change, double num,
                    const char *str)
{
    uint64_t h = str ? hash_of(str) : 0;
    if (!on_change)
        return true;
    if (last->set && last->num == num && last->hash == h)
        return false;
    *last = (struct rec_last){.set = true, .num = num, .hash = h};
    return true;
}

/* A number of one row; NaN (or below zero for an unsigned type): none. */
static int put_num(struct rec_archive *a, pmID id, const char *name, int inst,
                   const char *iname, int cap, int type, struct rec_last *last,
                   bool on_change, double x)
{
    pmAtomValue v;
    if (!isfinite(x) || (type != PM_TYPE_DOUBLE && x < 0) ||
        !changed(last, on_change, x, NULL))
        return 0;
    if (type == PM_TYPE_U32)
        v.ul = (uint32_t)x;
    else if (type == PM_TYPE_U64)
        v.ull = (uint64_t)x;
    else
        v.d = x;
    return record_values_put(&a->vals, id, name, inst, iname, cap, type, &v);
}

static int put_str(struct rec_archive *a, pmID id, const char *name, int inst,
                   const char *iname, int cap, struct rec_last *last,
                   bool on_change, const char *x)
{
    pmAtomValue v = {.cp = (char *)x};
    if (!x || !x[0] || !changed(last, on_change, 0, x))
        return 0;
    return record_values_put(&a->vals, id, name, inst, iname, cap,
                             PM_TYPE_STRING, &v);
}

/* The metric table's raw values: counters whole, instants as doubles. */
static int put_table(struct rec_archive *a, const struct sample *smp)
{
    int sts = 0;
    for (int id = 0; id < METRIC_COUNT && sts >= 0; id++) {
        const struct metric_desc *d = &metric_descs[id];
        if (!smp->have[id] || strchr(d->pcp, ' '))
            continue;
        pmAtomValue v;
        bool counter = metric_is_counter(id);
        if (counter)
            v.ull = smp->count[id];
        else
            v.d = smp->value[id];
        if (!counter && !isfinite(v.d))
            continue;
        sts = record_values_put(&a->vals, pmi.make_id(REC_DOMAIN, CL_TABLE, id),
                                d->pcp, d->inst ? 1 : (int)PM_IN_NULL, d->inst,
                                1, counter ? PM_TYPE_U64 : PM_TYPE_DOUBLE, &v);
    }
    return sts;
}

#define PUT_U32(row, cl, name, inst, iname, cap, last, when, x)                \
    put_num(a, pmi.make_id(REC_DOMAIN, cl, row), name, inst, iname, cap,       \
            PM_TYPE_U32, last, WHEN_##when, (double)(x))
#define PUT_U64(row, cl, name, inst, iname, cap, last, when, x)                \
    put_num(a, pmi.make_id(REC_DOMAIN, cl, row), name, inst, iname, cap,       \
            PM_TYPE_U64, last, WHEN_##when, (double)(x))
#define PUT_DOUBLE(row, cl, name, inst, iname, cap, last, when, x)             \
    put_num(a, pmi.make_id(REC_DOMAIN, cl, row), name, inst, iname, cap,       \
            PM_TYPE_DOUBLE, last, WHEN_##when, (double)(x))
#define PUT_STRING(row, cl, name, inst, iname, cap, last, when, x)             \
    put_str(a, pmi.make_id(REC_DOMAIN, cl, row), name, inst, iname, cap, last, \
            WHEN_##when, (x))

static int put_source(struct rec_archive *a, const struct rec_src *r)
{
    int sts = 0;
#define RS_PUT(id, pname, type, sem, unit, when, help, expr)                   \
    if (sts >= 0)                                                              \
        sts = PUT_##type(RECORD_##id, CL_SOURCE, pname, (int)PM_IN_NULL, NULL, \
                         1, &a->last_src[RECORD_##id], when, expr);
    RECORD_SOURCE_TABLE(RS_PUT)
#undef RS_PUT
    return sts;
}

/* The workloads run here so far, row by row (a metric's instances go
 * together into a record). */
static int put_workloads(struct rec_archive *a, const struct jobs *j, int src)
{
    static struct rec_job jobs[JOBS_MAX_WL]; /* main thread only */
    int n = 0, sts = 0;
    for (int w = 0; w < j->nwl && w < a->nwl; w++) {
        const struct job_cell *c = jobs_cell(j, src, w);
        if (c->state == JOB_IDLE && c->stats.n == 0)
            continue; /* never run here: no values, as an agent gives */
        struct rec_job *r = &jobs[n++];
        r->j = j;
        r->src = src;
        r->w = w;
        r->wl = j->wl[w];
        r->c = c;
        r->runs = a->run[w].runs;
        r->start = a->run[w].start;
        r->end = a->run[w].end;
    }
#define RW_PUT(id, pname, type, sem, unit, when, help, expr)                   \
    for (int k = 0; k < n && sts >= 0; k++) {                                  \
        struct rec_job *r = &jobs[k];                                          \
        sts = PUT_##type(RECORD_##id, CL_WORKLOAD, pname, r->w, r->wl->name,   \
                         a->nwl, &a->last_wl[RECORD_##id][r->w], when, expr);  \
    }
    RECORD_WORKLOAD_TABLE(RW_PUT)
#undef RW_PUT
    return sts;
}

/* Notes runs that started or ended since the last tick. */
static void follow_runs(struct rec_archive *a, const struct jobs *j, int src,
                        double now)
{
    for (int w = 0; w < j->nwl; w++) {
        struct rec_run *run = &a->run[w];
        enum job_state st = jobs_cell(j, src, w)->state;
        bool was = run->last == JOB_RUNNING || run->last == JOB_STOPPING;
        bool is = st == JOB_RUNNING || st == JOB_STOPPING;
        if (is && !was) {
            run->runs++;
            run->start = now;
            run->end = NAN;
        } else if (was && !is) {
            run->end = now;
        }
        run->last = st;
    }
}

static struct rec_archive *archive_of(struct recorder *R,
                                      const struct session *s, int i)
{
    if (R->a[i])
        return R->a[i];
    struct rec_archive *a = calloc(1, sizeof(*a));
    if (!a)
        return NULL;
    record_safe_name(s->model[i].name, a->safe, sizeof(a->safe));
    for (int k = 0, n = 2; k < SESSION_MAX_SOURCES; k++) /* unique */
        if (R->a[k] && strcmp(R->a[k]->safe, a->safe) == 0) {
            char base[48];
            snprintf(base, sizeof(base), "%.40s", a->safe);
            snprintf(a->safe, sizeof(a->safe), "%s-%d", base, n++);
            k = -1;
        }
    for (int w = 0; w < JOBS_MAX_WL; w++)
        a->run[w] =
            (struct rec_run){.last = JOB_IDLE, .start = NAN, .end = NAN};
    a->last_ts = -INFINITY;
    R->a[i] = a;
    return a;
}

/* A record's timestamp: t to the nearest microsecond, as archives of
 * version 2 hold it (parallax.fetch.host_real has it whole). */
static struct timeval record_time(double t)
{
    double sec = floor(t);
    struct timeval tv = {.tv_sec = (time_t)sec,
                         .tv_usec = (suseconds_t)round((t - sec) * 1e6)};
    if (tv.tv_usec >= 1000000) {
        tv.tv_sec++;
        tv.tv_usec -= 1000000;
    }
    return tv;
}

/* Ends a's archive. libpcp_import 6.0.3 ends each with a temporal index
 * entry stamped with the last record written by any of its contexts, and
 * an entry past an archive's last record makes PCP's seeks there fail: an
 * empty record (a <mark>, "the recording stops here") at a's own last
 * time comes first. An archive whose last write failed gets no mark: it
 * is cut back to its last whole record after libpcp_import's end, and
 * so is one whose mark or last index entry the disk had no room for. */
static void end_archive(struct rec_archive *a)
{
    /* one never written has no files, and libpcp_import's end of it
     * would write through a log it never opened */
    if (!a->ctx || !a->written || pmi.use_context(a->ctx) < 0)
        return;
    bool whole = !a->broken;
    pmResult mark = {.numpmid = 0};
    mark.timestamp = record_time(a->last_ts);
    if (whole && isfinite(a->last_ts)) {
        whole = pmi.put_result(&mark) >= 0;
        if (whole)
            record_files_whole(&a->files);
    }
    pmi.end();
    if (whole)
        record_files_end(&a->files);
    else if (record_files_restore(&a->files) < 0)
        DIAG(DIAG_WARN, "%s: cannot cut it back to its last whole record: %s",
             a->base, strerror(errno));
}

/* When source m's next record is: its newest sample's realtime and the
 * host's monotonic clock at the middle of that fetch (a source that is
 * not live: now). */
static void record_instant(const struct source_model *m, double *ts,
                           double *mono)
{
    bool live = m->state == SRC_LIVE;
    *ts = live ? m->prev.t_real : clock_real();
    *mono = live ? sample_midpoint(&m->prev) : clock_mono();
}

/* One record of source i at its newest sample. */
static int write_record(struct recorder *R, struct rec_archive *a,
                        const struct session *s, int i, const struct jobs *j,
                        char *err, size_t errlen)
{
    const struct source_model *m = &s->model[i];
    struct rec_src r = {.m = m,
                        .smp = m->samples ? &m->prev : NULL,
                        .self = i == 0 ? &s->self : NULL,
                        .is_host = i == 0};
    double ts, mono;
    record_instant(m, &ts, &mono);
    if (!(ts > a->last_ts)) /* two samples in one microsecond */
        return 0;
    pmi.use_context(a->ctx);
    if (!a->written) { /* libpcp_import makes the files at this write */
        if (record_make_source_dir(R->dir, a->safe, err, errlen) < 0)
            return -1;
        pmi.set_hostname(m->info.host[0] ? m->info.host : m->name);
        a->written = true;
    }
    clock_model_fit(&m->clock, &r.fit);
    record_values_begin(&a->vals);
    int sts = rec_live(&r) ? put_table(a, r.smp) : 0;
    if (sts >= 0)
        sts = put_source(a, &r);
    if (sts >= 0)
        sts = put_workloads(a, j, i);
    if (sts >= 0 && a->vms)
        sts = record_vms_put(&a->named, &a->vals, s, i);
    if (sts < 0) {
        fmt_pmi(err, errlen, "cannot record into", a->base, sts);
        return -1;
    }
    if (record_files_room(&a->files, err, errlen) < 0)
        return -1; /* stopped before a write the disk cannot take */
    sts = record_values_write(&a->vals, record_time(ts));
    if (sts < 0) {
        /* a record cut short, and what the index and metadata gained
         * for it, go: the archive ends at its last whole record */
        fmt_pmi(err, errlen, "cannot write", a->base, sts);
        a->broken = true;
        record_files_restore(&a->files);
        return -1;
    }
    record_files_whole(&a->files);
    a->last_ts = ts;
    a->last_mono = mono;
    R->records++;
    return 0;
}

/* Exported by libpcp but declared only in its internal headers. */
char *__pmTimezone(void);

void recorder_global_init(void)
{
    pmGetConfig("PCP_VAR_DIR");
    /* every new archive asks libpcp for the zone, which it sets TZ to
     * (setenv) the first time: now, not beside running threads */
    __pmTimezone();
}

struct recorder *recorder_start(const char *dir, char *err, size_t errlen)
{
    if (pmi_lib_load(err, errlen) < 0)
        return NULL;
    struct recorder *R = calloc(1, sizeof(*R));
    if (!R) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int len = snprintf(R->dir, sizeof(R->dir), "%s", dir);
    while (len > 1 && R->dir[len - 1] == '/')
        R->dir[--len] = '\0';
    struct stat st;
    if (stat(R->dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen,
                 "cannot record into %s: it is %s, not a directory; give a "
                 "directory (one that is missing is made)",
                 dir, file_kind(st.st_mode));
        free(R);
        return NULL;
    }
    if (report_make_dirs(R->dir) < 0 || stat(R->dir, &st) < 0 ||
        (!S_ISDIR(st.st_mode) && (errno = ENOTDIR)) ||
        access(R->dir, W_OK) < 0) {
        snprintf(err, errlen, "cannot record into %s: %s", dir,
                 strerror(errno));
        free(R);
        return NULL;
    }
    time_t now = time(NULL);
    struct tm tm;
    strftime(R->stamp, sizeof(R->stamp), "%Y%m%d.%H.%M.%S",
             localtime_r(&now, &tm));
    R->since = clock_mono();
    return R;
}

/* True when the host's clock stepped since a's last record: its realtime
 * and monotonic clocks parted by more than STEP_MAX (each archive's times
 * must hold: a replay refuses one that jumps). */
static bool clock_stepped(const struct rec_archive *a,
                          const struct source_model *m)
{
    if (!a->written || !isfinite(a->last_ts))
        return false;
    double ts, mono;
    record_instant(m, &ts, &mono);
    double step = (ts - a->last_ts) - (mono - a->last_mono);
    if (fabs(step) <= STEP_MAX)
        return false;
    DIAG(DIAG_INFO, "%s: the host's clock stepped %+.3f s: new archives",
         m->name, step);
    return true;
}

/* Ends every archive; the next start_all begins new ones. */
static void end_all(struct recorder *R)
{
    for (int i = 0; i < SESSION_MAX_SOURCES; i++) {
        struct rec_archive *a = R->a[i];
        if (!a || !a->ctx)
            continue;
        end_archive(a);
        record_values_free(&a->vals);
        a->ctx = 0;
        a->written = false;
        a->broken = false;
        a->last_ts = -INFINITY;
        memset(a->last_src, 0, sizeof(a->last_src));
        memset(a->last_wl, 0, sizeof(a->last_wl));
    }
}

/* Starts the archive of every measured source that has none, before any
 * of them is written. libpcp_import 6.0.3 keeps its contexts in one array
 * that pmiStart reallocates, and a written context points into itself
 * (its log control), so an archive started beside written ones leaves
 * them pointing into freed memory: recording 3 guests and the host
 * crashed at the first tick (valgrind: reads 328 bytes into a block
 * pmiStart freed). So a source that needs an archive while others are
 * written (one that joined, or after the host's clock stepped) ends them
 * all, and every source begins a new archive together (as pmlogger
 * begins one per start). */
static int start_all(struct recorder *R, const struct session *s,
                     const struct jobs *j, char *err, size_t errlen)
{
    bool missing = false, written = false;
    for (int i = 0; i < s->nsrc; i++) {
        if (session_is_fixed(s, i))
            continue; /* a baseline or a recording: not measured here */
        struct rec_archive *a = archive_of(R, s, i);
        if (!a) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        missing |= !a->ctx;
        written |= a->written;
        if (clock_stepped(a, &s->model[i]))
            missing = true; /* every archive anew (written is set) */
    }
    if (!missing)
        return 0;
    if (written)
        end_all(R);
    for (int i = 0; i < s->nsrc; i++) {
        struct rec_archive *a = R->a[i];
        if (a && !a->ctx && !session_is_fixed(s, i) &&
            open_archive(R, a, &s->model[i], j,
                         (i == 0 && s->vms) || s->host_vms[i], err, errlen) < 0)
            return -1;
    }
    return 0;
}

int recorder_tick(struct recorder *R, const struct session *s,
                  const struct jobs *j, char *err, size_t errlen)
{
    double now = clock_real();
    if (start_all(R, s, j, err, errlen) < 0)
        return -1;
    for (int i = 0; i < s->nsrc; i++) {
        if (session_is_fixed(s, i))
            continue; /* a baseline or a recording: not measured here */
        struct rec_archive *a = R->a[i];
        follow_runs(a, j, i, now);
        if (s->model[i].updates == a->seen)
            continue;
        a->seen = s->model[i].updates;
        if (write_record(R, a, s, i, j, err, errlen) < 0)
            return -1;
    }
    return 0;
}

void recorder_stop(struct recorder *R)
{
    if (!R)
        return;
    end_all(R);
    for (int i = 0; i < SESSION_MAX_SOURCES; i++)
        free(R->a[i]);
    DIAG(DIAG_INFO, "recording into %s stopped: %lu records", R->dir,
         R->records);
    free(R);
}

const char *recorder_dir(const struct recorder *R)
{
    return R->dir;
}

unsigned long recorder_records(const struct recorder *R)
{
    return R->records;
}

double recorder_since(const struct recorder *R)
{
    return R->since;
}
