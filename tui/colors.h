/* Colour roles on screen: puts a theme (theme/theme.h) into curses colour
 * pairs and attributes, and switches themes while the screen runs. */
#ifndef PARALLAX_COLORS_H
#define PARALLAX_COLORS_H

#include <stddef.h>

#include "theme/theme.h"

/* Picks the theme called name (NULL: "default") before curses starts.
 * -1 when there is no theme of that name: err names the ones there are.
 * A theme file with an error is not fatal: the built-in theme is used and
 * status gets "file:line: message" (else status is left alone). */
int colors_select(const char *name, char *status, size_t statuslen, char *err,
                  size_t errlen);

/* Sets up colour pairs for the selected theme, or attributes only when
 * the terminal has no colours or NO_COLOR is set. Call after initscr. */
void colors_init(void);

/* Switches to the next theme (sorted by name, after the last the first);
 * status names it, or says why its file was not used. */
void colors_cycle(char *status, size_t statuslen);

/* The name of the theme on screen. */
const char *colors_theme_name(void);

/* The curses attributes that draw `role`. */
int colors_attr(enum color_role role);

#endif
