/* See title_bar.h. */
#include "tui/title_bar.h"

#include <curses.h>
#include <string.h>
#include <time.h>

#include "tui/colors.h"

void title_bar_draw(const char *left)
{
    char clock[16];
    time_t now = time(NULL);
    struct tm tm;
    strftime(clock, sizeof(clock), "%H:%M:%S", localtime_r(&now, &tm));
    attron(colors_attr(ROLE_TITLE));
    mvhline(0, 0, ' ', COLS);
    mvaddnstr(0, 0, left, COLS);
    if (COLS > (int)(strlen(left) + strlen(clock) + 2))
        mvaddstr(0, COLS - (int)strlen(clock) - 1, clock);
    attroff(colors_attr(ROLE_TITLE));
}
