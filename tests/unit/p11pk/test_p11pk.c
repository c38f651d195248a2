/*
 * test_p11pk.c - public-key keys and mechanisms through the real module
 * (dlopen), OpenSSL as the oracle: C_GenerateKeyPair for RSA, EC P-256 /
 * P-384, Ed25519 and SM2 (objects, CKA_ID pairing, encodings), signatures
 * made by the token verified by OpenSSL and OpenSSL's verified by the token
 * (through C_CreateObject'd public keys), RSA/SM2 decryption of OpenSSL
 * ciphertexts, and bad input with the precise CK_RVs.
 */
#include <stdio.h>
#include <string.h>
#include <openssl/rsa.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <json-c/json.h>

#include "../p11crypto/pc.h"
#include "pk_ossl.h"
#include "tsupport.h"

#ifndef CKM_SHA3_256_RSA_PKCS
#define CKM_SHA3_256_RSA_PKCS 0x60UL
#endif

static CK_BBOOL T = CK_TRUE, F = CK_FALSE;

typedef struct pair { CK_OBJECT_HANDLE pub, priv; } pair;

static CK_RV genpair(CK_MECHANISM_TYPE mech, const uint8_t *ecp, size_t ecpl, CK_ULONG bits, pair *p)
{
	CK_MECHANISM m = { mech, NULL, 0 };
	CK_ATTRIBUTE pt[4], st[4];
	CK_ULONG pn = 0, sn = 0;

	pt[pn++] = (CK_ATTRIBUTE){ CKA_VERIFY, &T, sizeof T };
	pt[pn++] = (CK_ATTRIBUTE){ CKA_ENCRYPT, &T, sizeof T };
	if (ecp)
		pt[pn++] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)ecp, ecpl };
	if (bits)
		pt[pn++] = (CK_ATTRIBUTE){ CKA_MODULUS_BITS, &bits, sizeof bits };
	st[sn++] = (CK_ATTRIBUTE){ CKA_PRIVATE, &F, sizeof F };
	st[sn++] = (CK_ATTRIBUTE){ CKA_SIGN, &T, sizeof T };
	st[sn++] = (CK_ATTRIBUTE){ CKA_DECRYPT, &T, sizeof T };
	if (mech == CKM_EC_KEY_PAIR_GEN)       /* named usages only: ECDH too */
		st[sn++] = (CK_ATTRIBUTE){ CKA_DERIVE, &T, sizeof T };
	return pkt_f->C_GenerateKeyPair(pc_s, &m, pt, pn, st, sn, &p->pub, &p->priv);
}

static long attr(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE t, uint8_t *buf, size_t cap)
{
	CK_ATTRIBUTE a = { t, buf, cap };

	if (pkt_f->C_GetAttributeValue(pc_s, o, &a, 1) != CKR_OK)
		return -1;
	return (long)a.ulValueLen;
}

static CK_RV sign(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const uint8_t *in, size_t n, uint8_t *sig, CK_ULONG *sl)
{
	CK_RV rv = pkt_f->C_SignInit(pc_s, m, k);

	if (rv != CKR_OK)
		return rv;
	return pkt_f->C_Sign(pc_s, (CK_BYTE_PTR)in, n, sig, sl);
}

static CK_RV verify(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const uint8_t *in, size_t n, const uint8_t *sig, CK_ULONG sl)
{
	CK_RV rv = pkt_f->C_VerifyInit(pc_s, m, k);

	if (rv != CKR_OK)
		return rv;
	return pkt_f->C_Verify(pc_s, (CK_BYTE_PTR)in, n, (CK_BYTE_PTR)sig, sl);
}

static CK_RV pk_crypt(int enc, CK_MECHANISM *m, CK_OBJECT_HANDLE k, const uint8_t *in, size_t n, uint8_t *out, CK_ULONG *ol)
{
	CK_RV rv = enc ? pkt_f->C_EncryptInit(pc_s, m, k) : pkt_f->C_DecryptInit(pc_s, m, k);

	if (rv != CKR_OK)
		return rv;
	return enc ? pkt_f->C_Encrypt(pc_s, (CK_BYTE_PTR)in, n, out, ol)
	           : pkt_f->C_Decrypt(pc_s, (CK_BYTE_PTR)in, n, out, ol);
}

static void t_setup(void) { pc_token(); }

static const uint8_t oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const uint8_t oid_p384[] = { 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22 };
static const uint8_t oid_k256[] = { 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a };
static const uint8_t str_ed[] = { 0x13, 0x0c, 'e', 'd', 'w', 'a', 'r', 'd', 's', '2', '5', '5', '1', '9' };
static const uint8_t oid_ed[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };

