/* parallax-run: run workloads of the catalogue from the command line and
 * print an lmbench-like table of their figures with statistics over the
 * repeats. The same runner the TUI and the PMDA use does the work. */
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/version.h"
#include "runner/runner.h"
#include "runner/suites.h"
#include "workloads/params.h"
#include "workloads/registry.h"
#include "workloads/stats.h"

#define EXIT_USAGE 2

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

static const char usage_text[] =
    "usage: parallax-run [options] WORKLOAD|SUITE [key=value ...]\n"
    "       parallax-run --list\n"
    "Runs workloads of the parallax catalogue and prints their figures.\n"
    "  -l, --list            list workloads, their parameters, and suites\n"
    "  -d, --duration SECS   seconds measured per repeat (default 1)\n"
    "  -c, --count N         measure N operations per repeat instead\n"
    "  -r, --repeats N       repeats, each giving one figure (default 5)\n"
    "  -w, --warmup SECS     unmeasured seconds first (default 0.1)\n"
    "      --cpu N           run on CPU N only (default: any)\n"
    "  -h, --help            this help\n"
    "  -V, --version         the version\n"
    "Parameters key=value apply to every workload that has the key.\n"
    "Exit status: 0 all ran, 1 a workload failed, 2 usage, 128+N signal.\n";

static const char *better_name(enum wl_better b)
{
    return b == WL_HIGHER_IS_BETTER ? "higher" : "lower";
}

static void list_catalogue(void)
{
    printf("%-20s %-10s %-7s %s\n", "WORKLOAD", "UNIT", "BETTER",
           "DESCRIPTION");
    for (int i = 0; workload_registry[i]; i++) {
        const struct workload *w = workload_registry[i];
        printf("%-20s %-10s %-7s %s\n", w->name, w->unit,
               better_name(w->better), w->desc);
        for (int k = 0; k < params_count(w); k++) {
            const struct wl_param *p = &w->params[k];
            printf("%22s%s=%.10g  (%.10g..%.10g%s) %s\n", "", p->name, p->def,
                   p->min, p->max, p->integer ? ", whole" : "",
                   p->help ? p->help : "");
        }
    }
    printf("\n%-20s %s\n", "SUITE", "WORKLOADS");
    for (int i = 0; wl_suites[i]; i++) {
        const struct wl_suite *s = wl_suites[i];
        const struct workload *m[SUITE_MAX_MEMBERS];
        char err[256];
        int n = suite_resolve(s, m, SUITE_MAX_MEMBERS, err, sizeof err);
        printf("%-20s %s:", s->name, s->desc);
        if (n < 0)
            printf(" (%s)", err);
        for (int k = 0; k < n; k++)
            printf(" %s", m[k]->name);
        printf("\n");
    }
}

/* A decimal number (params_decimal) from min to max, whole when asked. */
static int parse_num(const char *opt, const char *s, double min, double max,
                     bool whole, double *out)
{
    double v;
    if (!params_decimal(s, &v) || v < min || v > max ||
        (whole && v != floor(v))) {
        fprintf(stderr, "parallax-run: %s %s: expected %s %g..%g\n", opt, s,
                whole ? "a whole number" : "a number", min, max);
        return -1;
    }
    *out = v;
    return 0;
}

static bool cpu_allowed(int cpu)
{
    cpu_set_t set;
    return cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof set, &set) == 0 &&
           CPU_ISSET(cpu, &set);
}

struct cli {
    struct wl_run_opts opt;
    bool list;
    const char *target; /* workload or suite name */
    int nkv;
    char **kv;
};

