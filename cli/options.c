/* See options.h. getopt_long from glibc does the parsing; numbers are
 * checked whole (no trailing junk) and against their bounds. */
#include "cli/options.h"

#include "collectors/backend.h"
#include "collectors/syscalls_switch.h"
#include "fleet/fleet_run.h"
#include "guest/demo_guest.h"
#include "view/fleet_view.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void options_usage(FILE *f)
{
    fprintf(f,
            "Usage: parallax [OPTION]...\n"
            "Show this host and its guests side by side, live.\n"
            "\n"
            "  -h, --host=[NAME=]HOST[:PORT]\n"
            "                          add a guest (or another host) running "
            "pmcd;\n"
            "                          repeatable; NAME labels its column\n"
            "      --demo-guest[=VARIANTS]\n"
            "                          boot parallax's own micro-VM (make "
            "guest) and\n"
            "                          watch it; VARIANTS: icount, cpus=1|2, "
            "mem=SIZE,\n"
            "                          clock=host|rtc (comma-separated)\n"
            "      --baseline=[LABEL=]FILE\n"
            "                          show a saved JSON report as a fixed "
            "column\n"
            "                          (repeatable), with ratios like a "
            "guest's\n"
            "      --batch=SUITE|WL[,WL...]\n"
            "                          run a suite or workloads on every "
            "source, one\n"
            "                          after another, print the report and "
            "exit\n"
            "                          (0 only when every run completed)\n"
            "  -r, --repeats=N         repeats of each workload run "
            "(default 3)\n"
            "  -o, --output=FILE       with --batch: the text report goes "
            "here, the\n"
            "                          JSON next to it (default: stdout, "
            "JSON in\n"
            "                          the report directory)\n"
            "      --report-dir=DIR    where s and --batch save reports "
            "(default\n"
            "                          $XDG_STATE_HOME/parallax or "
            "~/.local/state/parallax)\n"
            "      --theme=NAME        colour theme: default, light, "
            "mono,\n"
            "                          high-contrast, or one of your own "
            "(themes/README);\n"
            "                          t on the live screen switches\n"
            "      --local=READER      how this host is read: proc (default: "
            "/proc,\n"
            "                          directly), pcp (PCP's local context), "
            "gtop\n"
            "                          (libgtop); each falls back to the "
            "next\n"
            "      --syscalls          count system calls from the start "
            "(the y key\n"
            "                          toggles it): the syscalls/s row; "
            "while on, every\n"
            "                          system call on the host and guests "
            "costs more\n"
            "      --fleet=URL         watch the hosts and guests a pmproxy "
            "knows\n"
            "                          (http://HOST:PORT) through its "
            "/series, one\n"
            "                          row per guest (docs/fleet.md); with "
            "--batch,\n"
            "                          run on the guests shown and write a "
            "fleet report\n"
            "      --fleet-filter=EXPR the guests shown (and run): host:H "
            "kernel:K\n"
            "                          variant:V name:N state:S role:R "
            "(globs)\n"
            "      --fleet-jobs=N      sources a fleet run takes at once "
            "(default %d)\n"
            "  -t, --interval=SECONDS  time between samples (default 1; "
            "%.1f to %.0f)\n"
            "      --text              print plain text refreshes on stdout "
            "instead\n"
            "                          of the full-screen view\n"
            "  -n, --samples=N         with --text: stop after N refreshes\n"
            "  -v, --verbose           more in the log "
            "($XDG_STATE_HOME/parallax/parallax.log\n"
            "                          on the live screen, else stderr): "
            "state changes,\n"
            "                          workloads, snapshots; twice: every "
            "fetch's timing\n"
            "  -V, --version           print the version and exit\n"
            "  -?, --help              print this help and exit\n"
            "\n"
            "Keys on the live screen: F1 (or h, ?) lists them all; q quits.\n",
            FLEET_CONCURRENCY, INTERVAL_MIN, INTERVAL_MAX);
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static bool parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0')
        return false;
    *out = v;
    return true;
}

