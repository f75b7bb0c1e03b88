/* The demo guest: parallax's own micro-VM (guest/), booted by
 * guest/boot.sh in a child process. The launcher reads boot.sh's progress
 * and its ready line ("PORT=... PID=... ACCEL=..."), and stops it — and so
 * qemu — on every way out (boot.sh dies with parallax through
 * PR_SET_PDEATHSIG and takes qemu with it). */
#ifndef PARALLAX_DEMO_GUEST_H
#define PARALLAX_DEMO_GUEST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum demo_state {
    DEMO_OFF,     /* not asked for */
    DEMO_BOOTING, /* boot.sh runs, pmcd not up yet */
    DEMO_READY,   /* pmcd answers on 127.0.0.1:port */
    DEMO_FAILED,  /* boot.sh gave up, see progress */
};

struct demo_guest {
    enum demo_state state;
    pid_t pid;                /* boot.sh */
    int out_fd;               /* its stdout: the ready line */
    int err_fd;               /* its stderr: "boot: ..." progress */
    int port;                 /* forwarded pmcd port, once ready */
    char accel[8];            /* "kvm" or "tcg" */
    char progress[256];       /* the newest progress line */
    FILE *echo;               /* NULL, or where every progress line goes */
    char out[256], err[1024]; /* partial lines */
    size_t outlen, errlen;
};

/* Checks a --demo-guest variant list ("icount,cpus=2,mem=256M,clock=rtc";
 * "" for the defaults; mem at least 96M; icount with 1 vCPU only) and
 * turns it into boot.sh options in argv (room for max entries, NULL-ended;
 * strings point into buf). 0, or -1 with a one-line message in err. */
int demo_guest_args(const char *variants, char **argv, int max, char *buf,
                    size_t buflen, char *err, size_t errlen);

/* Starts guest/boot.sh with the options of `variants`, for the image in
 * the guest/ directory of parallax's own build directory (where this
 * program's binary lives; an installed parallax has neither). 0, or -1
 * with a one-line message in err. */
int demo_guest_start(struct demo_guest *g, const char *variants, char *err,
                     size_t errlen);

/* Reads what boot.sh said; true when the state or progress changed. Call
 * when its descriptors are readable (or on any tick: never blocks). */
bool demo_guest_poll(struct demo_guest *g);

struct session;

/* Boots the guest and waits (telling every progress line on `progress`,
 * the guest's own boot steps among them, and later ones too) until its
 * pmcd answers, then adds it to s as "demo-tcg" or "demo-kvm". *stop (may
 * be NULL; a signal handler's flag) cancels. 0, or -1 when it failed (the
 * reason was told). */
int demo_guest_join(struct demo_guest *g, struct session *s,
                    const char *variants, FILE *progress,
                    const volatile sig_atomic_t *stop);

/* Stops boot.sh (it stops qemu) and waits for it. Safe when off. */
void demo_guest_stop(struct demo_guest *g);

#endif
