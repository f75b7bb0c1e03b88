/* See keybar.h. Each entry is " KEY" in the key colour and " Label " in
 * the label colour, as htop draws its function bar. */
#include "tui/keybar.h"

#include <curses.h>
#include <stdbool.h>
#include <string.h>

#include "tui/colors.h"
#include "tui/keys.h"

static int entry_width(const struct key_doc *k)
{
    return 1 + (int)strlen(k->bar) + 1 + (int)strlen(k->label) + 1;
}

/* Leaves out the entries with the highest drop rank until the rest fit. */
static void choose(const struct key_doc *docs, int n, bool *shown, int cols)
{
    int width = 0;
    for (int i = 0; i < n; i++) {
        shown[i] = docs[i].bar != NULL;
        if (shown[i])
            width += entry_width(&docs[i]);
    }
    while (width > cols) {
        int worst = -1;
        for (int i = 0; i < n; i++)
            if (shown[i] && docs[i].drop > 0 &&
                (worst < 0 || docs[i].drop > docs[worst].drop))
                worst = i;
        if (worst < 0)
            break; /* what is left is cut at the edge */
        shown[worst] = false;
        width -= entry_width(&docs[worst]);
    }
}

/* Adds text in attr up to the last column but one (a write into the
 * bottom right corner would scroll); false when the row is full. */
static bool add_clipped(const char *text, int attr)
{
    int room = COLS - 1 - getcurx(stdscr);
    if (room <= 0)
        return false;
    attron(attr);
    addnstr(text, room);
    attroff(attr);
    return true;
}

void keybar_draw(int y)
{
    keybar_draw_keys(y, key_docs, key_docs_count);
}

void keybar_draw_keys(int y, const struct key_doc *docs, int n)
{
    bool shown[KEY_DOCS_MAX];
    choose(docs, n, shown, COLS - 1);
    move(y, 0);
    clrtoeol();
    for (int i = 0; i < n; i++) {
        if (!shown[i])
            continue;
        int key = colors_attr(ROLE_KEY), label = colors_attr(ROLE_KEY_LABEL);
        if (!add_clipped(" ", key) || !add_clipped(docs[i].bar, key) ||
            !add_clipped(" ", label) || !add_clipped(docs[i].label, label) ||
            !add_clipped(" ", label))
            break;
    }
}
