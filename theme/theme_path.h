/* Where themes are found, by name: the user's directory first, then the
 * ones that come with parallax. The built-in theme answers to "default"
 * when no file of that name exists, so parallax works with none installed.
 * Search path, first match wins:
 *   $XDG_CONFIG_HOME/parallax/themes (default ~/.config/parallax/themes)
 *   $PARALLAX_THEMES, when set
 *   the source tree's themes/, when the program runs from a build
 *     directory inside it (/proc/self/exe/../../themes/default.theme exists)
 *   PARALLAX_THEMEDIR, the installed themes ($(PREFIX)/share/parallax/themes)
 */
#ifndef PARALLAX_THEME_PATH_H
#define PARALLAX_THEME_PATH_H

#include <limits.h>

#include "theme/theme.h"

#define THEME_DIRS_MAX 4

struct theme_dirs {
    int n;
    char dir[THEME_DIRS_MAX][PATH_MAX];
};

/* As many names as there are themes: a fixed 64 once left light, mono
 * and high-contrast out when a user had many of their own (issue 16). */
struct theme_names {
    int n, cap;
    char (*name)[THEME_NAME_MAX]; /* n of them, sorted */
};

/* The search path from the environment, in order. */
void theme_dirs_get(struct theme_dirs *d);

/* Every theme name in d's directories (files NAME.theme), sorted, each
 * once, "default" among them always (out of memory: those read so far).
 * theme_names_free releases them. */
void theme_names_get(const struct theme_dirs *d, struct theme_names *out);

/* Frees what theme_names_get gave; names is then empty. */
void theme_names_free(struct theme_names *names);

/* The name that follows cur in names, the first after the last (or when
 * cur is not among them). */
const char *theme_names_next(const struct theme_names *names, const char *cur);

/* The names as "a, b, c" for messages, whole names only: "a, b (and 7
 * more)" when len is too short for all. */
void theme_names_join(const struct theme_names *names, char *buf, size_t len);

/* Loads the theme called name from d (a name holding '/' is a file's
 * path). 0: t is it. -1: there is no such theme; err says so and names
 * the ones there are. -2: the file has an error; err is "file:line:
 * message" and t is the built-in theme. */
int theme_load(const struct theme_dirs *d, const char *name, struct theme *t,
               char *err, size_t errlen);

#endif
