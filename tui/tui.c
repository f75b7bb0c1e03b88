/* The main screen and the pair screen (a guest against its host, from the
 * fleet screen): their loop, keys and drawing. Samplers run in their own
 * threads; the loop only waits (poll) on keys, on "a sample arrived" and
 * on signals, updates the model, then draws. The terminal's lifecycle is
 * tui/lifecycle.c's. */
#include "tui/tui.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "cli/archives.h"
#include "cli/front_start.h"
#include "collectors/syscalls_switch.h"
#include "guest/demo_guests.h"
#include "report/report.h"
#include "session/host_probe.h"
#include "session/jobs.h"
#include "session/session.h"
#include "tui/archive_keys.h"
#include "tui/colors.h"
#include "tui/lifecycle.h"
#include "tui/modes.h"
#include "tui/panel.h"
#include "tui/prompt.h"
#include "tui/screen.h"
#include "tui/status.h"

/* A screen of sources side by side and what it holds; one is up at a
 * time (the pair screen runs while the fleet screen waits). */
struct screen {
    struct table_panel table;
    struct jobs jobs;
    struct prompt prompt;
    enum { ASK_GUEST, ASK_SOURCES } asking; /* what the prompt is for */
    char sources_label[48];
    struct modes modes; /* help, pause, interval, the quit question */
    struct demo_guests demos;
    struct host_probe probe;
    const char *report_dir;   /* --report-dir, NULL: the default */
    struct archives archives; /* -a, --record and the r key */
};

/* s: saves what the screen shows as a text and a JSON report. */
static void snapshot(struct screen *sc, const struct session *s)
{
    char clk[64], path[4096], err[512];
    struct report_meta meta;
    report_meta_now(&meta, clk, sizeof(clk));
    int rc = report_save(sc->report_dir, s, &sc->jobs, &meta, path,
                         sizeof(path), err, sizeof(err));
    status_saved(rc, path, err, sc->table.status, sizeof(sc->table.status));
}

/* Follows the demo guests' boots on the status line; adds each as a
 * source once its pmcd answers. True when the screen should be redrawn. */
static bool demo_step(struct screen *sc, struct session *s)
{
    return demo_guests_poll(&sc->demos, s, sc->table.status,
                            sizeof(sc->table.status));
}

/* The add-guest prompt was answered: start sampling the guest. */
static void add_guest(struct screen *sc, struct session *s, const char *text)
{
    struct source_spec spec;
    char err[256];
    if (source_spec_parse(text, &spec, err, sizeof(err)) < 0 ||
        session_add(s, &spec, err, sizeof(err)) < 0)
        snprintf(sc->table.status, sizeof(sc->table.status), "%s", err);
    else
        snprintf(sc->table.status, sizeof(sc->table.status), "added %s (%s)",
                 spec.name, spec.target);
}

/* Why this host's system call counter did not open, once per failure;
 * and why a guest's agent counts none, once each time that changes. */
static bool syscalls_failure_news(const struct session *s, char *status,
                                  size_t n)
{
    static unsigned seen;
    static char told[SESSION_MAX_SOURCES][160];
    char why[160];
    unsigned seq = syscalls_host_failure(why, sizeof(why));
    for (int i = 1; i < s->nsrc; i++) {
        const char *now = s->model[i].info.syscalls_status;
        if (strcmp(told[i], now) == 0)
            continue;
        snprintf(told[i], sizeof(told[i]), "%s", now);
        if (now[0])
            snprintf(status, n, "syscalls/s on %s: %s", s->model[i].name, now);
        return now[0] != '\0';
    }
    if (seq == seen)
        return false;
    seen = seq;
    snprintf(status, n, "syscalls/s on this host: %s", why);
    return true;
}

