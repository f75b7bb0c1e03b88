/* See pcp_time.h. */
#include "collectors/pcp_time.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>

static double tv_secs(const struct timeval *tv)
{
    return (double)tv->tv_sec + tv->tv_usec / 1e6;
}

static struct timeval secs_tv(double s)
{
    struct timeval tv = {.tv_sec = (time_t)floor(s)};
    tv.tv_usec = (suseconds_t)llround((s - floor(s)) * 1e6);
    if (tv.tv_usec >= 1000000) {
        tv.tv_sec++;
        tv.tv_usec -= 1000000;
    }
    return tv;
}

/* PCP's message, one line: it echoes the text, then points at the bad
 * character with "^ -- REASON" on a second line; the reason is kept. */
static void pcp_message(char *msg, char *err, size_t errlen)
{
    const char *why = msg ? strstr(msg, "-- ") : NULL;
    snprintf(err, errlen, "%s", why ? why + 3 : "not understood");
    char *nl = strchr(err, '\n');
    if (nl)
        *nl = '\0';
    free(msg);
}

int pcp_time_interval(const char *s, double *secs, char *err, size_t errlen)
{
    struct timeval tv;
    char *msg = NULL;
    /* strtod's hexadecimal is none of PCP's units: "0x1" is refused */
    if (strpbrk(s, "xX")) {
        snprintf(err, errlen, "not an interval");
        return -1;
    }
    if (pmParseInterval(s, &tv, &msg) < 0) {
        pcp_message(msg, err, errlen);
        return -1;
    }
    free(msg);
    *secs = tv_secs(&tv);
    return 0;
}

int pcp_time_window(const char *start, const char *finish, const char *origin,
                    double lo, double hi, double *wstart, double *wfinish,
                    double *worigin, char *err, size_t errlen)
{
    struct timeval l = secs_tv(lo), h = secs_tv(hi), rs, re, ro;
    char *msg = NULL;
    if (pmParseTimeWindow(start, finish, NULL, origin, &l, &h, &rs, &re, &ro,
                          &msg) < 0) {
        pcp_message(msg, err, errlen);
        return -1;
    }
    free(msg);
    *wstart = tv_secs(&rs);
    *wfinish = tv_secs(&re);
    *worigin = tv_secs(&ro);
    return 0;
}

/* The zone of the current context, into tz. */
static int context_zone(const char *what, char *tz, size_t n, char *err,
                        size_t errlen)
{
    char *z = NULL, msg[PM_MAXERRMSGLEN];
    int sts = pmNewContextZone();
    if (sts >= 0)
        sts = pmWhichZone(&z);
    if (sts < 0 || !z) {
        snprintf(err, errlen, "%s: no time zone (%s)", what,
                 pmErrStr_r(sts, msg, sizeof(msg)));
        return -1;
    }
    snprintf(tz, n, "%s", z);
    return 0;
}

static int zone_of(int type, const char *name, char *tz, size_t n, char *err,
                   size_t errlen)
{
    char msg[PM_MAXERRMSGLEN];
    int ctx = pmNewContext(type, name);
    if (ctx < 0) {
        snprintf(err, errlen, "%s: %s", name,
                 pmErrStr_r(ctx, msg, sizeof(msg)));
        return -1;
    }
    int rc = context_zone(name, tz, n, err, errlen);
    pmDestroyContext(ctx);
    return rc;
}

int pcp_time_zone_archive(const char *archive, char *tz, size_t n, char *err,
                          size_t errlen)
{
    return zone_of(PM_CONTEXT_ARCHIVE, archive, tz, n, err, errlen);
}

int pcp_time_zone_host(const char *host, char *tz, size_t n, char *err,
                       size_t errlen)
{
    return zone_of(PM_CONTEXT_HOST, host, tz, n, err, errlen);
}
