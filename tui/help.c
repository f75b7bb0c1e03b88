/* See help.h. Drawn like ncdu's help: a framed box over the screen, the
 * keys in one column and what they do in the next, cut at the box's edge
 * on a narrow window rather than wrapped. */
#include "tui/help.h"

#include <curses.h>
#include <string.h>

#include "tui/colors.h"
#include "tui/keys.h"
#include "tui/panel.h"

#define MARGIN 2 /* columns left free on either side of the box */

static void frame(int y0, int y1, int x0, int x1, bool utf8)
{
    chtype h = utf8 ? ACS_HLINE : '-', v = utf8 ? ACS_VLINE : '|';
    mvhline(y0, x0 + 1, h, x1 - x0 - 1);
    mvhline(y1, x0 + 1, h, x1 - x0 - 1);
    mvvline(y0 + 1, x0, v, y1 - y0 - 1);
    mvvline(y0 + 1, x1, v, y1 - y0 - 1);
    mvaddch(y0, x0, utf8 ? ACS_ULCORNER : '+');
    mvaddch(y0, x1, utf8 ? ACS_URCORNER : '+');
    mvaddch(y1, x0, utf8 ? ACS_LLCORNER : '+');
    mvaddch(y1, x1, utf8 ? ACS_LRCORNER : '+');
}

void help_open_keys(struct help *h, const struct key_doc *docs, int n)
{
    h->open = true;
    h->top = 0;
    h->docs = docs;
    h->ndocs = n;
}

void help_open(struct help *h)
{
    help_open_keys(h, key_docs, key_docs_count);
}

/* The widest key column and the widest line of the list. */
static void widths(const struct key_doc *docs, int n, int *keys, int *line)
{
    *keys = *line = 0;
    for (int i = 0; i < n; i++)
        if ((int)strlen(docs[i].keys) > *keys)
            *keys = (int)strlen(docs[i].keys);
    for (int i = 0; i < n; i++)
        if (*keys + 2 + (int)strlen(docs[i].does) > *line)
            *line = *keys + 2 + (int)strlen(docs[i].does);
}

void help_draw(struct help *h, int y0, int y1, bool utf8)
{
    const struct key_doc *docs = h->docs;
    int ndocs = h->ndocs, kw, lw;
    widths(docs, ndocs, &kw, &lw);
    /* as small as the list allows, centred; a frame and a space each side */
    int w = lw + 4 < COLS - 2 * MARGIN ? lw + 4 : COLS - 2 * MARGIN;
    if (y1 > y0 + ndocs + 1)
        y1 = y0 + ndocs + 1;
    int x0 = (COLS - w) / 2, x1 = x0 + w - 1, rows = y1 - y0 - 1;
    if (rows < 1 || w < 8)
        return;
    /* a window that grew may show the end of the list from higher up */
    if (h->top > ndocs - rows)
        h->top = ndocs - rows > 0 ? ndocs - rows : 0;
    for (int y = y0; y <= y1; y++) /* the box hides what is below it */
        mvhline(y, x0, ' ', w);
    frame(y0, y1, x0, x1, utf8);
    int inner = w - 4;
    for (int r = 0; r < rows && h->top + r < ndocs; r++) {
        const struct key_doc *k = &docs[h->top + r];
        attron(colors_attr(ROLE_KEY));
        mvaddnstr(y0 + 1 + r, x0 + 2, k->keys, inner);
        attroff(colors_attr(ROLE_KEY));
        if (inner > kw + 2)
            mvaddnstr(y0 + 1 + r, x0 + 2 + kw + 2, k->does, inner - kw - 2);
    }
    mvaddnstr(y0, x0 + 2, " keys ", inner);
    const char *foot =
        ndocs > rows ? " Up/Down more; other keys close " : " any key closes ";
    int fw = (int)strlen(foot) < inner ? (int)strlen(foot) : inner;
    mvaddnstr(y1, x1 - 1 - fw, foot, fw);
}

int help_key(struct help *h, int ch)
{
    switch (ch) {
    case KEY_RESIZE: /* stays open, drawn at the new size */
        return KR_HANDLED | KR_REDRAW;
    case KEY_DOWN:
    case 'j':
    case KEY_NPAGE:
        h->top += ch == KEY_NPAGE ? 5 : 1; /* help_draw keeps it in range */
        return KR_HANDLED | KR_REDRAW;
    case KEY_UP:
    case 'k':
    case KEY_PPAGE:
        h->top -= ch == KEY_PPAGE ? 5 : 1;
        if (h->top < 0)
            h->top = 0;
        return KR_HANDLED | KR_REDRAW;
    default:
        h->open = false;
        return KR_HANDLED | KR_REDRAW;
    }
}
