/* A collector backend (collectors/backend.h) that reads one pmcd through
 * pmproxy's live /pmapi interface instead of a PCP context of our own:
 * what opens a fleet guest and its host side by side (Enter on the fleet
 * screen). pmproxy 6.0.3's /pmapi lets a paused pmcd hold other requests
 * up (issue 20), so it is kept for a few sources at a time and every
 * request has a timeout; the sampler thread that owns it is the only one
 * that waits. Targets are pmcd host specs as pmproxy reaches them (the
 * parallax_pmcd label). No PCP headers: HTTP and JSON. */
#ifndef PARALLAX_PMAPI_SOURCE_H
#define PARALLAX_PMAPI_SOURCE_H

#include "collectors/backend.h"
#include "core/agent_metrics.h"

extern const struct backend backend_pmapi;

/* The registry a session gets for sources read this way (NULL-ended). */
extern const struct backend *const pmapi_backends[];

/* The pmproxy every backend_pmapi source goes through; set before any of
 * them opens (the main thread, between screens). */
void pmapi_source_set_url(const char *url);

/* What pmdaparallax exports that the screen shows, by name: the reads of
 * both clients of core/agent_metrics.h, whose names are its own
 * (tests/integration/test_agent_names.sh holds them to a real agent's). */
enum agent_field {
#define PAF_ENUM(k, row) PAF_##k,
    AGENT_JOB_READS(PAF_ENUM) AGENT_PROBE_READS(PAF_ENUM)
#undef PAF_ENUM
        PAF_COUNT
};

extern const char *const pmapi_agent_names[PAF_COUNT];

#endif
