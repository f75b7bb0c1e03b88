/* The agent's control parsing: what a client stores is checked byte by
 * byte and word by word against the catalogue and the bounds, refusals
 * say why in one line, a lease is bounded and a renewal names only
 * catalogue workloads, and the args a run reports parse back to the same
 * run. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/near.h"

#include "pmda/control.h"
#include "workloads/params.h"
#include "workloads/registry.h"

static char err[512];
static struct start_req req;

static int start(const char *text)
{
    err[0] = '\0';
    return control_parse_start(text, &req, err, sizeof err);
}

static void refused(const char *text, const char *reason)
{
    if (start(text) == 0)
        fail_msg("\"%s\" was accepted", text);
    if (!strstr(err, reason))
        fail_msg("\"%s\": reason \"%s\", want \"%s\"", text, err, reason);
    assert_null(strchr(err, '\n'));
}

/* The first catalogue workload with a parameter, or NULL. */
static const struct workload *with_params(void)
{
    for (int i = 0; workload_registry[i]; i++)
        if (params_count(workload_registry[i]) > 0)
            return workload_registry[i];
    return NULL;
}

static void test_text_checks(void **state)
{
    (void)state;
    char buf[CONTROL_MAX_TEXT + 1];
    assert_int_equal(control_text("a\tb c", 5, buf, err, sizeof err), 0);
    assert_string_equal(buf, "a\tb c");
    /* wire text need not be terminated; it ends at len or a NUL */
    assert_int_equal(control_text("abcdef", 3, buf, err, sizeof err), 0);
    assert_string_equal(buf, "abc");
    assert_int_equal(control_text("ab\0cd", 5, buf, err, sizeof err), 0);
    assert_string_equal(buf, "ab");
    assert_int_equal(control_text("a\nb", 3, buf, err, sizeof err), -1);
    assert_non_null(strstr(err, "0x0a"));
    assert_int_equal(control_text("a\x7f", 2, buf, err, sizeof err), -1);
    assert_int_equal(control_text("\xc3\xa9", 2, buf, err, sizeof err), -1);
    static char big[CONTROL_MAX_TEXT + 2];
    memset(big, 'a', sizeof big - 1);
    assert_int_equal(control_text(big, sizeof big, buf, err, sizeof err), -1);
    assert_non_null(strstr(err, "longer than"));
    big[CONTROL_MAX_TEXT] = '\0';
    assert_int_equal(control_text(big, sizeof big, buf, err, sizeof err), 0);
}

static void test_defaults(void **state)
{
    (void)state;
    assert_int_equal(start("syscall-null"), 0);
    assert_string_equal(req.w->name, "syscall-null");
    struct wl_run_opts d;
    wl_run_opts_default(&d);
    assert_int_equal(req.opt.repeats, d.repeats);
    assert_near(req.opt.duration, d.duration, 0);
    assert_near(req.opt.warmup, d.warmup, 0);
    assert_int_equal(req.opt.cpu, -1);
    assert_near(req.lease, 0, 0); /* pmstore's runs have none */
    assert_int_equal(start("  syscall-null\t "), 0); /* blanks around */
}

static void test_options(void **state)
{
    (void)state;
    assert_int_equal(
        start("syscall-null --repeats=5 --duration=0.5 --warmup=0 --cpu=0"), 0);
    assert_int_equal(req.opt.repeats, 5);
    assert_near(req.opt.duration, 0.5, 0);
    assert_near(req.opt.warmup, 0, 0);
    assert_int_equal(req.opt.cpu, 0);
    assert_int_equal(start("syscall-null --count=1000"), 0);
    assert_int_equal(req.opt.count, 1000);
    refused("syscall-null --repeats=0", "--repeats=0: expected a whole");
    refused("syscall-null --repeats=101", "1..100");
    refused("syscall-null --repeats=2.5", "whole number");
    refused("syscall-null --duration=0", "--duration=0");
    refused("syscall-null --duration=nan", "--duration=nan");
    refused("syscall-null --duration=1x", "--duration=1x");
    refused("syscall-null --duration=0x1", "--duration=0x1");
    refused("syscall-null --count=0x10", "--count=0x10");
    refused("syscall-null --repeats=0x2", "--repeats=0x2");
    refused("syscall-null --duration=", "--duration=");
    refused("syscall-null --warmup=61", "--warmup=61");
    refused("syscall-null --count=0", "--count=0");
    refused("syscall-null --cpu=-1", "--cpu=-1");
    refused("syscall-null --duration=1 --count=5", "not both");
    refused("syscall-null --repeats", "unknown option");
    refused("syscall-null --exec=/bin/sh", "unknown option");
}

