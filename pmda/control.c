/* Parsing of control-metric text: tokens split on blanks, the first one a
 * catalogue name, "--key=value" run options (and the lease) checked
 * against the bounds in opt_table, other tokens handed to params_set (the
 * workload's bounds). */
#include "pmda/control.h"

#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/params.h"
#include "workloads/registry.h"

#define MAX_TOKENS 32

enum opt_id {
    OPT_REPEATS,
    OPT_DURATION,
    OPT_COUNT,
    OPT_WARMUP,
    OPT_CPU,
    OPT_LEASE
};

/* The run options a client may set, with the bounds the agent enforces. */
static const struct {
    const char *name;
    double min, max;
    bool integer;
} opt_table[] = {
    [OPT_REPEATS] = {"repeats", 1, CONTROL_MAX_REPEATS, true},
    [OPT_DURATION] = {"duration", 0.01, 3600, false},
    [OPT_COUNT] = {"count", 1, 1e12, true},
    [OPT_WARMUP] = {"warmup", 0, 60, false},
    [OPT_CPU] = {"cpu", 0, CPU_SETSIZE - 1, true},
    [OPT_LEASE] = {"lease", CONTROL_LEASE_MIN, CONTROL_LEASE_MAX, false},
};
#define NOPTS (int)(sizeof opt_table / sizeof opt_table[0])

int control_text(const char *src, size_t len, char *buf, char *err,
                 size_t errlen)
{
    size_t n = strnlen(src, len);
    if (n > CONTROL_MAX_TEXT) {
        snprintf(err, errlen, "text of %zu bytes is longer than %d", n,
                 CONTROL_MAX_TEXT);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)src[i];
        if ((c < 0x20 && c != '\t') || c > 0x7e) {
            snprintf(err, errlen,
                     "byte 0x%02x at offset %zu: only printable ASCII is "
                     "accepted",
                     c, i);
            return -1;
        }
    }
    memcpy(buf, src, n);
    buf[n] = '\0';
    return 0;
}

/* Splits text (modified in place) on blanks. Returns the count, or -1. */
static int tokenize(char *text, char **tok, int max)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(text, " \t", &save); t;
         t = strtok_r(NULL, " \t", &save)) {
        if (n == max)
            return -1;
        tok[n++] = t;
    }
    return n;
}

static const struct workload *find(const char *name, char *err, size_t errlen)
{
    const struct workload *w = workload_find(name);
    if (!w)
        snprintf(err, errlen,
                 "unknown workload \"%.64s\"; the catalogue is "
                 "parallax.catalogue",
                 name);
    return w;
}

/* Applies one "--key=value" to req. 0, or -1 with the reason. */
static int set_option(const char *tok, struct start_req *req, bool *count,
                      char *err, size_t errlen)
{
    const char *kv = tok + 2, *eq = strchr(kv, '=');
    int id = -1;
    for (int i = 0; eq && i < NOPTS; i++)
        if (strlen(opt_table[i].name) == (size_t)(eq - kv) &&
            strncmp(opt_table[i].name, kv, (size_t)(eq - kv)) == 0)
            id = i;
    if (id < 0) {
        snprintf(err, errlen,
                 "unknown option \"%.64s\"; options: --repeats=N "
                 "--duration=SECS --count=N --warmup=SECS --cpu=N "
                 "--lease=SECS",
                 tok);
        return -1;
    }
    double v;
    if (!params_decimal(eq + 1, &v) || v < opt_table[id].min ||
        v > opt_table[id].max || (opt_table[id].integer && v != floor(v))) {
        snprintf(err, errlen, "--%s=%.32s: expected %s %.10g..%.10g",
                 opt_table[id].name, eq + 1,
                 opt_table[id].integer ? "a whole number" : "a number",
                 opt_table[id].min, opt_table[id].max);
        return -1;
    }
    struct wl_run_opts *opt = &req->opt;
    switch ((enum opt_id)id) {
    case OPT_REPEATS:
        opt->repeats = (int)v;
        break;
    case OPT_DURATION:
        opt->duration = v;
        break;
    case OPT_COUNT:
        opt->count = (uint64_t)v;
        *count = true;
        break;
    case OPT_WARMUP:
        opt->warmup = v;
        break;
    case OPT_CPU:
        opt->cpu = (int)v;
        break;
    case OPT_LEASE:
        req->lease = v;
        break;
    }
    return 0;
}

