/* What pcp(1) passes to its commands (`pcp -h HOST parallax`, and any PCP
 * tool honours the same): its global options as environment variables
 * (PCP_HOST, PCP_ARCHIVE, PCP_INTERVAL, PCP_SAMPLES, PCP_START_TIME,
 * PCP_FINISH_TIME, PCP_ORIGIN_TIME, PCP_TIMEZONE, PCP_HOSTZONE, and
 * PCP_ALIGN_TIME, which parallax refuses), read as if given first on the
 * command line, as pmGetOptions(3) reads them; the time zone -z and -Z
 * choose for every time shown; the containers --container names. */
#ifndef PARALLAX_PCP_ENV_H
#define PARALLAX_PCP_ENV_H

#include <stddef.h>

struct options;

/* argv with the environment's options after argv[0] (a static copy:
 * one at a time), its length in *argc. */
char **pcp_env_args(int *argc, char **argv);

/* After the options, before any thread: each --container is one its pmcd
 * knows (pcp_container.h); -Z TZ: TZ for what parallax shows; -z: the zone
 * of the first archive (-a) or else the first guest (-h), asked of it. 0,
 * or -1 with err (exit 2). */
int pcp_env_apply(const struct options *o, char *err, size_t errlen);

#endif
