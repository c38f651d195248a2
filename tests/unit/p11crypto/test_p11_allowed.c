/*
 * test_p11_allowed.c - CKA_ALLOWED_MECHANISMS through the real module, the
 * user logged in: for secret, private and public keys and every operation
 * family that takes a key (encrypt, decrypt, sign, verify, signature-first
 * verify, wrap, unwrap, derive, C_DigestKey), a mechanism the key allows
 * is accepted and any other refused at the Init (or the one call) with
 * CKR_MECHANISM_INVALID, nothing started; the same in an async session;
 * pkcs11-provider's rsapssam case (RSA keys restricted to PSS refuse
 * PKCS#1 v1.5 and other digests); the attribute itself (the empty list on
 * an unrestricted key, a length that is not a whole number of mechanisms
 * refused at create, generate, unwrap, derive, copy and set, fixed once
 * made; a stored list edited to a partial mechanism allows nothing).
 */
#include <glob.h>
#include <string.h>

#include <sqlite3.h>

#include "pc.h"
#include "tsupport.h"

static CK_FUNCTION_LIST_3_2 *F;
static CK_BBOOL T = CK_TRUE, FA = CK_FALSE;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- keys ---- */

enum {
	K_AESG, K_AESW, K_AES, K_HMAC, K_HKDF, K_DIG, K_DIGFREE,
	K_RSAS, K_RSAP, K_OAEPS, K_OAEPP, K_ECS, K_ECP, K_ECDH, K_ECDHP, K_ECFREES, K_ECFREEP,
	K_N
};
static CK_OBJECT_HANDLE key[K_N], target;
static uint8_t wrapped[64];               /* target under K_AESW, KWP */
static CK_ULONG wrapped_len;
static uint8_t peer[67];                  /* K_ECFREEP's CKA_EC_POINT */

#define DIGESTABLE 0x1                    /* non-sensitive, extractable */

/* A secret key (every usage flag; CKA_PRIVATE left to the default) that
 * allows the n mechanisms of am (none: unrestricted). */
static CK_RV secret(CK_KEY_TYPE kt, size_t len, int opts, const CK_MECHANISM_TYPE *am,
                    size_t n, CK_OBJECT_HANDLE *h)
{
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	uint8_t v[32];
	CK_ATTRIBUTE t[16];
	CK_ULONG k = 0;

	ts_rand(v, sizeof v);
	t[k++] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
	t[k++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
	t[k++] = (CK_ATTRIBUTE){ CKA_VALUE, v, len };
	t[k++] = (CK_ATTRIBUTE){ CKA_ENCRYPT, &T, 1 };
	t[k++] = (CK_ATTRIBUTE){ CKA_DECRYPT, &T, 1 };
	t[k++] = (CK_ATTRIBUTE){ CKA_SIGN, &T, 1 };
	t[k++] = (CK_ATTRIBUTE){ CKA_VERIFY, &T, 1 };
	t[k++] = (CK_ATTRIBUTE){ CKA_WRAP, &T, 1 };
	t[k++] = (CK_ATTRIBUTE){ CKA_UNWRAP, &T, 1 };
	t[k++] = (CK_ATTRIBUTE){ CKA_DERIVE, &T, 1 };
	t[k++] = (CK_ATTRIBUTE){ CKA_SENSITIVE, (opts & DIGESTABLE) ? &FA : &T, 1 };
	t[k++] = (CK_ATTRIBUTE){ CKA_EXTRACTABLE, (opts & DIGESTABLE) ? &T : &FA, 1 };
	if (n > 0)
		t[k++] = (CK_ATTRIBUTE){ CKA_ALLOWED_MECHANISMS, (void *)am, n * sizeof *am };
	return pkt_f->C_CreateObject(pc_s, t, k, h);
}

/* A key pair whose halves both allow the n mechanisms of am. */
static CK_RV pair(CK_MECHANISM_TYPE gen, const CK_MECHANISM_TYPE *am, size_t n,
                  CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *prv)
{
	CK_MECHANISM m = { gen, NULL, 0 };
	CK_ULONG bits = 2048;
	CK_ATTRIBUTE pt[6], st[6];
	CK_ULONG pn = 0, sn = 0;

	pt[pn++] = (CK_ATTRIBUTE){ CKA_VERIFY, &T, 1 };
	pt[pn++] = (CK_ATTRIBUTE){ CKA_ENCRYPT, &T, 1 };
	if (gen == CKM_EC_KEY_PAIR_GEN)
		pt[pn++] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)p256, sizeof p256 };
	else
		pt[pn++] = (CK_ATTRIBUTE){ CKA_MODULUS_BITS, &bits, sizeof bits };
	st[sn++] = (CK_ATTRIBUTE){ CKA_SIGN, &T, 1 };
	st[sn++] = (CK_ATTRIBUTE){ CKA_DECRYPT, &T, 1 };
	st[sn++] = (CK_ATTRIBUTE){ CKA_DERIVE, &T, 1 };
	if (n > 0) {
		pt[pn++] = (CK_ATTRIBUTE){ CKA_ALLOWED_MECHANISMS, (void *)am, n * sizeof *am };
		st[sn++] = (CK_ATTRIBUTE){ CKA_ALLOWED_MECHANISMS, (void *)am, n * sizeof *am };
	}
	return pkt_f->C_GenerateKeyPair(pc_s, &m, pt, pn, st, sn, pub, prv);
}

