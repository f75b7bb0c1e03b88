/* See http.h. The body grows in one buffer reused by every request of a
 * client; libcurl's own signal handling is off (threads), so timeouts rely
 * on its threaded resolver or on numeric addresses. */
#include "fleet/http.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"

struct http {
    CURL *curl;
    char base[256];
    char *url; /* base + path, rebuilt per request */
    size_t url_cap;
    char *body;
    size_t len, cap;
    bool too_long;
    long timeout_ms;
    double last_ms;
    enum http_fail fail;
};

/* libcurl (with its TLS, HTTP/2, SSH, LDAP and Kerberos libraries: 30 of
 * them) is loaded when a fleet is watched, not linked: linked, every run
 * mapped them (issue 29). The calls made go through this table, filled
 * once; debian/control names the package, as dpkg-shlibdeps does not see
 * a dlopen. */
#define CURL_SONAME  "libcurl.so.4"
#define CURL_PACKAGE "libcurl4"

static struct {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_perform) *easy_perform;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
} lib;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static bool lib_ok;
static char lib_why[128];

#define SYM(field, name)                                                       \
    do {                                                                       \
        *(void **)&lib.field = dlsym(h, name);                                 \
        if (!lib.field) {                                                      \
            snprintf(lib_why, sizeof(lib_why), "%s has no %s", CURL_SONAME,    \
                     name);                                                    \
            return;                                                            \
        }                                                                      \
    } while (0)

static void lib_load(void)
{
    snprintf(lib_why, sizeof(lib_why), "%s is not installed", CURL_SONAME);
    void *h = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    SYM(global_init, "curl_global_init");
    SYM(easy_init, "curl_easy_init");
    SYM(easy_setopt, "curl_easy_setopt");
    SYM(easy_perform, "curl_easy_perform");
    SYM(easy_getinfo, "curl_easy_getinfo");
    SYM(easy_strerror, "curl_easy_strerror");
    SYM(easy_cleanup, "curl_easy_cleanup");
    if (lib.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        snprintf(lib_why, sizeof(lib_why), "libcurl could not start");
    else
        lib_ok = true;
}

int http_global_init(char *err, size_t errlen)
{
    pthread_once(&lib_once, lib_load);
    if (lib_ok)
        return 0;
    snprintf(err, errlen, "--fleet needs libcurl (%s): apt-get install %s",
             lib_why, CURL_PACKAGE);
    return -1;
}

static size_t on_data(char *data, size_t size, size_t n, void *arg)
{
    struct http *h = arg;
    size_t add = size * n;
    if (h->len + add + 1 > HTTP_BODY_MAX) {
        h->too_long = true;
        return 0; /* libcurl aborts the transfer */
    }
    if (h->len + add + 1 > h->cap) {
        size_t cap = h->cap ? h->cap : 16384;
        while (cap < h->len + add + 1)
            cap *= 2;
        char *b = realloc(h->body, cap);
        if (!b)
            return 0;
        h->body = b;
        h->cap = cap;
    }
    memcpy(h->body + h->len, data, add);
    h->len += add;
    h->body[h->len] = '\0';
    return add;
}

struct http *http_new(const char *base_url, double timeout_s)
{
    if (!lib_ok) /* http_global_init first */
        return NULL;
    struct http *h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    h->curl = lib.easy_init();
    if (!h->curl) {
        free(h);
        return NULL;
    }
    snprintf(h->base, sizeof(h->base), "%s", base_url);
    size_t bl = strlen(h->base);
    while (bl > 0 && h->base[bl - 1] == '/')
        h->base[--bl] = '\0';
    lib.easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
    lib.easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_data);
    lib.easy_setopt(h->curl, CURLOPT_WRITEDATA, h);
    lib.easy_setopt(h->curl, CURLOPT_TCP_KEEPALIVE, 1L);
    /* pmproxy's answers are plain HTTP; nothing else is followed */
    lib.easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
    lib.easy_setopt(h->curl, CURLOPT_FOLLOWLOCATION, 0L);
    /* refused at once when its Content-Length says so; on_data stops the
     * others */
    lib.easy_setopt(h->curl, CURLOPT_MAXFILESIZE_LARGE,
                    (curl_off_t)HTTP_BODY_MAX - 1);
    http_set_timeout(h, timeout_s);
    return h;
}

