/* Page fault, lmbench lat_pagefault: a file in the run's directory (in the
 * page cache) is mapped shared, read-only, and its pages are read in a
 * random order; after each pass it is unmapped, mapped again and msync'd
 * with MS_INVALIDATE. One operation is one page read. As lat_pagefault
 * does, the figure is the time per page less the cost of an unmap + map +
 * msync of the untouched mapping (median of 11 tries) spread over the
 * pages, in microseconds. The kernel's fault-around, which maps a fault's
 * cached neighbours too, counts as it does for lmbench. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "workloads/lat_measure.h"
#include "workloads/needs.h"

/* lmdd's default block: the kernel sizes page-cache folios by the writes
 * that fill them, and fault-around maps by folio, so this matters. */
#define PF_CHUNK 8192

struct page_fault {
    int fd;
    size_t size, npages;
    char *where;
    size_t *pages;   /* page offsets in a random order */
    size_t pos;      /* the next entry of pages to read */
    double remap_us; /* an unmap + map + msync of the untouched mapping */
    volatile int sum;
};

static int pf_fail(const char *what)
{
    fprintf(stderr, "page-fault: %s: %s\n", what, strerror(errno));
    return -1;
}

static void pf_teardown(struct wl_ctx *ctx)
{
    struct page_fault *s = ctx->state;
    if (!s)
        return;
    if (s->where)
        munmap(s->where, s->size);
    if (s->fd >= 0)
        close(s->fd);
    free(s->pages);
    free(s);
    ctx->state = NULL;
}

/* Writes size bytes to path and syncs them as lmbench's script does
 * (lmdd of=FILE move=SIZE fsync=1: zeros in 8 KB writes); the pages stay
 * cached. */
static int pf_write_file(const char *path, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return pf_fail(path);
    char *buf = calloc(1, PF_CHUNK);
    int rc = buf ? 0 : -1;
    for (size_t done = 0; rc == 0 && done < size; done += PF_CHUNK)
        if (write(fd, buf, PF_CHUNK) != PF_CHUNK)
            rc = pf_fail("write");
    if (rc == 0 && fsync(fd) < 0)
        rc = pf_fail("fsync");
    free(buf);
    close(fd);
    return rc;
}

/* lmbench's permutation(): the page offsets, shuffled (Fisher-Yates with
 * xorshift seeded by the pid, as lat_pagefault seeds rand()). */
static void pf_shuffle(size_t *pages, size_t n, size_t pagesize)
{
    uint64_t r = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL | 1;
    for (size_t i = 0; i < n; i++)
        pages[i] = i * pagesize;
    for (size_t i = n - 1; i > 0; i--) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        size_t k = (size_t)(r % (i + 1)), v = pages[k];
        pages[k] = pages[i];
        pages[i] = v;
    }
}

/* A fresh, untouched mapping in place of the current one. */
static int pf_remap(struct page_fault *s)
{
    if (s->where)
        munmap(s->where, s->size);
    s->where = mmap(NULL, s->size, PROT_READ, MAP_SHARED, s->fd, 0);
    if (s->where == MAP_FAILED) {
        s->where = NULL;
        return pf_fail("mmap");
    }
    if (msync(s->where, s->size, MS_INVALIDATE) < 0)
        return pf_fail("msync");
    return 0;
}

static int pf_open(struct wl_ctx *ctx)
{
    struct page_fault *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->fd = -1;
    ctx->state = s;
    size_t pagesize = (size_t)sysconf(_SC_PAGESIZE);
    s->size = (size_t)ctx->param[0] * 1024 * 1024;
    s->npages = s->size / pagesize;
    char path[4096];
    snprintf(path, sizeof path, "%s/pagefault", ctx->dir);
    if (pf_write_file(path, s->size) < 0)
        return -1;
    s->fd = open(path, O_RDONLY);
    if (s->fd < 0)
        return pf_fail(path);
    s->pages = malloc(s->npages * sizeof *s->pages);
    if (!s->pages)
        return -1;
    pf_shuffle(s->pages, s->npages, pagesize);
    return pf_remap(s);
}

static int pf_setup(struct wl_ctx *ctx)
{
    if (pf_open(ctx) == 0)
        return 0;
    pf_teardown(ctx);
    return -1;
}

/* lat_pagefault's benchmark, one page at a time */
static int touch_loop(void *arg, uint64_t n)
{
    struct page_fault *s = arg;
    int sum = 0;
    while (n-- > 0) {
        sum += s->where[s->pages[s->pos]];
        if (++s->pos == s->npages) {
            s->pos = 0;
            if (pf_remap(s) < 0)
                return -1;
        }
    }
    s->sum += sum; /* the reads must happen */
    return 0;
}

/* lat_pagefault's benchmark_mmap */
static int remap_loop(void *arg, uint64_t n)
{
    while (n-- > 0)
        if (pf_remap(arg) < 0)
            return -1;
    return 0;
}

/* lat_pagefault's arithmetic: per page, less the remap of an untouched
 * mapping spread over its pages */
static double pf_figure(void *arg, double us, const double *ref_us)
{
    struct page_fault *s = arg;
    (void)ref_us;
    return us - s->remap_us / (double)s->npages;
}

static int pf_run(struct wl_ctx *ctx, struct wl_result *res)
{
    struct page_fault *s = ctx->state;
    s->remap_us = lat_calibrate(ctx, remap_loop, s);
    if (isnan(s->remap_us))
        return wl_should_stop(ctx) ? 0 : -1;
    s->pos = 0; /* the mapping is fresh: start a pass */
    int rc = lat_measure(ctx, touch_loop, s, NULL, 0, pf_figure, res);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    lat_extra(res, "page with remap", "us", res->wall / (double)res->ops * 1e6);
    lat_extra(res, "remap", "us", s->remap_us);
    return 0;
}

/* The file it maps. */
static void pf_needs(const double *param, struct wl_needs *n)
{
    *n = (struct wl_needs){
        .disk_bytes = param[0] * 1024 * 1024, .files = 1, .param = "size"};
}

const struct workload wl_page_fault = {
    .name = "page-fault",
    .desc = "page faults reading a cached file through a fresh shared "
            "mapping, random order (lmbench lat_pagefault)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params = {{"size", "file size in MB (lmbench needs 1 or more)", 8, 1, 256,
                true}},
    .setup = pf_setup,
    .run = pf_run,
    .teardown = pf_teardown,
    .figure_kind = WF_TIME_PER_OP, /* the live figure: pages */
    .scale = 1e6,
    .needs = pf_needs,
};
