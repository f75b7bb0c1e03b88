/* The signals that end parallax the orderly way, in every front end: what
 * it measured is reported, what it started is stopped (here and in the
 * guests), the terminal is restored. One table, so that the screen,
 * --text and --batch agree. */
#ifndef PARALLAX_QUIT_SIGNALS_H
#define PARALLAX_QUIT_SIGNALS_H

/* Hands every signal whose default would end the process, with or without
 * a core, but is no fault of its own (INT, TERM, HUP, QUIT, USR1, USR2,
 * ALRM, VTALRM, PROF, XCPU, XFSZ, IO, PWR, STKFLT) to handler, the others
 * of them blocked while it runs, and unblocks them in the calling thread.
 * Faults (SEGV, BUS, FPE, ILL, ABRT, SYS, TRAP), PIPE and the real-time
 * signals keep their handling. */
void quit_signals_install(void (*handler)(int));

#endif
