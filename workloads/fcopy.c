/* UnixBench fstime file copy: read a buffer from one file, write it to
 * another, rewinding both at the end of the source. The source holds
 * `max_blocks` KB, as fstime's -m; 0 picks UnixBench's own pairing
 * (fsbuffer 256 B/500 KB, fstime 1024 B/2000 KB, fsdisk 4096 B/8000 KB).
 * KB/s counts bytes copied, as fstime's copy score does. */
#include "workloads/workload.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "workloads/needs.h"

enum { P_BUFSIZE, P_MAX_BLOCKS };

struct fcopy {
    int src, dst;
    size_t bufsize;
    char *buf;
};

/* UnixBench's runs use 2000 KB per 1 KB of buffer. */
static long fcopy_max_kb(const struct wl_ctx *ctx)
{
    long kb = (long)ctx->param[P_MAX_BLOCKS];
    return kb > 0 ? kb : (long)ctx->param[P_BUFSIZE] * 2000 / 1024;
}

static int fcopy_open(const struct wl_ctx *ctx, const char *name)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s", ctx->dir, name);
    return open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
}

/* Writes the source as fstime's write pass leaves it, reads it back once
 * (its read pass; the copy then runs from the page cache, as fstime's
 * does) and flushes it, as fstime's sync()s do; the destination is still
 * empty, as fstime's is when its copy starts. */
static int fcopy_prepare(struct fcopy *f, long max_kb)
{
    long nbufs = max_kb * 1024 / (long)f->bufsize;
    if (nbufs < 1)
        nbufs = 1; /* an empty source would never give a buffer */
    for (size_t i = 0; i < f->bufsize; i++)
        f->buf[i] = (char)(i & 0xff);
    for (long i = 0; i < nbufs; i++)
        if (write(f->src, f->buf, f->bufsize) != (ssize_t)f->bufsize)
            return -1;
    if (lseek(f->src, 0, SEEK_SET) < 0)
        return -1;
    while (read(f->src, f->buf, f->bufsize) > 0)
        ;
    if (fsync(f->src) < 0 || lseek(f->src, 0, SEEK_SET) < 0)
        return -1;
    return 0;
}

static void fcopy_teardown(struct wl_ctx *ctx)
{
    struct fcopy *f = ctx->state;
    if (!f)
        return;
    if (f->src >= 0)
        close(f->src);
    if (f->dst >= 0)
        close(f->dst);
    free(f->buf);
    free(f);
    ctx->state = NULL;
}

static int fcopy_setup(struct wl_ctx *ctx)
{
    struct fcopy *f = calloc(1, sizeof(*f));
    if (!f)
        return -1;
    ctx->state = f;
    f->bufsize = (size_t)ctx->param[P_BUFSIZE];
    f->buf = malloc(f->bufsize);
    f->src = fcopy_open(ctx, "fcopy-src");
    f->dst = fcopy_open(ctx, "fcopy-dst");
    if (!f->buf || f->src < 0 || f->dst < 0 ||
        fcopy_prepare(f, fcopy_max_kb(ctx)) < 0) {
        fcopy_teardown(ctx);
        return -1;
    }
    return 0;
}

/* One operation is one buffer read and written; rewinds are free. */
static int fcopy_step(struct wl_ctx *ctx, uint64_t n)
{
    struct fcopy *f = ctx->state;
    ssize_t len = (ssize_t)f->bufsize;
    for (uint64_t i = 0; i < n;) {
        ssize_t got = read(f->src, f->buf, f->bufsize);
        if (got == 0) {
            if (lseek(f->src, 0, SEEK_SET) < 0 ||
                lseek(f->dst, 0, SEEK_SET) < 0)
                return -1;
            continue;
        }
        if (got != len || write(f->dst, f->buf, f->bufsize) != len)
            return -1;
        i++;
    }
    return 0;
}

static double fcopy_figure(const struct wl_ctx *ctx, uint64_t ops, double secs)
{
    return (double)ops * ctx->param[P_BUFSIZE] / 1024.0 / secs;
}

/* The source and its copy. */
static void fcopy_needs(const double *param, struct wl_needs *n)
{
    double kb = param[P_MAX_BLOCKS] > 0 ? param[P_MAX_BLOCKS]
                                        : param[P_BUFSIZE] * 2000 / 1024;
    *n = (struct wl_needs){
        .disk_bytes = 2 * kb * 1024, .files = 2, .param = "max_blocks"};
}

const struct workload wl_fcopy = {
    .name = "fcopy",
    .desc = "file copy with a bufsize-byte buffer, UnixBench fstime -c",
    .unit = "KB/s",
    .better = WL_HIGHER_IS_BETTER,
    .params =
        {
            {"bufsize", "buffer size in bytes (UnixBench: 256, 1024, 4096)",
             1024, 256, 8192, true},
            {"max_blocks",
             "source file size in KB; 0: UnixBench's (bufsize*2000/1024)", 0, 0,
             1024 * 1024, true},
        },
    .setup = fcopy_setup,
    .step = fcopy_step,
    .teardown = fcopy_teardown,
    .figure = fcopy_figure,
    .needs = fcopy_needs,
};
