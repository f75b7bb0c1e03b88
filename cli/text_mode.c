/* See text_mode.h. Waits on the session's wake pipe, never on a sleep. The
 * host's samples are the clock: after each, the guests get a short grace to
 * deliver theirs, then one refresh is printed. */
#include "cli/text_mode.h"
#include "base/clock.h"
#include "cli/quit_signals.h"

#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli/archives.h"
#include "cli/csv_out.h"
#include "cli/front_start.h"
#include "guest/demo_guests.h"
#include "session/host_probe.h"
#include "session/session.h"
#include "view/text_view.h"
#include "view/vm_text.h"

#define FIRST_ANSWER_WAIT 15.0 /* s: a slow guest's first connection */

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static struct host_probe probe;
static struct archives archives;
static struct jobs jobs; /* holds the baselines' workload figures */

/* Waits up to `timeout` seconds (< 0: for ever) for samples and folds them
 * in. False when interrupted by a stop request. */
static bool wait_samples(struct session *s, double timeout)
{
    struct pollfd pfd[2] = {{.fd = session_fd(s), .events = POLLIN},
                            {.fd = host_probe_fd(&probe), .events = POLLIN}};
    int ms = timeout < 0 ? -1 : (int)ceil(timeout * 1000);
    if (poll(pfd, 2, ms) < 0 && errno != EINTR)
        return false;
    session_update(s);
    host_probe_step(&probe, &s->model[0], false);
    char msg[512];
    if (archives_tick(&archives, s, &jobs, msg, sizeof(msg)))
        fprintf(stderr, "parallax: %s\n", msg);
    return !stop_requested;
}

/* True when every source that has answered once has rates (two good
 * samples) or is down: one that never answered (a connect that hangs)
 * does not hold the first refresh back, which is due with the host's;
 * sources from `answers` on (demo guests, whose pmcd answered as they
 * booted) are waited for from their first sample. */
static bool all_answered(const struct session *s, int answers)
{
    for (int i = 0; i < s->nsrc; i++)
        if (!session_is_fixed(s, i) && s->model[i].state != SRC_DOWN &&
            (s->model[i].samples == 1 ||
             (i >= answers && s->model[i].samples == 0)))
            return false;
    return true;
}

/* True when every guest has news since `seen` (updates counts). */
static bool guests_caught_up(const struct session *s, const unsigned long *seen)
{
    for (int i = 1; i < s->nsrc; i++)
        if (!session_is_fixed(s, i) && s->model[i].updates == seen[i])
            return false;
    return true;
}

/* The width to print in: COLUMNS when it is a number (the shell's, or
 * the user's), else the terminal's; 0 when neither says (a pipe). */
static int output_columns(void)
{
    const char *env = getenv("COLUMNS");
    char *end;
    long c = env ? strtol(env, &end, 10) : 0;
    if (env && *env && *end == '\0' && c > 0 && c < 10000)
        return (int)c;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 0;
}

int text_mode_run(const struct options *o)
{
    char err[256];
    static struct session s;
    static unsigned long seen[SESSION_MAX_SOURCES];
    static struct demo_guests demos;
    bool utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    /* -F FILE: the output there; -o csv: CSV rows instead of the table */
    struct csv_out csv = {0};
    FILE *out = stdout;
    if (o->output_file && !o->csv && !(out = fopen(o->output_file, "w"))) {
        fprintf(stderr, "parallax: -F %s: %s\n", o->output_file,
                strerror(errno));
        return 2;
    }
    if (o->csv &&
        csv_out_open(&csv, o->output_file, stdout, err, sizeof(err)) < 0) {
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    }
    quit_signals_install(on_stop);
    front_jobs_init(&jobs, o);
    int rc = front_start(&s, &jobs, &archives, o, err, sizeof(err));
    if (rc) {
        fprintf(stderr, "parallax: %s\n", err);
        return rc;
    }
    int answers = s.nsrc; /* the demo guests come after the others */
    if (o->ndemo && demo_guests_join(&demos, &s, o->demo_variants, o->ndemo,
                                     stderr, &stop_requested) < 0) {
        demo_guests_stop(&demos);
        session_close(&s);
        return 1;
    }
    host_probe_init(&probe);
    host_probe_step(&probe, &s.model[0], false);
    long printed = 0;
    int columns = output_columns();
    double first_deadline = clock_mono() + FIRST_ANSWER_WAIT;
    double grace = fmin(0.25 * o->interval, 0.5);
    while (!stop_requested && (o->samples == 0 || printed < o->samples)) {
        if (!wait_samples(&s, -1))
            break;
        if (s.model[0].updates == seen[0])
            continue; /* a guest's sample: wait for the host's tick */
        double until = clock_mono() + grace;
        while (!guests_caught_up(&s, seen) && clock_mono() < until)
            if (!wait_samples(&s, until - clock_mono()))
                break;
        for (int i = 0; i < s.nsrc; i++)
            seen[i] = s.model[i].updates;
        /* the first good sample only sets the base for rates; the first
         * refresh also waits (a while) for every guest's first answer */
        if (s.model[0].samples <= 1)
            continue;
        if (!printed && !all_answered(&s, answers) &&
            clock_mono() < first_deadline)
            continue;
        if (o->csv) {
            csv_out_row(&csv, &s);
        } else {
            if (!printed)
                text_view_legend(out, columns, utf8);
            /* one refresh, one block: the host's view ends it */
            text_view_print_open(out, s.model, s.nsrc, s.interval, columns,
                                 utf8);
            vm_text_print(out, &s, columns, utf8);
            fflush(out);
        }
        printed++;
    }
    rc = 0;
    if (csv_out_close(&csv, err, sizeof(err)) < 0 ||
        (out != stdout && fclose(out) != 0 &&
         snprintf(err, sizeof(err), "-F %s: %s", o->output_file,
                  strerror(errno)))) {
        fprintf(stderr, "parallax: %s\n", err);
        rc = 1;
    }
    host_probe_stop(&probe);
    archives_close(&archives);
    demo_guests_stop(&demos);
    session_close(&s);
    if (archives_failed(&archives))
        rc = 1; /* said when it stopped */
    return rc;
}
