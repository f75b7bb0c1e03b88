/* See pmapi_source.h. Opening a source is a context (/pmapi/context with
 * the pmcd's host spec), the units of what it has (/pmapi/CTX/metric) and
 * the instances wanted (/pmapi/CTX/indom); each fetch is one
 * /pmapi/CTX/fetch of every name, stamped with this host's monotonic
 * clock before and after, as the PCP backend stamps pmFetch. A context
 * pmproxy forgot (it restarted, or the source was quiet for longer than
 * its polltimeout) fails the fetch; the sampler then opens a new one. */
#include "fleet/pmapi_source.h"

#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/safe_text.h"
#include "core/agent_metrics.h"
#include "fleet/fleet_labels.h"
#include "fleet/fleet_metrics.h"
#include "fleet/http.h"

#define TIMEOUT     2.0 /* s for any one request */
#define POLLTIMEOUT 60  /* s pmproxy keeps a context nobody fetches */
#define PATH_MAX_   8192

const char *const pmapi_agent_names[PAF_COUNT] = {
#define PAF_NAME(k, row) [PAF_##k] = AGENT_NAME(row),
    AGENT_JOB_READS(PAF_NAME) AGENT_PROBE_READS(PAF_NAME)
#undef PAF_NAME
};

#define NODENAME "kernel.uname.nodename"

struct pmapi_state {
    struct http *http;
    char target[128];
    long long ctx;
    char fetch_path[PATH_MAX_];
    double scale[FLEET_NAMES_MAX];   /* 0: the source lacks the name */
    long long inst[FLEET_NAMES_MAX]; /* the instance wanted, -1: singular */
    bool pmda;
    int njobs;
    long long job_inst[SAMPLE_MAX_JOBS];
    char job_name[SAMPLE_MAX_JOBS][32];
    struct source_info info;
};

static pthread_mutex_t url_lock = PTHREAD_MUTEX_INITIALIZER;
static char proxy_url[256];

void pmapi_source_set_url(const char *url)
{
    pthread_mutex_lock(&url_lock);
    snprintf(proxy_url, sizeof(proxy_url), "%s", url);
    pthread_mutex_unlock(&url_lock);
}

/* GETs path; the answer's JSON object, or NULL with err (pmproxy's own
 * message when it gave one). */
static json_t *get(struct http *h, const char *path, char *err, size_t errlen)
{
    const char *body;
    int status = http_request(h, path, NULL, &body, err, errlen);
    if (status < 0)
        return NULL;
    json_t *root = json_loads(body, 0, NULL);
    if (status != 200 || !json_is_object(root)) {
        const char *msg = json_string_value(json_object_get(root, "message"));
        char said[160];
        safe_text_copy(said, sizeof(said), msg ? msg : "not JSON", 0);
        snprintf(err, errlen, "pmproxy: HTTP %d: %s", status, said);
        json_decref(root);
        return NULL;
    }
    return root;
}

/* Appends "a,b,c" of the names the backend reads to buf. */
static bool append_names(char *buf, size_t *len, size_t cap)
{
    const struct fleet_metrics *fm = fleet_metrics();
    for (int k = 0; k < fm->nnames; k++)
        if (!http_append_escaped(buf, len, cap, fm->names[k].name) ||
            !http_append_escaped(buf, len, cap, ","))
            return false;
    for (int k = 0; k < PAF_COUNT; k++)
        if (!http_append_escaped(buf, len, cap, pmapi_agent_names[k]) ||
            !http_append_escaped(buf, len, cap, ","))
            return false;
    return http_append_escaped(buf, len, cap, NODENAME);
}

