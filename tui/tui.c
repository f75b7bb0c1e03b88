/* The live screen's lifecycle and main loop. Samplers run in their own
 * threads; this loop only waits (poll) on keys, on "a sample arrived" and on
 * signals, updates the model, then draws. The terminal is restored on every
 * way out: q, the signals that end a process (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1 ... cli/quit_signals.h; through a self-pipe, then the
 * way q quits), and faults (restored in the handler, then re-raised). */
#include "tui/tui.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "cli/archives.h"
#include "cli/quit_signals.h"
#include "collectors/syscalls_switch.h"
#include "guest/demo_guests.h"
#include "report/baselines.h"
#include "report/report.h"
#include "session/host_probe.h"
#include "session/jobs.h"
#include "session/session.h"
#include "tui/archive_keys.h"
#include "tui/colors.h"
#include "tui/modes.h"
#include "tui/panel.h"
#include "tui/prompt.h"
#include "tui/screen.h"
#include "tui/status.h"

static volatile sig_atomic_t curses_on;
static int sig_pipe[2] = {-1, -1};

static void on_term(int sig)
{
    char c = (char)sig;
    if (write(sig_pipe[1], &c, 1) < 0)
        return; /* the pipe is full: a quit is already pending */
}

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                                    SIGABRT, SIGSYS, SIGTRAP};
static struct sigaction
    fatal_prev[sizeof(fatal_signals) / sizeof(fatal_signals[0])];

/* Restores the terminal, then hands the signal to whoever handled it
 * before (the default action, or a sanitizer's reporter). */
static void on_fatal(int sig)
{
    if (curses_on)
        endwin(); /* not async-signal-safe, but the alternative is a
                     terminal left raw; htop does the same */
    for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]);
         i++)
        if (fatal_signals[i] == sig)
            sigaction(sig, &fatal_prev[i], NULL);
    raise(sig);
}

static void install_signals(void)
{
    quit_signals_install(on_term);
    struct sigaction sa = {.sa_handler = on_fatal};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]);
         i++)
        sigaction(fatal_signals[i], &sa, &fatal_prev[i]);
}

/* Sends stderr to the log file while curses owns the terminal: libraries
 * (PCP among them) write diagnostics there. Returns a copy of the real
 * stderr for messages after the screen is restored. */
static int redirect_stderr(void)
{
    char dir[512], path[600];
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    if (state && *state)
        snprintf(dir, sizeof(dir), "%s/parallax", state);
    else
        snprintf(dir, sizeof(dir), "%s/.local/state/parallax",
                 home ? home : "/tmp");
    snprintf(path, sizeof(path), "%s/parallax.log", dir);
    int saved = dup(STDERR_FILENO);
    char mk[600];
    snprintf(mk, sizeof(mk), "%s", dir);
    for (char *p = mk + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(mk, 0700);
            *p = '/';
        }
    mkdir(mk, 0700);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    return saved;
}

static int check_terminal(char *err, size_t errlen)
{
    struct winsize ws;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(err, errlen,
                 "not a terminal; run it in one, or use --text for plain "
                 "output");
        return -1;
    }
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row &&
        (ws.ws_col < TUI_MIN_COLS || ws.ws_row < TUI_MIN_ROWS)) {
        snprintf(err, errlen,
                 "terminal is %dx%d, parallax needs at least %dx%d; enlarge "
                 "the window",
                 ws.ws_col, ws.ws_row, TUI_MIN_COLS, TUI_MIN_ROWS);
        return -1;
    }
    return 0;
}

static void curses_start(void)
{
    initscr();
    curses_on = 1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    typeahead(-1); /* one write per refresh instead of polling stdin */
    colors_init();
    /* ncurses 6.4 writes once per cursor move until the first endwin/refresh
     * cycle; one cycle here makes each later refresh a single write */
    refresh();
    endwin();
    refresh();
    /* endwin took the keypad out of application mode, and ncurses would
     * put it back only at the first getch: an arrow key sent before that
     * arrived as ESC [ C and was lost */
    keypad(stdscr, TRUE);
}

