/* The store side: only the control metrics take values; each value is
 * checked for its shape (one value, no instance, the right type) and then
 * for its meaning (control.c). A refusal is PM_ERR_BADSTORE (or
 * PM_ERR_PERMISSION for read-only metrics), a log line naming why, and the
 * same line in parallax.control.error for the client to read. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pmda/agent.h"
#include "pmda/metrics.h"

__attribute__((format(printf, 4, 5))) static int
refuse(struct agent *a, int sts, int id, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(a->error, sizeof a->error, "%s: %s", metric_name(id), why);
    pmNotifyErr(LOG_WARNING, "store refused: %s", a->error);
    return sts;
}

/* The string in a store's value, checked (control_text). 0 or -1. */
static int text_of(const pmValueSet *vs, char *buf, char *err, size_t errlen)
{
    const pmValueBlock *vb = vs->vlist[0].value.pval;
    if (vs->valfmt == PM_VAL_INSITU || !vb || vb->vtype != PM_TYPE_STRING ||
        vb->vlen < PM_VAL_HDR_SIZE) {
        snprintf(err, errlen, "expected a string value");
        return -1;
    }
    return control_text(vb->vbuf, vb->vlen - PM_VAL_HDR_SIZE, buf, err, errlen);
}

static int store_start(struct agent *a, const char *text)
{
    char err[512];
    struct start_req req;
    if (control_parse_start(text, &req, err, sizeof err) < 0 ||
        runs_start(a->runs, &req, err, sizeof err) < 0)
        return refuse(a, PM_ERR_BADSTORE, M_CTL_START, "%s", err);
    snprintf(a->last_start, sizeof a->last_start, "%s", text);
    pmNotifyErr(LOG_INFO, "started: %s", text);
    return 0;
}

static int store_stop(struct agent *a, const char *text)
{
    char err[512];
    const struct workload *w = control_parse_name(text, err, sizeof err);
    if (!w)
        return refuse(a, PM_ERR_BADSTORE, M_CTL_STOP, "%s", err);
    snprintf(a->last_stop, sizeof a->last_stop, "%s", w->name);
    if (runs_stop(a->runs, w))
        pmNotifyErr(LOG_INFO, "stopping %s", w->name);
    return 0; /* stopping what has already ended is not an error */
}

/* A renewal: the names of leased runs a client still follows, and maybe
 * the lease they get from now on. Every name must be in the catalogue;
 * one that is not running (it has just ended) or has no lease is passed
 * over. Not logged: one comes every few seconds from each client. */
static int store_renew(struct agent *a, const char *text)
{
    char err[512];
    const struct workload *w[CONTROL_MAX_NAMES];
    double lease;
    int n = control_parse_renew(text, &lease, w, CONTROL_MAX_NAMES, err,
                                sizeof err);
    if (n < 0)
        return refuse(a, PM_ERR_BADSTORE, M_CTL_RENEW, "%s", err);
    for (int i = 0; i < n; i++)
        runs_renew(a->runs, w[i], lease);
    snprintf(a->last_renew, sizeof a->last_renew, "%s", text);
    return 0;
}

/* The integer-valued controls: store 1 to act. */
static int store_action(struct agent *a, int id, const pmValueSet *vs)
{
    if (vs->valfmt != PM_VAL_INSITU || vs->vlist[0].value.lval != 1)
        return refuse(a, PM_ERR_BADSTORE, id, "store the value 1");
    if (id == M_CTL_STOP_ALL) {
        a->stop_alls++;
        int n = runs_stop_all(a->runs);
        pmNotifyErr(LOG_INFO, "stopping all runs (%d live)", n);
    } else {
        a->probes_asked++;
        agent_probe_now(a);
    }
    return 0;
}

static int store_one(struct agent *a, const pmValueSet *vs)
{
    int id = metric_by_pmid(vs->pmid);
    if (id < 0)
        return PM_ERR_PMID;
    if (pmID_cluster(vs->pmid) != AGENT_CL_CONTROL || id == M_CTL_ERROR)
        return refuse(a, PM_ERR_PERMISSION, id, "read-only metric");
    if (vs->numval != 1 || (unsigned int)vs->vlist[0].inst != PM_IN_NULL)
        return refuse(a, PM_ERR_BADSTORE, id,
                      "expected one value and no instance");
    if (id == M_CTL_STOP_ALL || id == M_CTL_PROBE)
        return store_action(a, id, vs);
    char text[CONTROL_MAX_TEXT + 1], err[256];
    if (text_of(vs, text, err, sizeof err) < 0)
        return refuse(a, PM_ERR_BADSTORE, id, "%s", err);
    if (id == M_CTL_RENEW)
        return store_renew(a, text);
    return id == M_CTL_START ? store_start(a, text) : store_stop(a, text);
}

/* Exported by libpcp but declared only in its internal headers. */
int __pmUnpinPDUBuf(void *handle);

/* libpcp_pmda never unpins the PDU buffer that holds a store's decoded
 * value sets: PCP 6.0.0 to 7.2.1 (mainloop.c, PDU_RESULT) free the previous
 * result with numpmid set to 0 first, or reuse it for a fetch's, so each
 * store kept ~100 bytes for good (issue 16: 1,550 starts, +2.8 MB). Done
 * here, once the values are read; not for versions never checked, where
 * libpcp might unpin it itself. */
static void release_store_values(pmResult *result)
{
    int v = pmGetVersion();
    if (result->numpmid > 0 && v >= PM_VERSION(6, 0, 0) &&
        v < PM_VERSION(7, 3, 0))
        __pmUnpinPDUBuf(result->vset[0]);
}

int agent_store(pmResult *result, pmdaExt *pmda)
{
    (void)pmda;
    struct agent *a = agent_bound();
    int sts = 0;
    runs_poll(a->runs); /* a run that has just ended frees its slot */
    for (int i = 0; i < result->numpmid && sts >= 0; i++)
        sts = store_one(a, result->vset[i]);
    if (sts >= 0)
        a->error[0] = '\0';
    release_store_values(result);
    return sts;
}