static void t_setup(void)
{
	static const CK_MECHANISM_TYPE gcm[] = { CKM_AES_GCM }, kwp[] = { CKM_AES_KEY_WRAP_PAD },
		hmac[] = { CKM_SHA256_HMAC }, hkdf[] = { CKM_HKDF_DERIVE }, dig[] = { CKM_SHA256 },
		pss[] = { CKM_SHA256_RSA_PKCS_PSS }, oaep[] = { CKM_RSA_PKCS_OAEP },
		ecdsa[] = { CKM_ECDSA_SHA256 }, ecdh[] = { CKM_ECDH1_DERIVE };
	CK_MECHANISM kw = { CKM_AES_KEY_WRAP_PAD, NULL, 0 };
	CK_ATTRIBUTE pa = { CKA_EC_POINT, peer, sizeof peer };

	pc_token_user("allowed");
	F = pc_list32();
	CU_ASSERT_FATAL(secret(CKK_AES, 32, 0, gcm, 1, &key[K_AESG]) == CKR_OK);
	CU_ASSERT_FATAL(secret(CKK_AES, 32, 0, kwp, 1, &key[K_AESW]) == CKR_OK);
	CU_ASSERT_FATAL(secret(CKK_AES, 32, 0, NULL, 0, &key[K_AES]) == CKR_OK);
	CU_ASSERT_FATAL(secret(CKK_GENERIC_SECRET, 32, 0, hmac, 1, &key[K_HMAC]) == CKR_OK);
	CU_ASSERT_FATAL(secret(CKK_GENERIC_SECRET, 32, 0, hkdf, 1, &key[K_HKDF]) == CKR_OK);
	CU_ASSERT_FATAL(secret(CKK_GENERIC_SECRET, 32, DIGESTABLE, dig, 1, &key[K_DIG]) == CKR_OK);
	CU_ASSERT_FATAL(secret(CKK_GENERIC_SECRET, 32, DIGESTABLE, NULL, 0, &key[K_DIGFREE]) == CKR_OK);
	CU_ASSERT_FATAL(secret(CKK_AES, 16, DIGESTABLE, NULL, 0, &target) == CKR_OK);
	CU_ASSERT_FATAL(pair(CKM_RSA_PKCS_KEY_PAIR_GEN, pss, 1, &key[K_RSAP], &key[K_RSAS]) == CKR_OK);
	CU_ASSERT_FATAL(pair(CKM_RSA_PKCS_KEY_PAIR_GEN, oaep, 1, &key[K_OAEPP], &key[K_OAEPS]) == CKR_OK);
	CU_ASSERT_FATAL(pair(CKM_EC_KEY_PAIR_GEN, ecdsa, 1, &key[K_ECP], &key[K_ECS]) == CKR_OK);
	CU_ASSERT_FATAL(pair(CKM_EC_KEY_PAIR_GEN, ecdh, 1, &key[K_ECDHP], &key[K_ECDH]) == CKR_OK);
	CU_ASSERT_FATAL(pair(CKM_EC_KEY_PAIR_GEN, NULL, 0, &key[K_ECFREEP], &key[K_ECFREES]) == CKR_OK);
	wrapped_len = sizeof wrapped;
	CU_ASSERT_FATAL(pkt_f->C_WrapKey(pc_s, &kw, key[K_AESW], target, wrapped, &wrapped_len) ==
	                CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_GetAttributeValue(pc_s, key[K_ECFREEP], &pa, 1) == CKR_OK &&
	                pa.ulValueLen == sizeof peer);
}

/* ---- one operation of a family, by mechanism ---- */

enum { ENC, DEC, SIGN, VER, VSIG, WRAP, UNWRAP, DERIVE, DKEY };

static uint8_t iv[16];
static CK_GCM_PARAMS gcm = { iv, 12, 96, NULL, 0, 128 };
static CK_ULONG macl = 16;               /* CK_MAC_GENERAL_PARAMS */
static CK_RSA_PKCS_OAEP_PARAMS oaep = { CKM_SHA256, CKG_MGF1_SHA256, CKZ_DATA_SPECIFIED, NULL, 0 };
static CK_HKDF_PARAMS hkdf = { CK_TRUE, CK_TRUE, CKM_SHA256, CKF_HKDF_SALT_NULL, NULL, 0, 0, NULL, 0 };
static CK_ECDH1_DERIVE_PARAMS ecdh = { CKD_NULL, 0, NULL, sizeof peer, peer };
static CK_RSA_PKCS_PSS_PARAMS pss256 = { CKM_SHA256, CKG_MGF1_SHA256, 32 };
static CK_RSA_PKCS_PSS_PARAMS pss384 = { CKM_SHA384, CKG_MGF1_SHA384, 48 };

/* A CK_MECHANISM of type t with valid parameters (a refusal must be the
 * key's, not the parameters'). */
static CK_MECHANISM mech(CK_MECHANISM_TYPE t)
{
	CK_MECHANISM m = { t, NULL, 0 };

	switch (t) {
	case CKM_AES_CBC: case CKM_AES_CBC_PAD:
		m.pParameter = iv; m.ulParameterLen = 16; break;
	case CKM_AES_GCM:
		m.pParameter = &gcm; m.ulParameterLen = sizeof gcm; break;
	case CKM_SHA256_HMAC_GENERAL:
		m.pParameter = &macl; m.ulParameterLen = sizeof macl; break;
	case CKM_RSA_PKCS_OAEP:
		m.pParameter = &oaep; m.ulParameterLen = sizeof oaep; break;
	case CKM_HKDF_DERIVE:
		m.pParameter = &hkdf; m.ulParameterLen = sizeof hkdf; break;
	case CKM_ECDH1_DERIVE:
		m.pParameter = &ecdh; m.ulParameterLen = sizeof ecdh; break;
	case CKM_RSA_PKCS_PSS: case CKM_SHA256_RSA_PKCS_PSS:
		m.pParameter = &pss256; m.ulParameterLen = sizeof pss256; break;
	case CKM_SHA384_RSA_PKCS_PSS:
		m.pParameter = &pss384; m.ulParameterLen = sizeof pss384; break;
	default:
		break;
	}
	return m;
}

