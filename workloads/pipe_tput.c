/* UnixBench "Pipe Throughput": one process writes 512 bytes into a pipe
 * and reads them back, over and over. One loop = one write + one read. */
#include "workloads/workload.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#define PIPE_TPUT_BYTES 512 /* UnixBench's pipe.c buffer */

struct pipe_tput {
    int fd[2];
    char buf[PIPE_TPUT_BYTES];
};

static int pipe_tput_setup(struct wl_ctx *ctx)
{
    struct pipe_tput *p = calloc(1, sizeof(*p));
    if (!p)
        return -1;
    if (pipe2(p->fd, O_CLOEXEC) < 0) {
        free(p);
        return -1;
    }
    ctx->state = p;
    return 0;
}

static int pipe_tput_step(struct wl_ctx *ctx, uint64_t n)
{
    struct pipe_tput *p = ctx->state;
    for (uint64_t i = 0; i < n; i++) {
        if (write(p->fd[1], p->buf, sizeof(p->buf)) != sizeof(p->buf))
            return -1;
        if (read(p->fd[0], p->buf, sizeof(p->buf)) != sizeof(p->buf))
            return -1;
    }
    return 0;
}

static void pipe_tput_teardown(struct wl_ctx *ctx)
{
    struct pipe_tput *p = ctx->state;
    if (!p)
        return;
    close(p->fd[0]);
    close(p->fd[1]);
    free(p);
    ctx->state = NULL;
}

const struct workload wl_pipe_tput = {
    .name = "pipe-tput",
    .desc = "pipe throughput: 512-byte write+read in one process (UnixBench)",
    .unit = "loops/s",
    .better = WL_HIGHER_IS_BETTER,
    .setup = pipe_tput_setup,
    .step = pipe_tput_step,
    .teardown = pipe_tput_teardown,
    .figure_kind = WF_OPS_PER_SEC,
    .scale = 1,
};