/* The units of what the source has: which names it knows, their scale. */
static int learn_metrics(struct pmapi_state *st, char *err, size_t errlen)
{
    char path[PATH_MAX_];
    size_t len = (size_t)snprintf(path, sizeof(path),
                                  "/pmapi/%lld/metric?names=", st->ctx);
    if (!append_names(path, &len, sizeof(path))) {
        snprintf(err, errlen, "too many names");
        return -1;
    }
    json_t *root = get(st->http, path, err, errlen);
    if (!root)
        return -1;
    const struct fleet_metrics *fm = fleet_metrics();
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(root, "metrics"), i, m)
    {
        const char *name = json_string_value(json_object_get(m, "name"));
        const char *units = json_string_value(json_object_get(m, "units"));
        for (int k = 0; name && k < fm->nnames; k++) {
            double sc = 1;
            if (strcmp(name, fm->names[k].name) == 0 &&
                (fm->names[k].text ||
                 fleet_unit_scale(units ? units : "", fm->names[k].unit, &sc)))
                st->scale[k] = sc;
        }
        st->pmda |= name && strcmp(name, pmapi_agent_names[PAF_STATE]) == 0;
    }
    json_decref(root);
    return 0;
}

/* The instance ids of an instance domain, by the name of a metric in it:
 * cb(st, id, name) for each. */
static void learn_indom(struct pmapi_state *st, const char *metric,
                        void (*cb)(struct pmapi_state *, long long,
                                   const char *, const char *),
                        const char *want)
{
    char path[512], err[160];
    snprintf(path, sizeof(path), "/pmapi/%lld/indom?name=%s", st->ctx, metric);
    json_t *root = get(st->http, path, err, sizeof(err));
    size_t i;
    json_t *in;
    json_array_foreach(json_object_get(root, "instances"), i, in)
    {
        json_t *id = json_object_get(in, "instance");
        const char *name = json_string_value(json_object_get(in, "name"));
        if (json_is_integer(id) && name)
            cb(st, json_integer_value(id), name, want);
    }
    json_decref(root);
}

static void on_metric_inst(struct pmapi_state *st, long long id,
                           const char *name, const char *want)
{
    const struct fleet_metrics *fm = fleet_metrics();
    for (int k = 0; k < fm->nnames; k++)
        if (fm->names[k].inst && strcmp(fm->names[k].name, want) == 0 &&
            strcmp(fm->names[k].inst, name) == 0)
            st->inst[k] = id;
}

static void on_job_inst(struct pmapi_state *st, long long id, const char *name,
                        const char *want)
{
    (void)want;
    if (st->njobs == SAMPLE_MAX_JOBS)
        return;
    st->job_inst[st->njobs] = id;
    safe_text_copy(st->job_name[st->njobs], sizeof(st->job_name[0]), name, 0);
    st->njobs++;
}

static void pmapi_close(void *state)
{
    struct pmapi_state *st = state;
    if (st)
        http_free(st->http);
    free(st);
}

