/* See prompt.h. */
#include "tui/prompt.h"

#include <curses.h>
#include <string.h>

void prompt_open(struct prompt *p, const char *label)
{
    p->active = true;
    p->label = label;
    p->text[0] = '\0';
    p->len = 0;
}

enum prompt_result prompt_key(struct prompt *p, int ch)
{
    switch (ch) {
    case '\n':
    case '\r':
    case KEY_ENTER:
        p->active = false;
        return PROMPT_ACCEPTED;
    case 27: /* Esc */
    case 7:  /* ^G */
        p->active = false;
        return PROMPT_CANCELLED;
    case KEY_BACKSPACE:
    case 127:
    case 8:
        if (p->len > 0)
            p->text[--p->len] = '\0';
        return PROMPT_EDITING;
    case 21: /* ^U */
        p->len = 0;
        p->text[0] = '\0';
        return PROMPT_EDITING;
    default:
        if (ch >= 32 && ch < 127 && p->len < (int)sizeof(p->text) - 1) {
            p->text[p->len++] = (char)ch;
            p->text[p->len] = '\0';
        }
        return PROMPT_EDITING;
    }
}

void prompt_draw(const struct prompt *p, int y)
{
    move(y, 0);
    clrtoeol();
    attron(A_BOLD);
    mvaddnstr(y, 1, p->label, COLS - 1);
    attroff(A_BOLD);
    int x = 1 + (int)strlen(p->label);
    /* show the end of a line longer than the window */
    const char *t = p->text;
    int room = COLS - x - 1;
    if (room > 0 && p->len > room)
        t += p->len - room;
    if (room > 0)
        mvaddnstr(y, x, t, room);
}
