/* See view_replay.h. */
#include "view/view_replay.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* "14:02:11", or "2026-12-01 14:02:11" when `day` is set. */
static void clock_text(double t, bool day, char *buf, size_t n)
{
    time_t s = (time_t)t;
    struct tm tm;
    strftime(buf, n, day ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S",
             localtime_r(&s, &tm));
}

void view_replay_state(const struct source_model *m, char *buf, size_t n)
{
    const struct replay_pos *p = &m->replay;
    char at[32];
    clock_text(p->at, false, at, sizeof(at));
    if (p->ended)
        snprintf(buf, n, "ended %s", at);
    else if (p->speed == 0)
        snprintf(buf, n, "paused %s", at);
    else if (p->speed == 1)
        snprintf(buf, n, "rec %s", at);
    else
        snprintf(buf, n, "rec x%g %s", p->speed, at);
}

void view_replay_title(const struct source_model *srcs, int nsrc, char *buf,
                       size_t n)
{
    int first = -1;
    buf[0] = '\0';
    for (int i = 0; i < nsrc && first < 0; i++)
        if (srcs[i].replay.on && srcs[i].replay.at > 0)
            first = i;
    if (first < 0)
        return;
    const struct replay_pos *p = &srcs[first].replay;
    char at[32], names[160] = "";
    clock_text(p->at, true, at, sizeof(at));
    for (int i = first, len = 0; i < nsrc && len < (int)sizeof(names); i++)
        if (srcs[i].replay.on && srcs[i].replay.at > 0)
            len += snprintf(names + len, sizeof(names) - (size_t)len, "%s%s",
                            len ? ", " : "", srcs[i].name);
    char pace[24] = "";
    if (p->ended)
        snprintf(pace, sizeof(pace), ", ended");
    else if (p->speed == 0)
        snprintf(pace, sizeof(pace), ", paused");
    else if (p->speed != 1)
        snprintf(pace, sizeof(pace), ", x%g", p->speed);
    snprintf(buf, n, "recorded %s at %s%s", names, at, pace);
}
