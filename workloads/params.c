/* key=value parsing for workload parameters: strict numbers (no trailing
 * text, no inf/nan), whole numbers where the parameter says so, bounds
 * inclusive. */
#include "workloads/params.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIGITS "0123456789"

bool params_decimal(const char *text, double *out)
{
    const char *p = text + (*text == '+' || *text == '-');
    size_t digits = strspn(p, DIGITS);
    p += digits;
    if (*p == '.') {
        size_t frac = strspn(p + 1, DIGITS);
        digits += frac;
        p += 1 + frac;
    }
    if (digits == 0)
        return false;
    if (*p == 'e' || *p == 'E') {
        p += 1 + (p[1] == '+' || p[1] == '-');
        size_t exp = strspn(p, DIGITS);
        if (exp == 0)
            return false;
        p += exp;
    }
    if (*p != '\0')
        return false;
    /* the point is '.' whatever the locale says (the screen sets it) */
    static locale_t c_numeric;
    if (!c_numeric)
        c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    char *end;
    errno = 0;
    double v = c_numeric ? strtod_l(text, &end, c_numeric) : strtod(text, &end);
    if (end != p || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

int params_count(const struct workload *w)
{
    int n = 0;
    while (n < WL_MAX_PARAMS && w->params[n].name)
        n++;
    return n;
}

int params_index(const struct workload *w, const char *name)
{
    for (int i = 0; i < params_count(w); i++)
        if (strcmp(w->params[i].name, name) == 0)
            return i;
    return -1;
}

void params_defaults(const struct workload *w, double *vals)
{
    for (int i = 0; i < WL_MAX_PARAMS; i++)
        vals[i] = i < params_count(w) ? w->params[i].def : 0;
}

/* Appends to buf at *used, never past len. */
__attribute__((format(printf, 4, 5))) static void
append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used += (size_t)n;
}

void params_describe(const struct workload *w, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < params_count(w); i++) {
        const struct wl_param *p = &w->params[i];
        append(buf, len, &used, "%s%s=%.10g..%.10g", i ? ", " : "", p->name,
               p->min, p->max);
    }
    if (used == 0)
        snprintf(buf, len, "none");
}

/* The bounds of one parameter, for messages. */
static void bounds(const struct wl_param *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s takes %s%.10g..%.10g", p->name,
             p->integer ? "whole numbers " : "", p->min, p->max);
}

static int check_one(const struct workload *w, int i, double v, char *err,
                     size_t errlen)
{
    const struct wl_param *p = &w->params[i];
    char b[128];
    bounds(p, b, sizeof b);
    if (!isfinite(v)) {
        snprintf(err, errlen, "%s: %s=%.10g is not a number; %s", w->name,
                 p->name, v, b);
        return -1;
    }
    if (p->integer && v != floor(v)) {
        snprintf(err, errlen, "%s: %s=%.10g is not a whole number; %s", w->name,
                 p->name, v, b);
        return -1;
    }
    if (v < p->min || v > p->max) {
        snprintf(err, errlen, "%s: %s=%.10g is out of range; %s", w->name,
                 p->name, v, b);
        return -1;
    }
    return 0;
}

int params_set(const struct workload *w, double *vals, const char *kv,
               char *err, size_t errlen)
{
    char valid[512];
    params_describe(w, valid, sizeof valid);
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv) {
        snprintf(err, errlen, "%s: \"%.64s\" is not key=value; valid: %s",
                 w->name, kv, valid);
        return -1;
    }
    int i = -1;
    for (int k = 0; k < params_count(w); k++)
        if (strlen(w->params[k].name) == (size_t)(eq - kv) &&
            strncmp(w->params[k].name, kv, eq - kv) == 0)
            i = k;
    if (i < 0) {
        snprintf(err, errlen, "%s: unknown parameter \"%.*s\"; valid: %s",
                 w->name, (int)(eq - kv < 64 ? eq - kv : 64), kv, valid);
        return -1;
    }
    const char *text = eq + 1;
    double v;
    if (!params_decimal(text, &v)) {
        char b[128];
        bounds(&w->params[i], b, sizeof b);
        snprintf(err, errlen, "%s: %s=\"%.64s\" is not a number; %s", w->name,
                 w->params[i].name, text, b);
        return -1;
    }
    if (check_one(w, i, v, err, errlen) < 0)
        return -1;
    vals[i] = v;
    return 0;
}

int params_parse(const struct workload *w, double *vals, int n,
                 char *const kv[], char *err, size_t errlen)
{
    params_defaults(w, vals);
    for (int i = 0; i < n; i++)
        if (params_set(w, vals, kv[i], err, errlen) < 0)
            return -1;
    return 0;
}

int params_check(const struct workload *w, const double *vals, char *err,
                 size_t errlen)
{
    for (int i = 0; i < params_count(w); i++)
        if (check_one(w, i, vals[i], err, errlen) < 0)
            return -1;
    return 0;
}

void params_format(const struct workload *w, const double *vals, bool all,
                   char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < params_count(w); i++)
        if (all || vals[i] != w->params[i].def)
            append(buf, len, &used, "%s%s=%.10g", used ? " " : "",
                   w->params[i].name, vals[i]);
}