static void curses_end(void)
{
    if (curses_on) {
        curs_set(1);
        endwin();
        curses_on = 0;
    }
}

static struct table_panel table;
static struct jobs jobs;
static struct prompt prompt;
static enum { ASK_GUEST, ASK_SOURCES } asking; /* what the prompt is for */
static char sources_label[48];
static struct modes modes; /* help, pause, interval, the quit question */
static struct demo_guests demos;
static struct host_probe probe;
static const char *report_dir;   /* --report-dir, NULL: the default */
static struct archives archives; /* -a, --record and the r key */

/* s: saves what the screen shows as a text and a JSON report. */
static void snapshot(const struct session *s)
{
    char clk[64], path[4096], err[512];
    struct report_meta meta;
    report_meta_now(&meta, clk, sizeof(clk));
    if (report_save(report_dir, s, &jobs, &meta, path, sizeof(path), err,
                    sizeof(err)) < 0)
        status_cause_first("not saved", err, table.status,
                           sizeof(table.status));
    else
        snprintf(table.status, sizeof(table.status), "saved %.340s (and .json)",
                 path);
}

/* Follows the demo guests' boots on the status line; adds each as a
 * source once its pmcd answers. True when the screen should be redrawn. */
static bool demo_step(struct session *s)
{
    return demo_guests_poll(&demos, s, table.status, sizeof(table.status));
}

