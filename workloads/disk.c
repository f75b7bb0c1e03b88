/* Disk, bonnie++ style, in the run's private directory: sequential output
 * per character and per 8 KB block, rewrite (read a block, dirty it, write
 * it back), sequential input per character and per block, 8192 random
 * seeks by `seekers` processes (read a block; one in ten is dirtied and
 * written back; the phase ends once the file is deleted, as bonnie++'s
 * does), then sequential and random create, stat and delete of `files`
 * empty files. Each write phase ends with fsync, as bonnie++'s do.
 *
 * Per character means putc/getc by default (Bonnie and bonnie++ 1.0x);
 * char_io=1 makes it one write(2)/read(2) per byte, as bonnie++ 1.9x and
 * 2.0x do, which is a system call benchmark at ~1 MB/s. The per-char
 * phases cover the first char_mb MB of the file, 3 by default as in
 * bonnie++ 2.00 (its -f N; 0 skips them, as -f alone does). This matters
 * beyond their own time: the block write starts by deleting the file the
 * per-char write left, and deleting hundreds of MB just written (on an
 * ext4 mounted with discard, say) slows the block write that follows.
 *
 * bonnie++ makes the file twice the size of RAM so that reads must come
 * from the device. That is tens of GB and many minutes on a VM, and a
 * run here must stay short and repeatable on host and guests alike, so
 * size_mb defaults to a few MB: the data phases then measure the page
 * cache and the write-back to the device that fsync forces, and random
 * seeks the page cache and the file's deletion (see below). Pass
 * size_mb = 2 x RAM for bonnie++'s device-bound figures. */
#include "workloads/workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workloads/extras.h"
#include "workloads/meter.h"
#include "workloads/needs.h"
#include "workloads/proc.h"
#include "workloads/spread.h"

enum {
    P_SIZE_MB,
    P_CHAR_MB,
    P_FILES,
    P_CHAR_IO,
    P_SEEKERS,
    P_PLACEMENT,
    P_CPU
};

#define CHUNK    8192 /* bonnie++'s default chunk size */
#define SEEKS    8192 /* bonnie++'s number of random seeks */
#define BIGFILE  "disk-data"
#define FILEDIR  "disk-files"
#define NAME_LEN 24 /* 10 digits, up to 12 letters, NUL */

struct disk {
    struct wl_ctx *ctx;
    struct wl_result *res;
    struct wl_meter m;
    struct spread sp;
    off_t size;    /* bytes of the big file */
    off_t chars;   /* bytes of the per-char phases, at most size */
    bool char_io;  /* per-character phases by system call */
    char *buf;     /* CHUNK bytes */
    uint64_t done; /* units (8 KB, seeks, files) for the live progress */
    double t0;     /* start of the current phase */
    uint64_t rng;
    int dirfd; /* ctx->dir */
};

static uint64_t rnd(uint64_t *s) /* xorshift64 */
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Counts a unit of progress; true when the run should stop. */
static bool tick(struct disk *d)
{
    if ((++d->done & 63) == 0)
        wl_meter_publish(&d->m, d->ctx->progress, d->done);
    return wl_should_stop(d->ctx);
}

static void phase_start(struct disk *d)
{
    d->t0 = wl_now();
}

/* Records the rate of a phase that did `amount` of `unit` in secs. */
static void phase_record(struct disk *d, const char *name, const char *unit,
                         double amount, double secs)
{
    struct wl_extra *x = &d->res->extra[d->res->nextra++];
    snprintf(x->name, sizeof(x->name), "%s", name);
    snprintf(x->unit, sizeof(x->unit), "%s", unit);
    x->value = amount / secs;
    wl_meter_publish(&d->m, d->ctx->progress, d->done);
}

/* Ends a phase started with phase_start and records its rate. */
static void phase_end(struct disk *d, const char *name, const char *unit,
                      double amount)
{
    phase_record(d, name, unit, amount, wl_now() - d->t0);
}

/* ---- the big file: 0 when done, 1 when stopped, -1 on failure ----
 * As in bonnie++, opening is not timed (a write phase starts from a new
 * file: unlinked, then created) while fsync and close are. */

