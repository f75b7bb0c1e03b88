/* Diagnostics for the log: one timestamped line per event on stderr, which
 * the live screen sends to its log file. -v raises the level; a check of
 * one int is all a disabled message costs. */
#ifndef PARALLAX_DIAG_H
#define PARALLAX_DIAG_H

#define DIAG_WARN  0 /* always: what a user must know (a safety lost) */
#define DIAG_INFO  1 /* -v: state changes, workloads, snapshots */
#define DIAG_DEBUG 2 /* -vv: every fetch's timing */

/* The level asked for with -v; set once before any thread starts. */
extern int diag_level;

/* Writes the message when the level asked for reaches `level`. */
#define DIAG(level, ...)                                                       \
    do {                                                                       \
        if (diag_level >= (level))                                             \
            diag_write(__VA_ARGS__);                                           \
    } while (0)

/* Sets the level (0: warnings, and what libraries write themselves). */
void diag_set_level(int level);

/* Writes "YYYY-mm-dd HH:MM:SS.mmm parallax: MESSAGE" as one line. */
void diag_write(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