/* Init with the 3.0 convention pMechanism NULL: end kind's operation. */
static CK_RV end_op(CK_SESSION_HANDLE s, int fam, CK_OBJECT_HANDLE k)
{
	switch (fam) {
	case ENC:  return pkt_f->C_EncryptInit(s, NULL, k);
	case DEC:  return pkt_f->C_DecryptInit(s, NULL, k);
	case SIGN: return pkt_f->C_SignInit(s, NULL, k);
	case VER:  return pkt_f->C_VerifyInit(s, NULL, k);
	default:   return F->C_VerifySignatureInit(s, NULL, k, NULL, 0);
	}
}

/* The call after the Init: CKR_OPERATION_NOT_INITIALIZED if none began. */
static CK_RV next_call(CK_SESSION_HANDLE s, int fam)
{
	uint8_t in[32] = { 0 }, out[512];
	CK_ULONG ol = sizeof out;

	switch (fam) {
	case ENC:  return pkt_f->C_Encrypt(s, in, 16, out, &ol);
	case DEC:  return pkt_f->C_Decrypt(s, in, 16, out, &ol);
	case SIGN: return pkt_f->C_Sign(s, in, 16, out, &ol);
	case VER:  return pkt_f->C_Verify(s, in, 16, out, 16);
	default:   return F->C_VerifySignature(s, in, 16);
	}
}

/* Key k used by family fam with mechanism t in session s: the answer of
 * the Init (the one call for wrap, unwrap, derive, C_DigestKey).  An
 * operation that began is ended; one that was refused must not have
 * begun. */
static CK_RV use(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE k, int fam, CK_MECHANISM_TYPE t)
{
	static const uint8_t sig[256];
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_KEY_TYPE gen = CKK_GENERIC_SECRET, aes = CKK_AES;
	CK_ULONG len = 32;
	CK_ATTRIBUTE dt[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &gen, sizeof gen },
	                      { CKA_VALUE_LEN, &len, sizeof len } };
	CK_ATTRIBUTE ut[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &aes, sizeof aes } };
	CK_MECHANISM m = mech(t), d = { t, NULL, 0 };
	CK_OBJECT_HANDLE nk = 0;
	uint8_t out[512];
	CK_ULONG ol = sizeof out;
	CK_RV rv;

	switch (fam) {
	case ENC:  rv = pkt_f->C_EncryptInit(s, &m, k); break;
	case DEC:  rv = pkt_f->C_DecryptInit(s, &m, k); break;
	case SIGN: rv = pkt_f->C_SignInit(s, &m, k); break;
	case VER:  rv = pkt_f->C_VerifyInit(s, &m, k); break;
	case VSIG: rv = F->C_VerifySignatureInit(s, &m, k, (CK_BYTE_PTR)sig, 64); break;
	case WRAP:
		return pkt_f->C_WrapKey(s, &m, k, target, out, &ol);
	case UNWRAP:
		rv = pkt_f->C_UnwrapKey(s, &m, k, wrapped, wrapped_len, ut, N(ut), &nk);
		if (rv == CKR_OK)
			pkt_f->C_DestroyObject(s, nk);
		return rv;
	case DERIVE:
		rv = pkt_f->C_DeriveKey(s, &m, k, dt, t == CKM_ECDH1_DERIVE ? 2 : 3, &nk);
		if (rv == CKR_OK)
			pkt_f->C_DestroyObject(s, nk);
		return rv;
	default:                            /* DKEY: t is the digest */
		CU_ASSERT_FATAL(pkt_f->C_DigestInit(s, &d) == CKR_OK);
		rv = pkt_f->C_DigestKey(s, k);
		CU_ASSERT(pkt_f->C_DigestFinal(s, out, &ol) == CKR_OK);
		return rv;
	}
	if (rv == CKR_OK)
		CU_ASSERT(end_op(s, fam, k) == CKR_OK);
	CU_ASSERT(next_call(s, fam) == CKR_OPERATION_NOT_INITIALIZED);
	return rv;
}

/* ---- the table ---- */

#define OK CKR_OK
#define MI CKR_MECHANISM_INVALID
typedef struct row {
	int k, fam;
	CK_MECHANISM_TYPE t;
	CK_RV want;
} row;

