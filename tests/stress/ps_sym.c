/*
 * ps_sym.c - p11stress: digests, HMAC, AES/SM4 modes, CMAC, key wrap, HKDF,
 * secret key generation and C_GenerateRandom, each answer compared with
 * OpenSSL computing the same thing from the key bytes the test imported.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include "ps.h"
#include "ts_ossl.h"



/* ---- digests ---------------------------------------------------------------- */

static int op_digest(ps_thr *t, const ps_op *o)
{
	CK_MECHANISM m = { o->mech, NULL, 0 };
	size_t n = ps_len(t, PS_BUF - 512);
	unsigned rl = 0;
	CK_ULONG ol = 64;
	CK_RV rv;

	ps_fill(t, t->in, n);
	if (!EVP_Digest(t->in, n, t->ref, &rl, ps_md(o->md), NULL))
		return ps_fail(t, o, PS_WRONG, "OpenSSL %s failed", o->md);
	rv = ps_sign(t, &m, CK_INVALID_HANDLE, PS_MULTI(t), t->in, n, t->out, &ol);
	if (rv != CKR_OK)
		return PS_RV(t, o, "C_Digest", rv);
	if (ol != rl || memcmp(t->out, t->ref, rl) != 0)
		return ps_fail(t, o, PS_WRONG, "%zu-byte message: digest differs", n);
	return PS_OK;
}

/* ---- MACs: HMAC (md) and AES-CMAC (md == NULL); arg: 1 = _GENERAL ------------- */

static int mac_ref(const ps_op *o, const uint8_t *key, size_t kl, const uint8_t *in,
                   size_t n, uint8_t *out, size_t *ol)
{
	EVP_MAC_CTX *x = EVP_MAC_CTX_new(ps_mac(o->md == NULL));
	OSSL_PARAM p[2];
	int ok;

	p[0] = o->md ? OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)o->md, 0)
	             : OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER,
	                                                kl == 16 ? "AES-128-CBC" : kl == 24 ? "AES-192-CBC"
	                                                : "AES-256-CBC", 0);
	p[1] = OSSL_PARAM_construct_end();
	ok = x && EVP_MAC_init(x, key, kl, p) && EVP_MAC_update(x, in, n) &&
	     EVP_MAC_final(x, out, ol, 64);
	EVP_MAC_CTX_free(x);
	return ok;
}

static int op_mac(ps_thr *t, const ps_op *o)
{
	int ai = (int)ps_below(t, 3);
	CK_OBJECT_HANDLE k = o->md ? K.hmac : K.aes[ai];
	const uint8_t *kv = o->md ? K.hmacv : K.aesv[ai];
	size_t kl = o->md ? sizeof K.hmacv : K.aesl[ai], n = ps_len(t, PS_BUF - 512), rl;
	CK_ULONG gl, ol = 64;
	CK_MECHANISM m = { o->mech, NULL, 0 };
	CK_RV rv;

	ps_fill(t, t->in, n);
	if (!mac_ref(o, kv, kl, t->in, n, t->ref, &rl))
		return ps_fail(t, o, PS_WRONG, "OpenSSL MAC failed");
	if (o->arg) {                                  /* truncated */
		gl = 1 + ps_below(t, (uint32_t)rl);
		m.pParameter = &gl;
		m.ulParameterLen = sizeof gl;
		rl = gl;
	}
	if ((rv = ps_sign(t, &m, k, PS_MULTI(t), t->in, n, t->out, &ol)) != CKR_OK)
		return PS_RV(t, o, "C_Sign", rv);
	if (ol != rl || memcmp(t->out, t->ref, rl) != 0)
		return ps_fail(t, o, PS_WRONG, "%zu-byte message: MAC differs", n);
	if ((rv = ps_verify(t, &m, k, PS_MULTI(t), t->in, n, t->ref, rl)) != CKR_OK)
		return PS_RV(t, o, "C_Verify of OpenSSL's MAC", rv);
	t->ref[ps_below(t, (uint32_t)rl)] ^= (uint8_t)(1u << ps_below(t, 8));
	rv = ps_verify(t, &m, k, PS_MULTI(t), t->in, n, t->ref, rl);
	if (rv != CKR_SIGNATURE_INVALID)
		return ps_fail(t, o, rv == CKR_OK ? PS_WRONG : PS_RVERR,
		               "C_Verify of a corrupted MAC: CK_RV 0x%lx", (unsigned long)rv);
	return PS_OK;
}

