/* TCP loopback latency, lmbench lat_tcp on 127.0.0.1: a byte goes to a
 * peer process over a TCP connection and comes back. One operation is one
 * round trip; the figure is microseconds per round trip. The listening
 * socket is bound to 127.0.0.1 on a port the kernel picks, and closed as
 * soon as the one connection is made. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "workloads/lat_peer.h"

#define TCP_LAT_MSG 1 /* lat_tcp's default message size */

struct tcp_lat {
    struct lat_place pl;
    int lsock, csock, ssock; /* listener, our end, the peer's end */
    pid_t peer;
};

static void tcp_lat_teardown(struct wl_ctx *ctx)
{
    struct tcp_lat *s = ctx->state;
    if (!s)
        return;
    lat_peer_end(&s->peer);
    lat_close(&s->lsock);
    lat_close(&s->csock);
    lat_close(&s->ssock);
    free(s);
    ctx->state = NULL;
}

static int tcp_fail(const char *what)
{
    fprintf(stderr, "tcp-lat: %s: %s\n", what, strerror(errno));
    return -1;
}

/* A connected pair on 127.0.0.1: our end in csock, the server's in
 * ssock. Like lat_tcp, no socket options: Nagle stays on (a 1-byte
 * ping-pong never has unacknowledged data when it writes). */
static int tcp_connect_pair(struct tcp_lat *s)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    s->lsock = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s->lsock < 0)
        return tcp_fail("socket");
    if (bind(s->lsock, (struct sockaddr *)&a, sizeof a) < 0)
        return tcp_fail("bind 127.0.0.1");
    if (listen(s->lsock, 1) < 0 ||
        getsockname(s->lsock, (struct sockaddr *)&a, &len) < 0)
        return tcp_fail("listen");
    s->csock = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s->csock < 0)
        return tcp_fail("socket");
    if (connect(s->csock, (struct sockaddr *)&a, sizeof a) < 0)
        return tcp_fail("connect 127.0.0.1");
    s->ssock = accept(s->lsock, NULL, NULL);
    if (s->ssock < 0)
        return tcp_fail("accept");
    lat_close(&s->lsock);
    return 0;
}

static int tcp_lat_open(struct wl_ctx *ctx)
{
    struct tcp_lat *s = malloc(sizeof *s);
    if (!s)
        return -1;
    *s = (struct tcp_lat){.lsock = -1, .csock = -1, .ssock = -1};
    ctx->state = s;
    signal(SIGPIPE, SIG_IGN); /* a dead peer is an error, not our death */
    if (lat_place_init(&s->pl, ctx, 0, "tcp-lat") < 0 ||
        tcp_connect_pair(s) < 0)
        return -1;
    s->peer =
        lat_peer_start(&s->pl, s->ssock, s->ssock, TCP_LAT_MSG, &s->csock, 1);
    if (s->peer < 0)
        return tcp_fail("fork");
    lat_close(&s->ssock);
    /* once around, so that the peer is up and placed before timing */
    return lat_roundtrips(s->csock, s->csock, TCP_LAT_MSG, 1, "tcp-lat");
}

static int tcp_lat_setup(struct wl_ctx *ctx)
{
    if (tcp_lat_open(ctx) == 0)
        return 0;
    tcp_lat_teardown(ctx);
    return -1;
}

static int tcp_lat_step(struct wl_ctx *ctx, uint64_t n)
{
    struct tcp_lat *s = ctx->state;
    return lat_roundtrips(s->csock, s->csock, TCP_LAT_MSG, n, "tcp-lat");
}

const struct workload wl_tcp_lat = {
    .name = "tcp-lat",
    .desc = "TCP round trip of 1 byte over 127.0.0.1 between two processes "
            "(lmbench lat_tcp)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params = {LAT_PARAM_PLACEMENT, LAT_PARAM_CPU},
    .setup = tcp_lat_setup,
    .step = tcp_lat_step,
    .teardown = tcp_lat_teardown,
    .figure_kind = WF_TIME_PER_OP,
    .scale = 1e6,
};
