/* See atomic_file.h. A temp file that does get a name is a hidden sibling
 * of the target (".parallax-tmp-XXXXXX"), so the rename stays within one
 * file system and a listing never shows a half-written report. Its writer
 * holds an flock on it from the start: one that nobody holds was left by
 * a killed save, and the next save in that directory removes it. */
#include "report/atomic_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/file_kind.h"

#define TMP_PREFIX  ".parallax-tmp-"
#define NAME_TRIES  100
#define LEGACY_STEM ".parallax-" /* before: ".parallax-<stem>.json.XXXXXX" */

static bool force_named;

void atomic_file_force_named(bool on)
{
    force_named = on;
}

/* The directory of path into buf ("." for a bare name). */
static void dir_of(const char *path, char *buf, size_t n)
{
    char copy[ATOMIC_PATH_MAX];
    snprintf(copy, sizeof(copy), "%s", path);
    snprintf(buf, n, "%s", dirname(copy));
}

/* A temp file name of ours: this version's, or an earlier version's
 * ".parallax-<stem>.json.XXXXXX" and ".txt.XXXXXX". */
static bool is_our_temp(const char *name)
{
    size_t len = strlen(name);
    if (strncmp(name, TMP_PREFIX, strlen(TMP_PREFIX)) == 0)
        return true;
    if (strncmp(name, LEGACY_STEM, strlen(LEGACY_STEM)) != 0 || len < 18 ||
        name[len - 7] != '.')
        return false;
    return memcmp(name + len - 12, ".json", 5) == 0 ||
           memcmp(name + len - 11, ".txt", 4) == 0;
}

/* Removes the temp files of killed saves in dir: ours by name, and locked
 * by no writer (a live writer holds its lock until it is done). */
static void remove_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (!is_our_temp(e->d_name))
            continue;
        int fd = openat(dirfd(d), e->d_name,
                        O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
            continue;
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            flock(fd, LOCK_EX | LOCK_NB) == 0)
            unlinkat(dirfd(d), e->d_name, 0);
        close(fd);
    }
    closedir(d);
}

static bool tmpfile_unsupported(int e)
{
    return e == EOPNOTSUPP || e == EISDIR || e == EINVAL;
}

/* A new file in a->dir: unnamed (O_TMPFILE) where the file system can,
 * else a hidden temp file (a->tmp). Locked at once, so that no cleaner
 * takes it for a stale one. The fd, or -1. */
static int open_new(struct atomic_file *a)
{
    a->tmp[0] = '\0';
    if (!force_named) {
        int fd = open(a->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
        if (fd >= 0)
            flock(fd, LOCK_EX | LOCK_NB);
        /* only a file system without O_TMPFILE goes on to a named one */
        if (fd >= 0 || !tmpfile_unsupported(errno))
            return fd;
    }
    int len =
        snprintf(a->tmp, sizeof(a->tmp), "%s/" TMP_PREFIX "XXXXXX", a->dir);
    if (len < 0 || (size_t)len >= sizeof(a->tmp)) {
        a->tmp[0] = '\0';
        errno = ENAMETOOLONG;
        return -1;
    }
    /* a cleaner could open it before the lock: a window of microseconds,
     * and only next to another parallax saving into the same place */
    int fd = mkostemp(a->tmp, O_CLOEXEC);
    if (fd < 0)
        a->tmp[0] = '\0';
    else
        flock(fd, LOCK_EX | LOCK_NB);
    return fd;
}

/* fill into the file, then flush and fsync it; f gets its own fd, so the
 * file stays open (and locked) after fclose. */
static int fill_and_sync(struct atomic_file *a, atomic_fill fill, void *arg,
                         char *err, size_t errlen)
{
    char why[256] = "";
    int fd = fcntl(a->fd, F_DUPFD_CLOEXEC, 0);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", a->what, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int rc = 0;
    if (fill(f, arg, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", a->what, why);
        rc = -1;
    } else if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", a->what, strerror(errno));
        rc = -1;
    }
    errno = 0;
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, errlen, "cannot write %s: %s", a->what, strerror(errno));
        rc = -1;
    }
    return rc;
}

