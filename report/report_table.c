/* See report_table.h. Cells live in one growing array of strings, notes
 * in another. */
#include "report/report_table.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CELL_MAX 256

struct rtable {
    int ncol;
    char *align; /* a copy: callers build it on the stack */
    int ncell, cap;
    char **cell;
    int nnote, note_cap;
    char **note;
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

/* Appends a copy of text as the next cell, cut to RTABLE_CELL_W. */
static void add_cell(struct rtable *t, const char *text)
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
    char buf[RTABLE_CELL_W + 1];
    const char *s = text + strspn(text, " ");
    if (strlen(s) > RTABLE_CELL_W) {
        snprintf(buf, sizeof(buf), "%.*s...", RTABLE_CELL_W - 3, s);
        s = buf;
    }
    char *copy = strdup(s);
    if (copy)
        t->cell[t->ncell++] = copy;
}

void rtable_add(struct rtable *t, const char *fmt, ...)
{
    char buf[CELL_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    add_cell(t, buf);
}

/* The number of note text (1 up), added if new; 0 when out of memory. */
static int note_number(struct rtable *t, const char *text)
{
    for (int i = 0; i < t->nnote; i++)
        if (strcmp(t->note[i], text) == 0)
            return i + 1;
    if (t->nnote == t->note_cap) {
        int cap = t->note_cap ? 2 * t->note_cap : 8;
        char **n = realloc(t->note, sizeof(*n) * (size_t)cap);
        if (!n)
            return 0;
        t->note = n;
        t->note_cap = cap;
    }
    char *copy = strdup(text);
    if (!copy)
        return 0;
    t->note[t->nnote++] = copy;
    return t->nnote;
}

void rtable_add_noted(struct rtable *t, const char *cell, const char *note)
{
    int n = t && note && *note ? note_number(t, note) : 0;
    if (n == 0) {
        add_cell(t, cell);
        return;
    }
    char ref[16], buf[RTABLE_CELL_W + 1];
    int rlen = snprintf(ref, sizeof(ref), "[%d]", n);
    if (*cell) /* the cell gives way to the reference */
        snprintf(buf, sizeof(buf), "%.*s %s", RTABLE_CELL_W - 1 - rlen, cell,
                 ref);
    else
        snprintf(buf, sizeof(buf), "%s", ref);
    add_cell(t, buf);
}

void rtable_wrap(FILE *f, const char *lead, const char *text)
{
    static const char blank[] = " \t\n";
    int indent = (int)strlen(lead), col = indent;
    bool line_start = true;
    fputs(lead, f);
    for (const char *p = text + strspn(text, blank); *p;
         p += strspn(p, blank)) {
        int len = (int)strcspn(p, blank);
        if (!line_start && col + 1 + len > RTABLE_WRAP) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
            line_start = true;
        }
        if (!line_start) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, (size_t)len, f);
        col += len;
        p += len;
        line_start = false;
    }
    fputc('\n', f);
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
    if (t->nnote)
        fputc('\n', f);
    for (int i = 0; i < t->nnote; i++) {
        char lead[16];
        snprintf(lead, sizeof(lead), "[%d] ", i + 1);
        rtable_wrap(f, lead, t->note[i]);
    }
}

void rtable_free(struct rtable *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ncell; i++)
        free(t->cell[i]);
    free(t->cell);
    for (int i = 0; i < t->nnote; i++)
        free(t->note[i]);
    free(t->note);
    free(t->align);
    free(t);
}
