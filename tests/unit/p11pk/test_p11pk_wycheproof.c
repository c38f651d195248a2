/*
 * test_p11pk_wycheproof.c - the remaining public-key Wycheproof files
 * through the real PKCS#11 module (dlopen, one token, one session, no
 * login: session objects are public): RSA PKCS#1 v1.5 signature
 * generation (exact signature), PKCS#1 v1.5 and PSS verification, OAEP
 * decryption with labels, ECDSA P-384 P1363 verification and ECDH P-256 /
 * P-384 through C_DeriveKey.  Every valid case must be accepted with the
 * expected output, every invalid one rejected with the documented CK_RV;
 * "acceptable" cases are counted (accepted / rejected) and may go either
 * way.  rsa_pkcs1_2048, ecdsa_secp256r1_sha256_p1363 and ed25519 run in
 * test_p11pk.c.  primality_test.json has no PKCS#11 API (there is no
 * mechanism that tests a number for primality); it is covered through
 * gpu/core (tests/unit/core_pk).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "../p11crypto/pc.h"
#include "pk_ossl.h"
#include "tsupport.h"

static CK_BBOOL T = CK_TRUE, F = CK_FALSE;

static const uint8_t oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const uint8_t oid_p384[] = { 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22 };

static int acc_yes, acc_no, extra;        /* extra: per-file special count */
static const char *extra_name;

static int verdict(const ts_wp_case *tc, int accepted)
{
	if (ts_wp_valid(tc))
		return accepted ? 0 : 1;
	if (ts_wp_invalid(tc))
		return accepted ? 1 : 0;
	if (accepted) acc_yes++; else acc_no++;
	return 0;
}

static json_object *cur_group;
static CK_OBJECT_HANDLE cur_key;

static void drop_key(void)
{
	if (cur_key)
		pkt_f->C_DestroyObject(pc_s, cur_key);
	cur_key = 0;
}

static const uint8_t *strip0(const uint8_t *p, size_t *n)
{
	while (*n > 1 && p[0] == 0) { p++; (*n)--; }
	return p;
}

/* The group's RSA private key from its PKCS#8 DER (parsed by OpenSSL, which
 * yields the CRT components that "privateKey" lacks in sig_gen), imported
 * with C_CreateObject.  CK_RV of the import. */
