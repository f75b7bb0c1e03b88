/* The terminal's lifecycle, for every screen (the main one, the fleet's):
 * taken (curses, the signals' handlers, stderr into the log) and given
 * back on every way out: q, the signals that end a process (SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 ... cli/quit_signals.h; through a
 * self-pipe, which the screen's loop polls, then the way q quits), and
 * faults (restored in the handler, then re-raised). A resize reaches the
 * loop as KEY_RESIZE (curses' own SIGWINCH handler). */
#ifndef PARALLAX_LIFECYCLE_H
#define PARALLAX_LIFECYCLE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"

#define TUI_MIN_COLS 40
#define TUI_MIN_ROWS 12

struct tui_life {
    int real_stderr; /* the terminal's stderr while fd 2 is the log, -1 */
    bool utf8;       /* the locale's codeset is UTF-8 */
};

/* Before a screen: o's theme (a note of it into status), a terminal that
 * is one and big enough, the signal pipe, then stderr into the log
 * (libraries, PCP among them, write there). 0; else the exit status, the
 * reason said on stderr. */
int tui_life_open(struct tui_life *l, const struct options *o, char *status,
                  size_t n);

/* Takes the terminal: the signals' handlers, then curses. */
void tui_life_begin(void);

/* Gives the terminal back (the cursor, the modes); again is harmless. */
void tui_life_end(void);

/* "parallax: msg" on the terminal's stderr (the log has fd 2 meanwhile). */
void tui_life_say(const struct tui_life *l, const char *msg);

/* stderr back to the terminal. */
void tui_life_close(struct tui_life *l);

/* While a screen is up: the descriptor that becomes readable when a
 * signal that ends the process arrives (one byte, the signal). */
int tui_signal_fd(void);

/* After a poll that included tui_signal_fd() as p: the signal that
 * arrived, or 0. */
int tui_signal_taken(const struct pollfd *p);

#endif
