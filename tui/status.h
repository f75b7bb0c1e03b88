/* The status line's text laid out for a narrow window: what fits in one
 * row stays one row; a longer message wraps onto a second row (at a space,
 * or inside a long path), drops its parenthesised asides when it needs
 * more, and is cut only after that.
 * Messages say their cause first, so a cut never hides it. */
#ifndef PARALLAX_STATUS_H
#define PARALLAX_STATUS_H

#include <stddef.h>

#define STATUS_ROWS_MAX 2
#define STATUS_LINE_MAX 512

struct status_lines {
    int rows; /* 0 for no message, else 1..STATUS_ROWS_MAX */
    char line[STATUS_ROWS_MAX][STATUS_LINE_MAX];
};

/* Lays text out in a first row of w1 cells and a second of w2 (0: one
 * row only). */
void status_fit(const char *text, int w1, int w2, struct status_lines *out);

/* "what: context: cause" as "what: cause (context)": for a message whose
 * cause comes last, as strerror's does after a long path. */
void status_cause_first(const char *what, const char *err, char *buf, size_t n);

/* The `s` key's outcome: "saved PATH (and .json)" (the path cut, if it
 * must, before the end is), or with rc < 0 "not saved: cause (context)"
 * of err. Both screens' reports. */
void status_saved(int rc, const char *path, const char *err, char *buf,
                  size_t n);

#endif