static void t_rsa(void)
{
	static const struct { CK_MECHANISM_TYPE m; const char *md; } sm[] = {
		{ CKM_SHA1_RSA_PKCS, "SHA1" }, { CKM_SHA224_RSA_PKCS, "SHA224" },
		{ CKM_SHA256_RSA_PKCS, "SHA256" }, { CKM_SHA384_RSA_PKCS, "SHA384" },
		{ CKM_SHA512_RSA_PKCS, "SHA512" }, { CKM_SHA3_256_RSA_PKCS, "SHA3-256" },
	};
	pair p;
	uint8_t n[600], e[8], id1[64], id2[64], msg[333], sig[600], ct[600], pt[600];
	long nl, el, l1, l2;
	CK_ULONG sl, ol, v;
	EVP_PKEY *o;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(genpair(CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0, 2048, &p), CKR_OK);
	nl = attr(p.pub, CKA_MODULUS, n, sizeof n);
	el = attr(p.pub, CKA_PUBLIC_EXPONENT, e, sizeof e);
	CU_ASSERT_EQUAL(nl, 256);
	CU_ASSERT_EQUAL(attr(p.priv, CKA_MODULUS, pt, sizeof pt), 256);
	CU_ASSERT(memcmp(pt, n, 256) == 0);
	CU_ASSERT_EQUAL(attr(p.pub, CKA_MODULUS_BITS, (uint8_t *)&v, sizeof v), sizeof v);
	CU_ASSERT_EQUAL(v, 2048);
	l1 = attr(p.pub, CKA_ID, id1, sizeof id1);
	l2 = attr(p.priv, CKA_ID, id2, sizeof id2);
	CU_ASSERT(l1 > 0 && l1 == l2 && memcmp(id1, id2, (size_t)l1) == 0);
	CU_ASSERT_EQUAL(attr(p.priv, CKA_KEY_GEN_MECHANISM, (uint8_t *)&v, sizeof v), sizeof v);
	CU_ASSERT_EQUAL(v, CKM_RSA_PKCS_KEY_PAIR_GEN);
	CU_ASSERT_EQUAL(attr(p.priv, CKA_PRIVATE_EXPONENT, pt, sizeof pt), -1);
	o = po_rsa_pub(n, (size_t)nl, e, (size_t)el);
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT(po_pub_check(o));
	ts_rand(msg, sizeof msg);
	for (i = 0; i < sizeof sm / sizeof sm[0]; i++) {
		CK_MECHANISM m = { sm[i].m, NULL, 0 };
		const EVP_MD *md = EVP_get_digestbyname(sm[i].md);
		sl = sizeof sig;
		CU_ASSERT_EQUAL(sign(&m, p.priv, msg, sizeof msg, sig, &sl), CKR_OK);
		CU_ASSERT(po_verify(o, md, RSA_PKCS1_PADDING, 0, NULL, msg, sizeof msg, sig, sl));
		CU_ASSERT_EQUAL(verify(&m, p.pub, msg, sizeof msg, sig, sl), CKR_OK);
		sig[5] ^= 1;
		CU_ASSERT_EQUAL(verify(&m, p.pub, msg, sizeof msg, sig, sl), CKR_SIGNATURE_INVALID);
		CU_ASSERT_EQUAL(verify(&m, p.pub, msg, sizeof msg, sig, sl - 1), CKR_SIGNATURE_LEN_RANGE);
	}
	/* multi-part */
	{
		CK_MECHANISM m = { CKM_SHA256_RSA_PKCS, NULL, 0 };
		CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &m, p.priv), CKR_OK);
		CU_ASSERT_EQUAL(pkt_f->C_SignUpdate(pc_s, msg, 100), CKR_OK);
		CU_ASSERT_EQUAL(pkt_f->C_SignUpdate(pc_s, msg + 100, sizeof msg - 100), CKR_OK);
		sl = 0;
		CU_ASSERT_EQUAL(pkt_f->C_SignFinal(pc_s, NULL, &sl), CKR_OK);
		CU_ASSERT_EQUAL(sl, 256);
		CU_ASSERT_EQUAL(pkt_f->C_SignFinal(pc_s, sig, &sl), CKR_OK);
		CU_ASSERT(po_verify(o, EVP_sha256(), RSA_PKCS1_PADDING, 0, NULL, msg, sizeof msg, sig, sl));
	}
	/* PSS */
	{
		CK_RSA_PKCS_PSS_PARAMS pp = { CKM_SHA256, CKG_MGF1_SHA256, 32 };
		CK_MECHANISM m = { CKM_SHA256_RSA_PKCS_PSS, &pp, sizeof pp };
		sl = sizeof sig;
		CU_ASSERT_EQUAL(sign(&m, p.priv, msg, sizeof msg, sig, &sl), CKR_OK);
		CU_ASSERT(po_verify(o, EVP_sha256(), RSA_PKCS1_PSS_PADDING, 32, NULL, msg, sizeof msg, sig, sl));
		CU_ASSERT_EQUAL(verify(&m, p.pub, msg, sizeof msg, sig, sl), CKR_OK);
	}
	/* OAEP with a label: OpenSSL encrypts, the token decrypts */
	{
		static uint8_t label[] = "label";
		CK_RSA_PKCS_OAEP_PARAMS op = { CKM_SHA256, CKG_MGF1_SHA256, CKZ_DATA_SPECIFIED, label, 5 };
		CK_MECHANISM m = { CKM_RSA_PKCS_OAEP, &op, sizeof op };
		long cl = po_encrypt(o, RSA_PKCS1_OAEP_PADDING, EVP_sha256(), EVP_sha256(), label, 5, msg, 100, ct, sizeof ct);
		CU_ASSERT_EQUAL_FATAL(cl, 256);
		ol = sizeof pt;
		CU_ASSERT_EQUAL(pk_crypt(0, &m, p.priv, ct, 256, pt, &ol), CKR_OK);
		CU_ASSERT(ol == 100 && memcmp(pt, msg, 100) == 0);
		ct[7] ^= 1;
		ol = sizeof pt;
		CU_ASSERT_EQUAL(pk_crypt(0, &m, p.priv, ct, 256, pt, &ol), CKR_ENCRYPTED_DATA_INVALID);
		ol = sizeof pt;
		CU_ASSERT_EQUAL(pk_crypt(0, &m, p.priv, ct, 255, pt, &ol), CKR_ENCRYPTED_DATA_LEN_RANGE);
		/* token encrypts (public object), token decrypts */
		ol = sizeof ct;
		CU_ASSERT_EQUAL(pk_crypt(1, &m, p.pub, msg, 50, ct, &ol), CKR_OK);
		ol = sizeof pt;
		CU_ASSERT_EQUAL(pk_crypt(0, &m, p.priv, ct, 256, pt, &ol), CKR_OK);
		CU_ASSERT(ol == 50 && memcmp(pt, msg, 50) == 0);
	}
	/* PKCS#1 v1.5 encryption from OpenSSL */
	{
		CK_MECHANISM m = { CKM_RSA_PKCS, NULL, 0 };
		long cl = po_encrypt(o, RSA_PKCS1_PADDING, NULL, NULL, NULL, 0, msg, 64, ct, sizeof ct);
		ol = sizeof pt;
		CU_ASSERT_EQUAL(pk_crypt(0, &m, p.priv, ct, (size_t)cl, pt, &ol), CKR_OK);
		CU_ASSERT(ol == 64 && memcmp(pt, msg, 64) == 0);
		ct[9] ^= 0x40;
		ol = sizeof pt;
		CU_ASSERT_EQUAL(pk_crypt(0, &m, p.priv, ct, (size_t)cl, pt, &ol), CKR_ENCRYPTED_DATA_INVALID);
	}
	EVP_PKEY_free(o);
}

