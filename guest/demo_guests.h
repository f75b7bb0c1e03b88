/* Several demo guests side by side (--demo-guest given more than once):
 * every variant checked and prepared before anything boots, then all
 * booted in parallel, each with its own port and a column named by its
 * variant, every boot followed on one status line, and all stopped on
 * every way out. */
#ifndef PARALLAX_DEMO_GUESTS_H
#define PARALLAX_DEMO_GUESTS_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "guest/demo_guest.h"

#define DEMO_GUESTS_MAX 8

struct demo_guests {
    int n;
    struct demo_guest g[DEMO_GUESTS_MAX];
    bool added[DEMO_GUESTS_MAX]; /* a source of the session */
    int epfd;                    /* every boot.sh's pipes; -1 when none */
    bool told_all_up;
};

struct session;

/* Prepares the n variants (another kernel is fetched; its steps show on
 * fd when that is a terminal), then starts every guest. Nothing boots
 * unless every variant could be prepared. 0, or -1 with a one-line
 * message in err (nothing left running). */
int demo_guests_start(struct demo_guests *d, const char *const *variants, int n,
                      int fd, char *err, size_t errlen);

/* A descriptor that polls readable when any guest has something to say;
 * -1 when no guest runs. */
int demo_guests_fd(const struct demo_guests *d);

/* Reads what every boot.sh said, adds each guest whose pmcd answers to s
 * (under its name), and writes every boot's newest step into status.
 * True when anything changed. Never blocks. */
bool demo_guests_poll(struct demo_guests *d, struct session *s, char *status,
                      size_t n);

/* Boots every guest and waits (telling every progress line on
 * `progress`) until each is up or has failed, adding those up to s. *stop
 * (may be NULL; a signal handler's flag) cancels. 0 when all came up, -1
 * when any did not (the reason was told; the others stay). */
int demo_guests_join(struct demo_guests *d, struct session *s,
                     const char *const *variants, int n, FILE *progress,
                     const volatile sig_atomic_t *stop);

/* Stops every guest (boot.sh stops qemu) at once and waits for them. Safe
 * when none runs. */
void demo_guests_stop(struct demo_guests *d);

#endif