static int parse_args(int argc, char **argv, struct cli *c)
{
    static const struct option longopts[] = {
        {"list", no_argument, NULL, 'l'},
        {"duration", required_argument, NULL, 'd'},
        {"count", required_argument, NULL, 'c'},
        {"repeats", required_argument, NULL, 'r'},
        {"warmup", required_argument, NULL, 'w'},
        {"cpu", required_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    wl_run_opts_default(&c->opt);
    c->opt.repeats = 5;
    double v;
    bool have_d = false;
    int ch;
    opterr = 0; /* our own one-line messages */
    while ((ch = getopt_long(argc, argv, ":ld:c:r:w:hV", longopts, NULL)) !=
           -1) {
        int rc = 0;
        switch (ch) {
        case 'l':
            c->list = true;
            break;
        case 'd':
            rc = parse_num("--duration", optarg, 1e-3, 86400, false, &v);
            c->opt.duration = v;
            have_d = true;
            break;
        case 'c':
            rc = parse_num("--count", optarg, 1, 1e15, true, &v);
            c->opt.count = (uint64_t)v;
            break;
        case 'r':
            rc =
                parse_num("--repeats", optarg, 1, WL_RUN_MAX_REPEATS, true, &v);
            c->opt.repeats = (int)v;
            break;
        case 'w':
            rc = parse_num("--warmup", optarg, 0, 3600, false, &v);
            c->opt.warmup = v;
            break;
        case 'C':
            rc = parse_num("--cpu", optarg, 0, 4095, true, &v);
            c->opt.cpu = (int)v;
            break;
        case 'h':
            fputs(usage_text, stdout);
            exit(0);
        case 'V':
            printf("parallax-run %s\n", PARALLAX_VERSION);
            exit(0);
        case ':':
            fprintf(stderr, "parallax-run: option '%s' needs a value\n",
                    argv[optind - 1]);
            return -1;
        default:
            if (optopt)
                fprintf(stderr,
                        "parallax-run: unknown option '-%c'; see --help\n",
                        optopt);
            else
                fprintf(stderr,
                        "parallax-run: unknown option '%s'; see --help\n",
                        argv[optind - 1]);
            return -1;
        }
        if (rc < 0)
            return -1;
    }
    if (have_d && c->opt.count) {
        fprintf(stderr, "parallax-run: give --duration or --count, not both\n");
        return -1;
    }
    if (c->opt.cpu >= 0 && !cpu_allowed(c->opt.cpu)) {
        fprintf(stderr,
                "parallax-run: --cpu %d: not a CPU this process may "
                "use (%ld online)\n",
                c->opt.cpu, sysconf(_SC_NPROCESSORS_ONLN));
        return -1;
    }
    if (c->list)
        return 0;
    if (optind >= argc) {
        fprintf(stderr, "parallax-run: no workload given; see --list\n");
        return -1;
    }
    c->target = argv[optind];
    c->nkv = argc - optind - 1;
    c->kv = argv + optind + 1;
    return 0;
}

/* The workloads the target names: one workload or a suite's members. */
static int resolve_target(const struct cli *c, const struct workload **out)
{
    const struct workload *w = workload_find(c->target);
    if (w) {
        out[0] = w;
        return 1;
    }
    const struct wl_suite *s = suite_find(c->target);
    if (!s) {
        char names[4096] = "", suites[512];
        size_t used = 0;
        for (int i = 0; workload_registry[i] && used < sizeof names; i++)
            used += snprintf(names + used, sizeof names - used, "%s%s",
                             i ? ", " : "", workload_registry[i]->name);
        suite_names(suites, sizeof suites);
        fprintf(stderr,
                "parallax-run: unknown workload or suite \"%s\"; workloads: "
                "%s; suites: %s\n",
                c->target, names, suites);
        return -1;
    }
    char err[256];
    int n = suite_resolve(s, out, SUITE_MAX_MEMBERS, err, sizeof err);
    if (n <= 0)
        fprintf(stderr, "parallax-run: %s\n",
                n < 0 ? err : "this suite has no workloads yet");
    return n > 0 ? n : -1;
}

/* Parameter values for w: the defaults, then each key=value that names
 * one of w's keys. With a single workload every key must be valid. */
static int params_for(const struct cli *c, const struct workload *w,
                      bool strict, double *vals)
{
    char err[512];
    params_defaults(w, vals);
    for (int i = 0; i < c->nkv; i++) {
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(c->kv[i], "="),
                 c->kv[i]);
        if (!strict && params_index(w, key) < 0)
            continue;
        if (params_set(w, vals, c->kv[i], err, sizeof err) < 0) {
            fprintf(stderr, "parallax-run: %s\n", err);
            return -1;
        }
    }
    return 0;
}

/* With a suite, a key no member has is a typo: say so. */
static int check_suite_keys(const struct cli *c, const struct workload **w,
                            int n)
{
    for (int i = 0; i < c->nkv; i++) {
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(c->kv[i], "="),
                 c->kv[i]);
        bool found = false;
        for (int k = 0; k < n && !found; k++)
            found = params_index(w[k], key) >= 0;
        if (!found) {
            fprintf(stderr,
                    "parallax-run: no workload of %s has a parameter \"%s\"\n",
                    c->target, key);
            return -1;
        }
    }
    return 0;
}