static int open_big(const struct disk *d, int flags)
{
    if (flags & O_CREAT) {
        unlinkat(d->dirfd, BIGFILE, 0);
        flags |= O_EXCL;
    }
    return openat(d->dirfd, BIGFILE, flags | O_CLOEXEC, 0600);
}

/* The big file as a stdio stream too, unless char_io asks for system
 * calls. 0, or -1 with nothing left open. */
static int open_chars(const struct disk *d, int flags, const char *mode,
                      int *fd, FILE **f)
{
    *f = NULL;
    if ((*fd = open_big(d, flags)) < 0)
        return -1;
    if (d->char_io || (*f = fdopen(*fd, mode)))
        return 0;
    close(*fd);
    return -1;
}

static void close_chars(int fd, FILE *f)
{
    if (f)
        fclose(f);
    else
        close(fd);
}

static int put_chars(struct disk *d)
{
    int fd;
    FILE *f;
    if (open_chars(d, O_WRONLY | O_CREAT, "w", &fd, &f) < 0)
        return -1;
    phase_start(d);
    int rc = 0;
    for (off_t i = 0; i < d->chars && rc == 0; i++) {
        char c = (char)(i & 0x7f);
        if (d->char_io ? write(fd, &c, 1) != 1 : putc(c, f) == EOF)
            rc = -1;
        else if ((i & (CHUNK - 1)) == CHUNK - 1 && tick(d))
            rc = 1;
    }
    if (rc == 0 && ((f && fflush(f) != 0) || fsync(fd) < 0))
        rc = -1;
    close_chars(fd, f);
    return rc;
}

static int get_chars(struct disk *d)
{
    int fd;
    FILE *f;
    if (open_chars(d, O_RDONLY, "r", &fd, &f) < 0)
        return -1;
    phase_start(d);
    int rc = 0;
    for (off_t n = 0; n < d->chars && rc == 0;) {
        char c;
        if (d->char_io ? read(fd, &c, 1) != 1 : getc(f) == EOF)
            rc = -1; /* the file is shorter than the block phases made it */
        else if ((++n & (CHUNK - 1)) == 0 && tick(d))
            rc = 1;
    }
    close_chars(fd, f);
    return rc;
}

static int put_blocks(struct disk *d)
{
    int fd = open_big(d, O_WRONLY | O_CREAT);
    if (fd < 0)
        return -1;
    phase_start(d);
    int rc = 0;
    for (off_t at = 0; at < d->size && rc == 0; at += CHUNK)
        if (write(fd, d->buf, CHUNK) != CHUNK)
            rc = -1;
        else if (tick(d))
            rc = 1;
    if (rc == 0 && fsync(fd) < 0)
        rc = -1;
    close(fd);
    return rc;
}

static int rewrite_blocks(struct disk *d)
{
    int fd = open_big(d, O_RDWR);
    if (fd < 0)
        return -1;
    phase_start(d);
    int rc = 0;
    for (off_t at = 0; at < d->size && rc == 0; at += CHUNK) {
        if (read(fd, d->buf, CHUNK) != CHUNK)
            rc = -1;
        else if (d->buf[0]++, lseek(fd, -CHUNK, SEEK_CUR) < 0 ||
                                  write(fd, d->buf, CHUNK) != CHUNK)
            rc = -1;
        else if (tick(d))
            rc = 1;
    }
    if (rc == 0 && fsync(fd) < 0)
        rc = -1;
    close(fd);
    return rc;
}

static int get_blocks(struct disk *d)
{
    int fd = open_big(d, O_RDONLY);
    if (fd < 0)
        return -1;
    phase_start(d);
    int rc = 0;
    off_t n = 0;
    ssize_t got;
    while (rc == 0 && (got = read(fd, d->buf, CHUNK)) > 0) {
        n += got;
        if (tick(d))
            rc = 1;
    }
    if (rc == 0 && n != d->size)
        rc = -1;
    close(fd);
    return rc;
}

