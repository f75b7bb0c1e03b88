/* archive_find (archive_source.h): what -a names, by file names alone.
 * A --record directory holds a directory per source (as pmlogger's holds
 * one per host), each read by PCP as one archive; "host" comes first, as
 * this host does live. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/archive_list.h"
#include "collectors/archive_source.h"

#define TARGET_MAX (sizeof(((struct source_spec *)0)->target) - 1)

/* True when dir holds an archive's metadata (NAME.meta, compressed too). */
static bool holds_archives(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        const char *m = strstr(e->d_name, ".meta");
        found = m && m > e->d_name && (m[5] == '\0' || m[5] == '.');
    }
    closedir(d);
    return found;
}

static int add(struct source_spec *out, int *n, int max, const char *name,
               const char *target, char *err, size_t errlen)
{
    if (strlen(target) > TARGET_MAX) {
        snprintf(err, errlen,
                 "%s: the path is too long for a column (%zu bytes at "
                 "most); replay it from nearer (cd there)",
                 target, TARGET_MAX);
        return -1;
    }
    if (*n == max) {
        snprintf(err, errlen, "%s: more sources than parallax can show",
                 target);
        return -1;
    }
    snprintf(out[*n].name, sizeof(out[*n].name), "%s", name);
    snprintf(out[*n].target, sizeof(out[*n].target), "%s", target);
    (*n)++;
    return 0;
}

/* "host" first, then by name. */
static int by_source(const struct dirent **a, const struct dirent **b)
{
    bool ha = strcmp((*a)->d_name, "host") == 0;
    bool hb = strcmp((*b)->d_name, "host") == 0;
    if (ha != hb)
        return ha ? -1 : 1;
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* A directory: its own archives, or a column per subdirectory that holds
 * some. */
static int find_in_dir(const char *path, const char *label,
                       struct source_spec *out, int max, char *err,
                       size_t errlen)
{
    int n = 0;
    if (holds_archives(path))
        return add(out, &n, max, label, path, err, errlen) < 0 ? -1 : 1;
    struct dirent **list = NULL;
    int k = scandir(path, &list, NULL, by_source);
    if (k < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < k; i++) {
        char sub[4400], name[128];
        if (rc == 0 && list[i]->d_name[0] != '.') {
            snprintf(sub, sizeof(sub), "%s/%s", path, list[i]->d_name);
            snprintf(name, sizeof(name), "%.63s:%.60s", label, list[i]->d_name);
            struct stat st;
            if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode) &&
                holds_archives(sub))
                rc = add(out, &n, max, name, sub, err, errlen);
        }
        free(list[i]);
    }
    free(list);
    if (rc == 0 && n == 0) {
        snprintf(err, errlen,
                 "%s holds no PCP archive (no .meta file in it or in a "
                 "directory under it); record one with --record",
                 path);
        return -1;
    }
    return rc < 0 ? -1 : n;
}

/* An archive named by its base or one of its files (.meta, .index, .N). */
static int find_file(const char *path, const char *label, bool labelled,
                     struct source_spec *out, int max, char *err, size_t errlen)
{
    char base[4096], meta[4200];
    snprintf(base, sizeof(base), "%s", path);
    snprintf(meta, sizeof(meta), "%s.meta", base);
    char *dot = strrchr(base, '.'), *slash = strrchr(base, '/');
    /* the base name first (PCP's name for an archive), which may end in
     * digits as a volume does: STAMP is YYYYmmdd.HH.MM.SS */
    if (access(meta, F_OK) != 0 && dot && (!slash || dot > slash) &&
        (strcmp(dot, ".meta") == 0 || strcmp(dot, ".index") == 0 ||
         (dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))))
        *dot = '\0';
    snprintf(meta, sizeof(meta), "%s.meta", base);
    if (access(meta, F_OK) != 0) {
        if (access(path, F_OK) != 0)
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
        else
            snprintf(err, errlen,
                     "%s: not a PCP archive (no %s beside it); name an "
                     "archive or a --record directory",
                     path, meta);
        return -1;
    }
    const char *name = strrchr(base, '/');
    int n = 0;
    if (add(out, &n, max,
            labelled ? label
            : name   ? name + 1
                     : base,
            base, err, errlen) < 0)
        return -1;
    return n;
}

int archive_find(const char *arg, struct source_spec *out, int max, char *err,
                 size_t errlen)
{
    if (archive_list_is(arg)) /* a,b,c: one source (archive_list.h) */
        return archive_list_find(arg, out, max, err, errlen);
    char label[64] = "", path[4096];
    const char *p = arg, *eq = strchr(arg, '=');
    if (eq && eq > arg && !memchr(arg, '/', (size_t)(eq - arg))) {
        snprintf(label, sizeof(label), "%.*s", (int)(eq - arg), arg);
        p = eq + 1;
    }
    size_t len = strlen(p);
    while (len > 1 && p[len - 1] == '/')
        len--;
    snprintf(path, sizeof(path), "%.*s", (int)len, p);
    if (!path[0]) {
        snprintf(err, errlen, "-a '%s': no archive named; give -a DIR", arg);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!label[0]) {
            const char *b = strrchr(path, '/');
            snprintf(label, sizeof(label), "%.63s", b && b[1] ? b + 1 : path);
        }
        return find_in_dir(path, label, out, max, err, errlen);
    }
    return find_file(path, label, label[0] != '\0', out, max, err, errlen);
}
