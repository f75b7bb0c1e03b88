/* Themes: the parser (every role, colour and attribute; each error with
 * its file and line), reading files, bringing colours down to 16 and 8,
 * the search path, and a lint of the shipped themes/ (run from the
 * source tree, as tests/run_all.sh does). */
#include <glob.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "theme/theme.h"
#include "theme/theme_color.h"
#include "theme/theme_path.h"

#define ALL_ROLES ((uint32_t)((1ull << ROLE_COUNT) - 1))

static struct theme t;
static char err[1024];

static int parse(const char *text)
{
    err[0] = '\0';
    return theme_parse(text, strlen(text), "x.theme", &t, err, sizeof(err));
}

/* The parse fails with exactly this error, and leaves the built-in. */
static void parse_fails(const char *text, const char *want)
{
    struct theme builtin;
    theme_builtin(&builtin);
    assert_int_equal(parse(text), -1);
    assert_string_equal(err, want);
    assert_memory_equal(t.style, builtin.style, sizeof(t.style));
    assert_string_equal(t.name, "default");
}

static void test_every_role(void **state)
{
    (void)state;
    char text[4096];
    size_t used = 0;
    for (int r = 0; r < ROLE_COUNT; r++)
        used += (size_t)snprintf(text + used, sizeof(text) - used,
                                 "%s = colour%d on colour%d bold\n",
                                 theme_role_names[r], 100 + r, 200 + r);
    assert_int_equal(parse(text), 0);
    assert_int_equal(t.set, ALL_ROLES);
    for (int r = 0; r < ROLE_COUNT; r++) {
        assert_int_equal(t.style[r].fg, 100 + r);
        assert_int_equal(t.style[r].bg, 200 + r);
        assert_int_equal(t.style[r].attrs, THEME_BOLD);
    }
    /* every role has a name, and no two the same */
    for (int r = 0; r < ROLE_COUNT; r++)
        for (int q = r + 1; q < ROLE_COUNT; q++)
            assert_string_not_equal(theme_role_names[r], theme_role_names[q]);
}

static void test_colours_and_attributes(void **state)
{
    (void)state;
    assert_int_equal(parse("title = default on black\n"
                           "live = bright-green on brightblue\n"
                           "down = color7 on colour255\n"
                           "spark = #ff0000 on #000000\n"
                           "label = white bold dim underline reverse italic "
                           "blink\n"),
                     0);
    assert_int_equal(t.style[ROLE_TITLE].fg, THEME_DEFAULT);
    assert_int_equal(t.style[ROLE_TITLE].bg, 0);
    assert_int_equal(t.style[ROLE_LIVE].fg, 10);
    assert_int_equal(t.style[ROLE_LIVE].bg, 12);
    assert_int_equal(t.style[ROLE_DOWN].fg, 7);
    assert_int_equal(t.style[ROLE_DOWN].bg, 255);
    assert_int_equal(t.style[ROLE_SPARK].fg, 196); /* the cube's red */
    assert_int_equal(t.style[ROLE_SPARK].bg, 16);  /* the cube's black */
    assert_int_equal(t.style[ROLE_LABEL].fg, 7);
    assert_int_equal(t.style[ROLE_LABEL].attrs,
                     THEME_BOLD | THEME_DIM | THEME_UNDERLINE | THEME_REVERSE |
                         THEME_ITALIC | THEME_BLINK);
    assert_int_equal(t.set, (1u << ROLE_TITLE) | (1u << ROLE_LIVE) |
                                (1u << ROLE_DOWN) | (1u << ROLE_SPARK) |
                                (1u << ROLE_LABEL));
}

static void test_unset_roles_keep_builtin(void **state)
{
    (void)state;
    struct theme builtin;
    theme_builtin(&builtin);
    assert_int_equal(parse("title = red\n"), 0);
    assert_int_equal(t.style[ROLE_TITLE].fg, 1);
    assert_int_equal(t.style[ROLE_TITLE].bg, THEME_DEFAULT);
    assert_int_equal(t.style[ROLE_TITLE].attrs, 0);
    assert_memory_equal(&t.style[ROLE_DOWN], &builtin.style[ROLE_DOWN],
                        sizeof(t.style[0]));
}

