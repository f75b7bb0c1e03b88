/* See lifecycle.h. */
#include "tui/lifecycle.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/quit_signals.h"
#include "tui/colors.h"

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

int tui_signal_fd(void)
{
    return sig_pipe[0];
}

int tui_signal_taken(const struct pollfd *p)
{
    char sig;
    return p->revents && read(p->fd, &sig, 1) == 1 ? sig : 0;
}

int tui_life_open(struct tui_life *l, const struct options *o, char *status,
                  size_t n)
{
    char err[256];
    char theme_err[1024]; /* may list every theme */
    l->real_stderr = -1;
    if (colors_select(o->theme, status, n, theme_err, sizeof(theme_err)) < 0) {
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
    l->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    l->real_stderr = redirect_stderr();
    return 0;
}

void tui_life_begin(void)
{
    install_signals();
    curses_start();
}

void tui_life_end(void)
{
    curses_end();
}

void tui_life_say(const struct tui_life *l, const char *msg)
{
    dprintf(l->real_stderr >= 0 ? l->real_stderr : STDERR_FILENO,
            "parallax: %s\n", msg);
}

void tui_life_close(struct tui_life *l)
{
    if (l->real_stderr >= 0) {
        dup2(l->real_stderr, STDERR_FILENO);
        close(l->real_stderr);
        l->real_stderr = -1;
    }
}
