/* See pcp_env.h. */
#include "cli/pcp_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/options.h"
#include "collectors/archive_source.h"
#include "collectors/pcp_container.h"
#include "collectors/pcp_time.h"

#define ENV_MAX 32 /* options the environment adds, at most */

static const struct {
    const char *var, *opt;
    int has_arg;
} env_opts[] = {
    {"PCP_HOST", "-h", 1},        {"PCP_ARCHIVE", "-a", 1},
    {"PCP_INTERVAL", "-t", 1},    {"PCP_SAMPLES", "-s", 1},
    {"PCP_START_TIME", "-S", 1},  {"PCP_FINISH_TIME", "-T", 1},
    {"PCP_ORIGIN_TIME", "-O", 1}, {"PCP_TIMEZONE", "-Z", 1},
    {"PCP_HOSTZONE", "-z", 0},    {"PCP_ALIGN_TIME", "-A", 1},
};

char **pcp_env_args(int *argc, char **argv)
{
    static char **out;
    static int cap;
    int n = 0, need = *argc + ENV_MAX + 1;
    if (need > cap) {
        char **grown = realloc(out, (size_t)need * sizeof(*out));
        if (!grown)
            return argv; /* the command line alone, then */
        out = grown;
        cap = need;
    }
    out[n++] = argv[0];
    for (size_t i = 0; i < sizeof(env_opts) / sizeof(env_opts[0]); i++) {
        const char *v = getenv(env_opts[i].var);
        if (!v || (env_opts[i].has_arg && !*v))
            continue;
        out[n++] = (char *)env_opts[i].opt;
        if (env_opts[i].has_arg)
            out[n++] = (char *)v;
    }
    for (int i = 1; i < *argc; i++)
        out[n++] = argv[i];
    out[n] = NULL;
    *argc = n;
    return out;
}

static int zone_apply(const struct options *o, char *err, size_t errlen);

static int set_tz(const char *tz, char *err, size_t errlen)
{
    if (setenv("TZ", tz, 1) < 0) {
        snprintf(err, errlen, "cannot set the time zone %s", tz);
        return -1;
    }
    tzset();
    return 0;
}

int pcp_env_apply(const struct options *o, char *err, size_t errlen)
{
    for (int i = 0; i < o->ncontainers; i++)
        if (pcp_container_check(o->containers[i].host, o->containers[i].name,
                                err, errlen) < 0)
            return -1;
    return zone_apply(o, err, errlen);
}

static int zone_apply(const struct options *o, char *err, size_t errlen)
{
    char tz[256], why[512];
    if (o->timezone)
        return set_tz(o->timezone, err, errlen);
    if (!o->hostzone)
        return 0;
    if (o->narchives > 0) {
        struct source_spec spec[64];
        if (archive_find(o->archives[0], spec, 64, why, sizeof(why)) < 0 ||
            pcp_time_zone_archive(spec[0].target, tz, sizeof(tz), why,
                                  sizeof(why)) < 0) {
            snprintf(err, errlen, "-z: %s", why);
            return -1;
        }
    } else if (o->nguests > 0) {
        if (pcp_time_zone_host(o->guests[0].target, tz, sizeof(tz), why,
                               sizeof(why)) < 0) {
            snprintf(err, errlen, "-z: %s", why);
            return -1;
        }
    } else {
        return 0; /* this host's zone is the one in use */
    }
    return set_tz(tz, err, errlen);
}
