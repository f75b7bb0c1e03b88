/* See pcp_container.h. */
#include "collectors/pcp_container.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>

int pcp_container_target(const char *host, const char *name, char *out,
                         size_t n, char *err, size_t errlen)
{
    int w = snprintf(out, n, "%s?container=%s", host, name);
    if (w < 0 || (size_t)w >= n) {
        snprintf(err, errlen, "--container %.60s@%.60s: too long for a column",
                 name, host);
        return -1;
    }
    return 0;
}

/* The names pmdaroot lists (containers.name's values), comma-separated,
 * into known; whether `name` is one of them (or an instance's name). */
static int known_names(const char *name, char *known, size_t n, char *err,
                       size_t errlen)
{
    const char *metric = "containers.name";
    pmID pmid;
    pmResult *r = NULL;
    char msg[PM_MAXERRMSGLEN];
    int sts = pmLookupName(1, &metric, &pmid);
    if (sts >= 0)
        sts = pmFetch(1, &pmid, &r);
    if (sts < 0) {
        snprintf(err, errlen, "containers.name: %s (is pmdaroot running?)",
                 pmErrStr_r(sts, msg, sizeof(msg)));
        return -1;
    }
    int found = 0;
    size_t len = 0;
    known[0] = '\0';
    pmValueSet *vs = r->numpmid == 1 ? r->vset[0] : NULL;
    for (int i = 0; vs && i < vs->numval; i++) {
        pmAtomValue v;
        if (pmExtractValue(vs->valfmt, &vs->vlist[i], PM_TYPE_STRING, &v,
                           PM_TYPE_STRING) < 0)
            continue;
        if (strcmp(v.cp, name) == 0)
            found = 1;
        if (len + strlen(v.cp) + 3 < n)
            len += (size_t)snprintf(known + len, n - len, "%s%s",
                                    len ? ", " : "", v.cp);
        free(v.cp);
    }
    pmFreeResult(r);
    return found;
}

int pcp_container_check(const char *host, const char *name, char *err,
                        size_t errlen)
{
    char msg[PM_MAXERRMSGLEN], known[256], why[256];
    int ctx = pmNewContext(PM_CONTEXT_HOST, host);
    if (ctx < 0) {
        snprintf(err, errlen, "--container %s: pmcd at %s: %s", name, host,
                 pmErrStr_r(ctx, msg, sizeof(msg)));
        return -1;
    }
    int found = known_names(name, known, sizeof(known), why, sizeof(why));
    pmDestroyContext(ctx);
    if (found < 0) {
        snprintf(err, errlen, "--container %s: pmcd at %s: %s", name, host,
                 why);
        return -1;
    }
    if (!found) {
        snprintf(err, errlen,
                 "--container %s: the pmcd at %s knows no such container "
                 "(it knows: %s); start it, or give a name its runtime "
                 "lists (docker ps, podman ps, lxc-ls)",
                 name, host,
                 known[0] ? known : "none: no container runtime it can see");
        return -1;
    }
    return 0;
}
