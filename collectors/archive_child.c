/* See archive_source.h: backend_archive, which reads an archive in a
 * process of its own (parallax-archive, parallax_archive.c) after its
 * files' framing passed (archive_frame.h; each member's, for a list:
 * archive_list.h). The replay window (-S, -T, -O) reaches the reader in
 * the environment it inherits (archive_window.h). Every request has a
 * deadline: a reader that dies (a signal, an exit) or does not answer in
 * time is killed and reaped, and the archive's column says why in one
 * line, quoting the last line the reader wrote on its stderr (kept in a
 * memfd: glibc's "*** stack smashing detected ***"). An archive that
 * killed its reader mid-replay is not read again in this run (the
 * sampler reopens a source that failed: it would only die again). */
#include "collectors/archive_source.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/exec_helper.h"
#include "base/safe_text.h"
#include "collectors/archive_list.h"
#include "collectors/archive_wire.h"

#define READER       "parallax-archive"
#define HELLO_WAIT   10.0 /* s for the reader to start */
#define OPEN_WAIT    30.0 /* s to read an archive through, and ... */
#define OPEN_PER_MIB 0.25 /* ... s more for each MiB of it */
#define FETCH_WAIT   30.0 /* s for a record, a store */
#define CLOSE_WAIT   1.0  /* s for the reader to end once told */
#define POISON_MAX   32   /* archives that killed their reader */

extern char **environ;

struct child {
    pid_t pid;
    int sock;
    int err_fd; /* the reader's stderr */
    char target[1024];
    struct sample *got;
};

/* --- archives that killed a reader mid-replay --- */

static pthread_mutex_t poison_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char target[1024];
    char why[256];
} poison[POISON_MAX];
static int npoison;

static void poison_add(const char *target, const char *why)
{
    pthread_mutex_lock(&poison_lock);
    if (npoison < POISON_MAX) {
        snprintf(poison[npoison].target, sizeof(poison[0].target), "%s",
                 target);
        snprintf(poison[npoison].why, sizeof(poison[0].why), "%s", why);
        npoison++;
    }
    pthread_mutex_unlock(&poison_lock);
}

static bool poisoned(const char *target, char *err, size_t errlen)
{
    bool found = false;
    pthread_mutex_lock(&poison_lock);
    for (int i = 0; i < npoison && !found; i++)
        if (strcmp(poison[i].target, target) == 0) {
            snprintf(err, errlen, "%s", poison[i].why);
            found = true;
        }
    pthread_mutex_unlock(&poison_lock);
    return found;
}

/* --- the reader's process --- */

/* The bytes of one archive's files (or a directory's allowance). */
static double archive_bytes(const char *target)
{
    struct stat st;
    char path[1100];
    double bytes = 0;
    static const char *const ext[] = {".meta", ".index", ".0", ""};
    for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
        snprintf(path, sizeof(path), "%s%s", target, ext[i]);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            bytes += (double)st.st_size;
    }
    /* a directory, or more volumes: what its directory holds counts */
    if (stat(target, &st) == 0 && S_ISDIR(st.st_mode))
        bytes += 64.0 * 1024 * 1024;
    return bytes;
}

/* The bytes of target's files, for its open deadline: each member's, for
 * a list (-a A,B: archive_list.h). */
static double target_mib(const char *target)
{
    char list[1024];
    double bytes = 0;
    snprintf(list, sizeof(list), "%s", target);
    char *save = NULL;
    for (char *m = strtok_r(list, ",", &save); m;
         m = strtok_r(NULL, ",", &save))
        bytes += archive_bytes(m);
    return bytes / (1024.0 * 1024.0);
}

/* The last line the reader wrote on its stderr, made safe, or "". */
static void last_words(int fd, char *out, size_t n)
{
    char buf[512];
    out[0] = '\0';
    off_t end = lseek(fd, 0, SEEK_END);
    off_t from =
        end > (off_t)sizeof(buf) - 1 ? end - (off_t)sizeof(buf) + 1 : 0;
    ssize_t got = end > 0 ? pread(fd, buf, sizeof(buf) - 1, from) : 0;
    if (got <= 0)
        return;
    buf[got] = '\0';
    char *line = NULL, *save = NULL;
    for (char *t = strtok_r(buf, "\n", &save); t;
         t = strtok_r(NULL, "\n", &save))
        if (strspn(t, " \t\r") != strlen(t))
            line = t;
    if (line)
        safe_text_copy(out, n, line, 120);
}

/* Stops the reader (SIGKILL when `kill_it`, else it was told to end) and
 * reaps it; why it ended, for a message, into why. */
