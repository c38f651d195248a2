/*
 * test_p11_wycheproof.c - Wycheproof through the PKCS#11 API: every key is
 * made with C_CreateObject, every case runs through the real module.
 * Valid cases must give the expected bytes (single-part and multi-part),
 * invalid ones must be rejected with the precise CKR and release nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "tsupport.h"

#define FAILIF(c) do { if (c) { rc = 1; goto out; } } while (0)

/* ---- AES-GCM ---- */
static int wp_gcm(const ts_wp_case *tc, void *arg)
{
	size_t kl, ivl, al, ml, cl, tl;
	uint8_t *k = ts_wp_hex(tc, "key", &kl), *iv = ts_wp_hex(tc, "iv", &ivl);
	uint8_t *aad = ts_wp_hex(tc, "aad", &al), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *ct = ts_wp_hex(tc, "ct", &cl), *tag = ts_wp_hex(tc, "tag", &tl);
	uint8_t *ctt = malloc(cl + tl + 1), *out = malloc(ml + cl + tl + 64);
	CK_GCM_PARAMS gp = { iv, ivl, ivl * 8, aad, al, tl * 8 };
	CK_MECHANISM m = { CKM_AES_GCM, &gp, sizeof gp };
	CK_OBJECT_HANDLE h = 0;
	CK_ULONG ol;
	CK_RV rv;
	int rc = 0, multi;
	size_t i;

	(void)arg;
	memcpy(ctt, ct, cl);
	memcpy(ctt + cl, tag, tl);
	rv = pc_key(CKK_AES, k, kl, 0, &h);
	if (rv != CKR_OK) {
		rc = ts_wp_valid(tc);
		goto out;
	}
	for (multi = 0; multi < 2; multi++) {
		/* decrypt: plaintext only if the tag verifies */
		memset(out, 0xa5, ml + 64);
		ol = ml + 64;
		rv = multi ? pc_crypt_multi(&m, h, 0, ctt, cl + tl, out, &ol)
		           : pc_crypt(&m, h, 0, ctt, cl + tl, out, &ol);
		if (ts_wp_valid(tc)) {
			FAILIF(rv != CKR_OK || ol != ml || memcmp(out, msg, ml) != 0);
		} else if (!tc->result || strcmp(tc->result, "acceptable") != 0) {
			FAILIF(rv == CKR_OK);
			FAILIF(rv != CKR_ENCRYPTED_DATA_INVALID &&
			       rv != CKR_MECHANISM_PARAM_INVALID);
			for (i = 0; i < ml + 64; i++)
				FAILIF(out[i] != 0xa5);   /* nothing released */
		}
		/* encrypt (valid cases only) */
		if (ts_wp_valid(tc)) {
			ol = ml + cl + tl + 64;
			rv = multi ? pc_crypt_multi(&m, h, 1, msg, ml, out, &ol)
			           : pc_crypt(&m, h, 1, msg, ml, out, &ol);
			FAILIF(rv != CKR_OK || ol != cl + tl || memcmp(out, ctt, cl + tl) != 0);
		}
	}
out:
	if (h)
		pkt_f->C_DestroyObject(pc_s, h);
	free(k); free(iv); free(aad); free(msg); free(ct); free(tag);
	free(ctt); free(out);
	return rc;
}

