/* See options.h. getopt_long from glibc does the parsing; numbers are
 * decimal, checked whole (params_decimal) and against their bounds; an
 * argument that is not printable text is refused before anything else, so
 * what the options hold (and errors echo) is safe on a terminal; echoes
 * are cut short, so that the reason after them stays. */
#include "cli/options.h"

#include "base/safe_text.h"
#include "collectors/backend.h"
#include "collectors/syscalls_switch.h"
#include "fleet/fleet_run.h"
#include "guest/demo_guest.h"
#include "session/lease.h"
#include "theme/theme_path.h"
#include "view/fleet_view.h"
#include "workloads/params.h"

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
            "  -h, --host=[NAME=]HOST[:PORT][,pid=N]\n"
            "                          add a guest (or another host) running "
            "pmcd;\n"
            "                          pid=N: the process here that runs it "
            "(its VM)\n"
            "                          repeatable; NAME labels its column; an "
            "IPv6\n"
            "                          address goes in brackets: "
            "[::1]:44321\n"
            "      --demo-guest[=VARIANTS]\n"
            "                          boot parallax's own micro-VM (make "
            "guest) and\n"
            "                          watch it; repeatable, one column "
            "each;\n"
            "                          VARIANTS (comma-separated): uml (User-"
            "Mode\n"
            "                          Linux: the kernel as a host process), "
            "kernel=\n"
            "                          6.1|6.12|6.12-rt (CFS, EEVDF, "
            "PREEMPT_RT; fetched\n"
            "                          through apt), icount[=fast|slow] "
            "(the guest's\n"
            "                          clock runs fast: 50-850x real time "
            "idle, 3-10x\n"
            "                          busy; or slow while busy, as a "
            "userland kernel's),\n"
            "                          cpus=1|2, mem=SIZE, clock=host|rtc\n"
            "      --baseline=[LABEL=]FILE[:SOURCE]\n"
            "                          show a saved JSON report or a PCP "
            "archive as a\n"
            "                          fixed column (repeatable), with ratios "
            "like a\n"
            "                          guest's; SOURCE: which of its sources "
            "(default\n"
            "                          the first, this host of that run)\n"
            "  -a, --archive=[NAME=]ARCHIVE\n"
            "                          replay a recording as columns next to "
            "the live\n"
            "                          ones (repeatable): a --record "
            "directory (a column\n"
            "                          per source), one source's directory "
            "or archive,\n"
            "                          or pmlogger's; keys , . [ ] n control "
            "it\n"
            "      --record=DIR        record every live source into DIR as "
            "PCP\n"
            "                          archives, one per source (DIR/SOURCE/"
            "STAMP; r\n"
            "                          starts and stops it on the live "
            "screen)\n"
            "      --batch=SUITE|WL[,WL...]\n"
            "                          run a suite or workloads on every "
            "source, one\n"
            "                          after another, print the report and "
            "exit\n"
            "                          (0 only when every run completed)\n"
            "      --overlap           with --batch: run each workload on "
            "every source\n"
            "                          at once (default: one source at a "
            "time, so\n"
            "                          runs do not compete for the CPUs)\n"
            "  -r, --repeats=N         repeats of each workload run "
            "(default 3)\n"
            "      --lease=SECS        a guest's run stops by itself about "
            "SECS seconds\n"
            "                          after parallax last renewed it "
            "(killed, crashed,\n"
            "                          cut off); renewed every SECS/%d s "
            "(default %.0f;\n"
            "                          %.0f to %.0f)\n"
            "  -o, --output=FILE       with --batch: the text report goes "
            "here, the\n"
            "                          JSON next to it (default: stdout, "
            "JSON in\n"
            "                          the report directory; -o -: stdout "
            "alone); a new\n"
            "                          or regular file, never a device or "
            "FIFO\n"
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
            "                          of the full-screen view, as wide as\n"
            "                          COLUMNS says\n"
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
            LEASE_RENEWALS, LEASE_DEFAULT_S, LEASE_MIN_S, LEASE_MAX_S,
            FLEET_CONCURRENCY, INTERVAL_MIN, INTERVAL_MAX);
}

static bool parse_long(const char *s, long *out)
{
    double v;
    if (!params_decimal(s, &v) || v != floor(v) || fabs(v) > 1e15)
        return false;
    *out = (long)v;
    return true;
}