static CK_RV rsa_priv_import(const ts_wp_case *tc, CK_OBJECT_HANDLE *h)
{
	static const CK_ATTRIBUTE_TYPE f[8] = { CKA_MODULUS, CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT,
		CKA_PRIME_1, CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
	static uint8_t v[8][520];
	json_object *o;
	size_t dl;
	uint8_t *der;
	const unsigned char *p;
	EVP_PKEY *k;
	CK_OBJECT_CLASS c = CKO_PRIVATE_KEY;
	CK_KEY_TYPE kt = CKK_RSA;
	CK_ATTRIBUTE t[14];
	CK_ULONG n = 0;
	CK_RV rv;
	int i;

	*h = 0;
	if (!json_object_object_get_ex(tc->group, "privateKeyPkcs8", &o) ||
	    !(der = ts_unhex(json_object_get_string(o), &dl)))
		return CKR_GENERAL_ERROR;
	p = der;
	k = d2i_AutoPrivateKey(NULL, &p, (long)dl);
	free(der);
	if (!k)
		return CKR_GENERAL_ERROR;
	t[n++] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
	t[n++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
	t[n++] = (CK_ATTRIBUTE){ CKA_PRIVATE, &F, sizeof F };
	t[n++] = (CK_ATTRIBUTE){ CKA_SIGN, &T, sizeof T };
	t[n++] = (CK_ATTRIBUTE){ CKA_DECRYPT, &T, sizeof T };
	for (i = 0; i < 8; i++) {
		size_t l = po_rsa_comp(k, i, v[i], sizeof v[i]);
		if (l == 0) {
			EVP_PKEY_free(k);
			return CKR_GENERAL_ERROR;
		}
		t[n++] = (CK_ATTRIBUTE){ f[i], v[i], l };
	}
	EVP_PKEY_free(k);
	rv = pkt_f->C_CreateObject(pc_s, t, n, h);
	if (rv != CKR_OK)
		*h = 0;
	return rv;
}

static CK_MECHANISM_TYPE hash_mech(const char *sha, CK_MECHANISM_TYPE *mgf)
{
	static const struct { const char *n; CK_MECHANISM_TYPE h, g; } t[] = {
		{ "SHA-1", CKM_SHA_1, CKG_MGF1_SHA1 }, { "SHA-224", CKM_SHA224, CKG_MGF1_SHA224 },
		{ "SHA-256", CKM_SHA256, CKG_MGF1_SHA256 }, { "SHA-384", CKM_SHA384, CKG_MGF1_SHA384 },
		{ "SHA-512", CKM_SHA512, CKG_MGF1_SHA512 },
	};
	size_t i;

	for (i = 0; sha && i < sizeof t / sizeof t[0]; i++)
		if (strcmp(sha, t[i].n) == 0) {
			if (mgf) *mgf = t[i].g;
			return t[i].h;
		}
	return CKM_VENDOR_DEFINED;
}

static CK_MECHANISM_TYPE pkcs1_sig_mech(const char *sha)
{
	switch (hash_mech(sha, NULL)) {
	case CKM_SHA_1: return CKM_SHA1_RSA_PKCS;
	case CKM_SHA224: return CKM_SHA224_RSA_PKCS;
	case CKM_SHA256: return CKM_SHA256_RSA_PKCS;
	case CKM_SHA384: return CKM_SHA384_RSA_PKCS;
	case CKM_SHA512: return CKM_SHA512_RSA_PKCS;
	default: return CKM_VENDOR_DEFINED;
	}
}

/* rsa_pkcs1_2048_sig_gen: sign, compare the exact signature.  A key the
 * token refuses to import is allowed only for "acceptable" cases (counted
 * in extra). */
static CK_RV cur_rv;

static int wp_siggen(const ts_wp_case *tc, void *arg)
{
	CK_MECHANISM m = { pkcs1_sig_mech(ts_wp_str(tc, "sha")), NULL, 0 };
	size_t ml, sl;
	uint8_t *msg = ts_wp_hex(tc, "msg", &ml), *sig = ts_wp_hex(tc, "sig", &sl), out[600];
	CK_ULONG ol = sizeof out;
	CK_RV rv;
	int r;

	(void)arg;
	if (tc->group != cur_group) {
		drop_key();
		cur_group = tc->group;
		cur_rv = rsa_priv_import(tc, &cur_key);
		if (cur_rv != CKR_OK)
			printf("\n    group of tcId %d (keySize %d, %s): private key import CK_RV 0x%lx", tc->tc_id,
			       ts_wp_int(tc, "keySize"), ts_wp_str(tc, "sha"), (unsigned long)cur_rv);
	}
	if (!msg || !sig || m.mechanism == CKM_VENDOR_DEFINED) {
		r = 1;
	} else if (cur_rv != CKR_OK) {
		r = ts_wp_valid(tc) || ts_wp_invalid(tc);
		if (!r) extra++;
		if (r) printf("\n    tcId %d: import CK_RV 0x%lx", tc->tc_id, (unsigned long)cur_rv);
	} else {
		rv = pkt_f->C_SignInit(pc_s, &m, cur_key);
		if (rv == CKR_OK)
			rv = pkt_f->C_Sign(pc_s, msg, ml, out, &ol);
		r = verdict(tc, rv == CKR_OK && ol == sl && memcmp(out, sig, sl) == 0);
		if (r) printf("\n    tcId %d: C_Sign CK_RV 0x%lx len %lu (want %zu)", tc->tc_id,
		              (unsigned long)rv, (unsigned long)ol, sl);
	}
	free(msg); free(sig);
	return r;
}

/* RSA public key object from the group's "publicKey". */
static CK_RV rsa_pub_import(const ts_wp_case *tc, CK_OBJECT_HANDLE *h)
{
	json_object *pk, *mo, *eo;
	uint8_t *n = NULL, *e = NULL;
	size_t nl = 0, el = 0;
	CK_OBJECT_CLASS c = CKO_PUBLIC_KEY;
	CK_KEY_TYPE kt = CKK_RSA;
	CK_ATTRIBUTE t[5];
	const uint8_t *np, *ep;
	CK_RV rv = CKR_GENERAL_ERROR;

	*h = 0;
	if (json_object_object_get_ex(tc->group, "publicKey", &pk) &&
	    json_object_object_get_ex(pk, "modulus", &mo) && json_object_object_get_ex(pk, "publicExponent", &eo)) {
		n = ts_unhex(json_object_get_string(mo), &nl);
		e = ts_unhex(json_object_get_string(eo), &el);
	}
	if (n && e) {
		np = strip0(n, &nl);
		ep = strip0(e, &el);
		t[0] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
		t[1] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
		t[2] = (CK_ATTRIBUTE){ CKA_VERIFY, &T, sizeof T };
		t[3] = (CK_ATTRIBUTE){ CKA_MODULUS, (void *)np, nl };
		t[4] = (CK_ATTRIBUTE){ CKA_PUBLIC_EXPONENT, (void *)ep, el };
		rv = pkt_f->C_CreateObject(pc_s, t, 5, h);
		if (rv != CKR_OK)
			*h = 0;
	}
	free(n); free(e);
	return rv;
}

static int ver_result(const ts_wp_case *tc, CK_RV rv)
{
	int r = verdict(tc, rv == CKR_OK);

	if (rv != CKR_OK && rv != CKR_SIGNATURE_INVALID && rv != CKR_SIGNATURE_LEN_RANGE)
		r = 1;
	if (r)
		printf("\n    tcId %d (%s): C_Verify CK_RV 0x%lx", tc->tc_id, tc->result, (unsigned long)rv);
	return r;
}

/* rsa_signature_* (arg NULL) and rsa_pss_* (arg != NULL) verification. */
static int wp_rsaver(const ts_wp_case *tc, void *arg)
{
	CK_MECHANISM_TYPE mgf = 0, h = hash_mech(ts_wp_str(tc, "sha"), &mgf);
	CK_RSA_PKCS_PSS_PARAMS pp;
	CK_MECHANISM m = { pkcs1_sig_mech(ts_wp_str(tc, "sha")), NULL, 0 };
	size_t ml, sl;
	uint8_t *msg = ts_wp_hex(tc, "msg", &ml), *sig = ts_wp_hex(tc, "sig", &sl);
	CK_RV rv;
	int r;

	if (arg) {
		CK_MECHANISM_TYPE mg2 = 0;
		hash_mech(ts_wp_str(tc, "mgfSha"), &mg2);
		pp.hashAlg = h;
		pp.mgf = mg2;
		pp.sLen = (CK_ULONG)ts_wp_int(tc, "sLen");
		m.mechanism = h == CKM_SHA256 ? CKM_SHA256_RSA_PKCS_PSS : CKM_VENDOR_DEFINED;
		m.pParameter = &pp;
		m.ulParameterLen = sizeof pp;
	}
	(void)mgf;
	if (tc->group != cur_group) {
		drop_key();
		cur_group = tc->group;
		cur_rv = rsa_pub_import(tc, &cur_key);
		if (cur_rv != CKR_OK)
			printf("\n    group of tcId %d: public key import CK_RV 0x%lx", tc->tc_id, (unsigned long)cur_rv);
	}
	if (!msg || !sig || cur_rv != CKR_OK || m.mechanism == CKM_VENDOR_DEFINED) {
		r = 1;
	} else {
		rv = pkt_f->C_VerifyInit(pc_s, &m, cur_key);
		if (rv == CKR_OK)
			rv = pkt_f->C_Verify(pc_s, msg, ml, sig, sl);
		r = ver_result(tc, rv);
	}
	free(msg); free(sig);
	return r;
}

/* rsa_oaep_*: C_Decrypt with the file's hash, MGF1 hash and label.
 * Invalid: CKR_ENCRYPTED_DATA_INVALID (CKR_ENCRYPTED_DATA_LEN_RANGE when the
 * ciphertext is not modulus-sized), the output buffer untouched. */
static int wp_oaep(const ts_wp_case *tc, void *arg)
{
	CK_MECHANISM_TYPE mg = 0, h = hash_mech(ts_wp_str(tc, "sha"), NULL);
	CK_RSA_PKCS_OAEP_PARAMS op;
	CK_MECHANISM m = { CKM_RSA_PKCS_OAEP, &op, sizeof op };
	size_t ctl, ml, ll;
	uint8_t *ct = ts_wp_hex(tc, "ct", &ctl), *msg = ts_wp_hex(tc, "msg", &ml), *label = ts_wp_hex(tc, "label", &ll);
	uint8_t out[512], fill[512];
	CK_ULONG ol = sizeof out;
	CK_RV rv;
	int r;

	(void)arg;
	hash_mech(ts_wp_str(tc, "mgfSha"), &mg);
	if (tc->group != cur_group) {
		drop_key();
		cur_group = tc->group;
		cur_rv = rsa_priv_import(tc, &cur_key);
		if (cur_rv != CKR_OK)
			printf("\n    group of tcId %d: private key import CK_RV 0x%lx", tc->tc_id, (unsigned long)cur_rv);
	}
	if (!ct || !msg || !label || cur_rv != CKR_OK) {
		free(ct); free(msg); free(label);
		return 1;
	}
	op.hashAlg = h;
	op.mgf = mg;
	op.source = CKZ_DATA_SPECIFIED;
	op.pSourceData = ll ? label : NULL;
	op.ulSourceDataLen = ll;
	memset(fill, 0xA5, sizeof fill);
	memcpy(out, fill, sizeof out);
	rv = pkt_f->C_DecryptInit(pc_s, &m, cur_key);
	if (rv == CKR_OK)
		rv = pkt_f->C_Decrypt(pc_s, ct, ctl, out, &ol);
	r = verdict(tc, rv == CKR_OK && ol == ml && memcmp(out, msg, ml) == 0);
	if (rv != CKR_OK) {
		if (!(rv == CKR_ENCRYPTED_DATA_INVALID || (rv == CKR_ENCRYPTED_DATA_LEN_RANGE && ctl != 256)))
			r = 1;
		if (memcmp(out, fill, sizeof out) != 0)
			r = 1;
	}
	if (r)
		printf("\n    tcId %d (%s): C_Decrypt CK_RV 0x%lx len %lu (want %zu)", tc->tc_id, tc->result,
		       (unsigned long)rv, (unsigned long)ol, ml);
	free(ct); free(msg); free(label);
	return r;
}

/* DER OCTET STRING around a point (CKA_EC_POINT / ECDH peer form). */
static size_t octet(const uint8_t *p, size_t n, uint8_t *o)
{
	size_t h = 2;

	o[0] = 0x04;
	if (n < 0x80) {
		o[1] = (uint8_t)n;
	} else {
		o[1] = 0x81;
		o[2] = (uint8_t)n;
		h = 3;
	}
	memcpy(o + h, p, n);
	return n + h;
}

/* ecdsa_secp384r1_sha384_p1363: public key object, CKM_ECDSA_SHA384. */
static int wp_ecdsa(const ts_wp_case *tc, void *arg)
{
	CK_MECHANISM m = { CKM_ECDSA_SHA384, NULL, 0 };
	size_t sl, ml;
	uint8_t *sig = ts_wp_hex(tc, "sig", &sl), *msg = ts_wp_hex(tc, "msg", &ml);
	int r;

	(void)arg;
	if (tc->group != cur_group) {
		json_object *pk, *v;
		uint8_t *pt = NULL, ecp[200];
		size_t pl = 0;
		CK_OBJECT_CLASS c = CKO_PUBLIC_KEY;
		CK_KEY_TYPE kt = CKK_EC;
		CK_ATTRIBUTE t[5];
		drop_key();
		cur_group = tc->group;
		cur_rv = CKR_GENERAL_ERROR;
		if (json_object_object_get_ex(tc->group, "publicKey", &pk) &&
		    json_object_object_get_ex(pk, "uncompressed", &v))
			pt = ts_unhex(json_object_get_string(v), &pl);
		if (pt && pl < 190) {
			t[0] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
			t[1] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
			t[2] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)oid_p384, sizeof oid_p384 };
			t[3] = (CK_ATTRIBUTE){ CKA_EC_POINT, ecp, octet(pt, pl, ecp) };
			t[4] = (CK_ATTRIBUTE){ CKA_VERIFY, &T, sizeof T };
			cur_rv = pkt_f->C_CreateObject(pc_s, t, 5, &cur_key);
			if (cur_rv != CKR_OK) {
				cur_key = 0;
				printf("\n    group of tcId %d: public key import CK_RV 0x%lx", tc->tc_id,
				       (unsigned long)cur_rv);
			}
		}
		free(pt);
	}
	if (!sig || !msg || cur_rv != CKR_OK) {
		r = 1;
	} else {
		CK_RV rv = pkt_f->C_VerifyInit(pc_s, &m, cur_key);
		if (rv == CKR_OK)
			rv = pkt_f->C_Verify(pc_s, msg, ml, sig, sl);
		r = ver_result(tc, rv);
		/* the same through raw CKM_ECDSA over the SHA-384 digest */
		if (!r) {
			CK_MECHANISM mr = { CKM_ECDSA, NULL, 0 };
			uint8_t hd[48];
			CK_RV rv2;
			EVP_Digest(msg, ml, hd, NULL, EVP_sha384(), NULL);
			rv2 = pkt_f->C_VerifyInit(pc_s, &mr, cur_key);
			if (rv2 == CKR_OK)
				rv2 = pkt_f->C_Verify(pc_s, hd, 48, sig, sl);
			if ((rv2 == CKR_OK) != (rv == CKR_OK)) {
				r = 1;
				printf("\n    tcId %d: CKM_ECDSA CK_RV 0x%lx, CKM_ECDSA_SHA384 0x%lx", tc->tc_id,
				       (unsigned long)rv2, (unsigned long)rv);
			}
		}
	}
	free(sig); free(msg);
	return r;
}

