/* Finds the exec helpers: in the directory tests and developers name,
 * next to the running binary (a build tree), in ../libexec/parallax from
 * it (an install under any PREFIX, even one given only to make install),
 * or where the build's PREFIX says `make install` put them. */
#include "workloads/exec_helper.h"

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

/* True when dir/name fits and is a file we may execute; it is then in
 * hello_path. */
static int try_dir(const char *dir, size_t dirlen, const char *name)
{
    int n = snprintf(hello_path, sizeof hello_path, "%.*s/%s", (int)dirlen, dir,
                     name);
    struct stat st;
    return dirlen > 0 && n > 0 && (size_t)n < sizeof hello_path &&
           stat(hello_path, &st) == 0 && S_ISREG(st.st_mode) &&
           access(hello_path, X_OK) == 0;
}

static const char *find_helper(const char *name)
{
    const char *env = getenv("PARALLAX_LIBEXEC");
    if (env && try_dir(env, strlen(env), name))
        return hello_path;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        const char *slash = strrchr(exe, '/');
        if (slash && try_dir(exe, (size_t)(slash - exe), name))
            return hello_path;
        char rel[PATH_MAX + 32];
        snprintf(rel, sizeof rel, "%.*s/../libexec/parallax",
                 slash ? (int)(slash - exe) : 0, exe);
        if (slash && try_dir(rel, strlen(rel), name))
            return hello_path;
    }
    if (try_dir(PARALLAX_LIBEXEC, strlen(PARALLAX_LIBEXEC), name))
        return hello_path;
    return NULL;
}

const char *wl_hello_path(void)
{
    return find_helper("parallax-hello");
}

const char *wl_hello_dyn_path(void)
{
    return find_helper("parallax-hello-dyn");
}
