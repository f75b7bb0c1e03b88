/* See repeat_log.h. %.6f keeps a stamp to the microsecond (the fetch
 * timestamps it is held against have no finer grain that matters); %.9g
 * keeps the figures as the runner gave them. */
#include "runner/repeat_log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void repeat_log_format(const struct wl_run *r, char *buf, size_t n)
{
    struct wl_run_status st;
    wl_run_status(r, &st);
    int k = wl_run_nresults(r);
    size_t used = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < k && used + REPEAT_LOG_LINE < n; i++) {
        const struct wl_result *res = wl_run_result(r, i);
        used += (size_t)snprintf(
            buf + used, n - used, "%.6f %.6f %.9g %.9g %d\n", res->t_start,
            res->t_end, res->wall, res->figure, res->placement);
    }
    bool measuring = !wl_run_state_final(st.state) && st.repeat >= k &&
                     st.phase == WL_MEASURING && isfinite(st.t_start);
    if (measuring && used + REPEAT_LOG_LINE < n)
        snprintf(buf + used, n - used, "%.6f - - - -\n", st.t_start);
}

/* A field: a number, or "-" for none (NaN); false for anything else. */
static bool field(const char **p, double *v)
{
    while (**p == ' ')
        (*p)++;
    if (**p == '-' && ((*p)[1] == ' ' || (*p)[1] == '\n' || !(*p)[1])) {
        (*p)++;
        *v = NAN;
        return true;
    }
    char *end;
    *v = strtod(*p, &end);
    if (end == *p || !isfinite(*v))
        return false;
    *p = end;
    return true;
}

int repeat_log_parse(const char *text, struct repeat_entry *out, int max)
{
    int n = 0;
    const char *p = text ? text : "";
    while (*p && n < max) {
        double v[5];
        for (int i = 0; i < 5; i++)
            if (!field(&p, &v[i]))
                return n;
        if (!isfinite(v[0]) || (isfinite(v[1]) && v[1] < v[0]))
            return n;
        out[n++] = (struct repeat_entry){
            .t_start = v[0],
            .t_end = v[1],
            .wall = v[2],
            .figure = v[3],
            .placement = isfinite(v[4]) ? (int)v[4] : -1,
        };
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
    }
    return n;
}
