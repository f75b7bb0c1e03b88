/* See archive_baseline.h. The archive is replayed as for -a, from
 * BASELINE_RECORDS before its end, one record at a time as fast as it
 * reads, into a model of its own. */
#include "report/archive_baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "collectors/archive_source.h"
#include "collectors/backend.h"

#define BASELINE_RECORDS 130 /* the clock fit's window, and some */

bool archive_baseline_is(const char *path)
{
    struct stat st;
    char meta[4200];
    const char *dot = strrchr(path, '.');
    snprintf(meta, sizeof(meta), "%s.meta", path);
    return (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) ||
           access(meta, F_OK) == 0 ||
           (dot &&
            (strcmp(dot, ".meta") == 0 || strcmp(dot, ".index") == 0 ||
             (dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))));
}

/* The archive of `source` among what path names. */
static int pick(const char *path, const char *source, struct source_spec *out,
                char *err, size_t errlen)
{
    struct source_spec all[64];
    int n = archive_find(path, all, 64, err, errlen);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        const char *colon = strrchr(all[i].name, ':');
        const char *sname = colon ? colon + 1 : all[i].name;
        if (!source ? (n == 1 || strcmp(sname, "host") == 0)
                    : strcmp(sname, source) == 0) {
            *out = all[i];
            return 0;
        }
    }
    char names[512] = "";
    for (int i = 0, len = 0; i < n && len < (int)sizeof(names); i++) {
        const char *colon = strrchr(all[i].name, ':');
        len += snprintf(names + len, sizeof(names) - (size_t)len, "%s%s",
                        i ? ", " : "", colon ? colon + 1 : all[i].name);
    }
    snprintf(err, errlen, "%s: no source %s in it; it has %s (FILE:SOURCE)",
             path, source ? source : "named", names);
    return -1;
}

/* The reason a fetch of target failed, naming it. */
static void fetch_error(const char *target, const struct sample *smp, char *err,
                        size_t errlen)
{
    if (strncmp(smp->error, target, strlen(target)) == 0)
        snprintf(err, errlen, "%s", smp->error);
    else
        snprintf(err, errlen,
                 "%s: cannot read its last records: %s (pmlogcheck %s "
                 "tells more)",
                 target, smp->error[0] ? smp->error : "no reason given",
                 target);
}

/* The reason a replay control failed, naming target. */
static void store_error(const char *target, const char *msg, char *err,
                        size_t errlen)
{
    if (strncmp(msg, target, strlen(target)) == 0)
        snprintf(err, errlen, "%s", msg);
    else
        snprintf(err, errlen, "%s: cannot replay its end: %s", target, msg);
}

/* Replays target's last records into m. */
static int read_end(const char *target, struct source_model *m, char *err,
                    size_t errlen)
{
    const struct backend *be = &backend_archive;
    void *st = be->open(target, err, errlen);
    struct sample *smp = calloc(1, sizeof(*smp));
    int rc = st && smp ? 0 : -1;
    char msg[256], cmd[32];
    snprintf(cmd, sizeof(cmd), "tail %d", BASELINE_RECORDS);
    if (rc == 0) { /* the first record first: what the source is */
        rc = be->fetch(st, smp) < 0 ? -1 : 0;
        if (rc < 0)
            fetch_error(target, smp, err, errlen);
    }
    if (rc == 0 &&
        (rc = be->store(st, ARCHIVE_CONTROL, cmd, msg, sizeof(msg))) < 0)
        store_error(target, msg, err, errlen);
    while (rc == 0) {
        memset(smp, 0, sizeof(*smp));
        int got = be->fetch(st, smp);
        if (got < 0) {
            fetch_error(target, smp, err, errlen);
            rc = -1;
            break;
        }
        smp->ok = got == 0;
        if (smp->replay.again)
            break; /* the end was shown */
        model_update(m, smp);
        rc = be->store(st, ARCHIVE_CONTROL, "step", msg, sizeof(msg));
        if (rc < 0)
            store_error(target, msg, err, errlen);
    }
    if (!smp)
        snprintf(err, errlen, "out of memory");
    free(smp);
    if (st)
        be->close(st);
    return rc;
}

int archive_baseline_read(const char *path, const char *source,
                          const char *label, struct source_model *m, char *err,
                          size_t errlen)
{
    struct source_spec spec;
    if (pick(path, source, &spec, err, errlen) < 0)
        return -1;
    const char *colon = strrchr(spec.name, ':');
    model_init(m, "", spec.target);
    int rc = read_end(spec.target, m, err, errlen);
    model_release(m); /* a baseline's column shows no recorded VMs */
    if (rc < 0)
        return -1;
    char day[16] = "";
    time_t t = (time_t)m->replay.at;
    struct tm tm;
    strftime(day, sizeof(day), "%Y-%m-%d", localtime_r(&t, &tm));
    snprintf(m->name, sizeof(m->name), "baseline:%.40s %s",
             label   ? label
             : colon ? colon + 1
                     : spec.name,
             day);
    m->backend = "baseline";
    m->last_ok = INFINITY; /* never stale: it does not update */
    memset(&m->replay, 0, sizeof(m->replay));
    return 0;
}