static const row rows[] = {
	/* AES allowing only GCM */
	{ K_AESG, ENC, CKM_AES_GCM, OK }, { K_AESG, ENC, CKM_AES_CBC, MI },
	{ K_AESG, ENC, CKM_AES_ECB, MI }, { K_AESG, DEC, CKM_AES_GCM, OK },
	{ K_AESG, DEC, CKM_AES_CBC_PAD, MI }, { K_AESG, SIGN, CKM_AES_CMAC, MI },
	{ K_AESG, VER, CKM_AES_CMAC, MI }, { K_AESG, VSIG, CKM_AES_CMAC, MI },
	{ K_AESG, WRAP, CKM_AES_KEY_WRAP_PAD, MI }, { K_AESG, UNWRAP, CKM_AES_KEY_WRAP_PAD, MI },
	/* AES allowing only KWP: as the wrapping and the unwrapping key */
	{ K_AESW, WRAP, CKM_AES_KEY_WRAP_PAD, OK }, { K_AESW, WRAP, CKM_AES_KEY_WRAP, MI },
	{ K_AESW, UNWRAP, CKM_AES_KEY_WRAP_PAD, OK }, { K_AESW, UNWRAP, CKM_AES_KEY_WRAP, MI },
	{ K_AESW, ENC, CKM_AES_ECB, MI }, { K_AESW, DEC, CKM_AES_ECB, MI },
	/* unrestricted: everything its type does */
	{ K_AES, ENC, CKM_AES_CBC, OK }, { K_AES, SIGN, CKM_AES_CMAC, OK },
	{ K_AES, WRAP, CKM_AES_KEY_WRAP, OK },
	/* HMAC key allowing only SHA256-HMAC */
	{ K_HMAC, SIGN, CKM_SHA256_HMAC, OK }, { K_HMAC, SIGN, CKM_SHA512_HMAC, MI },
	{ K_HMAC, SIGN, CKM_SHA256_HMAC_GENERAL, MI }, { K_HMAC, VER, CKM_SHA256_HMAC, OK },
	{ K_HMAC, VER, CKM_SHA384_HMAC, MI }, { K_HMAC, VSIG, CKM_SHA256_HMAC, OK },
	{ K_HMAC, VSIG, CKM_SHA_1_HMAC, MI }, { K_HMAC, DERIVE, CKM_HKDF_DERIVE, MI },
	/* HKDF base key */
	{ K_HKDF, DERIVE, CKM_HKDF_DERIVE, OK }, { K_HKDF, SIGN, CKM_SHA256_HMAC, MI },
	/* C_DigestKey: the digest is the mechanism the key is used with */
	{ K_DIG, DKEY, CKM_SHA256, OK }, { K_DIG, DKEY, CKM_SHA512, CKR_KEY_INDIGESTIBLE },
	{ K_DIGFREE, DKEY, CKM_SHA512, OK },
	/* RSA private key allowing only SHA256-RSA-PKCS-PSS */
	{ K_RSAS, SIGN, CKM_SHA256_RSA_PKCS_PSS, OK }, { K_RSAS, SIGN, CKM_SHA256_RSA_PKCS, MI },
	{ K_RSAS, SIGN, CKM_RSA_X_509, MI }, { K_RSAS, SIGN, CKM_RSA_PKCS, MI },
	{ K_RSAS, SIGN, CKM_RSA_PKCS_PSS, MI }, { K_RSAS, SIGN, CKM_SHA384_RSA_PKCS_PSS, MI },
	{ K_RSAS, DEC, CKM_RSA_PKCS_OAEP, MI }, { K_RSAS, DEC, CKM_RSA_PKCS, MI },
	/* ... and its public key */
	{ K_RSAP, VER, CKM_SHA256_RSA_PKCS_PSS, OK }, { K_RSAP, VER, CKM_SHA256_RSA_PKCS, MI },
	{ K_RSAP, VER, CKM_RSA_X_509, MI }, { K_RSAP, VSIG, CKM_SHA256_RSA_PKCS_PSS, OK },
	{ K_RSAP, VSIG, CKM_SHA256_RSA_PKCS, MI }, { K_RSAP, ENC, CKM_RSA_PKCS_OAEP, MI },
	{ K_RSAP, ENC, CKM_RSA_PKCS, MI },
	/* RSA pair allowing only OAEP */
	{ K_OAEPP, ENC, CKM_RSA_PKCS_OAEP, OK }, { K_OAEPP, ENC, CKM_RSA_PKCS, MI },
	{ K_OAEPP, ENC, CKM_RSA_X_509, MI }, { K_OAEPP, VER, CKM_SHA256_RSA_PKCS, MI },
	{ K_OAEPS, DEC, CKM_RSA_PKCS_OAEP, OK }, { K_OAEPS, DEC, CKM_RSA_PKCS, MI },
	{ K_OAEPS, SIGN, CKM_SHA256_RSA_PKCS, MI },
	/* EC pair allowing only ECDSA-SHA256 */
	{ K_ECS, SIGN, CKM_ECDSA_SHA256, OK }, { K_ECS, SIGN, CKM_ECDSA, MI },
	{ K_ECS, SIGN, CKM_ECDSA_SHA512, MI }, { K_ECS, SIGN, CKM_ECDSA_SHA384, MI },
	{ K_ECS, DERIVE, CKM_ECDH1_DERIVE, MI }, { K_ECP, VER, CKM_ECDSA_SHA256, OK },
	{ K_ECP, VER, CKM_ECDSA, MI }, { K_ECP, VER, CKM_ECDSA_SHA512, MI },
	{ K_ECP, VSIG, CKM_ECDSA, MI }, { K_ECP, VSIG, CKM_ECDSA_SHA256, OK },
	/* EC private key allowing only ECDH; an unrestricted one */
	{ K_ECDH, DERIVE, CKM_ECDH1_DERIVE, OK }, { K_ECDH, SIGN, CKM_ECDSA, MI },
	{ K_ECDH, SIGN, CKM_ECDSA_SHA256, MI }, { K_ECFREES, SIGN, CKM_ECDSA, OK },
	{ K_ECFREES, DERIVE, CKM_ECDH1_DERIVE, OK }, { K_ECFREEP, VER, CKM_ECDSA_SHA512, OK },
};

static void t_table(void)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < N(rows); i++) {
		CK_RV rv = use(pc_s, key[rows[i].k], rows[i].fam, rows[i].t);
		if (rv != rows[i].want) {
			fprintf(stderr, "\n  row %zu: key %d family %d mechanism 0x%lx: 0x%lx, want 0x%lx",
			        i, rows[i].k, rows[i].fam, rows[i].t, rv, rows[i].want);
			bad++;
		}
	}
	CU_ASSERT(bad == 0);
}