int atomic_file_stage(struct atomic_file *a, const char *path, atomic_fill fill,
                      void *arg, char *err, size_t errlen)
{
    a->fd = -1;
    a->tmp[0] = '\0';
    snprintf(a->what, sizeof(a->what), "%s", path);
    dir_of(path, a->dir, sizeof(a->dir));
    remove_stale(a->dir);
    a->fd = open_new(a);
    if (a->fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fchmod(a->fd, 0644); /* whatever the umask: reports are for sharing */
    if (fill_and_sync(a, fill, arg, err, errlen) < 0) {
        atomic_file_discard(a);
        return -1;
    }
    return 0;
}

/* Links the unnamed file fd, /proc/self/fd/N as `proc` (made beforehand:
 * a forked child may call this), as path, never over an existing file.
 * AT_EMPTY_PATH needs a privilege; /proc's link to the fd does not. */
static int link_unnamed_at(int fd, const char *proc, const char *path)
{
    if (linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0)
        return 0;
    if (errno == EEXIST)
        return -1;
    return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

static int link_unnamed(int fd, const char *path)
{
    char proc[64];
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
    return link_unnamed_at(fd, proc, path);
}

/* Renames the hidden temp file to path, never over an existing file. */
static int rename_noreplace(const char *tmp, const char *path)
{
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    /* a file system without RENAME_NOREPLACE: link refuses to replace */
    if (link(tmp, path) < 0)
        return -1;
    unlink(tmp);
    return 0;
}

/* A fresh hidden name in a->dir for the unnamed file, linked: the step
 * before renaming it over an existing file. 0 or -1. */
static int link_temp_name(struct atomic_file *a)
{
    static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (int i = 0; i < NAME_TRIES; i++) {
        unsigned char r[6];
        if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
            for (size_t k = 0; k < sizeof(r); k++)
                r[k] = (unsigned char)(rand() ^ getpid());
        char rnd[7];
        for (size_t k = 0; k < sizeof(r); k++)
            rnd[k] = set[r[k] % (sizeof(set) - 1)];
        rnd[6] = '\0';
        int len = snprintf(a->tmp, sizeof(a->tmp), "%s/" TMP_PREFIX "%s",
                           a->dir, rnd);
        if (len < 0 || (size_t)len >= sizeof(a->tmp)) {
            errno = ENAMETOOLONG;
            break;
        }
        if (link_unnamed(a->fd, a->tmp) == 0)
            return 0;
        if (errno != EEXIST)
            break;
    }
    a->tmp[0] = '\0';
    return -1;
}

/* A failed directory fsync is not reported: the file is in place, and
 * some file systems refuse fsync on directories. */
static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* Names the staged file path over whatever is there: linked under a
 * hidden name first if it has none, then renamed. */
static int publish_replace(struct atomic_file *a, const char *path)
{
    if (!a->tmp[0] && link_temp_name(a) < 0)
        return -1;
    if (rename(a->tmp, path) < 0) {
        int e = errno;
        unlink(a->tmp);
        a->tmp[0] = '\0';
        errno = e;
        return -1;
    }
    a->tmp[0] = '\0';
    return 0;
}

int atomic_file_publish(struct atomic_file *a, const char *path, bool replace,
                        char *err, size_t errlen)
{
    int rc;
    if (replace)
        rc = publish_replace(a, path);
    else if (a->tmp[0])
        rc = rename_noreplace(a->tmp, path);
    else
        rc = link_unnamed(a->fd, path);
    if (rc < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    if (!replace)
        a->tmp[0] = '\0'; /* it is path now */
    sync_dir(a->dir);
    return 0;
}

/* One of a pair, ready for naming by system calls alone. */
struct pair_step {
    struct atomic_file *f;
    const char *path;
    char proc[64]; /* /proc/self/fd/N of an unnamed file */
};

/* Names one file of a pair: system calls only (it runs in a forked
 * child). 0, or -1 with errno set. */
static int name_one(const struct pair_step *p, bool replace)
{
    if (replace)
        return rename(p->f->tmp, p->path);
    if (p->f->tmp[0])
        return rename_noreplace(p->f->tmp, p->path);
    return link_unnamed_at(p->f->fd, p->proc, p->path);
}

/* Names both files, or (without replace) neither: the first is taken back
 * when the second fails. Writes which failed (1, 2; 0: none) and its errno
 * to out_fd. System calls only. */
static void name_pair(const struct pair_step *p, bool replace, int out_fd)
{
    int res[2] = {0, 0};
    if (name_one(&p[0], replace) < 0) {
        res[0] = 1;
        res[1] = errno;
    } else if (name_one(&p[1], replace) < 0) {
        res[0] = 2;
        res[1] = errno;
        if (!replace && p[0].f->tmp[0]) /* its hidden name back */
            rename(p[0].path, p[0].f->tmp);
        else if (!replace)
            unlink(p[0].path);
    } else {
        int dfd = open(p[0].f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
    }
    if (write(out_fd, res, sizeof(res)) < 0)
        return; /* the caller reads EOF as a failure */
}

int atomic_file_publish_pair(struct atomic_file *a, const char *path_a,
                             struct atomic_file *b, const char *path_b,
                             bool replace, char *err, size_t errlen)
{
    struct pair_step p[2] = {{.f = a, .path = path_a},
                             {.f = b, .path = path_b}};
    for (int i = 0; i < 2; i++) {
        snprintf(p[i].proc, sizeof(p[i].proc), "/proc/self/fd/%d", p[i].f->fd);
        /* over a file, a name of its own first (hidden, locked) */
        if (replace && !p[i].f->tmp[0] && link_temp_name(p[i].f) < 0) {
            snprintf(err, errlen, "cannot write %s: %s", p[i].path,
                     strerror(errno));
            return -1;
        }
    }
    int res[2] = {-1, EIO}, pfd[2];
    pid_t pid = pipe2(pfd, O_CLOEXEC) == 0 ? fork() : -1;
    if (pid == 0) {
        /* a session of its own: a kill of parallax, or of its group, now
         * leaves both names or neither */
        setsid();
        close(pfd[0]);
        name_pair(p, replace, pfd[1]);
        _exit(0);
    }
    if (pid < 0) { /* no child: named here, which a kill can split */
        int tmp[2];
        if (pipe2(tmp, O_CLOEXEC) == 0) {
            name_pair(p, replace, tmp[1]);
            if (read(tmp[0], res, sizeof(res)) != sizeof(res))
                res[0] = -1;
            close(tmp[0]);
            close(tmp[1]);
        }
    } else {
        close(pfd[1]);
        ssize_t n;
        while ((n = read(pfd[0], res, sizeof(res))) < 0 && errno == EINTR)
            ;
        if (n != sizeof(res))
            res[0] = -1, res[1] = EIO;
        close(pfd[0]);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (res[0] != 0) {
        const char *which = res[0] == 2 ? path_b : path_a;
        snprintf(err, errlen, "cannot write %s: %s", which, strerror(res[1]));
        errno = res[1];
        return -1;
    }
    a->tmp[0] = b->tmp[0] = '\0'; /* they are path_a and path_b now */
    return 0;
}

int atomic_file_write_pair(const char *path_a, atomic_fill fill_a,
                           const char *path_b, atomic_fill fill_b, void *arg,
                           char *err, size_t errlen)
{
    struct atomic_file a, b;
    if (atomic_file_target_ok(path_a, err, errlen) < 0 ||
        atomic_file_target_ok(path_b, err, errlen) < 0)
        return -1; /* a device, a FIFO: never renamed over */
    if (atomic_file_stage(&a, path_a, fill_a, arg, err, errlen) < 0)
        return -1;
    if (atomic_file_stage(&b, path_b, fill_b, arg, err, errlen) < 0) {
        atomic_file_discard(&a);
        return -1;
    }
    int rc =
        atomic_file_publish_pair(&a, path_a, &b, path_b, true, err, errlen);
    atomic_file_discard(&a);
    atomic_file_discard(&b);
    return rc;
}

void atomic_file_discard(struct atomic_file *a)
{
    if (a->tmp[0])
        unlink(a->tmp);
    a->tmp[0] = '\0';
    if (a->fd >= 0)
        close(a->fd);
    a->fd = -1;
}

int atomic_file_write(const char *path, atomic_fill fill, void *arg, char *err,
                      size_t errlen)
{
    struct atomic_file a;
    if (atomic_file_target_ok(path, err, errlen) < 0)
        return -1;
    if (atomic_file_stage(&a, path, fill, arg, err, errlen) < 0)
        return -1;
    int rc = atomic_file_publish(&a, path, true, err, errlen);
    atomic_file_discard(&a);
    return rc;
}

static int fill_nothing(FILE *f, void *arg, char *err, size_t errlen)
{
    (void)f, (void)arg, (void)err, (void)errlen;
    return 0;
}

int atomic_file_target_ok(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) < 0 || S_ISREG(st.st_mode))
        return 0;
    snprintf(err, errlen, "cannot write %s: it is %s, not a regular file", path,
             file_kind(st.st_mode));
    return -1;
}

int atomic_file_check(const char *path, char *err, size_t errlen)
{
    if (atomic_file_target_ok(path, err, errlen) < 0)
        return -1;
    struct atomic_file a;
    if (atomic_file_stage(&a, path, fill_nothing, NULL, err, errlen) < 0)
        return -1;
    atomic_file_discard(&a);
    return 0;
}