/* s as an error quotes it: masked, and cut short (SAFE_TEXT_ECHO_MAX). */
static const char *echo(const char *s)
{
    static char buf[SAFE_TEXT_ECHO_MAX * 4 + 4];
    return safe_text_copy(buf, sizeof(buf), s, SAFE_TEXT_ECHO_MAX);
}

/* 0 when every argument is printable text, else -1 with err naming it. */
static int check_text(int argc, char **argv, char *err, size_t errlen)
{
    for (int i = 1; i < argc; i++) {
        if (!safe_text_ok(argv[i])) {
            snprintf(err, errlen,
                     "argument %d ('%s') holds a control character or is "
                     "not UTF-8 text; give printable text",
                     i, echo(argv[i]));
            return -1;
        }
    }
    return 0;
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
    case 'G':
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
    if (o->fleet && (o->nguests || o->ndemo || o->nbaselines || o->narchives ||
                     o->record)) {
        snprintf(err, errlen,
                 "--fleet reads its sources from pmproxy; drop -h, "
                 "--demo-guest, --baseline, -a and --record (or run without "
                 "--fleet)");
        return -1;
    }
    return 0;
}

/* 0 when no two guests read the same pmcd, else -1 with err naming it. */
static int check_guests(const struct options *o, char *err, size_t errlen)
{
    for (int i = 0; i < o->nguests; i++)
        for (int k = 0; k < i; k++)
            if (strcmp(o->guests[i].target, o->guests[k].target) == 0) {
                snprintf(err, errlen,
                         "guest %s is given twice; give each pmcd once",
                         echo(o->guests[i].target));
                return -1;
            }
    return 0;
}

/* 0 when the theme exists and reads without an error, else -1 with err:
 * a theme named on the command line is bad input like any other argument
 * (/etc/passwd, /dev/zero, a theme file with an error). One met later,
 * with the t key, is said on the screen, which then shows the built-in
 * theme. */
static int check_theme(const char *name, char *err, size_t errlen)
{
    struct theme_dirs d;
    struct theme t;
    char why[256];
    theme_dirs_get(&d);
    int rc = theme_load(&d, name, &t, why, sizeof(why));
    if (rc == -2)
        snprintf(err, errlen,
                 "--theme: %s; fix the file or choose another theme "
                 "(themes/README)",
                 why);
    else if (rc < 0)
        snprintf(err, errlen, "%s", why);
    return rc < 0 ? -1 : 0;
}

