/* A one-line prompt on the status row ("add guest: "), with the editing
 * keys people expect: printable characters, Backspace, ^U to clear, Enter
 * to accept, Esc or ^G to cancel. */
#ifndef PARALLAX_PROMPT_H
#define PARALLAX_PROMPT_H

#include <stdbool.h>

enum prompt_result {
    PROMPT_EDITING,
    PROMPT_ACCEPTED,
    PROMPT_CANCELLED,
};

struct prompt {
    bool active;
    const char *label;
    char text[128];
    int len;
};

/* Opens the prompt with an empty line. */
void prompt_open(struct prompt *p, const char *label);

/* Feeds one key; the prompt closes itself when accepted or cancelled. */
enum prompt_result prompt_key(struct prompt *p, int ch);

/* Draws the prompt on screen row y with the cursor at its end. */
void prompt_draw(const struct prompt *p, int y);

#endif
