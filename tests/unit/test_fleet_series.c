/* The fleet's reading of pmproxy's answers without a server: the /series
 * parsers on answers captured from pmproxy 6.0.3 (timestamps in
 * milliseconds, strings inside their own quotes), the label convention
 * and its one door for text from the network, units, the identifier map,
 * and that fleet/pmlogger.conf logs every name the fleet reads. The
 * requests themselves run against a real pmproxy in
 * tests/integration/test_fleet.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/safe_text.h"
#include "fleet/fleet_labels.h"
#include "fleet/fleet_metrics.h"
#include "fleet/idmap.h"
#include "fleet/series.h"

#define S1  "3f545bbf6d3a539389c89859ad20dbab081f64e4"
#define S2  "6b202f85f8de2fb5d6cd239c22c9d9e6bd13acf4"
#define I1  "9a221f6b20a5858fce83256aa1ed18c0ac8f9e4b"
#define SRC "540731575648594fb356efc724b6ef2b91293928"

struct got {
    int n;
    char series[8][41], inst[8][41], value[8][64];
    double stamp[8];
};

static void on_value(void *arg, const char *series, const char *instance,
                     double stamp, const char *value)
{
    struct got *g = arg;
    snprintf(g->series[g->n], 41, "%s", series);
    snprintf(g->inst[g->n], 41, "%s", instance ? instance : "");
    snprintf(g->value[g->n], 64, "%s", value);
    g->stamp[g->n++] = stamp;
}

static void test_values(void **state)
{
    (void)state;
    /* as /series/values answered: one singular, one instance, a string */
    const char *json =
        "[{\"series\":\"" S1 "\",\"timestamp\":1796126269929.965,"
        "\"value\":\"7000945\"},"
        "{\"series\":\"" S2 "\",\"instance\":\"" I1 "\","
        "\"timestamp\":1796126269921.822,\"value\":\"1.010000e+00\"},"
        "{\"series\":\"" S1 "\",\"timestamp\":1796126269929.965,"
        "\"value\":\"\\\"6.18.44\\\"\"},"
        "{\"series\":\"nothex\",\"timestamp\":1,\"value\":\"1\"}]";
    struct got g = {0};
    char err[160];
    assert_int_equal(series_parse_values(json, on_value, &g, err, sizeof err),
                     0);
    assert_int_equal(g.n, 3); /* the malformed identifier is left out */
    assert_string_equal(g.series[0], S1);
    assert_string_equal(g.inst[0], "");
    assert_true(g.stamp[0] > 1796126269.92 && g.stamp[0] < 1796126269.94);
    assert_string_equal(g.inst[1], I1);
    assert_string_equal(g.value[1], "1.010000e+00");
    assert_string_equal(g.value[2], "\"6.18.44\"");
}

