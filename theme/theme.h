/* Colour themes without curses: the colour roles of the screen (the one
 * table of them), a theme's look for each role, and the parser of theme
 * files (format: themes/README). tui/colors.c puts a theme on screen. */
#ifndef PARALLAX_THEME_H
#define PARALLAX_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(role, its name in theme files) */
#define THEME_ROLES(X)                                                         \
    X(ROLE_NORMAL, "normal")                                                   \
    X(ROLE_TITLE, "title")                                                     \
    X(ROLE_STATUS, "status")                                                   \
    X(ROLE_SOURCE, "source")                                                   \
    X(ROLE_LIVE, "live")                                                       \
    X(ROLE_STALE, "stale")                                                     \
    X(ROLE_DOWN, "down")                                                       \
    X(ROLE_LABEL, "label")                                                     \
    X(ROLE_RULE, "rule")                                                       \
    X(ROLE_SPARK, "spark")                                                     \
    X(ROLE_RATIO_BAD, "ratio-bad")                                             \
    X(ROLE_RATIO_GOOD, "ratio-good")                                           \
    X(ROLE_SELECTION, "selection")                                             \
    X(ROLE_KEY, "key")                                                         \
    X(ROLE_KEY_LABEL, "key-label")

enum color_role {
#define ROLE_ENUM(role, name) role,
    THEME_ROLES(ROLE_ENUM)
#undef ROLE_ENUM
        ROLE_COUNT
};

_Static_assert(ROLE_COUNT <= 32, "struct theme's set has 32 bits");

/* The name of each role in theme files, by enum color_role. */
extern const char *const theme_role_names[ROLE_COUNT];

#define THEME_DEFAULT  (-1) /* the terminal's own colour */
#define THEME_NAME_MAX 64
#define THEME_FILE_MAX (64 * 1024) /* a larger file is not a theme */

enum theme_attr {
    THEME_BOLD = 1 << 0,
    THEME_DIM = 1 << 1,
    THEME_UNDERLINE = 1 << 2,
    THEME_REVERSE = 1 << 3,
    THEME_ITALIC = 1 << 4,
    THEME_BLINK = 1 << 5,
};

struct theme_style {
    short fg, bg;   /* THEME_DEFAULT, or 0-255 of xterm's 256 colours */
    unsigned attrs; /* enum theme_attr bits */
};

struct theme {
    char name[THEME_NAME_MAX];
    struct theme_style style[ROLE_COUNT];
    uint32_t set; /* bit r: the text gave role r (the rest are built-in) */
};

/* The compiled-in fallback, the same look as themes/default.theme, named
 * "default". */
void theme_builtin(struct theme *t);

/* Parses len bytes of theme text (need not end in NUL); roles it does not
 * give keep the built-in look. `file` names the text in errors. Returns 0
 * with t->name "" (the caller names it), or -1 with err = "file:line:
 * message" and t = the built-in theme. */
int theme_parse(const char *text, size_t len, const char *file, struct theme *t,
                char *err, size_t errlen);

/* Reads and parses the theme file at path; t->name becomes its base name
 * without ".theme". -1 with err = "path: message" when it cannot be read,
 * or the parser's error; t is then the built-in theme. */
int theme_parse_file(const char *path, struct theme *t, char *err,
                     size_t errlen);

#endif
