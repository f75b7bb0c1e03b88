/* See fleet_text.h. Waits on the poller's wake pipe, never on a sleep;
 * the first refreshes wait for rates (two records of each source). */
#include "cli/fleet_text.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "fleet/fleet_poll.h"
#include "fleet/http.h"
#include "view/fleet_table.h"

#define FIRST_WAIT 15.0 /* s for rates before the first refresh anyway */

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    (void)sig;
    stop_requested = 1;
}

int fleet_text_run(const struct options *o)
{
    static struct fleet_model m;
    static struct fleet_view v;
    char err[256];
    int wake[2];
    bool utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    struct sigaction sa = {.sa_handler = on_stop};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    fleet_view_init(&v);
    if (o->fleet_filter &&
        fleet_filter_parse(o->fleet_filter, &v.filter, err, sizeof(err)) < 0) {
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    }
    char herr[256];
    if (http_global_init(herr, sizeof(herr)) < 0) {
        fprintf(stderr, "parallax: %s\n", herr);
        return 1;
    }
    if (pipe2(wake, O_NONBLOCK | O_CLOEXEC) < 0) {
        fprintf(stderr, "parallax: cannot set up the network client\n");
        return 1;
    }
    fleet_model_init(&m, o->fleet, o->interval);
    struct fleet_poll *p = fleet_poll_start(o->fleet, o->interval, wake[1]);
    if (!p) {
        fprintf(stderr, "parallax: cannot start a thread\n");
        return 1;
    }
    long printed = 0;
    double first = clock_mono() + FIRST_WAIT;
    while (!stop_requested && (o->samples == 0 || printed < o->samples)) {
        struct pollfd pfd = {.fd = wake[0], .events = POLLIN};
        int n = poll(&pfd, 1, (int)(o->interval * 1000) + 100);
        if (n < 0 && errno != EINTR)
            break;
        char drain[64];
        while (read(wake[0], drain, sizeof(drain)) > 0)
            ;
        double now = clock_mono();
        const struct fleet_raw *raw = fleet_poll_take(p);
        if (raw)
            fleet_model_update(&m, raw, now);
        else
            fleet_model_age(&m, now);
        if (!raw && m.link != FLEET_LINK_DOWN)
            continue;
        if (!printed && m.link != FLEET_LINK_DOWN && !fleet_model_ready(&m) &&
            now < first)
            continue;
        fleet_view_build(&v, &m, NULL);
        fleet_table_print(stdout, &v, &m, NULL, now, utf8);
        printed++;
    }
    fleet_poll_stop(p);
    fleet_model_free(&m);
    fleet_view_free(&v);
    close(wake[0]);
    close(wake[1]);
    return 0;
}
