/* PCP's time conventions for the command line (pmGetOptions(3)): -t in
 * PCP's interval syntax, -S/-T/-O windows over an archive's span, -z's
 * time zone of a source. libpcp parses them, so parallax reads them as
 * every PCP tool does. */
#ifndef PARALLAX_PCP_TIME_H
#define PARALLAX_PCP_TIME_H

#include <stddef.h>

/* "2sec", "500msec", "1min", "1 hour 30 min" (pmParseInterval(3)) into
 * seconds. 0, or -1 with PCP's reason in err. */
int pcp_time_interval(const char *s, double *secs, char *err, size_t errlen);

/* The window -S start, -T finish and -O origin (each NULL when not given;
 * pmParseTimeWindow(3) syntax: "+30sec" from the start, "-1min" before
 * the end, "@ 14:02:11", "2024-05-01 14:02:11") make of [lo, hi] (s since
 * the epoch): its start, finish and origin. 0, or -1 with PCP's reason in
 * err. */
int pcp_time_window(const char *start, const char *finish, const char *origin,
                    double lo, double hi, double *wstart, double *wfinish,
                    double *worigin, char *err, size_t errlen);

/* The time zone a source's times were taken in ($TZ there): an archive's
 * (its base name, a directory or a list) from its label, or a pmcd's
 * (HOST[:PORT]) from the host. 0, or -1 with err naming it. */
int pcp_time_zone_archive(const char *archive, char *tz, size_t n, char *err,
                          size_t errlen);
int pcp_time_zone_host(const char *host, char *tz, size_t n, char *err,
                       size_t errlen);

#endif
