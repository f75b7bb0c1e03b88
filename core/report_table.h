/* A plain-ASCII table for the text report: cells are collected row by row,
 * then printed with every column as wide as its widest cell, so columns
 * line up in any monospaced font (an e-mail, a diff). */
#ifndef PARALLAX_REPORT_TABLE_H
#define PARALLAX_REPORT_TABLE_H

#include <stdio.h>

struct rtable;

/* A table with one column per letter of `align` ('l' left, 'r' right);
 * the first row added is the header. NULL when out of memory (every other
 * call then does nothing). */
struct rtable *rtable_new(const char *align);

/* Adds the next cell (row by row), printf style; leading blanks are
 * dropped so right-aligned view strings can be used as they are. */
void rtable_add(struct rtable *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints the header, a rule of dashes, then the rows, columns two blanks
 * apart and aligned as asked; nothing trails a line. */
void rtable_print(FILE *f, const struct rtable *t);

/* Frees t (NULL is fine). */
void rtable_free(struct rtable *t);

#endif
