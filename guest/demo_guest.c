/* See demo_guest.h. */
#include "guest/demo_guest.h"

#include "core/safe_text.h"
#include "core/session.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS      24
#define MEM_FLOOR_MIB 96 /* the guest does not boot with less */

/* SIZE as boot.sh and qemu take it: digits, then M or G (none: M). The
 * size in MiB, or -1. */
static long mem_mib(const char *val)
{
    size_t digits = strspn(val, "0123456789");
    if (digits == 0 || digits > 7 || strlen(val) > digits + 1)
        return -1;
    long n = strtol(val, NULL, 10);
    switch (val[digits]) {
    case '\0':
    case 'M':
        return n;
    case 'G':
        return n * 1024;
    default:
        return -1;
    }
}

/* The boot.sh option for variant tok (=val, or NULL), or NULL when it is
 * not one (err says why). */
static const char *variant_flag(const char *tok, const char *val, char *err,
                                size_t errlen)
{
    if (strcmp(tok, "icount") == 0 && !val)
        return "--icount";
    if (strcmp(tok, "cpus") == 0 && val &&
        (strcmp(val, "1") == 0 || strcmp(val, "2") == 0))
        return "--cpus";
    if (strcmp(tok, "clock") == 0 && val &&
        (strcmp(val, "host") == 0 || strcmp(val, "rtc") == 0))
        return "--clock";
    if (strcmp(tok, "mem") == 0 && val) {
        long mib = mem_mib(val);
        if (mib >= MEM_FLOOR_MIB)
            return "--mem";
        if (mib >= 0) {
            snprintf(err, errlen,
                     "demo guest variant 'mem=%s' is below the guest's "
                     "floor; use mem=%dM or more",
                     val, MEM_FLOOR_MIB);
            return NULL;
        }
    }
    snprintf(err, errlen,
             "demo guest variant '%s%s%s' is not one of icount, "
             "cpus=1|2, mem=SIZE (e.g. 256M), clock=host|rtc",
             tok, val ? "=" : "", val ? val : "");
    return NULL;
}

/* Appends str to argv (n entries so far), copied into buf. */
static int push_arg(char **argv, int *n, int max, char *buf, size_t *used,
                    size_t buflen, const char *str)
{
    size_t len = strlen(str) + 1;
    if (*n + 1 >= max || *used + len > buflen)
        return -1;
    memcpy(buf + *used, str, len);
    argv[(*n)++] = buf + *used;
    *used += len;
    return 0;
}

int demo_guest_args(const char *variants, char **argv, int max, char *buf,
                    size_t buflen, char *err, size_t errlen)
{
    int n = 0;
    size_t used = 0;
    bool icount = false, two_cpus = false;
    char list[256];
    if (max < 1) {
        snprintf(err, errlen, "too many demo guest variants");
        return -1;
    }
    argv[0] = NULL;
    snprintf(list, sizeof(list), "%s", variants ? variants : "");
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        const char *val = eq ? eq + 1 : NULL;
        if (eq)
            *eq = '\0';
        const char *flag = variant_flag(tok, val, err, errlen);
        if (!flag)
            return -1;
        icount |= strcmp(flag, "--icount") == 0;
        if (strcmp(flag, "--cpus") == 0)
            two_cpus = strcmp(val, "2") == 0;
        if (push_arg(argv, &n, max, buf, &used, buflen, flag) < 0 ||
            (val && push_arg(argv, &n, max, buf, &used, buflen, val) < 0)) {
            snprintf(err, errlen, "too many demo guest variants");
            return -1;
        }
    }
    argv[n] = NULL;
    /* boot.sh refuses it too, but only once the guest boots: with -icount
     * the second vCPU never comes up */
    if (icount && two_cpus) {
        snprintf(err, errlen,
                 "demo guest variant icount runs 1 vCPU only; drop cpus=2");
        return -1;
    }
    return 0;
}

