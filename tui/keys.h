/* Every key of the live screen, in one table: the help screen lists it
 * and the key bar shows its short labels, so the two cannot drift. */
#ifndef PARALLAX_KEYS_H
#define PARALLAX_KEYS_H

#define KEY_DOCS_MAX 32

struct key_doc {
    const char *keys;  /* as the help lists them: "F1 h ?" */
    const char *does;  /* one line for the help screen */
    const char *bar;   /* the key bar's key ("F1"), NULL: not on the bar */
    const char *label; /* the key bar's label ("Help") */
    int drop;          /* on a narrow screen, higher drops first; 0 never */
};

/* The keys, in the order the help lists them and the bar shows them. */
extern const struct key_doc key_docs[];
extern const int key_docs_count;

#endif
