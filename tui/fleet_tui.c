/* See fleet_tui.h. The loop waits (poll) on keys, on the poller's wake
 * pipe and on the signal pipe; the network is the poller's thread's and
 * each fleet run source's sampler's, never this loop's, so keys answer
 * while pmproxy hangs. A poll that does not come back within two
 * intervals turns the link to "no fleet data" (fleet_model_age). */
#include "tui/fleet_tui.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "collectors/sampler.h"
#include "core/selfcost.h"
#include "fleet/fleet_poll.h"
#include "fleet/fleet_run.h"
#include "fleet/http.h"
#include "fleet/pmapi_source.h"
#include "report/fleet_report.h"
#include "tui/colors.h"
#include "tui/fleet_keys.h"
#include "tui/fleet_panel.h"
#include "tui/help.h"
#include "tui/keybar.h"
#include "tui/lifecycle.h"
#include "tui/panel.h"
#include "tui/prompt.h"
#include "tui/run_status.h"
#include "tui/status.h"
#include "tui/title_bar.h"
#include "tui/tui.h"

struct fleet_screen {
    const struct options *o;
    struct fleet_model m;
    struct fleet_view v;
    struct fleet_run run;
    struct fleet_panel panel;
    struct fleet_poll *poll;
    struct selfcost self;
    struct help help;
    struct prompt prompt;
    enum { ASK_FILTER, ASK_RUN } asking;
    char run_label[64];
    unsigned message_seq;
    int wake[2];
    bool utf8;
};

static void draw_title(const struct fleet_screen *fs)
{
    char left[512], self[80];
    selfcost_format(&fs->self, true, self, sizeof(self));
    snprintf(left, sizeof(left), " parallax fleet - %s - every %g s - %s",
             fs->m.url, fs->o->interval, self);
    title_bar_draw(left);
}

/* The status row: the last action's outcome, else where the fleet
 * stands (pmproxy's trouble first). */
static void draw_status(struct fleet_screen *fs, double now)
{
    char summary[720];
    const char *text = fs->panel.status;
    if (!text[0] || fs->m.link == FLEET_LINK_DOWN) {
        fleet_view_summary(&fs->v, &fs->m, &fs->run, now, summary,
                           sizeof(summary));
        text = summary;
    }
    struct status_lines st;
    status_fit(text, COLS - 2, 0, &st);
    int attr =
        colors_attr(fs->m.link == FLEET_LINK_DOWN ? ROLE_DOWN : ROLE_STATUS);
    attron(attr);
    if (st.rows)
        mvaddnstr(1, 1, st.line[0], COLS - 2);
    attroff(attr);
}

static void draw(struct fleet_screen *fs)
{
    double now = clock_mono();
    erase();
    if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS) {
        char msg[80];
        snprintf(msg, sizeof(msg), "terminal %dx%d is too small: need %dx%d",
                 COLS, LINES, TUI_MIN_COLS, TUI_MIN_ROWS);
        mvaddnstr(LINES / 2, 0, msg, COLS);
        refresh();
        return;
    }
    draw_title(fs);
    fleet_panel_draw(&fs->panel, &fs->v, &fs->m, &fs->run, 2, LINES - 3, now,
                     fs->utf8);
    if (fs->prompt.active)
        prompt_draw(&fs->prompt, 1);
    else
        draw_status(fs, now);
    keybar_draw_keys(LINES - 1, fleet_key_docs, fleet_key_docs_count);
    if (fs->help.open)
        help_draw(&fs->help, 2, LINES - 2, fs->utf8);
    curs_set(fs->prompt.active);
    refresh();
}

/* s: the fleet report, text and JSON, into the report directory. */
static void save_report(struct fleet_screen *fs)
{
    char path[4096], err[512];
    int rc = fleet_report_save(fs->o->report_dir, &fs->v, &fs->m, &fs->run,
                               path, sizeof(path), err, sizeof(err));
    status_saved(rc, path, err, fs->panel.status, sizeof(fs->panel.status));
}

static void start_run(struct fleet_screen *fs, const char *what)
{
    char err[400];
    int *chosen = malloc(sizeof(int) * (size_t)(fs->v.nrows + 1));
    int n = chosen ? fleet_view_chosen(&fs->v, chosen, fs->v.nrows) : 0;
    int rc = fleet_run_start(&fs->run, &fs->m, chosen, n, what, fs->o->repeats,
                             fs->o->fleet_jobs, err, sizeof(err));
    free(chosen);
    if (rc < 0) {
        snprintf(fs->panel.status, sizeof(fs->panel.status), "%s", err);
        return;
    }
    fs->v.wl = fs->run.wl[fs->run.nwl - 1];
    snprintf(fs->panel.status, sizeof(fs->panel.status),
             "running %s on %d guests and their hosts, %d at a time", what, n,
             fs->run.concurrency);
}

