/* The demo guests: parallax's own micro-VM (guest/) under qemu, or under
 * User-Mode Linux, booted by guest/boot.sh in a child process. The
 * launcher reads boot.sh's progress and its ready line ("PORT=... PID=...
 * ACCEL=..."), and stops it — and so qemu — on every way out (boot.sh
 * dies with parallax through PR_SET_PDEATHSIG and takes qemu with it).
 * demo_guests.c boots several side by side. */
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
    int vm_pid;               /* qemu's (or linux.uml's) pid, once ready */
    char accel[8];            /* "kvm", "tcg" or "uml" */
    char variants[128];       /* as given to --demo-guest */
    char name[64];            /* its column, "demo-uml"; "" not known yet */
    char progress[256];       /* the newest progress line */
    FILE *echo;               /* NULL, or where every progress line goes */
    char out[256], err[1024]; /* partial lines */
    size_t outlen, errlen;
};

/* Checks a --demo-guest variant list ("uml", "kernel=6.12-rt",
 * "icount=slow,mem=256M,clock=rtc"; "" for the defaults; mem at least 96M;
 * icount with 1 vCPU only; uml without icount, cpus=2, kernel= or
 * clock=rtc) and turns it into boot.sh options in argv (room for max
 * entries, NULL-ended; strings point into buf). 0, or -1 with a one-line
 * message in err. */
int demo_guest_args(const char *variants, char **argv, int max, char *buf,
                    size_t buflen, char *err, size_t errlen);

/* The variants as --help and errors list them, into buf. */
void demo_guest_variants_help(char *buf, size_t n);

/* The kernel a valid variant list asks for other than the image's own
 * ("6.12", "6.12-rt"), or NULL. */
const char *demo_guest_kernel(const char *variants);

/* The column name of a guest of these variants: "demo-" and what sets it
 * apart ("demo-uml", "demo-6.12-rt", "demo-icount-slow-2cpu"), or, for
 * the defaults, its accelerator ("demo-tcg"); "" while that is not known
 * (accel NULL). */
void demo_guest_name(const char *variants, const char *accel, char *buf,
                     size_t n);

/* Fetches and builds what the variants need before the guest can boot
 * (another kernel: guest/boot.sh --prepare, through apt and cached), now,
 * showing its steps on fd when that is a terminal (each over the last,
 * gone at the end). 0, or -1 with the one line that says why (naming the
 * package) in err. */
int demo_guest_prepare(const char *variants, int fd, char *err, size_t errlen);

/* Starts guest/boot.sh with the options of `variants`, for the image in
 * the guest/ directory of parallax's own build directory (where this
 * program's binary lives; an installed parallax has neither). 0, or -1
 * with a one-line message in err. */
int demo_guest_start(struct demo_guest *g, const char *variants, char *err,
                     size_t errlen);

/* Reads what boot.sh said; true when the state or progress changed. Call
 * when its descriptors are readable (or on any tick: never blocks). */
bool demo_guest_poll(struct demo_guest *g);

/* Asks boot.sh to stop (it stops qemu); demo_guest_stop waits for it. */
void demo_guest_signal_stop(struct demo_guest *g);

/* Stops boot.sh (it stops qemu) and waits for it. Safe when off. */
void demo_guest_stop(struct demo_guest *g);

#endif
