/* See pcp_store.h. */
#include "collectors/pcp_store.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <pcp/pmapi.h>

#include "collectors/pcp_source.h"
#include "core/agent_metrics.h"

/* The text of a number or string for a metric of type `type`. */
static int atom_of(const char *value, int type, pmAtomValue *a)
{
    char *end;
    if (type == PM_TYPE_STRING) {
        a->cp = (char *)value;
        return 0;
    }
    double d = strtod(value, &end);
    if (end == value || *end != '\0')
        return PM_ERR_CONV;
    switch (type) {
    case PM_TYPE_32:
        a->l = (int32_t)d;
        break;
    case PM_TYPE_U32:
        a->ul = (uint32_t)d;
        break;
    case PM_TYPE_64:
        a->ll = (int64_t)d;
        break;
    case PM_TYPE_U64:
        a->ull = (uint64_t)d;
        break;
    case PM_TYPE_FLOAT:
        a->f = (float)d;
        break;
    case PM_TYPE_DOUBLE:
        a->d = d;
        break;
    default:
        return PM_ERR_TYPE;
    }
    return 0;
}

/* Puts one value of `type` into vs->vlist[0] the way pmStore wants it:
 * 32-bit values in place, others in an allocated block (libpcp's own
 * helper for this is not part of its public API). */
static int stuff_value(const pmAtomValue *a, int type, pmValueSet *vs)
{
    const void *src = a;
    size_t len = 8;
    if (type == PM_TYPE_32 || type == PM_TYPE_U32) {
        vs->valfmt = PM_VAL_INSITU;
        vs->vlist[0].value.lval = a->l;
        return 0;
    }
    if (type == PM_TYPE_STRING) {
        src = a->cp;
        len = strlen(a->cp) + 1;
    } else if (type == PM_TYPE_FLOAT) {
        len = sizeof(float);
    }
    pmValueBlock *vb = calloc(1, PM_VAL_HDR_SIZE + len + 8);
    if (!vb)
        return -ENOMEM;
    vb->vtype = (unsigned)type;
    vb->vlen = (unsigned)(PM_VAL_HDR_SIZE + len);
    memcpy(vb->vbuf, src, len);
    vs->valfmt = PM_VAL_DPTR;
    vs->vlist[0].value.pval = vb;
    return 0;
}

/* This host's address on its route to `target` ("host[:port]", an IPv6
 * host in brackets): the source address the kernel picks for a UDP socket
 * connected there (nothing is sent), which is what the guest's pmcd sees
 * unless a NAT lies between. "THIS-HOST" when it cannot be found. */
static void local_address_for(const char *target, char *addr, size_t n)
{
    char h[128];
    snprintf(addr, n, "THIS-HOST");
    pcp_target_host(target, h, sizeof(h));
    struct addrinfo hints = {.ai_socktype = SOCK_DGRAM}, *ai = NULL;
    if (getaddrinfo(h, "44321", &hints, &ai) != 0 || !ai)
        return;
    int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct sockaddr_storage me;
    socklen_t len = sizeof(me);
    if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
        getsockname(fd, (struct sockaddr *)&me, &len) == 0) {
        const void *a =
            me.ss_family == AF_INET6
                ? (const void *)&((struct sockaddr_in6 *)&me)->sin6_addr
                : (const void *)&((struct sockaddr_in *)&me)->sin_addr;
        if (!inet_ntop(me.ss_family, a, addr, (socklen_t)n))
            snprintf(addr, n, "THIS-HOST");
    }
    if (fd >= 0)
        close(fd);
    freeaddrinfo(ai);
}

/* Why a store was refused, and what fixes it. */
static void store_error(const char *target, const char *name, int sts,
                        char *msg, size_t n)
{
    char why[PM_MAXERRMSGLEN], addr[64];
    pmErrStr_r(sts, why, sizeof(why));
    if (sts == PM_ERR_PERMISSION || sts == -EACCES || sts == -EPERM) {
        local_address_for(target, addr, sizeof(addr));
        snprintf(msg, n,
                 "pmcd refused the store; on the guest add 'allow \"%s\" : "
                 "store;' to [access] in pmcd.conf (this host's address on "
                 "its route to the guest; behind a NAT, the NAT's) and "
                 "restart pmcd (%s)",
                 addr, why);
        return;
    }
    if (sts == PM_ERR_BADSTORE) { /* pmdaparallax says why */
        pmID id;
        pmResult *rp = NULL;
        const char *err_name = AGENT_NAME(CTL_ERROR);
        pmAtomValue a;
        if (pmLookupName(1, &err_name, &id) == 1 && pmFetch(1, &id, &rp) >= 0 &&
            rp->vset[0]->numval > 0 &&
            pmExtractValue(rp->vset[0]->valfmt, &rp->vset[0]->vlist[0],
                           PM_TYPE_STRING, &a, PM_TYPE_STRING) >= 0) {
            snprintf(msg, n, "%s refused: %s", name, a.cp);
            free(a.cp);
            pmFreeResult(rp);
            return;
        }
        if (rp)
            pmFreeResult(rp);
    }
    snprintf(msg, n, "store into %s failed: %s", name, why);
}

int pcp_store_value(const char *target, const char *name, const char *value,
                    char *msg, size_t msglen)
{
    pmID id;
    pmDesc desc;
    pmAtomValue atom;
    int sts = pmLookupName(1, &name, &id);
    if (sts == 1)
        sts = pmLookupDesc(id, &desc);
    if (sts >= 0)
        sts = atom_of(value, desc.type, &atom);
    if (sts < 0) {
        char why[PM_MAXERRMSGLEN];
        snprintf(msg, msglen, "cannot store into %s: %s", name,
                 pmErrStr_r(sts, why, sizeof(why)));
        return sts;
    }
    pmValueSet vs = {.pmid = id, .numval = 1};
    vs.vlist[0].inst = (int)PM_IN_NULL;
    sts = stuff_value(&atom, desc.type, &vs);
    if (sts >= 0) {
        pmResult res = {.numpmid = 1};
        res.vset[0] = &vs;
        sts = pmStore(&res);
        if (vs.valfmt == PM_VAL_DPTR)
            free(vs.vlist[0].value.pval);
    }
    if (sts < 0)
        store_error(target, name, sts, msg, msglen);
    return sts < 0 ? sts : 0;
}
