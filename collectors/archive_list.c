/* See archive_list.h. */
#include "collectors/archive_list.h"

#include <stdio.h>
#include <string.h>

#include "collectors/archive_frame.h"
#include "collectors/archive_source.h"

#define TARGET_MAX (sizeof(((struct source_spec *)0)->target) - 1)

/* path: what follows NAME= (a NAME holds no '/'), as archive_find reads. */
static const char *path_of(const char *arg, char *label, size_t n)
{
    const char *eq = strchr(arg, '=');
    label[0] = '\0';
    if (eq && eq > arg && !memchr(arg, '/', (size_t)(eq - arg))) {
        snprintf(label, n, "%.*s", (int)(eq - arg), arg);
        return eq + 1;
    }
    return arg;
}

bool archive_list_is(const char *arg)
{
    char label[64];
    return strchr(path_of(arg, label, sizeof(label)), ',') != NULL;
}

int archive_list_find(const char *arg, struct source_spec *out, int max,
                      char *err, size_t errlen)
{
    char label[64], list[4096], joined[4096] = "";
    snprintf(list, sizeof(list), "%s", path_of(arg, label, sizeof(label)));
    if (max < 1) {
        snprintf(err, errlen, "%s: more sources than parallax can show", arg);
        return -1;
    }
    size_t len = 0;
    char *save = NULL;
    for (char *m = strtok_r(list, ",", &save); m;
         m = strtok_r(NULL, ",", &save)) {
        struct source_spec one;
        /* a member is an archive, not a directory of sources */
        if (archive_find(m, &one, 1, err, errlen) < 0)
            return -1;
        if (!label[0])
            snprintf(label, sizeof(label), "%s", one.name);
        int w = snprintf(joined + len, sizeof(joined) - len, "%s%s",
                         len ? "," : "", one.target);
        if (w < 0 || (size_t)w >= sizeof(joined) - len) {
            snprintf(err, errlen, "-a '%.200s': the list is too long", arg);
            return -1;
        }
        len += (size_t)w;
    }
    if (!len) {
        snprintf(err, errlen, "-a '%.200s': the list names no archive", arg);
        return -1;
    }
    if (len > TARGET_MAX) {
        snprintf(err, errlen,
                 "-a '%.200s': the list is too long for a column (%zu bytes "
                 "at most); replay it from nearer (cd there)",
                 arg, TARGET_MAX);
        return -1;
    }
    snprintf(out[0].name, sizeof(out[0].name), "%.63s", label);
    snprintf(out[0].target, sizeof(out[0].target), "%.127s", joined);
    return 1;
}

int archive_list_frame_check(const char *target, char *err, size_t errlen)
{
    if (!strchr(target, ','))
        return archive_frame_check(target, err, errlen);
    char list[4096];
    snprintf(list, sizeof(list), "%s", target);
    char *save = NULL;
    for (char *m = strtok_r(list, ",", &save); m;
         m = strtok_r(NULL, ",", &save))
        if (archive_frame_check(m, err, errlen) < 0)
            return -1;
    return 0;
}
