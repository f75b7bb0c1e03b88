/* The agent's main loop: instead of pmdaMain, ppoll on pmcd's descriptor,
 * the runs' exit descriptors and the probe's pipe, with a timeout from
 * whatever is due next, so runs are reaped, stops escalated, probes taken
 * and the counter closed even when nobody fetches. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <time.h>

#include "pmda/agent.h"
#include "pmda/loop.h"

#define PROBE_CHECK_MS 1000 /* how often a probe in flight is checked */

static volatile sig_atomic_t quit;

static void on_quit(int sig)
{
    quit = sig;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void agent_probe_now(struct agent *a)
{
    char err[256];
    if (probe_start(&a->probe, err, sizeof err) < 0)
        pmNotifyErr(LOG_ERR, "%s", err);
}

static void collect_probe(struct agent *a)
{
    char err[256];
    if (probe_collect(&a->probe, err, sizeof err) < 0)
        pmNotifyErr(LOG_ERR, "%s", err);
}

/* Periodic probes wait while workloads run: neither should disturb the
 * other. */
static void periodic_probe(struct agent *a)
{
    double t = now();
    if (a->probe_every <= 0 || t < a->next_probe)
        return;
    a->next_probe = t + a->probe_every;
    if (runs_live(a->runs) == 0)
        agent_probe_now(a);
}

static int min_ms(int a, int b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

/* Does what is due and returns the ms until something is due again. */
static int tick(struct agent *a)
{
    runs_poll(a->runs);
    collect_probe(a);
    periodic_probe(a);
    bool live = runs_live(a->runs) > 0;
    int ms = min_ms(runs_timeout_ms(a->runs), syscount_tick(a->syscount, live));
    if (a->probe.pid > 0)
        ms = min_ms(ms, PROBE_CHECK_MS);
    if (a->probe_every > 0)
        ms = min_ms(ms, (int)((a->next_probe - now()) * 1000) + 1);
    return ms < 0 ? -1 : ms;
}

/* SIGTERM, SIGINT and SIGHUP end the loop; they are blocked except while
 * in ppoll, so none is lost between a check and the wait. */
static void catch_signals(sigset_t *wait_mask)
{
    struct sigaction sa = {.sa_handler = on_quit};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, wait_mask);
    sigdelset(wait_mask, SIGTERM);
    sigdelset(wait_mask, SIGINT);
    sigdelset(wait_mask, SIGHUP);
}

int agent_loop(pmdaInterface *dp, struct agent *a)
{
    sigset_t wait_mask;
    catch_signals(&wait_mask);
    int infd = __pmdaInFd(dp);
    a->next_probe = now();
    while (!quit) {
        int ms = tick(a);
        struct pollfd pfd[2 + RUNS_MAX_LIVE];
        int n = 0;
        pfd[n++] = (struct pollfd){.fd = infd, .events = POLLIN};
        if (a->probe.fd >= 0)
            pfd[n++] = (struct pollfd){.fd = a->probe.fd, .events = POLLIN};
        n += runs_pollfds(a->runs, pfd + n, RUNS_MAX_LIVE);
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        int rc = ppoll(pfd, (nfds_t)n, ms < 0 ? NULL : &ts, &wait_mask);
        if (rc < 0 && errno != EINTR) {
            pmNotifyErr(LOG_ERR, "ppoll: %s", pmErrStr(-errno));
            return -1;
        }
        if (rc > 0 && pfd[0].revents && __pmdaMainPDU(dp) < 0)
            return 0; /* pmcd has gone */
    }
    pmNotifyErr(LOG_INFO, "signal %d: stopping", (int)quit);
    return 0;
}
