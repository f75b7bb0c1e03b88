/* tui/row_cache against a real curses screen (xterm, written to
 * /dev/null): rows of the table drawn as in the last draw are left
 * untouched for ncurses, every other row is refreshed. */
#include <curses.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "tui/row_cache.h"

#define Y0     2
#define HEIGHT 6

static SCREEN *scr;
static FILE *out, *in;

static int setup(void **state)
{
    (void)state;
    out = fopen("/dev/null", "w");
    in = fopen("/dev/null", "r");
    scr = newterm("xterm", out, in);
    return scr ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    return 0;
}

/* One draw as the screen makes it: erase, rows of cells, the end. Row
 * `changed` gets other text; row `ruled` is drawn as a line of ACS. */
static void draw(int changed, int ruled, bool overlay)
{
    erase();
    row_cache_begin(Y0, HEIGHT);
    for (int y = Y0; y < Y0 + HEIGHT; y++) {
        const char *text = y == changed ? "changed" : "same";
        if (y == ruled) {
            row_cache_taint(y);
            mvhline(y, 0, ACS_HLINE, COLS);
            continue;
        }
        row_cache_feed(y, 3, 8, A_BOLD, text);
        mvaddstr(y, 3, text);
    }
    mvaddstr(0, 0, "title"); /* outside the table: always refreshed */
    row_cache_end(overlay);
}

static void test_untouches_rows_drawn_alike(void **state)
{
    (void)state;
    draw(-1, -1, false); /* nothing known yet: every row is drawn */
    for (int y = Y0; y < Y0 + HEIGHT; y++)
        assert_true(is_linetouched(stdscr, y));
    refresh();
    draw(-1, -1, false); /* the same again: ncurses may skip the table */
    for (int y = Y0; y < Y0 + HEIGHT; y++)
        assert_false(is_linetouched(stdscr, y));
    assert_true(is_linetouched(stdscr, 0));
    refresh();
    draw(Y0 + 2, Y0 + 4, false);
    for (int y = Y0; y < Y0 + HEIGHT; y++)
        assert_int_equal(is_linetouched(stdscr, y), y == Y0 + 2 || y == Y0 + 4);
    refresh();
}

static void test_first_draw_and_overlays_refresh_all(void **state)
{
    (void)state;
    draw(-1, -1, true); /* help open: everything is drawn */
    for (int y = Y0; y < Y0 + HEIGHT; y++)
        assert_true(is_linetouched(stdscr, y));
    refresh();
    draw(-1, -1, false); /* and the draw after it, which uncovers rows */
    for (int y = Y0; y < Y0 + HEIGHT; y++)
        assert_true(is_linetouched(stdscr, y));
    refresh();
    draw(-1, -1, false);
    for (int y = Y0; y < Y0 + HEIGHT; y++)
        assert_false(is_linetouched(stdscr, y));
    refresh();
}

/* a new background (another theme) repaints every row */
static void test_background_change_refreshes(void **state)
{
    (void)state;
    draw(-1, -1, false);
    refresh();
    bkgdset(' ' | A_REVERSE);
    draw(-1, -1, false);
    for (int y = Y0; y < Y0 + HEIGHT; y++)
        assert_true(is_linetouched(stdscr, y));
    refresh();
    bkgdset(' ');
}

/* the same text in another attribute, or at another place, is a change */
static void test_attr_and_position_count(void **state)
{
    (void)state;
    draw(-1, -1, false);
    refresh();
    erase();
    row_cache_begin(Y0, HEIGHT);
    for (int y = Y0; y < Y0 + HEIGHT; y++)
        row_cache_feed(y, y == Y0 ? 4 : 3, 8, y == Y0 + 1 ? A_DIM : A_BOLD,
                       "same");
    row_cache_end(false);
    assert_true(is_linetouched(stdscr, Y0));
    assert_true(is_linetouched(stdscr, Y0 + 1));
    assert_false(is_linetouched(stdscr, Y0 + 2));
    refresh();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_untouches_rows_drawn_alike),
        cmocka_unit_test(test_first_draw_and_overlays_refresh_all),
        cmocka_unit_test(test_background_change_refreshes),
        cmocka_unit_test(test_attr_and_position_count),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
