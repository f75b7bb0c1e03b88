/* Finds the exec helpers: in the directory tests and developers name,
 * next to the running binary (a build tree), in ../libexec/parallax from
 * it (an install under any PREFIX, even one given only to make install),
 * or where the build's PREFIX says `make install` put them. */
#include "base/exec_helper.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PARALLAX_LIBEXEC
#error "the Makefile defines PARALLAX_LIBEXEC, the install's libexec dir"
#endif

static char hello_path[PATH_MAX];

/* True when dir/name fits in buf and is a file we may execute. */
static int try_dir(const char *dir, size_t dirlen, const char *name, char *buf,
                   size_t n)
{
    int len = snprintf(buf, n, "%.*s/%s", (int)dirlen, dir, name);
    struct stat st;
    return dirlen > 0 && len > 0 && (size_t)len < n && stat(buf, &st) == 0 &&
           S_ISREG(st.st_mode) && access(buf, X_OK) == 0;
}

const char *wl_helper_find(const char *name, char *buf, size_t n)
{
    const char *env = getenv("PARALLAX_LIBEXEC");
    if (env && try_dir(env, strlen(env), name, buf, n))
        return buf;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        const char *slash = strrchr(exe, '/');
        if (slash && try_dir(exe, (size_t)(slash - exe), name, buf, n))
            return buf;
        char rel[PATH_MAX + 32];
        snprintf(rel, sizeof rel, "%.*s/../libexec/parallax",
                 slash ? (int)(slash - exe) : 0, exe);
        if (slash && try_dir(rel, strlen(rel), name, buf, n))
            return buf;
    }
    if (try_dir(PARALLAX_LIBEXEC, strlen(PARALLAX_LIBEXEC), name, buf, n))
        return buf;
    return NULL;
}

static const char *find_helper(const char *name)
{
    return wl_helper_find(name, hello_path, sizeof hello_path);
}

const char *wl_hello_path(void)
{
    return find_helper("parallax-hello");
}

const char *wl_hello_dyn_path(void)
{
    return find_helper("parallax-hello-dyn");
}
