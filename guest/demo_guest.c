/* See demo_guest.h. */
#include "guest/demo_guest.h"

#include "base/safe_text.h"
#include "session/session.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 24

#ifndef PARALLAX_GUESTDIR
#error "the Makefile defines PARALLAX_GUESTDIR, where make install puts guest/"
#endif

/* guest/boot.sh: PARALLAX_GUEST_DIR's, else the one of the source tree the
 * build directory belongs to, else the installed one (PARALLAX_GUESTDIR;
 * *installed then says so). */
static int find_boot_script(const char *build, char *path, size_t n,
                            bool *installed)
{
    char real[PATH_MAX];
    const char *env = getenv("PARALLAX_GUEST_DIR");
    int w;
    *installed = false;
    if (env && *env)
        w = snprintf(path, n, "%s/boot.sh", env);
    else if (realpath(build, real))
        w = snprintf(path, n, "%s/../guest/boot.sh", real);
    else
        return -1;
    if (w < 0 || (size_t)w >= n)
        return -1;
    if (access(path, X_OK) == 0 || (env && *env))
        return access(path, X_OK);
    *installed = true;
    w = snprintf(path, n, "%s/boot.sh", PARALLAX_GUESTDIR);
    return w < 0 || (size_t)w >= n ? -1 : access(path, X_OK);
}

/* Where an installed parallax keeps the image it boots:
 * PARALLAX_GUEST_IMAGE, else $XDG_CACHE_HOME/parallax/guest, else
 * ~/.cache/parallax/guest. */
static int installed_image_dir(char *dir, size_t n)
{
    const char *img = getenv("PARALLAX_GUEST_IMAGE");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w;
    if (img && *img)
        w = snprintf(dir, n, "%s", img);
    else if (xdg && *xdg)
        w = snprintf(dir, n, "%s/parallax/guest", xdg);
    else if (home && *home)
        w = snprintf(dir, n, "%s/.cache/parallax/guest", home);
    else
        return -1;
    return w < 0 || (size_t)w >= n ? -1 : 0;
}

/* In the child: boot.sh with out and errfd as its stdout and stderr, and
 * nothing else of ours open. parent: our pid from before the fork. */
static void child_exec(const char *script, char **argv, int out, int errfd,
                       pid_t parent)
{
    /* boot.sh hears of our death and stops qemu; a parent that died before
     * the prctl would never send it, so the child then goes too */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(127);
    dup2(out, STDOUT_FILENO);
    dup2(errfd, STDERR_FILENO);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0)
        dup2(null, STDIN_FILENO);
    /* pmcd sockets, the self-pipe, logs: not for boot.sh and qemu */
    close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    for (int sig = 1; sig < NSIG; sig++)
        signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execv(script, argv);
    dprintf(STDERR_FILENO, "boot: cannot run %s: %s\n", script,
            strerror(errno));
    _exit(127);
}

/* argv (room for MAX_ARGS + 4) for guest/boot.sh with the options of
 * variants, for the image in the guest/ directory of parallax's own build
 * directory (where this program's binary lives); strings in st. 0, or -1
 * with a one-line message in err. */
struct boot_cmd {
    char *argv[MAX_ARGS + 4];
    char script[PATH_MAX], guest_build[PATH_MAX + 8], buf[512];
};

