/* Colours of themes without curses: the words a theme file may use for a
 * colour, and how a 256-colour palette index is brought down to what a
 * terminal has (16 or 8 colours), so every theme stays readable there. */
#ifndef PARALLAX_THEME_COLOR_H
#define PARALLAX_THEME_COLOR_H

#include <stdbool.h>

/* Parses a colour word: default, black, red, green, yellow, blue, magenta,
 * cyan, white, bright-black .. bright-white (or brightred...), colour0 ..
 * colour255 (or color0...), #rrggbb (the nearest of the 256). True and
 * *out = THEME_DEFAULT or 0-255 when the word is a colour. */
bool theme_color_parse(const char *word, short *out);

/* The palette index nearest to an RGB colour among colours 16-255 (the
 * 6x6x6 cube and the grey ramp, whose look does not depend on the
 * terminal's settings). */
short theme_color_rgb(int r, int g, int b);

/* The colour to draw c with on a terminal of ncolors colours (8, 16, 88,
 * 256...): c itself when it has it (below 256 colours only the basic 16
 * mean what they do in xterm), else the nearest basic colour. On 8
 * colours a bright colour becomes its plain one, and *bright says so (a
 * foreground then gets bold, which most terminals show brighter).
 * THEME_DEFAULT stays itself. */
short theme_color_fit(short c, int ncolors, bool *bright);

#endif
