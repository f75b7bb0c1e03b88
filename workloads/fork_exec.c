/* Process creation, lmbench lat_proc fork / exec / shell: one operation is
 * fork, the child's work, and waitpid; the figure is microseconds each.
 *   fork-exit  the child exits at once
 *   fork-exec  the child execve()s parallax-hello-dyn, empty environment
 *   fork-sh    the child runs /bin/sh -c parallax-hello-dyn
 * The forking is done by parallax-hello-dyn --fork-server, started at
 * setup: lmbench forks from lat_proc, a small dynamically linked program,
 * and a fork costs more the more the parent has mapped (the runner, with
 * libpcp, libcrypto and the rest, made fork-exit 30-50% slower than a
 * small program's). Each step hands the server a count and waits for its
 * reply, which carries the server's CPU time for the run's figures. The
 * helper is linked dynamically because lmbench's is: its script copies
 * the dynamic `hello` to /tmp/hello for lat_proc. The children close
 * stdout first, as lat_proc's do. Only parallax-hello-dyn, found by
 * wl_hello_dyn_path, is ever run. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/exec_helper.h"
#include "workloads/helper/fork_server.h"
#include "workloads/lat_peer.h"
#include "workloads/proc.h"

struct proc_lat {
    struct lat_place pl;
    char hello[PATH_MAX];
    pid_t server;
    int cmd, reply; /* our ends of the server's stdin and stdout */
};

static const char *const proc_names[] = {"fork-exit", "fork-exec", "fork-sh"};
static const char *const server_kinds[] = {"exit", "exec", "sh"};

/* True when sh -c takes path as one word naming one program. */
static bool shell_safe(const char *path)
{
    if (path[0] != '/')
        return false;
    for (const char *c = path; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789/._+-",
                    *c))
            return false;
    return true;
}

/* Starts the server; it inherits this process's CPU (the measuring side)
 * and puts its children on the peer's for placement 2. */
static int start_server(struct proc_lat *s, enum fork_kind kind)
{
    int in[2], out[2];
    if (pipe(in) < 0)
        return -1;
    if (pipe(out) < 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    char cpu[16];
    snprintf(cpu, sizeof cpu, "%d",
             s->pl.kind == WL_PLACE_SPLIT ? s->pl.other : -1);
    s->server = wl_fork();
    if (s->server == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        for (int i = 0; i < 2; i++) {
            close(in[i]);
            close(out[i]);
        }
        char *argv[] = {"parallax-hello",
                        "--fork-server",
                        (char *)server_kinds[kind],
                        cpu,
                        s->hello,
                        NULL};
        /* our environment (its children get an empty one) */
        execve(s->hello, argv, environ);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    s->cmd = in[1];
    s->reply = out[0];
    return s->server < 0 ? -1 : 0;
}

static int proc_open(struct wl_ctx *ctx, enum fork_kind kind)
{
    const char *who = proc_names[kind];
    struct proc_lat *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->cmd = s->reply = -1;
    ctx->state = s;
    signal(SIGPIPE, SIG_IGN); /* a dead server is an error, not our death */
    if (lat_place_init(&s->pl, ctx, 0, who) < 0)
        return -1;
    const char *path = wl_hello_dyn_path();
    if (!path) {
        fprintf(stderr,
                "%s: parallax-hello-dyn not found: set PARALLAX_LIBEXEC to "
                "its directory\n",
                who);
        return -1;
    }
    snprintf(s->hello, sizeof s->hello, "%s", path);
    if (kind == FORK_SHELL && !shell_safe(s->hello)) {
        fprintf(stderr, "%s: %s is not a path sh -c can run as it is\n", who,
                s->hello);
        return -1;
    }
    if (start_server(s, kind) < 0) {
        fprintf(stderr, "%s: cannot start %s: %s\n", who, s->hello,
                strerror(errno));
        return -1;
    }
    return 0;
}

/* Ends the server (end of file on its input) and reaps it; its CPU time
 * then counts among our children's. */
static void proc_teardown(struct wl_ctx *ctx)
{
    struct proc_lat *s = ctx->state;
    if (s) {
        lat_close(&s->cmd);
        lat_close(&s->reply);
        if (s->server > 0)
            while (waitpid(s->server, NULL, 0) < 0 && errno == EINTR)
                ;
        free(s);
    }
    ctx->state = NULL;
    ctx->helper_user = ctx->helper_sys = 0;
}

static int proc_setup(struct wl_ctx *ctx, enum fork_kind kind)
{
    if (proc_open(ctx, kind) == 0)
        return 0;
    proc_teardown(ctx);
    return -1;
}

static int proc_step(struct wl_ctx *ctx, uint64_t n, enum fork_kind kind)
{
    struct proc_lat *s = ctx->state;
    const char *who = proc_names[kind];
    struct fork_reply rep;
    if (write(s->cmd, &n, sizeof n) != (ssize_t)sizeof n ||
        fork_read_full(s->reply, &rep, sizeof rep) < 0) {
        fprintf(stderr, "%s: the forking helper %s ended\n", who, s->hello);
        return -1;
    }
    ctx->helper_user = rep.user;
    ctx->helper_sys = rep.sys;
    if (rep.status != 0) {
        fprintf(stderr, "%s: the child failed (wait status %#x)\n", who,
                (unsigned)rep.status);
        return -1;
    }
    return 0;
}

static int fork_setup(struct wl_ctx *ctx)
{
    return proc_setup(ctx, FORK_EXIT);
}

static int exec_setup(struct wl_ctx *ctx)
{
    return proc_setup(ctx, FORK_EXEC);
}

static int shell_setup(struct wl_ctx *ctx)
{
    return proc_setup(ctx, FORK_SHELL);
}

static int fork_step(struct wl_ctx *ctx, uint64_t n)
{
    return proc_step(ctx, n, FORK_EXIT);
}

static int exec_step(struct wl_ctx *ctx, uint64_t n)
{
    return proc_step(ctx, n, FORK_EXEC);
}

static int shell_step(struct wl_ctx *ctx, uint64_t n)
{
    return proc_step(ctx, n, FORK_SHELL);
}

const struct workload wl_fork_exit = {
    .name = "fork-exit",
    .desc = "fork, child exits, wait (lmbench lat_proc fork)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params = {LAT_PARAM_PLACEMENT, LAT_PARAM_CPU},
    .setup = fork_setup,
    .step = fork_step,
    .teardown = proc_teardown,
    .figure_kind = WF_TIME_PER_OP,
    .scale = 1e6,
};

const struct workload wl_fork_exec = {
    .name = "fork-exec",
    .desc = "fork, child execve()s a tiny dynamic program, wait (lmbench "
            "lat_proc exec)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params = {LAT_PARAM_PLACEMENT, LAT_PARAM_CPU},
    .setup = exec_setup,
    .step = exec_step,
    .teardown = proc_teardown,
    .figure_kind = WF_TIME_PER_OP,
    .scale = 1e6,
};

const struct workload wl_fork_sh = {
    .name = "fork-sh",
    .desc = "fork, child runs /bin/sh -c with a tiny dynamic program, wait "
            "(lmbench lat_proc shell)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params = {LAT_PARAM_PLACEMENT, LAT_PARAM_CPU},
    .setup = shell_setup,
    .step = shell_step,
    .teardown = proc_teardown,
    .figure_kind = WF_TIME_PER_OP,
    .scale = 1e6,
};
