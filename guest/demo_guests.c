/* See demo_guests.h. One epoll descriptor holds every boot.sh's pipes, so
 * a front end polls one descriptor however many guests boot. */
#include "guest/demo_guests.h"

#include "base/diag.h"

#include "session/session.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A guest whose name another one has already gets "-2", "-3" ... */
static void unique_name(struct demo_guests *d, int k)
{
    struct demo_guest *g = &d->g[k];
    char base[sizeof(g->name)];
    snprintf(base, sizeof(base), "%s", g->name);
    for (int nth = 2, clash = 1; clash; nth++) {
        clash = 0;
        for (int i = 0; i < k; i++)
            clash |= strcmp(d->g[i].name, g->name) == 0;
        if (clash)
            snprintf(g->name, sizeof(g->name), "%.56s-%d", base, nth % 100);
    }
}

static void watch(struct demo_guests *d, int fd)
{
    struct epoll_event ev = {.events = EPOLLIN};
    if (fd >= 0 && d->epfd >= 0)
        epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev);
}

int demo_guests_start(struct demo_guests *d, const char *const *variants, int n,
                      int fd, char *err, size_t errlen)
{
    memset(d, 0, sizeof(*d));
    d->epfd = -1;
    if (n > DEMO_GUESTS_MAX) {
        snprintf(err, errlen, "at most %d demo guests at once",
                 DEMO_GUESTS_MAX);
        return -1;
    }
    /* another kernel is fetched first: a variant that cannot boot fails
     * before any guest starts */
    for (int k = 0; k < n; k++)
        if (demo_guest_prepare(variants[k], fd, err, errlen) < 0)
            return -1;
    d->epfd = epoll_create1(EPOLL_CLOEXEC);
    for (int k = 0; k < n; k++) {
        if (demo_guest_start(&d->g[k], variants[k], err, errlen) < 0) {
            demo_guests_stop(d);
            return -1;
        }
        d->n = k + 1;
        watch(d, d->g[k].out_fd);
        watch(d, d->g[k].err_fd);
    }
    return 0;
}

int demo_guests_fd(const struct demo_guests *d)
{
    return d->n > 0 ? d->epfd : -1;
}

/* Adds guest k to s once its pmcd answers, under its (unique) name. */
static void add_ready(struct demo_guests *d, int k, struct session *s)
{
    struct demo_guest *g = &d->g[k];
    char err[256];
    if (g->state != DEMO_READY || d->added[k])
        return;
    d->added[k] = true;
    unique_name(d, k);
    struct source_spec spec = {.pid = 0};
    snprintf(spec.name, sizeof(spec.name), "%s", g->name);
    snprintf(spec.target, sizeof(spec.target), "127.0.0.1:%d", g->port);
    spec.pid = g->vm_pid; /* the host's view joins its VM process */
    if (spec.pid > 0 && session_add(s, &spec, err, sizeof(err)) == 0)
        return;
    if (spec.pid > 0) /* the guest still gets its column, unjoined */
        DIAG(DIAG_WARN, "%s: %s", g->name, err);
    spec.pid = 0;
    if (session_add(s, &spec, err, sizeof(err)) < 0) {
        snprintf(g->progress, sizeof(g->progress), "%s", err);
        g->state = DEMO_FAILED; /* it runs on, unwatched, until the end */
    }
}

/* Every guest's newest step: one guest's as it said it, several as
 * "NAME: STEP | NAME: up" (each guest's lines begin with its name). */
static void status_line(const struct demo_guests *d, char *status, size_t n)
{
    size_t used = 0;
    int up = 0;
    status[0] = '\0';
    for (int k = 0; k < d->n && used < n; k++) {
        const struct demo_guest *g = &d->g[k];
        int w;
        up += g->state == DEMO_READY;
        if (d->n > 1 && g->state == DEMO_READY)
            w = snprintf(status + used, n - used, "%s%s: up", k ? " | " : "",
                         g->name);
        else
            w = snprintf(status + used, n - used, "%s%s", k ? " | " : "",
                         g->progress);
        used += w > 0 ? (size_t)w : 0;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (d->n > 1 && up == d->n && used < n)
        snprintf(status + used, n - used,
                 " (%d guests on %ld host CPUs: their figures compete)", d->n,
                 cpus);
}

bool demo_guests_poll(struct demo_guests *d, struct session *s, char *status,
                      size_t n)
{
    bool changed = false; /* epoll is level-triggered: reads clear it */
    for (int k = 0; k < d->n; k++) {
        if (demo_guest_poll(&d->g[k]))
            changed = true;
        add_ready(d, k, s);
    }
    if (changed)
        status_line(d, status, n);
    return changed;
}

int demo_guests_join(struct demo_guests *d, struct session *s,
                     const char *const *variants, int n, FILE *progress,
                     const volatile sig_atomic_t *stop)
{
    char err[512], status[1024];
    if (demo_guests_start(d, variants, n, fileno(progress), err, sizeof(err)) <
        0) {
        fprintf(progress, "parallax: %s\n", err);
        return -1;
    }
    for (int k = 0; k < d->n; k++) {
        d->g[k].echo = progress; /* every step from here on */
        fprintf(progress, "parallax: %s\n", d->g[k].progress);
    }
    for (;;) {
        int booting = 0;
        for (int k = 0; k < d->n; k++)
            booting += d->g[k].state == DEMO_BOOTING;
        if (!booting || (stop && *stop))
            break;
        struct pollfd pfd = {.fd = d->epfd, .events = POLLIN};
        poll(&pfd, 1, 200);
        demo_guests_poll(d, s, status, sizeof(status));
    }
    int rc = 0;
    for (int k = 0; k < d->n; k++)
        if (d->g[k].state != DEMO_READY)
            rc = -1;
    return rc;
}

void demo_guests_stop(struct demo_guests *d)
{
    for (int k = 0; k < d->n; k++) /* all at once: each may take seconds */
        demo_guest_signal_stop(&d->g[k]);
    for (int k = 0; k < d->n; k++)
        demo_guest_stop(&d->g[k]);
    if (d->epfd >= 0)
        close(d->epfd);
    d->epfd = -1;
    d->n = 0;
}