enum options_action options_parse(int argc, char **argv, struct options *o,
                                  char *err, size_t errlen)
{
    static const struct option longopts[] = {
        {"host", required_argument, NULL, 'h'},
        {"demo-guest", optional_argument, NULL, 'D'},
        {"baseline", required_argument, NULL, 'B'},
        {"archive", required_argument, NULL, 'a'},
        {"record", required_argument, NULL, 'E'},
        {"batch", required_argument, NULL, 'b'},
        {"repeats", required_argument, NULL, 'r'},
        {"lease", required_argument, NULL, 'K'},
        {"output", required_argument, NULL, 'o'},
        {"report-dir", required_argument, NULL, 'R'},
        {"theme", required_argument, NULL, 'C'},
        {"local", required_argument, NULL, 'L'},
        {"syscalls", no_argument, NULL, 'S'},
        {"overlap", no_argument, NULL, 'O'},
        {"interval", required_argument, NULL, 't'},
        {"samples", required_argument, NULL, 'n'},
        {"text", no_argument, NULL, 'T'},
        {"verbose", no_argument, NULL, 'v'},
        {"version", no_argument, NULL, 'V'},
        {"help", no_argument, NULL, 'H'},
        {"fleet", required_argument, NULL, 'F'},
        {"fleet-filter", required_argument, NULL, 'G'},
        {"fleet-jobs", required_argument, NULL, 'J'},
        {0, 0, 0, 0},
    };
    memset(o, 0, sizeof(*o));
    o->interval = 1.0;
    o->repeats = 3;
    o->lease = LEASE_DEFAULT_S;
    o->local = "proc";
    optind = 1;
    opterr = 0;
    if (check_text(argc, argv, err, errlen) < 0)
        return OPT_ERROR;
    int c;
    while ((c = getopt_long(argc, argv, ":h:a:t:n:r:o:vV?", longopts, NULL)) !=
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
            if (!params_decimal(optarg, &o->interval) ||
                o->interval < INTERVAL_MIN || o->interval > INTERVAL_MAX) {
                snprintf(err, errlen,
                         "interval '%s' is not a decimal number of seconds "
                         "from %.1f to %.0f; try -t 1",
                         echo(optarg), INTERVAL_MIN, INTERVAL_MAX);
                return OPT_ERROR;
            }
            break;
        case 'n':
            if (!parse_long(optarg, &o->samples) || o->samples <= 0) {
                snprintf(err, errlen,
                         "samples '%s' is not a positive whole number; "
                         "try -n 5",
                         echo(optarg));
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
        case 'a': /* recordings: expanded into columns when the session opens */
            if (o->narchives == OPTIONS_MAX_ARCHIVES) {
                snprintf(err, errlen, "more than %d archives; replay fewer",
                         OPTIONS_MAX_ARCHIVES);
                return OPT_ERROR;
            }
            o->archives[o->narchives++] = optarg;
            break;
        case 'E':
            if (!optarg[0]) {
                snprintf(err, errlen,
                         "--record needs a directory; try "
                         "--record rec");
                return OPT_ERROR;
            }
            o->record = optarg;
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
        case 'O':
            o->overlap = true;
            break;
        case 'L':
            if (!local_backends_choose(optarg)) {
                snprintf(err, errlen,
                         "--local '%s' is not a way to read this host; "
                         "use proc, pcp or gtop",
                         echo(optarg));
                return OPT_ERROR;
            }
            o->local = optarg;
            break;
        case 'C': /* checked against the themes once all options are read */
            o->theme = optarg;
            break;
        case 'r': {
            long r;
            if (!parse_long(optarg, &r) || r < 1 || r > REPEATS_MAX) {
                snprintf(err, errlen,
                         "repeats '%s' is not a whole number from 1 to %d; "
                         "try -r 3",
                         echo(optarg), REPEATS_MAX);
                return OPT_ERROR;
            }
            o->repeats = (int)r;
            break;
        }
        case 'K':
            if (!params_decimal(optarg, &o->lease) ||
                !(o->lease >= LEASE_MIN_S && o->lease <= LEASE_MAX_S)) {
                snprintf(err, errlen,
                         "lease '%s' is not a decimal number of seconds from "
                         "%.0f to %.0f; try --lease %.0f",
                         echo(optarg), LEASE_MIN_S, LEASE_MAX_S,
                         LEASE_DEFAULT_S);
                return OPT_ERROR;
            }
            break;
        case 'D': { /* checked whole now: nothing boots on a bad one */
            char *argv_[32], buf[512];
            if (o->ndemo == OPTIONS_MAX_DEMO) {
                snprintf(err, errlen,
                         "--demo-guest given more than %d times; that is the "
                         "most",
                         OPTIONS_MAX_DEMO);
                return OPT_ERROR;
            }
            o->demo_variants[o->ndemo++] = optarg ? optarg : "";
            if (demo_guest_args(optarg, argv_, 32, buf, sizeof(buf), err,
                                errlen) < 0)
                return OPT_ERROR;
            break;
        }
        case 'F':
        case 'G':
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
                     echo(argv[optind - 1]));
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
                         echo(argv[optind - 1]));
            return OPT_ERROR;
        }
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s'; see --help",
                 echo(argv[optind]));
        return OPT_ERROR;
    }
    if (o->output && !o->batch) {
        snprintf(err, errlen, "--output names the --batch report; add --batch");
        return OPT_ERROR;
    }
    if (o->overlap && !o->batch) {
        snprintf(err, errlen,
                 "--overlap is how --batch runs its workloads; add --batch "
                 "(on the live screen, Enter chooses the sources that run)");
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
    if (o->batch && strspn(o->batch, ",") == strlen(o->batch)) {
        snprintf(err, errlen,
                 "--batch names no suite or workload; give one, e.g. "
                 "--batch quick (parallax-run --list shows them)");
        return OPT_ERROR;
    }
    if (check_guests(o, err, errlen) < 0 ||
        (o->theme && check_theme(o->theme, err, errlen) < 0) ||
        fleet_check(o, err, errlen) < 0)
        return OPT_ERROR;
    local_backends_choose(o->local); /* the default too, on every parse */
    syscalls_want(o->syscalls);
    return OPT_RUN;
}
