/* Run directories: mkdtemp + flock on the directory. A live owner holds
 * the lock, so a directory whose lock can be taken belongs to nobody. */
#include "runner/tmpdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *tmp_base(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
                    struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    remove(path);
    return 0; /* remove what we can, keep going */
}

static void rm_tree(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* True when fd still is the directory named path (not removed, not
 * replaced by a sweeper between mkdtemp and flock). */
static int same_dir(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int tmpdir_sweep(void)
{
    DIR *d = opendir(tmp_base());
    if (!d)
        return 0;
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, TMPDIR_PREFIX, strlen(TMPDIR_PREFIX)) != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", tmp_base(), e->d_name);
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        struct stat st;
        /* only our own; the lock is free only when its owner has died */
        if (fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
            flock(fd, LOCK_EX | LOCK_NB) == 0 && same_dir(fd, path)) {
            rm_tree(path);
            removed++;
        }
        close(fd);
    }
    closedir(d);
    return removed;
}

int tmpdir_create(struct tmpdir *t, char *err, size_t errlen)
{
    tmpdir_sweep();
    for (int attempt = 0; attempt < 8; attempt++) {
        snprintf(t->path, sizeof t->path, "%s/" TMPDIR_PREFIX "XXXXXX",
                 tmp_base());
        if (!mkdtemp(t->path)) {
            snprintf(err, errlen, "cannot create a directory in %s: %s",
                     tmp_base(), strerror(errno));
            return -1;
        }
        t->lock_fd = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        /* blocking: only a sweeper can hold it, and only briefly */
        if (t->lock_fd >= 0 && flock(t->lock_fd, LOCK_EX) == 0 &&
            same_dir(t->lock_fd, t->path))
            return 0;
        if (t->lock_fd >= 0)
            close(t->lock_fd); /* a sweeper took it first: try again */
        else
            rmdir(t->path);
    }
    snprintf(err, errlen, "cannot lock a directory in %s", tmp_base());
    return -1;
}

void tmpdir_remove(struct tmpdir *t)
{
    if (t->lock_fd < 0)
        return;
    rm_tree(t->path);
    close(t->lock_fd);
    t->lock_fd = -1;
}

/* The keeper: waits for the end of every holder of the pipe's write end
 * (the run's processes), then for the owner's lock (held until it removes
 * the directory itself, or dies), and removes what the owner left. */
static _Noreturn void keeper(int done_fd, const char *path)
{
    setsid(); /* out of the run's group: its SIGKILL is not for us */
    if (done_fd > 3)
        close_range(3, (unsigned)done_fd - 1, 0);
    close_range((unsigned)done_fd + 1, ~0U, 0);
    char c;
    while (read(done_fd, &c, 1) < 0 && errno == EINTR)
        ;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0) {
        while (flock(fd, LOCK_EX) < 0 && errno == EINTR)
            ;
        if (same_dir(fd, path)) /* the owner died: it is ours to remove */
            rm_tree(path);
    }
    _exit(0);
}

int tmpdir_keep(const char *path)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    /* twice, so that the keeper is nobody's child here: a workload that
     * waits for any child never meets it */
    pid_t mid = fork();
    if (mid == 0) {
        close(p[1]);
        if (fork() == 0)
            keeper(p[0], path);
        _exit(0);
    }
    close(p[0]);
    if (mid < 0) {
        close(p[1]);
        return -1;
    }
    while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
        ;
    return 0; /* p[1] stays open for the rest of the run */
}