void http_set_timeout(struct http *h, double timeout_s)
{
    h->timeout_ms = (long)(timeout_s * 1000);
    if (h->timeout_ms < 50)
        h->timeout_ms = 50;
    lib.easy_setopt(h->curl, CURLOPT_TIMEOUT_MS, h->timeout_ms);
    lib.easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT_MS, h->timeout_ms / 2);
}

int http_request(struct http *h, const char *path_query, const char *form,
                 const char **body, char *err, size_t errlen)
{
    size_t need = strlen(h->base) + strlen(path_query) + 1;
    if (need > h->url_cap) {
        char *u = realloc(h->url, need);
        if (!u) {
            h->fail = HTTP_FAILED;
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        h->url = u;
        h->url_cap = need;
    }
    snprintf(h->url, h->url_cap, "%s%s", h->base, path_query);
    lib.easy_setopt(h->curl, CURLOPT_URL, h->url);
    if (form) {
        lib.easy_setopt(h->curl, CURLOPT_POSTFIELDS, form);
        lib.easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE, (long)strlen(form));
    } else {
        lib.easy_setopt(h->curl, CURLOPT_HTTPGET, 1L);
    }
    if (h->cap > HTTP_BODY_KEEP) { /* the last answer was long: not kept */
        free(h->body);
        h->body = NULL;
        h->cap = 0;
    }
    h->len = 0;
    h->too_long = false;
    if (h->body)
        h->body[0] = '\0';
    double t0 = clock_mono();
    CURLcode rc = lib.easy_perform(h->curl);
    h->last_ms = (clock_mono() - t0) * 1e3;
    h->fail = HTTP_OK;
    if (rc != CURLE_OK) {
        /* (curl_easy_strerror's texts are libcurl's own, never the
         * server's) */
        if (h->too_long || rc == CURLE_FILESIZE_EXCEEDED) {
            h->fail = HTTP_TOO_LONG;
            snprintf(err, errlen,
                     "an answer longer than %u MB (parallax takes no more)",
                     HTTP_BODY_MAX >> 20);
        } else if (rc == CURLE_OPERATION_TIMEDOUT) {
            h->fail = HTTP_TIMEOUT;
            snprintf(err, errlen, "no answer in %.1f s",
                     (double)h->timeout_ms / 1000);
        } else {
            h->fail =
                rc == CURLE_COULDNT_CONNECT ? HTTP_NO_CONNECTION : HTTP_FAILED;
            snprintf(err, errlen, "%s", lib.easy_strerror(rc));
        }
        return -1;
    }
    long status = 0;
    lib.easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &status);
    *body = h->body ? h->body : "";
    return (int)status;
}

double http_last_ms(const struct http *h)
{
    return h->last_ms;
}

enum http_fail http_last_fail(const struct http *h)
{
    return h->fail;
}

double http_timeout(const struct http *h)
{
    return (double)h->timeout_ms / 1000;
}

bool http_append_escaped(char *buf, size_t *len, size_t cap, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = *len;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                     (*p >= '0' && *p <= '9') || strchr("-_.~", *p);
        if (n + (plain ? 1 : 3) + 1 > cap) {
            buf[*len] = '\0'; /* as it was */
            return false;
        }
        if (plain) {
            buf[n++] = (char)*p;
        } else {
            buf[n++] = '%';
            buf[n++] = hex[*p >> 4];
            buf[n++] = hex[*p & 15];
        }
    }
    buf[n] = '\0';
    *len = n;
    return true;
}

void http_free(struct http *h)
{
    if (!h)
        return;
    lib.easy_cleanup(h->curl);
    free(h->url);
    free(h->body);
    free(h);
}
