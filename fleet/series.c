/* See series.h. pmproxy 6.0.3 answers /series/values with timestamps in
 * milliseconds (the man page's /series/query example shows seconds), and
 * string values inside their own double quotes. */
#include "fleet/series.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/safe_text.h"
#include "fleet/fleet_labels.h"

bool series_ids_add(struct series_ids *l, const char *id)
{
    void *p = grow(l->id, &l->cap, l->n + 1, sizeof(l->id[0]), 64);
    if (!p)
        return false;
    l->id = p;
    snprintf(l->id[l->n++], sizeof(l->id[0]), "%s", id);
    return true;
}

void series_ids_free(struct series_ids *l)
{
    free(l->id);
    l->id = NULL;
    l->n = l->cap = 0;
}

uint64_t series_key(const char *id)
{
    uint64_t k = 0;
    for (int i = 0; i < 16; i++) {
        char c = id[i];
        int v = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (v < 0)
            return 0;
        k = k << 4 | (uint64_t)v;
    }
    return k;
}

/* 40 hex digits: nothing else passes as an identifier (a check of the
 * first 16 once let 24 bytes of anything through into the model). */
static bool is_id(const char *s)
{
    if (!s || strlen(s) != SERIES_ID_LEN)
        return false;
    for (int i = 0; i < SERIES_ID_LEN; i++)
        if (!strchr("0123456789abcdefABCDEF", s[i]))
            return false;
    return series_key(s) != 0;
}

/* The answer as an array; NULL with the reason in err. */
static json_t *load_array(const char *text, char *err, size_t errlen)
{
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    if (!root) { /* jansson's reason quotes the answer: cleaned */
        char why[sizeof(je.text)];
        safe_text_copy(why, sizeof(why), je.text, 0);
        snprintf(err, errlen, "pmproxy's answer is not JSON (%s)", why);
        return NULL;
    }
    if (!json_is_array(root)) {
        json_decref(root);
        snprintf(err, errlen, "pmproxy's answer is not a JSON array");
        return NULL;
    }
    return root;
}

