/* See options.h. getopt_long from glibc does the parsing; numbers are
 * decimal, checked whole (params_decimal) and against their bounds; an
 * argument that is not printable text is refused before anything else, so
 * what the options hold (and errors echo) is safe on a terminal; echoes
 * are cut short, so that the reason after them stays. */
#include "cli/options.h"

#include "base/safe_text.h"
#include "cli/pcp_env.h"
#include "collectors/archive_window.h"
#include "collectors/backend.h"
#include "collectors/pcp_container.h"
#include "collectors/pcp_time.h"
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

/* Codes of the options without a short letter: above any character, so
 * that PCP's letters (-S, -T, -O, -F ...) stay free. */
enum {
    LO_DEMO = 256,
    LO_BASELINE,
    LO_RECORD,
    LO_BATCH,
    LO_LEASE,
    LO_REPORT_DIR,
    LO_THEME,
    LO_LOCAL,
    LO_SYSCALLS,
    LO_OVERLAP,
    LO_TEXT,
    LO_HELP,
    LO_FLEET,
    LO_FLEET_FILTER,
    LO_FLEET_JOBS,
    LO_CONTAINER,
    LO_NO_VM_VIEW,
};

void options_usage(FILE *f)
{
    fprintf(
        f,
        "Usage: parallax [OPTION]...\n"
        "       pcp [PCP OPTION]... parallax [OPTION]...\n"
        "Show this host and its guests side by side, live. Options PCP's "
        "tools\n"
        "share mean what they mean there (pmGetOptions(3)); pcp(1)'s global\n"
        "options reach parallax through its environment (PCP_HOST, "
        "PCP_ARCHIVE...).\n"
        "\n"
        "Sources:\n"
        "  -h, --host=[NAME=]HOST[:PORT][,pid=N|,vm=VMNAME][,vms]\n"
        "                          add a guest (or another host) running "
        "pmcd;\n"
        "                          pid=N: the process here that runs it "
        "(its VM);\n"
        "                          vm=VMNAME: the VM here of that name (qemu "
        "-name)\n"
        "                          whenever it runs; neither: the one VM "
        "named\n"
        "                          as its column, if there is one;\n"
        "                          vms: the VMs that host runs, through its "
        "pmcd's\n"
        "                          proc agent (pmdaproc -A -L there)\n"
        "                          repeatable; NAME labels its column; an "
        "IPv6\n"
        "                          address goes in brackets: [::1]:44321\n"
        "  -a, --archive=[NAME=]ARCHIVE\n"
        "                          replay a recording as columns next to the "
        "live\n"
        "                          ones (repeatable): a --record directory (a "
        "column\n"
        "                          per source), one source's directory, an "
        "archive\n"
        "                          (its base name or any of its files), "
        "pmlogger's,\n"
        "                          or a comma-separated list of one source's\n"
        "                          archives (one column, as PCP reads them); "
        "keys\n"
        "                          , . [ ] n control it\n"
        "      --demo-guest[=VARIANTS]\n"
        "                          boot parallax's own micro-VM (make guest) "
        "and\n"
        "                          watch it; repeatable, one column each;\n"
        "                          VARIANTS (comma-separated): uml (User-Mode\n"
        "                          Linux: the kernel as a host process), "
        "kernel=\n"
        "                          6.1|6.12|6.12-rt (CFS, EEVDF, PREEMPT_RT; "
        "fetched\n"
        "                          through apt), icount[=fast|slow] (the "
        "guest's\n"
        "                          clock runs fast: 50-850x real time idle, "
        "3-10x\n"
        "                          busy; or slow while busy, as a userland "
        "kernel's),\n"
        "                          cpus=1|2, mem=SIZE, clock=host|rtc\n"
        "      --baseline=[LABEL=]FILE[:SOURCE]\n"
        "                          show a saved JSON report or a PCP archive "
        "as a\n"
        "                          fixed column (repeatable), with ratios like "
        "a\n"
        "                          guest's; SOURCE: which of its sources "
        "(default\n"
        "                          the first, this host of that run)\n"
        "      --local=READER      how this host is read: proc (default: "
        "/proc,\n"
        "                          directly), pcp (PCP's local context), gtop\n"
        "                          (libgtop); each falls back to the next\n"
        "      --fleet=URL         watch the hosts and guests a pmproxy knows\n"
        "                          (http://HOST:PORT) through its /series, "
        "one\n"
        "                          row per guest (docs/fleet.md); with "
        "--batch,\n"
        "                          run on the guests shown and write a fleet "
        "report\n"
        "      --fleet-filter=EXPR the guests shown (and run): host:H "
        "kernel:K\n"
        "                          variant:V name:N state:S role:R (globs)\n"
        "      --fleet-jobs=N      sources a fleet run takes at once (default "
        "%d)\n"
        "      --container=[LABEL=]NAME[@HOST[:PORT]]\n"
        "                          watch container NAME as a source, read "
        "through\n"
        "                          the pmcd at HOST (default this host's) "
        "with PCP's\n"
        "                          container support (its pmdaroot must see "
        "the\n"
        "                          runtime: docker, podman, lxc); repeatable\n"
        "\n"
        "Time:\n"
        "  -t, --interval=INTERVAL time between samples: seconds or PCP's "
        "interval\n"
        "                          syntax (500msec, 2sec, 1min); default 1, "
        "%.1f to\n"
        "                          %.0f s\n"
        "  -S, --start=TIME        replay archives from TIME (PCP's syntax: "
        "+30sec\n"
        "                          after an archive's first record, -1min "
        "before\n"
        "                          its last, '@ 14:02:11', '2024-05-01 "
        "14:02:11')\n"
        "  -T, --finish=TIME       ... up to TIME\n"
        "  -O, --origin=TIME       ... starting at TIME within that window\n"
        "  -z, --hostzone          show times in the zone of the first archive "
        "(-a)\n"
        "                          or guest (-h), not this host's\n"
        "  -Z, --timezone=TZ       show times in the zone TZ (as $TZ takes "
        "it)\n"
        "\n"
        "Output:\n"
        "      --text              print plain text refreshes on stdout "
        "instead\n"
        "                          of the full-screen view, as wide as\n"
        "                          COLUMNS says\n"
        "  -n, -s, --samples=N     with --text: stop after N refreshes\n"
        "  -o, --output=FORMAT|FILE\n"
        "                          with --text: stdout (the table) or csv (a "
        "line a\n"
        "                          refresh: Time, then SOURCE:time and "
        "SOURCE:KEY\n"
        "                          (UNIT) columns, as pmrep -o csv); with "
        "--batch:\n"
        "                          the text report goes to FILE, the JSON next "
        "to\n"
        "                          it (default: stdout, JSON in the report "
        "directory;\n"
        "                          -o -: stdout alone); a new or regular "
        "file,\n"
        "                          never a device or FIFO\n"
        "  -F, --output-file=FILE  with --text: write its output to FILE; "
        "with\n"
        "                          --batch: each refresh as CSV to FILE\n"
        "      --record=DIR        record every live source into DIR as PCP\n"
        "                          archives, one per source (DIR/SOURCE/STAMP; "
        "r\n"
        "                          starts and stops it on the live screen)\n"
        "      --report-dir=DIR    where s and --batch save reports (default\n"
        "                          $XDG_STATE_HOME/parallax or "
        "~/.local/state/parallax)\n"
        "      --theme=NAME        colour theme: default, light, mono,\n"
        "                          high-contrast, or one of your own "
        "(themes/README);\n"
        "                          t on the live screen switches\n"
        "\n"
        "Workloads:\n"
        "      --batch=SUITE|WL[,WL...]\n"
        "                          run a suite or workloads on every source, "
        "one\n"
        "                          after another, print the report and exit\n"
        "                          (0 only when every run completed)\n"
        "      --overlap           with --batch: run each workload on every "
        "source\n"
        "                          at once (default: one source at a time, so\n"
        "                          runs do not compete for the CPUs)\n"
        "  -r, --repeats=N         repeats of each workload run (default 3)\n"
        "      --lease=SECS        a guest's run stops by itself about SECS "
        "seconds\n"
        "                          after parallax last renewed it (killed, "
        "crashed,\n"
        "                          cut off); renewed every SECS/%d s (default "
        "%.0f;\n"
        "                          %.0f to %.0f)\n"
        "      --syscalls          count system calls from the start (the y "
        "key\n"
        "                          toggles it): the syscalls/s row; while on, "
        "every\n"
        "                          system call on the host and guests costs "
        "more\n"
        "      --no-vm-view        do not read the VM processes on this host "
        "(the\n"
        "                          host's view, the v key; -h ...,pid= and "
        ",vm=\n"
        "                          are then refused): no scan of /proc each "
        "interval\n"
        "\n"
        "General options:\n"
        "  -v, --verbose           more in the log "
        "($XDG_STATE_HOME/parallax/parallax.log\n"
        "                          on the live screen, else stderr): state "
        "changes,\n"
        "                          workloads, snapshots; twice: every fetch's "
        "timing\n"
        "  -V, --version           print the version and exit\n"
        "  -?, --help              print this help and exit\n"
        "\n"
        "Keys on the live screen: F1 (or h, ?) lists them all; q quits.\n",
        FLEET_CONCURRENCY, INTERVAL_MIN, INTERVAL_MAX, LEASE_RENEWALS,
        LEASE_DEFAULT_S, LEASE_MIN_S, LEASE_MAX_S);
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
    case LO_FLEET:
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
    case LO_FLEET_FILTER:
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

/* 0 when no two guests read the same pmcd or name the same VM, else -1
 * with err naming it. */
static int check_guests(const struct options *o, char *err, size_t errlen)
{
    for (int i = 0; i < o->nguests; i++)
        for (int k = 0; k < i; k++)
            if (strcmp(o->guests[i].target, o->guests[k].target) == 0) {
                snprintf(err, errlen,
                         "guest %s is given twice; give each pmcd once",
                         echo(o->guests[i].target));
                return -1;
            } else if (o->guests[i].vm[0] &&
                       strcmp(o->guests[i].vm, o->guests[k].vm) == 0) {
                snprintf(err, errlen,
                         "vm=%s is given to two guests; one VM runs one guest",
                         o->guests[i].vm);
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

/* --container=[LABEL=]NAME[@HOST[:PORT]]: a guest reading container NAME
 * through the pmcd at HOST (default this host's). 0, or -1 with err. */
static int container_option(const char *arg, struct options *o, char *err,
                            size_t errlen)
{
    char buf[256], *label = NULL, *name = buf, *at;
    struct source_spec host;
    if (o->ncontainers == OPTIONS_MAX_CONTAINERS ||
        o->nguests == OPTIONS_MAX_GUESTS) {
        snprintf(err, errlen, "more than %d containers; watch fewer",
                 OPTIONS_MAX_CONTAINERS);
        return -1;
    }
    snprintf(buf, sizeof(buf), "%s", arg);
    char *eq = strchr(buf, '=');
    if (eq) {
        *eq = '\0';
        label = buf;
        name = eq + 1;
    }
    if ((at = strchr(name, '@')))
        *at++ = '\0';
    size_t len = strlen(name);
    if (!len || len >= sizeof(o->containers[0].name) ||
        strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789_.-") != len ||
        (label && (!label[0] || strlen(label) >= sizeof(o->guests[0].name)))) {
        snprintf(err, errlen,
                 "--container '%s' names no container; give "
                 "--container=[LABEL=]NAME[@HOST[:PORT]], NAME as docker or "
                 "podman ps lists it",
                 echo(arg));
        return -1;
    }
    if (source_spec_parse(at && *at ? at : "localhost", &host, err, errlen) < 0)
        return -1;
    struct source_spec *g = &o->guests[o->nguests];
    if (pcp_container_target(host.target, name, g->target, sizeof(g->target),
                             err, errlen) < 0)
        return -1;
    snprintf(g->name, sizeof(g->name), "%.63s", label ? label : name);
    snprintf(o->containers[o->ncontainers].name, sizeof(o->containers[0].name),
             "%.63s", name);
    snprintf(o->containers[o->ncontainers].host, sizeof(o->containers[0].host),
             "%.127s", host.target);
    o->ncontainers++;
    o->nguests++;
    return 0;
}

/* -t: seconds, or PCP's interval syntax (2sec, 500msec, 1min). */
static int parse_interval(const char *arg, struct options *o, char *err,
                          size_t errlen)
{
    char why[256];
    double v;
    if (!params_decimal(arg, &v) &&
        pcp_time_interval(arg, &v, why, sizeof(why)) < 0)
        v = NAN;
    if (!(v >= INTERVAL_MIN - 1e-9 && v <= INTERVAL_MAX)) {
        snprintf(err, errlen,
                 "interval '%s' is not a decimal number of seconds or a PCP "
                 "interval (500msec, 2sec, 1min) from %.1f to %.0f s; try "
                 "-t 1",
                 echo(arg), INTERVAL_MIN, INTERVAL_MAX);
        return -1;
    }
    o->interval = v;
    return 0;
}

/* -o and -F: pmrep's with --text (-o the format, -F the file), the report
 * and the CSV with --batch. 0, or -1 with err. */
static int output_check(struct options *o, char *err, size_t errlen)
{
    bool format = o->output && (strcmp(o->output, "csv") == 0 ||
                                strcmp(o->output, "stdout") == 0);
    if (o->text && o->output && !format) {
        snprintf(err, errlen,
                 "with --text, -o names a format, csv or stdout (as pmrep's "
                 "-o); its file goes to -F FILE, a report to --batch -o FILE");
        return -1;
    }
    if (o->batch && format) {
        snprintf(err, errlen,
                 "with --batch, -o names the report file; for the refreshes "
                 "as CSV give -F FILE (a report named %s: -o ./%s)",
                 o->output, o->output);
        return -1;
    }
    if ((o->output || o->output_file) && !o->text && !o->batch) {
        snprintf(err, errlen,
                 "-o and -F go with --text (-o csv, -F FILE) or --batch (-o "
                 "the report, -F the CSV); add one");
        return -1;
    }
    o->csv = o->text && o->output && strcmp(o->output, "csv") == 0;
    if (o->text && o->output)
        o->output = NULL; /* a format, not a report */
    return 0;
}

/* -S, -T, -O, -z and -Z: what they need and what they cannot go with. */
static int time_check(const struct options *o, char *err, size_t errlen)
{
    if ((o->start || o->finish || o->origin) && !o->narchives) {
        snprintf(err, errlen,
                 "-S, -T and -O bound the replay of an archive; add -a "
                 "ARCHIVE");
        return -1;
    }
    if (o->hostzone && o->timezone) {
        snprintf(err, errlen,
                 "-z and -Z both choose the time zone shown; give one");
        return -1;
    }
    archive_window_set(o->start, o->finish, o->origin);
    return archive_window_check(err, errlen);
}

enum options_action options_parse(int argc, char **argv, struct options *o,
                                  char *err, size_t errlen)
{
    static const struct option longopts[] = {
        {"host", required_argument, NULL, 'h'},
        {"demo-guest", optional_argument, NULL, LO_DEMO},
        {"baseline", required_argument, NULL, LO_BASELINE},
        {"archive", required_argument, NULL, 'a'},
        {"record", required_argument, NULL, LO_RECORD},
        {"batch", required_argument, NULL, LO_BATCH},
        {"repeats", required_argument, NULL, 'r'},
        {"lease", required_argument, NULL, LO_LEASE},
        {"output", required_argument, NULL, 'o'},
        {"output-file", required_argument, NULL, 'F'},
        {"report-dir", required_argument, NULL, LO_REPORT_DIR},
        {"theme", required_argument, NULL, LO_THEME},
        {"local", required_argument, NULL, LO_LOCAL},
        {"syscalls", no_argument, NULL, LO_SYSCALLS},
        {"no-vm-view", no_argument, NULL, LO_NO_VM_VIEW},
        {"overlap", no_argument, NULL, LO_OVERLAP},
        {"interval", required_argument, NULL, 't'},
        {"samples", required_argument, NULL, 'n'},
        {"start", required_argument, NULL, 'S'},
        {"finish", required_argument, NULL, 'T'},
        {"origin", required_argument, NULL, 'O'},
        {"hostzone", no_argument, NULL, 'z'},
        {"timezone", required_argument, NULL, 'Z'},
        {"text", no_argument, NULL, LO_TEXT},
        {"verbose", no_argument, NULL, 'v'},
        {"version", no_argument, NULL, 'V'},
        {"help", no_argument, NULL, LO_HELP},
        {"fleet", required_argument, NULL, LO_FLEET},
        {"fleet-filter", required_argument, NULL, LO_FLEET_FILTER},
        {"fleet-jobs", required_argument, NULL, LO_FLEET_JOBS},
        {"container", required_argument, NULL, LO_CONTAINER},
        {0, 0, 0, 0},
    };
    memset(o, 0, sizeof(*o));
    o->interval = 1.0;
    o->repeats = 3;
    o->lease = LEASE_DEFAULT_S;
    o->local = "proc";
    optind = 1;
    opterr = 0;
    argv = pcp_env_args(&argc, argv); /* pcp(1)'s options come first */
    if (check_text(argc, argv, err, errlen) < 0)
        return OPT_ERROR;
    int c;
    while ((c = getopt_long(argc, argv, ":h:a:t:n:s:r:o:F:S:T:O:zZ:A:vV?",
                            longopts, NULL)) != -1) {
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
            if (parse_interval(optarg, o, err, errlen) < 0)
                return OPT_ERROR;
            break;
        case 'S':
            o->start = optarg;
            break;
        case 'T':
            o->finish = optarg;
            break;
        case 'O':
            o->origin = optarg;
            break;
        case 'z':
            o->hostzone = true;
            break;
        case 'Z':
            if (!optarg[0]) {
                snprintf(err, errlen, "-Z needs a time zone; try -Z UTC");
                return OPT_ERROR;
            }
            o->timezone = optarg;
            break;
        case 'F':
            if (!optarg[0]) {
                snprintf(err, errlen, "-F needs a file; try -F run.csv");
                return OPT_ERROR;
            }
            o->output_file = optarg;
            break;
        case LO_CONTAINER:
            if (container_option(optarg, o, err, errlen) < 0)
                return OPT_ERROR;
            break;
        case 'A':
            snprintf(err, errlen,
                     "-A (align samples, pcp's PCP_ALIGN_TIME) is not "
                     "something parallax does; drop it");
            return OPT_ERROR;
        case 's': /* PCP's letter for samples */
        case 'n':
            if (!parse_long(optarg, &o->samples) || o->samples <= 0) {
                snprintf(err, errlen,
                         "samples '%s' is not a positive whole number; "
                         "try -n 5",
                         echo(optarg));
                return OPT_ERROR;
            }
            break;
        case LO_TEXT:
            o->text = true;
            break;
        case LO_BASELINE:
            if (o->nbaselines == OPTIONS_MAX_BASELINES) {
                snprintf(err, errlen, "more than %d baselines; show fewer",
                         OPTIONS_MAX_BASELINES);
                return OPT_ERROR;
            }
            o->baselines[o->nbaselines++] = optarg;
            break;
        case LO_BATCH:
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
        case LO_RECORD:
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
        case LO_REPORT_DIR:
            o->report_dir = optarg;
            break;
        case LO_SYSCALLS:
            o->syscalls = true;
            break;
        case LO_NO_VM_VIEW:
            o->no_vm_view = true;
            break;
        case LO_OVERLAP:
            o->overlap = true;
            break;
        case LO_LOCAL:
            if (!local_backends_choose(optarg)) {
                snprintf(err, errlen,
                         "--local '%s' is not a way to read this host; "
                         "use proc, pcp or gtop",
                         echo(optarg));
                return OPT_ERROR;
            }
            o->local = optarg;
            break;
        case LO_THEME: /* checked against the themes once all are read */
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
        case LO_LEASE:
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
        case LO_DEMO: { /* checked whole now: nothing boots on a bad one */
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
        case LO_FLEET:
        case LO_FLEET_FILTER:
        case LO_FLEET_JOBS:
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
        case LO_HELP:
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
    if (output_check(o, err, errlen) < 0 || time_check(o, err, errlen) < 0 ||
        check_guests(o, err, errlen) < 0 ||
        (o->theme && check_theme(o->theme, err, errlen) < 0) ||
        fleet_check(o, err, errlen) < 0)
        return OPT_ERROR;
    local_backends_choose(o->local); /* the default too, on every parse */
    syscalls_want(o->syscalls);
    return OPT_RUN;
}
