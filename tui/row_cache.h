/* Rows drawn as in the last draw. The screen is erased and drawn whole on
 * every tick, which keeps the drawing code simple but makes ncurses copy
 * and compare every cell (wnoutrefresh, doupdate): at 200x50 that was a
 * third of a tick's instructions, most of it for rows that had not
 * changed (the idle workloads). Cells the table draws feed a hash per
 * screen row; a row of the table whose cells all came that way and hash
 * as in the last draw is marked untouched, and ncurses skips it. */
#ifndef PARALLAX_ROW_CACHE_H
#define PARALLAX_ROW_CACHE_H

#include <stdbool.h>

/* A draw begins: rows y0 .. y0+height-1 are the table's this time. */
void row_cache_begin(int y0, int height);

/* Cells drawn at (y, x) with attr: the first `cells` characters of text. */
void row_cache_feed(int y, int x, int cells, int attr, const char *text);

/* Row y was drawn some other way (a line of ACS characters): it is
 * always refreshed. */
void row_cache_taint(int y);

/* The draw ends: untouches the table rows drawn as last time, unless
 * something else covered the table in this draw or the last (help, a
 * prompt: `overlay`), the size or the background changed. Before
 * refresh(). */
void row_cache_end(bool overlay);

#endif
