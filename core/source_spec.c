/* See source_spec.h. Host names are passed to PCP as given; only what
 * PCP would reject confusingly (empty parts, a bad port, spaces) is
 * refused here, with a message that says what to type. */
#include "core/source_spec.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(char *err, size_t errlen, const char *arg, const char *why)
{
    snprintf(err, errlen,
             "guest '%s': %s; give HOST[:PORT] or NAME=HOST[:PORT]", arg, why);
    return -1;
}

int source_spec_parse(const char *arg, struct source_spec *out, char *err,
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
    const char *colon = strrchr(target, ':');
    if (colon && !strchr(target, ']') && colon != strchr(target, ':'))
        colon = NULL; /* a bare IPv6 address: no port */
    if (colon) {
        char *end;
        long port = strtol(colon + 1, &end, 10);
        if (colon[1] == '\0' || *end != '\0' || port < 1 || port > 65535)
            return bad(err, errlen, arg, "the port is not 1 to 65535");
    }
    snprintf(out->name, sizeof(out->name), "%.*s", (int)namelen, arg);
    snprintf(out->target, sizeof(out->target), "%s", target);
    return 0;
}
