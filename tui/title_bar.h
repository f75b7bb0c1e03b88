/* The title row both screens draw: their own text on the left, the time
 * of day on the right when it fits, in the title colour. */
#ifndef PARALLAX_TITLE_BAR_H
#define PARALLAX_TITLE_BAR_H

/* Draws row 0 with `left` and the clock. */
void title_bar_draw(const char *left);

#endif
