/* A plain HTTP client for pmproxy's REST interface (libcurl): one
 * keep-alive connection per struct http, used by one thread, every request
 * bounded by a timeout so that a slow or dead pmproxy never holds the
 * caller longer than it asked. */
#ifndef PARALLAX_HTTP_H
#define PARALLAX_HTTP_H

#include <stdbool.h>
#include <stddef.h>

/* A longer answer is refused (before it is read when it says its length):
 * the longest parallax asks for is a /series/query of one metric name,
 * 43 bytes a source (8 MB: 190,000 sources); every other answer comes in
 * chunks of SERIES_CHUNK series (under 1 MB) or is one source's (/pmapi).
 * A hostile server's 50 MB answers once held 140 MB (issue 24). */
#define HTTP_BODY_MAX (8u << 20)
/* A body buffer grown beyond this is given back after its request. */
#define HTTP_BODY_KEEP (1u << 20)

/* How the last request failed. */
enum http_fail {
    HTTP_OK,            /* an answer came (of any HTTP status) */
    HTTP_NO_CONNECTION, /* nobody took the connection */
    HTTP_TIMEOUT,       /* no whole answer within the timeout */
    HTTP_TOO_LONG,      /* longer than HTTP_BODY_MAX */
    HTTP_FAILED,        /* anything else (reset, malformed HTTP...) */
};

struct http;

/* Loads libcurl (the first time) and sets it up process-wide; call in
 * the main thread before any thread makes a request. 0, or -1 with a
 * one-line message in err (naming the package when libcurl is missing). */
int http_global_init(char *err, size_t errlen);

/* A client of `base_url` ("http://host:port", no trailing path) whose
 * requests give up after timeout_s seconds (connecting: at most half of
 * it). NULL when out of memory. */
struct http *http_new(const char *base_url, double timeout_s);

/* Changes the timeout of the next requests. */
void http_set_timeout(struct http *h, double timeout_s);

/* GETs base_url + path_query (already URL-encoded), or POSTs `form` (an
 * application/x-www-form-urlencoded body) to it when form is not NULL.
 * Returns the HTTP status (200 ...) with the body in *body (0-terminated,
 * valid until the next request on h), or -1 with a one-line reason in err
 * (no connection, timeout, body too long). */
int http_request(struct http *h, const char *path_query, const char *form,
                 const char **body, char *err, size_t errlen);

/* The milliseconds the last request took, connecting included. */
double http_last_ms(const struct http *h);

/* How the last request failed, HTTP_OK when it was answered. */
enum http_fail http_last_fail(const struct http *h);

/* The timeout requests have now, in seconds. */
double http_timeout(const struct http *h);

/* Appends `s` URL-encoded to buf (length *len, capacity cap); false when
 * it does not fit (buf is then unchanged). */
bool http_append_escaped(char *buf, size_t *len, size_t cap, const char *s);

/* Closes the connection and frees h. */
void http_free(struct http *h);

#endif