/* --fleet, --fleet-filter, --fleet-jobs. 0, or -1 with err. */
static int fleet_option(int c, const char *arg, struct options *o, char *err,
                        size_t errlen)
{
    struct fleet_filter f;
    long n;
    switch (c) {
    case 'F':
        if (strncmp(arg, "http://", 7) != 0 &&
            strncmp(arg, "https://", 8) != 0) {
            snprintf(err, errlen,
                     "--fleet '%s' is not a pmproxy URL; try --fleet "
                     "http://HOST:44322",
                     arg);
            return -1;
        }
        o->fleet = arg;
        return 0;
    case 'E':
        if (fleet_filter_parse(arg, &f, err, errlen) < 0)
            return -1;
        o->fleet_filter = arg;
        return 0;
    default:
        if (!parse_long(arg, &n) || n < 1 || n > 64) {
            snprintf(err, errlen,
                     "--fleet-jobs '%s' is not a whole number from 1 to 64; "
                     "try --fleet-jobs 4",
                     arg);
            return -1;
        }
        o->fleet_jobs = (int)n;
        return 0;
    }
}

/* What --fleet cannot go with, and what needs it. */
static int fleet_check(const struct options *o, char *err, size_t errlen)
{
    if (!o->fleet && (o->fleet_filter || o->fleet_jobs)) {
        snprintf(err, errlen,
                 "--fleet-filter and --fleet-jobs need --fleet "
                 "URL");
        return -1;
    }
    if (o->fleet && (o->nguests || o->demo_guest || o->nbaselines)) {
        snprintf(err, errlen,
                 "--fleet reads its sources from pmproxy; drop -h, "
                 "--demo-guest and --baseline (or run without --fleet)");
        return -1;
    }
    return 0;
}