/* The allowed mechanism does its work: GCM round trip, ECDSA-SHA256. */
static void t_allowed_works(void)
{
	CK_MECHANISM g = mech(CKM_AES_GCM), e = { CKM_ECDSA_SHA256, NULL, 0 };
	uint8_t msg[64], ct[96], pt[96], sig[80];
	CK_ULONG cl = sizeof ct, pl = sizeof pt, sl = sizeof sig;

	ts_rand(msg, sizeof msg);
	CU_ASSERT_FATAL(pc_crypt(&g, key[K_AESG], 1, msg, sizeof msg, ct, &cl) == CKR_OK);
	CU_ASSERT(pc_crypt(&g, key[K_AESG], 0, ct, cl, pt, &pl) == CKR_OK &&
	          pl == sizeof msg && memcmp(pt, msg, pl) == 0);
	CU_ASSERT_FATAL(pc_sign(&e, key[K_ECS], msg, sizeof msg, 1, sig, &sl) == CKR_OK);
	CU_ASSERT(pc_verify(&e, key[K_ECP], msg, sizeof msg, 0, sig, sl) == CKR_OK);
	sig[5] ^= 1;
	CU_ASSERT(pc_verify(&e, key[K_ECP], msg, sizeof msg, 0, sig, sl) == CKR_SIGNATURE_INVALID);
}

/* An async session's Init is the same Init. */
static void t_async(void)
{
	CK_SESSION_HANDLE h = 0;

	CU_ASSERT_FATAL(pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION | CKF_ASYNC_SESSION,
	                                     NULL, NULL, &h) == CKR_OK);
	CU_ASSERT(use(h, key[K_AESG], ENC, CKM_AES_CBC) == MI);
	CU_ASSERT(use(h, key[K_ECS], SIGN, CKM_ECDSA) == MI);
	CU_ASSERT(use(h, key[K_RSAP], VSIG, CKM_SHA256_RSA_PKCS) == MI);
	CU_ASSERT(use(h, key[K_ECS], SIGN, CKM_ECDSA_SHA256) == OK);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

/* pkcs11-provider's rsapssam: an RSA key pair restricted to the PSS
 * mechanisms, another to SHA256-RSA-PKCS-PSS alone (as its setup makes
 * them with pkcs11-tool --allowed-mechanisms): PSS with SHA-256 signs and
 * verifies; PKCS#1 v1.5 is refused, and SHA-384 by the SHA-256 key. */
static void t_rsapssam(void)
{
	static const CK_MECHANISM_TYPE all[] = {
		CKM_RSA_PKCS_PSS, CKM_SHA1_RSA_PKCS_PSS, CKM_SHA224_RSA_PKCS_PSS,
		CKM_SHA256_RSA_PKCS_PSS, CKM_SHA384_RSA_PKCS_PSS, CKM_SHA512_RSA_PKCS_PSS };
	static const CK_MECHANISM_TYPE s256[] = { CKM_SHA256_RSA_PKCS_PSS };
	static uint8_t data[65536];
	CK_OBJECT_HANDLE apub, aprv, bpub, bprv;
	CK_MECHANISM m = mech(CKM_SHA256_RSA_PKCS_PSS), raw = mech(CKM_RSA_PKCS_PSS);
	CK_MECHANISM m384 = mech(CKM_SHA384_RSA_PKCS_PSS);
	CK_MECHANISM v15 = { CKM_SHA256_RSA_PKCS, NULL, 0 }, r15 = { CKM_RSA_PKCS, NULL, 0 };
	uint8_t sig[256], dgst[32];
	CK_ULONG sl = sizeof sig, dl = sizeof dgst;
	CK_MECHANISM sha = { CKM_SHA256, NULL, 0 };

	ts_rand(data, sizeof data);
	CU_ASSERT_FATAL(pair(CKM_RSA_PKCS_KEY_PAIR_GEN, all, N(all), &apub, &aprv) == CKR_OK);
	CU_ASSERT_FATAL(pair(CKM_RSA_PKCS_KEY_PAIR_GEN, s256, 1, &bpub, &bprv) == CKR_OK);
	/* DigestSign / DigestVerify with PSS under the SHA-256 restriction */
	CU_ASSERT_FATAL(pc_sign(&m, bprv, data, sizeof data, 1, sig, &sl) == CKR_OK && sl == 256);
	CU_ASSERT(pc_verify(&m, bpub, data, sizeof data, 1, sig, sl) == CKR_OK);
	sig[0] ^= 1;
	CU_ASSERT(pc_verify(&m, bpub, data, sizeof data, 0, sig, sl) == CKR_SIGNATURE_INVALID);
	/* a restricted digest is refused */
	sl = sizeof sig;
	CU_ASSERT(pc_sign(&m384, bprv, data, sizeof data, 0, sig, &sl) == MI);
	CU_ASSERT(pc_sign(&raw, bprv, data, 32, 0, sig, &sl) == MI);
	/* PKCS#1 v1.5 with the PSS key is refused; PSS signs, on data and on a
	 * digest, and verifies */
	CU_ASSERT(pc_sign(&v15, aprv, data, sizeof data, 0, sig, &sl) == MI);
	CU_ASSERT(pc_sign(&r15, aprv, data, 32, 0, sig, &sl) == MI);
	CU_ASSERT(pc_verify(&v15, apub, data, sizeof data, 0, sig, 256) == MI);
	sl = sizeof sig;
	CU_ASSERT_FATAL(pc_sign(&m, aprv, data, sizeof data, 0, sig, &sl) == CKR_OK);
	CU_ASSERT(pc_verify(&m, apub, data, sizeof data, 1, sig, sl) == CKR_OK);
	CU_ASSERT_FATAL(pc_digest(&sha, data, sizeof data, 0, dgst, &dl) == CKR_OK && dl == 32);
	sl = sizeof sig;
	CU_ASSERT_FATAL(pc_sign(&raw, aprv, dgst, 32, 0, sig, &sl) == CKR_OK);
	CU_ASSERT(pc_verify(&raw, apub, dgst, 32, 0, sig, sl) == CKR_OK);
	CU_ASSERT(pc_verify(&m, apub, data, sizeof data, 0, sig, sl) == CKR_OK);
}

