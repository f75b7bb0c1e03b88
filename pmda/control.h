/* What a client stores into the control metrics, parsed and checked. The
 * text comes from the wire, so nothing in it is trusted: only catalogue
 * names, known keys and in-bounds numbers pass, and every refusal is one
 * line naming why. The text never reaches a shell or an exec.
 *
 * parallax.control.start takes
 *   NAME [--repeats=N] [--duration=SECS] [--count=N] [--warmup=SECS]
 *        [--cpu=N] [--lease=SECS] [key=value ...]
 * where "--" marks the run's options (as parallax-run's flags, and the
 * agent's lease) and key=value the workload's own parameters, so the two
 * never collide. parallax.control.renew takes [--lease=SECS] NAME [NAME
 * ...]. */
#ifndef PARALLAX_PMDA_CONTROL_H
#define PARALLAX_PMDA_CONTROL_H

#include <stddef.h>

#include "runner/runner.h"
#include "workloads/workload.h"

#define CONTROL_MAX_TEXT    1024 /* bytes a stored string may hold */
#define CONTROL_MAX_REPEATS 100  /* of WL_RUN_MAX_REPEATS: caps one run */
#define CONTROL_LEASE_MIN   2    /* s: a lease, bounded both ways */
#define CONTROL_LEASE_MAX   3600
#define CONTROL_MAX_NAMES   64 /* names one renewal may give */

/* A checked request to start a run. */
struct start_req {
    const struct workload *w;
    double param[WL_MAX_PARAMS];
    struct wl_run_opts opt;
    double lease; /* s without a renewal before the agent stops the run;
                     0: none (it runs to its end) */
};

/* Parses a start command into req. 0, or -1 with the reason in err. */
int control_parse_start(const char *text, struct start_req *req, char *err,
                        size_t errlen);

/* The workload a stop command names (exactly one catalogue name, blanks
 * around it allowed), or NULL with the reason in err. */
const struct workload *control_parse_name(const char *text, char *err,
                                          size_t errlen);

/* A renewal, "[--lease=SECS] NAME [NAME ...]": the workloads it names
 * (one or more catalogue names, separated by blanks) into w[0..max), and
 * the lease they get from now on into *lease (0: each keeps its own). How
 * many names, or -1 with the reason in err. */
int control_parse_renew(const char *text, double *lease,
                        const struct workload **w, int max, char *err,
                        size_t errlen);

/* Writes how a run was started, in start syntax without the name:
 * "--repeats=3 --duration=1 --lease=30 size=64" (options first, then
 * parameters that differ from their defaults). */
void control_format_args(const struct start_req *req, char *buf, size_t len);

/* Copies at most len bytes of wire text into buf (size CONTROL_MAX_TEXT+1),
 * ending at the first NUL. 0, or -1 with the reason in err when the text is
 * too long or holds a byte that is not printable ASCII. */
int control_text(const char *src, size_t len, char *buf, char *err,
                 size_t errlen);

#endif
