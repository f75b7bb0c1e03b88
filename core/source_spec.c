/* See source_spec.h. Host names are passed to PCP as given once they have
 * its shape (a name or an address, an IPv6 one in brackets, and a port);
 * what PCP would reject confusingly (it prints three lines of its own) is
 * refused here, with a message that says what to type. */
#include "core/source_spec.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/safe_text.h"

static int bad(char *err, size_t errlen, const char *arg, const char *why)
{
    char shown[SAFE_TEXT_ECHO_MAX * 4 + 4];
    snprintf(err, errlen,
             "guest '%s': %s; give HOST[:PORT] or NAME=HOST[:PORT][,pid=N]",
             safe_text_copy(shown, sizeof(shown), arg, SAFE_TEXT_ECHO_MAX),
             why);
    return -1;
}

/* A host name or IPv4 address: letters, digits, '.', '-', '_'. */
static bool is_name(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr(".-_", s[i]))
            return false;
    return len > 0;
}

/* An IPv6 address as inet_pton reads it, with an optional %zone. */
static bool is_ipv6(const char *s, size_t len)
{
    char addr[64];
    const char *zone = memchr(s, '%', len);
    size_t n = zone ? (size_t)(zone - s) : len;
    struct in6_addr a;
    if (n == 0 || n >= sizeof(addr) ||
        (zone && !is_name(zone + 1, len - n - 1)))
        return false;
    memcpy(addr, s, n);
    addr[n] = '\0';
    return inet_pton(AF_INET6, addr, &a) == 1;
}

static int parse_spec(const char *arg, struct source_spec *out, char *err,
                      size_t errlen);

/* ",pid=N" at the end of arg: the guest's VM process on this host. */
int source_spec_parse(const char *arg, struct source_spec *out, char *err,
                      size_t errlen)
{
    const char *opt = strstr(arg, ",pid=");
    if (!opt)
        opt = strstr(arg, ",vm="); /* refused below, by name */
    if (!opt) {
        if (parse_spec(arg, out, err, errlen) < 0)
            return -1;
        out->pid = 0;
        return 0;
    }
    char head[256];
    if ((size_t)(opt - arg) >= sizeof(head))
        return bad(err, errlen, arg, "the host is too long");
    if (strncmp(opt, ",vm=", 4) == 0)
        return bad(err, errlen, arg,
                   "vm=NAME is not read yet: give ,pid=N, the process id of "
                   "its VM (pgrep -a qemu)");
    char *end;
    long pid = strtol(opt + 5, &end, 10);
    if (!isdigit((unsigned char)opt[5]) || *end != '\0' || pid < 1 ||
        pid > 4194304)
        return bad(err, errlen, arg,
                   "pid= takes the process id of the guest's VM on this host");
    snprintf(head, sizeof(head), "%.*s", (int)(opt - arg), arg);
    if (parse_spec(head, out, err, errlen) < 0)
        return -1;
    out->pid = (int)pid;
    return 0;
}

static int parse_spec(const char *arg, struct source_spec *out, char *err,
                      size_t errlen)
{
    const char *eq = strchr(arg, '=');
    const char *target = eq ? eq + 1 : arg;
    size_t namelen = eq ? (size_t)(eq - arg) : strlen(arg);
    if (eq && namelen == 0)
        return bad(err, errlen, arg, "the name before '=' is empty");
    if (eq && namelen >= sizeof(out->name))
        return bad(err, errlen, arg, "the name is too long");
    if (namelen >= sizeof(out->name)) /* an unlabelled long host name */
        namelen = sizeof(out->name) - 1;
    if (*target == '\0' || *target == ':')
        return bad(err, errlen, arg, "the host is empty");
    if (strlen(target) >= sizeof(out->target))
        return bad(err, errlen, arg, "the host is too long");
    for (const char *p = arg; *p; p++)
        if (isspace((unsigned char)*p))
            return bad(err, errlen, arg, "it contains a space");
    if (!safe_text_ok(arg))
        return bad(err, errlen, arg, "it holds a control character");
    const char *host = target, *colon;
    size_t hostlen;
    if (*target == '[') { /* [IPv6]:PORT, as PCP writes it */
        const char *close = strchr(target, ']');
        if (!close || !is_ipv6(target + 1, (size_t)(close - target - 1)))
            return bad(err, errlen, arg,
                       "[...] holds no IPv6 address, e.g. [::1]");
        colon = close[1] == ':' ? close + 1 : NULL;
        if (close[1] && !colon)
            return bad(err, errlen, arg, "only :PORT may follow ']'");
        host = target + 1;
        hostlen = (size_t)(close - host);
    } else {
        colon = strchr(target, ':');
        hostlen = colon ? (size_t)(colon - target) : strlen(target);
        if (colon && strchr(colon + 1, ':'))
            return bad(err, errlen, arg,
                       "more than one ':'; an IPv6 address goes in brackets, "
                       "[::1]:44321");
        if (!is_name(host, hostlen))
            return bad(err, errlen, arg,
                       "the host is not a name or an address (letters, "
                       "digits, '.', '-', '_')");
    }
    if (colon) {
        char *end;
        long port = strtol(colon + 1, &end, 10);
        if (!isdigit((unsigned char)colon[1]) || *end != '\0' || port < 1 ||
            port > 65535)
            return bad(err, errlen, arg, "the port is not 1 to 65535");
    }
    snprintf(out->name, sizeof(out->name), "%.*s", (int)namelen, arg);
    snprintf(out->target, sizeof(out->target), "%s", target);
    return 0;
}
