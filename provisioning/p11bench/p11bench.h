/*
 * p11bench.h - shared types of p11bench, the PKCS#11 benchmark.
 *
 * p11bench.c     options, thread sweep, latency percentiles, table and CSV
 * p11b_token.c   the module: temporary token, keys generated in the vault,
 *                one token operation (Init + single-part call), in a plain
 *                or a PKCS#11 3.2 async session
 * p11b_ossl.c    OpenSSL 3 EVP: the same operations, and the check that a
 *                token (or OpenSSL) output is right
 */
#ifndef P11BENCH_H
#define P11BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "pkcs11/pk_pkcs11_3.h"

enum p11b_kind { K_SIGN, K_DIGEST, K_GCM };
enum p11b_alg { A_RSA, A_P256, A_SM2, A_ED25519, A_SHA3_256, A_SM3, A_SHA256, A_AES };

/* One benchmarked mechanism (a row of the table in p11b_token.c). */
typedef struct p11b_mech {
	const char *name;         /* command-line name, e.g. "p256-sign" */
	enum p11b_kind kind;
	enum p11b_alg alg;
	CK_MECHANISM_TYPE ckm;    /* the token's mechanism */
	size_t len;               /* message / data length in bytes */
} p11b_mech;

/* Keys and data of one mechanism for a run; read-only while threads run. */
typedef struct p11b_state {
	const p11b_mech *m;
	uint8_t *in;                    /* len bytes of random data */
	CK_OBJECT_HANDLE tok_priv;      /* signing key, or the AES key */
	EVP_PKEY *tok_pub;              /* the token key's public half (verify) */
	EVP_PKEY *ossl_key;             /* OpenSSL's own key of the same kind */
	uint8_t aes[32];                /* the token's AES key (extractable) */
	const EVP_MD *md;               /* fetched once: digest / sign hash */
	EVP_CIPHER *gcm;                /* fetched once: AES-256-GCM */
} p11b_state;

/* One operation's result, kept so it can be checked after the run. */
typedef struct p11b_out {
	uint8_t *buf;
	size_t len, cap;
	uint8_t iv[12];                 /* GCM: the IV this output used */
} p11b_out;

extern const p11b_mech p11b_mechs[];
extern const size_t p11b_nmechs;

/* p11b_token.c */
/* gpu_slots, gpu_bps: the token's gpu_slots and gpu_blocks_per_sm lines
 * (0: none, the default) */
int p11b_token_open(const char *module, unsigned gpu_slots, unsigned gpu_bps, char *model, size_t modelcap);
void p11b_token_close(void);
int p11b_token_keys(p11b_state *st);
/* async: a PKCS#11 3.2 async session (CKF_ASYNC_SESSION), whose
 * p11b_token_op may answer CKR_PENDING; p11b_token_complete then answers
 * CKR_PENDING until the call completes (C_AsyncComplete), then its CK_RV */
int p11b_token_session(CK_SESSION_HANDLE *s, int async);
void p11b_token_end_session(CK_SESSION_HANDLE s);
CK_RV p11b_token_op(CK_SESSION_HANDLE s, const p11b_state *st, p11b_out *o);
CK_RV p11b_token_complete(CK_SESSION_HANDLE s, const p11b_state *st, p11b_out *o);

/* p11b_ossl.c */
int p11b_ossl_keys(p11b_state *st);
void p11b_ossl_free(p11b_state *st);
EVP_PKEY *p11b_ossl_pub(enum p11b_alg alg, const uint8_t *a, size_t al,
                        const uint8_t *b, size_t bl);
int p11b_ossl_op(EVP_MD_CTX *c, EVP_CIPHER_CTX *cx, const p11b_state *st, p11b_out *o);
int p11b_ossl_check(const p11b_state *st, const p11b_out *o, int token);
void p11b_next_iv(uint8_t iv[12]);

#endif
