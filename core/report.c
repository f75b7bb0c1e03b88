/* See report.h. The pair of files shares one stem made from the report's
 * time, so `ls` lists reports in the order they were made. */
#include "core/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/atomic_file.h"
#include "core/report_json.h"
#include "core/report_text.h"

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
    meta->when = time(NULL);
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

/* mkdir -p dir; 0 or -1 with errno set. */
static int make_dirs(const char *dir)
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

struct save_ctx {
    const struct session *s;
    const struct jobs *j;
    const struct report_meta *meta;
};

static int fill_text(FILE *f, void *arg, char *err, size_t errlen)
{
    const struct save_ctx *c = arg;
    if (report_text_write(f, c->s, c->j, c->meta) == 0)
        return 0;
    snprintf(err, errlen, "%s", strerror(errno ? errno : EIO));
    return -1;
}

static int fill_json(FILE *f, void *arg, char *err, size_t errlen)
{
    const struct save_ctx *c = arg;
    if (report_json_write(f, c->s, c->j, c->meta) == 0)
        return 0;
    snprintf(err, errlen, "%s", strerror(errno ? errno : EIO));
    return -1;
}

int report_save(const char *dir, const struct session *s, const struct jobs *j,
                const struct report_meta *meta, char *path_out, size_t path_n,
                char *err, size_t errlen)
{
    char def[4096], stem[64], path[4200];
    if (!dir) {
        if (report_default_dir(def, sizeof(def)) < 0) {
            snprintf(err, errlen,
                     "no report directory: set HOME or "
                     "XDG_STATE_HOME, or give one");
            return -1;
        }
        dir = def;
    }
    if (make_dirs(dir) < 0) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    struct tm tm;
    strftime(stem, sizeof(stem), "parallax-%Y%m%d-%H%M%S",
             localtime_r(&meta->when, &tm));
    struct save_ctx c = {s, j, meta};
    /* JSON first: the .txt, whose path is shown, appears only when both
     * could be written */
    snprintf(path, sizeof(path), "%s/%s.json", dir, stem);
    errno = 0;
    if (atomic_file_write(path, fill_json, &c, err, errlen) < 0)
        return -1;
    snprintf(path, sizeof(path), "%s/%s.txt", dir, stem);
    errno = 0;
    if (atomic_file_write(path, fill_text, &c, err, errlen) < 0)
        return -1;
    snprintf(path_out, path_n, "%s", path);
    return 0;
}
