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
             "guest '%s': %s; give HOST[:PORT] or "
             "NAME=HOST[:PORT][,pid=N|,vm=VMNAME][,vms]",
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

bool source_spec_vm_name_ok(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr(".-_+:@", name[i]))
            return false;
    return n > 0 && n < sizeof(((struct source_spec *)0)->vm);
}

/* One option after the host, "pid=N", "vm=NAME" or "vms" (n bytes at opt), into
 * out. 0, or -1 with err. */
static int parse_option(const char *arg, const char *opt, size_t n,
                        struct source_spec *out, char *err, size_t errlen)
{
    char v[80];
    if (n >= 4 && strncmp(opt, "pid=", 4) == 0) {
        snprintf(v, sizeof(v), "%.*s", (int)(n - 4 < 20 ? n - 4 : 20), opt + 4);
        char *end;
        long pid = strtol(v, &end, 10);
        if (out->pid || !isdigit((unsigned char)v[0]) || *end != '\0' ||
            n - 4 > 20 || pid < 1 || pid > 4194304)
            return bad(err, errlen, arg,
                       out->pid ? "pid= is given twice"
                                : "pid= takes the process id of the guest's "
                                  "VM on this host");
        out->pid = (int)pid;
        return 0;
    }
    if (n >= 3 && strncmp(opt, "vm=", 3) == 0) {
        if (out->vm[0])
            return bad(err, errlen, arg, "vm= is given twice");
        if (n - 3 >= sizeof(out->vm))
            return bad(err, errlen, arg,
                       "the vm= name is too long (63 at most)");
        snprintf(v, sizeof(v), "%.*s", (int)(n - 3), opt + 3);
        if (!source_spec_vm_name_ok(v))
            return bad(err, errlen, arg,
                       v[0] ? "vm= takes a VM's name: 1 to 63 letters, "
                              "digits, '.', '-', '_', '+', ':', '@'"
                            : "vm= is empty: give the name of the guest's VM "
                              "on this host (its qemu -name)");
        snprintf(out->vm, sizeof(out->vm), "%.63s", v);
        return 0;
    }
    if (n == 3 && strncmp(opt, "vms", 3) == 0) {
        if (out->vms)
            return bad(err, errlen, arg, "vms is given twice");
        out->vms = true;
        return 0;
    }
    return bad(err, errlen, arg,
               "after the host come only ,pid=N or ,vm=VMNAME and ,vms");
}

/* ",pid=N" or ",vm=NAME" at the end of arg: the guest's VM on this host,
 * by its process or by its name, not both; ",vms": that host's VMs. */
int source_spec_parse(const char *arg, struct source_spec *out, char *err,
                      size_t errlen)
{
    const char *opt = strstr(arg, ",pid="), *vm = strstr(arg, ",vm="),
               *vms = strstr(arg, ",vms");
    if (!opt || (vm && vm < opt))
        opt = vm;
    if (!opt || (vms && vms < opt))
        opt = vms;
    out->pid = 0;
    out->vm[0] = '\0';
    out->vms = false;
    if (!opt)
        return parse_spec(arg, out, err, errlen);
    char head[256];
    if ((size_t)(opt - arg) >= sizeof(head))
        return bad(err, errlen, arg, "the host is too long");
    for (const char *p = opt + 1;;) {
        size_t n = strcspn(p, ",");
        if (parse_option(arg, p, n, out, err, errlen) < 0)
            return -1;
        if (!p[n])
            break;
        p += n + 1;
    }
    if (out->pid && out->vm[0])
        return bad(err, errlen, arg,
                   "pid= and vm= both name its VM: give one of them");
    snprintf(head, sizeof(head), "%.*s", (int)(opt - arg), arg);
    return parse_spec(head, out, err, errlen); /* name and target only */
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
