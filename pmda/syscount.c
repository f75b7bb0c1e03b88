/* Privilege separation for the counter: the helper, forked while the agent
 * is still root, does one thing on request -- perf_syscalls_open -- and
 * passes the per-CPU descriptors back over a socket (SCM_RIGHTS). The agent
 * reads and closes them itself. */
#include "pmda/syscount.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collectors/perf_syscalls.h"
#include "workloads/proc.h"

#define HELPER_FD         3
#define HELPER_TIMEOUT_MS 3000
#define HELPER_MAX_FDS    65536

struct helper_reply {
    int32_t rc; /* 0 or a negative errno */
    int32_t nfd;
    char err[248];
};

struct syscount {
    enum syscount_mode mode;
    double idle_s;
    pid_t helper;
    int sock;
    struct perf_syscalls ps; /* open when ps.nfd > 0 */
    double last_read;        /* monotonic seconds */
    int fail_rc;             /* the last open failure, or 0 */
    double fail_at;
    char fail[248];
    char status[320];
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int send_fd(int sock, int fd)
{
    char byte = 'f';
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int))];
    } u = {0};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = u.buf,
                         .msg_controllen = sizeof u.buf};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    return sendmsg(sock, &msg, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* The helper's life: answer each request byte with one open attempt. */
static _Noreturn void helper_main(pid_t parent, int sock)
{
    proc_die_with_parent(parent);
    proc_reset_signals();
    proc_stdio_null();
    dup2(sock, HELPER_FD);
    close_range(HELPER_FD + 1, ~0U, 0);
    for (;;) {
        char c;
        ssize_t n = recv(HELPER_FD, &c, 1, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            _exit(0);
        struct perf_syscalls ps;
        struct helper_reply rep = {0};
        rep.rc = perf_syscalls_open(&ps, rep.err, sizeof rep.err);
        rep.nfd = rep.rc == 0 ? ps.nfd : 0;
        if (send(HELPER_FD, &rep, sizeof rep, MSG_NOSIGNAL) != sizeof rep)
            _exit(1);
        for (int i = 0; i < rep.nfd; i++)
            if (send_fd(HELPER_FD, ps.fd[i]) < 0)
                _exit(1);
        perf_syscalls_close(&ps);
    }
}

struct syscount *syscount_new(enum syscount_mode mode, double idle_s)
{
    struct syscount *sc = calloc(1, sizeof *sc);
    if (!sc)
        return NULL;
    sc->mode = mode;
    sc->idle_s = idle_s;
    sc->sock = -1;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
        sc->fail_rc = -errno;
        snprintf(sc->fail, sizeof sc->fail, "socketpair: %s", strerror(errno));
        return sc;
    }
    pid_t parent = getpid();
    sc->helper = fork();
    if (sc->helper == 0)
        helper_main(parent, sv[1]);
    close(sv[1]);
    if (sc->helper < 0) {
        sc->fail_rc = -errno;
        snprintf(sc->fail, sizeof sc->fail, "fork: %s", strerror(errno));
        close(sv[0]);
        return sc;
    }
    sc->sock = sv[0];
    return sc;
}

/* recv of one message, waiting at most HELPER_TIMEOUT_MS. */
static ssize_t recv_wait(int sock, struct msghdr *msg)
{
    struct pollfd p = {.fd = sock, .events = POLLIN};
    int rc;
    while ((rc = poll(&p, 1, HELPER_TIMEOUT_MS)) < 0 && errno == EINTR)
        ;
    if (rc <= 0)
        return -1;
    return recvmsg(sock, msg, MSG_CMSG_CLOEXEC);
}

static int recv_fd(int sock)
{
    char byte;
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int))];
    } u;
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = u.buf,
                         .msg_controllen = sizeof u.buf};
    if (recv_wait(sock, &msg) != 1)
        return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (!c || c->cmsg_type != SCM_RIGHTS ||
        c->cmsg_len != CMSG_LEN(sizeof(int)))
        return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