/* --lease=SECS: 2 to 3600 s, decimal, given once or the last one wins
 * like every option; anything else is refused naming the bounds. */
static void test_lease(void **state)
{
    (void)state;
    assert_int_equal(start("syscall-null --lease=30"), 0);
    assert_near(req.lease, 30, 0);
    assert_int_equal(start("syscall-null --repeats=50 --lease=2 --cpu=0"), 0);
    assert_near(req.lease, 2, 0);
    assert_int_equal(req.opt.repeats, 50);
    assert_int_equal(start("syscall-null --lease=3600"), 0);
    assert_near(req.lease, 3600, 0);
    assert_int_equal(start("syscall-null --lease=2.5"), 0);
    assert_near(req.lease, 2.5, 0);
    refused("syscall-null --lease=1.99",
            "--lease=1.99: expected a number 2..3600");
    refused("syscall-null --lease=0", "2..3600");
    refused("syscall-null --lease=-5", "2..3600");
    refused("syscall-null --lease=3600.5", "2..3600");
    refused("syscall-null --lease=1e9", "2..3600");
    refused("syscall-null --lease=inf", "--lease=inf");
    refused("syscall-null --lease=nan", "--lease=nan");
    refused("syscall-null --lease=0x10", "--lease=0x10");
    refused("syscall-null --lease=", "--lease=");
    refused("syscall-null --lease", "unknown option");
    refused("syscall-null --leases=30", "unknown option");
    /* the refusal of an unknown option names --lease among the options */
    refused("syscall-null --nosuch=1", "--lease=SECS");
}

static double lease;

static int renew(const char *text, const struct workload **w, int max)
{
    err[0] = '\0';
    lease = -1;
    return control_parse_renew(text, &lease, w, max, err, sizeof err);
}

/* What parallax.control.renew takes: one or more catalogue names, and
 * maybe the lease they get from now on. */
static void test_renew(void **state)
{
    (void)state;
    const struct workload *w[CONTROL_MAX_NAMES];
    assert_int_equal(renew("syscall-null", w, CONTROL_MAX_NAMES), 1);
    assert_string_equal(w[0]->name, "syscall-null");
    assert_near(lease, 0, 0); /* each keeps its own */
    assert_int_equal(
        renew(" syscall-null\tsyscall-null ", w, CONTROL_MAX_NAMES), 2);
    const struct workload *other = workload_registry[1];
    char text[CONTROL_MAX_TEXT + 64];
    snprintf(text, sizeof text, "--lease=90 syscall-null %s", other->name);
    assert_int_equal(renew(text, w, CONTROL_MAX_NAMES), 2);
    assert_ptr_equal(w[1], other);
    assert_near(lease, 90, 0);
    assert_int_equal(renew("syscall-null --lease=2.5", w, CONTROL_MAX_NAMES),
                     1);
    assert_near(lease, 2.5, 0);
    /* the lease within the bounds of a start's */
    assert_int_equal(renew("--lease=1 syscall-null", w, CONTROL_MAX_NAMES), -1);
    assert_non_null(strstr(err, "--lease=1: expected a number 2..3600"));
    assert_int_equal(renew("--lease=3601 syscall-null", w, CONTROL_MAX_NAMES),
                     -1);
    assert_int_equal(renew("--lease=0x10 syscall-null", w, CONTROL_MAX_NAMES),
                     -1);
    assert_int_equal(renew("--lease=nan syscall-null", w, CONTROL_MAX_NAMES),
                     -1);
    /* no other option */
    assert_int_equal(renew("--repeats=5 syscall-null", w, CONTROL_MAX_NAMES),
                     -1);
    assert_non_null(strstr(err, "a renewal takes --lease=SECS"));
    /* every name is checked: one unknown refuses the whole renewal */
    assert_int_equal(renew("syscall-null nosuch", w, CONTROL_MAX_NAMES), -1);
    assert_non_null(strstr(err, "unknown workload \"nosuch\""));
    assert_int_equal(renew("", w, CONTROL_MAX_NAMES), -1);
    assert_non_null(strstr(err, "got none"));
    assert_int_equal(renew("--lease=30", w, CONTROL_MAX_NAMES), -1);
    assert_non_null(strstr(err, "got none"));
    assert_int_equal(renew("$(reboot)", w, CONTROL_MAX_NAMES), -1);
    assert_int_equal(renew("syscall-null\n", w, CONTROL_MAX_NAMES), -1);
    assert_non_null(strstr(err, "printable ASCII"));
    /* no more names than the caller has room for */
    assert_int_equal(renew("syscall-null syscall-null", w, 1), -1);
    assert_non_null(strstr(err, "more than 1 names"));
    assert_int_equal(renew("--lease=5 syscall-null", w, 1), 1);
    text[0] = '\0';
    for (int i = 0; i <= CONTROL_MAX_NAMES; i++)
        strcat(text, "sleep ");
    assert_int_equal(renew(text, w, CONTROL_MAX_NAMES), -1);
    assert_non_null(strstr(err, "more than"));
    for (int i = 0; i < 3 * CONTROL_MAX_NAMES; i++)
        strcat(text, "x ");
    assert_int_equal(renew(text, w, CONTROL_MAX_NAMES), -1);
    assert_null(strchr(err, '\n'));
}

