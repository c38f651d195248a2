/*
 * ps_keys.c - p11stress keys.  Secret keys are imported with values the
 * test knows (C_CreateObject), so OpenSSL computes the same results.  For
 * each public-key algorithm: a pair generated in the vault, whose public
 * attributes become an OpenSSL key, and an OpenSSL pair whose public half
 * is created on the token (the token verifies what OpenSSL signs).
 * Every object is a session object of the setup session (logged in).
 */
#include <stdio.h>
#include <string.h>
#include <openssl/rand.h>

#include "ps.h"
#include "pk_ossl.h"

ps_keys K;

static CK_BBOOL T = CK_TRUE, Fa = CK_FALSE;

static const uint8_t oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const uint8_t oid_p384[] = { 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22 };
static const uint8_t str_ed[] = { 0x13, 0x0c, 'e', 'd', 'w', 'a', 'r', 'd', 's', '2', '5', '5', '1', '9' };
static const uint8_t oid_sm2[] = { 0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d };

static const struct {
	const char *name, *group;       /* group: pk_ossl name, NULL for RSA/Ed25519 */
	CK_MECHANISM_TYPE gen;
	CK_KEY_TYPE kt;
	const uint8_t *params;
	size_t paramsl;
} kinds[PS_NPAIRS] = {
	[PS_RSA] = { "RSA-2048", NULL, CKM_RSA_PKCS_KEY_PAIR_GEN, CKK_RSA, NULL, 0 },
	[PS_P256] = { "P-256", "P-256", CKM_EC_KEY_PAIR_GEN, CKK_EC, oid_p256, sizeof oid_p256 },
	[PS_P384] = { "P-384", "P-384", CKM_EC_KEY_PAIR_GEN, CKK_EC, oid_p384, sizeof oid_p384 },
	[PS_ED25519] = { "Ed25519", NULL, CKM_EC_EDWARDS_KEY_PAIR_GEN, CKK_EC_EDWARDS, str_ed, sizeof str_ed },
	[PS_SM2] = { "SM2", "SM2", CKM_PV_SM2_KEY_PAIR_GEN, CKK_PV_SM2, NULL, 0 },
};

static CK_RV secret(CK_SESSION_HANDLE s, CK_KEY_TYPE kt, const uint8_t *v, size_t n,
                    int extractable, CK_OBJECT_HANDLE *h)
{
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_ATTRIBUTE a[] = {
		{ CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
		{ CKA_VALUE, (void *)v, n },
		{ CKA_ENCRYPT, &T, 1 }, { CKA_DECRYPT, &T, 1 }, { CKA_SIGN, &T, 1 },
		{ CKA_VERIFY, &T, 1 }, { CKA_WRAP, &T, 1 }, { CKA_UNWRAP, &T, 1 },
		{ CKA_DERIVE, &T, 1 },
		{ CKA_SENSITIVE, extractable ? &Fa : &T, 1 },
		{ CKA_EXTRACTABLE, extractable ? &T : &Fa, 1 },
	};

	return F->C_CreateObject(s, a, sizeof a / sizeof a[0], h);
}

/* The public key object of a pair in OpenSSL form. */
static EVP_PKEY *to_ossl(CK_SESSION_HANDLE s, int kind, CK_OBJECT_HANDLE pub)
{
	uint8_t a[600], b[16];
	long al, bl;

	if (kind == PS_RSA) {
		al = ps_attr(s, pub, CKA_MODULUS, a, sizeof a);
		bl = ps_attr(s, pub, CKA_PUBLIC_EXPONENT, b, sizeof b);
		return al > 0 && bl > 0 ? po_rsa_pub(a, (size_t)al, b, (size_t)bl) : NULL;
	}
	al = ps_attr(s, pub, CKA_EC_POINT, a, sizeof a);
	if (kind == PS_ED25519)
		return al == 32 ? EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, a, 32) : NULL;
	/* DER OCTET STRING of 04||X||Y */
	if (al < 3 || a[0] != 0x04 || a[1] != al - 2)
		return NULL;
	return po_ec_from_pub(kinds[kind].group, a + 2, (size_t)al - 2);
}