/* ---- random seeks ----
 * As bonnie++ hands them out: the seekers all read one-byte tickets from
 * one pipe, 1 for a seek, 0 for "done", so the 8192 seeks go to whichever
 * seeker is ready. Each seek reads a block; a seeker's 1st, 11th, 21st...
 * block is dirtied and written back. The phase runs from the tickets'
 * writing to the last seeker's end: after its fsync and close, and after
 * the file's deletion. bonnie++'s seeker threads unlink the file as they
 * finish (CFileOp's destructor), so the last one's close, inside its
 * timed span, frees all of the file's blocks. With the file in the page
 * cache that is most of the phase (512 MB on a VM's ext4 mounted with
 * discard: ~0.5 s, against ~0.1 s of seeks and fsyncs). bonnie++ leaves
 * it out only when every seeker closes before the first unlink; the
 * phase then takes under 0.5 s and it prints +++++, not a figure. Here
 * the last seeker to finish deletes the file, every time. */

#define MAX_SEEKERS 64

struct seek_shared {
    _Atomic uint64_t count;
    _Atomic int running; /* seekers not yet done */
    double end[MAX_SEEKERS];
};

static _Noreturn void seeker(struct disk *d, int k, const int *tickets,
                             struct seek_shared *sh)
{
    uint64_t rng = d->rng + (uint64_t)(k + 1) * 0x9e3779b97f4a7c15ULL;
    uint64_t chunks = (uint64_t)(d->size / CHUNK);
    close(tickets[1]);
    int fd = open_big(d, O_RDWR);
    if (fd < 0 || spread_pin(&d->sp, k) < 0)
        _exit(1);
    char t;
    for (unsigned n = 0; read(tickets[0], &t, 1) == 1 && t; n++) {
        off_t at = (off_t)(rnd(&rng) % chunks) * CHUNK;
        if (wl_should_stop(d->ctx))
            _exit(1);
        if (lseek(fd, at, SEEK_SET) < 0 || read(fd, d->buf, CHUNK) != CHUNK)
            _exit(1);
        if (n % 10 == 0) {
            d->buf[rnd(&rng) % CHUNK]--;
            if (lseek(fd, at, SEEK_SET) < 0 ||
                write(fd, d->buf, CHUNK) != CHUNK)
                _exit(1);
        }
        atomic_fetch_add_explicit(&sh->count, 1, memory_order_relaxed);
    }
    if (fsync(fd) < 0 || close(fd) < 0)
        _exit(1);
    if (atomic_fetch_sub(&sh->running, 1) == 1 &&
        unlinkat(d->dirfd, BIGFILE, 0) < 0)
        _exit(1);
    sh->end[k] = wl_now();
    _exit(0);
}

/* Waits for the seekers, publishing their count; 0, 1 or -1. */
static int reap_seekers(struct disk *d, pid_t *pid, int n,
                        struct seek_shared *sh)
{
    const struct timespec poll = {0, 5000000L};
    int rc = 0, left = n;
    uint64_t base = d->done;
    while (left > 0) {
        for (int k = 0; k < n; k++) {
            int st;
            if (pid[k] <= 0 || waitpid(pid[k], &st, WNOHANG) != pid[k])
                continue;
            pid[k] = 0;
            left--;
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
                rc = -1;
        }
        d->done = base + atomic_load(&sh->count);
        wl_meter_publish(&d->m, d->ctx->progress, d->done);
        if (left > 0)
            nanosleep(&poll, NULL);
    }
    return wl_should_stop(d->ctx) ? 1 : rc;
}

