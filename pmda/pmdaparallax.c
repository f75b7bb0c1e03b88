/* pmdaparallax: the guest side of parallax's bridge, a daemon PMDA that
 * exports the workload catalogue, live progress and results of runs, clock
 * probes and a system call counter, and starts and stops workloads on
 * pmStore. A daemon, not a DSO: it needs its own loop to reap children,
 * and pmcd's process must not fork workloads.
 *
 * Privileges: pmcd (through pmdaroot) starts agents as root. This one
 * forks the system call counter's helper while root, then becomes the PCP
 * user (-U, default $PCP_USER, else "nobody"), so workloads never run as
 * root unless no unprivileged user exists. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/version.h"
#include "pmda/agent.h"
#include "pmda/domain.h"
#include "pmda/loop.h"
#include "pmda/metrics.h"
#include "workloads/params.h"

#define DEFAULT_MAX_RUNS  4
#define DEFAULT_PROBE_S   30.0
#define DEFAULT_IDLE_S    60.0
#define MAX_PROBE_EVERY_S 86400.0

static pmLongOptions longopts[] = {
    PMDA_OPTIONS_HEADER("Options"),
    PMOPT_DEBUG,
    PMDAOPT_DOMAIN,
    PMDAOPT_HELPTEXT,
    PMDAOPT_LOGFILE,
    PMDAOPT_USERNAME,
    {"max-runs", 1, 'm', "N", "at most N workload runs at once [4]"},
    {"probe-interval", 1, 'P', "SECS",
     "clock probe every SECS seconds, 0 only when asked [30]"},
    {"syscalls", 1, 'S', "MODE",
     "auto: pause the system call counter while workloads run; "
     "always: count anyway [auto]"},
    {"syscalls-idle", 1, 'I', "SECS",
     "close the counter after SECS seconds unread [60]"},
    {"version", 0, 'V', 0, "print the version and exit"},
    PMOPT_HELP,
    PMDA_OPTIONS_TEXT("\nExactly one of the following options may appear:"),
    PMDAOPT_INET,
    PMDAOPT_PIPE,
    PMDAOPT_UNIX,
    PMDAOPT_IPV6,
    PMDA_OPTIONS_END,
};

static pmdaOptions opts = {
    .short_options = "D:d:h:i:l:pu:U:6:m:P:S:I:V?",
    .long_options = longopts,
};

struct config {
    int max_runs;
    double probe_every, idle_s;
    enum syscount_mode mode;
};

static bool number(const char *s, double min, double max, double *out)
{
    double v;
    if (!params_decimal(s, &v) || !(v >= min && v <= max))
        return false;
    *out = v;
    return true;
}

/* Options of this agent (the PMDA ones are libpcp_pmda's). */
static void option(int c, const char *arg, struct config *cfg)
{
    double v;
    bool ok = true;
    if (c == 'V') {
        printf("%s %s\n", pmGetProgname(), PARALLAX_VERSION);
        exit(0);
    }
    if (c == 'm' && (ok = number(arg, 1, RUNS_MAX_LIVE, &v) && v == (int)v))
        cfg->max_runs = (int)v;
    else if (c == 'P' && (ok = number(arg, 0, MAX_PROBE_EVERY_S, &v)))
        cfg->probe_every = v;
    else if (c == 'I' && (ok = number(arg, 1, 86400, &v)))
        cfg->idle_s = v;
    else if (c == 'S' && (ok = !strcmp(arg, "auto") || !strcmp(arg, "always")))
        cfg->mode = !strcmp(arg, "auto") ? SYSCOUNT_AUTO : SYSCOUNT_ALWAYS;
    else if (!strchr("mPIS", c))
        ok = false;
    if (!ok) {
        fprintf(stderr, "%s: -%c %s: out of range or unknown\n",
                pmGetProgname(), c, arg ? arg : "");
        opts.errors++;
    }
}

/* Becomes `name` (or "nobody") when root; records who the agent is. */
static void drop_privileges(const char *name, struct agent *a)
{
    if (geteuid() == 0 && strcmp(name, "root") != 0) {
        const char *who = getpwnam(name) ? name : "nobody";
        if (who != name)
            pmNotifyErr(LOG_WARNING, "no user %s: workloads run as %s", name,
                        who);
        if (getpwnam(who))
            pmSetProcessIdentity(who);
        else
            pmNotifyErr(LOG_WARNING, "no unprivileged user: staying root");
    }
    const struct passwd *pw = getpwuid(geteuid());
    snprintf(a->user, sizeof a->user, "%s", pw ? pw->pw_name : "?");
}

static pmdaIndom indomtab[] = {
    {CATALOGUE_INDOM, 0, NULL},
    {LATENCY_INDOM, 0, NULL},
};

static void parallax_init(pmdaInterface *dp, struct agent *a)
{
    if (dp->status != 0)
        return;
    dp->version.any.fetch = agent_fetch;
    dp->version.any.store = agent_store;
    pmdaSetFetchCallBack(dp, agent_fetch_value);
    pmdaInit(dp, indomtab, sizeof indomtab / sizeof indomtab[0], metric_table,
             M_COUNT);
    a->catalogue = indomtab[0].it_indom;
    catalogue_init(a->catalogue);
    a->latency = indomtab[1].it_indom;
    latency_init(a->latency);
    agent_bind(a);
}

static void log_line(const char *line)
{
    pmNotifyErr(LOG_INFO, "%s", line);
}

int main(int argc, char **argv)
{
    static struct agent agent = {.probe = PROBE_INIT};
    struct config cfg = {DEFAULT_MAX_RUNS, DEFAULT_PROBE_S, DEFAULT_IDLE_S,
                         SYSCOUNT_AUTO};
    pmdaInterface dispatch;
    char help[MAXPATHLEN], *username;
    int c, sep = pmPathSeparator();

    pmSetProgname(argv[0]);
    pmGetUsername(&username);
    pmsprintf(help, sizeof help, "%s%cparallax%chelp",
              pmGetConfig("PCP_PMDAS_DIR"), sep, sep);
    pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), PARALLAX,
               "parallax.log", help);
    while ((c = pmdaGetOptions(argc, argv, &opts, &dispatch)) != EOF)
        option(c, opts.optarg, &cfg);
    if (opts.errors || opts.optind != argc) {
        pmdaUsageMessage(&opts);
        exit(1);
    }
    if (opts.username)
        username = opts.username;

    pmdaOpenLog(&dispatch);
    pmdaConnect(&dispatch);
    agent.syscount = syscount_new(cfg.mode, cfg.idle_s); /* while root */
    kernel_sched_read(&agent.kernel);                    /* debugfs is root's */
    drop_privileges(username, &agent);
    agent.runs = runs_new(cfg.max_runs, log_line);
    agent.probe_every = cfg.probe_every;
    if (!agent.syscount || !agent.runs) {
        pmNotifyErr(LOG_CRIT, "out of memory");
        exit(1);
    }
    parallax_init(&dispatch, &agent);
    pmNotifyErr(LOG_INFO, "ready as user %s, domain %d, at most %d runs",
                agent.user, dispatch.domain, cfg.max_runs);
    int rc = agent_loop(&dispatch, &agent);
    probe_cancel(&agent.probe);
    runs_free(agent.runs);
    syscount_free(agent.syscount);
    return rc < 0 ? 1 : 0;
}
