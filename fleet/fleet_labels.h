/* The fleet's labels: how a host, a guest and their pairing are declared.
 * Each pmcd of the fleet carries context labels of parallax's own (a file
 * in its $PCP_SYSCONF_DIR/labels/, docs/fleet.md); pmlogger copies them
 * into the archives and pmproxy into the key-value server, where
 * /series/labels and /series/query filters find them. PCP's `hostname`
 * label is always the machine's real name and cannot be overridden,
 * hence names of our own:
 *
 *   parallax_role     "host" or "guest"
 *   parallax_name     the name shown (default: the hostname label)
 *   parallax_host     a guest's host: that host's parallax_name
 *   parallax_variant  free text to filter on ("tcg", "icount", "uml")
 *   parallax_pmcd     HOST[:PORT] where parallax (workloads) and pmproxy
 *                     (/pmapi) reach its pmcd (default: the hostname)
 *
 * Everything read from the network goes through safe_text_copy first
 * (below). */
#ifndef PARALLAX_FLEET_LABELS_H
#define PARALLAX_FLEET_LABELS_H

#include <stddef.h>

enum fleet_role {
    FLEET_UNLABELLED, /* no parallax_role: shown, never paired */
    FLEET_HOST,
    FLEET_GUEST,
};

struct fleet_labels {
    enum fleet_role role;
    char name[48];
    char host[48];
    char variant[32];
    char pmcd[128];
    char hostname[64];
};

/* The label names, for filters and the docs. */
#define FLEET_LABEL_ROLE    "parallax_role"
#define FLEET_LABEL_NAME    "parallax_name"
#define FLEET_LABEL_HOST    "parallax_host"
#define FLEET_LABEL_VARIANT "parallax_variant"
#define FLEET_LABEL_PMCD    "parallax_pmcd"

/* Sets one label (name, value as received) into l, cleaned; labels of
 * other names are ignored. */
void fleet_labels_set(struct fleet_labels *l, const char *name,
                      const char *value);

/* Fills what the labels left empty: the name and pmcd address from the
 * hostname label. */
void fleet_labels_finish(struct fleet_labels *l);

/* Text from pmproxy and the pmcds behind it is made safe for a terminal
 * and a report by base/safe_text.h's safe_text_copy (printable UTF-8 is
 * kept, anything else becomes '?'), the one cleaner of parallax. Its
 * doors (issue 24 audited every path):
 *  - /series (fleet_poll.c, series.c): label values (fleet_labels_set),
 *    the kernel release, pmproxy's error messages and pages, and every
 *    reason a poll fails with (fleet_poll_state_run, jansson's too:
 *    series.c load_array); label names, units and instance names are
 *    only compared, identifiers only kept when 40 hex digits;
 *  - /pmapi (pmapi_source.c): pmproxy's messages, instance names, the
 *    release, host name, workload errors and extras; its samples then
 *    pass core/model.c's make_safe (base/safe_text.h) like any source's;
 *  - a fleet run's pmcds (fleet_run.c): through core/model.c's;
 *  - libcurl's reasons (http.c): its own texts, never the server's. */

#endif
