/* See diag.h. One fprintf per line: stdio's lock keeps the lines of the
 * sampler threads and the main thread whole. A message may quote a guest
 * or a file: it is made safe (base/safe_text.h), so that reading the log
 * in a terminal is too. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "base/safe_text.h"

int diag_level;

void diag_set_level(int level)
{
    diag_level = level;
}

void diag_write(const char *fmt, ...)
{
    char msg[512], stamp[32];
    struct timespec ts;
    struct tm tm;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    safe_text(msg);
    clock_gettime(CLOCK_REALTIME, &ts);
    strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S",
             localtime_r(&ts.tv_sec, &tm));
    fprintf(stderr, "%s.%03ld parallax: %s\n", stamp, ts.tv_nsec / 1000000,
            msg);
}
