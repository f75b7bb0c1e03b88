/* Integer loops in the spirit of Dhrystone 2.1 (Weicker, 1988), written
 * afresh for parallax: each loop does Dhrystone's statement mix and
 * control flow -- assignments, a record copied through pointers,
 * 30-character string copies and a compare, enumeration switches, 1- and
 * 2-dimensional array indexing, small procedure and function calls.
 * Dhrystone keeps half of its procedures in a second source file, which
 * the compiler cannot inline; the DH_UNIT2 functions model that, so the
 * loop cannot be folded away. One operation is one loop, reported in
 * loops per second like UnixBench's dhry2reg. */
#include "workloads/workload.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
#define DH_UNIT2 __attribute__((noipa))
#else
#define DH_UNIT2 __attribute__((noinline))
#endif

enum dh_kind { K_1, K_2, K_3, K_4, K_5 };

/* A 30-character text plus its terminator, as Dhrystone's Str_30. */
typedef char dh_text[31];

struct dh_rec {
    struct dh_rec *next;
    enum dh_kind discr;
    enum dh_kind kind;
    int value;
    dh_text text;
};

/* Dhrystone's globals and main's long-lived locals. */
struct dh {
    struct dh_rec rec[2]; /* the global record and the one it points to */
    struct dh_rec *glob;
    int int_glob;
    bool flag;
    char ch1, ch2;
    int arr1[50];
    int arr2[50][50];
    dh_text s1, s2;
    int run;
};

/* ---- the second unit: what the loop calls is never inlined into it;
 * helpers used only inside this unit may be, as a compiler would ---- */

static inline enum dh_kind dh_letter_cmp(struct dh *g, char a, char b)
{
    if (a != b)
        return K_1;
    g->ch1 = a;
    return K_2;
}

DH_UNIT2 static enum dh_kind dh_letter(struct dh *g, char a, char b)
{
    return dh_letter_cmp(g, a, b);
}

static inline bool dh_is_third(enum dh_kind k)
{
    return k == K_3;
}

DH_UNIT2 static void dh_pick(struct dh *g, enum dh_kind k, enum dh_kind *out)
{
    *out = k;
    if (!dh_is_third(k))
        *out = K_4;
    switch (k) {
    case K_1:
        *out = K_1;
        break;
    case K_2:
        *out = g->int_glob > 100 ? K_1 : K_4;
        break;
    case K_3:
        *out = K_2;
        break;
    case K_4:
        break;
    case K_5:
        *out = K_3;
        break;
    }
}

DH_UNIT2 static void dh_add2(int a, int b, int *out)
{
    int loc = a + 2;
    *out = b + loc;
}

DH_UNIT2 static void dh_arrays(struct dh *g, int *a1, int (*a2)[50], int a,
                               int b)
{
    int loc = a + 5;
    a1[loc] = b;
    a1[loc + 1] = a1[loc];
    a1[loc + 30] = loc;
    for (int i = loc; i <= loc + 1; i++)
        a2[loc][i] = loc;
    a2[loc][loc - 1] += 1;
    a2[loc + 20][loc] = a1[loc];
    g->int_glob = 5;
}

DH_UNIT2 static bool dh_texts(struct dh *g, const char *s1, const char *s2)
{
    int loc = 2;
    char ch = 'A';
    while (loc <= 2)
        if (dh_letter_cmp(g, s1[loc], s2[loc + 1]) == K_1) {
            ch = 'A';
            loc += 1;
        }
    if (ch >= 'W' && ch < 'Z')
        loc = 7;
    if (ch == 'R')
        return true;
    if (strcmp(s1, s2) > 0) {
        g->int_glob = loc + 7;
        return true;
    }
    return false;
}

/* ---- the first unit: the loop and the procedures it may inline ---- */

static void dh_follow(struct dh *g, struct dh_rec **pp)
{
    if (g->glob)
        *pp = g->glob->next;
    dh_add2(10, g->int_glob, &g->glob->value);
}

static void dh_records(struct dh *g, struct dh_rec *p)
{
    struct dh_rec *next = p->next;
    *p->next = *g->glob;
    p->value = 5;
    next->value = p->value;
    next->next = p->next;
    dh_follow(g, &next->next);
    if (next->discr == K_1) {
        next->value = 6;
        dh_pick(g, p->kind, &next->kind);
        next->next = g->glob->next;
        dh_add2(next->value, 10, &next->value);
    } else {
        *p = *p->next;
    }
}

static void dh_count_down(struct dh *g, int *ip)
{
    int loc = *ip + 10;
    enum dh_kind k = K_1;
    do
        if (g->ch1 == 'A') {
            loc -= 1;
            *ip = loc - g->int_glob;
            k = K_1;
        }
    while (k != K_1);
}

static void dh_loop(struct dh *g)
{
    int run = ++g->run;
    g->ch1 = 'A';
    g->flag = false;
    g->flag = (g->ch1 == 'A') | g->flag;
    g->ch2 = 'B';

    int i1 = 2, i2 = 3, i3 = 0;
    strcpy(g->s2, "PARALLAX INTEGER LOOPS, TEXT 2");
    enum dh_kind k = K_2;
    g->flag = !dh_texts(g, g->s1, g->s2);
    while (i1 < i2) {
        i3 = 5 * i1 - i2;
        dh_add2(i1, i2, &i3);
        i1 += 1;
    }
    dh_arrays(g, g->arr1, g->arr2, i1, i3);
    dh_records(g, g->glob);
    for (char c = 'A'; c <= g->ch2; c++)
        if (k == dh_letter(g, c, 'C')) {
            dh_pick(g, K_1, &k);
            strcpy(g->s2, "PARALLAX INTEGER LOOPS, TEXT 3");
            i2 = run;
            g->int_glob = run;
        }
    i2 = i2 * i1;
    i1 = i2 / i3;
    i2 = 7 * (i2 - i3) - i1;
    dh_count_down(g, &i1);
}

static int dhry_setup(struct wl_ctx *ctx)
{
    struct dh *g = calloc(1, sizeof(*g));
    if (!g)
        return -1;
    g->glob = &g->rec[0];
    g->glob->next = &g->rec[1];
    g->glob->discr = K_1;
    g->glob->kind = K_3;
    g->glob->value = 40;
    strcpy(g->glob->text, "PARALLAX INTEGER LOOPS, A TEXT");
    strcpy(g->s1, "PARALLAX INTEGER LOOPS, TEXT 1");
    g->arr2[8][7] = 10;
    ctx->state = g;
    return 0;
}

static volatile int dhry_sink;

static int dhry_step(struct wl_ctx *ctx, uint64_t n)
{
    struct dh *g = ctx->state;
    for (uint64_t i = 0; i < n; i++)
        dh_loop(g);
    dhry_sink = g->arr1[8] + g->int_glob + g->glob->next->value;
    return 0;
}

static void dhry_teardown(struct wl_ctx *ctx)
{
    free(ctx->state);
    ctx->state = NULL;
}

const struct workload wl_dhry = {
    .name = "dhry",
    .desc = "integer loops in the spirit of Dhrystone 2.1 (UnixBench "
            "dhry2reg)",
    .unit = "lps",
    .better = WL_HIGHER_IS_BETTER,
    .setup = dhry_setup,
    .step = dhry_step,
    .teardown = dhry_teardown,
    .figure_kind = WF_OPS_PER_SEC,
    .scale = 1,
};
