/* See text_mode.h. Waits on the session's wake pipe, never on a sleep:
 * a refresh is printed when every source has delivered a new sample. */
#include "core/text_mode.h"

#include <errno.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "core/session.h"
#include "core/text_view.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    (void)sig;
    stop_requested = 1;
}

int text_mode_run(const struct options *o)
{
    char err[256];
    static struct session s;
    bool utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    struct sigaction sa = {.sa_handler = on_stop};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (session_open(&s, o->interval, err, sizeof(err)) < 0) {
        fprintf(stderr, "parallax: %s\n", err);
        return 1;
    }
    long printed = 0;
    unsigned long seen = 0;
    struct pollfd pfd = {.fd = session_fd(&s), .events = POLLIN};
    while (!stop_requested && (o->samples == 0 || printed < o->samples)) {
        if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
            break;
        if (!session_update(&s))
            continue;
        /* the first good sample only sets the base for rates */
        const struct source_model *host = &s.model[0];
        if (host->state == SRC_LIVE && host->samples == 1 && seen == 0) {
            seen = 1;
            continue;
        }
        text_view_print(stdout, s.model, s.nsrc, s.interval, utf8);
        printed++;
    }
    session_close(&s);
    return 0;
}
