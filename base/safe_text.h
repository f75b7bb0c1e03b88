/* Text from outside parallax (a guest, a file, the command line, a
 * library's message) made safe for a terminal and a text report: no byte
 * of it can move the cursor, retitle the window or clear the screen. Used
 * where such text enters the model, a baseline, the options or the log. */
#ifndef PARALLAX_SAFE_TEXT_H
#define PARALLAX_SAFE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* How many characters of what someone typed a one-line message quotes
 * (safe_text_copy's max): enough to recognise it, and the reason after it
 * stays on the line. */
#define SAFE_TEXT_ECHO_MAX 40

/* Replaces in place every byte of s that is not part of a printable
 * character (C0 and C1 controls, DEL, malformed UTF-8, the bidirectional
 * controls and the line and paragraph separators) with '?'; printable
 * UTF-8 stays. Returns s. */
char *safe_text(char *s);

/* As safe_text, but tabs and newlines stay: for text made of lines and
 * columns (a workload's extras, workloads/extras.h). Returns s. */
char *safe_text_lines(char *s);

/* Copies src (NULL: "") into dst (n >= 1 bytes) made safe as safe_text
 * does, cut at a character boundary when it does not fit, and with "..."
 * after at most `max` characters when src has more (max 0: no such
 * limit): for echoing what someone typed in a one-line message, and for
 * whatever a server sends (the fleet's labels, pmproxy's reasons). Returns
 * dst. */
char *safe_text_copy(char *dst, size_t n, const char *src, size_t max);

/* True when safe_text would leave s as it is. */
bool safe_text_ok(const char *s);

#endif
