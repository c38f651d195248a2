/*
 * ps.h - p11stress: many threads, one session each, mixing every mechanism
 * of pixelvault-pkcs11.so at random, every answer checked against OpenSSL.
 * p11stress.c (options, token setup, threads, report), ps_keys.c (the keys
 * and their OpenSSL twins), ps_sym.c / ps_pk.c (one function per family).
 */
#ifndef PS_H
#define PS_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>

#include "pkcs11/pk_pkcs11_3.h"
#include "include/pixelvault/pkcs11-vendor.h"

#define PS_MAXOPS 160            /* rows of the op table */
#define PS_BUF    (64 * 1024 + 512)

extern CK_FUNCTION_LIST *F;      /* the module's 2.40 function list */

/* A key pair made in the vault (the token signs / decrypts, OpenSSL checks
 * with `o`, built from the public attributes) and an OpenSSL key pair whose
 * public half is a token object (OpenSSL signs, the token verifies). */
typedef struct ps_pair {
	CK_OBJECT_HANDLE pub, priv;      /* vault pair */
	EVP_PKEY *o;                     /* its public part in OpenSSL */
	EVP_PKEY *theirs;                /* OpenSSL pair ... */
	CK_OBJECT_HANDLE theirs_pub;     /* ... and its public object */
} ps_pair;

enum { PS_RSA, PS_P256, PS_P384, PS_ED25519, PS_SM2, PS_NPAIRS };

typedef struct ps_keys {
	CK_SLOT_ID slot;
	CK_OBJECT_HANDLE aes[3];         /* AES-128, AES-192, AES-256 */
	uint8_t aesv[3][32];
	size_t aesl[3];
	CK_OBJECT_HANDLE sm4;
	uint8_t sm4v[16];
	CK_OBJECT_HANDLE hmac;           /* generic secret, sign/verify/derive */
	uint8_t hmacv[48];
	CK_OBJECT_HANDLE wrapped[2];     /* extractable AES-128 / generic (40 B) */
	uint8_t wrappedv[2][40];
	size_t wrappedl[2];
	ps_pair pk[PS_NPAIRS];
} ps_keys;

extern ps_keys K;

/* Per thread: own session, own PRNG, own counters (no shared writes). */
/* per mechanism: operations, wrong answers, unexpected CK_RVs, and the
 * seconds they took (a call and its OpenSSL check), in all and at most */
typedef struct ps_stat { unsigned long ops, wrong, rverr; double secs, max; } ps_stat;

typedef struct ps_thr {
	int id, open_failed;
	CK_SESSION_HANDLE s;
	uint64_t rng;
	ps_stat st[PS_MAXOPS];
	uint8_t in[PS_BUF], out[PS_BUF], ref[PS_BUF], tmp[PS_BUF];
} ps_thr;

/* Outcome of one operation. */
enum { PS_OK = 0, PS_WRONG = 1, PS_RVERR = 2, PS_SKIP = 3 };  /* SKIP: not counted */

typedef struct ps_op ps_op;
typedef int (*ps_fn)(ps_thr *t, const ps_op *o);
struct ps_op {
	const char *name;                /* table row */
	CK_MECHANISM_TYPE mech;          /* listed mechanism it covers */
	ps_fn fn;
	const char *md;                  /* OpenSSL digest / cipher name, or NULL */
	int arg;                         /* family-specific (key index, length) */
};

/* The op tables of each family (terminated by name == NULL). */
extern const ps_op ps_sym_ops[], ps_pk_ops[];
/* Mechanisms listed by the module that no op covers, with the reason. */
typedef struct ps_gap { CK_MECHANISM_TYPE mech; const char *why; } ps_gap;
extern const ps_gap ps_gaps[];

/* OpenSSL algorithms fetched once at start (ps_ossl_init, 0 = ok), looked
 * up by name afterwards (NULL if not in the list). */
int ps_ossl_init(void);
void ps_ossl_free(void);
const EVP_MD *ps_md(const char *name);
const EVP_CIPHER *ps_cipher(const char *name);
EVP_MAC *ps_mac(int cmac);

/* PRNG (xorshift64*) and helpers. */
uint64_t ps_rand(ps_thr *t);
uint32_t ps_below(ps_thr *t, uint32_t n);            /* [0, n) */
void ps_fill(ps_thr *t, void *p, size_t n);
size_t ps_len(ps_thr *t, size_t max);                /* mostly small, some large */
size_t ps_chunk(ps_thr *t, size_t left);             /* multi-part chunk size */
#define PS_MULTI(t) (ps_below((t), 2) == 0)      /* multi-part this time? */

/* Report a failure (first few only, no key bytes) and return code. */
int ps_fail(ps_thr *t, const ps_op *o, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#define PS_RV(t, o, what, rv) \
	ps_fail((t), (o), PS_RVERR, "%s: CK_RV 0x%lx", (what), (unsigned long)(rv))

/* Multi-part-or-not wrappers through the thread's session. */
CK_RV ps_crypt(ps_thr *t, CK_MECHANISM *m, CK_OBJECT_HANDLE k, int enc, int multi,
               const uint8_t *in, size_t n, uint8_t *out, CK_ULONG *outl);
/* k == CK_INVALID_HANDLE: C_Digest* instead of C_Sign*. */
CK_RV ps_sign(ps_thr *t, CK_MECHANISM *m, CK_OBJECT_HANDLE k, int multi,
              const uint8_t *in, size_t n, uint8_t *sig, CK_ULONG *sl);
CK_RV ps_verify(ps_thr *t, CK_MECHANISM *m, CK_OBJECT_HANDLE k, int multi,
                const uint8_t *in, size_t n, const uint8_t *sig, size_t sl);
/* CKA_VALUE of an extractable key (length, or -1). */
long ps_value(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE k, uint8_t *out, size_t cap);
long ps_attr(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE a,
             uint8_t *out, size_t cap);

/* ps_modes.c: CTR whose counter is the low `bits` bits of cb (wrapping
 * there, as PKCS#11's ulCounterBits), on the ECB cipher ecb.  tmp: n + 16
 * bytes of scratch.  1 on success. */
int ps_ctr(const EVP_CIPHER *ecb, const uint8_t *key, const uint8_t cb[16], unsigned bits,
           const uint8_t *in, size_t n, uint8_t *out, uint8_t *tmp);

/* ps_keys.c: create every key in session s (logged in); 0 on success. */
int ps_keys_setup(CK_SESSION_HANDLE s);
void ps_keys_free(void);
/* Vault key pair generation + OpenSSL twin of the public part. */
CK_RV ps_genpair(CK_SESSION_HANDLE s, int kind, CK_OBJECT_HANDLE *pub,
                 CK_OBJECT_HANDLE *priv, EVP_PKEY **o);

#endif
