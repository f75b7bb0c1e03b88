/* See record_values.h. The arena holds the pmResult, its value sets and
 * their value blocks, laid out as each value arrives; it is reset, not
 * freed, between records. */
#include "archive/record_values.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/pmi_lib.h"

#define ALIGN 8

int record_values_init(struct record_values *v, int maxvsets, size_t bytes)
{
    memset(v, 0, sizeof(*v));
    v->text = true;
    v->maxvsets = maxvsets;
    v->cap = bytes;
    v->arena = malloc(bytes); /* pages are touched only as records use them */
    return v->arena ? 0 : -1;
}

void record_values_free(struct record_values *v)
{
    free(v->arena);
    v->arena = NULL;
}

static void *take(struct record_values *v, size_t n)
{
    size_t at = (v->used + ALIGN - 1) / ALIGN * ALIGN;
    if (at + n > v->cap)
        return NULL;
    v->used = at + n;
    return v->arena + at;
}

void record_values_begin(struct record_values *v)
{
    v->used = 0;
    v->res = NULL;
    if (v->text)
        return;
    v->res =
        take(v, sizeof(pmResult) + sizeof(pmValueSet *) * (size_t)v->maxvsets);
    if (v->res)
        v->res->numpmid = 0;
}

/* The text form pmiPutValue takes. */
static void as_text(int type, const pmAtomValue *x, char *buf, size_t n)
{
    switch (type) {
    case PM_TYPE_U32:
        snprintf(buf, n, "%u", x->ul);
        break;
    case PM_TYPE_U64:
        snprintf(buf, n, "%llu", (unsigned long long)x->ull);
        break;
    default:
        snprintf(buf, n, "%.17g", x->d);
        break;
    }
}

/* The value set of id: the one being filled, or a new one. */
static pmValueSet *vset_for(struct record_values *v, pmID id, int cap, int type)
{
    pmResult *r = v->res;
    if (r->numpmid > 0 && r->vset[r->numpmid - 1]->pmid == id)
        return r->vset[r->numpmid - 1];
    if (r->numpmid == v->maxvsets)
        return NULL;
    pmValueSet *vs =
        take(v, sizeof(pmValueSet) + sizeof(pmValue) * (size_t)(cap - 1));
    if (!vs)
        return NULL;
    vs->pmid = id;
    vs->numval = 0;
    vs->valfmt = type == PM_TYPE_U32 ? PM_VAL_INSITU : PM_VAL_DPTR;
    r->vset[r->numpmid++] = vs;
    return vs;
}

int record_values_put(struct record_values *v, pmID id, const char *name,
                      int inst, const char *iname, int cap, int type,
                      const pmAtomValue *x)
{
    if (v->text) {
        char buf[40];
        if (type != PM_TYPE_STRING)
            as_text(type, x, buf, sizeof(buf));
        return pmi.put_value(name, iname, type == PM_TYPE_STRING ? x->cp : buf);
    }
    if (!v->res)
        return 0;
    size_t used = v->used;
    pmValueSet *vs = vset_for(v, id, cap, type);
    if (!vs || vs->numval >= cap)
        return 0;
    pmValue *pv = &vs->vlist[vs->numval];
    pv->inst = inst;
    if (type == PM_TYPE_U32) {
        pv->value.lval = (int32_t)x->ul;
        vs->numval++;
        return 0;
    }
    size_t len = type == PM_TYPE_STRING ? strlen(x->cp) + 1 : 8;
    pmValueBlock *b = take(v, PM_VAL_HDR_SIZE + len);
    if (!b) {
        v->used = used; /* no room: this value is left out */
        if (vs->numval == 0)
            v->res->numpmid--;
        return 0;
    }
    b->vtype = (unsigned)type;
    b->vlen = (unsigned)(PM_VAL_HDR_SIZE + len);
    memcpy(b->vbuf,
           type == PM_TYPE_STRING ? (const void *)x->cp
           : type == PM_TYPE_U64  ? (const void *)&x->ull
                                  : (const void *)&x->d,
           len);
    pv->value.pval = b;
    vs->numval++;
    return 0;
}

int record_values_write(struct record_values *v, struct timeval t)
{
    if (v->text) {
        v->text = false;
        return pmi.write((int)t.tv_sec, (int)t.tv_usec);
    }
    if (!v->res)
        return PM_ERR_TOOBIG;
    v->res->timestamp = t;
    return pmi.put_result(v->res);
}
