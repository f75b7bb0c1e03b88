/* See theme_path.h. */
#include "theme/theme_path.h"

#include "base/safe_text.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PARALLAX_THEMEDIR
#define PARALLAX_THEMEDIR "/usr/local/share/parallax/themes"
#endif

static void add_dir(struct theme_dirs *d, const char *dir)
{
    if (d->n == THEME_DIRS_MAX || !dir || !*dir)
        return;
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->dir[i], dir) == 0)
            return;
    snprintf(d->dir[d->n++], PATH_MAX, "%s", dir);
}

/* The source tree's themes/ when this program is ROOT/BUILD/NAME. */
static void add_source_tree(struct theme_dirs *d)
{
    char exe[PATH_MAX], probe[PATH_MAX + 32], real[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return;
    *slash = '\0';
    snprintf(probe, sizeof(probe), "%s/../themes/default.theme", exe);
    if (access(probe, R_OK) != 0)
        return;
    snprintf(probe, sizeof(probe), "%s/../themes", exe);
    if (realpath(probe, real))
        add_dir(d, real);
}

void theme_dirs_get(struct theme_dirs *d)
{
    char user[PATH_MAX];
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    d->n = 0;
    if (xdg && *xdg == '/')
        snprintf(user, sizeof(user), "%s/parallax/themes", xdg);
    else if (home && *home)
        snprintf(user, sizeof(user), "%s/.config/parallax/themes", home);
    else
        user[0] = '\0';
    add_dir(d, user);
    add_dir(d, getenv("PARALLAX_THEMES"));
    add_source_tree(d);
    add_dir(d, PARALLAX_THEMEDIR);
}

/* A theme name: letters, digits, '.', '_', '-', not starting with '.'. */
static bool valid_name(const char *s, size_t len)
{
    if (len == 0 || len >= THEME_NAME_MAX || s[0] == '.')
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

static void add_name(struct theme_names *out, const char *name, size_t len)
{
    for (int i = 0; i < out->n; i++)
        if (strlen(out->name[i]) == len &&
            strncmp(out->name[i], name, len) == 0)
            return;
    if (out->n == out->cap) {
        int cap = out->cap ? 2 * out->cap : 16;
        void *grown = realloc(out->name, (size_t)cap * sizeof(out->name[0]));
        if (!grown)
            return; /* out of memory: the names so far */
        out->name = grown;
        out->cap = cap;
    }
    snprintf(out->name[out->n++], THEME_NAME_MAX, "%.*s", (int)len, name);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

void theme_names_free(struct theme_names *names)
{
    free(names->name);
    *names = (struct theme_names){0};
}

void theme_names_get(const struct theme_dirs *d, struct theme_names *out)
{
    *out = (struct theme_names){0};
    add_name(out, "default", 7);
    for (int i = 0; i < d->n; i++) {
        DIR *dir = opendir(d->dir[i]);
        if (!dir)
            continue; /* a directory that is not there adds nothing */
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            size_t len = strlen(e->d_name);
            if (len > 6 && strcmp(e->d_name + len - 6, ".theme") == 0 &&
                valid_name(e->d_name, len - 6))
                add_name(out, e->d_name, len - 6);
        }
        closedir(dir);
    }
    if (out->n > 1)
        qsort(out->name, (size_t)out->n, sizeof(out->name[0]), cmp_name);
}

const char *theme_names_next(const struct theme_names *names, const char *cur)
{
    for (int i = 0; i < names->n; i++)
        if (strcmp(names->name[i], cur) == 0)
            return names->name[(i + 1) % names->n];
    return names->n ? names->name[0] : "default";
}

void theme_names_join(const struct theme_names *names, char *buf, size_t len)
{
    enum { MORE_MAX = sizeof(" (and 2147483647 more)") };
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < names->n; i++) {
        size_t w = strlen(names->name[i]) + (i ? 2 : 0);
        /* room for this name, and for saying how many more if it is not
         * the last */
        if (used + w + (i + 1 < names->n ? MORE_MAX : 0) >= len) {
            if (used + MORE_MAX < len)
                snprintf(buf + used, len - used, " (and %d more)",
                         names->n - i);
            return;
        }
        snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names->name[i]);
        used += w;
    }
}

static int unknown(const struct theme_dirs *d, const char *name, char *err,
                   size_t errlen)
{
    struct theme_names names;
    char list[512], shown[168];
    theme_names_get(d, &names);
    theme_names_join(&names, list, sizeof(list));
    theme_names_free(&names);
    snprintf(err, errlen, "unknown theme '%s'; available: %s",
             safe_text_copy(shown, sizeof(shown), name, SAFE_TEXT_ECHO_MAX),
             list);
    return -1;
}

int theme_load(const struct theme_dirs *d, const char *name, struct theme *t,
               char *err, size_t errlen)
{
    char path[PATH_MAX + THEME_NAME_MAX + 8];
    struct stat st;
    if (strchr(name, '/')) { /* a file, named by its path */
        if (stat(name, &st) != 0) {
            theme_builtin(t);
            snprintf(err, errlen, "%s: %s", name, strerror(errno));
            return -1;
        }
        return theme_parse_file(name, t, err, errlen) < 0 ? -2 : 0;
    }
    if (!valid_name(name, strlen(name)))
        return unknown(d, name, err, errlen);
    for (int i = 0; i < d->n; i++) {
        snprintf(path, sizeof(path), "%s/%s.theme", d->dir[i], name);
        if (stat(path, &st) == 0)
            return theme_parse_file(path, t, err, errlen) < 0 ? -2 : 0;
    }
    if (strcmp(name, "default") == 0) {
        theme_builtin(t);
        return 0;
    }
    theme_builtin(t);
    return unknown(d, name, err, errlen);
}
