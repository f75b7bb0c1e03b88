/* A plain-ASCII table for the text report: cells are collected row by row,
 * then printed with every column as wide as its widest cell, so columns
 * line up in any monospaced font (an e-mail, a diff). Cells are bounded;
 * long texts (why a run failed) go under the table as numbered notes. */
#ifndef PARALLAX_REPORT_TABLE_H
#define PARALLAX_REPORT_TABLE_H

#include <stdio.h>

#define RTABLE_CELL_W 40 /* a longer cell is cut, ending in "..." */
#define RTABLE_WRAP   78 /* notes and other prose are wrapped to this */

struct rtable;

/* A table with one column per letter of `align` ('l' left, 'r' right);
 * the first row added is the header. NULL when out of memory (every other
 * call then does nothing). */
struct rtable *rtable_new(const char *align);

/* Adds the next cell (row by row), printf style; leading blanks are
 * dropped so right-aligned view strings can be used as they are. */
void rtable_add(struct rtable *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Adds the next cell: `cell` followed by a reference "[N]" to `note`,
 * which is printed whole under the table (an equal note shares the
 * number); with note "" the cell alone. */
void rtable_add_noted(struct rtable *t, const char *cell, const char *note);

/* Prints the header, a rule of dashes, then the rows, columns two blanks
 * apart and aligned as asked, then the notes; nothing trails a line. */
void rtable_print(FILE *f, const struct rtable *t);

/* Prints lead then text, wrapped at RTABLE_WRAP columns between words,
 * the lines after the first indented as far as lead reaches. */
void rtable_wrap(FILE *f, const char *lead, const char *text);

/* Frees t (NULL is fine). */
void rtable_free(struct rtable *t);

#endif