CK_RV ps_genpair(CK_SESSION_HANDLE s, int kind, CK_OBJECT_HANDLE *pub,
                 CK_OBJECT_HANDLE *priv, EVP_PKEY **o)
{
	CK_MECHANISM m = { kinds[kind].gen, NULL, 0 };
	CK_ULONG bits = 2048;
	CK_ATTRIBUTE pt[4], st[5];
	CK_ULONG pn = 0, sn = 0;
	CK_RV rv;

	pt[pn++] = (CK_ATTRIBUTE){ CKA_VERIFY, &T, 1 };
	if (kind == PS_RSA || kind == PS_SM2)
		pt[pn++] = (CK_ATTRIBUTE){ CKA_ENCRYPT, &T, 1 };
	if (kinds[kind].params)
		pt[pn++] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)kinds[kind].params, kinds[kind].paramsl };
	if (kind == PS_RSA)
		pt[pn++] = (CK_ATTRIBUTE){ CKA_MODULUS_BITS, &bits, sizeof bits };
	st[sn++] = (CK_ATTRIBUTE){ CKA_SIGN, &T, 1 };
	if (kind == PS_RSA || kind == PS_SM2)
		st[sn++] = (CK_ATTRIBUTE){ CKA_DECRYPT, &T, 1 };
	if (kind == PS_P256 || kind == PS_P384)
		st[sn++] = (CK_ATTRIBUTE){ CKA_DERIVE, &T, 1 };
	rv = F->C_GenerateKeyPair(s, &m, pt, pn, st, sn, pub, priv);
	if (rv != CKR_OK)
		return rv;
	*o = to_ossl(s, kind, *pub);
	if (*o == NULL || (kind != PS_ED25519 && !po_pub_check(*o))) {
		EVP_PKEY_free(*o);
		*o = NULL;
		return CKR_GENERAL_ERROR;        /* the public attributes are unusable */
	}
	return CKR_OK;
}

/* SM2: the module refuses C_CreateObject of a CKK_PV_SM2 public key
 * (CKR_ATTRIBUTE_VALUE_INVALID), so OpenSSL's private key is imported and
 * the public object the token makes beside it is used. */
static CK_RV theirs_sm2(CK_SESSION_HANDLE s, ps_pair *p)
{
	static const uint8_t id[] = "p11stress-sm2-openssl";
	CK_OBJECT_CLASS c = CKO_PRIVATE_KEY, pc = CKO_PUBLIC_KEY;
	CK_KEY_TYPE kt = CKK_PV_SM2;
	uint8_t d[32];
	CK_ATTRIBUTE t[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
	                     { CKA_ID, (void *)id, sizeof id - 1 },
	                     { CKA_EC_PARAMS, (void *)oid_sm2, sizeof oid_sm2 },
	                     { CKA_VALUE, d, sizeof d } };
	CK_ATTRIBUTE ft[] = { { CKA_CLASS, &pc, sizeof pc }, { CKA_ID, (void *)id, sizeof id - 1 } };
	CK_OBJECT_HANDLE priv;
	CK_ULONG n = 0;
	CK_RV rv;

	if (po_ec_priv(p->theirs, d, sizeof d) != sizeof d)
		return CKR_GENERAL_ERROR;
	rv = F->C_CreateObject(s, t, sizeof t / sizeof t[0], &priv);
	OPENSSL_cleanse(d, sizeof d);
	if (rv != CKR_OK || (rv = F->C_FindObjectsInit(s, ft, 2)) != CKR_OK)
		return rv;
	rv = F->C_FindObjects(s, &p->theirs_pub, 1, &n);
	F->C_FindObjectsFinal(s);
	return rv != CKR_OK ? rv : n == 1 ? CKR_OK : CKR_GENERAL_ERROR;
}

