/* See row_cache.h. A hash of each row's cells: the inputs that decide what
 * a cell shows (position, width, attributes, text), so equal hashes mean
 * the same row, short of a 64-bit collision. */
#include "tui/row_cache.h"

#include <curses.h>
#include <stdint.h>
#include <string.h>

#define ROWS_MAX 512
#define FNV_INIT 14695981039346656037ull
#define FNV_MUL  1099511628211ull

static struct {
    int y0, height;          /* the table's rows in this draw */
    uint64_t hash[ROWS_MAX]; /* this draw's, by screen row */
    bool taint[ROWS_MAX];
    uint64_t last[ROWS_MAX]; /* the last draw's, valid where known */
    bool known[ROWS_MAX];
    bool last_overlay;
    int last_cols, last_lines;
    chtype last_bkgd;
} rc;

/* FNV-1a, eight bytes a step: rows are hashed on every draw */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (; n >= 8; n -= 8, b += 8) {
        uint64_t w;
        memcpy(&w, b, 8);
        h = (h ^ w) * FNV_MUL;
        h ^= h >> 29;
    }
    for (; n > 0; n--, b++)
        h = (h ^ *b) * FNV_MUL;
    return h;
}

static bool in_table(int y)
{
    return y >= rc.y0 && y < rc.y0 + rc.height && y >= 0 && y < ROWS_MAX;
}

void row_cache_begin(int y0, int height)
{
    rc.y0 = y0;
    rc.height = height;
    for (int y = 0; y < ROWS_MAX; y++) {
        rc.hash[y] = FNV_INIT;
        rc.taint[y] = false;
    }
}

void row_cache_feed(int y, int x, int cells, int attr, const char *text)
{
    if (!in_table(y))
        return;
    int head[3] = {x, cells, attr};
    /* the whole text, though only `cells` characters show: more input
     * can only tell more rows apart, never make two different ones equal */
    rc.hash[y] = mix(mix(rc.hash[y], head, sizeof(head)), text, strlen(text));
}

void row_cache_taint(int y)
{
    if (in_table(y))
        rc.taint[y] = true;
}

void row_cache_end(bool overlay)
{
    chtype bkgd = getbkgd(stdscr);
    bool reuse = !overlay && !rc.last_overlay && COLS == rc.last_cols &&
                 LINES == rc.last_lines && bkgd == rc.last_bkgd;
    for (int y = 0; y < ROWS_MAX && y < LINES; y++) {
        bool mine = in_table(y) && !rc.taint[y];
        if (reuse && mine && rc.known[y] && rc.last[y] == rc.hash[y])
            wtouchln(stdscr, y, 1, 0); /* ncurses: nothing changed */
        rc.known[y] = mine;
        rc.last[y] = rc.hash[y];
    }
    rc.last_overlay = overlay;
    rc.last_cols = COLS;
    rc.last_lines = LINES;
    rc.last_bkgd = bkgd;
}
