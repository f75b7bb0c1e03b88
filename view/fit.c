/* See fit.h. Every figure formatter tries its forms from the most precise
 * to the shortest and keeps the first that fits; rounding that reaches
 * the next unit (999.96 ms) moves to that unit (1.000s) rather than
 * showing 1000ms. */
#include "view/fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ELLIPSIS_UTF8  "\u2026"
#define ELLIPSIS_ASCII "~"
#define DUR_DIGITS     4 /* significant digits of a duration, at most */
#define SI_DIGITS      3 /* of an SI figure */
#define MAX_DECIMALS   6

int fit_cells(const char *text)
{
    int cells = 0;
    for (; *text; text++)
        cells += ((unsigned char)*text & 0xc0) != 0x80;
    return cells;
}

size_t fit_bytes(const char *text, int cells)
{
    size_t i = 0;
    for (; text[i]; i++)
        if (((unsigned char)text[i] & 0xc0) != 0x80 && cells-- == 0)
            break;
    return i;
}

void fit_pad(char *buf, size_t n, int width, const char *text, bool right)
{
    if (n == 0)
        return;
    /* the text first, then what room is left for the spaces */
    size_t keep = fit_bytes(text, width);
    if (keep > n - 1) {
        keep = n - 1;
        while (keep > 0 && ((unsigned char)text[keep] & 0xc0) == 0x80)
            keep--;
    }
    int pad = width - fit_cells(text);
    pad = pad < 0 ? 0 : pad;
    if ((size_t)pad > n - 1 - keep)
        pad = (int)(n - 1 - keep);
    if (right)
        snprintf(buf, n, "%*s%.*s", pad, "", (int)keep, text);
    else
        snprintf(buf, n, "%.*s%*s", (int)keep, text, pad, "");
}

bool fit_text(char *buf, size_t n, int width, const char *text, bool utf8)
{
    if (n == 0)
        return false;
    buf[0] = '\0';
    if (fit_cells(text) <= width) {
        snprintf(buf, n, "%s", text);
        return true;
    }
    if (width <= 0)
        return false;
    const char *dots = utf8 ? ELLIPSIS_UTF8 : ELLIPSIS_ASCII;
    size_t keep = fit_bytes(text, width - 1);
    if (keep + strlen(dots) + 1 > n)
        keep = n > strlen(dots) + 1 ? n - strlen(dots) - 1 : 0;
    snprintf(buf, n, "%.*s%s", (int)keep, text, dots);
    return false;
}

int fit_first(char *buf, size_t n, int width, const char *const *cand, int k,
              bool utf8)
{
    for (int i = 0; i < k; i++)
        if (fit_cells(cand[i]) <= width) {
            snprintf(buf, n, "%s", cand[i]);
            return i;
        }
    fit_text(buf, n, width, k > 0 ? cand[k - 1] : "", utf8);
    return k;
}

int fit_wrap(const char *text, int width, const char **rest)
{
    int len = 0;
    for (int c = 0; text[len] && c < (width > 0 ? width : 1); c++)
        do /* a character: its continuation bytes with it */
            len++;
        while (((unsigned char)text[len] & 0xc0) == 0x80);
    if (text[len] && text[len] != ' ') { /* back to the last space */
        int brk = len;
        while (brk > 0 && text[brk] != ' ')
            brk--;
        if (brk > 0)
            len = brk;
    }
    if (rest) {
        const char *r = text + len;
        while (*r == ' ')
            r++;
        *rest = r;
    }
    return len;
}

/* Copies text into buf when it fits width cells. */
static bool put_if_fits(char *buf, size_t n, int width, const char *text)
{
    if (fit_cells(text) > width)
        return false;
    snprintf(buf, n, "%s", text);
    return true;
}

/* Digits before the point of x >= 0 (1 for x < 10, 0 or less below 1). */
static int int_digits(double x)
{
    return x > 0 ? (int)floor(log10(x)) + 1 : 1;
}

static int clamp_decimals(int d)
{
    return d < 0 ? 0 : d > MAX_DECIMALS ? MAX_DECIMALS : d;
}

