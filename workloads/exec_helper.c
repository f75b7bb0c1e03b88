/* Finds parallax-hello: in the directory tests and developers name, next
 * to the running binary (a build tree), or where `make install` put it. */
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

#define HELLO_NAME "parallax-hello"

static char hello_path[PATH_MAX];

/* True when dir/parallax-hello fits and is a file we may execute; it is
 * then in hello_path. */
static int try_dir(const char *dir, size_t dirlen)
{
    int n = snprintf(hello_path, sizeof hello_path, "%.*s/%s", (int)dirlen, dir,
                     HELLO_NAME);
    struct stat st;
    return dirlen > 0 && n > 0 && (size_t)n < sizeof hello_path &&
           stat(hello_path, &st) == 0 && S_ISREG(st.st_mode) &&
           access(hello_path, X_OK) == 0;
}

const char *wl_hello_path(void)
{
    const char *env = getenv("PARALLAX_LIBEXEC");
    if (env && try_dir(env, strlen(env)))
        return hello_path;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        const char *slash = strrchr(exe, '/');
        if (slash && try_dir(exe, (size_t)(slash - exe)))
            return hello_path;
    }
    if (try_dir(PARALLAX_LIBEXEC, strlen(PARALLAX_LIBEXEC)))
        return hello_path;
    return NULL;
}
