/* See help.h. Drawn like ncdu's help: a framed box over the screen, the
 * keys in one column and what they do in the next, then the legend of the
 * table's columns and markers; a description wider than the box wraps
 * onto the next rows (it was cut at the box's edge). */
#include "tui/help.h"

#include <curses.h>
#include <string.h>

#include "tui/colors.h"
#include "tui/keys.h"
#include "tui/panel.h"
#include "view/fit.h"
#include "view/view.h"

#define MARGIN    2   /* columns left free on either side of the box */
#define READ_W    78  /* the widest row: longer ones wrap */
#define LINES_MAX 160 /* wrapped rows of the list, at most */
#define TEXT_MAX  256

struct help_row {
    const char *key; /* on the first row of a key's description, or NULL */
    char text[TEXT_MAX];
    int x; /* where text starts, inside the box */
};

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

/* The widest key, and the widest key row unwrapped (the legend wraps to
 * the box the keys make). */
static void widths(const struct key_doc *docs, int ndocs, int *keys, int *line)
{
    *keys = *line = 0;
    for (int i = 0; i < ndocs; i++)
        if ((int)strlen(docs[i].keys) > *keys)
            *keys = (int)strlen(docs[i].keys);
    for (int i = 0; i < ndocs; i++)
        if (*keys + 2 + (int)strlen(docs[i].does) > *line)
            *line = *keys + 2 + (int)strlen(docs[i].does);
    if (*line > READ_W)
        *line = READ_W;
}

/* Adds text wrapped at spaces to `width` cells as rows starting at x, the
 * first with `key`, the rows after it `indent` further in. Returns the new
 * count. */
static int add_wrapped(struct help_row *rows, int n, const char *key,
                       const char *text, int x, int width, int indent)
{
    bool first = true;
    while (n < LINES_MAX) {
        if (!first) {
            x += indent;
            width -= indent;
            indent = 0;
        }
        first = false;
        struct help_row *r = &rows[n++];
        r->key = key;
        r->x = x;
        key = NULL;
        const char *rest;
        int len = fit_wrap(text, width, &rest);
        snprintf(r->text, sizeof(r->text), "%.*s", len, text);
        text = rest;
        if (!*text)
            break;
    }
    return n;
}

/* The rows of the list for a box `inner` cells wide: the keys and, for the
 * main screen's table, a blank row and the legend of its marks. */
static int build(const struct help *h, struct help_row *rows, int inner, int kw,
                 bool utf8)
{
    int n = 0, dw = inner - kw - 2;
    for (int i = 0; i < h->ndocs; i++)
        n = dw >= 8 ? add_wrapped(rows, n, h->docs[i].keys, h->docs[i].does,
                                  kw + 2, dw, 0)
                    : add_wrapped(rows, n, h->docs[i].keys, "", 0, 1, 0);
    if (h->docs != key_docs)
        return n;
    if (n < LINES_MAX)
        rows[n++] = (struct help_row){NULL, "", 0};
    n = add_wrapped(rows, n, NULL, "What the table's marks say:", 0, inner, 0);
    char text[TEXT_MAX];
    for (int i = 0; view_legend(i, utf8, text, sizeof(text)); i++)
        n = add_wrapped(rows, n, NULL, text, 0, inner, inner > 12 ? 4 : 0);
    return n;
}

void help_draw(struct help *h, int y0, int y1, bool utf8)
{
    static struct help_row list[LINES_MAX]; /* kept off the stack */
    int kw, lw;
    widths(h->docs, h->ndocs, &kw, &lw);
    /* as small as the list allows, centred; a frame and a space each side */
    int w = lw + 4 < COLS - 2 * MARGIN ? lw + 4 : COLS - 2 * MARGIN;
    int inner = w - 4;
    if (inner < 1)
        return;
    int n = build(h, list, inner, kw, utf8);
    if (y1 > y0 + n + 1)
        y1 = y0 + n + 1;
    int x0 = (COLS - w) / 2, x1 = x0 + w - 1, rows = y1 - y0 - 1;
    if (rows < 1 || w < 8)
        return;
    /* a window that grew may show the end of the list from higher up */
    if (h->top > n - rows)
        h->top = n - rows > 0 ? n - rows : 0;
    for (int y = y0; y <= y1; y++) /* the box hides what is below it */
        mvhline(y, x0, ' ', w);
    frame(y0, y1, x0, x1, utf8);
    for (int r = 0; r < rows && h->top + r < n; r++) {
        const struct help_row *row = &list[h->top + r];
        if (row->key) {
            attron(colors_attr(ROLE_KEY));
            mvaddnstr(y0 + 1 + r, x0 + 2, row->key, inner);
            attroff(colors_attr(ROLE_KEY));
        }
        mvaddstr(y0 + 1 + r, x0 + 2 + row->x, row->text);
    }
    mvaddnstr(y0, x0 + 2, " keys ", inner);
    const char *foot =
        n > rows ? " Up/Down more; other keys close " : " any key closes ";
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
