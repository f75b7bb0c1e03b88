/* The text report of a fixed model matches tests/golden/report.txt, bar
 * the lines that vary (version, date); it is plain ASCII and its tables
 * line up. PARALLAX_UPDATE_GOLDEN=1 rewrites the golden file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/report_text.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_golden),
        cmocka_unit_test(test_plain_ascii),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
