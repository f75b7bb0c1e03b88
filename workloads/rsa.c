/* RSA private-key signs and public-key verifies through libcrypto's EVP
 * API, as `openssl speed rsaN` measures them: PKCS#1 v1.5 padding (the
 * EVP default) over a 36-byte input, the size of an MD5+SHA1 TLS 1.0
 * digest. The key (e = 65537, two primes) is generated in setup and not
 * timed; `openssl speed` loads fixed keys of the same shape instead. */
#include "workloads/workload.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <stdlib.h>

#define RSA_INPUT_BYTES 36 /* what apps/speed.c signs */

struct rsa_wl {
    EVP_PKEY *key;
    EVP_PKEY_CTX *sign, *verify;
    unsigned char in[RSA_INPUT_BYTES];
    unsigned char sig[1024]; /* up to 8192-bit keys */
    size_t siglen;
};

static void rsa_teardown(struct wl_ctx *ctx)
{
    struct rsa_wl *r = ctx->state;
    if (!r)
        return;
    EVP_PKEY_CTX_free(r->sign);
    EVP_PKEY_CTX_free(r->verify);
    EVP_PKEY_free(r->key);
    free(r);
    ctx->state = NULL;
}

static int rsa_sign_once(struct rsa_wl *r)
{
    r->siglen = sizeof(r->sig);
    return EVP_PKEY_sign(r->sign, r->sig, &r->siglen, r->in, sizeof(r->in)) > 0
               ? 0
               : -1;
}

/* Makes the key and both contexts and one signature to verify. */
static int rsa_setup(struct wl_ctx *ctx)
{
    struct rsa_wl *r = calloc(1, sizeof(*r));
    if (!r)
        return -1;
    ctx->state = r;
    r->key = EVP_RSA_gen((unsigned)ctx->param[0]);
    if (!r->key || RAND_bytes(r->in, sizeof(r->in)) != 1)
        goto fail;
    r->sign = EVP_PKEY_CTX_new(r->key, NULL);
    r->verify = EVP_PKEY_CTX_new(r->key, NULL);
    if (!r->sign || !r->verify || EVP_PKEY_sign_init(r->sign) <= 0 ||
        EVP_PKEY_verify_init(r->verify) <= 0 || rsa_sign_once(r) < 0)
        goto fail;
    return 0;
fail:
    rsa_teardown(ctx);
    return -1;
}

static int rsa_sign_step(struct wl_ctx *ctx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (rsa_sign_once(ctx->state) < 0)
            return -1;
    return 0;
}

static int rsa_verify_step(struct wl_ctx *ctx, uint64_t n)
{
    struct rsa_wl *r = ctx->state;
    for (uint64_t i = 0; i < n; i++)
        if (EVP_PKEY_verify(r->verify, r->sig, r->siglen, r->in,
                            sizeof(r->in)) != 1)
            return -1;
    return 0;
}

#define RSA_BITS_PARAM                                                         \
    {                                                                          \
        "bits", "modulus size in bits (openssl speed: 512 1024 2048 4096)",    \
            2048, 512, 4096, true                                              \
    }

const struct workload wl_rsa_sign = {
    .name = "rsa-sign",
    .desc = "RSA private-key signs, PKCS#1 over 36 bytes (openssl speed rsa)",
    .unit = "signs/s",
    .better = WL_HIGHER_IS_BETTER,
    .params = {RSA_BITS_PARAM},
    .setup = rsa_setup,
    .step = rsa_sign_step,
    .teardown = rsa_teardown,
    .figure_kind = WF_OPS_PER_SEC,
    .scale = 1,
};

const struct workload wl_rsa_verify = {
    .name = "rsa-verify",
    .desc = "RSA public-key verifies, PKCS#1 over 36 bytes (openssl speed "
            "rsa)",
    .unit = "verifies/s",
    .better = WL_HIGHER_IS_BETTER,
    .params = {RSA_BITS_PARAM},
    .setup = rsa_setup,
    .step = rsa_verify_step,
    .teardown = rsa_teardown,
    .figure_kind = WF_OPS_PER_SEC,
    .scale = 1,
};