static void set_filter(struct fleet_screen *fs, const char *text)
{
    char err[200];
    struct fleet_filter f;
    if (fleet_filter_parse(text, &f, err, sizeof(err)) < 0) {
        snprintf(fs->panel.status, sizeof(fs->panel.status), "%s", err);
        return;
    }
    fs->v.filter = f;
    snprintf(fs->v.filter_text, sizeof(fs->v.filter_text), "%s", text);
    snprintf(fs->panel.status, sizeof(fs->panel.status), "%s%s",
             text[0] ? "filter: " : "no filter", text);
}

/* Enter: the selected guest against its host on the familiar screen. */
static int drill_in(struct fleet_screen *fs)
{
    int i = fleet_panel_selected(&fs->panel, &fs->v);
    if (i < 0)
        return 0;
    const struct fleet_source *g = &fs->m.src[i];
    if (g->host < 0) {
        snprintf(fs->panel.status, sizeof(fs->panel.status),
                 "%s has no host in the fleet (label parallax_host)",
                 g->lab.name);
        return 0;
    }
    const struct fleet_source *h = &fs->m.src[g->host];
    struct source_spec host, guest;
    char err[256];
    snprintf(host.name, sizeof(host.name), "%s", h->lab.name);
    snprintf(host.target, sizeof(host.target), "%s", h->lab.pmcd);
    snprintf(guest.name, sizeof(guest.name), "%s", g->lab.name);
    snprintf(guest.target, sizeof(guest.target), "%s", g->lab.pmcd);
    pmapi_source_set_url(fs->m.url);
    int sig = tui_pair_run(fs->o, &host, &guest, pmapi_backends, fs->utf8, err,
                           sizeof(err));
    if (sig < 0)
        snprintf(fs->panel.status, sizeof(fs->panel.status), "%s", err);
    else
        snprintf(fs->panel.status, sizeof(fs->panel.status),
                 "back from %s against %s", g->lab.name, h->lab.name);
    clearok(curscr, TRUE);
    return sig > 0 ? sig : 0;
}

static int prompt_answered(struct fleet_screen *fs)
{
    if (fs->asking == ASK_FILTER)
        set_filter(fs, fs->prompt.text);
    else if (fs->prompt.len > 0)
        start_run(fs, fs->prompt.text);
    return KR_HANDLED | KR_REDRAW;
}

/* One key; KR_QUIT to quit. *sig gets a signal ended by a drill-in. */
static int screen_key(struct fleet_screen *fs, int ch, int *sig)
{
    if (ch == 12) { /* ^L */
        clearok(curscr, TRUE);
        return KR_HANDLED | KR_REDRAW;
    }
    if (fs->prompt.active) {
        enum prompt_result pr = prompt_key(&fs->prompt, ch);
        return pr == PROMPT_ACCEPTED ? prompt_answered(fs)
                                     : KR_HANDLED | KR_REDRAW;
    }
    if (fs->help.open)
        return help_key(&fs->help, ch);
    fs->panel.status[0] = '\0';
    switch (ch) {
    case 'q':
    case KEY_F(10):
        return KR_QUIT;
    case KEY_F(1):
    case 'h':
    case '?':
        help_open_keys(&fs->help, fleet_key_docs, fleet_key_docs_count);
        return KR_HANDLED | KR_REDRAW;
    case '/':
    case 'f':
        fs->asking = ASK_FILTER;
        prompt_open(&fs->prompt, "filter (host: kernel: variant: name: "
                                 "state: role:): ");
        return KR_HANDLED | KR_REDRAW;
    case 'w': {
        int marked = 0;
        for (int k = 0; k < fs->v.nrows; k++)
            marked += fleet_view_marked(&fs->v, fs->v.row[k]);
        fs->asking = ASK_RUN;
        snprintf(fs->run_label, sizeof(fs->run_label),
                 "run on %d guests (suite or workloads): ",
                 marked ? marked : fs->v.nrows);
        prompt_open(&fs->prompt, fs->run_label);
        return KR_HANDLED | KR_REDRAW;
    }
    case 'x':
        fleet_run_stop(&fs->run);
        snprintf(fs->panel.status, sizeof(fs->panel.status),
                 "stopping the fleet run");
        return KR_HANDLED | KR_REDRAW;
    case 's':
        save_report(fs);
        return KR_HANDLED | KR_REDRAW;
    case 't':
        colors_cycle(fs->panel.status, sizeof(fs->panel.status));
        return KR_HANDLED | KR_REDRAW;
    case '\r':
    case '\n':
    case KEY_ENTER:
        *sig = drill_in(fs);
        return *sig ? KR_QUIT : KR_HANDLED | KR_REDRAW;
    case KEY_RESIZE:
        return KR_HANDLED | KR_REDRAW;
    default:
        return fleet_panel_key(&fs->panel, &fs->v, ch);
    }
}