/* Keys of the whole screen; the rest go to the table. */
static int screen_key(struct screen *sc, struct session *s, int ch)
{
    if (ch == 12) { /* ^L, whatever is open: repaint every cell */
        clearok(curscr, TRUE);
        return KR_HANDLED | KR_REDRAW;
    }
    if (sc->prompt.active) {
        if (ch == KEY_RESIZE)
            return KR_HANDLED | KR_REDRAW;
        if (prompt_key(&sc->prompt, ch) != PROMPT_ACCEPTED ||
            sc->prompt.len == 0)
            return KR_HANDLED | KR_REDRAW;
        if (sc->asking == ASK_GUEST)
            add_guest(sc, s, sc->prompt.text);
        else
            table_panel_toggle(&sc->table, s, &sc->jobs, sc->prompt.text);
        return KR_HANDLED | KR_REDRAW;
    }
    int r = modes_key(&sc->modes, s, &sc->jobs, ch, sc->table.status,
                      sizeof(sc->table.status));
    if (r == KR_IGNORED)
        r = archive_keys(&sc->archives, s, ch, sc->table.status,
                         sizeof(sc->table.status));
    if (r != KR_IGNORED)
        return r;
    switch (ch) {
    case 'g':
        sc->asking = ASK_GUEST;
        prompt_open(&sc->prompt, "add guest [NAME=]HOST[:PORT]: ");
        return KR_HANDLED | KR_REDRAW;
    case '\r':
    case '\n':
    case KEY_ENTER:
        sc->asking = ASK_SOURCES;
        snprintf(sc->sources_label, sizeof(sc->sources_label),
                 "toggle sources (0-%d or names): ", s->nsrc - 1);
        prompt_open(&sc->prompt, sc->sources_label);
        return KR_HANDLED | KR_REDRAW;
    case 's':
        snapshot(sc, s);
        return KR_HANDLED | KR_REDRAW;
    case 'y':
        syscalls_want(!syscalls_wanted());
        snprintf(sc->table.status, sizeof(sc->table.status), "%s",
                 syscalls_wanted()
                     ? "counting system calls: here as root, in guests "
                       "through pmdaparallax; paused while workloads run"
                     : "not counting system calls");
        return KR_HANDLED | KR_REDRAW;
    case 't':
        colors_cycle(sc->table.status, sizeof(sc->table.status));
        return KR_HANDLED | KR_REDRAW;
    case KEY_RESIZE:
    case 12: /* ^L */
        return KR_HANDLED | KR_REDRAW;
    default:
        return table_panel_key(&sc->table, s, &sc->jobs, ch);
    }
}

/* Reads every pending key; false when the user asked to quit. */
static bool handle_keys(struct screen *sc, struct session *s, bool *redraw)
{
    int ch;
    while ((ch = getch()) != ERR) {
        int r = screen_key(sc, s, ch);
        if (r & KR_QUIT)
            return false;
        if (r & KR_REDRAW)
            *redraw = true;
    }
    return true;
}

/* Runs until q (returns 0) or a termination signal (returns it). */
static int main_loop(struct screen *sc, struct session *s, bool utf8)
{
    struct pollfd pfd[5] = {
        {.fd = STDIN_FILENO, .events = POLLIN},
        {.fd = session_fd(s), .events = POLLIN},
        {.fd = tui_signal_fd(), .events = POLLIN},
        {.events = POLLIN}, /* the demo guests' boot.sh, while they talk */
        {.events = POLLIN}, /* the host's clock probe, while it runs */
    };
    modes_draw(&sc->modes, s, &sc->jobs, &sc->table,
               sc->prompt.active ? &sc->prompt : NULL, utf8);
    for (;;) {
        /* redraws follow the samples (and keys): no timer of its own, so
         * the main thread wakes once per interval; the timeout only keeps
         * the states' ages moving if every source hangs */
        int timeout = (int)(s->interval * 1000) + 100;
        if (jobs_running(&sc->jobs, -1) && timeout > 250)
            timeout = 250; /* runs report progress and end between samples */
        pfd[3].fd = demo_guests_fd(&sc->demos);
        pfd[4].fd = host_probe_fd(&sc->probe);
        int n = poll(pfd, 5, timeout);
        if (n < 0 && errno != EINTR)
            return 0;
        int sig = tui_signal_taken(&pfd[2]);
        if (sig)
            return sig;
        /* the terminal went away without a SIGHUP reaching us */
        if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
            return SIGHUP;
        bool redraw = n == 0, keyed = false;
        /* a resize interrupts poll (EINTR): getch then says KEY_RESIZE */
        if ((pfd[0].revents || n < 0) && !handle_keys(sc, s, &keyed))
            return 0;
        if (pfd[1].revents && session_update(s))
            redraw = true;
        if (jobs_update(&sc->jobs, s))
            redraw = true;
        if (archives_tick(&sc->archives, s, &sc->jobs, sc->table.status,
                          sizeof(sc->table.status)))
            redraw = true;
        sc->modes.badge = sc->archives.rec ? "REC" : NULL;
        if (syscalls_failure_news(s, sc->table.status,
                                  sizeof(sc->table.status)))
            redraw = true;
        if (demo_step(sc, s))
            redraw = true;
        if (!s->model[0].target[0] && /* this host's, not a remote host's */
            host_probe_step(&sc->probe, &s->model[0],
                            jobs_host_busy(&sc->jobs)))
            redraw = true;
        if (keyed || (redraw && !modes_paused(&sc->modes)))
            modes_draw(&sc->modes, s, &sc->jobs, &sc->table,
                       sc->prompt.active ? &sc->prompt : NULL, utf8);
    }
}