static void test_comments_blank_lines_and_line_numbers(void **state)
{
    (void)state;
    assert_int_equal(parse("# a theme\n"
                           "\n"
                           "   \t\n"
                           "  # indented comment = not a role\n"
                           "title = #00ff00 # green, #ff0000 is not used\n"
                           "live=green on black   #no blank after the hash\n"
                           "#ff0000 = a comment, at the start of a line\n"
                           "down = red\r\n"
                           "stale = yellow"), /* no newline at the end */
                     0);
    assert_int_equal(t.style[ROLE_TITLE].fg, 46);
    assert_int_equal(t.style[ROLE_LIVE].fg, 2);
    assert_int_equal(t.style[ROLE_LIVE].bg, 0);
    assert_int_equal(t.style[ROLE_DOWN].fg, 1);
    assert_int_equal(t.style[ROLE_STALE].fg, 3);
    /* errors count every line, comments and blank ones too */
    parse_fails("# one\n\n# three\n\nbogus = red\n",
                "x.theme:5: unknown role 'bogus'");
    parse_fails("title = red #fff\r\n",
                "x.theme:1: unknown attribute '#fff' (bold, dim, underline, "
                "reverse, italic, blink)");
    parse_fails("title = red\r\n\r\nlive = pink\r\n",
                "x.theme:3: unknown colour 'pink' (black..white, "
                "bright-black..bright-white, colour0-255, #rrggbb, "
                "default)");
}

static void test_unknown_role(void **state)
{
    (void)state;
    parse_fails("title = red\nheader = blue\n",
                "x.theme:2: unknown role 'header'");
    parse_fails("Title = red\n", "x.theme:1: unknown role 'Title'");
    parse_fails("key label = red\n", "x.theme:1: unknown role 'key label'");
    parse_fails(" = red\n", "x.theme:1: a role name must come before '='");
    parse_fails("title red\n", "x.theme:1: expected 'role = colour [on colour] "
                               "[attribute...]'");
    /* a long word is cut short in the message, control bytes masked */
    parse_fails("\x01xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx = red\n",
                "x.theme:1: unknown role "
                "'?xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'");
}

static void test_bad_colour(void **state)
{
    (void)state;
    const char *bad[] = {"purple",   "colour256", "color-1", "colour",
                         "#12345",   "#12345g",   "bright",  "bright-pink",
                         "#1234567", "colour1x",  "RED"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char text[64], want[256];
        snprintf(text, sizeof(text), "\nlive = %s\n", bad[i]);
        snprintf(want, sizeof(want),
                 "x.theme:2: unknown colour '%s' (black..white, "
                 "bright-black..bright-white, colour0-255, #rrggbb, "
                 "default)",
                 bad[i]);
        parse_fails(text, want);
    }
    parse_fails("live = red on\n", "x.theme:1: 'on' needs a background colour");
    parse_fails("live = red on mauve\n",
                "x.theme:1: unknown background colour 'mauve'");
    parse_fails("live = red blue\n",
                "x.theme:1: colour 'blue' after the colours (a background "
                "is 'on COLOUR')");
    parse_fails("live = bold\n", "x.theme:1: give a colour before 'bold' "
                                 "(default: the terminal's)");
    parse_fails("live =\n", "x.theme:1: role 'live' needs a colour "
                            "(default: the terminal's)");
    parse_fails("live = red bold shiny\n",
                "x.theme:1: unknown attribute 'shiny' (bold, dim, "
                "underline, reverse, italic, blink)");
}

static void test_role_twice(void **state)
{
    (void)state;
    parse_fails("title = red\n# again\ntitle = blue\n",
                "x.theme:3: role 'title' given twice (first on line 1)");
}

static void test_empty_and_odd_text(void **state)
{
    (void)state;
    parse_fails("", "x.theme: no role is set; lines read 'role = colour [on "
                    "colour] [attribute...]'");
    parse_fails("# only a comment\n\n",
                "x.theme: no role is set; lines read 'role = colour [on "
                "colour] [attribute...]'");
    assert_int_equal(
        theme_parse("title = red\n\0", 13, "x.theme", &t, err, sizeof(err)),
        -1);
    assert_string_equal(err, "x.theme:2: a NUL byte: not a text file");
    parse_fails("title = a b c d e f g h i j k l m\n",
                "x.theme:1: more than 12 words after '='");
}

