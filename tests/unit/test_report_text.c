/* The text report of a fixed model matches tests/golden/report.txt, bar
 * the lines that vary (version, date); it is plain ASCII and its tables
 * line up; no figure is written with an exponent; a long failure note
 * goes whole under its table and widens nothing. The table writer bounds
 * cells and wraps notes. PARALLAX_UPDATE_GOLDEN=1 rewrites the golden
 * file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/report_table.h"
#include "report/report_text.h"
#include "report_fixture.h"

#define GOLDEN "tests/golden/report.txt"

/* The report of the fixture with the varying lines replaced. */
static char *filtered_report(void)
{
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct report_meta meta = fix_meta();
    char *raw = NULL, *out = NULL;
    size_t rn = 0, on = 0;
    FILE *f = open_memstream(&raw, &rn);
    assert_int_equal(report_text_write(f, s, j, &meta), 0);
    fclose(f);
    fix_free(s, j);
    f = open_memstream(&out, &on);
    char *rest = raw;
    for (char *line; (line = strsep(&rest, "\n")) && rest;) {
        if (strncmp(line, "version:", 8) == 0)
            line = "version:   <VERSION>";
        else if (strncmp(line, "date:", 5) == 0)
            line = "date:      <DATE>";
        fprintf(f, "%s\n", line);
    }
    fclose(f);
    free(raw);
    return out;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    int c;
    while ((c = fgetc(f)) != EOF)
        fputc(c, m);
    fclose(m);
    fclose(f);
    return buf;
}

static void test_matches_golden(void **state)
{
    (void)state;
    char *got = filtered_report();
    if (getenv("PARALLAX_UPDATE_GOLDEN")) {
        FILE *f = fopen(GOLDEN, "w");
        assert_non_null(f);
        fputs(got, f);
        fclose(f);
    }
    char *want = slurp(GOLDEN);
    assert_non_null(want);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "report differs from %s; got:\n%s", GOLDEN, got);
    assert_string_equal(got, want);
    free(want);
    free(got);
}

static void test_plain_ascii(void **state)
{
    (void)state;
    char *got = filtered_report();
    for (const unsigned char *p = (const unsigned char *)got; *p; p++)
        assert_true(*p == '\n' || (*p >= 0x20 && *p < 0x7f));
    assert_null(strstr(got, " \n")); /* nothing trails a line */
    free(got);
}

/* Intervals and medians of every size are written out: 1400..1600 and
 * 25000000, not 1.4e+03 or 2.55e+07. */
static void test_no_exponents(void **state)
{
    (void)state;
    char *got = filtered_report();
    assert_null(strstr(got, "e+"));
    assert_non_null(strstr(got, " 1400..1600 ")); /* fork-exit, the guest */
    assert_non_null(strstr(got, " 25000000..26000000\n"));
    free(got);
}

/* The line after the one that starts with `head`, and that line. */
static const char *line_after(const char *text, const char *head,
                              size_t *head_len)
{
    const char *at = strstr(text, head);
    assert_non_null(at);
    *head_len = strcspn(at, "\n");
    return at + *head_len + 1;
}

/* The fixture's note of 240 characters: the workloads table's rule is as
 * wide as its widest row (the note column holds "[1]" and the marks), the
 * note is under the table whole, wrapped, and no line of the report is
 * much wider than an e-mail's. */
static void test_long_note(void **state)
{
    (void)state;
    char *got = filtered_report();
    size_t head_len;
    const char *rule = line_after(got, "workload      unit", &head_len);
    size_t rule_len = strspn(rule, "-");
    assert_int_equal(rule[rule_len], '\n');
    assert_int_equal(rule_len, head_len + strlen("partial") - strlen("note"));
    const char *note = strstr(got, "\n[1] No permission");
    assert_non_null(note);
    /* joined again, the wrapped lines give the note */
    char joined[512] = "";
    const char *p = note + 5;
    for (size_t len; *p && *p != '[' && *p != '\n'; p += len + 1) {
        len = strcspn(p, "\n");
        assert_true(len <= RTABLE_WRAP);
        strncat(joined, p + strspn(p, " "), len - strspn(p, " "));
        strcat(joined, " ");
    }
    joined[strlen(joined) - 1] = '\0';
    assert_string_equal(joined, FIX_LONG_NOTE);
    for (char *line = got; *line; line += strcspn(line, "\n") + 1)
        assert_true(strcspn(line, "\n") <= 90);
    free(got);
}

/* True when the line of text that starts with start ends with end. */
static bool ends_with_line(const char *text, const char *start, const char *end)
{
    const char *line = strstr(text, start);
    if (!line)
        return false;
    size_t len = strcspn(line + 1, "\n"), elen = strlen(end);
    return len >= elen && strncmp(line + 1 + len - elen, end, elen) == 0;
}

/* A cell longer than RTABLE_CELL_W is cut with "..."; equal notes share a
 * number; a note is wrapped at RTABLE_WRAP with its number's indent. */
static void test_table_bounds(void **state)
{
    (void)state;
    char long_cell[100], long_note[400] = "";
    memset(long_cell, 'x', sizeof(long_cell) - 1);
    long_cell[sizeof(long_cell) - 1] = '\0';
    for (int i = 0; i < 40; i++)
        strcat(long_note, "word567 ");
    struct rtable *t = rtable_new("ll");
    rtable_add(t, "name");
    rtable_add(t, "note");
    rtable_add(t, "%s", long_cell);
    rtable_add_noted(t, "failed", long_note);
    rtable_add(t, "b");
    rtable_add_noted(t, "", long_note);
    rtable_add(t, "c");
    rtable_add_noted(t, "down", "short");
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    rtable_print(f, t);
    fclose(f);
    rtable_free(t);
    char want[64];
    snprintf(want, sizeof(want), "%.*s...  failed [1]\n", RTABLE_CELL_W - 3,
             long_cell);
    assert_non_null(strstr(out, want));
    assert_true(ends_with_line(out, "\nb ", " [1]"));
    assert_true(ends_with_line(out, "\nc ", " down [2]"));
    assert_non_null(strstr(out, "\n[1] word567 word567"));
    assert_non_null(strstr(out, "\n    word567 word567"));
    assert_non_null(strstr(out, "\n[2] short\n"));
    assert_null(strstr(out, "[3]"));
    for (char *line = out; *line; line += strcspn(line, "\n") + 1)
        assert_true(strcspn(line, "\n") <= RTABLE_WRAP);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_golden),
        cmocka_unit_test(test_plain_ascii),
        cmocka_unit_test(test_no_exponents),
        cmocka_unit_test(test_long_note),
        cmocka_unit_test(test_table_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