/* Stops the workloads this screen started and waits (2 s at most) for
 * the stores to be made, before the connections close. */
static void stop_jobs(struct screen *sc, struct session *s)
{
    jobs_stop_all(&sc->jobs, s);
    double until = clock_mono() + 2;
    while (jobs_running(&sc->jobs, -1) && clock_mono() < until) {
        struct pollfd pfd = {.fd = session_fd(s), .events = POLLIN};
        poll(&pfd, 1, 100);
        session_update(s);
        jobs_update(&sc->jobs, s);
    }
}

int tui_pair_run(const struct options *o, const struct source_spec *host,
                 const struct source_spec *guest,
                 const struct backend *const *backends, bool utf8, char *err,
                 size_t errlen)
{
    static struct session pair;
    static struct screen sc; /* a new one each time */
    memset(&sc, 0, sizeof(sc));
    if (session_open_pair(&pair, o->interval, host, guest, backends, err,
                          errlen) < 0)
        return -1;
    front_jobs_init(&sc.jobs, o);
    sc.report_dir = o->report_dir;
    snprintf(sc.table.status, sizeof(sc.table.status),
             "%s against its host %s through pmproxy's /pmapi; q goes back "
             "to the fleet",
             guest->name, host->name);
    int sig = main_loop(&sc, &pair, utf8);
    stop_jobs(&sc, &pair);
    modes_free(&sc.modes);
    jobs_free(&sc.jobs);
    session_close(&pair);
    return sig;
}

int tui_run(const struct options *o)
{
    char err[256];
    static struct session s;
    static struct screen sc;
    struct tui_life life;
    int rc = tui_life_open(&life, o, sc.table.status, sizeof(sc.table.status));
    if (rc)
        return rc;
    front_jobs_init(&sc.jobs, o);
    sc.report_dir = o->report_dir;
    rc = front_start(&s, &sc.jobs, &sc.archives, o, err, sizeof(err));
    if (rc) {
        tui_life_say(&life, err);
        tui_life_close(&life);
        return rc;
    }
    host_probe_init(&sc.probe);
    if (o->ndemo && demo_guests_start(&sc.demos, o->demo_variants, o->ndemo,
                                      life.real_stderr, err, sizeof(err)) < 0) {
        tui_life_say(&life, err);
        session_close(&s);
        tui_life_close(&life);
        return 2;
    }
    tui_life_begin();
    DIAG(DIAG_INFO, "started: %d source%s, interval %g s", s.nsrc,
         s.nsrc == 1 ? "" : "s", s.interval);
    int sig = main_loop(&sc, &s, life.utf8);
    tui_life_end();
    modes_free(&sc.modes);
    DIAG(DIAG_INFO, "quitting%s", sig ? " on a signal" : "");
    jobs_quit(&sc.jobs, &s); /* here and in every guest */
    jobs_free(&sc.jobs);     /* reaps this host's runs */
    archives_close(&sc.archives);
    host_probe_stop(&sc.probe);
    if (sc.demos.n)
        dprintf(life.real_stderr, "parallax: stopping the demo guest%s\n",
                sc.demos.n > 1 ? "s" : "");
    demo_guests_stop(&sc.demos); /* boot.sh stops qemu */
    session_close(&s);
    tui_life_close(&life);
    if (archives_failed(&sc.archives))
        fprintf(stderr, "parallax: %s\n", archives_failed(&sc.archives));
    if (sig)
        return 128 + sig; /* the shell's convention for signals */
    return archives_failed(&sc.archives) ? 1 : 0;
}