enum options_action options_parse(int argc, char **argv, struct options *o,
                                  char *err, size_t errlen)
{
    static const struct option longopts[] = {
        {"host", required_argument, NULL, 'h'},
        {"demo-guest", optional_argument, NULL, 'D'},
        {"baseline", required_argument, NULL, 'B'},
        {"batch", required_argument, NULL, 'b'},
        {"repeats", required_argument, NULL, 'r'},
        {"output", required_argument, NULL, 'o'},
        {"report-dir", required_argument, NULL, 'R'},
        {"theme", required_argument, NULL, 'C'},
        {"local", required_argument, NULL, 'L'},
        {"syscalls", no_argument, NULL, 'S'},
        {"interval", required_argument, NULL, 't'},
        {"samples", required_argument, NULL, 'n'},
        {"text", no_argument, NULL, 'T'},
        {"verbose", no_argument, NULL, 'v'},
        {"version", no_argument, NULL, 'V'},
        {"help", no_argument, NULL, 'H'},
        {"fleet", required_argument, NULL, 'F'},
        {"fleet-filter", required_argument, NULL, 'E'},
        {"fleet-jobs", required_argument, NULL, 'J'},
        {0, 0, 0, 0},
    };
    memset(o, 0, sizeof(*o));
    o->interval = 1.0;
    o->repeats = 3;
    o->local = "proc";
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h:t:n:r:o:vV?", longopts, NULL)) !=
           -1) {
        switch (c) {
        case 'h':
            if (o->nguests == OPTIONS_MAX_GUESTS) {
                snprintf(err, errlen, "more than %d guests; watch fewer",
                         OPTIONS_MAX_GUESTS);
                return OPT_ERROR;
            }
            if (source_spec_parse(optarg, &o->guests[o->nguests], err, errlen) <
                0)
                return OPT_ERROR;
            o->nguests++;
            break;
        case 't':
            if (!parse_double(optarg, &o->interval) ||
                o->interval < INTERVAL_MIN || o->interval > INTERVAL_MAX) {
                snprintf(err, errlen,
                         "interval '%s' is not a number of seconds from "
                         "%.1f to %.0f; try -t 1",
                         optarg, INTERVAL_MIN, INTERVAL_MAX);
                return OPT_ERROR;
            }
            break;
        case 'n':
            if (!parse_long(optarg, &o->samples) || o->samples <= 0) {
                snprintf(err, errlen,
                         "samples '%s' is not a positive whole number; "
                         "try -n 5",
                         optarg);
                return OPT_ERROR;
            }
            break;
        case 'T':
            o->text = true;
            break;
        case 'B':
            if (o->nbaselines == OPTIONS_MAX_BASELINES) {
                snprintf(err, errlen, "more than %d baselines; show fewer",
                         OPTIONS_MAX_BASELINES);
                return OPT_ERROR;
            }
            o->baselines[o->nbaselines++] = optarg;
            break;
        case 'b':
            o->batch = optarg;
            break;
        case 'o':
            o->output = optarg;
            break;
        case 'R':
            o->report_dir = optarg;
            break;
        case 'S':
            o->syscalls = true;
            break;
        case 'L':
            if (!local_backends_choose(optarg)) {
                snprintf(err, errlen,
                         "--local '%s' is not a way to read this host; "
                         "use proc, pcp or gtop",
                         optarg);
                return OPT_ERROR;
            }
            o->local = optarg;
            break;
        case 'C': /* checked against the themes when the screen starts */
            o->theme = optarg;
            break;
        case 'r': {
            long r;
            if (!parse_long(optarg, &r) || r < 1 || r > REPEATS_MAX) {
                snprintf(err, errlen,
                         "repeats '%s' is not a whole number from 1 to %d; "
                         "try -r 3",
                         optarg, REPEATS_MAX);
                return OPT_ERROR;
            }
            o->repeats = (int)r;
            break;
        }
        case 'D': {
            char *argv_[32], buf[512];
            o->demo_guest = true;
            snprintf(o->demo_variants, sizeof(o->demo_variants), "%s",
                     optarg ? optarg : "");
            if (demo_guest_args(o->demo_variants, argv_, 32, buf, sizeof(buf),
                                err, errlen) < 0)
                return OPT_ERROR;
            break;
        }
        case 'F':
        case 'E':
        case 'J':
            if (fleet_option(c, optarg, o, err, errlen) < 0)
                return OPT_ERROR;
            break;
        case 'v':
            o->verbose++;
            break;
        case 'V':
            return OPT_VERSION;
        case ':':
            snprintf(err, errlen, "option '%s' needs a value; see --help",
                     argv[optind - 1]);
            return OPT_ERROR;
        case 'H':
            return OPT_HELP;
        case '?': /* "-?" itself, or an option getopt does not know */
            if (strcmp(argv[optind - 1], "-?") == 0)
                return OPT_HELP;
            if (optopt)
                snprintf(err, errlen, "unknown option '-%c'; see --help",
                         optopt);
            else
                snprintf(err, errlen, "unknown option '%s'; see --help",
                         argv[optind - 1]);
            return OPT_ERROR;
        }
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s'; see --help",
                 argv[optind]);
        return OPT_ERROR;
    }
    if (o->output && !o->batch) {
        snprintf(err, errlen, "--output names the --batch report; add --batch");
        return OPT_ERROR;
    }
    if (o->batch && o->text) {
        snprintf(err, errlen,
                 "--batch and --text are two different modes; "
                 "choose one");
        return OPT_ERROR;
    }
    if (o->samples && !o->text) {
        snprintf(err, errlen, "-n counts --text refreshes; add --text");
        return OPT_ERROR;
    }
    if (fleet_check(o, err, errlen) < 0)
        return OPT_ERROR;
    local_backends_choose(o->local); /* the default too, on every parse */
    syscalls_want(o->syscalls);
    return OPT_RUN;
}
