/* Protection fault, lmbench `lat_sig prot`: a write to a read-only shared
 * mapping of a file raises SIGSEGV, whose handler returns, so the write
 * faults again. As lat_sig does, the figure is the time per fault less the
 * cost of catching a signal (kill(self, SIGUSR1) with a handler, less
 * kill(self, 0)), those timed in turn with the faults (lat_measure.h),
 * in microseconds.
 * To end a batch after exactly n faults the handler makes the page
 * writable at the n-th; the next batch makes it read-only again. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "workloads/lat_measure.h"

/* For the handler, which has no argument to find the state by. */
static struct {
    char *page;
    size_t len;
    volatile uint64_t left; /* faults still to take in this batch */
} prot;

struct prot_fault {
    int fd;
    pid_t me;
    bool handlers; /* ours are installed, the old ones saved */
    struct sigaction old_segv, old_bus, old_usr1;
};

/* Outside fault_loop no fault is ours: a crash must then crash. (No
 * SA_SIGINFO to look at the address: copying the siginfo out would add to
 * what lat_sig's plain handler costs.) */
static void on_prot_fault(int sig)
{
    if (prot.left == 0) {
        signal(sig, SIG_DFL);
        return;
    }
    if (--prot.left == 0)
        mprotect(prot.page, prot.len, PROT_READ | PROT_WRITE);
}

static void on_usr1(int sig)
{
    (void)sig;
}

static int prot_fail(const char *what)
{
    fprintf(stderr, "prot-fault: %s: %s\n", what, strerror(errno));
    return -1;
}

static void prot_teardown(struct wl_ctx *ctx)
{
    struct prot_fault *s = ctx->state;
    if (!s)
        return;
    if (s->handlers) {
        sigaction(SIGSEGV, &s->old_segv, NULL);
        sigaction(SIGBUS, &s->old_bus, NULL);
        sigaction(SIGUSR1, &s->old_usr1, NULL);
    }
    if (prot.page)
        munmap(prot.page, prot.len);
    prot.page = NULL;
    if (s->fd >= 0)
        close(s->fd);
    free(s);
    ctx->state = NULL;
}

/* One page of a file in the run's directory, mapped shared, read-only
 * (lat_sig maps a page of its own binary). */
static int prot_map(struct prot_fault *s, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/prot", dir);
    s->fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (s->fd < 0)
        return prot_fail(path);
    prot.len = (size_t)sysconf(_SC_PAGESIZE);
    char *zero = calloc(1, prot.len);
    ssize_t wrote = zero ? write(s->fd, zero, prot.len) : -1;
    free(zero);
    if (wrote != (ssize_t)prot.len)
        return prot_fail("write");
    prot.page = mmap(NULL, prot.len, PROT_READ, MAP_SHARED, s->fd, 0);
    if (prot.page == MAP_FAILED) {
        prot.page = NULL;
        return prot_fail("mmap");
    }
    return 0;
}

static int prot_open(struct wl_ctx *ctx)
{
    struct prot_fault *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->fd = -1;
    s->me = getpid();
    ctx->state = s;
    if (prot_map(s, ctx->dir) < 0)
        return -1;
    /* lat_sig's flags: none, so a handler blocks its own signal */
    struct sigaction fault = {.sa_handler = on_prot_fault};
    struct sigaction usr1 = {.sa_handler = on_usr1};
    sigemptyset(&fault.sa_mask);
    sigemptyset(&usr1.sa_mask);
    if (sigaction(SIGSEGV, &fault, &s->old_segv) < 0 ||
        sigaction(SIGBUS, &fault, &s->old_bus) < 0 ||
        sigaction(SIGUSR1, &usr1, &s->old_usr1) < 0)
        return prot_fail("sigaction");
    s->handlers = true;
    return 0;
}

static int prot_setup(struct wl_ctx *ctx)
{
    if (prot_open(ctx) == 0)
        return 0;
    prot_teardown(ctx);
    return -1;
}

/* lat_sig's do_send: the cost of sending, without a handler to run */
static int send_loop(void *arg, uint64_t n)
{
    struct prot_fault *s = arg;
    while (n-- > 0)
        kill(s->me, 0);
    return 0;
}

/* lat_sig's do_catch: send and catch */
static int catch_loop(void *arg, uint64_t n)
{
    struct prot_fault *s = arg;
    while (n-- > 0)
        kill(s->me, SIGUSR1);
    return 0;
}

static int fault_loop(void *arg, uint64_t n)
{
    (void)arg;
    if (n == 0)
        return 0;
    if (mprotect(prot.page, prot.len, PROT_READ) < 0)
        return prot_fail("mprotect");
    prot.left = n;
    *(volatile char *)prot.page = 1; /* faults n times, then succeeds */
    return 0;
}

/* The cost of catching a signal: kill with a handler less kill without;
 * as lat_sig, at least nothing. */
static double catch_us(const double *ref_us)
{
    return ref_us[1] > ref_us[0] ? ref_us[1] - ref_us[0] : 0;
}

static double prot_figure(void *arg, double us, const double *ref_us)
{
    (void)arg;
    return us - catch_us(ref_us);
}

static int prot_run(struct wl_ctx *ctx, struct wl_result *res)
{
    struct prot_fault *s = ctx->state;
    struct lat_ref refs[2] = {{send_loop, 0}, {catch_loop, 0}};
    int rc = lat_measure(ctx, fault_loop, s, refs, 2, prot_figure, res);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    double ref_us[2] = {refs[0].us, refs[1].us};
    lat_extra(res, "fault and handler", "us",
              res->wall / (double)res->ops * 1e6);
    lat_extra(res, "signal catch", "us", catch_us(ref_us));
    return 0;
}

const struct workload wl_prot_fault = {
    .name = "prot-fault",
    .desc = "protection fault on a read-only shared page, caught by a "
            "handler (lmbench lat_sig prot)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .setup = prot_setup,
    .run = prot_run,
    .teardown = prot_teardown,
    .figure_kind = WF_TIME_PER_OP, /* the live figure: faults */
    .scale = 1e6,
};
