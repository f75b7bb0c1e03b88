/* Text from guests, files and the command line made safe for a terminal:
 * escape sequences, C1 controls and malformed UTF-8 masked, printable
 * UTF-8 kept, cuts on character boundaries, long echoes marked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "base/safe_text.h"

static const char *safe(const char *in)
{
    static char buf[256];
    snprintf(buf, sizeof(buf), "%s", in);
    return safe_text(buf);
}

static void test_controls(void **state)
{
    (void)state;
    /* the host name of issue 16: retitle the window, clear the screen */
    assert_string_equal(safe("\033]2;PWNED\a\033[2J"), "?]2;PWNED??[2J");
    assert_string_equal(safe("a\tb\nc\rd\x7f"), "a?b?c?d?");
    assert_string_equal(safe("\xc2\x9b"
                             "31m"),
                        "??31m"); /* C1 CSI */
    assert_string_equal(safe("\x9b"
                             "2J"),
                        "?2J"); /* 8-bit CSI */
    assert_false(safe_text_ok("vm\033[2J"));
    assert_false(safe_text_ok("\xc2\x85"));
    assert_true(safe_text_ok("guest-1.example:44321"));
    assert_true(safe_text_ok(""));
    char lines[] = "seq out\tKB/s\t12\n\033[2J\tx\r\t1\n";
    assert_string_equal(safe_text_lines(lines),
                        "seq out\tKB/s\t12\n?[2J\tx?\t1\n");
}

static void test_utf8(void **state)
{
    (void)state;
    const char *kept[] = {"µs ±3 ×", "日本語", "\xf0\x9f\x99\x82", "\xc2\xa0"};
    for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
        assert_string_equal(safe(kept[i]), kept[i]);
        assert_true(safe_text_ok(kept[i]));
    }
    assert_string_equal(safe("\xc0\xaf"), "??");           /* overlong '/' */
    assert_string_equal(safe("\xe0\x80\xaf"), "???");      /* overlong */
    assert_string_equal(safe("\xed\xa0\x80"), "???");      /* surrogate */
    assert_string_equal(safe("\xf4\x90\x80\x80"), "????"); /* > U+10FFFF */
    assert_string_equal(safe("a\xe6\x97"), "a??");         /* cut short */
    assert_string_equal(safe("\x80x"), "?x");              /* stray byte */
}

/* The bidirectional controls (U+202E turns what follows around) and the
 * line and paragraph separators: masked, each byte (the fleet's evil
 * labels end in U+202E, tests/hostile_pmproxy.py). */
static void test_bidi(void **state)
{
    (void)state;
    assert_string_equal(safe("exe\xe2\x80\xaegpj"), "exe???gpj"); /* RLO */
    assert_string_equal(safe("a\xe2\x81\xa6"
                             "b"),
                        "a???b"); /* LRI */
    assert_string_equal(safe("a\xe2\x80\x8f"
                             "b"),
                        "a???b"); /* RLM */
    assert_string_equal(safe("a\xe2\x80\xa8"
                             "b"),
                        "a???b"); /* LINE SEP */
    assert_string_equal(safe("a\xd8\x9c"
                             "b"),
                        "a??b"); /* ALM */
    assert_false(safe_text_ok("\xe2\x80\xad"));
    /* their neighbours stay */
    assert_string_equal(safe("\xe2\x80\xa6\xe2\x80\xaf"), "…\xe2\x80\xaf");
    char out[16];
    assert_string_equal(safe_text_copy(out, sizeof(out), NULL, 0), "");
}

static void test_copy(void **state)
{
    (void)state;
    char out[8];
    /* a character that does not fit whole is left out, not split */
    assert_string_equal(safe_text_copy(out, sizeof(out), "abcde日", 0),
                        "abcde");
    assert_string_equal(safe_text_copy(out, sizeof(out), "a\033b", 0), "a?b");
    assert_string_equal(safe_text_copy(out, 1, "abc", 0), "");
    char q[64];
    /* an echo of what someone typed keeps the reason that follows it */
    assert_string_equal(safe_text_copy(q, sizeof(q), "abcdefgh", 4), "abcd...");
    assert_string_equal(safe_text_copy(q, sizeof(q), "abcd", 4), "abcd");
    assert_string_equal(safe_text_copy(q, sizeof(q), "µµµµµ", 2), "µµ...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_controls),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_bidi),
        cmocka_unit_test(test_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
