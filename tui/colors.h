/* Colour roles of the screen: one table, from which the enum and the
 * default look are generated. Themes (later) remap the same roles. */
#ifndef PARALLAX_COLORS_H
#define PARALLAX_COLORS_H

/* X(role, foreground, background, attributes) with curses colours */
#define COLOR_ROLES(X)                                                         \
    X(ROLE_TITLE, COLOR_BLACK, COLOR_CYAN, 0)                                  \
    X(ROLE_SOURCE, COLOR_WHITE, -1, A_BOLD)                                    \
    X(ROLE_LIVE, COLOR_GREEN, -1, 0)                                           \
    X(ROLE_STALE, COLOR_YELLOW, -1, A_BOLD)                                    \
    X(ROLE_DOWN, COLOR_RED, -1, A_BOLD)                                        \
    X(ROLE_LABEL, COLOR_CYAN, -1, 0)                                           \
    X(ROLE_SPARK, COLOR_BLUE, -1, A_BOLD)                                      \
    X(ROLE_RATIO_BAD, COLOR_RED, -1, A_BOLD)                                   \
    X(ROLE_RATIO_GOOD, COLOR_GREEN, -1, A_BOLD)                                \
    X(ROLE_KEY, COLOR_WHITE, -1, A_BOLD)                                       \
    X(ROLE_KEY_LABEL, COLOR_BLACK, COLOR_CYAN, 0)

enum color_role {
#define ROLE_ENUM(role, ...) role,
    COLOR_ROLES(ROLE_ENUM)
#undef ROLE_ENUM
        ROLE_COUNT
};

/* Sets up colour pairs, or attributes only when the terminal has no
 * colours or NO_COLOR is set. Call after initscr. */
void colors_init(void);

/* The curses attributes that draw `role`. */
int colors_attr(enum color_role role);

#endif