/* ---- the attribute ---- */

/* CKA_ALLOWED_MECHANISMS of k: its length (CK_UNAVAILABLE_INFORMATION on
 * error), the value into out. */
static CK_ULONG read_am(CK_OBJECT_HANDLE k, CK_MECHANISM_TYPE *out, size_t cap, CK_RV *rv)
{
	CK_ATTRIBUTE a = { CKA_ALLOWED_MECHANISMS, out, cap * sizeof *out };

	*rv = pkt_f->C_GetAttributeValue(pc_s, k, &a, 1);
	return a.ulValueLen;
}

static void t_attribute(void)
{
	static const CK_MECHANISM_TYPE two[] = { CKM_AES_CBC, CKM_AES_GCM };
	CK_MECHANISM_TYPE got[8];
	uint8_t bad[2 * sizeof(CK_MECHANISM_TYPE) - 3];
	CK_OBJECT_HANDLE h, h2, pub, prv;
	CK_OBJECT_CLASS c = CKO_SECRET_KEY, pc = CKO_PUBLIC_KEY;
	CK_KEY_TYPE kt = CKK_GENERIC_SECRET, rsa = CKK_RSA;
	CK_ULONG len = 32, bits = 2048;
	uint8_t mod[256], exp[8];
	CK_ATTRIBUTE rd[] = { { CKA_MODULUS, mod, sizeof mod }, { CKA_PUBLIC_EXPONENT, exp, sizeof exp } };
	CK_ATTRIBUTE am = { CKA_ALLOWED_MECHANISMS, bad, sizeof bad };
	CK_ATTRIBUTE gt[] = { { CKA_VALUE_LEN, &len, sizeof len }, am };
	CK_ATTRIBUTE dt[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
	                      { CKA_VALUE_LEN, &len, sizeof len }, am };
	CK_ATTRIBUTE ut[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt }, am };
	CK_ATTRIBUTE pt[] = { { CKA_MODULUS_BITS, &bits, sizeof bits }, am };
	CK_ATTRIBUTE st[] = { { CKA_SIGN, &T, 1 }, am };
	CK_ATTRIBUTE pk[] = { { CKA_CLASS, &pc, sizeof pc }, { CKA_KEY_TYPE, &rsa, sizeof rsa },
	                      { CKA_MODULUS, mod, 0 }, { CKA_PUBLIC_EXPONENT, exp, 0 },
	                      { CKA_ALLOWED_MECHANISMS, (void *)two, sizeof two } };
	CK_MECHANISM kg = { CKM_GENERIC_SECRET_KEY_GEN, NULL, 0 }, kw = mech(CKM_AES_KEY_WRAP_PAD);
	CK_MECHANISM hk = mech(CKM_HKDF_DERIVE), ec = mech(CKM_ECDH1_DERIVE);
	CK_MECHANISM rg = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_RV rv;

	/* unrestricted keys of every class: CKR_OK and the empty list */
	CU_ASSERT(read_am(key[K_AES], NULL, 0, &rv) == 0 && rv == CKR_OK);
	CU_ASSERT(read_am(key[K_AES], got, N(got), &rv) == 0 && rv == CKR_OK);
	CU_ASSERT(read_am(key[K_ECFREES], got, N(got), &rv) == 0 && rv == CKR_OK);
	CU_ASSERT(read_am(key[K_ECFREEP], got, N(got), &rv) == 0 && rv == CKR_OK);
	/* a restricted one: its list, of either class */
	CU_ASSERT(read_am(key[K_ECS], got, N(got), &rv) == sizeof(CK_MECHANISM_TYPE) &&
	          rv == CKR_OK && got[0] == CKM_ECDSA_SHA256);
	CU_ASSERT(read_am(key[K_RSAP], got, N(got), &rv) == sizeof(CK_MECHANISM_TYPE) &&
	          rv == CKR_OK && got[0] == CKM_SHA256_RSA_PKCS_PSS);
	/* not a whole number of mechanisms: refused wherever a key is made */
	ts_rand(bad, sizeof bad);
	CU_ASSERT_FATAL(secret(CKK_AES, 16, 0, NULL, 0, &h) == CKR_OK);
	{
		CK_ATTRIBUTE t[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
		                     { CKA_VALUE, mod, 32 }, am };
		CU_ASSERT(pkt_f->C_CreateObject(pc_s, t, N(t), &h2) == CKR_ATTRIBUTE_VALUE_INVALID);
	}
	CU_ASSERT(pkt_f->C_GenerateKey(pc_s, &kg, gt, N(gt), &h2) == CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_UnwrapKey(pc_s, &kw, key[K_AESW], wrapped, wrapped_len, ut, N(ut), &h2) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_DeriveKey(pc_s, &hk, key[K_HKDF], dt, N(dt), &h2) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_DeriveKey(pc_s, &ec, key[K_ECDH], dt, N(dt), &h2) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_GenerateKeyPair(pc_s, &rg, pt, N(pt), st, 1, &pub, &prv) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_GenerateKeyPair(pc_s, &rg, pt, 1, st, N(st), &pub, &prv) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_CopyObject(pc_s, h, &am, 1, &h2) == CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, h, &am, 1) == CKR_ATTRIBUTE_VALUE_INVALID);
	/* the empty list is no restriction; a list is fixed once the key is
	 * made (C_CopyObject and C_SetAttributeValue cannot lift it) */
	gt[1].ulValueLen = 0;
	CU_ASSERT(pkt_f->C_GenerateKey(pc_s, &kg, gt, N(gt), &h2) == CKR_OK);
	CU_ASSERT(use(pc_s, h2, SIGN, CKM_SHA384_HMAC) == OK);
	pkt_f->C_DestroyObject(pc_s, h2);
	am.pValue = (void *)two;
	am.ulValueLen = sizeof two;
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, key[K_AESG], &am, 1) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_CopyObject(pc_s, key[K_AESG], &am, 1, &h2) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT_FATAL(pkt_f->C_CopyObject(pc_s, key[K_AESG], NULL, 0, &h2) == CKR_OK);
	CU_ASSERT(use(pc_s, h2, ENC, CKM_AES_CBC) == MI);
	CU_ASSERT(use(pc_s, h2, ENC, CKM_AES_GCM) == OK);
	pkt_f->C_DestroyObject(pc_s, h2);
	pkt_f->C_DestroyObject(pc_s, h);
	/* a public key made by C_CreateObject carries it too */
	CU_ASSERT_FATAL(pkt_f->C_GetAttributeValue(pc_s, key[K_OAEPP], rd, 2) == CKR_OK);
	pk[2].ulValueLen = rd[0].ulValueLen;
	pk[3].ulValueLen = rd[1].ulValueLen;
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, pk, N(pk), &h) == CKR_OK);
	CU_ASSERT(read_am(h, got, N(got), &rv) == sizeof two && rv == CKR_OK &&
	          memcmp(got, two, sizeof two) == 0);
	CU_ASSERT(use(pc_s, h, VER, CKM_SHA256_RSA_PKCS) == MI);
	CU_ASSERT(use(pc_s, h, ENC, CKM_RSA_PKCS_OAEP) == MI);
	pkt_f->C_DestroyObject(pc_s, h);
	pk[4].ulValueLen = sizeof bad;
	pk[4].pValue = bad;
	CU_ASSERT(pkt_f->C_CreateObject(pc_s, pk, N(pk), &h) == CKR_ATTRIBUTE_VALUE_INVALID);
}