/* ---- ciphers: md = OpenSSL name with %d for the AES key bits (or SM4) ---------
 * arg: CK_ECB, CK_IV, CK_CTR, CK_GCM | CK_BLOCK (length a multiple of 16),
 * CK_PAD (PKCS#7). */
enum { CK_ECB = 0, CK_IV = 1, CK_CTR = 2, CK_GCM = 3, CK_KIND = 3,
       CK_BLOCK = 4, CK_PAD = 8, CK_SM4 = 16 };

static int op_cipher(ps_thr *t, const ps_op *o)
{
	int ai = (int)ps_below(t, 3), kind = o->arg & CK_KIND, sm4 = o->arg & CK_SM4;
	CK_OBJECT_HANDLE k = sm4 ? K.sm4 : K.aes[ai];
	const uint8_t *kv = sm4 ? K.sm4v : K.aesv[ai];
	char name[32], ecbname[32];
	const EVP_CIPHER *c;
	uint8_t iv[64], aad[64];
	size_t n = ps_len(t, PS_BUF - 512), ivl = 16, al = 0, tl = 0, rl;
	CK_AES_CTR_PARAMS cp;
	CK_GCM_PARAMS gp;
	CK_MECHANISM m = { o->mech, NULL, 0 };
	CK_ULONG ol;
	CK_RV rv;

	snprintf(name, sizeof name, o->md, (int)(8 * K.aesl[ai]));
	snprintf(ecbname, sizeof ecbname, sm4 ? "SM4-ECB" : "AES-%d-ECB", (int)(8 * K.aesl[ai]));
	c = ps_cipher(sm4 && kind == CK_GCM ? ecbname : name);  /* SM4-GCM: ours */
	if (c == NULL)
		return ps_fail(t, o, PS_WRONG, "OpenSSL has no %s", name);
	if (o->arg & CK_BLOCK)
		n &= ~(size_t)15;
	ps_fill(t, t->in, n);
	ps_fill(t, iv, sizeof iv);
	if (kind == CK_IV) {
		m.pParameter = iv;
		m.ulParameterLen = 16;
	} else if (kind == CK_CTR) {
		cp.ulCounterBits = ps_below(t, 2) ? 128 : 1 + ps_below(t, 128);
		if (cp.ulCounterBits < 128 && ps_below(t, 2)) {   /* start close to the wrap */
			unsigned b = (unsigned)cp.ulCounterBits;
			int j;
			for (j = 15; b > 0; j--) {
				unsigned w = b >= 8 ? 8 : b;
				iv[j] |= (uint8_t)((1u << w) - 1);
				b -= w;
			}
			iv[15] &= (uint8_t)~ps_below(t, 8);
		}
		if (cp.ulCounterBits < 12 && n > ((size_t)16 << cp.ulCounterBits))
			n = (size_t)16 << cp.ulCounterBits;    /* no keystream reuse */
		memcpy(cp.cb, iv, 16);
		m.pParameter = &cp;
		m.ulParameterLen = sizeof cp;
	} else if (kind == CK_GCM) {
		ivl = ps_below(t, 4) ? 12 : 1 + ps_below(t, sizeof iv);
		al = ps_below(t, 2) ? ps_below(t, sizeof aad + 1) : 0;
		tl = 4 + 2 * ps_below(t, 7);               /* 4, 6 ... 16 bytes */
		tl = tl < 12 && ps_below(t, 2) ? 16 : tl;
		ps_fill(t, aad, al);
		gp = (CK_GCM_PARAMS){ iv, ivl, 8 * ivl, al ? aad : NULL, al, 8 * tl };
		m.pParameter = &gp;
		m.ulParameterLen = sizeof gp;
	}
	if (kind == CK_CTR && cp.ulCounterBits < 128) {
		rl = n;
		if (!ps_ctr(ps_cipher(ecbname), kv,
		            cp.cb, (unsigned)cp.ulCounterBits, t->in, n, t->ref, t->tmp))
			return ps_fail(t, o, PS_WRONG, "CTR reference failed");
	} else if (sm4 && kind == CK_GCM) {
		rl = n + tl;
		if (!ts_gcm_ecb(ps_cipher("SM4-ECB"), kv, iv, ivl, aad, al, t->in, n, tl, t->ref))
			return ps_fail(t, o, PS_WRONG, "SM4-GCM reference failed");
	} else if (!ts_ossl_crypt(c, 1, !!(o->arg & CK_PAD), kv, iv, ivl, aad, al, tl,
	                          t->in, n, t->ref, &rl))
		return ps_fail(t, o, PS_WRONG, "OpenSSL %s encryption failed", name);
	ol = PS_BUF;
	if ((rv = ps_crypt(t, &m, k, 1, PS_MULTI(t), t->in, n, t->out, &ol)) != CKR_OK)
		return PS_RV(t, o, "encrypt", rv);
	if (ol != rl || memcmp(t->out, t->ref, rl) != 0)
		return ps_fail(t, o, PS_WRONG, "%zu bytes%s: ciphertext differs (%lu vs %zu)",
		               n, kind == CK_CTR && cp.ulCounterBits < 128 ? ", narrow counter" : "",
		               (unsigned long)ol, rl);
	ol = PS_BUF;
	if ((rv = ps_crypt(t, &m, k, 0, PS_MULTI(t), t->ref, rl, t->out, &ol)) != CKR_OK)
		return PS_RV(t, o, "decrypt of OpenSSL's ciphertext", rv);
	if (ol != n || memcmp(t->out, t->in, n) != 0)
		return ps_fail(t, o, PS_WRONG, "%zu bytes: decryption differs", n);
	if (kind == CK_GCM) {                          /* a forged tag is refused */
		t->ref[rl - 1 - ps_below(t, (uint32_t)tl)] ^= 0x20;
		ol = PS_BUF;
		rv = ps_crypt(t, &m, k, 0, PS_MULTI(t), t->ref, rl, t->out, &ol);
		if (rv != CKR_ENCRYPTED_DATA_INVALID)
			return ps_fail(t, o, rv == CKR_OK ? PS_WRONG : PS_RVERR,
			               "forged GCM tag: CK_RV 0x%lx", (unsigned long)rv);
	}
	return PS_OK;
}