/* The add-guest prompt was answered: start sampling the guest. */
static void add_guest(struct session *s, const char *text)
{
    struct source_spec spec;
    char err[256];
    if (source_spec_parse(text, &spec, err, sizeof(err)) < 0 ||
        session_add(s, &spec, err, sizeof(err)) < 0)
        snprintf(table.status, sizeof(table.status), "%s", err);
    else
        snprintf(table.status, sizeof(table.status), "added %s (%s)", spec.name,
                 spec.target);
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
static int screen_key(struct session *s, int ch)
{
    if (ch == 12) { /* ^L, whatever is open: repaint every cell */
        clearok(curscr, TRUE);
        return KR_HANDLED | KR_REDRAW;
    }
    if (prompt.active) {
        if (ch == KEY_RESIZE)
            return KR_HANDLED | KR_REDRAW;
        if (prompt_key(&prompt, ch) != PROMPT_ACCEPTED || prompt.len == 0)
            return KR_HANDLED | KR_REDRAW;
        if (asking == ASK_GUEST)
            add_guest(s, prompt.text);
        else
            table_panel_toggle(&table, s, &jobs, prompt.text);
        return KR_HANDLED | KR_REDRAW;
    }
    int r = modes_key(&modes, s, &jobs, ch, table.status, sizeof(table.status));
    if (r == KR_IGNORED)
        r = archive_keys(&archives, s, ch, table.status, sizeof(table.status));
    if (r != KR_IGNORED)
        return r;
    switch (ch) {
    case 'g':
        asking = ASK_GUEST;
        prompt_open(&prompt, "add guest [NAME=]HOST[:PORT]: ");
        return KR_HANDLED | KR_REDRAW;
    case '\r':
    case '\n':
    case KEY_ENTER:
        asking = ASK_SOURCES;
        snprintf(sources_label, sizeof(sources_label),
                 "toggle sources (0-%d or names): ", s->nsrc - 1);
        prompt_open(&prompt, sources_label);
        return KR_HANDLED | KR_REDRAW;
    case 's':
        snapshot(s);
        return KR_HANDLED | KR_REDRAW;
    case 'y':
        syscalls_want(!syscalls_wanted());
        snprintf(table.status, sizeof(table.status), "%s",
                 syscalls_wanted()
                     ? "counting system calls: here as root, in guests "
                       "through pmdaparallax; paused while workloads run"
                     : "not counting system calls");
        return KR_HANDLED | KR_REDRAW;
    case 't':
        colors_cycle(table.status, sizeof(table.status));
        return KR_HANDLED | KR_REDRAW;
    case KEY_RESIZE:
    case 12: /* ^L */
        return KR_HANDLED | KR_REDRAW;
    default:
        return table_panel_key(&table, s, &jobs, ch);
    }
}

/* Reads every pending key; false when the user asked to quit. */
static bool handle_keys(struct session *s, bool *redraw)
{
    int ch;
    while ((ch = getch()) != ERR) {
        int r = screen_key(s, ch);
        if (r & KR_QUIT)
            return false;
        if (r & KR_REDRAW)
            *redraw = true;
    }
    return true;
}

/* Runs until q (returns 0) or a termination signal (returns it). */
static int main_loop(struct session *s, bool utf8)
{
    struct pollfd pfd[5] = {
        {.fd = STDIN_FILENO, .events = POLLIN},
        {.fd = session_fd(s), .events = POLLIN},
        {.fd = sig_pipe[0], .events = POLLIN},
        {.events = POLLIN}, /* the demo guests' boot.sh, while they talk */
        {.events = POLLIN}, /* the host's clock probe, while it runs */
    };
    modes_draw(&modes, s, &jobs, &table, prompt.active ? &prompt : NULL, utf8);
    for (;;) {
        /* redraws follow the samples (and keys): no timer of its own, so
         * the main thread wakes once per interval; the timeout only keeps
         * the states' ages moving if every source hangs */
        int timeout = (int)(s->interval * 1000) + 100;
        if (jobs_running(&jobs, -1) && timeout > 250)
            timeout = 250; /* runs report progress and end between samples */
        pfd[3].fd = demo_guests_fd(&demos);
        pfd[4].fd = host_probe_fd(&probe);
        int n = poll(pfd, 5, timeout);
        if (n < 0 && errno != EINTR)
            return 0;
        char sig;
        if (pfd[2].revents && read(sig_pipe[0], &sig, 1) == 1)
            return sig;
        /* the terminal went away without a SIGHUP reaching us */
        if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
            return SIGHUP;
        bool redraw = n == 0, keyed = false;
        /* a resize interrupts poll (EINTR): getch then says KEY_RESIZE */
        if ((pfd[0].revents || n < 0) && !handle_keys(s, &keyed))
            return 0;
        if (pfd[1].revents && session_update(s))
            redraw = true;
        if (jobs_update(&jobs, s))
            redraw = true;
        if (archives_tick(&archives, s, &jobs, table.status,
                          sizeof(table.status)))
            redraw = true;
        modes.badge = archives.rec ? "REC" : NULL;
        if (syscalls_failure_news(s, table.status, sizeof(table.status)))
            redraw = true;
        if (demo_step(s))
            redraw = true;
        if (!s->model[0].target[0] && /* this host's, not a remote host's */
            host_probe_step(&probe, &s->model[0], jobs_host_busy(&jobs)))
            redraw = true;
        if (keyed || (redraw && !modes_paused(&modes)))
            modes_draw(&modes, s, &jobs, &table, prompt.active ? &prompt : NULL,
                       utf8);
    }
}

int tui_signal_fd(void)
{
    return sig_pipe[0];
}

/* Stops the workloads this screen started and waits (2 s at most) for
 * the stores to be made, before the connections close. */
static void stop_jobs(struct session *s)
{
    jobs_stop_all(&jobs, s);
    double until = clock_mono() + 2;
    while (jobs_running(&jobs, -1) && clock_mono() < until) {
        struct pollfd pfd = {.fd = session_fd(s), .events = POLLIN};
        poll(&pfd, 1, 100);
        session_update(s);
        jobs_update(&jobs, s);
    }
}

int tui_pair_run(const struct source_spec *host,
                 const struct source_spec *guest,
                 const struct backend *const *backends, double interval,
                 bool utf8, char *err, size_t errlen)
{
    static struct session pair;
    if (session_open_pair(&pair, interval, host, guest, backends, err, errlen) <
        0)
        return -1;
    int repeats = jobs.opts.repeats;
    double lease = jobs.lease;
    jobs_init(&jobs);
    jobs.opts.repeats = repeats > 0 ? repeats : 3;
    if (lease > 0)
        jobs.lease = lease; /* --lease, as fleet_screen set it */
    memset(&table, 0, sizeof(table));
    snprintf(table.status, sizeof(table.status),
             "%s against its host %s through pmproxy's /pmapi; q goes back "
             "to the fleet",
             guest->name, host->name);
    int sig = main_loop(&pair, utf8);
    stop_jobs(&pair);
    modes_free(&modes);
    jobs_free(&jobs);
    session_close(&pair);
    return sig;
}

/* --fleet: the fleet screen in this lifecycle (signals, curses, log). */
static int fleet_screen(const struct options *o, tui_screen_fn *fleet,
                        bool utf8, int real_stderr)
{
    char err[256];
    jobs.opts.repeats = o->repeats;
    jobs.lease = o->lease;
    report_dir = o->report_dir;
    install_signals();
    curses_start();
    DIAG(DIAG_INFO, "started: the fleet at %s, interval %g s", o->fleet,
         o->interval);
    int sig = fleet(o, utf8, err, sizeof(err));
    curses_end();
    if (sig < 0)
        dprintf(real_stderr, "parallax: %s\n", err);
    if (real_stderr >= 0) {
        dup2(real_stderr, STDERR_FILENO);
        close(real_stderr);
    }
    return sig < 0 ? 1 : sig ? 128 + sig : 0;
}

int tui_run(const struct options *o, tui_screen_fn *fleet)
{
    char err[256];
    static struct session s;
    char theme_err[1024]; /* may list every theme */
    if (colors_select(o->theme, table.status, sizeof(table.status), theme_err,
                      sizeof(theme_err)) < 0) {
        fprintf(stderr, "parallax: %s\n", theme_err);
        return 2;
    }
    if (check_terminal(err, sizeof(err)) < 0) {
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    }
    if (pipe2(sig_pipe, O_NONBLOCK | O_CLOEXEC) < 0) {
        fprintf(stderr, "parallax: cannot create a pipe: %s\n",
                strerror(errno));
        return 1;
    }
    bool utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    int real_stderr = redirect_stderr();
    if (o->fleet)
        return fleet_screen(o, fleet, utf8, real_stderr);
    if (session_open(&s, o->interval, o->guests, o->nguests, err, sizeof(err)) <
        0) {
        dprintf(real_stderr, "parallax: %s\n", err);
        return 1;
    }
    jobs_init(&jobs);
    jobs.opts.repeats = o->repeats;
    jobs.lease = o->lease;
    report_dir = o->report_dir;
    if (baselines_open(&s, &jobs, o->baselines, o->nbaselines, err,
                       sizeof(err)) < 0 ||
        archives_open(&archives, &s, o, err, sizeof(err)) < 0) {
        dprintf(real_stderr, "parallax: %s\n", err);
        session_close(&s);
        return 2;
    }
    host_probe_init(&probe);
    if (o->ndemo && demo_guests_start(&demos, o->demo_variants, o->ndemo,
                                      real_stderr, err, sizeof(err)) < 0) {
        dprintf(real_stderr, "parallax: %s\n", err);
        session_close(&s);
        return 2;
    }
    install_signals();
    curses_start();
    DIAG(DIAG_INFO, "started: %d source%s, interval %g s", s.nsrc,
         s.nsrc == 1 ? "" : "s", s.interval);
    int sig = main_loop(&s, utf8);
    curses_end();
    modes_free(&modes);
    DIAG(DIAG_INFO, "quitting%s", sig ? " on a signal" : "");
    jobs_quit(&jobs, &s); /* here and in every guest */
    jobs_free(&jobs);     /* reaps this host's runs */
    archives_close(&archives);
    host_probe_stop(&probe);
    if (demos.n)
        dprintf(real_stderr, "parallax: stopping the demo guest%s\n",
                demos.n > 1 ? "s" : "");
    demo_guests_stop(&demos); /* boot.sh stops qemu */
    session_close(&s);
    if (real_stderr >= 0) {
        dup2(real_stderr, STDERR_FILENO);
        close(real_stderr);
    }
    if (archives_failed(&archives))
        fprintf(stderr, "parallax: %s\n", archives_failed(&archives));
    if (sig)
        return 128 + sig; /* the shell's convention for signals */
    return archives_failed(&archives) ? 1 : 0;
}
