/* pmproxy's /series REST calls (PMWEBAPI(3)), each a request and a JSON
 * answer read with jansson and handed over item by item to a callback.
 * The parsers are separate from the requests so that captured answers can
 * be tested without a server. Series, source and instance identifiers are
 * 40 hex digits (SHA-1); callbacks get them as received, checked to be
 * that. */
#ifndef PARALLAX_SERIES_H
#define PARALLAX_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fleet/http.h"

#define SERIES_ID_LEN 40

/* A growable list of identifiers. */
struct series_ids {
    int n, cap;
    char (*id)[SERIES_ID_LEN + 1];
};

/* Adds id to l; false when out of memory. */
bool series_ids_add(struct series_ids *l, const char *id);

/* Frees l's storage and empties it. */
void series_ids_free(struct series_ids *l);

/* The 64-bit key of an identifier (its first 16 hex digits): what maps
 * hold instead of the text. 0 for an identifier that is not hex. */
uint64_t series_key(const char *id);

typedef void (*series_desc_cb)(void *arg, const char *series,
                               const char *source, const char *units);
typedef void (*series_label_cb)(void *arg, const char *series, const char *name,
                                const char *value);
typedef void (*series_inst_cb)(void *arg, const char *series,
                               const char *instance, const char *name);
/* instance NULL for a singular metric; stamp in seconds since the epoch;
 * value as pmproxy sends it (a number, or a string in double quotes). */
typedef void (*series_value_cb)(void *arg, const char *series,
                                const char *instance, double stamp,
                                const char *value);

/* Parsers of the answers: 0, or -1 with the reason in err. */
int series_parse_ids(const char *json, struct series_ids *out, char *err,
                     size_t errlen);
int series_parse_descs(const char *json, series_desc_cb cb, void *arg,
                       char *err, size_t errlen);
int series_parse_labels(const char *json, series_label_cb cb, void *arg,
                        char *err, size_t errlen);
int series_parse_instances(const char *json, series_inst_cb cb, void *arg,
                           char *err, size_t errlen);
int series_parse_values(const char *json, series_value_cb cb, void *arg,
                        char *err, size_t errlen);

/* The requests. `ids` go in POST bodies of at most SERIES_CHUNK each.
 * Each returns 0, or -1 with a one-line reason in err (no answer, an HTTP
 * error and what pmproxy said, an answer that is not what PMWEBAPI(3)
 * says). */
#define SERIES_CHUNK 400
int series_query(struct http *h, const char *expr, struct series_ids *out,
                 char *err, size_t errlen);
int series_descs(struct http *h, const struct series_ids *ids,
                 series_desc_cb cb, void *arg, char *err, size_t errlen);
int series_labels(struct http *h, const struct series_ids *ids,
                  series_label_cb cb, void *arg, char *err, size_t errlen);
int series_instances(struct http *h, const struct series_ids *ids,
                     series_inst_cb cb, void *arg, char *err, size_t errlen);
int series_values(struct http *h, const struct series_ids *ids,
                  series_value_cb cb, void *arg, char *err, size_t errlen);

#endif