/* Starts the seekers, deals out the tickets, records the rate. */
static int seeks(struct disk *d)
{
    static char tick_buf[SEEKS + MAX_SEEKERS];
    int n = (int)d->ctx->param[P_SEEKERS], tickets[2];
    pid_t pid[MAX_SEEKERS] = {0};
    struct seek_shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
                                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED)
        return -1;
    if (pipe2(tickets, O_CLOEXEC) < 0) {
        munmap(sh, sizeof(*sh));
        return -1;
    }
    int rc = 0;
    atomic_init(&sh->running, n);
    for (int k = 0; k < n && rc == 0; k++) {
        pid[k] = wl_fork();
        if (pid[k] == 0)
            seeker(d, k, tickets, sh);
        if (pid[k] < 0)
            rc = -1;
    }
    close(tickets[0]);
    memset(tick_buf, 1, SEEKS);
    memset(tick_buf + SEEKS, 0, MAX_SEEKERS);
    double t0 = wl_now();
    if (rc == 0 && write(tickets[1], tick_buf, (size_t)(SEEKS + n)) !=
                       (ssize_t)(SEEKS + n))
        rc = -1;
    close(tickets[1]); /* a seeker left waiting now reads end of file */
    int r2 = reap_seekers(d, pid, n, sh);
    if (rc == 0 && r2 == 0) {
        double last = t0;
        for (int k = 0; k < n; k++)
            last = fmax(last, sh->end[k]);
        phase_record(d, "random seeks", "seeks/s", SEEKS, last - t0);
    }
    munmap(sh, sizeof(*sh));
    return rc < 0 ? -1 : r2;
}

/* ---- small files ---- */

enum file_op { F_CREATE, F_STAT, F_DELETE };

static int file_op(int dfd, const char *name, enum file_op op)
{
    struct stat st;
    if (op == F_STAT)
        return fstatat(dfd, name, &st, 0);
    if (op == F_DELETE)
        return unlinkat(dfd, name, 0);
    int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    return fd < 0 ? -1 : close(fd);
}

/* Applies op to the n files in `order` (NULL: creation order). 0, 1 or
 * -1. */
static int pass_names(struct disk *d, int dfd, char (*names)[NAME_LEN],
                      const int *order, int n, enum file_op op)
{
    for (int i = 0; i < n; i++) {
        if (file_op(dfd, names[order ? order[i] : i], op) < 0)
            return -1;
        if (tick(d))
            return 1;
    }
    return 0;
}

/* Applies op to the n files as the directory lists them, reading it as it
 * goes: bonnie++'s sequential stat and delete. 0, 1 or -1. */
static int pass_dir(struct disk *d, int dfd, int n, enum file_op op)
{
    int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = fd < 0 ? NULL : fdopendir(fd);
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int rc = 0, seen = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        if (file_op(dfd, e->d_name, op) < 0)
            rc = -1;
        else if (tick(d))
            rc = 1;
        seen++;
    }
    closedir(dir);
    return rc == 0 && seen != n ? -1 : rc;
}

