/* See status.h. Widths count bytes: status messages are ASCII but for
 * names, and a cut never splits a UTF-8 character. */
#include "tui/status.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Copies at most w bytes of text, ending before a UTF-8 continuation. */
static void copy_cut(char *dst, const char *text, int w)
{
    int len = (int)strlen(text);
    if (len > w)
        len = w > 0 ? w : 0;
    while (len > 0 && len < (int)strlen(text) &&
           ((unsigned char)text[len] & 0xc0) == 0x80)
        len--;
    if (len > STATUS_LINE_MAX - 1)
        len = STATUS_LINE_MAX - 1;
    memcpy(dst, text, (size_t)len);
    dst[len] = '\0';
}

/* Wraps text at the last space that lets the first row fit w1 (or, hard,
 * right at w1: a long path has no space); true when the rest fits w2 (else
 * it is cut, with "..." at its end). */
static bool wrap(const char *text, int w1, int w2, bool hard,
                 struct status_lines *out)
{
    int brk = w1;
    while (!hard && brk > 0 && text[brk] != ' ')
        brk--;
    if (brk == 0) /* one long word: break it */
        brk = w1;
    while (brk > 0 && ((unsigned char)text[brk] & 0xc0) == 0x80)
        brk--; /* not inside a character */
    copy_cut(out->line[0], text, brk);
    const char *rest = text + brk;
    while (*rest == ' ')
        rest++;
    out->rows = *rest ? 2 : 1;
    bool fits = (int)strlen(rest) <= w2;
    copy_cut(out->line[1], rest, fits ? w2 : w2 - 3);
    if (!fits)
        strcat(out->line[1], "...");
    return fits;
}

/* text without its " (...)" asides. */
static void drop_asides(const char *text, char *buf, size_t n)
{
    size_t o = 0;
    int depth = 0;
    for (const char *c = text; *c && o + 1 < n; c++) {
        if (*c == '(' && (depth > 0 || (c > text && c[-1] == ' '))) {
            if (depth++ == 0 && o > 0 && buf[o - 1] == ' ')
                o--; /* the space before the aside goes with it */
            continue;
        }
        if (depth > 0) {
            depth -= *c == ')';
            continue;
        }
        buf[o++] = *c;
    }
    buf[o] = '\0';
}

void status_fit(const char *text, int w1, int w2, struct status_lines *out)
{
    out->rows = 0;
    out->line[0][0] = out->line[1][0] = '\0';
    if (!text[0] || w1 <= 0)
        return;
    if ((int)strlen(text) <= w1) {
        copy_cut(out->line[0], text, w1);
        out->rows = 1;
        return;
    }
    if (w2 > 0 &&
        (wrap(text, w1, w2, false, out) || wrap(text, w1, w2, true, out)))
        return;
    char shorter[STATUS_LINE_MAX];
    drop_asides(text, shorter, sizeof(shorter));
    out->rows = 1;
    if ((int)strlen(shorter) <= w1) {
        copy_cut(out->line[0], shorter, w1);
    } else if (w2 <= 0) { /* one row only: cut it */
        copy_cut(out->line[0], shorter, w1 - 3);
        strcat(out->line[0], "...");
    } else if (!wrap(shorter, w1, w2, false, out)) {
        wrap(shorter, w1, w2, true, out);
    }
}

void status_cause_first(const char *what, const char *err, char *buf, size_t n)
{
    const char *sep = NULL;
    for (const char *c = strstr(err, ": "); c; c = strstr(c + 2, ": "))
        sep = c;
    if (!sep) {
        snprintf(buf, n, "%s: %s", what, err);
        return;
    }
    snprintf(buf, n, "%s: %s (%.*s)", what, sep + 2, (int)(sep - err), err);
}

void status_saved(int rc, const char *path, const char *err, char *buf,
                  size_t n)
{
    static const char tail[] = " (and .json)";
    int room = (int)n - (int)sizeof("saved ") - (int)sizeof(tail) + 1;
    if (rc < 0)
        status_cause_first("not saved", err, buf, n);
    else
        snprintf(buf, n, "saved %.*s%s", room > 0 ? room : 0, path, tail);
}