static void reap(struct child *c, bool kill_it, char *why, size_t n)
{
    if (c->pid <= 0) {
        snprintf(why, n, "it did not start");
        return;
    }
    if (kill_it)
        kill(c->pid, SIGKILL);
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        ;
    c->pid = 0;
    char words[200];
    last_words(c->err_fd, words, sizeof(words));
    if (kill_it && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        snprintf(why, n, "stopped");
    else if (WIFSIGNALED(status))
        snprintf(why, n, "died of SIG%s%s%s",
                 sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status))
                                                : "NAL",
                 words[0] ? ": " : "", words);
    else
        snprintf(why, n, "ended with status %d%s%s", WEXITSTATUS(status),
                 words[0] ? ": " : "", words);
}

static void child_free(struct child *c)
{
    if (c->sock >= 0)
        close(c->sock);
    if (c->pid > 0) {
        char why[256];
        reap(c, true, why, sizeof(why));
    }
    if (c->err_fd >= 0)
        close(c->err_fd);
    free(c->got);
    free(c);
}

/* Starts parallax-archive on a socket; 0, or -1 with err. */
static int spawn(struct child *c, char *err, size_t errlen)
{
    char path[4096], ppid[24];
    if (!wl_helper_find(READER, path, sizeof(path))) {
        snprintf(err, errlen,
                 "%s: cannot read it: no %s beside parallax (make build, "
                 "or make install)",
                 c->target, READER);
        return -1;
    }
    int sv[2];
    c->err_fd = memfd_create("parallax-archive-stderr", MFD_CLOEXEC);
    if (c->err_fd < 0 ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        snprintf(err, errlen, "%s: cannot start %s: %s", c->target, READER,
                 strerror(errno));
        return -1;
    }
    c->sock = sv[0];
    snprintf(ppid, sizeof(ppid), "%ld", (long)getpid());
    char *argv[] = {path, "--reader", ppid, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
    posix_spawn_file_actions_adddup2(&fa, c->err_fd, 2);
    posix_spawnattr_init(&at);
    /* a group of its own: the terminal's ^C is parallax's to handle */
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
                                      POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &all);
    int rc = posix_spawn(&c->pid, path, &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(sv[1]);
    if (rc != 0) {
        c->pid = 0;
        snprintf(err, errlen, "%s: cannot start %s: %s", c->target, path,
                 strerror(rc));
        return -1;
    }
    return 0;
}

/* Reads an answer: its rc, and its body: a text into text (n bytes, cut
 * to fit), or exactly n bytes into body. 0, or -1 with errno. */
static int recv_answer(struct child *c, int *rc, void *body, size_t n,
                       bool text, double deadline)
{
    struct wire_head h;
    static _Thread_local char buf[WIRE_TEXT_MAX + 1];
    if (wire_recv(c->sock, &h, sizeof(h), deadline) < 0)
        return -1;
    if ((text && h.len > WIRE_TEXT_MAX) || (!text && h.len != n)) {
        errno = EPROTO;
        return -1;
    }
    if (wire_recv(c->sock, text ? buf : body, h.len, deadline) < 0)
        return -1;
    if (text) {
        buf[h.len] = '\0';
        snprintf(body, n, "%s", buf);
    }
    *rc = h.code;
    return 0;
}

/* What went wrong with the reader, as the archive's one line; the reader
 * is gone after it. */
static void failed(struct child *c, const char *doing, double wait, char *err,
                   size_t errlen)
{
    int e = errno;
    char why[256];
    reap(c, true, why, sizeof(why));
    if (e == ETIMEDOUT)
        snprintf(err, errlen,
                 "%s: reading it took over %.0f s (%s, stopped): a damaged "
                 "archive, or a file system that does not answer",
                 c->target, wait, doing);
    else if (strncmp(why, "died of", 7) == 0 && strcmp(doing, "starting"))
        snprintf(err, errlen,
                 "%s: libpcp crashed %s (its reader %s): a damaged or "
                 "crafted archive; parallax reads it no further",
                 c->target, doing, why);
    else
        snprintf(err, errlen, "%s: its reader (%s) %s while %s", c->target,
                 READER, why, doing);
    safe_text(err);
}

static void *child_open(const char *target, char *err, size_t errlen)
{
    if (archive_list_frame_check(target, err, errlen) < 0) {
        safe_text(err);
        return NULL;
    }
    if (poisoned(target, err, errlen))
        return NULL;
    struct child *c = calloc(1, sizeof(*c));
    if (c)
        c->got = malloc(sizeof(*c->got));
    if (!c || !c->got) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->sock = c->err_fd = -1;
    snprintf(c->target, sizeof(c->target), "%s", target);
    if (spawn(c, err, errlen) < 0) {
        child_free(c);
        return NULL;
    }
    struct wire_head h;
    struct wire_hello hi;
    double wait = OPEN_WAIT + OPEN_PER_MIB * target_mib(target);
    int rc = -1;
    if (wire_recv(c->sock, &h, sizeof(h), clock_mono() + HELLO_WAIT) < 0 ||
        h.len != sizeof(hi) ||
        wire_recv(c->sock, &hi, sizeof(hi), clock_mono() + HELLO_WAIT) < 0) {
        failed(c, "starting", HELLO_WAIT, err, errlen);
    } else if (hi.magic != WIRE_MAGIC || hi.version != WIRE_VERSION ||
               hi.sample_size != sizeof(struct sample)) {
        snprintf(err, errlen,
                 "%s: cannot read it: the %s found is another build's "
                 "(make build, or make install)",
                 target, READER);
    } else if (wire_send(c->sock, WIRE_OPEN, target,
                         (uint32_t)strlen(target) + 1) < 0 ||
               recv_answer(c, &rc, err, errlen, true, clock_mono() + wait) <
                   0) {
        failed(c, "opening it", wait, err, errlen);
        rc = -1;
    } else {
        safe_text(err);
    }
    if (rc < 0) {
        child_free(c);
        return NULL;
    }
    return c;
}

/* The reader's sample into out, over what the sampler put there for
 * itself (its clock ticks, its stores, a renewal's error). */
static void take(struct sample *out, struct sample *got)
{
    wire_sample_sanitize(got);
    got->backend = out->backend;
    got->retry_at = out->retry_at;
    got->nticks = out->nticks;
    memcpy(got->tick, out->tick, sizeof(got->tick));
    got->nstores = out->nstores;
    memcpy(got->store, out->store, sizeof(got->store));
    memcpy(got->renew_error, out->renew_error, sizeof(got->renew_error));
    *out = *got;
}

static int child_fetch(void *state, struct sample *out)
{
    struct child *c = state;
    int rc;
    if (c->pid <= 0) {
        snprintf(out->error, sizeof(out->error), "%.140s: not read", c->target);
        return -1;
    }
    if (wire_send(c->sock, WIRE_FETCH, NULL, 0) < 0 ||
        recv_answer(c, &rc, c->got, sizeof(*c->got), false,
                    clock_mono() + FETCH_WAIT) < 0) {
        char why[sizeof(out->error)];
        failed(c, "reading a record", FETCH_WAIT, why, sizeof(why));
        poison_add(c->target, why);
        snprintf(out->error, sizeof(out->error), "%s", why);
        return -1;
    }
    take(out, c->got);
    return rc < 0 ? -1 : rc > 0 ? 1 : 0;
}

static int child_store(void *state, const char *name, const char *value,
                       char *msg, size_t msglen)
{
    struct child *c = state;
    char req[WIRE_TEXT_MAX];
    size_t nl = strlen(name), vl = strlen(value);
    int rc;
    if (c->pid <= 0 || nl + vl + 2 > sizeof(req)) {
        snprintf(msg, msglen, "%s: %s", c->target,
                 c->pid <= 0 ? "not read" : "a store too long");
        return -EINVAL;
    }
    memcpy(req, name, nl + 1);
    memcpy(req + nl + 1, value, vl + 1);
    if (wire_send(c->sock, WIRE_STORE, req, (uint32_t)(nl + vl + 2)) < 0 ||
        recv_answer(c, &rc, msg, msglen, true, clock_mono() + FETCH_WAIT) < 0) {
        char why[256];
        failed(c, "steering its replay", FETCH_WAIT, why, sizeof(why));
        poison_add(c->target, why);
        snprintf(msg, msglen, "%s", why);
        return -EIO;
    }
    safe_text(msg);
    return rc > 0 ? -EINVAL : rc;
}

static void child_close(void *state)
{
    struct child *c = state;
    if (c->pid > 0) { /* told by the closed socket; killed if it lingers */
        shutdown(c->sock, SHUT_WR);
        struct wire_head h;
        bool ended =
            wire_recv(c->sock, &h, sizeof(h), clock_mono() + CLOSE_WAIT) < 0 &&
            errno == EPIPE;
        char why[256];
        reap(c, !ended, why, sizeof(why));
    }
    child_free(c);
}

int archive_check(const char *target, char *err, size_t errlen)
{
    void *c = child_open(target, err, errlen);
    if (!c)
        return -1;
    child_close(c);
    return 0;
}

const struct backend backend_archive = {
    .name = "archive",
    .open = child_open,
    .fetch = child_fetch,
    .close = child_close,
    .store = child_store,
};