static void ec_one(const uint8_t *oid, size_t oidl, const char *g, size_t flen)
{
	pair p;
	uint8_t pt[120], msg[99], sig[100], der[120];
	long l;
	CK_ULONG sl;
	CK_MECHANISM m = { CKM_ECDSA_SHA256, NULL, 0 };
	EVP_PKEY *o;

	CU_ASSERT_EQUAL_FATAL(genpair(CKM_EC_KEY_PAIR_GEN, oid, oidl, 0, &p), CKR_OK);
	l = attr(p.pub, CKA_EC_POINT, pt, sizeof pt);
	CU_ASSERT_EQUAL_FATAL(l, (long)(2 * flen + 3));
	CU_ASSERT(pt[0] == 0x04 && pt[1] == 2 * flen + 1 && pt[2] == 0x04);
	o = po_ec_from_pub(g, pt + 2, (size_t)l - 2);
	CU_ASSERT_FATAL(o != NULL);
	CU_ASSERT(po_pub_check(o));
	ts_rand(msg, sizeof msg);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(sign(&m, p.priv, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT_EQUAL(sl, 2 * flen);
	CU_ASSERT(po_verify(o, EVP_sha256(), 0, 0, NULL, msg, sizeof msg, der, po_rs2der(sig, flen, der)));
	CU_ASSERT_EQUAL(verify(&m, p.pub, msg, sizeof msg, sig, sl), CKR_OK);
	CU_ASSERT_EQUAL(verify(&m, p.pub, msg, sizeof msg, sig, sl + 1), CKR_SIGNATURE_LEN_RANGE);
	/* raw CKM_ECDSA over a digest */
	{
		CK_MECHANISM mr = { CKM_ECDSA, NULL, 0 };
		uint8_t h[32];
		EVP_Digest(msg, sizeof msg, h, NULL, EVP_sha256(), NULL);
		CU_ASSERT_EQUAL(verify(&mr, p.pub, h, 32, sig, sl), CKR_OK);
		sl = sizeof sig;
		CU_ASSERT_EQUAL(sign(&mr, p.priv, h, 32, sig, &sl), CKR_OK);
		CU_ASSERT(po_verify_hash(o, NULL, 0, 0, h, 32, der, po_rs2der(sig, flen, der)));
	}
	EVP_PKEY_free(o);
}

static void t_p256(void) { ec_one(oid_p256, sizeof oid_p256, "P-256", 32); }
static void t_p384(void) { ec_one(oid_p384, sizeof oid_p384, "P-384", 48); }

static void t_ed25519(void)
{
	pair p, p2;
	uint8_t pt[40], msg[50], sig[64];
	CK_ULONG sl = sizeof sig;
	CK_MECHANISM m = { CKM_EDDSA, NULL, 0 };
	EVP_PKEY *o;

	CU_ASSERT_EQUAL_FATAL(genpair(CKM_EC_EDWARDS_KEY_PAIR_GEN, str_ed, sizeof str_ed, 0, &p), CKR_OK);
	CU_ASSERT_EQUAL(genpair(CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_ed, sizeof oid_ed, 0, &p2), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(attr(p.pub, CKA_EC_POINT, pt, sizeof pt), 32);
	o = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pt, 32);
	ts_rand(msg, sizeof msg);
	CU_ASSERT_EQUAL(sign(&m, p.priv, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT(sl == 64 && po_verify(o, NULL, 0, 0, NULL, msg, sizeof msg, sig, 64));
	CU_ASSERT_EQUAL(verify(&m, p.pub, msg, sizeof msg, sig, 64), CKR_OK);
	CU_ASSERT_EQUAL(verify(&m, p2.pub, msg, sizeof msg, sig, 64), CKR_SIGNATURE_INVALID);
	EVP_PKEY_free(o);
}

static void t_sm2(void)
{
	static const uint8_t id[] = "bob@example.com";
	pair p;
	uint8_t pt[80], msg[70], sig[64], ct[300], der[400], out[300];
	CK_ULONG sl = sizeof sig, ol;
	CK_MECHANISM m = { CKM_PV_SM2_SM3, NULL, 0 };
	CK_MECHANISM mi = { CKM_PV_SM2_SM3, (void *)id, sizeof id - 1 };
	CK_MECHANISM me = { CKM_PV_SM2_ENCRYPT, NULL, 0 };
	EVP_PKEY *o;
	long l;

	CU_ASSERT_EQUAL_FATAL(genpair(CKM_PV_SM2_KEY_PAIR_GEN, NULL, 0, 0, &p), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(attr(p.pub, CKA_EC_POINT, pt, sizeof pt), 67);
	o = po_ec_from_pub("SM2", pt + 2, 65);
	CU_ASSERT_FATAL(o != NULL);
	ts_rand(msg, sizeof msg);
	CU_ASSERT_EQUAL(sign(&m, p.priv, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT(po_sm2_verify(o, NULL, 0, msg, sizeof msg, sig));
	CU_ASSERT_EQUAL(verify(&m, p.pub, msg, sizeof msg, sig, 64), CKR_OK);
	CU_ASSERT_EQUAL(verify(&mi, p.pub, msg, sizeof msg, sig, 64), CKR_SIGNATURE_INVALID);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(sign(&mi, p.priv, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT(po_sm2_verify(o, id, sizeof id - 1, msg, sizeof msg, sig));
	/* OpenSSL encrypts to the token's key; the token decrypts */
	l = po_encrypt(o, 0, NULL, NULL, NULL, 0, msg, 40, der, sizeof der);
	CU_ASSERT_FATAL(l > 0);
	l = po_sm2_der2raw(der, (size_t)l, ct, sizeof ct);
	CU_ASSERT_EQUAL_FATAL(l, 137);
	ol = sizeof out;
	CU_ASSERT_EQUAL(pk_crypt(0, &me, p.priv, ct, (size_t)l, out, &ol), CKR_OK);
	CU_ASSERT(ol == 40 && memcmp(out, msg, 40) == 0);
	ol = sizeof ct;
	CU_ASSERT_EQUAL(pk_crypt(1, &me, p.pub, msg, 30, ct, &ol), CKR_OK);
	CU_ASSERT_EQUAL(ol, 127);
	ol = sizeof out;
	CU_ASSERT_EQUAL(pk_crypt(0, &me, p.priv, ct, 127, out, &ol), CKR_OK);
	CU_ASSERT(ol == 30 && memcmp(out, msg, 30) == 0);
	EVP_PKEY_free(o);
}

static void t_bad(void)
{
	pair p;
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)oid_p256, sizeof oid_p256 } };
	CK_ATTRIBUTE st[] = { { CKA_SIGN, &T, sizeof T } };
	uint8_t explicit_params[] = { 0x30, 0x03, 0x02, 0x01, 0x01 };

	CU_ASSERT_EQUAL(genpair(CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0, 512, &p), CKR_KEY_SIZE_RANGE);
	CU_ASSERT_EQUAL(genpair(CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0, 8192, &p), CKR_KEY_SIZE_RANGE);
	CU_ASSERT_EQUAL(genpair(CKM_EC_KEY_PAIR_GEN, oid_k256, sizeof oid_k256, 0, &p), CKR_CURVE_NOT_SUPPORTED);
	CU_ASSERT_EQUAL(genpair(CKM_EC_KEY_PAIR_GEN, explicit_params, sizeof explicit_params, 0, &p), CKR_DOMAIN_PARAMS_INVALID);
	CU_ASSERT_EQUAL(genpair(CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_p256, sizeof oid_p256, 0, &p), CKR_CURVE_NOT_SUPPORTED);
	/* private keys are CKA_PRIVATE by default: no login, no key */
	CU_ASSERT_EQUAL(pkt_f->C_GenerateKeyPair(pc_s, &m, pt, 1, st, 1, &p.pub, &p.priv), CKR_USER_NOT_LOGGED_IN);
	/* a CKA_KEY_TYPE of the right length without a value is refused, not
	 * read (it was dereferenced before); another key type is inconsistent */
	{
		CK_KEY_TYPE rsa = CKK_RSA;
		CK_ATTRIBUTE pk[2] = { { CKA_EC_PARAMS, (void *)oid_p256, sizeof oid_p256 },
		                       { CKA_KEY_TYPE, NULL, sizeof(CK_KEY_TYPE) } };
		CK_ATTRIBUTE sk[2] = { { CKA_SIGN, &T, sizeof T }, { CKA_PRIVATE, &F, sizeof F } };
		CU_ASSERT_EQUAL(pkt_f->C_GenerateKeyPair(pc_s, &m, pk, 2, sk, 2, &p.pub, &p.priv),
		                CKR_ATTRIBUTE_VALUE_INVALID);
		pk[1].pValue = &rsa;
		CU_ASSERT_EQUAL(pkt_f->C_GenerateKeyPair(pc_s, &m, pk, 2, sk, 2, &p.pub, &p.priv),
		                CKR_TEMPLATE_INCONSISTENT);
	}
}

/* A session has one operation of each kind, whichever family started it:
 * a public-key signature refuses an HMAC's C_SignInit and the other way
 * round, and the session's answers come before a bad mechanism's. */
static void t_one_op_a_kind(void)
{
	pair p;
	uint8_t kv[32] = { 1 }, msg[8] = { 2 }, sig[80];
	CK_ULONG sl;
	CK_MECHANISM ec = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_MECHANISM hm = { CKM_SHA256_HMAC, NULL, 0 };
	CK_MECHANISM bogus = { 0x7fff1234, NULL, 0 };
	CK_OBJECT_HANDLE k;

	CU_ASSERT_EQUAL_FATAL(genpair(CKM_EC_KEY_PAIR_GEN, oid_p256, sizeof oid_p256, 0, &p), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(pc_key(CKK_GENERIC_SECRET, kv, sizeof kv, 0, &k), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &ec, p.priv), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &hm, k), CKR_OPERATION_ACTIVE);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &ec, p.priv), CKR_OPERATION_ACTIVE);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &bogus, k), CKR_OPERATION_ACTIVE);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(0x7ffff, &bogus, k), CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(0x7ffff, NULL, k), CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT_EQUAL(pkt_f->C_Sign(0x7ffff, msg, sizeof msg, NULL, NULL), CKR_SESSION_HANDLE_INVALID);
	/* refusals that leave the operation as it was */
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, NULL, NULL), CKR_ARGUMENTS_BAD);
	sl = 8;
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_BUFFER_TOO_SMALL);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &hm, k), CKR_OPERATION_ACTIVE);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT_EQUAL(sl, 64);
	/* the signature ended it: now the HMAC, which refuses ECDSA in turn */
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &hm, k), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &ec, p.priv), CKR_OPERATION_ACTIVE);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &bogus, k), CKR_OPERATION_ACTIVE);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT_EQUAL(sl, 32);
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &ec, p.priv), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_SignUpdate(pc_s, msg, sizeof msg), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_SignFinal(pc_s, sig, NULL), CKR_ARGUMENTS_BAD);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(pkt_f->C_SignFinal(pc_s, sig, &sl), CKR_OK);
	CU_ASSERT_EQUAL(sl, 64);
	/* a digest beside an ECDSA signature: its state alone is not the
	 * session's state (CKR_STATE_UNSAVEABLE), without it it is */
	{
		CK_MECHANISM sha = { CKM_SHA256, NULL, 0 };
		uint8_t st[1024];
		CK_ULONG stl = sizeof st;
		CU_ASSERT_EQUAL(pkt_f->C_DigestInit(pc_s, &sha), CKR_OK);
		CU_ASSERT_EQUAL(pkt_f->C_DigestUpdate(pc_s, msg, sizeof msg), CKR_OK);
		CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &ec, p.priv), CKR_OK);
		CU_ASSERT_EQUAL(pkt_f->C_GetOperationState(pc_s, st, &stl), CKR_STATE_UNSAVEABLE);
		sl = sizeof sig;
		CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_OK);
		stl = sizeof st;
		CU_ASSERT_EQUAL(pkt_f->C_GetOperationState(pc_s, st, &stl), CKR_OK);
		sl = sizeof sig;
		CU_ASSERT_EQUAL(pkt_f->C_DigestFinal(pc_s, sig, &sl), CKR_OK);
		CU_ASSERT_EQUAL(sl, 32);
	}
}

