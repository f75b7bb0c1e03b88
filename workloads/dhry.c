/* Integer loops in the spirit of Dhrystone 2.1 (Weicker, 1988), written
 * afresh for parallax after its structure: each loop does Dhrystone's
 * statement mix and control flow -- assignments, a record copied through
 * pointers, 30-character string copies and a compare, enumeration
 * switches, 1- and 2-dimensional array indexing, small procedure and
 * function calls. As there, the loop is the main program's, over its
 * locals (the two strings among them, on the stack), and the rest of the
 * state is the program's globals (here one struct) and its two records,
 * each allocated on its own. Where data sits matters here: strings or a
 * record straddling cache lines cost up to 5%. One operation is one loop,
 * reported in loops per second like UnixBench's dhry2reg.
 *
 * Dhrystone keeps half of its procedures in a second source file, which
 * the compiler cannot inline; the DH_UNIT2 functions model that, so the
 * loop cannot be folded away. What Dhrystone computes and never uses (the
 * loop's last statements on i1 and i2, its Int_1_Loc and Int_2_Loc, and
 * dh_count_down's result, its Proc_2's) is dead code in the original as
 * here: an optimising compiler removes it from UnixBench's build as from
 * this one. */
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

/* Dhrystone's globals. */
struct dh {
    /* the global record and the one it points to, each allocated on its
     * own as Dhrystone does: packed in one array, the second would sit at
     * an 8-byte boundary and each record copy would store 16 bytes across
     * a cache line, which made the loop 3-5% slower than Dhrystone's */
    struct dh_rec *glob, *next_glob;
    int int_glob;
    bool flag;
    char ch1, ch2;
    int arr1[50];
    int arr2[50][50];
    uint64_t run; /* loops done, as Run_Index */
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

static void dhry_teardown(struct wl_ctx *ctx)
{
    struct dh *g = ctx->state;
    if (g) {
        free(g->glob);
        free(g->next_glob);
    }
    free(g);
    ctx->state = NULL;
}

static int dhry_setup(struct wl_ctx *ctx)
{
    struct dh *g = calloc(1, sizeof(*g));
    if (!g)
        return -1;
    g->next_glob = calloc(1, sizeof(struct dh_rec));
    g->glob = calloc(1, sizeof(struct dh_rec));
    ctx->state = g;
    if (!g->next_glob || !g->glob) {
        dhry_teardown(ctx);
        return -1;
    }
    g->glob->next = g->next_glob;
    g->glob->discr = K_1;
    g->glob->kind = K_3;
    g->glob->value = 40;
    strcpy(g->glob->text, "PARALLAX INTEGER LOOPS, A TEXT");
    g->arr2[8][7] = 10;
    return 0;
}

static volatile int dhry_sink;

/* n loops of the main program's. */
static int dhry_step(struct wl_ctx *ctx, uint64_t n)
{
    struct dh *g = ctx->state;
    dh_text s1, s2;
    strcpy(s1, "PARALLAX INTEGER LOOPS, TEXT 1");
    for (uint64_t left = n; left > 0; left--) {
        int run = (int)++g->run;
        g->ch1 = 'A';
        g->flag = false;
        g->flag = (g->ch1 == 'A') | g->flag;
        g->ch2 = 'B';

        int i1 = 2, i2 = 3, i3 = 0;
        strcpy(s2, "PARALLAX INTEGER LOOPS, TEXT 2");
        enum dh_kind k = K_2;
        g->flag = !dh_texts(g, s1, s2);
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
                strcpy(s2, "PARALLAX INTEGER LOOPS, TEXT 3");
                i2 = run;
                g->int_glob = run;
            }
        i2 = i2 * i1;
        i1 = i2 / i3;
        i2 = 7 * (i2 - i3) - i1;
        dh_count_down(g, &i1);
    }
    dhry_sink = g->arr1[8] + g->int_glob + g->glob->next->value;
    return 0;
}

const struct workload wl_dhry = {
    .name = "dhry",
    .desc = "integer loops in the spirit of Dhrystone 2.1 (UnixBench "
            "dhry2reg)",
    .unit = "loops/s", /* as pipe-tput says it (UnixBench: lps) */
    .better = WL_HIGHER_IS_BETTER,
    .setup = dhry_setup,
    .step = dhry_step,
    .teardown = dhry_teardown,
    .figure_kind = WF_OPS_PER_SEC,
    .scale = 1,
};
