/* See extras.h. %.17g keeps every bit of a double across the wire. */
#include "workloads/extras.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t wl_extras_format(const struct wl_result *r, char *buf, size_t n)
{
    size_t len = 0;
    if (n == 0)
        return 0;
    buf[0] = '\0';
    for (int i = 0; i < r->nextra; i++) {
        const struct wl_extra *x = &r->extra[i];
        int k = snprintf(buf + len, n - len, "%s\t%s\t%.17g\n", x->name,
                         x->unit, x->value);
        if (k < 0 || (size_t)k >= n - len) {
            buf[len] = '\0'; /* no half lines */
            break;
        }
        len += (size_t)k;
    }
    return len;
}

/* Copies the field up to the next tab into out; the text after the tab,
 * or NULL when there is none before the end of the line. */
static const char *field(const char *p, const char *eol, char *out, size_t n)
{
    const char *tab = memchr(p, '\t', (size_t)(eol - p));
    if (!tab)
        return NULL;
    snprintf(out, n, "%.*s", (int)(tab - p), p);
    return tab + 1;
}

int wl_extras_parse(const char *text, struct wl_result *r)
{
    r->nextra = 0;
    for (const char *p = text; p && *p && r->nextra < WL_MAX_EXTRA;) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        struct wl_extra *x = &r->extra[r->nextra];
        const char *q = field(p, eol, x->name, sizeof x->name);
        if (q)
            q = field(q, eol, x->unit, sizeof x->unit);
        if (q) {
            char *end;
            x->value = strtod(q, &end);
            if (end != q && end == eol)
                r->nextra++;
        }
        p = *eol ? eol + 1 : NULL;
    }
    return r->nextra;
}

double wl_extra(const struct wl_result *r, const char *name)
{
    for (int i = 0; i < r->nextra; i++)
        if (strcmp(r->extra[i].name, name) == 0)
            return r->extra[i].value;
    return NAN;
}
