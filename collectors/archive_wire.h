/* Between parallax and its archive reader (parallax-archive, a process
 * of its own: collectors/archive_child.c starts it, parallax_archive.c is
 * it): what goes over their socket. parallax asks (open, fetch, store),
 * the reader answers; a closed socket ends the reader. Every answer is
 * taken as untrusted: a reader that libpcp's bugs left running with
 * memory it overwrote could say anything. */
#ifndef PARALLAX_ARCHIVE_WIRE_H
#define PARALLAX_ARCHIVE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "core/sample.h"

#define WIRE_MAGIC    0x50584152u /* "PXAR" */
#define WIRE_VERSION  1
#define WIRE_TEXT_MAX 4096 /* a target, a store's name and value, a reason */

enum wire_op {
    WIRE_OPEN = 1, /* text: the target; answer: rc, the reason */
    WIRE_FETCH,    /* answer: rc, a struct sample */
    WIRE_STORE,    /* text: name, NUL, value; answer: rc, the reason */
};

/* The reader's first words: whose build it is. */
struct wire_hello {
    uint32_t magic, version;
    uint32_t sample_size; /* sizeof(struct sample): the same build's */
};

struct wire_head {
    int32_t code; /* a request's op, an answer's rc */
    uint32_t len; /* the bytes that follow */
};

/* Writes a head and len bytes of body (never raising SIGPIPE). 0, or -1
 * with errno. */
int wire_send(int fd, int32_t code, const void *body, uint32_t len);

/* Reads exactly n bytes by host monotonic time `deadline` (clock_mono;
 * INFINITY: no limit). 0, or -1 with errno: ETIMEDOUT, EPIPE (the other
 * side closed), or the socket's. */
int wire_recv(int fd, void *buf, size_t n, double deadline);

/* Makes a sample from the reader safe to use: every count within its
 * array, every index within what it indexes, every string ended and
 * printable, every bool 0 or 1. */
void wire_sample_sanitize(struct sample *s);

#endif