/* A forked child's C_Initialize drops the parent's operations: a session
 * of the child that gets the handle of a parent session with a signature
 * and a digest in progress starts with no operation (it found the
 * parent's signature before, and C_Sign ran it with the parent's key). */
static void t_fork_active_op(void)
{
	pair p;
	CK_MECHANISM ec = { CKM_ECDSA_SHA256, NULL, 0 };
	pid_t pid;
	int st = -1;

	CU_ASSERT_EQUAL_FATAL(genpair(CKM_EC_KEY_PAIR_GEN, oid_p256, sizeof oid_p256, 0, &p), CKR_OK);
	CK_MECHANISM sha = { CKM_SHA256, NULL, 0 };

	CU_ASSERT_EQUAL_FATAL(pkt_f->C_SignInit(pc_s, &ec, p.priv), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_DigestInit(pc_s, &sha), CKR_OK);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		CK_SESSION_HANDLE ch = CK_INVALID_HANDLE;
		uint8_t msg[8] = { 0 }, sig[80];
		CK_ULONG sl = sizeof sig;
		int i, bad = 0;

		if (pkt_f->C_Initialize(NULL) != CKR_OK)
			_exit(1);
		for (i = 0; i < 64 && ch != pc_s; i++)
			if (pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION, NULL, NULL, &ch) != CKR_OK)
				_exit(2);
		if (ch != pc_s)
			_exit(3);
		if (pkt_f->C_Sign(ch, msg, sizeof msg, sig, &sl) != CKR_OPERATION_NOT_INITIALIZED)
			bad |= 4;
		if (pkt_f->C_SignInit(ch, &ec, 0x7ffff) != CKR_KEY_HANDLE_INVALID)
			bad |= 8;
		if (pkt_f->C_DigestUpdate(ch, msg, sizeof msg) != CKR_OPERATION_NOT_INITIALIZED)
			bad |= 32;
		if (pkt_f->C_DigestInit(ch, &sha) != CKR_OK)
			bad |= 64;
		if (pkt_f->C_Finalize(NULL) != CKR_OK)
			bad |= 16;
		_exit(bad);
	}
	CU_ASSERT(waitpid(pid, &st, 0) == pid);
	CU_ASSERT(WIFEXITED(st));
	CU_ASSERT_EQUAL(WEXITSTATUS(st), 0);
	/* the parent's signature goes on */
	{
		uint8_t msg[8] = { 0 }, sig[80];
		CK_ULONG sl = sizeof sig;
		CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_OK);
		CU_ASSERT_EQUAL(sl, 64);
		sl = sizeof sig;
		CU_ASSERT_EQUAL(pkt_f->C_DigestFinal(pc_s, sig, &sl), CKR_OK);
		CU_ASSERT_EQUAL(sl, 32);
	}
}

/* ---- import (C_CreateObject) ---------------------------------------------------- */

static CK_OBJECT_HANDLE find_pub(CK_OBJECT_HANDLE priv)
{
	uint8_t id[64];
	long il = attr(priv, CKA_ID, id, sizeof id);
	CK_OBJECT_CLASS c = CKO_PUBLIC_KEY;
	CK_ATTRIBUTE t[2] = { { CKA_CLASS, &c, sizeof c }, { CKA_ID, id, (CK_ULONG)il } };
	CK_OBJECT_HANDLE h[2];
	CK_ULONG n = 0;

	if (il <= 0 || pkt_f->C_FindObjectsInit(pc_s, t, 2) != CKR_OK)
		return 0;
	pkt_f->C_FindObjects(pc_s, h, 2, &n);
	pkt_f->C_FindObjectsFinal(pc_s);
	return n == 1 ? h[0] : 0;
}

