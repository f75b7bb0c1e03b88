/* The htop-style key bar on the bottom row, from the key table. */
#ifndef PARALLAX_KEYBAR_H
#define PARALLAX_KEYBAR_H

/* Draws the bar on row y across the screen; on a narrow one the entries
 * that matter least are left out, the help and quit keys never. */
void keybar_draw(int y);

struct key_doc;

/* The same bar from another screen's key table docs[0..n). */
void keybar_draw_keys(int y, const struct key_doc *docs, int n);

#endif
