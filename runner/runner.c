/* The parent side of a run: fork the child with its shared memory and
 * private directory, reap it without blocking, escalate stops, and turn
 * the way it ended into a state and a one-line reason. */
#include "runner/runner.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/safe_text.h"
#include "runner/runner_child.h"
#include "runner/tmpdir.h"
#include "workloads/needs.h"
#include "workloads/params.h"

struct wl_run {
    const struct workload *w;
    double param[WL_MAX_PARAMS];
    struct wl_run_opts opt;
    struct wl_shared *shared;
    size_t shared_len;
    struct tmpdir dir;
    pid_t pid;
    int pidfd;  /* -1 when the kernel has no pidfd_open */
    int err_fd; /* the child's stderr (a memfd), read for failure reasons */
    enum wl_run_state state;
    double stop_at;   /* monotonic time of wl_run_stop, 0 before */
    int signals_sent; /* 0, 1 after SIGTERM, 2 after SIGKILL */
    char error[640];
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void wl_run_opts_default(struct wl_run_opts *opt)
{
    *opt = (struct wl_run_opts){
        .duration = 1.0, .count = 0, .warmup = 0.1, .repeats = 1, .cpu = -1};
}

static int check_opts(const struct workload *w, const struct wl_run_opts *o,
                      char *err, size_t errlen)
{
    if (!w->step == !w->run) {
        snprintf(err, errlen, "%s: a workload needs step or run (not both)",
                 w->name);
        return -1;
    }
    if (o->repeats < 1 || o->repeats > WL_RUN_MAX_REPEATS) {
        snprintf(err, errlen, "repeats must be 1..%d", WL_RUN_MAX_REPEATS);
        return -1;
    }
    if (o->count == 0 && !(o->duration > 0 && o->duration < 1e6)) {
        snprintf(err, errlen, "duration must be above 0 s (or give a count)");
        return -1;
    }
    if (!(o->warmup >= 0 && o->warmup < 1e6)) {
        snprintf(err, errlen, "warm-up must be 0 s or more");
        return -1;
    }
    cpu_set_t allowed;
    if (o->cpu >= 0 && (o->cpu >= CPU_SETSIZE ||
                        sched_getaffinity(0, sizeof allowed, &allowed) < 0 ||
                        !CPU_ISSET(o->cpu, &allowed))) {
        snprintf(err, errlen, "cpu %d is not available (%ld online)", o->cpu,
                 sysconf(_SC_NPROCESSORS_ONLN));
        return -1;
    }
    return 0;
}

/* Shared memory, directory, stderr capture: everything but the fork. */
static int prepare(struct wl_run *r, char *err, size_t errlen)
{
    r->shared_len = sizeof *r->shared +
                    (size_t)r->opt.repeats * sizeof r->shared->result[0];
    r->shared = mmap(NULL, r->shared_len, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r->shared == MAP_FAILED) {
        r->shared = NULL;
        snprintf(err, errlen, "cannot map shared memory: %s", strerror(errno));
        return -1;
    }
    atomic_store(&r->shared->repeat_t0, NAN); /* no repeat measured yet */
    if (tmpdir_create(&r->dir, err, errlen) < 0 ||
        wl_needs_check(r->w, r->param, r->dir.path, err, errlen) < 0)
        return -1;
    r->err_fd = memfd_create("parallax-wl-stderr", MFD_CLOEXEC);
    return 0;
}

static void release(struct wl_run *r)
{
    tmpdir_remove(&r->dir);
    if (r->pidfd >= 0)
        close(r->pidfd);
    if (r->err_fd >= 0)
        close(r->err_fd);
    r->pidfd = r->err_fd = -1;
}

struct wl_run *wl_run_start(const struct workload *w, const double *param,
                            const struct wl_run_opts *opt, char *err,
                            size_t errlen)
{
    struct wl_run_opts dflt;
    wl_run_opts_default(&dflt);
    if (!opt)
        opt = &dflt;
    struct wl_run *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    *r = (struct wl_run){.w = w, .opt = *opt, .pidfd = -1, .err_fd = -1};
    r->dir.lock_fd = -1;
    if (param)
        memcpy(r->param, param, sizeof r->param);
    else
        params_defaults(w, r->param);
    if (check_opts(w, opt, err, errlen) < 0 ||
        params_check(w, r->param, err, errlen) < 0 ||
        prepare(r, err, errlen) < 0)
        goto fail;

    struct wl_child_args a = {.w = w,
                              .param = r->param,
                              .opt = &r->opt,
                              .dir = r->dir.path,
                              .shared = r->shared,
                              .parent = getpid(),
                              .err_fd = r->err_fd};
    r->pid = fork();
    if (r->pid < 0) {
        snprintf(err, errlen, "cannot fork: %s", strerror(errno));
        goto fail;
    }
    if (r->pid == 0)
        runner_child(&a);
    setpgid(r->pid, r->pid); /* also in the child: whoever runs first */
#ifdef SYS_pidfd_open
    r->pidfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
#endif
    r->state = WL_RUN_RUNNING;
    return r;
fail:
    release(r);
    if (r->shared)
        munmap(r->shared, r->shared_len);
    free(r);
    return NULL;
}

/* The last line the child wrote on stderr, if any, made safe for a
 * terminal. */
static void stderr_tail(const struct wl_run *r, char *buf, size_t len)
{
    buf[0] = '\0';
    off_t size = r->err_fd >= 0 ? lseek(r->err_fd, 0, SEEK_END) : -1;
    if (size <= 0)
        return;
    char text[512];
    off_t from =
        size > (off_t)sizeof text - 1 ? size - (off_t)sizeof text + 1 : 0;
    ssize_t n = pread(r->err_fd, text, sizeof text - 1, from);
    if (n <= 0)
        return;
    text[n] = '\0';
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = '\0';
    char *line = strrchr(text, '\n');
    const char *src = line ? line + 1 : text;
    safe_text_copy(buf, len, src, 0); /* it reaches reports and screens */
}

/* Turns the child's wait status into the final state and reason. */
static void finish(struct wl_run *r, int status)
{
    int n = atomic_load(&r->shared->nresults);
    bool stopping = r->stop_at > 0;
    char tail[256];
    stderr_tail(r, tail, sizeof tail);
    const char *sep = tail[0] ? ": " : "";
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        if (n == r->opt.repeats)
            r->state = WL_RUN_DONE;
        else if (stopping)
            r->state = WL_RUN_STOPPED;
        else {
            r->state = WL_RUN_FAILED;
            snprintf(r->error, sizeof r->error,
                     "%s: ended after %d of %d "
                     "repeats",
                     r->w->name, n, r->opt.repeats);
        }
    } else if (WIFEXITED(status)) {
        r->state = WL_RUN_FAILED;
        if (r->shared->error[0])
            snprintf(r->error, sizeof r->error, "%.255s%s%s", r->shared->error,
                     sep, tail);
        else
            snprintf(r->error, sizeof r->error, "%s: exited with status %d%s%s",
                     r->w->name, WEXITSTATUS(status), sep, tail);
    } else if (stopping) {
        r->state = WL_RUN_STOPPED; /* our own SIGTERM or SIGKILL */
    } else {
        int sig = WTERMSIG(status);
        r->state = WL_RUN_FAILED;
        snprintf(r->error, sizeof r->error, "%s: crashed: SIG%s (%s)%s%s",
                 r->w->name, sigabbrev_np(sig) ? sigabbrev_np(sig) : "?",
                 strsignal(sig), sep, tail);
    }
    release(r);
}