static CK_RV import_rsa(EVP_PKEY *o, CK_OBJECT_HANDLE *h)
{
	static const CK_ATTRIBUTE_TYPE f[8] = { CKA_MODULUS, CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT,
		CKA_PRIME_1, CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
	static uint8_t v[8][520];
	CK_OBJECT_CLASS c = CKO_PRIVATE_KEY;
	CK_KEY_TYPE kt = CKK_RSA;
	CK_ATTRIBUTE t[14];
	CK_ULONG n = 0;
	int i;

	t[n++] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
	t[n++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
	t[n++] = (CK_ATTRIBUTE){ CKA_PRIVATE, &F, sizeof F };
	t[n++] = (CK_ATTRIBUTE){ CKA_SIGN, &T, sizeof T };
	t[n++] = (CK_ATTRIBUTE){ CKA_DECRYPT, &T, sizeof T };
	for (i = 0; i < 8; i++)
		t[n++] = (CK_ATTRIBUTE){ f[i], v[i], po_rsa_comp(o, i, v[i], sizeof v[i]) };
	return pkt_f->C_CreateObject(pc_s, t, n, h);
}

static CK_RV import_ec(CK_KEY_TYPE kt, const uint8_t *oid, size_t oidl, const uint8_t *d, size_t dl,
                       CK_OBJECT_HANDLE *h)
{
	CK_OBJECT_CLASS c = CKO_PRIVATE_KEY;
	CK_ATTRIBUTE t[7];
	CK_ULONG n = 0;

	t[n++] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
	t[n++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
	t[n++] = (CK_ATTRIBUTE){ CKA_PRIVATE, &F, sizeof F };
	t[n++] = (CK_ATTRIBUTE){ CKA_SIGN, &T, sizeof T };
	t[n++] = (CK_ATTRIBUTE){ CKA_DERIVE, &T, sizeof T };
	if (oid)
		t[n++] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)oid, oidl };
	t[n++] = (CK_ATTRIBUTE){ CKA_VALUE, (void *)d, dl };
	return pkt_f->C_CreateObject(pc_s, t, n, h);
}

static void t_import(void)
{
	EVP_PKEY *o = po_rsa_gen(2048), *e = po_ec_gen("P-256");
	CK_OBJECT_HANDLE k, pub;
	CK_MECHANISM m = { CKM_SHA384_RSA_PKCS, NULL, 0 };
	CK_MECHANISM me = { CKM_ECDSA_SHA256, NULL, 0 };
	uint8_t msg[77], sig[512], sig2[512], d[32], der[100], rs[64], zero[32];
	CK_ULONG sl = sizeof sig;
	size_t sl2;

	ts_rand(msg, sizeof msg);
	CU_ASSERT_EQUAL_FATAL(import_rsa(o, &k), CKR_OK);
	pub = find_pub(k);
	CU_ASSERT_FATAL(pub != 0);
	CU_ASSERT_EQUAL(attr(k, CKA_PRIVATE_EXPONENT, sig, sizeof sig), -1);
	CU_ASSERT_EQUAL(sign(&m, k, msg, sizeof msg, sig, &sl), CKR_OK);
	sl2 = po_sign(o, EVP_sha384(), RSA_PKCS1_PADDING, 0, NULL, msg, sizeof msg, sig2, sizeof sig2);
	CU_ASSERT(sl == 256 && sl2 == 256 && memcmp(sig, sig2, 256) == 0);
	CU_ASSERT_EQUAL(verify(&m, pub, msg, sizeof msg, sig2, sl2), CKR_OK);
	/* EC: OpenSSL's signature verifies with the public object, ours with OpenSSL */
	CU_ASSERT_FATAL(po_ec_priv(e, d, 32) == 32);
	CU_ASSERT_EQUAL_FATAL(import_ec(CKK_EC, oid_p256, sizeof oid_p256, d, 32, &k), CKR_OK);
	pub = find_pub(k);
	CU_ASSERT_FATAL(pub != 0);
	sl2 = po_sign(e, EVP_sha256(), 0, 0, NULL, msg, sizeof msg, der, sizeof der);
	CU_ASSERT_FATAL(po_der2rs(der, sl2, 32, rs));
	CU_ASSERT_EQUAL(verify(&me, pub, msg, sizeof msg, rs, 64), CKR_OK);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(sign(&me, k, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT(po_verify(e, EVP_sha256(), 0, 0, NULL, msg, sizeof msg, der, po_rs2der(sig, 32, der)));
	/* bad material */
	memset(zero, 0, sizeof zero);
	CU_ASSERT_EQUAL(import_ec(CKK_EC, oid_p256, sizeof oid_p256, zero, 32, &k), CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT_EQUAL(import_ec(CKK_EC, oid_k256, sizeof oid_k256, d, 32, &k), CKR_CURVE_NOT_SUPPORTED);
	CU_ASSERT_EQUAL(import_ec(CKK_EC, NULL, 0, d, 32, &k), CKR_TEMPLATE_INCOMPLETE);
	EVP_PKEY_free(o);
	EVP_PKEY_free(e);
}

static const uint8_t oid_sm2[] = { 0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d };

/* C_CreateObject of an EC public key of type kt (CKA_EC_POINT: DER OCTET
 * STRING, or the bare point when der is 0). */
static CK_RV import_ec_pub(CK_KEY_TYPE kt, const uint8_t *oid, size_t oidl, const uint8_t *pub,
                           size_t pl, int der, CK_OBJECT_HANDLE *h)
{
	CK_OBJECT_CLASS c = CKO_PUBLIC_KEY;
	uint8_t pt[2 + 97];
	CK_ATTRIBUTE t[5];
	CK_ULONG n = 0;

	if (pl > 97)
		return CKR_ARGUMENTS_BAD;
	pt[0] = 0x04;
	pt[1] = (uint8_t)pl;
	memcpy(pt + 2, pub, pl);
	t[n++] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
	t[n++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
	t[n++] = (CK_ATTRIBUTE){ CKA_VERIFY, &T, sizeof T };
	t[n++] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)oid, oidl };
	t[n++] = (CK_ATTRIBUTE){ CKA_EC_POINT, der ? pt : pt + 2, der ? pl + 2 : pl };
	return pkt_f->C_CreateObject(pc_s, t, n, h);
}

static CK_RV import_sm2_pub(const uint8_t *oid, size_t oidl, const uint8_t *pub, size_t pl,
                            int der, CK_OBJECT_HANDLE *h)
{
	return import_ec_pub(CKK_PV_SM2, oid, oidl, pub, pl, der, h);
}

/* A bare point whose second byte is its own length minus 2 (X starts
 * with 0x3f on P-256 / SM2, 0x5f on P-384) reads as a DER OCTET STRING
 * too; it is the bare point: OpenSSL's signatures verify with it.  The
 * keys are d = 1, 2, 3, ... up to the first such X, so the test is the
 * same every run (a random key hits it once in 256 runs). */
static void t_bare_point_like_der(void)
{
	static const struct { const char *group; CK_KEY_TYPE kt; const uint8_t *oid; size_t oidl, flen; } cv[] = {
		{ "P-256", CKK_EC, oid_p256, sizeof oid_p256, 32 },
		{ "P-384", CKK_EC, oid_p384, sizeof oid_p384, 48 },
		{ "SM2", CKK_PV_SM2, oid_sm2, sizeof oid_sm2, 32 },
	};
	uint8_t msg[40], pub[100], d[48], der[120], rs[96];
	size_t i, pl, sl;

	ts_rand(msg, sizeof msg);
	for (i = 0; i < sizeof cv / sizeof cv[0]; i++) {
		CK_MECHANISM m = { cv[i].kt == CKK_EC ? CKM_ECDSA_SHA256 : CKM_PV_SM2_SM3, NULL, 0 };
		CK_OBJECT_HANDLE h, hd;
		EVP_PKEY *e = NULL;
		uint32_t k;

		for (k = 1; k < 5000; k++) {
			memset(d, 0, sizeof d);
			d[cv[i].flen - 2] = (uint8_t)(k >> 8);
			d[cv[i].flen - 1] = (uint8_t)k;
			e = po_ec_from_priv(cv[i].group, d, cv[i].flen);
			CU_ASSERT_FATAL(e != NULL);
			pl = po_ec_pub(e, pub, sizeof pub);
			if (pub[1] == pl - 2)
				break;
			EVP_PKEY_free(e);
			e = NULL;
		}
		CU_ASSERT_FATAL(e != NULL);
		if (cv[i].kt == CKK_EC) {
			sl = po_sign(e, EVP_sha256(), 0, 0, NULL, msg, sizeof msg, der, sizeof der);
			CU_ASSERT_FATAL(sl > 0 && po_der2rs(der, sl, cv[i].flen, rs));
		} else {
			CU_ASSERT_FATAL(po_sm2_sign(e, NULL, 0, msg, sizeof msg, rs));
		}
		CU_ASSERT_EQUAL_FATAL(import_ec_pub(cv[i].kt, cv[i].oid, cv[i].oidl, pub, pl, 0, &h), CKR_OK);
		CU_ASSERT_EQUAL_FATAL(import_ec_pub(cv[i].kt, cv[i].oid, cv[i].oidl, pub, pl, 1, &hd), CKR_OK);
		CU_ASSERT_EQUAL(verify(&m, h, msg, sizeof msg, rs, 2 * cv[i].flen), CKR_OK);
		CU_ASSERT_EQUAL(verify(&m, hd, msg, sizeof msg, rs, 2 * cv[i].flen), CKR_OK);
		rs[3] ^= 1;
		CU_ASSERT_EQUAL(verify(&m, h, msg, sizeof msg, rs, 2 * cv[i].flen), CKR_SIGNATURE_INVALID);
		pkt_f->C_DestroyObject(pc_s, h);
		pkt_f->C_DestroyObject(pc_s, hd);
		EVP_PKEY_free(e);
	}
}

/* An OpenSSL-made SM2 public key imported: OpenSSL's SM2-with-SM3
 * signatures (default ID) verify with it, tampered ones do not. */
static void t_sm2_pub_import(void)
{
	static const uint8_t id[] = "bob@example.com";
	EVP_PKEY *e = po_ec_gen("SM2");
	CK_MECHANISM m = { CKM_PV_SM2_SM3, NULL, 0 };
	CK_MECHANISM mi = { CKM_PV_SM2_SM3, (void *)id, sizeof id - 1 };
	CK_OBJECT_HANDLE h, hraw, hbad;
	CK_KEY_TYPE kt = 0;
	uint8_t pub[80], msg[61], rs[64], bad[64], got[80];
	size_t pl;
	int i;

	CU_ASSERT_FATAL(e != NULL);
	pl = po_ec_pub(e, pub, sizeof pub);
	CU_ASSERT_EQUAL_FATAL(pl, 65);
	CU_ASSERT_EQUAL_FATAL(import_sm2_pub(oid_sm2, sizeof oid_sm2, pub, pl, 1, &h), CKR_OK);
	CU_ASSERT_EQUAL(attr(h, CKA_KEY_TYPE, (uint8_t *)&kt, sizeof kt), (long)sizeof kt);
	CU_ASSERT_EQUAL(kt, CKK_PV_SM2);
	CU_ASSERT_EQUAL(attr(h, CKA_EC_PARAMS, got, sizeof got), (long)sizeof oid_sm2);
	CU_ASSERT(memcmp(got, oid_sm2, sizeof oid_sm2) == 0);
	CU_ASSERT_EQUAL(import_sm2_pub(oid_sm2, sizeof oid_sm2, pub, pl, 0, &hraw), CKR_OK);
	for (i = 0; i < 4; i++) {
		ts_rand(msg, sizeof msg);
		CU_ASSERT_FATAL(po_sm2_sign(e, NULL, 0, msg, sizeof msg, rs));
		CU_ASSERT_EQUAL(verify(&m, h, msg, sizeof msg, rs, 64), CKR_OK);
		CU_ASSERT_EQUAL(verify(&m, hraw, msg, sizeof msg, rs, 64), CKR_OK);
		/* the signature, the message, or the ID changed: refused */
		memcpy(bad, rs, 64);
		bad[i * 16 + 5] ^= 0x01;
		CU_ASSERT_EQUAL(verify(&m, h, msg, sizeof msg, bad, 64), CKR_SIGNATURE_INVALID);
		msg[i] ^= 0x80;
		CU_ASSERT_EQUAL(verify(&m, h, msg, sizeof msg, rs, 64), CKR_SIGNATURE_INVALID);
		msg[i] ^= 0x80;
		CU_ASSERT_EQUAL(verify(&mi, h, msg, sizeof msg, rs, 64), CKR_SIGNATURE_INVALID);
	}
	/* a point on the SM2 curve under another curve's OID: not an SM2 key */
	CU_ASSERT_EQUAL(import_sm2_pub(oid_p256, sizeof oid_p256, pub, pl, 1, &hbad), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_VerifyInit(pc_s, &m, hbad), CKR_CURVE_NOT_SUPPORTED);
	pkt_f->C_DestroyObject(pc_s, h);
	pkt_f->C_DestroyObject(pc_s, hraw);
	pkt_f->C_DestroyObject(pc_s, hbad);
	EVP_PKEY_free(e);
}

/* ---- Wycheproof through the module ------------------------------------------------- */

static int wp_acc_yes, wp_acc_no;

static int wp_verdict(const ts_wp_case *tc, int accepted)
{
	if (ts_wp_valid(tc))
		return accepted ? 0 : 1;
	if (ts_wp_invalid(tc))
		return accepted ? 1 : 0;
	if (accepted) wp_acc_yes++; else wp_acc_no++;
	return 0;
}

static json_object *wp_group;
static CK_OBJECT_HANDLE wp_key;

/* rsa_pkcs1_2048 decryption: the group's key imported once. */
static int wp_rsa_dec(const ts_wp_case *tc, void *arg)
{
	CK_MECHANISM m = { CKM_RSA_PKCS, NULL, 0 };
	size_t ctl, ml;
	uint8_t *ct = ts_wp_hex(tc, "ct", &ctl), *msg = ts_wp_hex(tc, "msg", &ml), out[512];
	CK_ULONG ol = sizeof out;
	CK_RV rv;
	int r;

	(void)arg;
	if (tc->group != wp_group) {
		static const char *nm[8] = { "modulus", "publicExponent", "privateExponent", "prime1",
		                             "prime2", "exponent1", "exponent2", "coefficient" };
		static const CK_ATTRIBUTE_TYPE f[8] = { CKA_MODULUS, CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT,
			CKA_PRIME_1, CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
		json_object *pk, *v;
		uint8_t *b[8];
		size_t bl[8];
		CK_OBJECT_CLASS c = CKO_PRIVATE_KEY;
		CK_KEY_TYPE kt = CKK_RSA;
		CK_ATTRIBUTE t[12];
		CK_ULONG n = 0;
		int i, ok = 1;
		wp_group = tc->group;
		wp_key = 0;
		if (!json_object_object_get_ex(tc->group, "privateKey", &pk))
			return 1;
		t[n++] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
		t[n++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
		t[n++] = (CK_ATTRIBUTE){ CKA_PRIVATE, &F, sizeof F };
		t[n++] = (CK_ATTRIBUTE){ CKA_DECRYPT, &T, sizeof T };
		for (i = 0; i < 8; i++) {
			b[i] = json_object_object_get_ex(pk, nm[i], &v) ? ts_unhex(json_object_get_string(v), &bl[i]) : NULL;
			ok &= b[i] != NULL;
			t[n++] = (CK_ATTRIBUTE){ f[i], b[i], b[i] ? bl[i] : 0 };
		}
		if (!ok || pkt_f->C_CreateObject(pc_s, t, n, &wp_key) != CKR_OK)
			wp_key = 0;
		for (i = 0; i < 8; i++)
			free(b[i]);
	}
	if (wp_key == 0 || !ct || !msg) {
		free(ct); free(msg);
		return 1;
	}
	rv = pk_crypt(0, &m, wp_key, ct, ctl, out, &ol);
	r = wp_verdict(tc, rv == CKR_OK && ol == ml && memcmp(out, msg, ml) == 0);
	if (rv != CKR_OK && rv != CKR_ENCRYPTED_DATA_INVALID && rv != CKR_ENCRYPTED_DATA_LEN_RANGE)
		r = 1;
	free(ct); free(msg);
	return r;
}

/* ECDSA P1363 / Ed25519 verification with C_CreateObject'd public keys. */
static int wp_ec_ver(const ts_wp_case *tc, void *arg)
{
	int ed = arg != NULL;
	CK_MECHANISM m = { ed ? CKM_EDDSA : CKM_ECDSA_SHA256, NULL, 0 };
	size_t sl, ml;
	uint8_t *sig = ts_wp_hex(tc, "sig", &sl), *msg = ts_wp_hex(tc, "msg", &ml);
	CK_RV rv;
	int r;

	if (tc->group != wp_group) {
		json_object *pk, *v;
		uint8_t *pt = NULL, ecp[80];
		size_t pl = 0;
		CK_OBJECT_CLASS c = CKO_PUBLIC_KEY;
		CK_KEY_TYPE kt = ed ? CKK_EC_EDWARDS : CKK_EC;
		CK_ATTRIBUTE t[5];
		wp_group = tc->group;
		wp_key = 0;
		if (json_object_object_get_ex(tc->group, "publicKey", &pk) &&
		    json_object_object_get_ex(pk, ed ? "pk" : "uncompressed", &v))
			pt = ts_unhex(json_object_get_string(v), &pl);
		if (pt) {
			if (!ed) {
				memmove(ecp + 2, pt, pl);
				ecp[0] = 4; ecp[1] = (uint8_t)pl;
			} else {
				memcpy(ecp, pt, pl);
			}
			t[0] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
			t[1] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
			t[2] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)(ed ? oid_ed : oid_p256), ed ? sizeof oid_ed : sizeof oid_p256 };
			t[3] = (CK_ATTRIBUTE){ CKA_EC_POINT, ecp, ed ? pl : pl + 2 };
			t[4] = (CK_ATTRIBUTE){ CKA_VERIFY, &T, sizeof T };
			if (pkt_f->C_CreateObject(pc_s, t, 5, &wp_key) != CKR_OK)
				wp_key = 0;
			free(pt);
		}
	}
	if (wp_key == 0 || !sig || !msg) {
		free(sig); free(msg);
		return 1;
	}
	rv = verify(&m, wp_key, msg, ml, sig, sl);
	r = wp_verdict(tc, rv == CKR_OK);
	if (rv != CKR_OK && rv != CKR_SIGNATURE_INVALID && rv != CKR_SIGNATURE_LEN_RANGE)
		r = 1;
	free(sig); free(msg);
	return r;
}

static void wp_file(const char *f, ts_wp_fn fn, void *arg)
{
	ts_wp_stats st;

	memset(&st, 0, sizeof st);
	wp_group = NULL;
	wp_acc_yes = wp_acc_no = 0;
	CU_ASSERT_EQUAL_FATAL(ts_wp_run(f, fn, arg, &st), 0);
	printf("\n    %s via PKCS#11: %d cases (%d valid, %d invalid, %d acceptable: %d/%d), %d failed",
	       f, st.total, st.valid, st.invalid, st.acceptable, wp_acc_yes, wp_acc_no, st.failed);
	CU_ASSERT(st.total > 0);
	CU_ASSERT_EQUAL(st.failed, 0);
	CU_ASSERT_EQUAL(st.skipped, 0);
}

static void t_wycheproof(void)
{
	wp_file("rsa_pkcs1_2048_test.json", wp_rsa_dec, NULL);
	wp_file("ecdsa_secp256r1_sha256_p1363_test.json", wp_ec_ver, NULL);
	wp_file("ed25519_test.json", wp_ec_ver, (void *)1);
}

static void t_ecdh(void)
{
	pair p;
	EVP_PKEY *o = po_ec_gen("P-256"), *tp;
	uint8_t pt[80], op[80], der[90], s1[48], s2[64];
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_GENERIC_SECRET;
	CK_ECDH1_DERIVE_PARAMS ep;
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &ep, sizeof ep };
	CK_ATTRIBUTE t[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
	                     { CKA_SENSITIVE, &F, sizeof F }, { CKA_EXTRACTABLE, &T, sizeof T },
	                     { CKA_PRIVATE, &F, sizeof F } };
	CK_OBJECT_HANDLE k;
	size_t ol, n;
	int i;
	long vl;

	CU_ASSERT_EQUAL_FATAL(genpair(CKM_EC_KEY_PAIR_GEN, oid_p256, sizeof oid_p256, 0, &p), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(attr(p.pub, CKA_EC_POINT, pt, sizeof pt), 67);
	tp = po_ec_from_pub("P-256", pt + 2, 65);
	n = po_ecdh(o, tp, s1, sizeof s1);
	CU_ASSERT_EQUAL_FATAL(n, 32);
	ol = po_ec_pub(o, op, sizeof op);
	CU_ASSERT_EQUAL_FATAL(ol, 65);
	der[0] = 4; der[1] = 65;
	memcpy(der + 2, op, 65);
	for (i = 0; i < 2; i++) {
		memset(&ep, 0, sizeof ep);
		ep.kdf = CKD_NULL;
		ep.pPublicData = i ? der : op;
		ep.ulPublicDataLen = i ? 67 : 65;
		CU_ASSERT_EQUAL(pkt_f->C_DeriveKey(pc_s, &m, p.priv, t, 5, &k), CKR_OK);
		vl = pc_value(k, s2, sizeof s2);
		CU_ASSERT(vl == 32 && memcmp(s1, s2, 32) == 0);
	}
	op[64] ^= 1;                       /* not on the curve */
	ep.pPublicData = op;
	ep.ulPublicDataLen = 65;
	CU_ASSERT_EQUAL(pkt_f->C_DeriveKey(pc_s, &m, p.priv, t, 5, &k), CKR_PUBLIC_KEY_INVALID);
	ep.kdf = CKD_SHA256_KDF;
	CU_ASSERT_EQUAL(pkt_f->C_DeriveKey(pc_s, &m, p.priv, t, 5, &k), CKR_MECHANISM_PARAM_INVALID);
	/* malformed template values are refused, not read (a NULL CKA_CLASS
	 * value of the right length was dereferenced before) */
	ep.kdf = CKD_NULL;
	ep.pPublicData = der;
	ep.ulPublicDataLen = 67;
	op[64] ^= 1;
	t[0].pValue = NULL;
	CU_ASSERT_EQUAL(pkt_f->C_DeriveKey(pc_s, &m, p.priv, t, 5, &k), CKR_ATTRIBUTE_VALUE_INVALID);
	t[0].pValue = &c;
	t[1].ulValueLen = 1;
	CU_ASSERT_EQUAL(pkt_f->C_DeriveKey(pc_s, &m, p.priv, t, 5, &k), CKR_ATTRIBUTE_VALUE_INVALID);
	t[1].ulValueLen = sizeof kt;
	CU_ASSERT_EQUAL(pkt_f->C_DeriveKey(pc_s, &m, p.priv, t, 5, &k), CKR_OK);
	EVP_PKEY_free(o);
	EVP_PKEY_free(tp);
}

/* CKA_ALWAYS_AUTHENTICATE: a context-specific login before each signature */
static void t_always_auth(void)
{
	static CK_UTF8CHAR pin[] = "11112222";
	CK_MECHANISM g = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM m = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)oid_p256, sizeof oid_p256 } };
	CK_ATTRIBUTE st[] = { { CKA_SIGN, &T, sizeof T }, { CKA_ALWAYS_AUTHENTICATE, &T, sizeof T } };
	CK_OBJECT_HANDLE pub, priv;
	uint8_t msg[10] = { 1 }, sig[96];
	CK_ULONG sl;

	CU_ASSERT_EQUAL_FATAL(pkt_f->C_Login(pc_s, CKU_SO, (CK_UTF8CHAR_PTR)PKT_SO_PIN, strlen(PKT_SO_PIN)), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_InitPIN(pc_s, pin, 8), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_Logout(pc_s), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_Login(pc_s, CKU_USER, pin, 8), CKR_OK);
	CU_ASSERT_EQUAL_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &g, pt, 1, st, 2, &pub, &priv), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_Login(pc_s, CKU_CONTEXT_SPECIFIC, pin, 8), CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &m, priv), CKR_OK);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT_EQUAL(pkt_f->C_Login(pc_s, CKU_CONTEXT_SPECIFIC, (CK_UTF8CHAR_PTR)"99999999", 8), CKR_PIN_INCORRECT);
	CU_ASSERT_EQUAL(pkt_f->C_Login(pc_s, CKU_CONTEXT_SPECIFIC, pin, 8), CKR_OK);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_OK);
	CU_ASSERT_EQUAL(verify(&m, pub, msg, sizeof msg, sig, sl), CKR_OK);
	/* the next signature needs its own login */
	CU_ASSERT_EQUAL(pkt_f->C_SignInit(pc_s, &m, priv), CKR_OK);
	sl = sizeof sig;
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT_EQUAL(pkt_f->C_Login(pc_s, CKU_CONTEXT_SPECIFIC, pin, 8), CKR_OK);
	CU_ASSERT_EQUAL(pkt_f->C_Sign(pc_s, msg, sizeof msg, sig, &sl), CKR_OK);
	/* the default: private keys are CKA_PRIVATE and CKA_SENSITIVE */
	{
		CK_BBOOL b = CK_FALSE;
		CK_ATTRIBUTE a = { CKA_PRIVATE, &b, sizeof b };
		CU_ASSERT_EQUAL(pkt_f->C_GetAttributeValue(pc_s, priv, &a, 1), CKR_OK);
		CU_ASSERT_EQUAL(b, CK_TRUE);
		a.type = CKA_SENSITIVE; b = CK_FALSE;
		CU_ASSERT_EQUAL(pkt_f->C_GetAttributeValue(pc_s, priv, &a, 1), CKR_OK);
		CU_ASSERT_EQUAL(b, CK_TRUE);
	}
	CU_ASSERT_EQUAL(pkt_f->C_Logout(pc_s), CKR_OK);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11pk");

	CU_add_test(s, "token", t_setup);
	CU_add_test(s, "RSA-2048 keygen, sign/verify/decrypt vs OpenSSL", t_rsa);
	CU_add_test(s, "EC P-256", t_p256);
	CU_add_test(s, "EC P-384", t_p384);
	CU_add_test(s, "Ed25519", t_ed25519);
	CU_add_test(s, "SM2", t_sm2);
	CU_add_test(s, "bad input", t_bad);
	CU_add_test(s, "one operation of a kind, either family", t_one_op_a_kind);
	CU_add_test(s, "fork: the child's sessions start without the parent's operations", t_fork_active_op);
	CU_add_test(s, "ECDH1 derive vs OpenSSL", t_ecdh);
	CU_add_test(s, "C_CreateObject of private keys", t_import);
	CU_add_test(s, "C_CreateObject of an SM2 public key; OpenSSL signatures", t_sm2_pub_import);
	CU_add_test(s, "a bare EC point that reads as DER too", t_bare_point_like_der);
	CU_add_test(s, "Wycheproof through the module", t_wycheproof);
	CU_add_test(s, "CKA_ALWAYS_AUTHENTICATE", t_always_auth);
	return pc_run();
}
