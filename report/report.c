/* See report.h. The pair of files shares one stem made from the report's
 * time to the millisecond, fixed in width, so `ls` lists reports in the
 * order they were made (in the C locale and in others). */
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/atomic_file.h"
#include "report/report_json.h"
#include "report/report_text.h"

#define PATH_LEN  4200
#define MSEC_LAST 999 /* names go no further than the report's second */
#define CLOCKSOURCE_PATH                                                       \
    "/sys/devices/system/clocksource/clocksource0/current_clocksource"

bool report_host_clocksource(char *buf, size_t n)
{
    FILE *f = fopen(CLOCKSOURCE_PATH, "re");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)n, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok && buf[0];
}

void report_meta_now(struct report_meta *meta, char *buf, size_t n)
{
    memset(meta, 0, sizeof(*meta));
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    meta->when = ts.tv_sec;
    meta->msec = (int)(ts.tv_nsec / 1000000);
    if (report_host_clocksource(buf, n))
        meta->clocksource[0] = buf;
}

int report_default_dir(char *buf, size_t n)
{
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    int len;
    if (state && state[0] == '/') /* the spec ignores relative values */
        len = snprintf(buf, n, "%s/parallax", state);
    else if (home && home[0])
        len = snprintf(buf, n, "%s/.local/state/parallax", home);
    else
        return -1;
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

int report_make_dirs(const char *dir)
{
    char p[4096];
    int len = snprintf(p, sizeof(p), "%s", dir);
    if (len < 0 || (size_t)len >= sizeof(p)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *c = p + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = '\0';
        if (mkdir(p, 0755) < 0 && errno != EEXIST)
            return -1;
        *c = '/';
    }
    return mkdir(p, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static int session_text(FILE *f, const void *arg)
{
    const struct report_of_session *r = arg;
    return report_text_write(f, r->s, r->j, r->meta);
}

static int session_json(FILE *f, const void *arg)
{
    const struct report_of_session *r = arg;
    return report_json_write(f, r->s, r->j, r->meta);
}

struct report_pair report_pair_session(const struct report_of_session *r)
{
    return (struct report_pair){"parallax", "reports", session_text,
                                session_json, r};
}

/* One form of a pair into f; the cause of a failure into err. */
static int fill(FILE *f, int (*form)(FILE *f, const void *arg), const void *arg,
                char *err, size_t errlen)
{
    if (form(f, arg) == 0)
        return 0;
    snprintf(err, errlen, "%s", strerror(errno ? errno : EIO));
    return -1;
}

int report_pair_fill_text(FILE *f, void *pair, char *err, size_t errlen)
{
    const struct report_pair *p = pair;
    return fill(f, p->text, p->arg, err, errlen);
}

int report_pair_fill_json(FILE *f, void *pair, char *err, size_t errlen)
{
    const struct report_pair *p = pair;
    return fill(f, p->json, p->arg, err, errlen);
}

/* dir/STEM-YYYYmmdd-HHMMSS-mmm.EXT for the report's second and
 * millisecond ms; false when it does not fit. */
static bool report_name(char *buf, size_t n, const char *dir, const char *stem,
                        const struct report_meta *meta, int ms, const char *ext)
{
    char when[48];
    struct tm tm;
    strftime(when, sizeof(when), "%Y%m%d-%H%M%S",
             localtime_r(&meta->when, &tm));
    int len = snprintf(buf, n, "%s/%s-%s-%03d.%s", dir, stem, when, ms, ext);
    return len >= 0 && (size_t)len < n;
}

/* Names the staged pair with the first stem from the report's millisecond
 * on that is free: both names or neither, whatever kills parallax
 * meanwhile (atomic_file_publish_pair). Never over anything: a stem whose
 * .json or .txt exists is skipped. */
static int publish_pair(struct atomic_file *json, struct atomic_file *text,
                        const char *dir, const char *stem,
                        const struct report_meta *meta, char *path, size_t pn,
                        char *err, size_t errlen)
{
    char jpath[PATH_LEN];
    for (int ms = meta->msec; ms <= MSEC_LAST; ms++) {
        report_name(path, pn, dir, stem, meta, ms, "txt");
        if (access(path, F_OK) == 0)
            continue; /* a .txt alone: its .json was removed */
        report_name(jpath, sizeof(jpath), dir, stem, meta, ms, "json");
        if (atomic_file_publish_pair(json, jpath, text, path, false, err,
                                     errlen) == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    snprintf(err, errlen,
             "cannot write %s: a report of every millisecond of that second "
             "is there already; save again",
             path);
    return -1;
}

int report_save(const char *dir, const struct session *s, const struct jobs *j,
                const struct report_meta *meta, char *path_out, size_t path_n,
                char *err, size_t errlen)
{
    struct report_of_session r = {s, j, meta};
    struct report_pair p = report_pair_session(&r);
    return report_pair_save(dir, &p, meta, path_out, path_n, err, errlen);
}

int report_pair_save(const char *dir, const struct report_pair *p,
                     const struct report_meta *meta, char *path_out,
                     size_t path_n, char *err, size_t errlen)
{
    char def[PATH_LEN], path[PATH_LEN];
    if (!dir) {
        if (report_default_dir(def, sizeof(def)) < 0) {
            snprintf(err, errlen,
                     "no report directory: set HOME or "
                     "XDG_STATE_HOME, or give one");
            return -1;
        }
        dir = def;
    }
    if (report_make_dirs(dir) < 0) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    struct atomic_file json, text;
    if (!report_name(path, sizeof(path), dir, p->stem, meta, meta->msec,
                     "json")) {
        snprintf(err, errlen, "cannot write into %s: the path is too long",
                 dir);
        return -1;
    }
    errno = 0;
    if (atomic_file_stage(&json, path, report_pair_fill_json, (void *)p, err,
                          errlen) < 0)
        return -1;
    report_name(path, sizeof(path), dir, p->stem, meta, meta->msec, "txt");
    errno = 0;
    if (atomic_file_stage(&text, path, report_pair_fill_text, (void *)p, err,
                          errlen) < 0) {
        atomic_file_discard(&json);
        return -1;
    }
    int rc = publish_pair(&json, &text, dir, p->stem, meta, path, sizeof(path),
                          err, errlen);
    atomic_file_discard(&json);
    atomic_file_discard(&text);
    if (rc == 0)
        snprintf(path_out, path_n, "%s", path);
    return rc;
}

void report_json_next_to(const char *text_path, char *out, size_t n)
{
    const char *dot = strrchr(text_path, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - text_path)
                                           : strlen(text_path);
    snprintf(out, n, "%.*s.json", (int)stem, text_path);
}