static void test_names(void **state)
{
    (void)state;
    refused("", "no workload named");
    refused("   ", "no workload named");
    refused("nosuch", "unknown workload \"nosuch\"");
    refused("syscall-null;reboot", "unknown workload");
    refused("$(reboot)", "unknown workload");
    refused("../../bin/sh", "unknown workload");
    refused("syscall-null\nx", "printable ASCII");
    refused("syscall-null nokey=1", "unknown parameter \"nokey\"");
    refused("syscall-null noequals", "not key=value");
    char many[512] = "syscall-null";
    for (int i = 0; i < 40; i++)
        strcat(many, " --repeats=1");
    refused(many, "more than 32 words");
}

static void test_params(void **state)
{
    (void)state;
    const struct workload *w = with_params();
    if (!w)
        skip();
    const struct wl_param *p = &w->params[0];
    char text[256];
    snprintf(text, sizeof text, "%s %s=%.17g", w->name, p->name, p->max);
    assert_int_equal(start(text), 0);
    assert_near(req.param[0], p->max, 0);
    snprintf(text, sizeof text, "%s %s=%.17g", w->name, p->name,
             p->max * 10 + 1);
    refused(text, "out of range");
}

static void test_stop_name(void **state)
{
    (void)state;
    const struct workload *w =
        control_parse_name(" syscall-null ", err, sizeof err);
    assert_non_null(w);
    assert_string_equal(w->name, "syscall-null");
    assert_null(control_parse_name("nosuch", err, sizeof err));
    assert_non_null(strstr(err, "unknown workload"));
    assert_null(
        control_parse_name("syscall-null syscall-read", err, sizeof err));
    assert_null(control_parse_name("", err, sizeof err));
}

/* What a run reports in parallax.workload.args starts the same run. */
static void test_args_round_trip(void **state)
{
    (void)state;
    const struct workload *w = with_params();
    char text[1024], args[512];
    const char *name = w ? w->name : "syscall-null";
    snprintf(text, sizeof text,
             "%s --repeats=3 --duration=0.25 --cpu=0 --lease=7.5", name);
    if (w) {
        size_t n = strlen(text);
        snprintf(text + n, sizeof text - n, " %s=%.17g", w->params[0].name,
                 w->params[0].min);
    }
    assert_int_equal(start(text), 0);
    struct start_req first = req;
    control_format_args(&first, args, sizeof args);
    assert_non_null(strstr(args, " --lease=7.5"));
    snprintf(text, sizeof text, "%s %s", name, args);
    assert_int_equal(start(text), 0);
    assert_ptr_equal(req.w, first.w);
    assert_int_equal(req.opt.repeats, 3);
    assert_near(req.opt.duration, 0.25, 0);
    assert_int_equal(req.opt.cpu, 0);
    assert_near(req.lease, 7.5, 0);
    assert_memory_equal(req.param, first.param, sizeof req.param);
    control_format_args(&req, text, sizeof text);
    assert_string_equal(text, args);
    /* a run without a lease says none */
    assert_int_equal(start("syscall-null"), 0);
    control_format_args(&req, text, sizeof text);
    assert_null(strstr(text, "lease"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_checks),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_lease),
        cmocka_unit_test(test_renew),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_stop_name),
        cmocka_unit_test(test_args_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
