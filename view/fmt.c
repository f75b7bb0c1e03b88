/* See fmt.h. Scaled figures keep two or three significant digits: enough
 * to read at a glance, and columns stay narrow. */
#include "view/fmt.h"

#include "view/fit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void fmt_scaled(char *buf, size_t n, double v, double base,
                       const char *suffixes)
{
    int i = 0;
    double a = fabs(v);
    while (a >= base && suffixes[i + 1] != '\0') {
        a /= base;
        v /= base;
        i++;
    }
    char suf[2] = {suffixes[i], '\0'};
    if (suf[0] == ' ')
        suf[0] = '\0';
    if (a < 10 && (i > 0 || v != floor(v)))
        snprintf(buf, n, "%.1f%s", v, suf);
    else
        snprintf(buf, n, "%.0f%s", v, suf);
}

void fmt_bytes(char *buf, size_t n, double v)
{
    fmt_scaled(buf, n, v, 1024, " KMGTP");
}

void fmt_value(char *buf, size_t n, double v, enum metric_format f)
{
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
        return;
    }
    switch (f) {
    case MF_PERCENT:
        snprintf(buf, n, "%.1f", v);
        break;
    case MF_FIXED2:
        snprintf(buf, n, "%.2f", v);
        break;
    case MF_BYTES:
        fmt_bytes(buf, n, v);
        break;
    case MF_SI:
        fmt_scaled(buf, n, v, 1000, " kMGT");
        break;
    }
}

static const char *const blocks_utf8[] = {"\u2581", "\u2582", "\u2583",
                                          "\u2584", "\u2585", "\u2586",
                                          "\u2587", "\u2588"};
static const char blocks_ascii[] = "_.-~=+*#";

void fmt_spark(char *buf, size_t n, const struct history *h, int width,
               double top, bool utf8)
{
    size_t used = 0;
    buf[0] = '\0';
    if (top <= 0) {
        for (int age = 0; age < width; age++) {
            double v = history_get(h, (unsigned)age);
            if (isfinite(v) && v > top)
                top = v;
        }
    }
    for (int age = width - 1; age >= 0; age--) {
        double v = history_get(h, (unsigned)age);
        const char *cell = " ";
        char ascii[2] = {' ', '\0'};
        if (isfinite(v) && top > 0) {
            int level = (int)lround(fmax(0, fmin(v / top, 1)) * 7);
            if (utf8) {
                cell = blocks_utf8[level];
            } else {
                ascii[0] = blocks_ascii[level];
                cell = ascii;
            }
        } else if (isfinite(v)) {
            cell = utf8 ? blocks_utf8[0] : "_";
        }
        size_t len = strlen(cell);
        if (used + len + 1 > n)
            break;
        memcpy(buf + used, cell, len + 1);
        used += len;
    }
}

void fmt_right(char *buf, size_t n, int width, const char *text)
{
    if (n == 0)
        return;
    size_t len = strlen(text), pad = 0;
    int cells = fit_cells(text); /* one cell a character: ± µ × */
    if (width > cells)
        pad = (size_t)(width - cells);
    if (pad > n - 1)
        pad = n - 1;
    if (len > n - 1 - pad)
        len = n - 1 - pad;
    memset(buf, ' ', pad);
    memcpy(buf + pad, text, len);
    buf[pad + len] = '\0';
}
