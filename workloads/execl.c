/* UnixBench "Execl Throughput": a process replaces itself with a fresh
 * copy of a small program over and over. A batch of n forks one child
 * that runs `parallax-hello-dyn --execl n`, which execs itself until n
 * images have run; the one fork per batch is amortised over its n execs.
 * The helper is linked dynamically, as UnixBench's execl is: most of an
 * exec's cost here is the dynamic loader's (a static helper ran 1.7x as
 * many execs per second). */
#include "workloads/workload.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/exec_helper.h"
#include "workloads/lat_peer.h"
#include "workloads/proc.h"

struct execl_wl {
    struct lat_place pl; /* the exec chain runs where a peer would */
    char hello[PATH_MAX];
};

static int execl_setup(struct wl_ctx *ctx)
{
    const char *hello = wl_hello_dyn_path();
    if (!hello) {
        fprintf(stderr, "execl: parallax-hello-dyn not found; set "
                        "PARALLAX_LIBEXEC to its directory\n");
        return -1;
    }
    struct execl_wl *e = calloc(1, sizeof(*e));
    if (!e)
        return -1;
    snprintf(e->hello, sizeof(e->hello), "%s", hello);
    ctx->state = e;
    return lat_place_init(&e->pl, ctx, 0, "execl");
}

static void execl_teardown(struct wl_ctx *ctx)
{
    free(ctx->state);
    ctx->state = NULL;
}

static int execl_step(struct wl_ctx *ctx, uint64_t n)
{
    struct execl_wl *e = ctx->state;
    char count[24];
    snprintf(count, sizeof(count), "%llu", (unsigned long long)n);
    pid_t pid = wl_fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (lat_place_peer(&e->pl) < 0)
            _exit(126);
        execl(e->hello, "parallax-hello-dyn", "--execl", count, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

const struct workload wl_execl = {
    .name = "execl",
    .desc = "execl throughput: a process execs itself again and again "
            "(UnixBench)",
    .unit = "execs/s",
    .better = WL_HIGHER_IS_BETTER,
    .params = {LAT_PARAM_PLACEMENT, LAT_PARAM_CPU},
    .setup = execl_setup,
    .step = execl_step,
    .teardown = execl_teardown,
    .figure_kind = WF_OPS_PER_SEC,
    .scale = 1,
};