struct unit {
    const char *utf8, *ascii;
    double size; /* in the base unit */
    double next; /* where the next unit takes over, in this one; 0: none */
};

static const struct unit dur_units[] = {
    {"ns", "ns", 1e-9, 1000}, {"\u00b5s", "us", 1e-6, 1000},
    {"ms", "ms", 1e-3, 1000}, {"s", "s", 1, 60},
    {"min", "min", 60, 60},   {"h", "h", 3600, 24},
    {"d", "d", 86400, 0},
};

static const struct unit si_units[] = {
    {"", "", 1, 1000},     {"k", "k", 1e3, 1000},  {"M", "M", 1e6, 1000},
    {"G", "G", 1e9, 1000}, {"T", "T", 1e12, 1000}, {"P", "P", 1e15, 1000},
    {"E", "E", 1e18, 0},
};

/* One unit's most precise form of a >= 0 that fits width: up to `digits`
 * significant digits (whole numbers without decimals when whole_plain),
 * fewer as the width asks. A form that rounds into the next unit (999.96
 * ms as 1000.0ms) is refused unless over_ok. *prec: half its last digit,
 * in the base unit. */
static bool unit_form(char *text, size_t n, int width, double a,
                      const char *sign, const struct unit *u, int digits,
                      bool whole_plain, bool over_ok, bool utf8, double *prec)
{
    double x = a / u->size;
    /* below 1 only after rounding up into this unit: 1.000s, not 1.0000s */
    int dec = clamp_decimals(digits - int_digits(x < 1 && over_ok ? 1 : x));
    if (whole_plain && x == floor(x))
        dec = 0;
    for (; dec >= 0; dec--) {
        char num[48];
        snprintf(num, sizeof(num), "%.*f", dec, x);
        if (!over_ok && u->next > 0 && strtod(num, NULL) >= u->next)
            return false; /* say it in the next unit */
        snprintf(text, n, "%s%s%s", sign, num, utf8 ? u->utf8 : u->ascii);
        if (fit_cells(text) <= width) {
            *prec = 0.5 * pow(10, -dec) * u->size;
            return true;
        }
    }
    return false;
}

/* a >= 0 in the first unit of u[0..nu) that holds it, or the next when
 * rounding reaches it; with lower_ok, in the unit below when that shows
 * it 20 times as precisely (61.19s rather than 1.0min; 10140µs is no
 * better than 10.14ms). An ellipsis when
 * no form fits. */
static bool fit_units(char *buf, size_t n, int width, double a,
                      const char *sign, const struct unit *u, int nu,
                      int digits, bool lower_ok, bool utf8)
{
    char best[64], lower[64];
    double best_prec = INFINITY, lower_prec;
    bool found = false;
    int natural = 0;
    while (natural + 1 < nu && a >= u[natural + 1].size)
        natural++;
    for (int k = natural; k < nu && !found; k++)
        found = unit_form(best, sizeof(best), width, a, sign, &u[k], digits,
                          !lower_ok && k == 0, k > natural, utf8, &best_prec);
    if (lower_ok && natural > 0 &&
        unit_form(lower, sizeof(lower), width, a, sign, &u[natural - 1], digits,
                  false, true, utf8, &lower_prec) &&
        lower_prec * 20 <= best_prec) {
        snprintf(best, sizeof(best), "%s", lower);
        found = true;
    }
    if (found)
        return put_if_fits(buf, n, width, best);
    char text[64];
    snprintf(text, sizeof(text), "%s%.0f%s", sign, a / u[natural].size,
             utf8 ? u[natural].utf8 : u[natural].ascii);
    return fit_text(buf, n, width, text, utf8);
}

static const char *sign_of(double v, unsigned flags)
{
    return v < 0 ? "-" : (flags & FIT_SIGN) ? "+" : "";
}