/* Numbers in a table column: enough digits, no exponents. */
static void fmt_fig(char *buf, size_t len, double v)
{
    double a = fabs(v);
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (a >= 1000)
        snprintf(buf, len, "%.0f", v);
    else if (a >= 100)
        snprintf(buf, len, "%.1f", v);
    else if (a >= 1)
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

static void placement_name(const struct wl_run *r, int placement, char *buf,
                           size_t len)
{
    static const char *const names[] = {"any", "same", "split"};
    const char *p = placement >= 0 && placement <= 2 ? names[placement] : "?";
    int cpu = wl_run_options(r)->cpu;
    if (cpu >= 0)
        snprintf(buf, len, "%s@cpu%d", p, cpu);
    else
        snprintf(buf, len, "%s", p);
}

static void print_header(void)
{
    printf("%-18s %-20s %-10s %-8s %3s %10s %10s %10s  %s\n", "workload",
           "params", "placement", "unit", "n", "median", "min", "max",
           "median interval");
}

/* One table row for a finished run, and its extra figures below it. */
static void print_row(const struct wl_run *r)
{
    const struct workload *w = wl_run_workload(r);
    int n = wl_run_nresults(r);
    double fig[WL_RUN_MAX_REPEATS];
    for (int i = 0; i < n; i++)
        fig[i] = wl_run_result(r, i)->figure;
    struct wl_stats st;
    stats_compute(fig, n, &st);
    char params[128], place[32], med[24], mn[24], mx[24], ci[64];
    params_format(w, wl_run_params(r), false, params, sizeof params);
    placement_name(r, n ? wl_run_result(r, 0)->placement : -1, place,
                   sizeof place);
    fmt_fig(med, sizeof med, st.median);
    fmt_fig(mn, sizeof mn, st.min);
    fmt_fig(mx, sizeof mx, st.max);
    /* the median's own interval (order statistics) and its coverage */
    char lo[24], hi[24];
    fmt_fig(lo, sizeof lo, st.med_lo);
    fmt_fig(hi, sizeof hi, st.med_hi);
    if (isnan(st.med_lo))
        snprintf(ci, sizeof ci, "-");
    else
        snprintf(ci, sizeof ci, "%s..%s %.0f%%", lo, hi, st.med_cover * 100);
    printf("%-18s %-20s %-10s %-8s %3d %10s %10s %10s  %s\n", w->name,
           params[0] ? params : "-", place, w->unit, n, med, mn, mx, ci);
    if (n > 0)
        for (int k = 0; k < wl_run_result(r, n - 1)->nextra; k++) {
            const struct wl_extra *e = &wl_run_result(r, n - 1)->extra[k];
            char v[24];
            fmt_fig(v, sizeof v, e->value);
            printf("  %-37s %-10s %-8.8s %3s %10s\n", e->name, "", e->unit, "",
                   v);
        }
}

/* Waits for the run, showing live progress on a terminal's stderr. */
static enum wl_run_state wait_run(struct wl_run *r)
{
    if (!isatty(2))
        return wl_run_wait(r, &interrupted);
    while (!wl_run_state_final(wl_run_poll(r))) {
        if (interrupted)
            wl_run_stop(r);
        struct wl_run_status st;
        wl_run_status(r, &st);
        char fig[24];
        fmt_fig(fig, sizeof fig, st.figure);
        fprintf(stderr, "\r\033[K%s: %s, repeat %d/%d, %s %s",
                wl_run_workload(r)->name,
                st.phase == WL_WARMUP ? "warm-up" : "measuring", st.repeat + 1,
                wl_run_options(r)->repeats, fig, wl_run_workload(r)->unit);
        struct pollfd p = {.fd = wl_run_fd(r), .events = POLLIN};
        poll(&p, wl_run_fd(r) >= 0 ? 1 : 0,
             st.state == WL_RUN_STOPPING ? 10 : 200);
    }
    fprintf(stderr, "\r\033[K");
    return wl_run_poll(r);
}

/* Runs one workload and prints its row. 0, or 1 when it did not finish. */
static int run_one(const struct cli *c, const struct workload *w,
                   const double *vals)
{
    char err[512];
    struct wl_run *r = wl_run_start(w, vals, &c->opt, err, sizeof err);
    if (!r) {
        fprintf(stderr, "parallax-run: %s: %s\n", w->name, err);
        return 1;
    }
    enum wl_run_state s = wait_run(r);
    if (wl_run_nresults(r) > 0)
        print_row(r);
    if (s == WL_RUN_FAILED)
        fprintf(stderr, "parallax-run: %s\n", wl_run_error(r));
    fflush(stdout);
    wl_run_free(r);
    return s == WL_RUN_DONE ? 0 : 1;
}

static void catch_signals(void)
{
    struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int main(int argc, char **argv)
{
    struct cli c = {0};
    if (parse_args(argc, argv, &c) < 0)
        return EXIT_USAGE;
    if (c.list) {
        list_catalogue();
        return 0;
    }
    static const struct workload *w[SUITE_MAX_MEMBERS];
    static double vals[SUITE_MAX_MEMBERS][WL_MAX_PARAMS];
    int n = resolve_target(&c, w);
    if (n < 0 || (n > 1 && check_suite_keys(&c, w, n) < 0))
        return EXIT_USAGE;
    for (int i = 0; i < n; i++) /* every error before the first run */
        if (params_for(&c, w[i], n == 1, vals[i]) < 0)
            return EXIT_USAGE;
    catch_signals();
    print_header();
    int failed = 0;
    for (int i = 0; i < n && !interrupted; i++)
        failed |= run_one(&c, w[i], vals[i]);
    if (interrupted) {
        fprintf(stderr, "parallax-run: interrupted\n");
        return 128 + interrupted;
    }
    return failed;
}
