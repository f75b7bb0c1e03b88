/* See csv_out.h. Numbers are written in the fewest digits that read back
 * as the same double (what the JSON report holds, exactly); each row is
 * flushed, so a pipeline sees it as it comes. */
#include "cli/csv_out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "base/safe_text.h"
#include "core/metrics.h"

int csv_out_open(struct csv_out *c, const char *path, FILE *f, char *err,
                 size_t errlen)
{
    memset(c, 0, sizeof(*c));
    if (path) {
        if (!(f = fopen(path, "w"))) {
            snprintf(err, errlen,
                     "-F %s: %s; give a file in a directory you "
                     "can write",
                     path, strerror(errno));
            return -1;
        }
        c->own = true;
    }
    c->f = f;
    return 0;
}

static const char *unit(int id)
{
    const struct metric_desc *d = &metric_descs[id];
    if (d->kind == MK_CPU)
        return " (%)";
    if (d->kind == MK_RATE)
        return d->unit == MU_BYTE ? " (byte/s)" : " (count/s)";
    return d->unit == MU_BYTE    ? " (byte)"
           : d->unit == MU_COUNT ? " (count)"
                                 : "";
}

/* A header field: the name made safe, its quotes and commas kept out, as
 * pmrep keeps them out. */
static void field_name(FILE *f, const char *src, const char *what,
                       const char *u)
{
    char buf[SAFE_TEXT_ECHO_MAX * 4 + 4];
    safe_text_copy(buf, sizeof(buf), src, 60);
    for (char *p = buf; *p; p++)
        if (*p == '"' || *p == ',')
            *p = ' ';
    fprintf(f, ",\"%s:%s%s\"", buf, what, u);
}

static void header(struct csv_out *c, const struct session *s)
{
    fputs("Time", c->f);
    for (int i = 0; i < s->nsrc; i++) {
        field_name(c->f, s->model[i].name, "time", " (s)");
        for (int id = 0; id < METRIC_COUNT; id++)
            field_name(c->f, s->model[i].name, metric_descs[id].key, unit(id));
    }
    fputc('\n', c->f);
    c->nsrc = s->nsrc;
    c->header = true;
}

/* v in the fewest digits that read back as v; nothing for NaN. */
static void number(FILE *f, double v, int min_prec)
{
    char buf[40];
    fputc(',', f);
    if (!isfinite(v))
        return;
    if (v == floor(v) && fabs(v) < 1e15) { /* 760442880, not 7.6e+08 */
        fprintf(f, "%.0f", v);
        return;
    }
    for (int prec = min_prec; prec <= 17; prec++) {
        snprintf(buf, sizeof(buf), "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fputs(buf, f);
}

void csv_out_row(struct csv_out *c, const struct session *s)
{
    if (!c->f)
        return;
    if (!c->header)
        header(c, s);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    time_t now = tv.tv_sec;
    struct tm tm;
    char when[32];
    localtime_r(&now, &tm);
    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
    fputs(when, c->f);
    /* the sources the header named (one added later has no column) */
    for (int i = 0; i < c->nsrc && i < s->nsrc; i++) {
        const struct source_model *m = &s->model[i];
        /* a recorded column before its first record (its reader still
         * starting) has no time yet: empty, not 0 */
        double at = m->replay.on ? (m->replay.at > 0 ? m->replay.at : NAN)
                    : m->samples ? m->prev.t_real
                                 : NAN;
        number(c->f, at, 16);
        for (int id = 0; id < METRIC_COUNT; id++)
            number(c->f, m->value[id], 1); /* n/a: NaN, as the report */
        c->seen[i] = m->updates;
    }
    fputc('\n', c->f);
    fflush(c->f);
}

void csv_out_tick(struct csv_out *c, const struct session *s, bool any)
{
    if (!c->f || s->nsrc == 0)
        return;
    bool news = s->model[0].updates != c->seen[0];
    for (int i = 1; any && !news && i < s->nsrc && i < SESSION_MAX_SOURCES; i++)
        news = s->model[i].updates != c->seen[i];
    if (news && s->model[0].samples > 1)
        csv_out_row(c, s);
}

int csv_out_close(struct csv_out *c, char *err, size_t errlen)
{
    if (!c->f)
        return 0;
    bool bad = ferror(c->f) != 0;
    if (c->own && fclose(c->f) != 0)
        bad = true;
    c->f = NULL;
    if (bad)
        snprintf(err, errlen, "the CSV output could not be written: %s",
                 strerror(errno));
    return bad ? -1 : 0;
}
