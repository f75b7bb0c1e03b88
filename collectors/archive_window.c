/* See archive_window.h. The index is cut in place: its positions, their
 * gap marks and the runs, renumbered; a run cut at the window's start
 * starts at its first position, one cut at its finish ends at its last. */
#include "collectors/archive_window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pcp/pmapi.h>

#include "collectors/pcp_time.h"

/* The window also goes into the environment, so that a process the
 * replay runs in (a reader parallax starts) sees the same one. */
#define ENV_START  "PARALLAX_REPLAY_START"
#define ENV_FINISH "PARALLAX_REPLAY_FINISH"
#define ENV_ORIGIN "PARALLAX_REPLAY_ORIGIN"

static const char *w_start, *w_finish, *w_origin;
static bool w_set;

static void export(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

void archive_window_set(const char *start, const char *finish,
                        const char *origin)
{
    w_start = start;
    w_finish = finish;
    w_origin = origin;
    w_set = true;
    export(ENV_START, start);
    export(ENV_FINISH, finish);
    export(ENV_ORIGIN, origin);
}

/* In a process whose window was never set: the one its parent exported. */
static void inherit(void)
{
    if (w_set)
        return;
    w_start = getenv(ENV_START);
    w_finish = getenv(ENV_FINISH);
    w_origin = getenv(ENV_ORIGIN);
    w_set = true;
}

bool archive_window_given(void)
{
    inherit();
    return w_start || w_finish || w_origin;
}

int archive_window_check(char *err, size_t errlen)
{
    double lo = (double)time(NULL) - 86400, hi = lo + 86400, s, f, o;
    char why[256];
    const char *opt[3] = {"-S", "-T", "-O"};
    const char *val[3] = {w_start, w_finish, w_origin};
    for (int i = 0; i < 3; i++) {
        if (!val[i])
            continue;
        if (pcp_time_window(i == 0 ? val[i] : NULL, i == 1 ? val[i] : NULL,
                            i == 2 ? val[i] : NULL, lo, hi, &s, &f, &o, why,
                            sizeof(why)) < 0) {
            snprintf(err, errlen,
                     "%s '%s' is not a time PCP knows (%s); try %s +10sec "
                     "or %s '@ 14:02:11'",
                     opt[i], val[i], why, opt[i], opt[i]);
            return -1;
        }
    }
    return 0;
}

static void clock_text(double t, char *buf, size_t n)
{
    time_t s = (time_t)t;
    struct tm tm;
    localtime_r(&s, &tm);
    strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm);
}

/* The archive's span as PCP's tools take it: from its label's start to
 * its end (pmGetArchiveEnd); its first and last records where PCP cannot
 * say. */
static void bounds(int ctx, const struct archive_index *ix, double *lo,
                   double *hi)
{
    pmLogLabel label;
    struct timeval end;
    *lo = archive_pos_time(ix, 0);
    *hi = archive_pos_time(ix, ix->npos - 1);
    if (pmUseContext(ctx) < 0)
        return;
    if (pmGetArchiveLabel(&label) >= 0)
        *lo = (double)label.ll_start.tv_sec + label.ll_start.tv_usec / 1e6;
    if (pmGetArchiveEnd(&end) >= 0)
        *hi = (double)end.tv_sec + end.tv_usec / 1e6;
}

int archive_window_apply(int ctx, struct archive_index *ix, const char *target,
                         int *first, char *err, size_t errlen)
{
    *first = 0;
    if (!archive_window_given() || ix->npos == 0)
        return 0;
    double lo, hi;
    bounds(ctx, ix, &lo, &hi);
    double ws, wf, wo;
    char why[256], a[32], b[32];
    if (pcp_time_window(w_start, w_finish, w_origin, lo, hi, &ws, &wf, &wo, why,
                        sizeof(why)) < 0) {
        snprintf(err, errlen, "%s: -S/-T/-O: %s", target, why);
        return -1;
    }
    int from = 0, to = ix->npos - 1;
    /* PCP's times are to the microsecond: a record at the bound is in */
    while (from < ix->npos && archive_pos_time(ix, from) < ws - 1e-6)
        from++;
    while (to >= 0 && archive_pos_time(ix, to) > wf + 1e-6)
        to--;
    if (from > to) {
        clock_text(lo, a, sizeof(a));
        clock_text(hi, b, sizeof(b));
        snprintf(err, errlen,
                 "%s: no record in the -S/-T window (its records span %s to "
                 "%s); widen the window",
                 target, a, b);
        return -1;
    }
    int n = to - from + 1, nruns = 0;
    memmove(ix->pos, ix->pos + from, (size_t)n * sizeof(*ix->pos));
    memmove(ix->gap, ix->gap + from, (size_t)n * sizeof(*ix->gap));
    ix->gap[0] = false;
    for (int r = 0; r < ix->nruns; r++) {
        struct archive_run run = ix->runs[r];
        if (run.end < from || run.pos > to)
            continue;
        run.pos = (run.pos < from ? from : run.pos) - from;
        run.end = (run.end > to ? to : run.end) - from;
        ix->runs[nruns++] = run;
    }
    ix->npos = n;
    ix->nruns = nruns;
    while (*first + 1 < n && archive_pos_time(ix, *first) < wo - 1e-6)
        (*first)++;
    return 0;
}