int control_parse_start(const char *text, struct start_req *req, char *err,
                        size_t errlen)
{
    char buf[CONTROL_MAX_TEXT + 1], *tok[MAX_TOKENS];
    if (control_text(text, strlen(text), buf, err, errlen) < 0)
        return -1;
    int n = tokenize(buf, tok, MAX_TOKENS);
    if (n == 0) {
        snprintf(err, errlen, "no workload named");
        return -1;
    }
    if (n < 0) {
        snprintf(err, errlen, "more than %d words", MAX_TOKENS);
        return -1;
    }
    *req = (struct start_req){.w = find(tok[0], err, errlen)};
    if (!req->w)
        return -1;
    params_defaults(req->w, req->param);
    wl_run_opts_default(&req->opt);
    bool duration = false, count = false;
    for (int i = 1; i < n; i++) {
        int rc;
        if (strncmp(tok[i], "--", 2) == 0) {
            duration |= strncmp(tok[i], "--duration=", 11) == 0;
            rc = set_option(tok[i], req, &count, err, errlen);
        } else {
            rc = params_set(req->w, req->param, tok[i], err, errlen);
        }
        if (rc < 0)
            return -1;
    }
    if (duration && count) {
        snprintf(err, errlen, "give --duration or --count, not both");
        return -1;
    }
    return 0;
}

const struct workload *control_parse_name(const char *text, char *err,
                                          size_t errlen)
{
    char buf[CONTROL_MAX_TEXT + 1], *tok[2];
    if (control_text(text, strlen(text), buf, err, errlen) < 0)
        return NULL;
    int n = tokenize(buf, tok, 2);
    if (n != 1) {
        snprintf(err, errlen, "expected one workload name, got %s",
                 n == 0 ? "none" : "more");
        return NULL;
    }
    return find(tok[0], err, errlen);
}

int control_parse_renew(const char *text, double *lease,
                        const struct workload **w, int max, char *err,
                        size_t errlen)
{
    char buf[CONTROL_MAX_TEXT + 1], *tok[CONTROL_MAX_NAMES + 1];
    if (control_text(text, strlen(text), buf, err, errlen) < 0)
        return -1;
    int lim = max < CONTROL_MAX_NAMES ? max : CONTROL_MAX_NAMES;
    int n = tokenize(buf, tok, lim + 1), names = 0;
    struct start_req req = {.lease = 0};
    bool count = false;
    for (int i = 0; i < n; i++) {
        if (strncmp(tok[i], "--", 2) == 0) {
            if (strncmp(tok[i], "--lease=", 8) != 0) {
                snprintf(err, errlen,
                         "unknown option \"%.64s\"; a renewal takes "
                         "--lease=SECS and workload names",
                         tok[i]);
                return -1;
            }
            if (set_option(tok[i], &req, &count, err, errlen) < 0)
                return -1;
        } else if (names == lim) {
            n = -1;
            break;
        } else if (!(w[names++] = find(tok[i], err, errlen))) {
            return -1;
        }
    }
    if (n < 0) {
        snprintf(err, errlen, "more than %d names", lim);
        return -1;
    }
    if (names == 0) {
        snprintf(err, errlen, "expected workload names, got none");
        return -1;
    }
    *lease = req.lease;
    return names;
}

void control_format_args(const struct start_req *req, char *buf, size_t len)
{
    const struct wl_run_opts *opt = &req->opt;
    char params[512];
    params_format(req->w, req->param, false, params, sizeof params);
    int n;
    if (opt->count)
        n = snprintf(buf, len, "--repeats=%d --count=%llu", opt->repeats,
                     (unsigned long long)opt->count);
    else
        n = snprintf(buf, len, "--repeats=%d --duration=%.10g", opt->repeats,
                     opt->duration);
    if (n < 0 || (size_t)n >= len)
        return;
    n += snprintf(buf + n, len - (size_t)n, " --warmup=%.10g", opt->warmup);
    if (opt->cpu >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " --cpu=%d", opt->cpu);
    if (req->lease > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " --lease=%.10g", req->lease);
    if (params[0] && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " %s", params);
}