static char tmpdir[PATH_MAX];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_theme.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_files(void **state)
{
    (void)state;
    char path[PATH_MAX + 32], want[PATH_MAX + 128];
    /* missing */
    snprintf(path, sizeof(path), "%s/none.theme", tmpdir);
    assert_int_equal(theme_parse_file(path, &t, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: No such file or directory", path);
    assert_string_equal(err, want);
    assert_string_equal(t.name, "default");
    /* a directory */
    assert_int_equal(theme_parse_file(tmpdir, &t, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: not a regular file", tmpdir);
    assert_string_equal(err, want);
    /* empty */
    snprintf(path, sizeof(path), "%s/empty.theme", tmpdir);
    write_file(path, "");
    assert_int_equal(theme_parse_file(path, &t, err, sizeof(err)), -1);
    snprintf(want, sizeof(want),
             "%s: no role is set; lines read 'role = colour [on colour] "
             "[attribute...]'",
             path);
    assert_string_equal(err, want);
    /* an error names the file and the line */
    snprintf(path, sizeof(path), "%s/broken.theme", tmpdir);
    write_file(path, "title = red\n\nlive = purple\n");
    assert_int_equal(theme_parse_file(path, &t, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s:3: unknown colour 'purple'", path);
    assert_memory_equal(err, want, strlen(want));
    /* too large */
    snprintf(path, sizeof(path), "%s/huge.theme", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < THEME_FILE_MAX / 16 + 1; i++)
        fputs("# padding......\n", f);
    fclose(f);
    assert_int_equal(theme_parse_file(path, &t, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: larger than 64 KiB, not a theme", path);
    assert_string_equal(err, want);
    /* a good one is named after its file */
    snprintf(path, sizeof(path), "%s/mine.theme", tmpdir);
    write_file(path, "title = red\n");
    assert_int_equal(theme_parse_file(path, &t, err, sizeof(err)), 0);
    assert_string_equal(t.name, "mine");
    assert_int_equal(t.style[ROLE_TITLE].fg, 1);
}

static void test_colour_fit(void **state)
{
    (void)state;
    bool bright;
    /* what the terminal has stays */
    assert_int_equal(theme_color_fit(THEME_DEFAULT, 8, &bright), THEME_DEFAULT);
    assert_int_equal(theme_color_fit(200, 256, &bright), 200);
    assert_false(bright);
    assert_int_equal(theme_color_fit(12, 16, &bright), 12);
    assert_false(bright);
    /* 8 colours: bright ones become plain, and say so */
    assert_int_equal(theme_color_fit(12, 8, &bright), 4);
    assert_true(bright);
    assert_int_equal(theme_color_fit(3, 8, &bright), 3);
    assert_false(bright);
    /* the palette comes down to the nearest basic colour */
    assert_int_equal(theme_color_fit(196, 16, &bright), 9); /* red */
    assert_int_equal(theme_color_fit(196, 8, &bright), 1);
    assert_true(bright);
    assert_int_equal(theme_color_fit(28, 16, &bright), 2);   /* dark green */
    assert_int_equal(theme_color_fit(30, 16, &bright), 6);   /* dark cyan */
    assert_int_equal(theme_color_fit(232, 16, &bright), 0);  /* near black */
    assert_int_equal(theme_color_fit(231, 16, &bright), 15); /* white */
    assert_int_equal(theme_color_fit(255, 16, &bright), 7);  /* light grey */
    assert_int_equal(theme_color_fit(244, 16, &bright), 8);  /* mid grey */
    assert_int_equal(theme_color_fit(21, 88, &bright), 4);   /* not xterm's */
    assert_int_equal(theme_color_fit(13, 88, &bright), 13);
    /* RGB to the palette: cube corners and the grey ramp */
    assert_int_equal(theme_color_rgb(255, 255, 255), 231);
    assert_int_equal(theme_color_rgb(0, 0, 0), 16);
    assert_int_equal(theme_color_rgb(128, 128, 128), 244);
    assert_int_equal(theme_color_rgb(0, 135, 0), 28);
}

/* Every shipped theme parses, gives every role, and default.theme is the
 * compiled-in fallback. */
static void test_shipped_themes(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob("themes/*.theme", 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        int rc = theme_parse_file(g.gl_pathv[i], &t, err, sizeof(err));
        if (rc != 0)
            fail_msg("%s", err);
        if (t.set != ALL_ROLES)
            fail_msg("%s does not give every role", g.gl_pathv[i]);
        print_message("lint ok: %s\n", g.gl_pathv[i]);
    }
    globfree(&g);
    const char *needed[] = {"default", "light", "mono", "high-contrast"};
    for (size_t i = 0; i < 4; i++) {
        char path[128];
        snprintf(path, sizeof(path), "themes/%s.theme", needed[i]);
        assert_int_equal(access(path, R_OK), 0);
    }
    struct theme builtin;
    theme_builtin(&builtin);
    assert_int_equal(
        theme_parse_file("themes/default.theme", &t, err, sizeof(err)), 0);
    assert_memory_equal(t.style, builtin.style, sizeof(t.style));
    assert_string_equal(t.name, builtin.name);
    /* mono has no colour at all */
    assert_int_equal(
        theme_parse_file("themes/mono.theme", &t, err, sizeof(err)), 0);
    for (int r = 0; r < ROLE_COUNT; r++) {
        assert_int_equal(t.style[r].fg, THEME_DEFAULT);
        assert_int_equal(t.style[r].bg, THEME_DEFAULT);
    }
}

static void test_search_path(void **state)
{
    (void)state;
    char user[PATH_MAX + 32], shipped[PATH_MAX], path[2 * PATH_MAX];
    struct theme_dirs d;
    struct theme_names names;
    assert_non_null(realpath("themes", shipped));
    snprintf(user, sizeof(user), "%s/parallax", tmpdir);
    mkdir(user, 0700);
    snprintf(user, sizeof(user), "%s/parallax/themes", tmpdir);
    mkdir(user, 0700);
    setenv("XDG_CONFIG_HOME", tmpdir, 1);
    setenv("PARALLAX_THEMES", shipped, 1);
    /* the user's own theme, one that shadows a shipped one, a broken one,
     * and files that are not themes */
    snprintf(path, sizeof(path), "%s/zebra.theme", user);
    write_file(path, "title = black on white\n");
    snprintf(path, sizeof(path), "%s/light.theme", user);
    write_file(path, "title = red\n");
    snprintf(path, sizeof(path), "%s/broken.theme", user);
    write_file(path, "title = red\nlive = nope\n");
    snprintf(path, sizeof(path), "%s/.hidden.theme", user);
    write_file(path, "title = red\n");
    snprintf(path, sizeof(path), "%s/notes.txt", user);
    write_file(path, "title = red\n");

    theme_dirs_get(&d);
    assert_true(d.n >= 2);
    assert_string_equal(d.dir[0], user);
    assert_string_equal(d.dir[1], shipped);
    theme_names_get(&d, &names);
    char list[512];
    theme_names_join(&names, list, sizeof(list));
    assert_string_equal(list,
                        "broken, default, high-contrast, light, mono, zebra");
    assert_string_equal(theme_names_next(&names, "default"), "high-contrast");
    assert_string_equal(theme_names_next(&names, "zebra"), "broken");
    assert_string_equal(theme_names_next(&names, "./x.theme"), "broken");
    theme_names_free(&names);

    /* the user's light shadows the shipped one */
    assert_int_equal(theme_load(&d, "light", &t, err, sizeof(err)), 0);
    assert_string_equal(t.name, "light");
    assert_int_equal(t.style[ROLE_TITLE].fg, 1);
    assert_int_equal(theme_load(&d, "mono", &t, err, sizeof(err)), 0);
    assert_string_equal(t.name, "mono");
    /* a broken file: its error, and the built-in look */
    assert_int_equal(theme_load(&d, "broken", &t, err, sizeof(err)), -2);
    snprintf(path, sizeof(path), "%s/broken.theme:2: unknown colour 'nope'",
             user);
    assert_memory_equal(err, path, strlen(path));
    assert_string_equal(t.name, "default");
    /* no such theme: the message lists the ones there are */
    assert_int_equal(theme_load(&d, "solarized", &t, err, sizeof(err)), -1);
    assert_string_equal(err, "unknown theme 'solarized'; available: broken, "
                             "default, high-contrast, light, mono, zebra");
    assert_int_equal(theme_load(&d, "../x", &t, err, sizeof(err)), -1);
    assert_int_equal(theme_load(&d, ".hidden", &t, err, sizeof(err)), -1);
    assert_int_equal(theme_load(&d, "", &t, err, sizeof(err)), -1);
    /* a path is read as it is */
    snprintf(path, sizeof(path), "%s/zebra.theme", user);
    assert_int_equal(theme_load(&d, path, &t, err, sizeof(err)), 0);
    assert_string_equal(t.name, "zebra");
    snprintf(path, sizeof(path), "%s/nothere.theme", user);
    assert_int_equal(theme_load(&d, path, &t, err, sizeof(err)), -1);

    /* with no theme files anywhere, "default" is the built-in one */
    d.n = 1;
    snprintf(d.dir[0], sizeof(d.dir[0]), "%.200s/none", tmpdir);
    theme_names_get(&d, &names);
    assert_int_equal(names.n, 1);
    assert_string_equal(names.name[0], "default");
    assert_string_equal(theme_names_next(&names, "default"), "default");
    theme_names_free(&names);
    assert_int_equal(theme_load(&d, "default", &t, err, sizeof(err)), 0);
    assert_string_equal(t.name, "default");
    assert_int_equal(theme_load(&d, "light", &t, err, sizeof(err)), -1);
    assert_string_equal(err, "unknown theme 'light'; available: default");

    /* without XDG_CONFIG_HOME: ~/.config */
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", "/home/someone", 1);
    theme_dirs_get(&d);
    assert_string_equal(d.dir[0], "/home/someone/.config/parallax/themes");
    unsetenv("PARALLAX_THEMES");
}

/* A user with many themes of their own still has parallax's: the list had
 * room for 64 names, and light, mono and high-contrast fell out of it (and
 * out of t's cycle); a message that cannot list them all says how many
 * more there are and cuts no name. */
static void test_many_themes(void **state)
{
    (void)state;
    char user[64], shipped[PATH_MAX], path[2 * PATH_MAX];
    struct theme_dirs d;
    struct theme_names names;
    assert_non_null(realpath("themes", shipped));
    snprintf(user, sizeof(user), "%.40s/mine", tmpdir);
    mkdir(user, 0700);
    for (int i = 0; i < 200; i++) {
        snprintf(path, sizeof(path), "%s/a%03d.theme", user, i);
        write_file(path, "title = red\n");
    }
    d.n = 2;
    snprintf(d.dir[0], sizeof(d.dir[0]), "%s", user);
    snprintf(d.dir[1], sizeof(d.dir[1]), "%s", shipped);
    theme_names_get(&d, &names);
    assert_int_equal(names.n, 204);
    const char *cur = "a199";
    for (int i = 0; i < 4; i++)
        cur = theme_names_next(&names, cur);
    assert_string_equal(cur, "mono"); /* default, high-contrast, light */
    char list[512];
    theme_names_join(&names, list, sizeof(list));
    assert_true(strlen(list) < sizeof(list));
    const char *more = strstr(list, " (and ");
    assert_non_null(more);
    assert_string_equal(
        more + strlen(" (and ") + strspn(more + 6, "0123456789"), " more)");
    assert_true(more[-4] == 'a'); /* after a whole name: ", aNNN (and" */
    theme_names_free(&names);
    assert_int_equal(theme_load(&d, "light", &t, err, sizeof(err)), 0);
    assert_int_equal(theme_load(&d, "nosuch", &t, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "more)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_role),
        cmocka_unit_test(test_many_themes),
        cmocka_unit_test(test_colours_and_attributes),
        cmocka_unit_test(test_unset_roles_keep_builtin),
        cmocka_unit_test(test_comments_blank_lines_and_line_numbers),
        cmocka_unit_test(test_unknown_role),
        cmocka_unit_test(test_bad_colour),
        cmocka_unit_test(test_role_twice),
        cmocka_unit_test(test_empty_and_odd_text),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_colour_fit),
        cmocka_unit_test(test_shipped_themes),
        cmocka_unit_test(test_search_path),
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