static int boot_command(const char *variants, struct boot_cmd *c, char *err,
                        size_t errlen)
{
    char build[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", build, sizeof(build) - 1);
    if (len <= 0) {
        snprintf(err, errlen, "cannot find parallax's own binary");
        return -1;
    }
    build[len] = '\0';
    *strrchr(build, '/') = '\0';
    bool installed;
    if (find_boot_script(build, c->script, sizeof(c->script), &installed) < 0) {
        snprintf(err, errlen,
                 "--demo-guest needs guest/boot.sh: none in the source tree "
                 "of %s nor in %s; run 'make run' in the tree (or install "
                 "the parallax package)",
                 build, PARALLAX_GUESTDIR);
        return -1;
    }
    if (!installed)
        snprintf(c->guest_build, sizeof(c->guest_build), "%s/guest", build);
    else if (installed_image_dir(c->guest_build, sizeof(c->guest_build)) < 0) {
        snprintf(err, errlen,
                 "no place for the guest image: set PARALLAX_GUEST_IMAGE "
                 "(or HOME)");
        return -1;
    }
    if (access(c->guest_build, R_OK) < 0) {
        if (installed)
            snprintf(err, errlen,
                     "no guest image in %s; build it: %s/build-image.sh %s "
                     "(with pcp-pmda-parallax installed)",
                     c->guest_build, PARALLAX_GUESTDIR, c->guest_build);
        else
            snprintf(err, errlen,
                     "no guest image in %s; run 'make guest' first",
                     c->guest_build);
        return -1;
    }
    c->argv[0] = c->script;
    c->argv[1] = "--build";
    c->argv[2] = c->guest_build;
    return demo_guest_args(variants, c->argv + 3, MAX_ARGS, c->buf,
                           sizeof(c->buf), err, errlen);
}

/* Starts c's boot.sh with pipes for its stdout and stderr (non-blocking
 * read ends in *out and *errfd). Its pid, or -1 with err set. */
static pid_t spawn(struct boot_cmd *c, int *out, int *errfd, char *err,
                   size_t errlen)
{
    int o[2], e[2];
    if (pipe2(o, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot create pipes: %s", strerror(errno));
        return -1;
    }
    if (pipe2(e, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot create pipes: %s", strerror(errno));
        close(o[0]);
        close(o[1]);
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        child_exec(c->script, c->argv, o[1], e[1], parent);
    close(o[1]);
    close(e[1]);
    if (pid < 0) {
        snprintf(err, errlen, "cannot fork: %s", strerror(errno));
        close(o[0]);
        close(e[0]);
        return -1;
    }
    fcntl(o[0], F_SETFL, O_NONBLOCK);
    fcntl(e[0], F_SETFL, O_NONBLOCK);
    *out = o[0];
    *errfd = e[0];
    return pid;
}

int demo_guest_start(struct demo_guest *g, const char *variants, char *err,
                     size_t errlen)
{
    static struct boot_cmd c; /* the main thread's, and large */
    memset(g, 0, sizeof(*g));
    g->out_fd = g->err_fd = -1;
    snprintf(g->variants, sizeof(g->variants), "%s", variants ? variants : "");
    demo_guest_name(g->variants, NULL, g->name, sizeof(g->name));
    if (boot_command(variants, &c, err, errlen) < 0)
        return -1;
    g->pid = spawn(&c, &g->out_fd, &g->err_fd, err, errlen);
    if (g->pid < 0)
        return -1;
    g->state = DEMO_BOOTING;
    snprintf(g->progress, sizeof(g->progress), "%s: starting guest/boot.sh",
             g->name[0] ? g->name : "demo guest");
    return 0;
}

/* Reads fd into buf; calls line(ctx, LINE) for each whole line. False at
 * EOF (or a read error), true when nothing more is there now. */
static bool read_lines(int fd, char *buf, size_t cap, size_t *len,
                       void (*line)(void *, char *), void *ctx)
{
    for (;;) {
        ssize_t r = read(fd, buf + *len, cap - 1 - *len);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
            return false;
        if (r < 0)
            return true; /* nothing more now */
        *len += (size_t)r;
        buf[*len] = '\0';
        char *nl;
        while ((nl = strchr(buf, '\n'))) {
            *nl = '\0';
            line(ctx, buf);
            size_t rest = *len - (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, rest + 1);
            *len = rest;
        }
        if (*len == cap - 1) /* a line too long: drop it */
            *len = 0;
    }
}

/* What boot.sh --prepare said last (without "boot: "). */
struct prepare_talk {
    char last[512];
    int fd;   /* where its steps show while it runs, or -1 */
    bool tty; /* fd is a terminal: steps show there, each over the last */
};

static void on_prepare_line(void *ctx, char *line)
{
    struct prepare_talk *t = ctx;
    snprintf(t->last, sizeof(t->last), "%s",
             strncmp(line, "boot: ", 6) ? line : line + 6);
    if (t->tty)
        dprintf(t->fd, "\rparallax: %s\033[K", t->last);
}

/* boot.sh --prepare's stderr until it ends; the last line stays in t. On
 * a terminal each step (a download can take a minute) shows over the one
 * before and goes at the end, so that a failure is the one line that says
 * why, there as in a log. */
static void follow_prepare(int errfd, struct prepare_talk *t)
{
    char buf[1024];
    size_t len = 0;
    for (;;) {
        struct pollfd pfd = {.fd = errfd, .events = POLLIN};
        if (poll(&pfd, 1, -1) > 0 &&
            !read_lines(errfd, buf, sizeof(buf), &len, on_prepare_line, t))
            break;
    }
    if (t->tty)
        dprintf(t->fd, "\r\033[K");
}

int demo_guest_prepare(const char *variants, int fd, char *err, size_t errlen)
{
    static struct boot_cmd c;
    const char *kernel = demo_guest_kernel(variants);
    if (!kernel)
        return 0; /* the image's own kernel, or UML: nothing to fetch */
    if (boot_command(variants, &c, err, errlen) < 0)
        return -1;
    int k = 0;
    while (c.argv[k])
        k++;
    c.argv[k] = "--prepare";
    c.argv[k + 1] = NULL;
    int out, errfd, status = -1;
    pid_t pid = spawn(&c, &out, &errfd, err, errlen);
    if (pid < 0)
        return -1;
    struct prepare_talk talk = {.last = "", .fd = fd, .tty = isatty(fd) == 1};
    follow_prepare(errfd, &talk);
    close(out);
    close(errfd);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* boot.sh's last line names the kernel: "kernel 6.12-rt: cannot ..." */
    snprintf(err, errlen, "demo guest: %s",
             talk.last[0] ? talk.last : "guest/boot.sh --prepare failed");
    return -1;
}

/* Sets the progress line; also tells it on g->echo, when set, so that a
 * caller without a status line sees every step, not only the newest. The
 * guest's console is in it: made safe for a terminal. */
__attribute__((format(printf, 2, 3))) static void
set_progress(struct demo_guest *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->progress, sizeof(g->progress), fmt, ap);
    va_end(ap);
    safe_text(g->progress);
    if (g->echo) {
        fprintf(g->echo, "parallax: %s\n", g->progress);
        fflush(g->echo);
    }
}

/* The guest's accelerator is known: so is its name (see demo_guest_name). */
static void set_accel(struct demo_guest *g, const char *accel)
{
    snprintf(g->accel, sizeof(g->accel), "%s", accel);
    demo_guest_name(g->variants, g->accel, g->name, sizeof(g->name));
}

static void on_out(void *ctx, char *line)
{
    struct demo_guest *g = ctx;
    int port, pid;
    char accel[8] = "";
    if (sscanf(line, "PORT=%d PID=%d ACCEL=%7s", &port, &pid, accel) >= 2) {
        g->port = port;
        g->vm_pid = pid;
        set_accel(g, accel[0] ? accel : "?");
        g->state = DEMO_READY;
        set_progress(g, "%s up (%s), pmcd on 127.0.0.1:%d", g->name, g->accel,
                     port);
    }
}

/* boot.sh's progress, the guest's own steps among it ("guest [3.6 s]
 * network up"), after the guest's name ("demo guest" until its
 * accelerator says which it is, for the default guest) */
static void on_err(void *ctx, char *line)
{
    struct demo_guest *g = ctx;
    char accel[8];
    const char *text = strncmp(line, "boot: ", 6) == 0 ? line + 6 : line;
    if (sscanf(text, "accelerator: %7[a-z]", accel) == 1)
        set_accel(g, accel);
    set_progress(g, "%s: %s", g->name[0] ? g->name : "demo guest", text);
}

bool demo_guest_poll(struct demo_guest *g)
{
    if (g->state == DEMO_OFF || g->pid <= 0)
        return false;
    enum demo_state before = g->state;
    char was[sizeof(g->progress)];
    memcpy(was, g->progress, sizeof(was));
    if (g->err_fd >= 0 &&
        !read_lines(g->err_fd, g->err, sizeof(g->err), &g->errlen, on_err, g)) {
        close(g->err_fd);
        g->err_fd = -1;
    }
    if (g->out_fd >= 0 &&
        !read_lines(g->out_fd, g->out, sizeof(g->out), &g->outlen, on_out, g)) {
        close(g->out_fd);
        g->out_fd = -1;
    }
    int status;
    if (waitpid(g->pid, &status, WNOHANG) == g->pid) {
        g->pid = 0;
        if (g->state != DEMO_READY || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            g->state = DEMO_FAILED;
        if (g->state == DEMO_FAILED && g->port)
            set_progress(g, "%s: %s ended", g->name,
                         strcmp(g->accel, "uml") ? "qemu" : "linux.uml");
    }
    return g->state != before || strcmp(was, g->progress) != 0;
}

void demo_guest_signal_stop(struct demo_guest *g)
{
    if (g->state != DEMO_OFF && g->pid > 0)
        kill(g->pid, SIGTERM);
}

void demo_guest_stop(struct demo_guest *g)
{
    if (g->state == DEMO_OFF)
        return;
    if (g->pid > 0) {
        kill(g->pid, SIGTERM);
        /* boot.sh stops qemu: SIGTERM, then SIGKILL after 5 s */
        for (int i = 0; i < 80 && waitpid(g->pid, NULL, WNOHANG) == 0; i++) {
            struct timespec ts = {0, 100 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        if (waitpid(g->pid, NULL, WNOHANG) == 0) {
            kill(g->pid, SIGKILL);
            waitpid(g->pid, NULL, 0);
        }
        g->pid = 0;
    }
    if (g->out_fd >= 0)
        close(g->out_fd);
    if (g->err_fd >= 0)
        close(g->err_fd);
    g->out_fd = g->err_fd = -1;
    g->state = DEMO_OFF;
}
