/* The suite table. Each group of workloads keeps its own lines; a name
 * here that the registry lacks fails tests/unit/test_suites.c. */
#include "runner/suites.h"

#include <stdio.h>
#include <string.h>

#include "workloads/registry.h"

static const char *const syscalls[] = {
    "syscall-null", "syscall-read",  "syscall-write",
    "syscall-stat", "syscall-fstat", "syscall-open",
    NULL,
};

/* a few seconds' look at a machine: one workload of each kind */
static const char *const quick[] = {
    /* system calls */
    "syscall-null",
    /* lmbench-style latencies */
    /* UnixBench-style throughputs, CPU, crypto, disk, time, scheduler */
    "pipe-tput",
    "dhry",
    NULL,
};

/* what lmbench's lat_* programs measure */
static const char *const lmbench[] = {
    /* system calls */
    "syscall-null",
    "syscall-read",
    "syscall-write",
    "syscall-stat",
    "syscall-fstat",
    "syscall-open",
    /* lmbench-style latencies */
    "pipe-lat",
    "ctx",
    "unix-lat",
    "tcp-lat",
    "fork-exit",
    "fork-exec",
    "fork-sh",
    "prot-fault",
    "page-fault",
    NULL,
};

/* what UnixBench's index tests (and bonnie, openssl speed) measure */
static const char *const unixbench[] = {
    /* UnixBench-style throughputs, CPU, crypto, disk, time, scheduler */
    "dhry",       "whet", "execl", "fcopy", "pipe-tput", "rsa-sign",
    "rsa-verify", "disk", "sleep", "sched", NULL,
};

/* The three reports parallax grew out of, each one command (README). 000:
 * a userland kernel against the real one (--demo-guest=uml): system
 * calls, forks, sleep fidelity, RSA "for N s" */
static const char *const seed000[] = {
    "syscall-null", "fork-exit", "sleep", "rsa-sign", NULL,
};

/* 001: a paravirtualised guest against native (--demo-guest): the
 * UnixBench-style index and the lmbench latencies */
static const char *const seed001[] = {
    "syscall-null",  "syscall-read", "syscall-write", "syscall-stat",
    "syscall-fstat", "syscall-open", "pipe-lat",      "ctx",
    "unix-lat",      "tcp-lat",      "fork-exit",     "fork-exec",
    "fork-sh",       "prot-fault",   "page-fault",    "dhry",
    "whet",          "execl",        "fcopy",         "pipe-tput",
    "rsa-sign",      "rsa-verify",   "disk",          "sleep",
    "sched",         NULL,
};

/* latency distributions: cyclictest's and schbench's methods */
static const char *const latency[] = {"timer-lat", "wakeup-lat", NULL};

/* 002: schedulers side by side (--demo-guest=kernel=6.1, 6.12, 6.12-rt):
 * j1 and j3 user and wall times, expected against actual, Jain's index,
 * per-task shares; and their tails: timer and wake-up latencies */
static const char *const seed002[] = {"sched", "timer-lat", "wakeup-lat", NULL};

static const struct wl_suite suite_syscalls = {
    "syscalls", "system call latencies (lmbench lat_syscall)", syscalls};
static const struct wl_suite suite_quick = {
    "quick", "one workload of each kind, for a first look", quick};
static const struct wl_suite suite_lmbench = {
    "lmbench", "lmbench-style latencies", lmbench};
static const struct wl_suite suite_unixbench = {
    "unixbench", "UnixBench-style throughputs, CPU, crypto, disk, time",
    unixbench};
static const struct wl_suite suite_latency = {
    "latency", "latency distributions: timer-lat, wakeup-lat", latency};
static const struct wl_suite suite_seed000 = {
    "seed000", "a userland kernel against the host (--demo-guest=uml)",
    seed000};
static const struct wl_suite suite_seed001 = {
    "seed001", "a virtual machine against the host: lmbench and UnixBench",
    seed001};
static const struct wl_suite suite_seed002 = {
    "seed002",
    "schedulers side by side: j1 against j3, fairness, latency tails", seed002};
static const struct wl_suite suite_all = {"all", "every workload", NULL};

const struct wl_suite *const wl_suites[] = {
    &suite_syscalls, &suite_quick,   &suite_lmbench, &suite_unixbench,
    &suite_latency,  &suite_seed000, &suite_seed001, &suite_seed002,
    &suite_all,      NULL,
};

const struct wl_suite *suite_find(const char *name)
{
    for (int i = 0; wl_suites[i]; i++)
        if (strcmp(wl_suites[i]->name, name) == 0)
            return wl_suites[i];
    return NULL;
}

int suite_resolve(const struct wl_suite *s, const struct workload **out,
                  int max, char *err, size_t errlen)
{
    int n = 0;
    for (int i = 0;
         s->members ? s->members[i] != NULL : workload_registry[i] != NULL;
         i++) {
        const struct workload *w =
            s->members ? workload_find(s->members[i]) : workload_registry[i];
        if (!w) {
            snprintf(err, errlen, "suite %s: no workload named \"%s\"", s->name,
                     s->members[i]);
            return -1;
        }
        if (n == max) {
            snprintf(err, errlen, "suite %s: more than %d workloads", s->name,
                     max);
            return -1;
        }
        out[n++] = w;
    }
    return n;
}

void suite_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; wl_suites[i] && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                         wl_suites[i]->name);
        if (k > 0)
            used += (size_t)k;
    }
}

int suite_or_list_resolve(const char *what, const struct workload **out,
                          int max, char *err, size_t errlen)
{
    const struct wl_suite *suite = suite_find(what);
    if (suite)
        return suite_resolve(suite, out, max, err, errlen);
    char list[512];
    int n = 0;
    snprintf(list, sizeof(list), "%s", what);
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        out[n] = workload_find(tok);
        if (!out[n] || n == max - 1) {
            char suites[256];
            suite_names(suites, sizeof(suites));
            snprintf(err, errlen,
                     "'%s' is neither a suite (%s) nor a workload; see "
                     "parallax-run --list",
                     tok, suites);
            return -1;
        }
        n++;
    }
    return n;
}
