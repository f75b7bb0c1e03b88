/* System call latencies with lmbench lat_syscall semantics: one call per
 * operation, figure in ns per call. stat, fstat and open work on a file
 * in the run's directory, as lmbench's script does with $FSDIR/lmbench.
 * The calls go through libc to the kernel: a compiler cannot drop an
 * external call whose effects it cannot see. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workloads/workload.h"

/* same as (struct sc_state){.fd = -1}: the default for those that open */
struct sc_state {
    int fd;
    char file[4096];
};

static int sc_fail(const char *what, const char *path)
{
    fprintf(stderr, "%s %s: %s\n", what, path, strerror(errno));
    return -1;
}

/* Allocates the state; opens `dev` (O_RDONLY or O_WRONLY by `flags`) or,
 * when dev is NULL and `want_file`, creates the file to stat/open. */
static int sc_setup_with(struct wl_ctx *ctx, const char *dev, int flags,
                         bool want_file)
{
    struct sc_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->fd = -1;
    ctx->state = s;
    snprintf(s->file, sizeof s->file, "%s/lmbench", ctx->dir);
    if (want_file) {
        int fd = open(s->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            return sc_fail("cannot create", s->file);
        close(fd);
    }
    const char *path = dev ? dev : want_file && flags >= 0 ? s->file : NULL;
    if (path) {
        s->fd = open(path, flags);
        if (s->fd < 0)
            return sc_fail("cannot open", path);
    }
    return 0;
}

static int setup_read(struct wl_ctx *ctx)
{
    return sc_setup_with(ctx, "/dev/zero", O_RDONLY, false);
}

static int setup_write(struct wl_ctx *ctx)
{
    return sc_setup_with(ctx, "/dev/null", O_WRONLY, false);
}

static int setup_file(struct wl_ctx *ctx)
{
    return sc_setup_with(ctx, NULL, -1, true);
}

static int setup_file_open(struct wl_ctx *ctx)
{
    return sc_setup_with(ctx, NULL, O_RDONLY, true);
}

static void sc_teardown(struct wl_ctx *ctx)
{
    struct sc_state *s = ctx->state;
    if (!s)
        return;
    if (s->fd >= 0)
        close(s->fd);
    free(s);
    ctx->state = NULL;
}

static int null_step(struct wl_ctx *ctx, uint64_t n)
{
    (void)ctx;
    while (n-- > 0)
        getppid();
    return 0;
}

static int read_step(struct wl_ctx *ctx, uint64_t n)
{
    struct sc_state *s = ctx->state;
    char c;
    while (n-- > 0)
        if (read(s->fd, &c, 1) != 1)
            return sc_fail("read", "/dev/zero");
    return 0;
}

static int write_step(struct wl_ctx *ctx, uint64_t n)
{
    struct sc_state *s = ctx->state;
    char c = 0;
    while (n-- > 0)
        if (write(s->fd, &c, 1) != 1)
            return sc_fail("write", "/dev/null");
    return 0;
}

static int stat_step(struct wl_ctx *ctx, uint64_t n)
{
    struct sc_state *s = ctx->state;
    struct stat sb;
    while (n-- > 0)
        if (stat(s->file, &sb) < 0)
            return sc_fail("stat", s->file);
    return 0;
}

static int fstat_step(struct wl_ctx *ctx, uint64_t n)
{
    struct sc_state *s = ctx->state;
    struct stat sb;
    while (n-- > 0)
        if (fstat(s->fd, &sb) < 0)
            return sc_fail("fstat", s->file);
    return 0;
}

static int open_step(struct wl_ctx *ctx, uint64_t n)
{
    struct sc_state *s = ctx->state;
    while (n-- > 0) {
        int fd = open(s->file, O_RDONLY);
        if (fd < 0)
            return sc_fail("open", s->file);
        close(fd);
    }
    return 0;
}

#define SYSCALL_WORKLOAD(id, nm, what, su, st, td)                             \
    const struct workload wl_syscall_##id = {                                  \
        .name = nm,                                                            \
        .desc = what,                                                          \
        .unit = "ns",                                                          \
        .better = WL_LOWER_IS_BETTER,                                          \
        .setup = su,                                                           \
        .step = st,                                                            \
        .teardown = td,                                                        \
        .figure_kind = WF_TIME_PER_OP,                                         \
        .scale = 1e9,                                                          \
    }

SYSCALL_WORKLOAD(null, "syscall-null",
                 "getppid(): the null system call (lmbench lat_syscall null)",
                 NULL, null_step, NULL);
SYSCALL_WORKLOAD(read, "syscall-read",
                 "read 1 byte from /dev/zero (lmbench lat_syscall read)",
                 setup_read, read_step, sc_teardown);
SYSCALL_WORKLOAD(write, "syscall-write",
                 "write 1 byte to /dev/null (lmbench lat_syscall write)",
                 setup_write, write_step, sc_teardown);
SYSCALL_WORKLOAD(stat, "syscall-stat",
                 "stat() a file in the run directory (lmbench lat_syscall "
                 "stat)",
                 setup_file, stat_step, sc_teardown);
SYSCALL_WORKLOAD(fstat, "syscall-fstat",
                 "fstat() an open file (lmbench lat_syscall fstat)",
                 setup_file_open, fstat_step, sc_teardown);
SYSCALL_WORKLOAD(open, "syscall-open",
                 "open() and close() a file in the run directory (lmbench "
                 "lat_syscall open)",
                 setup_file, open_step, sc_teardown);
