/* Process creation, lmbench lat_proc fork / exec / shell: one operation is
 * fork, the child's work, and waitpid; the figure is microseconds each.
 *   fork-exit  the child exits at once
 *   fork-exec  the child execve()s parallax-hello-dyn, empty environment
 *   fork-sh    the child runs /bin/sh -c parallax-hello-dyn
 * The helper is linked dynamically because lmbench's is: its script copies
 * the dynamic `hello` to /tmp/hello for lat_proc (the static one only
 * serves a lat_proc built with -DSTATIC); a static helper made fork-exec
 * 0.71x lmbench's. The children close stdout first, as lat_proc's do.
 * Only parallax-hello-dyn, found by wl_hello_dyn_path, is ever run. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/exec_helper.h"
#include "workloads/lat_peer.h"
#include "workloads/proc.h"

enum proc_kind { PROC_FORK, PROC_EXEC, PROC_SHELL };

struct proc_lat {
    struct lat_place pl;
    char hello[PATH_MAX];
};

static const char *const proc_names[] = {"fork-exit", "fork-exec", "fork-sh"};

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

static int proc_open(struct wl_ctx *ctx, enum proc_kind kind)
{
    const char *who = proc_names[kind];
    struct proc_lat *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    ctx->state = s;
    if (lat_place_init(&s->pl, ctx, 0, who) < 0)
        return -1;
    if (kind == PROC_FORK)
        return 0;
    const char *path = wl_hello_dyn_path();
    if (!path) {
        fprintf(stderr,
                "%s: parallax-hello-dyn not found: set PARALLAX_LIBEXEC to "
                "its directory\n",
                who);
        return -1;
    }
    snprintf(s->hello, sizeof s->hello, "%s", path);
    if (kind == PROC_SHELL && !shell_safe(s->hello)) {
        fprintf(stderr, "%s: %s is not a path sh -c can run as it is\n", who,
                s->hello);
        return -1;
    }
    return 0;
}

static void proc_teardown(struct wl_ctx *ctx)
{
    free(ctx->state);
    ctx->state = NULL;
}

static int proc_setup(struct wl_ctx *ctx, enum proc_kind kind)
{
    if (proc_open(ctx, kind) == 0)
        return 0;
    proc_teardown(ctx);
    return -1;
}

static _Noreturn void proc_child(struct proc_lat *s, enum proc_kind kind)
{
    if (lat_place_peer(&s->pl) < 0)
        _exit(126);
    if (kind == PROC_FORK)
        _exit(0);
    close(1);
    if (kind == PROC_EXEC) {
        char *argv[] = {s->hello, NULL};
        char *envp[] = {NULL};
        execve(s->hello, argv, envp);
    } else {
        execl("/bin/sh", "sh", "-c", s->hello, (char *)NULL);
    }
    _exit(127);
}

static int proc_step(struct wl_ctx *ctx, uint64_t n, enum proc_kind kind)
{
    struct proc_lat *s = ctx->state;
    const char *who = proc_names[kind];
    while (n-- > 0) {
        pid_t pid = wl_fork();
        if (pid < 0) {
            fprintf(stderr, "%s: fork: %s\n", who, strerror(errno));
            return -1;
        }
        if (pid == 0)
            proc_child(s, kind);
        int status;
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR) {
                fprintf(stderr, "%s: waitpid: %s\n", who, strerror(errno));
                return -1;
            }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "%s: the child failed (wait status %#x)\n", who,
                    (unsigned)status);
            return -1;
        }
    }
    return 0;
}

static int fork_setup(struct wl_ctx *ctx)
{
    return proc_setup(ctx, PROC_FORK);
}

static int exec_setup(struct wl_ctx *ctx)
{
    return proc_setup(ctx, PROC_EXEC);
}

static int shell_setup(struct wl_ctx *ctx)
{
    return proc_setup(ctx, PROC_SHELL);
}

static int fork_step(struct wl_ctx *ctx, uint64_t n)
{
    return proc_step(ctx, n, PROC_FORK);
}

static int exec_step(struct wl_ctx *ctx, uint64_t n)
{
    return proc_step(ctx, n, PROC_EXEC);
}

static int shell_step(struct wl_ctx *ctx, uint64_t n)
{
    return proc_step(ctx, n, PROC_SHELL);
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
