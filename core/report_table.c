/* See report_table.h. Cells live in one growing array of strings. */
#include "core/report_table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define CELL_MAX 256

struct rtable {
    int ncol;
    char *align; /* a copy: callers build it on the stack */
    int ncell, cap;
    char **cell;
};

struct rtable *rtable_new(const char *align)
{
    struct rtable *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->ncol = (int)strlen(align);
    t->align = strdup(align);
    if (!t->align || !t->ncol) {
        free(t->align);
        free(t);
        return NULL;
    }
    return t;
}

void rtable_add(struct rtable *t, const char *fmt, ...)
{
    if (!t)
        return;
    if (t->ncell == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        char **c = realloc(t->cell, sizeof(*c) * (size_t)cap);
        if (!c)
            return;
        t->cell = c;
        t->cap = cap;
    }
    char buf[CELL_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    const char *s = buf + strspn(buf, " ");
    char *copy = strdup(s);
    if (copy)
        t->cell[t->ncell++] = copy;
}

static int width_of(const struct rtable *t, int col)
{
    int w = 0;
    for (int i = col; i < t->ncell; i += t->ncol) {
        int len = (int)strlen(t->cell[i]);
        if (len > w)
            w = len;
    }
    return w;
}

static void print_row(FILE *f, const struct rtable *t, int row, const int *w)
{
    int last = row * t->ncol + t->ncol;
    if (last > t->ncell)
        last = t->ncell;
    /* a line is built first so that its trailing blanks can be cut */
    char *line = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&line, &len);
    if (!m)
        return;
    for (int i = row * t->ncol; i < last; i++) {
        int col = i % t->ncol;
        const char *sep = col ? "  " : "";
        if (t->align[col] == 'l')
            fprintf(m, "%s%-*s", sep, w[col], t->cell[i]);
        else
            fprintf(m, "%s%*s", sep, w[col], t->cell[i]);
    }
    fclose(m);
    while (len > 0 && line[len - 1] == ' ')
        len--;
    fprintf(f, "%.*s\n", (int)len, line);
    free(line);
}

void rtable_print(FILE *f, const struct rtable *t)
{
    if (!t || !t->ncell)
        return;
    int *w = calloc((size_t)t->ncol, sizeof(*w)), total = 0;
    if (!w)
        return;
    for (int c = 0; c < t->ncol; c++) {
        w[c] = width_of(t, c);
        total += w[c] + (c ? 2 : 0);
    }
    int nrow = (t->ncell + t->ncol - 1) / t->ncol;
    print_row(f, t, 0, w);
    for (int i = 0; i < total; i++)
        fputc('-', f);
    fputc('\n', f);
    for (int r = 1; r < nrow; r++)
        print_row(f, t, r, w);
    free(w);
}

void rtable_free(struct rtable *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ncell; i++)
        free(t->cell[i]);
    free(t->cell);
    free(t->align);
    free(t);
}