bool fit_duration(char *buf, size_t n, int width, double secs, unsigned flags)
{
    bool utf8 = flags & FIT_UTF8;
    if (!isfinite(secs))
        return fit_text(buf, n, width, "n/a", utf8);
    if (secs == 0) {
        char zero[8];
        snprintf(zero, sizeof(zero), "%s0s", sign_of(0, flags));
        return fit_text(buf, n, width, zero, utf8);
    }
    return fit_units(buf, n, width, fabs(secs), sign_of(secs, flags), dur_units,
                     sizeof(dur_units) / sizeof(dur_units[0]), DUR_DIGITS, true,
                     utf8);
}

bool fit_si(char *buf, size_t n, int width, double v, unsigned flags)
{
    bool utf8 = flags & FIT_UTF8;
    if (!isfinite(v))
        return fit_text(buf, n, width, "n/a", utf8);
    return fit_units(buf, n, width, fabs(v), sign_of(v, flags), si_units,
                     sizeof(si_units) / sizeof(si_units[0]), SI_DIGITS, false,
                     utf8);
}

/* v >= 1e5 as "4.8e8": a mantissa of `dec` decimals, a bare exponent. */
static void compact_exp(char *buf, size_t n, double v, int dec)
{
    int e = (int)floor(log10(v));
    double m = v / pow(10, e);
    char mant[24];
    snprintf(mant, sizeof(mant), "%.*f", dec, m);
    if (strtod(mant, NULL) >= 10) { /* 9.96e8 rounds to 10.0 */
        e++;
        snprintf(mant, sizeof(mant), "%.*f", dec, m / 10);
    }
    snprintf(buf, n, "%.8se%d", mant, e);
}

bool fit_ratio(char *buf, size_t n, int width, double r)
{
    char text[32];
    if (!isfinite(r) || r <= 0)
        snprintf(text, sizeof(text), "n/a");
    else if (r < 0.01) /* never 0.00: the ratio is not 0 */
        snprintf(text, sizeof(text), "<0.01");
    else if (r < 9.995)
        snprintf(text, sizeof(text), "%.2f", r);
    else if (r < 99.95)
        snprintf(text, sizeof(text), "%.1f", r);
    else if (r < 99999.5)
        snprintf(text, sizeof(text), "%.0f", r);
    else
        compact_exp(text, sizeof(text), r, 1);
    return fit_text(buf, n, width, text, false);
}

bool fit_rate(char *buf, size_t n, int width, double factor, unsigned flags)
{
    bool utf8 = flags & FIT_UTF8;
    const char *x = !(flags & FIT_TIMES) ? "" : utf8 ? "\u00d7" : "x";
    char text[48], num[32];
    if (!isfinite(factor) || factor <= 0)
        return fit_text(buf, n, width, "n/a", utf8);
    if (factor >= 99999.5) {
        for (int dec = 2; dec >= 0; dec--) {
            compact_exp(num, sizeof(num), factor, dec);
            snprintf(text, sizeof(text), "%s%s", x, num);
            if (put_if_fits(buf, n, width, text))
                return true;
        }
        return fit_text(buf, n, width, text, utf8);
    }
    /* near 1 the decimals are what tell the drift */
    int dec =
        fabs(factor - 1) < 0.1 ? 4 : clamp_decimals(3 - int_digits(factor));
    for (; dec >= 0; dec--) {
        snprintf(text, sizeof(text), "%s%.*f", x, dec, factor);
        if (put_if_fits(buf, n, width, text))
            return true;
    }
    return fit_text(buf, n, width, text, utf8);
}

bool fit_drift(char *buf, size_t n, int width, double ppm, unsigned flags,
               bool *whole)
{
    bool ok, factor = fabs(ppm) > FIT_DRIFT_PPM_MAX && 1 + ppm * 1e-6 > 0;
    char text[48];
    if (!isfinite(ppm)) {
        ok = fit_text(buf, n, width, "n/a", flags & FIT_UTF8);
    } else if (factor) {
        ok = fit_rate(buf, n, width, 1 + ppm * 1e-6, flags | FIT_TIMES);
    } else { /* in ppm; also a clock going backwards (no factor) */
        snprintf(text, sizeof(text), "%s%.0f", sign_of(ppm, flags), fabs(ppm));
        ok = fit_text(buf, n, width, text, flags & FIT_UTF8);
    }
    if (whole)
        *whole = ok;
    return factor;
}