/* ECDH: "public" is a SubjectPublicKeyInfo; its BIT STRING (the point) is
 * the CKM_ECDH1_DERIVE peer, as a DER OCTET STRING.  A SPKI that names
 * another curve (or explicit parameters) or does not parse is refused by the
 * caller - a PKCS#11 module never sees the SPKI - and counted in extra
 * ("SPKI"), as in test_engine_pk_wp.c. */
static int spki_point(const uint8_t *der, size_t len, int p256, uint8_t *pt, size_t *ptl)
{
	static const uint8_t a256[] = { 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
	                                0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	static const uint8_t a384[] = { 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
	                                0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22 };
	const uint8_t *alg = p256 ? a256 : a384;
	size_t al = p256 ? sizeof a256 : sizeof a384, l;

	if (len < 2 + al + 3 || der[0] != 0x30 || der[1] != len - 2 || memcmp(der + 2, alg, al) != 0)
		return 0;
	der += 2 + al;
	len -= 2 + al;
	l = der[1];
	if (der[0] != 0x03 || l >= 0x80 || l + 2 != len || l < 2 || der[2] != 0)
		return 0;
	*ptl = l - 1;
	memcpy(pt, der + 3, l - 1);
	return 1;
}

/* Lenient: the BIT STRING of any SEQUENCE { SEQUENCE, BIT STRING } (DER
 * lengths), for the informational "module alone" count below. */
static size_t der_len(const uint8_t *p, size_t n, size_t *hl)
{
	size_t l, i, k;

	if (n < 2)
		return (size_t)-1;
	if (p[1] < 0x80) {
		*hl = 2;
		l = p[1];
	} else {
		k = p[1] & 0x7f;
		if (k < 1 || k > 2 || n < 2 + k)
			return (size_t)-1;
		for (l = 0, i = 0; i < k; i++)
			l = (l << 8) | p[2 + i];
		*hl = 2 + k;
	}
	return *hl + l <= n ? l : (size_t)-1;
}

static int spki_any_point(const uint8_t *der, size_t len, uint8_t *pt, size_t *ptl)
{
	size_t hl, l;

	if (len < 2 || der[0] != 0x30 || (l = der_len(der, len, &hl)) == (size_t)-1)
		return 0;
	der += hl; len = l;
	if (len < 2 || der[0] != 0x30 || (l = der_len(der, len, &hl)) == (size_t)-1)
		return 0;
	der += hl + l; len -= hl + l;
	if (len < 3 || der[0] != 0x03 || (l = der_len(der, len, &hl)) == (size_t)-1 || l < 2 ||
	    der[hl] != 0 || l - 1 > 190)
		return 0;
	*ptl = l - 1;
	memcpy(pt, der + hl + 1, l - 1);
	return 1;
}

static int spki_bare, spki_bare_rej;   /* SPKI-rejected cases: bare points tried / refused */

static int wp_ecdh(const ts_wp_case *tc, void *arg)
{
	int p256 = arg == NULL;
	size_t flen = p256 ? 32 : 48, publ, privl, shl, ptl = 0;
	uint8_t *pub = ts_wp_hex(tc, "public", &publ), *priv = ts_wp_hex(tc, "private", &privl);
	uint8_t *sh = ts_wp_hex(tc, "shared", &shl);
	uint8_t pt[200], peer[210], d[48], val[100];
	const uint8_t *dp;
	CK_OBJECT_CLASS c = CKO_PRIVATE_KEY, sc = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_EC, gk = CKK_GENERIC_SECRET;
	CK_ATTRIBUTE t[6];
	CK_ATTRIBUTE st[] = { { CKA_CLASS, &sc, sizeof sc }, { CKA_KEY_TYPE, &gk, sizeof gk },
	                      { CKA_SENSITIVE, &F, sizeof F }, { CKA_EXTRACTABLE, &T, sizeof T },
	                      { CKA_PRIVATE, &F, sizeof F } };
	CK_ECDH1_DERIVE_PARAMS ep;
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &ep, sizeof ep };
	CK_OBJECT_HANDLE k = 0, s = 0;
	CK_RV rv;
	long vl = -1;
	int r;

	if (!pub || !priv || !sh) {
		r = 1;
		goto out;
	}
	/* the scalar as a field-length big-endian integer */
	dp = strip0(priv, &privl);
	if (privl > flen) {
		r = 1;
		goto out;
	}
	memset(d, 0, sizeof d);
	memcpy(d + flen - privl, dp, privl);
	t[0] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
	t[1] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
	t[2] = (CK_ATTRIBUTE){ CKA_PRIVATE, &F, sizeof F };
	t[3] = (CK_ATTRIBUTE){ CKA_DERIVE, &T, sizeof T };
	t[4] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)(p256 ? oid_p256 : oid_p384), p256 ? sizeof oid_p256 : sizeof oid_p384 };
	t[5] = (CK_ATTRIBUTE){ CKA_VALUE, d, flen };
	rv = pkt_f->C_CreateObject(pc_s, t, 6, &k);
	if (rv != CKR_OK) {
		/* Wycheproof's private keys are all valid */
		printf("\n    tcId %d: private key import CK_RV 0x%lx", tc->tc_id, (unsigned long)rv);
		k = 0;
		r = 1;
		goto out;
	}
	memset(&ep, 0, sizeof ep);
	ep.kdf = CKD_NULL;
	if (!spki_point(pub, publ, p256, pt, &ptl)) {
		extra++;
		r = verdict(tc, 0);
		/* The module itself still sees the bare point (if the SPKI holds
		 * one): it must agree with OpenSSL on this curve - refuse what
		 * OpenSSL's public check refuses, and derive OpenSSL's secret from
		 * what it accepts. */
		if (spki_any_point(pub, publ, pt, &ptl)) {
			const char *gn = p256 ? "P-256" : "P-384";
			EVP_PKEY *po = po_ec_from_pub(gn, pt, ptl), *pr = po_ec_from_priv(gn, d, flen);
			int ok = po != NULL && po_pub_check(po);
			uint8_t s2[64];
			size_t n2 = ok && pr ? po_ecdh(pr, po, s2, sizeof s2) : 0;
			ep.pPublicData = peer;
			ep.ulPublicDataLen = octet(pt, ptl, peer);
			rv = pkt_f->C_DeriveKey(pc_s, &m, k, st, 5, &s);
			spki_bare++;
			if (rv == CKR_OK) {
				vl = pc_value(s, val, sizeof val);
				if (!(ok && n2 > 0 && vl == (long)n2 && memcmp(val, s2, n2) == 0))
					r = 1;
			} else {
				spki_bare_rej++;
				if (ok || (rv != CKR_PUBLIC_KEY_INVALID && rv != CKR_MECHANISM_PARAM_INVALID))
					r = 1;
			}
			if (r || getenv("WP4_DEBUG"))
				printf("\n    tcId %d (%s): bare point (%zu bytes) C_DeriveKey CK_RV 0x%lx, OpenSSL %s",
				       tc->tc_id, tc->result, ptl, (unsigned long)rv, ok ? "accepts" : "refuses");
			EVP_PKEY_free(po);
			EVP_PKEY_free(pr);
		}
		goto out;
	}
	ep.pPublicData = peer;
	ep.ulPublicDataLen = octet(pt, ptl, peer);
	rv = pkt_f->C_DeriveKey(pc_s, &m, k, st, 5, &s);
	if (rv == CKR_OK)
		vl = pc_value(s, val, sizeof val);
	r = verdict(tc, rv == CKR_OK && vl == (long)shl && memcmp(val, sh, shl) == 0);
	if (rv != CKR_OK && rv != CKR_PUBLIC_KEY_INVALID && rv != CKR_MECHANISM_PARAM_INVALID)
		r = 1;
	if (r)
		printf("\n    tcId %d (%s): C_DeriveKey CK_RV 0x%lx, value len %ld (want %zu)", tc->tc_id,
		       tc->result, (unsigned long)rv, vl, shl);
