/* See colors.h. Without colour (NO_COLOR, monochrome terminals) roles keep
 * their attributes, and the ones that need to stand out get reverse or
 * bold so that nothing depends on colour alone. */
#include <curses.h>
#include <stdlib.h>

#include "tui/colors.h"

struct role_look {
    short fg, bg;
    int attr;
};

static const struct role_look defaults[ROLE_COUNT] = {
#define ROLE_LOOK(role, fg_, bg_, attr_) [role] = {fg_, bg_, attr_},
    COLOR_ROLES(ROLE_LOOK)
#undef ROLE_LOOK
};

static int attrs[ROLE_COUNT];

void colors_init(void)
{
    const char *no_color = getenv("NO_COLOR");
    bool color = has_colors() && !(no_color && *no_color);
    if (color) {
        start_color();
        use_default_colors();
    }
    for (int r = 0; r < ROLE_COUNT; r++) {
        attrs[r] = defaults[r].attr;
        if (color) {
            init_pair((short)(r + 1), defaults[r].fg, defaults[r].bg);
            attrs[r] |= COLOR_PAIR(r + 1);
        } else if (defaults[r].bg != -1) {
            attrs[r] |= A_REVERSE; /* bars stay visible */
        }
    }
}

int colors_attr(enum color_role role)
{
    return attrs[role];
}