static void *pmapi_open(const char *target, char *err, size_t errlen)
{
    struct pmapi_state *st = calloc(1, sizeof(*st));
    char url[256], path[512];
    pthread_mutex_lock(&url_lock);
    snprintf(url, sizeof(url), "%s", proxy_url);
    pthread_mutex_unlock(&url_lock);
    if (!st || !(st->http = http_new(url, TIMEOUT))) {
        free(st);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(st->target, sizeof(st->target), "%s", target ? target : "");
    size_t len =
        (size_t)snprintf(path, sizeof(path), "/pmapi/context?hostspec=");
    http_append_escaped(path, &len, sizeof(path), st->target);
    snprintf(path + len, sizeof(path) - len, "&polltimeout=%d", POLLTIMEOUT);
    json_t *root = get(st->http, path, err, errlen);
    json_t *ctx = root ? json_object_get(root, "context") : NULL;
    if (!json_is_integer(ctx)) {
        if (root)
            snprintf(err, errlen, "pmproxy gave no context for %s", target);
        json_decref(root);
        pmapi_close(st);
        return NULL;
    }
    st->ctx = json_integer_value(ctx);
    json_decref(root);
    const struct fleet_metrics *fm = fleet_metrics();
    for (int k = 0; k < FLEET_NAMES_MAX; k++)
        st->inst[k] = -1;
    if (learn_metrics(st, err, errlen) < 0) {
        pmapi_close(st);
        return NULL;
    }
    for (int k = 0; k < fm->nnames; k++)
        if (fm->names[k].inst)
            learn_indom(st, fm->names[k].name, on_metric_inst,
                        fm->names[k].name);
    if (st->pmda)
        learn_indom(st, pmapi_agent_names[PAF_STATE], on_job_inst, NULL);
    len = (size_t)snprintf(st->fetch_path, sizeof(st->fetch_path),
                           "/pmapi/%lld/fetch?names=", st->ctx);
    append_names(st->fetch_path, &len, sizeof(st->fetch_path));
    return st;
}

/* A JSON value as a number, NaN when it is none. */
static double num(json_t *v)
{
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The value of instance id (-1: the first) in a fetched metric's list. */
static json_t *value_of(json_t *instances, long long id)
{
    size_t i;
    json_t *in;
    json_array_foreach(instances, i, in)
    {
        json_t *iid = json_object_get(in, "instance");
        if (id < 0 || (json_is_integer(iid) && json_integer_value(iid) == id))
            return json_object_get(in, "value");
    }
    return NULL;
}

/* One of the fleet names into the sample's metric table and info. */
static void put_name(struct pmapi_state *st, int k, json_t *instances,
                     double *v, struct sample *out)
{
    const struct fleet_metrics *fm = fleet_metrics();
    json_t *val = value_of(instances, st->inst[k]);
    if (!val || !st->scale[k])
        return;
    if (k == fm->release) {
        safe_text_copy(st->info.release, sizeof(st->info.release),
                       json_string_value(val), 0);
        return;
    }
    v[k] = num(val) * st->scale[k];
    if (k == fm->ncpu && isfinite(v[k]))
        st->info.ncpu = (int)v[k];
    if (k == fm->physmem && isfinite(v[k]))
        st->info.mem_bytes = v[k];
    (void)out;
}

/* The table's figures from the names' values v. */
static void put_metrics(const double *v, struct sample *out)
{
    const struct fleet_metrics *fm = fleet_metrics();
    for (int id = 0; id < METRIC_COUNT; id++) {
        int a = fm->a[id], b = fm->b[id];
        if (a < 0 || !isfinite(v[a]) || (b >= 0 && !isfinite(v[b])))
            continue;
        if (metric_is_counter(id) && v[a] >= 0)
            sample_set_count(out, id, (uint64_t)v[a]);
        else if (!metric_is_counter(id))
            sample_set_value(out, id, b >= 0 ? v[a] - v[b] : v[a]);
    }
}

/* pmdaparallax's workloads and clock probe from the fetched values. */
static void put_agent(struct pmapi_state *st, json_t *const *af,
                      struct sample *out)
{
    double probe[PAF_COUNT];
    for (int k = PAF_PROBES; k < PAF_COUNT; k++)
        probe[k] = num(value_of(json_object_get(af[k], "instances"), -1));
    out->probe.count =
        isfinite(probe[PAF_PROBES]) ? (unsigned long)probe[PAF_PROBES] : 0;
    out->probe.sleep_req = probe[PAF_SLEEP_REQ];
    out->probe.sleep_took = probe[PAF_SLEEP_TOOK];
    out->probe.spin_wall = probe[PAF_SPIN_WALL];
    out->probe.spin_cpu = probe[PAF_SPIN_CPU];
    out->njobs = 0;
    out->extras_len = 0;
    for (int j = 0; j < st->njobs; j++) {
        long long id = st->job_inst[j];
        double f[PAF_ERROR];
        for (int k = 0; k < PAF_ERROR; k++)
            f[k] = num(value_of(json_object_get(af[k], "instances"), id));
        if (!isfinite(f[PAF_STATE]))
            continue;
        struct pmda_job *job = &out->job[out->njobs++];
        snprintf(job->name, sizeof(job->name), "%s", st->job_name[j]);
        job->state = (int)f[PAF_STATE];
        job->runs = isfinite(f[PAF_RUNS]) ? (unsigned)f[PAF_RUNS] : 0;
        job->figure = f[PAF_FIGURE];
        job->repeats_done =
            isfinite(f[PAF_REPEATS_DONE]) ? (int)f[PAF_REPEATS_DONE] : 0;
        job->repeats = isfinite(f[PAF_REPEATS]) ? (int)f[PAF_REPEATS] : 0;
        job->n = isfinite(f[PAF_N]) ? (int)f[PAF_N] : 0;
        job->median = job->n ? f[PAF_MEDIAN] : NAN;
        job->min = job->n ? f[PAF_MIN] : NAN;
        job->max = job->n ? f[PAF_MAX] : NAN;
        job->mean = job->n ? f[PAF_MEAN] : NAN;
        job->ci_lo = job->n ? f[PAF_CI_LO] : NAN;
        job->ci_hi = job->n ? f[PAF_CI_HI] : NAN;
        safe_text_copy(job->error, sizeof(job->error),
                       json_string_value(value_of(
                           json_object_get(af[PAF_ERROR], "instances"), id)),
                       0);
        job->extras_at = -1;
        const char *extras = json_string_value(
            value_of(json_object_get(af[PAF_EXTRAS], "instances"), id));
        size_t len = extras ? strlen(extras) : 0;
        if (len && (size_t)out->extras_len + len + 1 <= sizeof(out->extras)) {
            safe_text_copy(out->extras + out->extras_len, len + 1, extras, 0);
            job->extras_at = out->extras_len;
            out->extras_len += (int)len + 1;
        }
    }
}

static int pmapi_fetch(void *state, struct sample *out)
{
    struct pmapi_state *st = state;
    const struct fleet_metrics *fm = fleet_metrics();
    out->t_before = clock_mono();
    json_t *root =
        get(st->http, st->fetch_path, out->error, sizeof(out->error));
    out->t_after = clock_mono();
    if (!root)
        return -1;
    out->t_source = num(json_object_get(root, "timestamp"));
    double v[FLEET_NAMES_MAX];
    json_t *af[PAF_COUNT] = {0};
    for (int k = 0; k < FLEET_NAMES_MAX; k++)
        v[k] = NAN;
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(root, "values"), i, m)
    {
        const char *name = json_string_value(json_object_get(m, "name"));
        json_t *instances = json_object_get(m, "instances");
        if (!name)
            continue;
        for (int k = 0; k < fm->nnames; k++)
            if (strcmp(name, fm->names[k].name) == 0)
                put_name(st, k, instances, v, out);
        for (int k = 0; k < PAF_COUNT; k++)
            if (strcmp(name, pmapi_agent_names[k]) == 0)
                af[k] = m;
        if (strcmp(name, NODENAME) == 0)
            safe_text_copy(st->info.host, sizeof(st->info.host),
                           json_string_value(value_of(instances, -1)), 0);
    }
    put_metrics(v, out);
    if (st->pmda && af[PAF_STATE])
        put_agent(st, af, out);
    st->info.pmda = st->pmda;
    out->info = st->info;
    json_decref(root);
    return 0;
}

static int pmapi_store(void *state, const char *name, const char *value,
                       char *msg, size_t msglen)
{
    struct pmapi_state *st = state;
    char path[1024];
    size_t len = (size_t)snprintf(path, sizeof(path),
                                  "/pmapi/%lld/store?name=", st->ctx);
    bool fits = http_append_escaped(path, &len, sizeof(path), name);
    if (fits && len + 8 < sizeof(path)) {
        memcpy(path + len, "&value=", 8);
        len += 7;
        fits = http_append_escaped(path, &len, sizeof(path), value);
    }
    if (!fits) {
        snprintf(msg, msglen, "value too long");
        return -1;
    }
    char err[256];
    json_t *root = get(st->http, path, err, sizeof(err));
    if (!root) {
        snprintf(msg, msglen,
                 "%s: refused (%s); its pmcd must allow stores from pmproxy's "
                 "host: allow \"HOST\" : store; in pmcd.conf [access]",
                 st->target, err);
        return -1;
    }
    json_decref(root);
    return 0;
}

const struct backend backend_pmapi = {
    .name = "pmproxy /pmapi",
    .open = pmapi_open,
    .fetch = pmapi_fetch,
    .close = pmapi_close,
    .store = pmapi_store,
};

const struct backend *const pmapi_backends[] = {&backend_pmapi, NULL};