out:
	if (s) pkt_f->C_DestroyObject(pc_s, s);
	if (k) pkt_f->C_DestroyObject(pc_s, k);
	free(pub); free(priv); free(sh);
	return r;
}

static void run(const char *f, ts_wp_fn fn, void *arg, const char *xname)
{
	ts_wp_stats st;

	memset(&st, 0, sizeof st);
	cur_group = NULL;
	cur_key = 0;
	acc_yes = acc_no = extra = spki_bare = spki_bare_rej = 0;
	extra_name = xname;
	CU_ASSERT_EQUAL_FATAL(ts_wp_run(f, fn, arg, &st), 0);
	drop_key();
	printf("\n    %s via PKCS#11: %d cases (%d valid, %d invalid, %d acceptable: %d accepted / %d rejected",
	       f, st.total, st.valid, st.invalid, st.acceptable, acc_yes, acc_no);
	if (xname)
		printf(", %s %d", xname, extra);
	if (fn == wp_ecdh)
		printf(" [their bare points through C_DeriveKey: %d, refused %d, as OpenSSL]", spki_bare, spki_bare_rej);
	printf("), %d failed, %d skipped", st.failed, st.skipped);
	CU_ASSERT(st.total > 0);
	CU_ASSERT_EQUAL(st.failed, 0);
	CU_ASSERT_EQUAL(st.skipped, 0);
}

