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

#define THEME_DIRS_MAX  4
#define THEME_NAMES_MAX 64

struct theme_dirs {
    int n;
    char dir[THEME_DIRS_MAX][PATH_MAX];
};

struct theme_names {
    int n;
    char name[THEME_NAMES_MAX][THEME_NAME_MAX];
};

/* The search path from the environment, in order. */
void theme_dirs_get(struct theme_dirs *d);

/* Every theme name in d's directories (files NAME.theme), sorted, each
 * once, "default" among them always. */
void theme_names_get(const struct theme_dirs *d, struct theme_names *out);

/* The name that follows cur in names, the first after the last (or when
 * cur is not among them). */
const char *theme_names_next(const struct theme_names *names, const char *cur);

/* The names as "a, b, c" for messages. */
void theme_names_join(const struct theme_names *names, char *buf, size_t len);

/* Loads the theme called name from d (a name holding '/' is a file's
 * path). 0: t is it. -1: there is no such theme; err says so and names
 * the ones there are. -2: the file has an error; err is "file:line:
 * message" and t is the built-in theme. */
int theme_load(const struct theme_dirs *d, const char *name, struct theme *t,
               char *err, size_t errlen);

#endif
