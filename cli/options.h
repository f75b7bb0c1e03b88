/* Command-line options of parallax, PCP's where PCP has a convention
 * (pmGetOptions(3): -h and -a repeated, -a lists, -t in PCP's interval
 * syntax, -S -T -O, -z -Z, -s, -o csv and -F as pmrep's, and what pcp(1)
 * passes in the environment). Parsing never exits: errors come back as one
 * line. */
#ifndef PARALLAX_OPTIONS_H
#define PARALLAX_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/source_spec.h"

#define INTERVAL_MIN           0.1
#define OPTIONS_MAX_GUESTS     56 /* with the host and baselines: 64 */
#define OPTIONS_MAX_BASELINES  7
#define OPTIONS_MAX_DEMO       8  /* --demo-guest, repeated (DEMO_GUESTS_MAX) */
#define OPTIONS_MAX_ARCHIVES   16 /* -a: each may hold several sources */
#define OPTIONS_MAX_CONTAINERS 8
#define REPEATS_MAX            100
#define INTERVAL_MAX           3600.0

enum options_action {
    OPT_RUN,     /* the live screen, or --text */
    OPT_HELP,    /* print usage, exit 0 */
    OPT_VERSION, /* print version, exit 0 */
    OPT_ERROR,   /* print the error, exit 2 */
};

struct options {
    double interval; /* seconds between samples */
    long samples;    /* refreshes to print with --text; 0 = until stopped */
    bool text;       /* plain text on stdout instead of the screen */
    int ndemo;       /* --demo-guest: parallax's own guests to boot */
    const char *demo_variants[OPTIONS_MAX_DEMO]; /* "uml", "kernel=6.12" */
    int nguests; /* -h HOST[:PORT], in the order given */
    struct source_spec guests[OPTIONS_MAX_GUESTS];
    const char *report_dir; /* --report-dir, NULL: the default */
    const char *theme;      /* --theme NAME or FILE, NULL: default */
    const char *local;      /* --local proc|pcp|gtop: how this host is read */
    bool syscalls;          /* --syscalls: count system calls from the start */
    bool no_vm_view;        /* --no-vm-view: no host's view of this host's
                               VMs (no reading of their processes) */
    const char *batch;      /* --batch SUITE|WL[,WL...], NULL: not batch */
    const char *output;     /* --output FILE for --batch, NULL: stdout */
    bool overlap;           /* --overlap: --batch runs a workload on every
                               source at once, not one after another */
    int repeats;            /* --repeats of every workload run */
    double lease;           /* --lease: s a guest's run outlives this
                               parallax's last renewal of it */
    int verbose;            /* -v, repeatable: how much goes to the log */
    int nbaselines;         /* --baseline [LABEL=]FILE[:SOURCE] */
    const char *baselines[OPTIONS_MAX_BASELINES];
    const char *record; /* --record DIR: PCP archives of the session */
    int narchives;      /* -a [NAME=]ARCHIVE, in the order given */
    const char *archives[OPTIONS_MAX_ARCHIVES];
    /* the fleet (docs/fleet.md) */
    const char *fleet;        /* --fleet URL of a pmproxy, NULL: not */
    const char *fleet_filter; /* --fleet-filter: the guests shown and run */
    int fleet_jobs;           /* --fleet-jobs: sources a run takes at once */
    /* PCP's conventions (pmGetOptions(3), cli/pcp_env.h) */
    const char *start, *finish, *origin; /* -S, -T, -O: the replay window */
    bool hostzone;           /* -z: times in the zone of the first source */
    const char *timezone;    /* -Z TZ: times in that zone */
    const char *output_file; /* -F FILE: --text's output, --batch's CSV */
    bool csv;                /* --text -o csv: CSV rows, not the table */
    int ncontainers;         /* --container: also in guests[], as HOST?... */
    struct {
        char name[64];  /* the container, as its runtime names it */
        char host[128]; /* the pmcd that reads it: HOST[:PORT] */
    } containers[OPTIONS_MAX_CONTAINERS];
};

/* Parses argv into o (defaults first). On OPT_ERROR, err holds a one-line
 * message that names the problem and the fix. */
enum options_action options_parse(int argc, char **argv, struct options *o,
                                  char *err, size_t errlen);

/* Writes the --help text to f. */
void options_usage(FILE *f);

#endif