/* An OpenSSL pair and its public half as a token object. */
static CK_RV theirs(CK_SESSION_HANDLE s, int kind, ps_pair *p)
{
	CK_OBJECT_CLASS c = CKO_PUBLIC_KEY;
	CK_KEY_TYPE kt = kinds[kind].kt;
	uint8_t a[600], b[16], pt[140];
	size_t al = 0, bl = 0;
	CK_ATTRIBUTE t[8];
	CK_ULONG n = 0;

	if (kind == PS_RSA)
		p->theirs = po_rsa_gen(2048);
	else if (kind == PS_ED25519)
		p->theirs = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	else
		p->theirs = po_ec_gen(kinds[kind].group);
	if (p->theirs == NULL)
		return CKR_GENERAL_ERROR;
	if (kind == PS_SM2)
		return theirs_sm2(s, p);
	t[n++] = (CK_ATTRIBUTE){ CKA_CLASS, &c, sizeof c };
	t[n++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kt, sizeof kt };
	t[n++] = (CK_ATTRIBUTE){ CKA_VERIFY, &T, 1 };
	if (kind == PS_RSA || kind == PS_SM2)
		t[n++] = (CK_ATTRIBUTE){ CKA_ENCRYPT, &T, 1 };
	if (kind == PS_RSA) {
		al = po_rsa_comp(p->theirs, 0, a, sizeof a);
		bl = po_rsa_comp(p->theirs, 1, b, sizeof b);
		t[n++] = (CK_ATTRIBUTE){ CKA_MODULUS, a, al };
		t[n++] = (CK_ATTRIBUTE){ CKA_PUBLIC_EXPONENT, b, bl };
	} else if (kind == PS_ED25519) {
		al = 32;
		if (!EVP_PKEY_get_raw_public_key(p->theirs, a, &al))
			return CKR_GENERAL_ERROR;
		t[n++] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)str_ed, sizeof str_ed };
		t[n++] = (CK_ATTRIBUTE){ CKA_EC_POINT, a, al };
	} else {
		bl = po_ec_pub(p->theirs, pt, sizeof pt);
		a[0] = 0x04;
		a[1] = (uint8_t)bl;
		memcpy(a + 2, pt, bl);
		t[n++] = (CK_ATTRIBUTE){ CKA_EC_PARAMS,
		                         (void *)(kind == PS_SM2 ? oid_sm2 : kinds[kind].params),
		                         kind == PS_SM2 ? sizeof oid_sm2 : kinds[kind].paramsl };
		t[n++] = (CK_ATTRIBUTE){ CKA_EC_POINT, a, bl + 2 };
	}
	return F->C_CreateObject(s, t, n, &p->theirs_pub);
}

int ps_keys_setup(CK_SESSION_HANDLE s)
{
	CK_RV rv;
	int i;

	for (i = 0; i < 3; i++) {
		K.aesl[i] = 16 + 8 * (size_t)i;
		RAND_bytes(K.aesv[i], (int)K.aesl[i]);
		if ((rv = secret(s, CKK_AES, K.aesv[i], K.aesl[i], 0, &K.aes[i])) != CKR_OK) {
			fprintf(stderr, "p11stress: C_CreateObject of an AES key: CK_RV 0x%lx\n",
			        (unsigned long)rv);
			return -1;
		}
	}
	RAND_bytes(K.sm4v, sizeof K.sm4v);
	RAND_bytes(K.hmacv, sizeof K.hmacv);
	K.wrappedl[0] = 16;
	K.wrappedl[1] = 40;
	RAND_bytes(K.wrappedv[0], 16);
	RAND_bytes(K.wrappedv[1], 40);
	if ((rv = secret(s, CKK_PV_SM4, K.sm4v, 16, 0, &K.sm4)) != CKR_OK ||
	    (rv = secret(s, CKK_GENERIC_SECRET, K.hmacv, sizeof K.hmacv, 0, &K.hmac)) != CKR_OK ||
	    (rv = secret(s, CKK_AES, K.wrappedv[0], 16, 1, &K.wrapped[0])) != CKR_OK ||
	    (rv = secret(s, CKK_GENERIC_SECRET, K.wrappedv[1], 40, 1, &K.wrapped[1])) != CKR_OK) {
		fprintf(stderr, "p11stress: C_CreateObject of a secret key: CK_RV 0x%lx\n",
		        (unsigned long)rv);
		return -1;
	}
	for (i = 0; i < PS_NPAIRS; i++) {
		ps_pair *p = &K.pk[i];
		if ((rv = ps_genpair(s, i, &p->pub, &p->priv, &p->o)) != CKR_OK) {
			fprintf(stderr, "p11stress: %s key pair generation: CK_RV 0x%lx\n",
			        kinds[i].name, (unsigned long)rv);
			return -1;
		}
		if ((rv = theirs(s, i, p)) != CKR_OK) {
			fprintf(stderr, "p11stress: %s public key import: CK_RV 0x%lx\n",
			        kinds[i].name, (unsigned long)rv);
			return -1;
		}
	}
	return 0;
}

void ps_keys_free(void)
{
	int i;

	for (i = 0; i < PS_NPAIRS; i++) {
		EVP_PKEY_free(K.pk[i].o);
		EVP_PKEY_free(K.pk[i].theirs);
	}
	OPENSSL_cleanse(&K, sizeof K);
}