static void shuffle(int *v, int n, uint64_t *rng)
{
    for (int i = 0; i < n; i++)
        v[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(rnd(rng) % (uint64_t)(i + 1));
        int t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* Names as bonnie++'s: a 10-digit sequence number and up to 12 random
 * letters and digits. */
static void make_names(char (*names)[NAME_LEN], int n, uint64_t *rng)
{
    static const char alnum[] = "0123456789abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int i = 0; i < n; i++) {
        int len = snprintf(names[i], NAME_LEN, "%010d", i);
        for (int k = (int)(rnd(rng) % 13); k > 0; k--)
            names[i][len++] = alnum[rnd(rng) % (sizeof(alnum) - 1)];
    }
}

/* Sequential create (in name order), stat and delete (in directory
 * order), then random create, stat and delete (each in its own shuffled
 * order). The file system is synced before each phase, untimed, as
 * bonnie++ does. */
static int files(struct disk *d)
{
    static const char *const what[2][3] = {
        {"seq create", "seq stat", "seq delete"},
        {"random create", "random stat", "random delete"}};
    int n = (int)d->ctx->param[P_FILES];
    char(*names)[NAME_LEN] = calloc((size_t)n, NAME_LEN);
    int *order = calloc((size_t)n, sizeof(int));
    int dfd = -1, rc = -1;
    if (!names || !order || mkdirat(d->dirfd, FILEDIR, 0700) < 0 ||
        (dfd = openat(d->dirfd, FILEDIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) <
            0)
        goto out;
    make_names(names, n, &d->rng);
    rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (int op = F_CREATE; op <= F_DELETE && rc == 0; op++) {
            if (pass == 1)
                shuffle(order, n, &d->rng);
            syncfs(dfd);
            phase_start(d);
            if (pass == 0 && op != F_CREATE)
                rc = pass_dir(d, dfd, n, op);
            else
                rc = pass_names(d, dfd, names, pass ? order : NULL, n, op);
            if (rc == 0)
                phase_end(d, what[pass][op], "files/s", n);
        }
out:
    if (dfd >= 0)
        close(dfd);
    free(names);
    free(order);
    return rc;
}

/* ---- the run ---- */

struct data_phase {
    const char *name;
    int (*fn)(struct disk *d);
    bool per_char; /* covers d->chars, not the whole file */
};

static int disk_run(struct wl_ctx *ctx, struct wl_result *res)
{
    static const struct data_phase data[] = {
        {"seq out per-char", put_chars, true},
        {"seq out block", put_blocks, false},
        {"seq rewrite", rewrite_blocks, false},
        {"seq in per-char", get_chars, true},
        {"seq in block", get_blocks, false},
    };
    struct disk d = {.ctx = ctx,
                     .res = res,
                     .size = (off_t)ctx->param[P_SIZE_MB] << 20,
                     .chars = (off_t)ctx->param[P_CHAR_MB] << 20,
                     .char_io = ctx->param[P_CHAR_IO] != 0,
                     .rng = (uint64_t)time(NULL) | 1};
    if (spread_init(&d.sp, ctx, P_PLACEMENT, "disk") < 0)
        return -1;
    d.dirfd = open(ctx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    /* Page-aligned, as bonnie++'s (pa_new): the kernel copies a block
     * to or from it, and on x86 a buffer 16 bytes past a page boundary,
     * as malloc may hand out, reads from the page cache 3x slower. */
    if (d.dirfd < 0 ||
        posix_memalign((void **)&d.buf, (size_t)sysconf(_SC_PAGESIZE), CHUNK)) {
        if (d.dirfd >= 0)
            close(d.dirfd);
        return -1;
    }
    if (d.chars > d.size)
        d.chars = d.size; /* as bonnie++ bounds -f N by -s */
    memset(d.buf, 'b', CHUNK);
    wl_meter_start(&d.m);
    int rc = 0;
    for (size_t i = 0; i < sizeof(data) / sizeof(data[0]) && rc == 0; i++) {
        off_t bytes = data[i].per_char ? d.chars : d.size;
        if (bytes == 0)
            continue;
        rc = data[i].fn(&d); /* starts the clock once the file is open */
        if (rc == 0)
            phase_end(&d, data[i].name, "KB/s", (double)bytes / 1024.0);
    }
    if (rc == 0)
        rc = seeks(&d);
    unlinkat(d.dirfd, BIGFILE, 0); /* the seekers' job, unless they failed */
    if (rc == 0)
        rc = files(&d);
    close(d.dirfd);
    free(d.buf);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    res->figure = wl_extra(res, "seq out block");
    res->ops = d.done;
    return 0;
}

/* The data file (the per-char phases cover the start of it) and the small
 * files, which are empty. */
static void disk_needs(const double *param, struct wl_needs *n)
{
    *n = (struct wl_needs){.disk_bytes = param[P_SIZE_MB] * 1024 * 1024,
                           .files = param[P_FILES] + 1,
                           .param = "size_mb",
                           .files_param = "files"};
}

const struct workload wl_disk = {
    .name = "disk",
    .desc = "bonnie++-style file I/O, files and seeks (figure: block write)",
    .unit = "KB/s",
    .better = WL_HIGHER_IS_BETTER,
    .params =
        {
            {"size_mb", "size of the data file in MB (bonnie++: 2 x RAM)", 16,
             1, 1 << 20, true},
            {"char_mb", "MB of it written and read per char (0: none)", 3, 0,
             1 << 20, true},
            {"files", "small files to create, stat and delete", 1024, 1,
             1 << 20, true},
            {"char_io", "per-char phases: 0 putc/getc, 1 write/read 1 byte", 0,
             0, 1, true},
            {"seekers", "processes sharing the 8192 random seeks", 5, 1,
             MAX_SEEKERS, true},
            SPREAD_PARAM_PLACEMENT,
            SPREAD_PARAM_CPU,
        },
    .run = disk_run,
    .needs = disk_needs,
};