/* Drops the helper after a broken exchange: its state is unknown. */
static int helper_lost(struct syscount *sc)
{
    close(sc->sock);
    sc->sock = -1;
    kill(sc->helper, SIGKILL);
    waitpid(sc->helper, NULL, 0);
    snprintf(sc->fail, sizeof sc->fail,
             "the counter's helper process stopped answering; restart the "
             "agent");
    return -EPIPE;
}

/* Asks the helper for the counters. 0, or a negative errno (sc->fail). */
static int ask_helper(struct syscount *sc)
{
    if (sc->sock < 0)
        return sc->fail_rc ? sc->fail_rc : -EPIPE;
    if (send(sc->sock, "o", 1, MSG_NOSIGNAL) != 1)
        return helper_lost(sc);
    struct helper_reply rep;
    struct iovec iov = {.iov_base = &rep, .iov_len = sizeof rep};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (recv_wait(sc->sock, &msg) != (ssize_t)sizeof rep || rep.rc > 0 ||
        rep.nfd < 0 || rep.nfd > HELPER_MAX_FDS)
        return helper_lost(sc);
    rep.err[sizeof rep.err - 1] = '\0';
    if (rep.rc < 0) {
        snprintf(sc->fail, sizeof sc->fail, "%s", rep.err);
        return rep.rc;
    }
    sc->ps.fd = calloc((size_t)rep.nfd, sizeof *sc->ps.fd);
    for (int i = 0; i < rep.nfd; i++) {
        int fd = recv_fd(sc->sock);
        if (fd < 0 || !sc->ps.fd) {
            if (fd >= 0)
                close(fd);
            perf_syscalls_close(&sc->ps);
            return helper_lost(sc);
        }
        sc->ps.fd[sc->ps.nfd++] = fd;
    }
    return 0;
}

static bool paused(const struct syscount *sc, bool runs_live)
{
    return sc->mode == SYSCOUNT_AUTO && runs_live;
}

int syscount_read(struct syscount *sc, bool runs_live, uint64_t *total)
{
    sc->last_read = now();
    if (paused(sc, runs_live)) {
        perf_syscalls_close(&sc->ps);
        return -EAGAIN;
    }
    if (sc->ps.nfd == 0) {
        if (sc->fail_rc && sc->last_read - sc->fail_at < SYSCOUNT_RETRY_S)
            return sc->fail_rc;
        int rc = ask_helper(sc);
        if (rc < 0) {
            sc->fail_rc = rc;
            sc->fail_at = sc->last_read;
            return rc;
        }
        sc->fail_rc = 0;
    }
    int rc = perf_syscalls_read(&sc->ps, total);
    if (rc < 0)
        perf_syscalls_close(&sc->ps);
    return rc;
}

int syscount_tick(struct syscount *sc, bool runs_live)
{
    if (sc->ps.nfd == 0)
        return -1;
    double left = sc->last_read + sc->idle_s - now();
    if (paused(sc, runs_live) || left <= 0) {
        perf_syscalls_close(&sc->ps);
        return -1;
    }
    return (int)(left * 1000) + 1;
}

const char *syscount_status(struct syscount *sc, bool runs_live)
{
    if (paused(sc, runs_live))
        snprintf(sc->status, sizeof sc->status,
                 "paused while workloads run, so they are not slowed "
                 "(pmdaparallax -S always counts anyway)");
    else if (sc->ps.nfd > 0)
        snprintf(sc->status, sizeof sc->status,
                 "counting on %d CPUs; closes after %.0f s unread", sc->ps.nfd,
                 sc->idle_s);
    else if (sc->fail_rc)
        snprintf(sc->status, sizeof sc->status, "unavailable: %s", sc->fail);
    else
        snprintf(sc->status, sizeof sc->status,
                 "closed; opens on the next read");
    return sc->status;
}

void syscount_free(struct syscount *sc)
{
    if (!sc)
        return;
    perf_syscalls_close(&sc->ps);
    if (sc->sock >= 0) {
        close(sc->sock); /* the helper sees EOF and exits */
        waitpid(sc->helper, NULL, 0);
    }
    free(sc);
}