/* A token key's list edited in the store to a partial mechanism (no
 * template can make one): the key is not used with any mechanism, the one
 * the whole part names included. */
static void t_store_edit(void)
{
	static const CK_MECHANISM_TYPE ecb[] = { CKM_AES_ECB };
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_AES;
	uint8_t v[16], edited[sizeof(CK_MECHANISM_TYPE) + 4] = { 0 };
	CK_ATTRIBUTE t[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
	                     { CKA_VALUE, v, sizeof v }, { CKA_TOKEN, &T, 1 },
	                     { CKA_ALLOWED_MECHANISMS, (void *)ecb, sizeof ecb } };
	CK_OBJECT_HANDLE h;
	sqlite3 *db;
	sqlite3_stmt *st;
	glob_t g;
	char pat[300];

	ts_rand(v, sizeof v);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, t, N(t), &h) == CKR_OK);
	CU_ASSERT(use(pc_s, h, ENC, CKM_AES_ECB) == OK);
	snprintf(pat, sizeof pat, "%s/tokens/*/token.db", pkt_dir);
	CU_ASSERT_FATAL(glob(pat, 0, NULL, &g) == 0 && g.gl_pathc == 1);
	CU_ASSERT_FATAL(sqlite3_open(g.gl_pathv[0], &db) == SQLITE_OK);
	globfree(&g);
	memcpy(edited, ecb, sizeof ecb[0]);
	CU_ASSERT_FATAL(sqlite3_prepare_v2(db, "UPDATE attributes SET value = ?1 WHERE type = ?2",
	                                   -1, &st, NULL) == SQLITE_OK);
	sqlite3_bind_blob(st, 1, edited, sizeof edited, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)CKA_ALLOWED_MECHANISMS);
	CU_ASSERT(sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(db) == 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
	CU_ASSERT(use(pc_s, h, ENC, CKM_AES_ECB) != CKR_OK);
	CU_ASSERT(use(pc_s, h, ENC, CKM_AES_CBC) != CKR_OK);
	pkt_f->C_DestroyObject(pc_s, h);
}

/* Widening a token key's list in the store - CKA_ALLOWED_MECHANISMS and
 * the vault's form of it (TK_CKA_BLOB_MECHS) alike - passes the token
 * layer's check but not the vault's: the blob binds the list it was made
 * with.  The key is then of no use at all (CKR_KEY_FUNCTION_NOT_PERMITTED
 * for every mechanism), never more. */
/* C_EncryptInit + C_Encrypt of one block: the answer of the one that
 * failed, or CKR_OK. */
static CK_RV enc_once(CK_OBJECT_HANDLE k, CK_MECHANISM_TYPE t)
{
	uint8_t in[16] = { 0 }, out[64];
	CK_ULONG ol = sizeof out;
	CK_MECHANISM m = mech(t);
	CK_RV rv = pkt_f->C_EncryptInit(pc_s, &m, k);

	return rv != CKR_OK ? rv : pkt_f->C_Encrypt(pc_s, in, 16, out, &ol);
}