/* guest/boot.sh of the source tree the build directory belongs to. */
static int find_boot_script(const char *build, char *path, size_t n)
{
    char real[PATH_MAX];
    const char *env = getenv("PARALLAX_GUEST_DIR");
    int w;
    if (env && *env)
        w = snprintf(path, n, "%s/boot.sh", env);
    else if (realpath(build, real))
        w = snprintf(path, n, "%s/../guest/boot.sh", real);
    else
        return -1;
    if (w < 0 || (size_t)w >= n)
        return -1;
    return access(path, X_OK);
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

int demo_guest_start(struct demo_guest *g, const char *variants, char *err,
                     size_t errlen)
{
    char script[PATH_MAX], guest_build[PATH_MAX + 8], buf[512];
    char build[PATH_MAX];
    char *argv[MAX_ARGS + 4];
    memset(g, 0, sizeof(*g));
    g->out_fd = g->err_fd = -1;
    ssize_t len = readlink("/proc/self/exe", build, sizeof(build) - 1);
    if (len <= 0) {
        snprintf(err, errlen, "cannot find parallax's own binary");
        return -1;
    }
    build[len] = '\0';
    *strrchr(build, '/') = '\0';
    if (find_boot_script(build, script, sizeof(script)) < 0) {
        /* make install installs neither boot.sh nor the image */
        snprintf(err, errlen,
                 "--demo-guest runs from the source tree only: no "
                 "guest/boot.sh for %s (an installed parallax has none); "
                 "run 'make run' there",
                 build);
        return -1;
    }
    snprintf(guest_build, sizeof(guest_build), "%s/guest", build);
    if (access(guest_build, R_OK) < 0) {
        snprintf(err, errlen, "no guest image in %s; run 'make guest' first",
                 guest_build);
        return -1;
    }
    argv[0] = script;
    argv[1] = "--build";
    argv[2] = guest_build;
    if (demo_guest_args(variants, argv + 3, MAX_ARGS, buf, sizeof(buf), err,
                        errlen) < 0)
        return -1;
    int out[2], errp[2];
    if (pipe2(out, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot create pipes: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0)
        child_exec(script, argv, out[1], errp[1], parent);
    close(out[1]);
    close(errp[1]);
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(errp[0], F_SETFL, O_NONBLOCK);
    g->pid = pid;
    g->out_fd = out[0];
    g->err_fd = errp[0];
    g->state = DEMO_BOOTING;
    snprintf(g->progress, sizeof(g->progress), "demo guest: starting qemu");
    return 0;
}

/* Reads fd into buf; calls line() for each whole line. False at EOF. */
static bool read_lines(struct demo_guest *g, int fd, char *buf, size_t cap,
                       size_t *len, void (*line)(struct demo_guest *, char *))
{
    for (;;) {
        ssize_t r = read(fd, buf + *len, cap - 1 - *len);
        if (r == 0)
            return false;
        if (r < 0)
            return true; /* EAGAIN: nothing more now */
        *len += (size_t)r;
        buf[*len] = '\0';
        char *nl;
        while ((nl = strchr(buf, '\n'))) {
            *nl = '\0';
            line(g, buf);
            size_t rest = *len - (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, rest + 1);
            *len = rest;
        }
        if (*len == cap - 1) /* a line too long: drop it */
            *len = 0;
    }
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

static void on_out(struct demo_guest *g, char *line)
{
    int port, pid;
    char accel[8] = "";
    if (sscanf(line, "PORT=%d PID=%d ACCEL=%7s", &port, &pid, accel) >= 2) {
        g->port = port;
        snprintf(g->accel, sizeof(g->accel), "%s", accel);
        g->state = DEMO_READY;
        set_progress(g, "demo guest up (%s), pmcd on 127.0.0.1:%d",
                     accel[0] ? accel : "?", port);
    }
}

/* boot.sh's progress, the guest's own steps among it ("guest [3.6 s]
 * network up") */
static void on_err(struct demo_guest *g, char *line)
{
    set_progress(g, "demo guest: %s",
                 strncmp(line, "boot: ", 6) == 0 ? line + 6 : line);
}

bool demo_guest_poll(struct demo_guest *g)
{
    if (g->state == DEMO_OFF || g->pid <= 0)
        return false;
    enum demo_state before = g->state;
    char was[sizeof(g->progress)];
    memcpy(was, g->progress, sizeof(was));
    if (g->err_fd >= 0 &&
        !read_lines(g, g->err_fd, g->err, sizeof(g->err), &g->errlen, on_err)) {
        close(g->err_fd);
        g->err_fd = -1;
    }
    if (g->out_fd >= 0 &&
        !read_lines(g, g->out_fd, g->out, sizeof(g->out), &g->outlen, on_out)) {
        close(g->out_fd);
        g->out_fd = -1;
    }
    int status;
    if (waitpid(g->pid, &status, WNOHANG) == g->pid) {
        g->pid = 0;
        if (g->state != DEMO_READY || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            g->state = DEMO_FAILED;
        if (g->state == DEMO_FAILED &&
            strncmp(g->progress, "demo guest: ", 12) == 0 && g->port)
            set_progress(g, "demo guest: qemu ended");
    }
    return g->state != before || strcmp(was, g->progress) != 0;
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

int demo_guest_join(struct demo_guest *g, struct session *s,
                    const char *variants, FILE *progress,
                    const volatile sig_atomic_t *stop)
{
    char err[256];
    if (demo_guest_start(g, variants, err, sizeof(err)) < 0) {
        fprintf(progress, "parallax: %s\n", err);
        return -1;
    }
    g->echo = progress; /* every step from here on */
    fprintf(progress, "parallax: %s\n", g->progress);
    while (g->state == DEMO_BOOTING && !(stop && *stop)) {
        struct pollfd pfd[2] = {{.fd = g->out_fd, .events = POLLIN},
                                {.fd = g->err_fd, .events = POLLIN}};
        poll(pfd, 2, 200);
        demo_guest_poll(g);
    }
    if (g->state != DEMO_READY)
        return -1;
    struct source_spec spec;
    snprintf(spec.name, sizeof(spec.name), "demo-%s", g->accel);
    snprintf(spec.target, sizeof(spec.target), "127.0.0.1:%d", g->port);
    if (session_add(s, &spec, err, sizeof(err)) < 0) {
        fprintf(progress, "parallax: %s\n", err);
        return -1;
    }
    return 0;
}