static const char *str_of(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* Calls item(o, cb, arg) for each element of the answer's array. */
static int walk(const char *json,
                void (*item)(json_t *, void (*)(void), void *),
                void (*cb)(void), void *arg, char *err, size_t errlen)
{
    json_t *a = load_array(json, err, errlen);
    if (!a)
        return -1;
    size_t i;
    json_t *o;
    json_array_foreach(a, i, o)
    {
        item(o, cb, arg);
    }
    json_decref(a);
    return 0;
}

static void id_item(json_t *o, void (*cb)(void), void *arg)
{
    (void)cb;
    const char *id = json_string_value(o);
    if (is_id(id))
        series_ids_add(arg, id);
}

int series_parse_ids(const char *json, struct series_ids *out, char *err,
                     size_t errlen)
{
    return walk(json, id_item, NULL, out, err, errlen);
}

static void desc_item(json_t *o, void (*cb)(void), void *arg)
{
    const char *series = str_of(o, "series"), *source = str_of(o, "source");
    const char *units = str_of(o, "units");
    if (is_id(series) && is_id(source))
        ((series_desc_cb)cb)(arg, series, source, units ? units : "");
}

int series_parse_descs(const char *json, series_desc_cb cb, void *arg,
                       char *err, size_t errlen)
{
    return walk(json, desc_item, (void (*)(void))cb, arg, err, errlen);
}

static void label_item(json_t *o, void (*cb)(void), void *arg)
{
    const char *series = str_of(o, "series"), *name;
    json_t *labels = json_object_get(o, "labels"), *v;
    if (!is_id(series) || !json_is_object(labels))
        return;
    json_object_foreach(labels, name, v)
    {
        char num[64];
        const char *text = json_string_value(v);
        if (!text && json_is_number(v)) {
            snprintf(num, sizeof(num), "%g", json_number_value(v));
            text = num;
        }
        if (text)
            ((series_label_cb)cb)(arg, series, name, text);
    }
}

int series_parse_labels(const char *json, series_label_cb cb, void *arg,
                        char *err, size_t errlen)
{
    return walk(json, label_item, (void (*)(void))cb, arg, err, errlen);
}

static void inst_item(json_t *o, void (*cb)(void), void *arg)
{
    const char *series = str_of(o, "series"), *inst = str_of(o, "instance");
    const char *name = str_of(o, "name");
    if (is_id(series) && is_id(inst) && name)
        ((series_inst_cb)cb)(arg, series, inst, name);
}

int series_parse_instances(const char *json, series_inst_cb cb, void *arg,
                           char *err, size_t errlen)
{
    return walk(json, inst_item, (void (*)(void))cb, arg, err, errlen);
}

static void value_item(json_t *o, void (*cb)(void), void *arg)
{
    const char *series = str_of(o, "series"), *inst = str_of(o, "instance");
    const char *value = str_of(o, "value");
    json_t *ts = json_object_get(o, "timestamp");
    if (is_id(series) && value && json_is_number(ts) && (!inst || is_id(inst)))
        ((series_value_cb)cb)(arg, series, inst, json_number_value(ts) / 1e3,
                              value);
}

int series_parse_values(const char *json, series_value_cb cb, void *arg,
                        char *err, size_t errlen)
{
    return walk(json, value_item, (void (*)(void))cb, arg, err, errlen);
}

/* An HTTP error as one line: the status and pmproxy's message, cleaned. */
static void http_error(int status, const char *body, char *err, size_t errlen)
{
    char said[160] = "";
    json_t *root = json_loads(body, 0, NULL);
    const char *msg = root ? str_of(root, "message") : NULL;
    if (msg) {
        safe_text_copy(said, sizeof(said), msg, 0);
    } else { /* an HTML page: its <p> line says it */
        const char *p = strstr(body, "<p>");
        char line[160];
        snprintf(line, sizeof(line), "%s", p ? p + 3 : body);
        line[strcspn(line, "<\n")] = '\0';
        safe_text_copy(said, sizeof(said), line, 0);
    }
    bool failed = root && json_is_false(json_object_get(root, "success"));
    /* libpcp_web 6.0.3 says "(type=none)" of a reply it never got from
     * its key-value server (redis.c, redis_reply_type of NULL) */
    bool no_reply = msg && strstr(msg, "(type=none)");
    json_decref(root);
    if (failed && !msg) /* what 6.0.3 answers while its redis is down */
        snprintf(err, errlen,
                 "pmproxy's key-value server is down? pmproxy failed the "
                 "series request with HTTP %d and no reason (see pmproxy's "
                 "log)",
                 status);
    else if (no_reply)
        snprintf(err, errlen,
                 "pmproxy's key-value server does not answer: pmproxy got "
                 "no reply from it (HTTP %d: %s)",
                 status, said);
    else
        snprintf(err, errlen, "pmproxy answered HTTP %d%s%s", status,
                 said[0] ? ": " : "", said);
}

/* GETs path (body NULL) or POSTs "series=ID,ID,..." of ids from..from+n
 * to it; the answer's text in *body. 0 or -1 with err. */
static int call(struct http *h, const char *path, const struct series_ids *ids,
                int from, int n, const char **body, char *err, size_t errlen)
{
    char *form = NULL;
    if (ids) {
        size_t cap = 16 + (size_t)n * (SERIES_ID_LEN + 1), len;
        form = malloc(cap);
        if (!form) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        len = (size_t)snprintf(form, cap, "series=");
        for (int i = from; i < from + n; i++)
            len += (size_t)snprintf(form + len, cap - len, "%s%s",
                                    i > from ? "," : "", ids->id[i]);
    }
    int status = http_request(h, path, form, body, err, errlen);
    free(form);
    if (status < 0)
        return -1;
    if (status != 200) {
        http_error(status, *body, err, errlen);
        return -1;
    }
    return 0;
}

int series_query(struct http *h, const char *expr, struct series_ids *out,
                 char *err, size_t errlen)
{
    char path[1024];
    size_t len = (size_t)snprintf(path, sizeof(path), "/series/query?expr=");
    const char *body;
    if (!http_append_escaped(path, &len, sizeof(path), expr)) {
        snprintf(err, errlen, "query too long");
        return -1;
    }
    if (call(h, path, NULL, 0, 0, &body, err, errlen) < 0)
        return -1;
    return series_parse_ids(body, out, err, errlen);
}

/* The kinds of answer a list of identifiers gets: where it is asked for
 * and how its items are read. */
enum answer { A_DESCS, A_LABELS, A_INSTANCES, A_VALUES };

static const struct {
    const char *path;
    void (*item)(json_t *, void (*)(void), void *);
} answers[] = {
    [A_DESCS] = {"/series/descs", desc_item},
    [A_LABELS] = {"/series/labels", label_item},
    [A_INSTANCES] = {"/series/instances", inst_item},
    [A_VALUES] = {"/series/values", value_item},
};

/* POSTs ids in chunks to the path of `kind`, each answer's items to cb
 * (of the kind's type). */
static int chunked(struct http *h, enum answer kind,
                   const struct series_ids *ids, void (*cb)(void), void *arg,
                   char *err, size_t errlen)
{
    for (int at = 0; at < ids->n; at += SERIES_CHUNK) {
        int n = ids->n - at < SERIES_CHUNK ? ids->n - at : SERIES_CHUNK;
        const char *body;
        if (call(h, answers[kind].path, ids, at, n, &body, err, errlen) < 0 ||
            walk(body, answers[kind].item, cb, arg, err, errlen) < 0)
            return -1;
    }
    return 0;
}

int series_descs(struct http *h, const struct series_ids *ids,
                 series_desc_cb cb, void *arg, char *err, size_t errlen)
{
    return chunked(h, A_DESCS, ids, (void (*)(void))cb, arg, err, errlen);
}

int series_labels(struct http *h, const struct series_ids *ids,
                  series_label_cb cb, void *arg, char *err, size_t errlen)
{
    return chunked(h, A_LABELS, ids, (void (*)(void))cb, arg, err, errlen);
}

int series_instances(struct http *h, const struct series_ids *ids,
                     series_inst_cb cb, void *arg, char *err, size_t errlen)
{
    return chunked(h, A_INSTANCES, ids, (void (*)(void))cb, arg, err, errlen);
}

int series_values(struct http *h, const struct series_ids *ids,
                  series_value_cb cb, void *arg, char *err, size_t errlen)
{
    return chunked(h, A_VALUES, ids, (void (*)(void))cb, arg, err, errlen);
}