static void t_store_widen(void)
{
	static const CK_MECHANISM_TYPE ecb[] = { CKM_AES_ECB };
	static const CK_MECHANISM_TYPE both[] = { CKM_AES_ECB, CKM_AES_CBC };
	static const uint8_t vault_both[] = { 0x01, 0x01, 0, 0, 0x01, 0x02, 0, 0 };
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_AES;
	uint8_t v[16];
	CK_ATTRIBUTE t[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
	                     { CKA_VALUE, v, sizeof v }, { CKA_TOKEN, &T, 1 },
	                     { CKA_ALLOWED_MECHANISMS, (void *)ecb, sizeof ecb } };
	CK_OBJECT_HANDLE h;
	sqlite3 *db;
	sqlite3_stmt *st;
	glob_t g;
	char pat[300];

	ts_rand(v, sizeof v);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, t, N(t), &h) == CKR_OK);
	CU_ASSERT(enc_once(h, CKM_AES_ECB) == CKR_OK);
	CU_ASSERT(enc_once(h, CKM_AES_CBC) == CKR_MECHANISM_INVALID);
	snprintf(pat, sizeof pat, "%s/tokens/*/token.db", pkt_dir);
	CU_ASSERT_FATAL(glob(pat, 0, NULL, &g) == 0 && g.gl_pathc == 1);
	CU_ASSERT_FATAL(sqlite3_open(g.gl_pathv[0], &db) == SQLITE_OK);
	globfree(&g);
	CU_ASSERT_FATAL(sqlite3_prepare_v2(db, "UPDATE attributes SET value = ?1 WHERE type = ?2",
	                                   -1, &st, NULL) == SQLITE_OK);
	sqlite3_bind_blob(st, 1, both, sizeof both, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)CKA_ALLOWED_MECHANISMS);
	CU_ASSERT(sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(db) == 1);
	sqlite3_reset(st);
	sqlite3_bind_blob(st, 1, vault_both, sizeof vault_both, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)(CKA_VENDOR_DEFINED | 0x5056F003UL));
	CU_ASSERT(sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(db) == 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
	CU_ASSERT(enc_once(h, CKM_AES_CBC) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT(enc_once(h, CKM_AES_ECB) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	pkt_f->C_DestroyObject(pc_s, h);
}

/* The usage flags are bound into the blob too: a user's
 * C_SetAttributeValue(CKA_ENCRYPT) has the vault seal it again, but the
 * same flag set by editing the store only makes the key refused. */
static void t_usage_bound(void)
{
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_AES;
	uint8_t v[16];
	CK_ATTRIBUTE t[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
	                     { CKA_VALUE, v, sizeof v }, { CKA_TOKEN, &T, 1 },
	                     { CKA_ENCRYPT, &FA, 1 }, { CKA_DECRYPT, &T, 1 },
	                     { CKA_LABEL, "usage", 5 } };
	CK_ATTRIBUTE on = { CKA_ENCRYPT, &T, 1 };
	CK_OBJECT_HANDLE h, h2;
	sqlite3 *db;
	sqlite3_stmt *st;
	glob_t g;
	char pat[300];

	ts_rand(v, sizeof v);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, t, N(t), &h) == CKR_OK);
	CU_ASSERT(enc_once(h, CKM_AES_ECB) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT_FATAL(pkt_f->C_SetAttributeValue(pc_s, h, &on, 1) == CKR_OK);
	CU_ASSERT(enc_once(h, CKM_AES_ECB) == CKR_OK);
	/* a second key with CKA_ENCRYPT FALSE, then TRUE by editing the store */
	t[6].pValue = "usage2";
	t[6].ulValueLen = 6;
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, t, N(t), &h2) == CKR_OK);
	snprintf(pat, sizeof pat, "%s/tokens/*/token.db", pkt_dir);
	CU_ASSERT_FATAL(glob(pat, 0, NULL, &g) == 0 && g.gl_pathc == 1);
	CU_ASSERT_FATAL(sqlite3_open(g.gl_pathv[0], &db) == SQLITE_OK);
	globfree(&g);
	CU_ASSERT_FATAL(sqlite3_prepare_v2(db, "UPDATE attributes SET value = x'01' WHERE type = ?1"
	                                   " AND oid = (SELECT oid FROM attributes WHERE type = ?2"
	                                   " AND value = ?3)", -1, &st, NULL) == SQLITE_OK);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)CKA_ENCRYPT);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)CKA_LABEL);
	sqlite3_bind_blob(st, 3, "usage2", 6, SQLITE_STATIC);
	CU_ASSERT(sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(db) == 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
	CU_ASSERT(enc_once(h2, CKM_AES_ECB) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	pkt_f->C_DestroyObject(pc_s, h);
	pkt_f->C_DestroyObject(pc_s, h2);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11_allowed");

	CU_add_test(s, "setup: token, user login, restricted keys of every class", t_setup);
	CU_add_test(s, "every key class x every operation family: allowed and refused", t_table);
	CU_add_test(s, "the allowed mechanism works: AES-GCM, ECDSA-SHA256", t_allowed_works);
	CU_add_test(s, "an async session's Init refuses the same", t_async);
	CU_add_test(s, "pkcs11-provider rsapssam: PSS-only keys refuse PKCS#1 v1.5", t_rsapssam);
	CU_add_test(s, "the attribute: empty list, bad length, fixed once made", t_attribute);
	CU_add_test(s, "a list edited in the store to a partial mechanism allows nothing",
	            t_store_edit);
	CU_add_test(s, "a list widened in the store: the vault refuses the key", t_store_widen);
	CU_add_test(s, "usage flags: set by the user re-seals, edited in the store refuses",
	            t_usage_bound);
	return pc_run();
}