static void t_setup(void) { pc_token(); }
static void t_siggen(void) { run("rsa_pkcs1_2048_sig_gen_test.json", wp_siggen, NULL, "key import refused (acceptable)"); }
static void t_sig(void)
{
	run("rsa_signature_2048_sha256_test.json", wp_rsaver, NULL, NULL);
	run("rsa_signature_3072_sha256_test.json", wp_rsaver, NULL, NULL);
}
static void t_pss(void)
{
	run("rsa_pss_2048_sha256_mgf1_32_test.json", wp_rsaver, (void *)1, NULL);
	run("rsa_pss_3072_sha256_mgf1_32_test.json", wp_rsaver, (void *)1, NULL);
}
static void t_oaep(void)
{
	run("rsa_oaep_2048_sha1_mgf1sha1_test.json", wp_oaep, NULL, NULL);
	run("rsa_oaep_2048_sha256_mgf1sha256_test.json", wp_oaep, NULL, NULL);
}
static void t_ecdsa(void) { run("ecdsa_secp384r1_sha384_p1363_test.json", wp_ecdsa, NULL, NULL); }
static void t_ecdh(void)
{
	run("ecdh_secp256r1_test.json", wp_ecdh, NULL, "SPKI rejected by the caller");
	run("ecdh_secp384r1_test.json", wp_ecdh, (void *)1, "SPKI rejected by the caller");
}

int main(void)
{
	CU_pSuite s = pc_suite("p11pk_wycheproof");

	CU_add_test(s, "token", t_setup);
	CU_add_test(s, "rsa_pkcs1_2048_sig_gen (C_Sign, exact)", t_siggen);
	CU_add_test(s, "rsa_signature_2048/3072_sha256 (C_Verify)", t_sig);
	CU_add_test(s, "rsa_pss_2048/3072_sha256_mgf1_32 (C_Verify)", t_pss);
	CU_add_test(s, "rsa_oaep_2048 sha1/sha256 (C_Decrypt)", t_oaep);
	CU_add_test(s, "ecdsa_secp384r1_sha384_p1363 (C_Verify)", t_ecdsa);
	CU_add_test(s, "ecdh_secp256r1/secp384r1 (C_DeriveKey)", t_ecdh);
	return pc_run();
}
