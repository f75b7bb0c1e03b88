/* See theme_color.h. Distances are plain squared RGB distances against
 * xterm's default palette: good enough to keep a hue recognisable (an
 * orange becomes yellow, a dark grey bright-black), which is all a
 * 16-colour terminal can give. */
#include "theme/theme_color.h"

#include <stdlib.h>
#include <string.h>

#include "theme/theme.h"

static const char *const base_names[8] = {
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

/* xterm's colours 0-15 */
static const unsigned char ansi_rgb[16][3] = {
    {0, 0, 0},       {205, 0, 0},   {0, 205, 0},   {205, 205, 0},
    {0, 0, 238},     {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
    {127, 127, 127}, {255, 0, 0},   {0, 255, 0},   {255, 255, 0},
    {92, 92, 255},   {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
};

static const int cube_levels[6] = {0, 95, 135, 175, 215, 255};

static int base_index(const char *word)
{
    for (int i = 0; i < 8; i++)
        if (strcmp(word, base_names[i]) == 0)
            return i;
    return -1;
}

/* A whole decimal number from 0 to max, nothing else. */
static int parse_index(const char *s, int max)
{
    int v = 0;
    if (!*s || strlen(s) > 3)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v <= max ? v : -1;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool parse_hex(const char *s, short *out)
{
    int v[6];
    if (strlen(s) != 6)
        return false;
    for (int i = 0; i < 6; i++)
        if ((v[i] = hex_digit(s[i])) < 0)
            return false;
    *out =
        theme_color_rgb(v[0] * 16 + v[1], v[2] * 16 + v[3], v[4] * 16 + v[5]);
    return true;
}

bool theme_color_parse(const char *word, short *out)
{
    int i;
    if (strcmp(word, "default") == 0) {
        *out = THEME_DEFAULT;
        return true;
    }
    if ((i = base_index(word)) >= 0) {
        *out = (short)i;
        return true;
    }
    if (strncmp(word, "bright", 6) == 0) {
        const char *rest = word + 6 + (word[6] == '-');
        if ((i = base_index(rest)) < 0)
            return false;
        *out = (short)(i + 8);
        return true;
    }
    if (word[0] == '#')
        return parse_hex(word + 1, out);
    const char *num = NULL;
    if (strncmp(word, "colour", 6) == 0)
        num = word + 6;
    else if (strncmp(word, "color", 5) == 0)
        num = word + 5;
    if (!num || (i = parse_index(num, 255)) < 0)
        return false;
    *out = (short)i;
    return true;
}

static int nearest_level(int v)
{
    int best = 0;
    for (int i = 1; i < 6; i++)
        if (abs(cube_levels[i] - v) < abs(cube_levels[best] - v))
            best = i;
    return best;
}

static int dist2(int r, int g, int b, int r2, int g2, int b2)
{
    return (r - r2) * (r - r2) + (g - g2) * (g - g2) + (b - b2) * (b - b2);
}

short theme_color_rgb(int r, int g, int b)
{
    int ri = nearest_level(r), gi = nearest_level(g), bi = nearest_level(b);
    int cube = 16 + 36 * ri + 6 * gi + bi;
    int cd = dist2(r, g, b, cube_levels[ri], cube_levels[gi], cube_levels[bi]);
    /* the grey ramp 232-255 runs 8, 18, ... 238 */
    int avg = (r + g + b) / 3;
    int gstep = avg < 8 ? 0 : (avg - 8 + 5) / 10;
    if (gstep > 23)
        gstep = 23;
    int level = 8 + 10 * gstep;
    int gd = dist2(r, g, b, level, level, level);
    return (short)(gd < cd ? 232 + gstep : cube);
}

/* The RGB of palette colour c (0-255), as xterm shows it by default. */
static void palette_rgb(int c, int rgb[3])
{
    if (c < 16) {
        for (int i = 0; i < 3; i++)
            rgb[i] = ansi_rgb[c][i];
    } else if (c < 232) {
        c -= 16;
        rgb[0] = cube_levels[c / 36];
        rgb[1] = cube_levels[(c / 6) % 6];
        rgb[2] = cube_levels[c % 6];
    } else {
        rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (c - 232);
    }
}

static short nearest_ansi(int c)
{
    int rgb[3], best = 0, bestd = -1;
    palette_rgb(c, rgb);
    for (int i = 0; i < 16; i++) {
        int d = dist2(rgb[0], rgb[1], rgb[2], ansi_rgb[i][0], ansi_rgb[i][1],
                      ansi_rgb[i][2]);
        if (bestd < 0 || d < bestd) {
            best = i;
            bestd = d;
        }
    }
    return (short)best;
}

short theme_color_fit(short c, int ncolors, bool *bright)
{
    *bright = false;
    /* 88-colour terminals number their cube differently: only the basic
     * 16 mean the same there */
    if (c == THEME_DEFAULT || ncolors >= 256 || (c < 16 && c < ncolors))
        return c;
    if (c >= 16)
        c = nearest_ansi(c);
    if (c >= 8 && ncolors < 16) {
        *bright = true;
        c = (short)(c - 8);
    }
    return c;
}