/* Sends the next signal of a stop once its grace time has passed. */
static void escalate(struct wl_run *r)
{
    double late = now() - r->stop_at;
    if (r->signals_sent == 0 && late >= WL_RUN_STOP_GRACE_MS * 1e-3) {
        kill(-r->pid, SIGTERM);
        r->signals_sent = 1;
    } else if (r->signals_sent == 1 &&
               late >= 2 * WL_RUN_STOP_GRACE_MS * 1e-3) {
        kill(-r->pid, SIGKILL);
        r->signals_sent = 2;
    }
}

enum wl_run_state wl_run_poll(struct wl_run *r)
{
    if (wl_run_state_final(r->state))
        return r->state;
    siginfo_t si = {0};
    /* WNOWAIT: the zombie keeps its pid, so the group id cannot be reused
     * while we clear out any helper left in the group. */
    if (waitid(P_PID, r->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
        r->state = WL_RUN_FAILED;
        snprintf(r->error, sizeof r->error, "%s: child lost: %s", r->w->name,
                 strerror(errno));
        release(r);
        return r->state;
    }
    if (si.si_pid == r->pid) {
        kill(-r->pid, SIGKILL);
        int status;
        while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
            ;
        finish(r, status);
    } else if (r->stop_at > 0) {
        escalate(r);
    }
    return r->state;
}

void wl_run_stop(struct wl_run *r)
{
    if (wl_run_state_final(r->state) || r->stop_at > 0)
        return;
    atomic_store(&r->shared->progress.stop, 1);
    r->stop_at = now();
    r->state = WL_RUN_STOPPING;
}

/* How long wl_run_wait may sleep: until the next escalation step, and
 * never long, so a cancel flag set without a signal is still seen. */
static int wait_ms(const struct wl_run *r)
{
    if (r->stop_at <= 0 || r->signals_sent >= 2)
        return 200;
    double next =
        r->stop_at + (r->signals_sent + 1) * WL_RUN_STOP_GRACE_MS * 1e-3;
    int ms = (int)ceil((next - now()) * 1e3);
    return ms < 1 ? 1 : ms > 200 ? 200 : ms;
}

enum wl_run_state wl_run_wait(struct wl_run *r,
                              const volatile sig_atomic_t *cancel)
{
    while (!wl_run_state_final(wl_run_poll(r))) {
        if (cancel && *cancel)
            wl_run_stop(r);
        int ms = wait_ms(r);
        if (r->pidfd >= 0) {
            struct pollfd p = {.fd = r->pidfd, .events = POLLIN};
            poll(&p, 1, ms); /* a signal ends it early: fine */
        } else {
            struct timespec ts = {0, (ms < 10 ? ms : 10) * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    return r->state;
}

int wl_run_fd(const struct wl_run *r)
{
    return r->pidfd;
}

void wl_run_status(const struct wl_run *r, struct wl_run_status *st)
{
    struct wl_progress *p = &r->shared->progress;
    st->state = r->state;
    st->phase = atomic_load(&p->phase);
    st->repeat = atomic_load(&r->shared->repeat);
    st->nresults = atomic_load(&r->shared->nresults);
    st->ops = atomic_load_explicit(&p->ops, memory_order_acquire);
    st->wall = atomic_load(&p->wall);
    st->user = atomic_load(&p->user);
    st->sys = atomic_load(&p->sys);
    st->lanes.n = atomic_load(&p->nlanes);
    for (int k = 0; k < st->lanes.n && k < WL_MAX_LANES; k++)
        st->lanes.done[k] = atomic_load(&p->lane[k]);
    st->t_start = atomic_load(&r->shared->repeat_t0);
    /* the figure callback may read parameters only: state is the child's */
    struct wl_ctx ctx = {.param = r->param, .dir = r->dir.path};
    st->figure = runner_figure(r->w, &ctx, st->ops, st->wall);
}

int wl_run_nresults(const struct wl_run *r)
{
    return atomic_load_explicit(&r->shared->nresults, memory_order_acquire);
}

const struct wl_result *wl_run_result(const struct wl_run *r, int i)
{
    return i >= 0 && i < wl_run_nresults(r) ? &r->shared->result[i] : NULL;
}

const char *wl_run_error(const struct wl_run *r)
{
    return r->error;
}

const struct workload *wl_run_workload(const struct wl_run *r)
{
    return r->w;
}

const double *wl_run_params(const struct wl_run *r)
{
    return r->param;
}

const struct wl_run_opts *wl_run_options(const struct wl_run *r)
{
    return &r->opt;
}

pid_t wl_run_pid(const struct wl_run *r)
{
    return r->pid;
}

bool wl_run_state_final(enum wl_run_state s)
{
    return s == WL_RUN_DONE || s == WL_RUN_STOPPED || s == WL_RUN_FAILED;
}

const char *wl_run_state_name(enum wl_run_state s)
{
    static const char *const names[] = {
        [WL_RUN_RUNNING] = "running", [WL_RUN_STOPPING] = "stopping",
        [WL_RUN_DONE] = "done",       [WL_RUN_STOPPED] = "stopped",
        [WL_RUN_FAILED] = "failed",
    };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

void wl_run_free(struct wl_run *r)
{
    if (!r)
        return;
    if (!wl_run_state_final(r->state)) {
        wl_run_stop(r);
        wl_run_wait(r, NULL);
    }
    release(r);
    munmap(r->shared, r->shared_len);
    free(r);
}