/* ---- AES-CBC-PKCS5 (CKM_AES_CBC_PAD) ---- */
static int wp_cbc(const ts_wp_case *tc, void *arg)
{
	size_t kl, ivl, ml, cl;
	uint8_t *k = ts_wp_hex(tc, "key", &kl), *iv = ts_wp_hex(tc, "iv", &ivl);
	uint8_t *msg = ts_wp_hex(tc, "msg", &ml), *ct = ts_wp_hex(tc, "ct", &cl);
	uint8_t *out = malloc(ml + cl + 64);
	CK_MECHANISM m = { CKM_AES_CBC_PAD, iv, ivl };
	CK_OBJECT_HANDLE h = 0;
	CK_ULONG ol;
	CK_RV rv;
	int rc = 0, multi;

	(void)arg;
	rv = pc_key(CKK_AES, k, kl, 0, &h);
	if (rv != CKR_OK) {
		rc = ts_wp_valid(tc);
		goto out;
	}
	for (multi = 0; multi < 2; multi++) {
		ol = ml + cl + 64;
		rv = multi ? pc_crypt_multi(&m, h, 0, ct, cl, out, &ol)
		           : pc_crypt(&m, h, 0, ct, cl, out, &ol);
		if (ts_wp_valid(tc)) {
			FAILIF(rv != CKR_OK || ol != ml || memcmp(out, msg, ml) != 0);
			ol = ml + cl + 64;
			rv = multi ? pc_crypt_multi(&m, h, 1, msg, ml, out, &ol)
			           : pc_crypt(&m, h, 1, msg, ml, out, &ol);
			FAILIF(rv != CKR_OK || ol != cl || memcmp(out, ct, cl) != 0);
		} else {
			FAILIF(rv != CKR_ENCRYPTED_DATA_INVALID &&
			       rv != CKR_ENCRYPTED_DATA_LEN_RANGE);
		}
	}
out:
	if (h)
		pkt_f->C_DestroyObject(pc_s, h);
	free(k); free(iv); free(msg); free(ct); free(out);
	return rc;
}

