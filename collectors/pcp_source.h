/* The PCP reader behind backend_pcp_local and backend_pcp_host, opened on
 * any kind of context: collectors/archive_source.c reads archives with it,
 * asking for its own metrics beside the table's (struct pcp_extra). */
#ifndef PARALLAX_PCP_SOURCE_H
#define PARALLAX_PCP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <pcp/pmapi.h>

#include "core/sample.h"

#define PCP_EXTRA_MAX 32

/* Metrics fetched with the table's: decode gets their value sets (in the
 * order of names), descriptors and whether the context has each (a
 * missing one's set is meaningless), with the sample being filled. */
struct pcp_extra {
    const char *const *names;
    int n; /* at most PCP_EXTRA_MAX */
    void (*decode)(void *arg, pmValueSet *const *vs, const pmDesc *desc,
                   const bool *known, struct sample *out);
    void *arg;
};

/* Reads PCP's configuration and registers the table's derived metrics,
 * once, before any thread uses PCP (the backends' global_init). */
void pcp_source_global_init(void);

/* Opens a context of `type` (PM_CONTEXT_LOCAL, _HOST, _ARCHIVE) on target
 * and looks the table, pmdaparallax's metrics and extra (may be NULL) up;
 * an archive context fetches every metric every time. The state, or NULL
 * with one line in err. */
void *pcp_source_open(int type, const char *target,
                      const struct pcp_extra *extra, char *err, size_t errlen);

/* One pmFetch into out (values, the result's timestamp as t_source, the
 * fetch bracketed by the host's monotonic clock). 0, or -1 with
 * out->error set. */
int pcp_source_fetch(void *state, struct sample *out);

/* The PCP context, for pmSetMode and friends. */
int pcp_source_context(void *state);

/* True when the context has metric `id` of the table (core/metrics.h). */
bool pcp_source_has(void *state, int id);

void pcp_source_close(void *state);

/* The host part of a target ("host[:port]", an IPv6 host in brackets). */
void pcp_target_host(const char *target, char *host, size_t n);

#endif
