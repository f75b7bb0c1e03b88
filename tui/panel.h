/* What a panel's key handler did, as flags: the main loop acts on them
 * instead of panels poking globals. */
#ifndef PARALLAX_PANEL_H
#define PARALLAX_PANEL_H

enum key_result {
    KR_IGNORED = 0,
    KR_HANDLED = 1 << 0,
    KR_REDRAW = 1 << 1,
    KR_QUIT = 1 << 2,
};

#endif
