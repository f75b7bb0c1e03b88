/* See idmap.h. Linear probing at most half full; keys are SHA-1 prefixes,
 * already uniform, so the low bits index directly. */
#include "fleet/idmap.h"

#include <stdlib.h>
#include <string.h>

static bool grow(struct idmap *m)
{
    int cap = m->cap ? m->cap * 2 : 256;
    uint64_t *key = calloc((size_t)cap, sizeof(*key));
    int *val = malloc(sizeof(*val) * (size_t)cap);
    if (!key || !val) {
        free(key);
        free(val);
        return false;
    }
    for (int i = 0; i < m->cap; i++) {
        if (!m->key[i])
            continue;
        int j = (int)(m->key[i] & (uint64_t)(cap - 1));
        while (key[j])
            j = (j + 1) & (cap - 1);
        key[j] = m->key[i];
        val[j] = m->val[i];
    }
    free(m->key);
    free(m->val);
    m->key = key;
    m->val = val;
    m->cap = cap;
    return true;
}

bool idmap_put(struct idmap *m, uint64_t key, int val)
{
    if (!key)
        return false;
    if ((m->n + 1) * 2 > m->cap && !grow(m))
        return false;
    int j = (int)(key & (uint64_t)(m->cap - 1));
    while (m->key[j] && m->key[j] != key)
        j = (j + 1) & (m->cap - 1);
    if (!m->key[j])
        m->n++;
    m->key[j] = key;
    m->val[j] = val;
    return true;
}

int idmap_get(const struct idmap *m, uint64_t key)
{
    if (!m->cap || !key)
        return -1;
    int j = (int)(key & (uint64_t)(m->cap - 1));
    while (m->key[j]) {
        if (m->key[j] == key)
            return m->val[j];
        j = (j + 1) & (m->cap - 1);
    }
    return -1;
}

void idmap_clear(struct idmap *m)
{
    if (m->cap)
        memset(m->key, 0, sizeof(*m->key) * (size_t)m->cap);
    m->n = 0;
}

void idmap_free(struct idmap *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof(*m));
}