/* ---- key wrap (arg: 1 = KWP) -------------------------------------------------- */

static int ossl_wrap(int enc, int pad, const uint8_t *kek, size_t kl, const uint8_t *in,
                     size_t n, uint8_t *out, size_t *ol)
{
	char name[32];
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ok;

	snprintf(name, sizeof name, "id-aes%zu-wrap%s", 8 * kl, pad ? "-pad" : "");
	EVP_CIPHER_CTX_set_flags(x, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	ok = EVP_CipherInit_ex(x, ps_cipher(name), NULL, kek, NULL, enc) &&
	     EVP_CipherUpdate(x, out, &l1, in, (int)n) &&
	     EVP_CipherFinal_ex(x, out + l1, &l2);
	*ol = (size_t)(l1 + l2);
	EVP_CIPHER_CTX_free(x);
	return ok;
}

static int op_wrap(ps_thr *t, const ps_op *o)
{
	int ai = (int)ps_below(t, 3), wi = (int)ps_below(t, 2);
	size_t kl = K.aesl[ai], rl, n;
	CK_MECHANISM m = { o->mech, NULL, 0 };
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE gen = CKK_GENERIC_SECRET;
	CK_BBOOL tr = CK_TRUE, fa = CK_FALSE;
	CK_ATTRIBUTE ut[] = { { CKA_CLASS, &cls, sizeof cls }, { CKA_KEY_TYPE, &gen, sizeof gen },
	                      { CKA_SENSITIVE, &fa, 1 }, { CKA_EXTRACTABLE, &tr, 1 } };
	CK_OBJECT_HANDLE h = CK_INVALID_HANDLE;
	CK_ULONG ol = PS_BUF;
	CK_RV rv;
	long vl;

	if (!ossl_wrap(1, o->arg, K.aesv[ai], kl, K.wrappedv[wi], K.wrappedl[wi], t->ref, &rl))
		return ps_fail(t, o, PS_WRONG, "OpenSSL wrap failed");
	if ((rv = F->C_WrapKey(t->s, &m, K.aes[ai], K.wrapped[wi], t->out, &ol)) != CKR_OK)
		return PS_RV(t, o, "C_WrapKey", rv);
	if (ol != rl || memcmp(t->out, t->ref, rl) != 0)
		return ps_fail(t, o, PS_WRONG, "wrapped key differs");
	/* OpenSSL wraps random bytes; the token unwraps them */
	n = o->arg ? 1 + ps_below(t, 64) : 16 + 8 * ps_below(t, 7);
	ps_fill(t, t->in, n);
	if (!ossl_wrap(1, o->arg, K.aesv[ai], kl, t->in, n, t->ref, &rl))
		return ps_fail(t, o, PS_WRONG, "OpenSSL wrap failed");
	if ((rv = F->C_UnwrapKey(t->s, &m, K.aes[ai], t->ref, rl, ut, 4, &h)) != CKR_OK)
		return PS_RV(t, o, "C_UnwrapKey", rv);
	vl = ps_value(t->s, h, t->out, PS_BUF);
	F->C_DestroyObject(t->s, h);
	if (vl != (long)n || memcmp(t->out, t->in, n) != 0)
		return ps_fail(t, o, PS_WRONG, "unwrapped %zu-byte key differs", n);
	return PS_OK;
}

/* ---- HKDF ------------------------------------------------------------------- */

static const struct { CK_MECHANISM_TYPE m; const char *md; } hkdf_prf[] = {
	{ CKM_SHA_1, "SHA1" }, { CKM_SHA224, "SHA224" }, { CKM_SHA256, "SHA256" },
	{ CKM_SHA384, "SHA384" }, { CKM_SHA512, "SHA512" }, { CKM_SHA3_224, "SHA3-224" },
	{ CKM_SHA3_256, "SHA3-256" }, { CKM_SHA3_384, "SHA3-384" }, { CKM_SHA3_512, "SHA3-512" },
};

enum { HK_BOTH, HK_EXPAND, HK_EXTRACT };

static int op_hkdf(ps_thr *t, const ps_op *o)
{
	int pi = (int)ps_below(t, sizeof hkdf_prf / sizeof hkdf_prf[0]);
	int mode = (int)ps_below(t, 4) % 3;     /* HK_BOTH (half the time), HK_EXPAND, HK_EXTRACT */
	int extract = mode != HK_EXPAND, expand = mode != HK_EXTRACT;
	uint8_t salt[80], info[80];
	size_t sl = extract && ps_below(t, 3) ? ps_below(t, sizeof salt + 1) : 0;
	size_t il = ps_below(t, sizeof info + 1), rl;
	CK_ULONG vlen = expand ? 1 + ps_below(t, 96)
	                       : (CK_ULONG)EVP_MD_get_size(ps_md(hkdf_prf[pi].md));
	CK_HKDF_PARAMS p = { extract, expand, hkdf_prf[pi].m,
	                     sl ? CKF_HKDF_SALT_DATA : CKF_HKDF_SALT_NULL,
	                     sl ? salt : NULL, sl, 0, il ? info : NULL, il };
	CK_MECHANISM m = { o->mech, &p, sizeof p };
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE gen = CKK_GENERIC_SECRET;
	CK_BBOOL tr = CK_TRUE, fa = CK_FALSE;
	CK_ATTRIBUTE dt[] = { { CKA_CLASS, &cls, sizeof cls }, { CKA_KEY_TYPE, &gen, sizeof gen },
	                      { CKA_VALUE_LEN, &vlen, sizeof vlen },
	                      { CKA_SENSITIVE, &fa, 1 }, { CKA_EXTRACTABLE, &tr, 1 } };
	EVP_PKEY_CTX *x = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
	CK_OBJECT_HANDLE h;
	CK_RV rv;
	long vl;
	int ok;

	ps_fill(t, salt, sl);
	ps_fill(t, info, il);
	rl = vlen;
	ok = x && EVP_PKEY_derive_init(x) > 0 &&
	     EVP_PKEY_CTX_set_hkdf_mode(x, mode == HK_BOTH ? EVP_PKEY_HKDEF_MODE_EXTRACT_AND_EXPAND
	                                 : mode == HK_EXPAND ? EVP_PKEY_HKDEF_MODE_EXPAND_ONLY
	                                 : EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY) > 0 &&
	     EVP_PKEY_CTX_set_hkdf_md(x, ps_md(hkdf_prf[pi].md)) > 0 &&
	     (sl == 0 || EVP_PKEY_CTX_set1_hkdf_salt(x, salt, (int)sl) > 0) &&
	     EVP_PKEY_CTX_set1_hkdf_key(x, K.hmacv, sizeof K.hmacv) > 0 &&
	     (il == 0 || !expand || EVP_PKEY_CTX_add1_hkdf_info(x, info, (int)il) > 0) &&
	     EVP_PKEY_derive(x, t->ref, &rl) > 0;
	EVP_PKEY_CTX_free(x);
	if (!ok || rl != vlen)
		return ps_fail(t, o, PS_WRONG, "OpenSSL HKDF failed");
	if ((rv = F->C_DeriveKey(t->s, &m, K.hmac, dt, 5, &h)) != CKR_OK)
		return PS_RV(t, o, "C_DeriveKey", rv);
	vl = ps_value(t->s, h, t->out, PS_BUF);
	F->C_DestroyObject(t->s, h);
	if (vl != (long)vlen || memcmp(t->out, t->ref, vlen) != 0)
		return ps_fail(t, o, PS_WRONG, "HKDF-%s %s: %lu-byte key differs", hkdf_prf[pi].md,
		               mode == HK_BOTH ? "extract+expand" : expand ? "expand" : "extract",
		               (unsigned long)vlen);
	return PS_OK;
}

/* ---- secret key generation: the value read back must work like the key ------- */

static int op_keygen(ps_thr *t, const ps_op *o)
{
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = o->arg == 0 ? CKK_AES : o->arg == 1 ? CKK_PV_SM4 : CKK_GENERIC_SECRET;
	CK_ULONG vlen = o->arg == 0 ? 16 + 8 * ps_below(t, 3) : o->arg == 1 ? 16 : 1 + ps_below(t, 128);
	CK_BBOOL tr = CK_TRUE, fa = CK_FALSE;
	CK_ATTRIBUTE gt[] = { { CKA_CLASS, &cls, sizeof cls }, { CKA_KEY_TYPE, &kt, sizeof kt },
	                      { CKA_VALUE_LEN, &vlen, sizeof vlen }, { CKA_SENSITIVE, &fa, 1 },
	                      { CKA_EXTRACTABLE, &tr, 1 }, { CKA_ENCRYPT, &tr, 1 },
	                      { CKA_SIGN, &tr, 1 } };
	CK_MECHANISM m = { o->mech, NULL, 0 };
	CK_MECHANISM use = { o->arg == 2 ? CKM_SHA256_HMAC : o->arg == 1 ? CKM_PV_SM4_ECB : CKM_AES_ECB,
	                     NULL, 0 };
	CK_OBJECT_HANDLE h;
	CK_ULONG ol = 64;
	uint8_t kv[128];
	char name[32];
	size_t rl = 0;
	unsigned hl = 0;
	long vl;
	CK_RV rv;
	int ok;

	if ((rv = F->C_GenerateKey(t->s, &m, gt, sizeof gt / sizeof gt[0], &h)) != CKR_OK)
		return PS_RV(t, o, "C_GenerateKey", rv);
	vl = ps_value(t->s, h, kv, sizeof kv);
	ps_fill(t, t->in, 32);
	rv = o->arg == 2 ? ps_sign(t, &use, h, 0, t->in, 32, t->out, &ol)
	                 : ps_crypt(t, &use, h, 1, 0, t->in, 32, t->out, &ol);
	F->C_DestroyObject(t->s, h);
	if (rv != CKR_OK)
		return PS_RV(t, o, "using the generated key", rv);
	if (vl != (long)vlen)
		return ps_fail(t, o, PS_WRONG, "CKA_VALUE length %ld, asked %lu", vl, (unsigned long)vlen);
	snprintf(name, sizeof name, o->arg == 1 ? "SM4-ECB" : "AES-%lu-ECB", (unsigned long)(8 * vlen));
	ok = o->arg == 2 ? HMAC(ps_md("SHA256"), kv, (int)vlen, t->in, 32, t->ref, &hl) != NULL
	                 : ts_ossl_crypt(ps_cipher(name), 1, 0, kv, NULL, 0, NULL, 0, 0,
	                                 t->in, 32, t->ref, &rl);
	rl = o->arg == 2 ? hl : rl;
	if (!ok || ol != rl || memcmp(t->out, t->ref, rl) != 0)
		return ps_fail(t, o, PS_WRONG, "generated key does not act as its CKA_VALUE");
	return PS_OK;
}

/* ---- C_GenerateRandom ------------------------------------------------------- */

static int op_random(ps_thr *t, const ps_op *o)
{
	size_t n = 1 + ps_below(t, 4096), i, nz = 0;
	CK_RV rv;

	memset(t->out, 0, n);
	if ((rv = F->C_GenerateRandom(t->s, t->out, n)) != CKR_OK)
		return PS_RV(t, o, "C_GenerateRandom", rv);
	for (i = 0; i < n; i++)
		nz |= t->out[i];
	if (n >= 16 && nz == 0)
		return ps_fail(t, o, PS_WRONG, "%zu random bytes all zero", n);
	return PS_OK;
}

#define DIG(c, md) { #c, c, op_digest, md, 0 }
#define HM(c, md) { #c, c, op_mac, md, 0 }, { #c "_GENERAL", c##_GENERAL, op_mac, md, 1 }
#define AES(c, fmt, a) { #c, c, op_cipher, fmt, a }

const ps_op ps_sym_ops[] = {
	DIG(CKM_SHA_1, "SHA1"), DIG(CKM_SHA224, "SHA224"), DIG(CKM_SHA256, "SHA256"),
	DIG(CKM_SHA384, "SHA384"), DIG(CKM_SHA512, "SHA512"), DIG(CKM_SHA3_224, "SHA3-224"),
	DIG(CKM_SHA3_256, "SHA3-256"), DIG(CKM_SHA3_384, "SHA3-384"),
	DIG(CKM_SHA3_512, "SHA3-512"), DIG(CKM_PV_SM3, "SM3"),
	HM(CKM_SHA_1_HMAC, "SHA1"), HM(CKM_SHA224_HMAC, "SHA224"), HM(CKM_SHA256_HMAC, "SHA256"),
	HM(CKM_SHA384_HMAC, "SHA384"), HM(CKM_SHA512_HMAC, "SHA512"),
	HM(CKM_SHA3_224_HMAC, "SHA3-224"), HM(CKM_SHA3_256_HMAC, "SHA3-256"),
	HM(CKM_SHA3_384_HMAC, "SHA3-384"), HM(CKM_SHA3_512_HMAC, "SHA3-512"),
	{ "CKM_PV_SM3_HMAC", CKM_PV_SM3_HMAC, op_mac, "SM3", 0 },
	{ "CKM_AES_CMAC", CKM_AES_CMAC, op_mac, NULL, 0 },
	{ "CKM_AES_CMAC_GENERAL", CKM_AES_CMAC_GENERAL, op_mac, NULL, 1 },
	AES(CKM_AES_ECB, "AES-%d-ECB", CK_ECB | CK_BLOCK),
	AES(CKM_AES_CBC, "AES-%d-CBC", CK_IV | CK_BLOCK),
	AES(CKM_AES_CBC_PAD, "AES-%d-CBC", CK_IV | CK_PAD),
	AES(CKM_AES_CTR, "AES-%d-CTR", CK_CTR),
	AES(CKM_AES_CFB128, "AES-%d-CFB", CK_IV),
	AES(CKM_AES_GCM, "AES-%d-GCM", CK_GCM),
	AES(CKM_PV_SM4_ECB, "SM4-ECB", CK_SM4 | CK_ECB | CK_BLOCK),
	AES(CKM_PV_SM4_CBC, "SM4-CBC", CK_SM4 | CK_IV | CK_BLOCK),
	AES(CKM_PV_SM4_CBC_PAD, "SM4-CBC", CK_SM4 | CK_IV | CK_PAD),
	AES(CKM_PV_SM4_CTR, "SM4-CTR", CK_SM4 | CK_CTR),
	AES(CKM_PV_SM4_GCM, "SM4-GCM", CK_SM4 | CK_GCM),
	{ "CKM_AES_KEY_WRAP", CKM_AES_KEY_WRAP, op_wrap, NULL, 0 },
	{ "CKM_AES_KEY_WRAP_PAD", CKM_AES_KEY_WRAP_PAD, op_wrap, NULL, 1 },
	{ "CKM_AES_KEY_WRAP_KWP", CKM_AES_KEY_WRAP_KWP, op_wrap, NULL, 1 },
	{ "CKM_HKDF_DERIVE", CKM_HKDF_DERIVE, op_hkdf, NULL, 0 },
	{ "CKM_AES_KEY_GEN", CKM_AES_KEY_GEN, op_keygen, NULL, 0 },
	{ "CKM_PV_SM4_KEY_GEN", CKM_PV_SM4_KEY_GEN, op_keygen, NULL, 1 },
	{ "CKM_GENERIC_SECRET_KEY_GEN", CKM_GENERIC_SECRET_KEY_GEN, op_keygen, NULL, 2 },
	{ "C_GenerateRandom", CK_UNAVAILABLE_INFORMATION, op_random, NULL, 0 },
	{ NULL, 0, NULL, NULL, 0 }
};