static void test_not_json(void **state)
{
    (void)state;
    struct got g = {0};
    char err[160];
    assert_int_equal(
        series_parse_values("<html>", on_value, &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "not JSON"));
    assert_int_equal(
        series_parse_values("{\"a\":1}", on_value, &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a JSON array"));
}

/* jansson's reason quotes the answer it could not read: an answer of
 * escape sequences must not reach a terminal through it (issue 24) */
static void test_not_json_reason_is_clean(void **state)
{
    (void)state;
    struct got g = {0};
    char err[160];
    const char *answers[] = {"\x1b]0;evil-title\x07", "[\"a\x1b[2J\"]",
                             "\xc2\x9b"
                             "31m",
                             "[1,\x07]"};
    for (size_t i = 0; i < sizeof(answers) / sizeof(answers[0]); i++) {
        assert_int_equal(
            series_parse_values(answers[i], on_value, &g, err, sizeof err), -1);
        assert_non_null(strstr(err, "not JSON"));
        for (const char *p = err; *p; p++)
            assert_true(*p >= 0x20 && *p < 0x7f);
    }
}

/* an identifier is 40 hex digits, every one: a hex prefix and 24 other
 * bytes once passed */
static void test_ids_whole(void **state)
{
    (void)state;
    struct series_ids ids = {0};
    char err[160];
    assert_int_equal(
        series_parse_ids(
            "[\"3f545bbf6d3a5393\\u001b]0;evil\\u0007xxxxxxxxxxxxxxx\","
            "\"" S1 "\"]",
            &ids, err, sizeof err),
        0);
    assert_int_equal(ids.n, 1);
    assert_string_equal(ids.id[0], S1);
    series_ids_free(&ids);
}

static void on_desc(void *arg, const char *series, const char *source,
                    const char *units)
{
    struct got *g = arg;
    snprintf(g->series[g->n], 41, "%s", series);
    snprintf(g->inst[g->n], 41, "%s", source);
    snprintf(g->value[g->n++], 64, "%s", units);
}

static void test_descs_and_ids(void **state)
{
    (void)state;
    const char *json = "[{\"series\":\"" S1 "\",\"source\":\"" SRC "\","
                       "\"pmid\":\"60.0.41\",\"indom\":\"none\","
                       "\"semantics\":\"counter\",\"type\":\"u64\","
                       "\"units\":\"Kbyte\"}]";
    struct got g = {0};
    char err[160];
    assert_int_equal(series_parse_descs(json, on_desc, &g, err, sizeof err), 0);
    assert_int_equal(g.n, 1);
    assert_string_equal(g.inst[0], SRC);
    assert_string_equal(g.value[0], "Kbyte");
    struct series_ids ids = {0};
    assert_int_equal(series_parse_ids("[\"" S1 "\",\"" S2 "\",\"x\"]", &ids,
                                      err, sizeof err),
                     0);
    assert_int_equal(ids.n, 2);
    assert_string_equal(ids.id[1], S2);
    series_ids_free(&ids);
}

static void on_label(void *arg, const char *series, const char *name,
                     const char *value)
{
    struct fleet_labels *l = arg;
    (void)series;
    fleet_labels_set(l, name, value);
}

static void test_labels(void **state)
{
    (void)state;
    /* a guest of h01, its name with an escape sequence in it: cleaned */
    const char *json =
        "[{\"series\":\"" S1 "\",\"labels\":{\"agent\":\"linux\","
        "\"hostname\":\"vm\",\"parallax_role\":\"guest\","
        "\"parallax_name\":\"g\\u001b[2J1\",\"parallax_host\":\"h01\","
        "\"parallax_variant\":\"tcg\",\"userid\":1000}}]";
    struct fleet_labels l = {0};
    char err[160];
    assert_int_equal(series_parse_labels(json, on_label, &l, err, sizeof err),
                     0);
    fleet_labels_finish(&l);
    assert_int_equal(l.role, FLEET_GUEST);
    assert_string_equal(l.name, "g?[2J1");
    assert_string_equal(l.host, "h01");
    assert_string_equal(l.variant, "tcg");
    assert_string_equal(l.pmcd, "vm"); /* no parallax_pmcd: the hostname */
    /* no labels of ours: named after its host name, unlabelled */
    struct fleet_labels u = {0};
    fleet_labels_set(&u, "hostname", "db7");
    fleet_labels_finish(&u);
    assert_int_equal(u.role, FLEET_UNLABELLED);
    assert_string_equal(u.name, "db7");
}

static void test_clean(void **state)
{
    (void)state;
    char out[8];
    safe_text_copy(out, sizeof out, "a\tb\x7f\xc3\xa9z", 0);
    assert_string_equal(out, "a?b?\xc3\xa9z");        /* é is printable */
    safe_text_copy(out, sizeof out, "0123456789", 0); /* cut to fit */
    assert_string_equal(out, "0123456");
    safe_text_copy(out, sizeof out, NULL, 0);
    assert_string_equal(out, "");
}

static void test_units(void **state)
{
    (void)state;
    double sc;
    assert_true(fleet_unit_scale("Kbyte", MU_BYTE, &sc));
    assert_true(sc == 1024.0);
    assert_true(fleet_unit_scale("millisec", MU_MSEC, &sc) && sc == 1);
    assert_true(fleet_unit_scale("sec", MU_MSEC, &sc) && sc == 1000);
    assert_true(fleet_unit_scale("none", MU_COUNT, &sc) && sc == 1);
    assert_false(fleet_unit_scale("Kbyte", MU_MSEC, &sc));
    assert_false(fleet_unit_scale("count / sec", MU_COUNT, &sc));
}

static void test_idmap(void **state)
{
    (void)state;
    struct idmap m = {0};
    for (int i = 1; i <= 5000; i++)
        assert_true(idmap_put(&m, (uint64_t)i * 0x9e3779b97f4a7c15ull, i));
    for (int i = 1; i <= 5000; i++)
        assert_int_equal(idmap_get(&m, (uint64_t)i * 0x9e3779b97f4a7c15ull), i);
    assert_int_equal(idmap_get(&m, 12345), -1);
    assert_int_equal(idmap_get(&m, 0), -1);
    idmap_clear(&m);
    assert_int_equal(idmap_get(&m, 0x9e3779b97f4a7c15ull), -1);
    idmap_free(&m);
    assert_true(series_key(S1) == 0x3f545bbf6d3a5393ull);
    assert_true(series_key("zz") == 0);
}

/* Every name the fleet reads is logged by the farm's pmlogger config, and
 * the one that would slow every system call down is not. */
static void test_pmlogger_conf(void **state)
{
    (void)state;
    FILE *f = fopen("fleet/pmlogger.conf", "r");
    assert_non_null(f);
    char line[256], all[8192] = "\n";
    while (fgets(line, sizeof line, f))
        if (line[0] != '#')
            strncat(all, line, sizeof all - strlen(all) - 1);
    fclose(f);
    const struct fleet_metrics *fm = fleet_metrics();
    for (int k = 0; k < fm->nnames; k++) {
        char want[160];
        snprintf(want, sizeof want, "\n%s\n", fm->names[k].name);
        if (!strstr(all, want))
            fail_msg("fleet/pmlogger.conf does not log %s", fm->names[k].name);
    }
    assert_null(strstr(all, "parallax.syscalls.total"));
    assert_int_equal(fm->a[METRIC_SYSCALLS], -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_not_json),
        cmocka_unit_test(test_not_json_reason_is_clean),
        cmocka_unit_test(test_ids_whole),
        cmocka_unit_test(test_descs_and_ids),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_idmap),
        cmocka_unit_test(test_pmlogger_conf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