/* ---- AES key wrap (KW: RFC 3394, KWP: RFC 5649) ---- */
static int wp_wrap(const ts_wp_case *tc, void *arg)
{
	CK_MECHANISM_TYPE mt = *(const CK_MECHANISM_TYPE *)arg;
	CK_MECHANISM m = { mt, NULL, 0 };
	size_t kl, ml, cl;
	uint8_t *k = ts_wp_hex(tc, "key", &kl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *ct = ts_wp_hex(tc, "ct", &cl);
	uint8_t out[1024];
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE gen = CKK_GENERIC_SECRET;
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_ATTRIBUTE ut[] = {
		{ CKA_CLASS, &cls, sizeof cls }, { CKA_KEY_TYPE, &gen, sizeof gen },
		{ CKA_SENSITIVE, &f, 1 }, { CKA_EXTRACTABLE, &t, 1 },
		{ CKA_PRIVATE, &f, 1 },
	};
	CK_OBJECT_HANDLE h = 0, kh = 0, uh = 0;
	CK_ULONG ol;
	CK_RV rv;
	long vl;
	int rc = 0;

	rv = pc_key(CKK_AES, k, kl, 0, &h);
	if (rv != CKR_OK) {
		rc = ts_wp_valid(tc);
		goto out;
	}
	rv = pkt_f->C_UnwrapKey(pc_s, &m, h, ct, cl, ut, 5, &uh);
	if (ts_wp_valid(tc)) {
		FAILIF(rv != CKR_OK);
		vl = pc_value(uh, out, sizeof out);
		FAILIF(vl != (long)ml || memcmp(out, msg, ml) != 0);
		/* and wrap the same key: the same bytes */
		FAILIF(pc_key(CKK_GENERIC_SECRET, msg, ml, PC_EXTRACTABLE, &kh) != CKR_OK);
		ol = sizeof out;
		rv = pkt_f->C_WrapKey(pc_s, &m, h, kh, out, &ol);
		FAILIF(rv != CKR_OK || ol != cl || memcmp(out, ct, cl) != 0);
	} else if (ts_wp_invalid(tc)) {
		FAILIF(rv == CKR_OK);
		FAILIF(rv != CKR_WRAPPED_KEY_INVALID && rv != CKR_WRAPPED_KEY_LEN_RANGE &&
		       rv != CKR_TEMPLATE_INCONSISTENT);
	}
out:
	if (h)
		pkt_f->C_DestroyObject(pc_s, h);
	if (kh)
		pkt_f->C_DestroyObject(pc_s, kh);
	if (uh)
		pkt_f->C_DestroyObject(pc_s, uh);
	free(k); free(msg); free(ct);
	return rc;
}

/* ---- MACs: AES-CMAC and HMAC ---- */
typedef struct wp_mac {
	CK_MECHANISM_TYPE full, general;
	CK_KEY_TYPE kt;
	size_t full_len;
} wp_mac;

static int wp_macf(const ts_wp_case *tc, void *arg)
{
	const wp_mac *w = arg;
	size_t kl, ml, tl;
	uint8_t *k = ts_wp_hex(tc, "key", &kl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *tag = ts_wp_hex(tc, "tag", &tl);
	size_t want = (size_t)ts_wp_int(tc, "tagSize") / 8;
	CK_ULONG gl = want, ol;
	CK_MECHANISM m = { w->full, NULL, 0 };
	CK_OBJECT_HANDLE h = 0;
	uint8_t out[64];
	CK_RV rv;
	int rc = 0, multi;

	if (want != w->full_len) {
		m.mechanism = w->general;
		m.pParameter = &gl;
		m.ulParameterLen = sizeof gl;
	}
	rv = pc_key(w->kt, k, kl, 0, &h);
	if (rv != CKR_OK) {
		rc = ts_wp_valid(tc);
		goto out;
	}
	for (multi = 0; multi < 2; multi++) {
		rv = pc_verify(&m, h, msg, ml, multi, tag, tl);
		if (ts_wp_valid(tc)) {
			FAILIF(rv != CKR_OK);
			ol = sizeof out;
			rv = pc_sign(&m, h, msg, ml, multi, out, &ol);
			FAILIF(rv != CKR_OK || ol != tl || memcmp(out, tag, tl) != 0);
		} else if (ts_wp_invalid(tc)) {
			FAILIF(rv != CKR_SIGNATURE_INVALID && rv != CKR_SIGNATURE_LEN_RANGE);
		}
	}
out:
	if (h)
		pkt_f->C_DestroyObject(pc_s, h);
	free(k); free(msg); free(tag);
	return rc;
}

/* ---- HKDF-SHA256 (CKM_HKDF_DERIVE) ---- */
static int wp_hkdf(const ts_wp_case *tc, void *arg)
{
	size_t il, sl, nl, ol;
	uint8_t *ikm = ts_wp_hex(tc, "ikm", &il), *salt = ts_wp_hex(tc, "salt", &sl);
	uint8_t *info = ts_wp_hex(tc, "info", &nl), *okm = ts_wp_hex(tc, "okm", &ol);
	CK_ULONG size = (CK_ULONG)ts_wp_int(tc, "size");
	CK_HKDF_PARAMS p = { CK_TRUE, CK_TRUE, CKM_SHA256,
	                     sl ? CKF_HKDF_SALT_DATA : CKF_HKDF_SALT_NULL,
	                     sl ? salt : NULL, sl, 0, info, nl };
	CK_MECHANISM m = { CKM_HKDF_DERIVE, &p, sizeof p };
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE gen = CKK_GENERIC_SECRET;
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_ATTRIBUTE dt[] = {
		{ CKA_CLASS, &cls, sizeof cls }, { CKA_KEY_TYPE, &gen, sizeof gen },
		{ CKA_VALUE_LEN, &size, sizeof size },
		{ CKA_SENSITIVE, &f, 1 }, { CKA_EXTRACTABLE, &t, 1 },
		{ CKA_PRIVATE, &f, 1 },
	};
	CK_OBJECT_HANDLE h = 0, dh = 0;
	uint8_t out[1024];
	CK_RV rv;
	int rc = 0;

	(void)arg;
	if (il == 0) {
		/* a generic secret has 1..512 bytes: no empty IKM object */
		rc = ts_wp_valid(tc) ? TS_WP_SKIP : 0;
		goto out;
	}
	rv = pc_key(CKK_GENERIC_SECRET, ikm, il, 0, &h);
	FAILIF(rv != CKR_OK);
	rv = pkt_f->C_DeriveKey(pc_s, &m, h, dt, 6, &dh);
	if (ts_wp_valid(tc)) {
		if (size > 512) {
			/* longer than a generic secret object can hold */
			FAILIF(rv != CKR_ATTRIBUTE_VALUE_INVALID);
			rc = TS_WP_SKIP;
			goto out;
		}
		FAILIF(rv != CKR_OK);
		FAILIF(pc_value(dh, out, sizeof out) != (long)ol || memcmp(out, okm, ol) != 0);
	} else if (ts_wp_invalid(tc)) {
		FAILIF(rv == CKR_OK);
	}
out:
	if (h)
		pkt_f->C_DestroyObject(pc_s, h);
	if (dh)
		pkt_f->C_DestroyObject(pc_s, dh);
	free(ikm); free(salt); free(info); free(okm);
	return rc;
}

static void run(const char *file, ts_wp_fn fn, void *arg)
{
	ts_wp_stats st;

	memset(&st, 0, sizeof st);
	CU_ASSERT_FATAL(ts_wp_run(file, fn, arg, &st) == 0);

	CU_ASSERT(st.total > 0);
	CU_ASSERT(st.failed == 0);
}

static void t_gcm(void) { run("aes_gcm_test.json", wp_gcm, NULL); }
static void t_cbc(void) { run("aes_cbc_pkcs5_test.json", wp_cbc, NULL); }
static void t_kw(void)
{
	CK_MECHANISM_TYPE m = CKM_AES_KEY_WRAP;
	run("aes_wrap_test.json", wp_wrap, &m);
}
static void t_kwp(void)
{
	CK_MECHANISM_TYPE m = CKM_AES_KEY_WRAP_PAD, m3 = CKM_AES_KEY_WRAP_KWP;
	run("aes_kwp_test.json", wp_wrap, &m);
	run("aes_kwp_test.json", wp_wrap, &m3);
}
static void t_cmac(void)
{
	wp_mac w = { CKM_AES_CMAC, CKM_AES_CMAC_GENERAL, CKK_AES, 16 };
	run("aes_cmac_test.json", wp_macf, &w);
}
static void t_hmac(void)
{
	static const struct { const char *f; CK_MECHANISM_TYPE m, g; size_t l; } hm[] = {
		{ "hmac_sha1_test.json", CKM_SHA_1_HMAC, CKM_SHA_1_HMAC_GENERAL, 20 },
		{ "hmac_sha224_test.json", CKM_SHA224_HMAC, CKM_SHA224_HMAC_GENERAL, 28 },
		{ "hmac_sha256_test.json", CKM_SHA256_HMAC, CKM_SHA256_HMAC_GENERAL, 32 },
		{ "hmac_sha384_test.json", CKM_SHA384_HMAC, CKM_SHA384_HMAC_GENERAL, 48 },
		{ "hmac_sha512_test.json", CKM_SHA512_HMAC, CKM_SHA512_HMAC_GENERAL, 64 },
		{ "hmac_sha3_256_test.json", CKM_SHA3_256_HMAC, CKM_SHA3_256_HMAC_GENERAL, 32 },
		{ "hmac_sha3_512_test.json", CKM_SHA3_512_HMAC, CKM_SHA3_512_HMAC_GENERAL, 64 },
	};
	size_t i;

	for (i = 0; i < sizeof hm / sizeof hm[0]; i++) {
		wp_mac w = { hm[i].m, hm[i].g, CKK_GENERIC_SECRET, hm[i].l };
		run(hm[i].f, wp_macf, &w);
	}
}
static void t_hkdf(void) { run("hkdf_sha256_test.json", wp_hkdf, NULL); }

int main(void)
{
	CU_pSuite s = pc_suite("p11crypto_wycheproof");

	CU_add_test(s, "setup: token and session", pc_token);
	CU_add_test(s, "aes_gcm through C_Encrypt/C_Decrypt", t_gcm);
	CU_add_test(s, "aes_cbc_pkcs5 through CKM_AES_CBC_PAD", t_cbc);
	CU_add_test(s, "aes_wrap through C_WrapKey/C_UnwrapKey", t_kw);
	CU_add_test(s, "aes_kwp through KEY_WRAP_PAD and KEY_WRAP_KWP", t_kwp);
	CU_add_test(s, "aes_cmac through C_Sign/C_Verify", t_cmac);
	CU_add_test(s, "hmac_* through C_Sign/C_Verify", t_hmac);
	CU_add_test(s, "hkdf_sha256 through C_DeriveKey", t_hkdf);
	return pc_run();
}