/* Folds in what arrived; true when the screen changed. */
static bool update(struct fleet_screen *fs)
{
    char drain[64];
    while (read(fs->wake[0], drain, sizeof(drain)) > 0)
        ;
    double now = clock_mono();
    const struct fleet_raw *raw = fleet_poll_take(fs->poll);
    enum fleet_link was = fs->m.link;
    if (raw) {
        fleet_model_update(&fs->m, raw, now);
        selfcost_tick(&fs->self, 0.9 * fs->o->interval);
    } else {
        fleet_model_age(&fs->m, now);
    }
    bool changed = raw || was != fs->m.link;
    changed |= fleet_run_update(&fs->run, &fs->m, now);
    if (fs->run.message_seq != fs->message_seq) {
        fs->message_seq = fs->run.message_seq;
        snprintf(fs->panel.status, sizeof(fs->panel.status), "%s",
                 fs->run.message);
    }
    return changed;
}

static int loop(struct fleet_screen *fs)
{
    struct pollfd pfd[3] = {
        {.fd = STDIN_FILENO, .events = POLLIN},
        {.fd = fs->wake[0], .events = POLLIN},
        {.fd = tui_signal_fd(), .events = POLLIN},
    };
    fleet_view_build(&fs->v, &fs->m, &fs->run);
    draw(fs);
    for (;;) {
        int timeout =
            fs->run.active ? 250 : (int)(fs->o->interval * 1000) + 100;
        int n = poll(pfd, 3, timeout);
        if (n < 0 && errno != EINTR)
            return 0;
        int sig = tui_signal_taken(&pfd[2]);
        if (sig)
            return sig;
        bool redraw = update(fs) || n == 0;
        if (pfd[0].revents || n < 0) {
            int ch, drill_sig = 0;
            while ((ch = getch()) != ERR) {
                int r = screen_key(fs, ch, &drill_sig);
                if (r & KR_QUIT)
                    return drill_sig;
                redraw |= (r & KR_REDRAW) != 0;
            }
        }
        if (redraw) {
            fleet_view_build(&fs->v, &fs->m, &fs->run);
            draw(fs);
        }
    }
}

/* The fleet screen, inside the terminal's lifecycle: until q (0) or a
 * termination signal (returned); -1 with one line in err when it cannot
 * start. */
static int run_screen(const struct options *o, bool utf8, char *err,
                      size_t errlen)
{
    static struct fleet_screen fs;
    fs.o = o;
    fs.utf8 = utf8;
    fleet_view_init(&fs.v);
    if (o->fleet_filter) {
        fleet_filter_parse(o->fleet_filter, &fs.v.filter, err, errlen);
        snprintf(fs.v.filter_text, sizeof(fs.v.filter_text), "%s",
                 o->fleet_filter);
    }
    fleet_model_init(&fs.m, o->fleet, o->interval);
    selfcost_init(&fs.self);
    if (http_global_init(err, errlen) < 0)
        return -1;
    if (pipe2(fs.wake, O_NONBLOCK | O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot set up the network client");
        return -1;
    }
    fleet_run_set_wake(&fs.run, fs.wake[1]);
    fleet_run_set_lease(&fs.run, o->lease);
    fs.poll = fleet_poll_start(o->fleet, o->interval, fs.wake[1]);
    if (!fs.poll) {
        snprintf(err, errlen, "cannot start a thread");
        return -1;
    }
    int sig = loop(&fs);
    if (fs.run.active) {
        snprintf(fs.panel.status, sizeof(fs.panel.status),
                 "stopping the fleet run before quitting");
        draw(&fs);
    }
    fleet_run_free(&fs.run); /* stops what it started */
    fleet_poll_stop(fs.poll);
    fleet_model_free(&fs.m);
    fleet_view_free(&fs.v);
    close(fs.wake[0]);
    close(fs.wake[1]);
    return sig;
}

int fleet_tui_run(const struct options *o)
{
    char err[256], theme_note[RUN_STATUS_MAX];
    struct tui_life life;
    /* the theme's note: the main screen shows it, this one never did */
    int rc = tui_life_open(&life, o, theme_note, sizeof(theme_note));
    if (rc)
        return rc;
    tui_life_begin();
    DIAG(DIAG_INFO, "started: the fleet at %s, interval %g s", o->fleet,
         o->interval);
    int sig = run_screen(o, life.utf8, err, sizeof(err));
    tui_life_end();
    if (sig < 0)
        tui_life_say(&life, err);
    tui_life_close(&life);
    return sig < 0 ? 1 : sig ? 128 + sig : 0;
}
