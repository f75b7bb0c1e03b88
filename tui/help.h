/* The help screen (F1, h, ?): a box over the table listing every key from
 * the key table. Up/Down scroll it when it does not fit; any other key
 * closes it. */
#ifndef PARALLAX_HELP_H
#define PARALLAX_HELP_H

#include <stdbool.h>

struct key_doc;

struct help {
    bool open;
    int top;                    /* the first row of the list shown */
    const struct key_doc *docs; /* the screen's key table */
    int ndocs;
};

/* Opens the help at its top, listing the main screen's keys. */
void help_open(struct help *h);

/* Opens the help at its top, listing the keys docs[0..n) (another
 * screen's table). */
void help_open_keys(struct help *h, const struct key_doc *docs, int n);

/* Draws the box from row y0 down to row y1 at most, as wide as the list
 * needs or the screen allows, with box lines in UTF-8 or ASCII. */
void help_draw(struct help *h, int y0, int y1, bool utf8);

/* Feeds one key to the open help. Returns key_result flags. */
int help_key(struct help *h, int ch);

#endif
