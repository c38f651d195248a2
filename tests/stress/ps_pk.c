/*
 * ps_pk.c - p11stress: RSA, ECDSA, ECDH, Ed25519 and SM2 through the token,
 * checked by OpenSSL.  Signatures go both ways: the token signs with the
 * vault pair and OpenSSL verifies with its public part; OpenSSL signs with
 * its own pair and the token verifies with the public object (and refuses
 * a corrupted signature).  Decryption: OpenSSL encrypts to the vault pair;
 * encryption: the token encrypts to OpenSSL's pair, OpenSSL decrypts.
 */
#include <string.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>

#include "ps.h"
#include "pk_ossl.h"

#ifndef CKM_SHA3_256_RSA_PKCS          /* PKCS#11 3.0 values, not in p11-kit's 2.40 header */
#define CKM_SHA3_256_RSA_PKCS 0x60UL
#define CKM_SHA3_384_RSA_PKCS 0x61UL
#define CKM_SHA3_512_RSA_PKCS 0x62UL
#endif

/* arg of a signature op: key kind | flags */
enum { SG_KIND = 0xff, SG_PKCS1 = 0x100, SG_PSS = 0x200, SG_RAW = 0x400, SG_ID = 0x800 };

static const struct { const char *md; CK_MECHANISM_TYPE ck, mgf; uint8_t di[19]; size_t dil; } mds[] = {
	{ "SHA1", CKM_SHA_1, CKG_MGF1_SHA1,
	  { 0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14 }, 15 },
#define DI2(x, l) { 0x30, 0x11 + (l), 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, x, 0x05, 0x00, 0x04, l }
	{ "SHA224", CKM_SHA224, CKG_MGF1_SHA224, DI2(0x04, 0x1c), 19 },
	{ "SHA256", CKM_SHA256, CKG_MGF1_SHA256, DI2(0x01, 0x20), 19 },
	{ "SHA384", CKM_SHA384, CKG_MGF1_SHA384, DI2(0x02, 0x30), 19 },
	{ "SHA512", CKM_SHA512, CKG_MGF1_SHA512, DI2(0x03, 0x40), 19 },
};
#define NMD (sizeof mds / sizeof mds[0])

static int md_index(const char *md)
{
	size_t i;

	for (i = 0; i < NMD; i++)
		if (strcmp(mds[i].md, md) == 0)
			return (int)i;
	return -1;
}

/* The EC kinds pick a curve per operation. */
static int pick_kind(ps_thr *t, int kind)
{
	return kind == PS_P256 && ps_below(t, 2) ? PS_P384 : kind;
}

static size_t flen_of(int kind)
{
	return kind == PS_P384 ? 48 : 32;
}

/* SM2 Z = SM3(ENTL || ID || a || b || xG || yG || xA || yA) (GB/T 32918.2). */
static int sm2_z(EVP_PKEY *k, const uint8_t *id, size_t idl, uint8_t z[32])
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_sm2);
	BIGNUM *a = BN_new(), *b = BN_new();
	uint8_t buf[2 + 64 + 6 * 32], pt[65];
	size_t n = 0;
	int ok;

	buf[n++] = (uint8_t)(idl * 8 >> 8);
	buf[n++] = (uint8_t)(idl * 8);
	memcpy(buf + n, id, idl);
	n += idl;
	ok = g && a && b && EC_GROUP_get_curve(g, NULL, a, b, NULL) &&
	     BN_bn2binpad(a, buf + n, 32) == 32 && BN_bn2binpad(b, buf + n + 32, 32) == 32 &&
	     EC_POINT_point2oct(g, EC_GROUP_get0_generator(g), POINT_CONVERSION_UNCOMPRESSED,
	                        pt, sizeof pt, NULL) == 65;
	if (ok) {
		memcpy(buf + n + 64, pt + 1, 64);
		ok = po_ec_pub(k, pt, sizeof pt) == 65;
		memcpy(buf + n + 128, pt + 1, 64);
		ok = ok && EVP_Digest(buf, n + 192, z, NULL, ps_md("SM3"), NULL);
	}
	BN_free(a);
	BN_free(b);
	EC_GROUP_free(g);
	return ok;
}

typedef struct sigctx {
	int kind, flags;
	const EVP_MD *md;            /* NULL for Ed25519 */
	int mdi, saltlen;
	const EVP_MD *mgf;
	uint8_t id[32];
	size_t idl;                  /* 0: SM2 default ID */
} sigctx;

/* OpenSSL verifies the token's signature sig over msg with key k. */
static int ossl_verify(const sigctx *c, EVP_PKEY *k, const uint8_t *msg, size_t n,
                       const uint8_t *sig, size_t sl)
{
	uint8_t der[160];
	size_t fl = flen_of(c->kind);

	switch (c->kind) {
	case PS_RSA:
		return po_verify(k, c->md, c->flags & SG_PSS ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING,
		                 c->saltlen, c->mgf, msg, n, sig, sl);
	case PS_P256: case PS_P384:
		return sl == 2 * fl && po_verify(k, c->md, 0, 0, NULL, msg, n, der, po_rs2der(sig, fl, der));
	case PS_ED25519:
		return po_verify(k, NULL, 0, 0, NULL, msg, n, sig, sl);
	default:
		return sl == 64 && po_sm2_verify(k, c->idl ? c->id : NULL, c->idl, msg, n, sig);
	}
}

/* OpenSSL signs msg with k, in the PKCS#11 encoding; returns the length. */
static size_t ossl_sign(const sigctx *c, EVP_PKEY *k, const uint8_t *msg, size_t n, uint8_t *sig)
{
	uint8_t der[160];
	size_t fl = flen_of(c->kind), dl;

	switch (c->kind) {
	case PS_RSA:
		return po_sign(k, c->md, c->flags & SG_PSS ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING,
		               c->saltlen, c->mgf, msg, n, sig, 512);
	case PS_P256: case PS_P384:
		dl = po_sign(k, c->md, 0, 0, NULL, msg, n, der, sizeof der);
		return dl && po_der2rs(der, dl, fl, sig) ? 2 * fl : 0;
	case PS_ED25519:
		return po_sign(k, NULL, 0, 0, NULL, msg, n, sig, 64);
	default:
		return po_sm2_sign(k, c->idl ? c->id : NULL, c->idl, msg, n, sig) ? 64 : 0;
	}
}

/* What the token signs for msg: msg itself, or for SG_RAW the digest
 * (DigestInfo || H for CKM_RSA_PKCS, SM3(Z || M) for CKM_PV_SM2). */
static size_t token_input(const sigctx *c, EVP_PKEY *k, const uint8_t *msg, size_t n, uint8_t *out)
{
	uint8_t z[32 + 4096];
	unsigned hl = 0;
	size_t pre = 0;

	if (!(c->flags & SG_RAW)) {
		memcpy(out, msg, n);
		return n;
	}
	if (c->kind == PS_SM2) {
		static const uint8_t defid[] = "1234567812345678";
		if (n > 4096 || !sm2_z(k, defid, 16, z))
			return 0;
		memcpy(z + 32, msg, n);
		return EVP_Digest(z, 32 + n, out, &hl, ps_md("SM3"), NULL) ? hl : 0;
	}
	if (c->kind == PS_RSA && (c->flags & SG_PKCS1)) {
		pre = mds[c->mdi].dil;
		memcpy(out, mds[c->mdi].di, pre);
	}
	return EVP_Digest(msg, n, out + pre, &hl, c->md, NULL) ? pre + hl : 0;
}

static int op_sig(ps_thr *t, const ps_op *o)
{
	sigctx c = { .kind = pick_kind(t, o->arg & SG_KIND), .flags = o->arg };
	ps_pair *p = &K.pk[c.kind];
	size_t n = ps_len(t, 4096), in_l, sl2;
	uint8_t *msg = t->in, *in = t->tmp, *sig = t->ref;
	CK_RSA_PKCS_PSS_PARAMS pp;
	CK_MECHANISM m = { o->mech, NULL, 0 };
	int multi = !(c.flags & SG_RAW) && PS_MULTI(t), mine = ps_below(t, 2) == 0;
	CK_ULONG sl = 1024;
	CK_RV rv;

	c.mdi = md_index(o->md ? o->md : mds[ps_below(t, NMD)].md);
	c.md = c.kind == PS_ED25519 ? NULL : c.kind == PS_SM2 ? ps_md("SM3")
	     : ps_md(o->md ? o->md : mds[c.mdi].md);
	if (c.flags & SG_PSS) {
		int mg = (int)ps_below(t, NMD);
		c.saltlen = (int)ps_below(t, (uint32_t)EVP_MD_get_size(c.md) + 1);
		c.mgf = ps_md(mds[mg].md);
		pp = (CK_RSA_PKCS_PSS_PARAMS){ mds[c.mdi].ck, mds[mg].mgf, (CK_ULONG)c.saltlen };
		m.pParameter = &pp;
		m.ulParameterLen = sizeof pp;
	}
	if ((c.flags & SG_ID) && ps_below(t, 2)) {      /* SM2 with a signer ID */
		c.idl = 1 + ps_below(t, sizeof c.id);
		ps_fill(t, c.id, c.idl);
		m.pParameter = c.id;
		m.ulParameterLen = c.idl;
	}
	ps_fill(t, msg, n);
	if (mine) {                                      /* token signs */
		if ((in_l = token_input(&c, p->o, msg, n, in)) == 0 && (c.flags & SG_RAW))
			return ps_fail(t, o, PS_WRONG, "OpenSSL digest failed");
		if ((rv = ps_sign(t, &m, p->priv, multi, in, in_l, sig, &sl)) != CKR_OK)
			return PS_RV(t, o, "C_Sign", rv);
		if (!ossl_verify(&c, p->o, msg, n, sig, sl))
			return ps_fail(t, o, PS_WRONG, "%zu-byte message, %s: OpenSSL rejects the signature",
			               n, c.md ? EVP_MD_get0_name(c.md) : "-");
		return PS_OK;
	}
	/* OpenSSL signs, the token verifies */
	if ((in_l = token_input(&c, p->theirs, msg, n, in)) == 0 && (c.flags & SG_RAW))
		return ps_fail(t, o, PS_WRONG, "OpenSSL digest failed");
	if ((sl2 = ossl_sign(&c, p->theirs, msg, n, sig)) == 0)
		return ps_fail(t, o, PS_WRONG, "OpenSSL sign failed");
	if ((rv = ps_verify(t, &m, p->theirs_pub, multi, in, in_l, sig, sl2)) != CKR_OK)
		return ps_fail(t, o, rv == CKR_SIGNATURE_INVALID ? PS_WRONG : PS_RVERR,
		               "C_Verify of OpenSSL's signature (%zu-byte message): CK_RV 0x%lx",
		               n, (unsigned long)rv);
	sig[ps_below(t, (uint32_t)sl2)] ^= (uint8_t)(1u << ps_below(t, 8));
	rv = ps_verify(t, &m, p->theirs_pub, multi, in, in_l, sig, sl2);
	if (rv != CKR_SIGNATURE_INVALID)
		return ps_fail(t, o, rv == CKR_OK ? PS_WRONG : PS_RVERR,
		               "C_Verify of a corrupted signature: CK_RV 0x%lx", (unsigned long)rv);
	return PS_OK;
}

/* ---- RSA encryption (arg 0: PKCS#1 v1.5, 1: OAEP, 2: X.509 raw) --------------- */

static int op_rsa_enc(ps_thr *t, const ps_op *o)
{
	ps_pair *p = &K.pk[PS_RSA];
	int pad = o->arg == 0 ? RSA_PKCS1_PADDING : o->arg == 1 ? RSA_PKCS1_OAEP_PADDING : RSA_NO_PADDING;
	int mi = (int)ps_below(t, NMD), gi = (int)ps_below(t, NMD);
	const EVP_MD *md = o->arg == 1 ? ps_md(mds[mi].md) : NULL;
	const EVP_MD *mgf = o->arg == 1 ? ps_md(mds[gi].md) : NULL;
	uint8_t label[32];
	size_t ll = o->arg == 1 && ps_below(t, 2) ? 1 + ps_below(t, sizeof label) : 0;
	CK_RSA_PKCS_OAEP_PARAMS op = { mds[mi].ck, mds[gi].mgf, CKZ_DATA_SPECIFIED, ll ? label : NULL, ll };
	CK_MECHANISM m = { o->mech, o->arg == 1 ? &op : NULL, o->arg == 1 ? sizeof op : 0 };
	size_t max = o->arg == 0 ? 256 - 11 : o->arg == 1 ? 256 - 2 * (size_t)EVP_MD_get_size(md) - 2 : 256;
	size_t n = o->arg == 2 ? 256 : ps_below(t, (uint32_t)max + 1);
	CK_ULONG ol = PS_BUF;
	long cl;
	CK_RV rv;

	ps_fill(t, label, ll);
	ps_fill(t, t->in, n);
	if (o->arg == 2)
		memset(t->in, 0, 1 + ps_below(t, 3));        /* below the modulus */
	if (ps_below(t, 2)) {                            /* OpenSSL encrypts, token decrypts */
		cl = po_encrypt(p->o, pad, md, mgf, label, ll, t->in, n, t->ref, PS_BUF);
		if (cl <= 0)
			return ps_fail(t, o, PS_WRONG, "OpenSSL encryption failed");
		if ((rv = ps_crypt(t, &m, p->priv, 0, 0, t->ref, (size_t)cl, t->out, &ol)) != CKR_OK)
			return PS_RV(t, o, "C_Decrypt of OpenSSL's ciphertext", rv);
		if (ol != n || memcmp(t->out, t->in, n) != 0)
			return ps_fail(t, o, PS_WRONG, "%zu-byte plaintext: decryption differs (%lu bytes)",
			               n, (unsigned long)ol);
		return PS_OK;
	}
	/* the token encrypts to OpenSSL's key */
	if ((rv = ps_crypt(t, &m, p->theirs_pub, 1, 0, t->in, n, t->out, &ol)) != CKR_OK)
		return PS_RV(t, o, "C_Encrypt", rv);
	if (o->arg == 2)                                 /* deterministic */
		cl = po_encrypt(p->theirs, pad, NULL, NULL, NULL, 0, t->in, n, t->ref, PS_BUF);
	else
		cl = po_decrypt(p->theirs, pad, md, mgf, label, ll, t->out, ol, t->ref, PS_BUF);
	if (o->arg == 2 ? (cl != (long)ol || memcmp(t->ref, t->out, ol) != 0)
	                : (cl != (long)n || memcmp(t->ref, t->in, n) != 0))
		return ps_fail(t, o, PS_WRONG, "%zu-byte plaintext: OpenSSL disagrees with C_Encrypt", n);
	return PS_OK;
}

/* ---- SM2 encryption (ciphertext C1||C3||C2 on the token, DER in OpenSSL) -------- */

static int op_sm2_enc(ps_thr *t, const ps_op *o)
{
	ps_pair *p = &K.pk[PS_SM2];
	CK_MECHANISM m = { o->mech, NULL, 0 };
	size_t n = 1 + ps_below(t, 1024);
	CK_ULONG ol = PS_BUF;
	long l;
	CK_RV rv;

	ps_fill(t, t->in, n);
	if (ps_below(t, 2)) {
		l = po_encrypt(p->o, 0, NULL, NULL, NULL, 0, t->in, n, t->tmp, PS_BUF);
		l = l > 0 ? po_sm2_der2raw(t->tmp, (size_t)l, t->ref, PS_BUF) : -1;
		if (l <= 0)
			return ps_fail(t, o, PS_WRONG, "OpenSSL SM2 encryption failed");
		if ((rv = ps_crypt(t, &m, p->priv, 0, 0, t->ref, (size_t)l, t->out, &ol)) != CKR_OK)
			return PS_RV(t, o, "C_Decrypt of OpenSSL's ciphertext", rv);
		if (ol != n || memcmp(t->out, t->in, n) != 0)
			return ps_fail(t, o, PS_WRONG, "%zu-byte plaintext: decryption differs", n);
		return PS_OK;
	}
	if ((rv = ps_crypt(t, &m, p->theirs_pub, 1, 0, t->in, n, t->out, &ol)) != CKR_OK)
		return PS_RV(t, o, "C_Encrypt", rv);
	l = po_sm2_raw2der(t->out, ol, t->tmp, PS_BUF);
	l = l > 0 ? po_decrypt(p->theirs, 0, NULL, NULL, NULL, 0, t->tmp, (size_t)l, t->ref, PS_BUF) : -1;
	if (l != (long)n || memcmp(t->ref, t->in, n) != 0)
		return ps_fail(t, o, PS_WRONG, "%zu-byte plaintext: OpenSSL cannot decrypt C_Encrypt's", n);
	return PS_OK;
}

/* ---- ECDH with an OpenSSL peer ------------------------------------------------- */

static int op_ecdh(ps_thr *t, const ps_op *o)
{
	int kind = pick_kind(t, PS_P256);
	ps_pair *p = &K.pk[kind];
	EVP_PKEY *peer = po_ec_gen(kind == PS_P384 ? "P-384" : "P-256");
	uint8_t pub[140], ref[64];
	size_t pl = peer ? po_ec_pub(peer, pub + 2, sizeof pub - 2) : 0;
	size_t sl = pl ? po_ecdh(peer, p->o, ref, sizeof ref) : 0;
	CK_ECDH1_DERIVE_PARAMS ep = { CKD_NULL, 0, NULL, 0, pub + 2 };
	CK_MECHANISM m = { o->mech, &ep, sizeof ep };
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = ps_below(t, 2) ? CKK_AES : CKK_GENERIC_SECRET;
	CK_ULONG vlen = 16 + 8 * ps_below(t, 3);
	CK_BBOOL tr = CK_TRUE, fa = CK_FALSE;
	CK_ATTRIBUTE dt[] = { { CKA_CLASS, &cls, sizeof cls }, { CKA_KEY_TYPE, &kt, sizeof kt },
	                      { CKA_SENSITIVE, &fa, 1 }, { CKA_EXTRACTABLE, &tr, 1 },
	                      { CKA_VALUE_LEN, &vlen, sizeof vlen } };
	CK_OBJECT_HANDLE h;
	CK_RV rv;
	long vl;

	EVP_PKEY_free(peer);
	if (sl != flen_of(kind))
		return ps_fail(t, o, PS_WRONG, "OpenSSL ECDH failed");
	ep.ulPublicDataLen = pl;
	if (ps_below(t, 2)) {                            /* as a DER OCTET STRING */
		pub[0] = 0x04;
		pub[1] = (uint8_t)pl;
		ep.pPublicData = pub;
		ep.ulPublicDataLen = pl + 2;
	}
	if (kt == CKK_GENERIC_SECRET)
		vlen = sl;                                   /* the whole X coordinate */
	if ((rv = F->C_DeriveKey(t->s, &m, p->priv, dt, kt == CKK_AES ? 5 : 4, &h)) != CKR_OK)
		return PS_RV(t, o, "C_DeriveKey", rv);
	vl = ps_value(t->s, h, t->out, PS_BUF);
	F->C_DestroyObject(t->s, h);
	if (vl != (long)vlen || memcmp(t->out, ref + sl - vlen, vlen) != 0)
		return ps_fail(t, o, PS_WRONG, "%s %s of %lu bytes: shared secret differs",
		               kind == PS_P384 ? "P-384" : "P-256",
		               kt == CKK_AES ? "AES key" : "generic secret", (unsigned long)vlen);
	return PS_OK;
}

/* ---- key pair generation: the new pair signs, OpenSSL verifies ------------------ */

static int op_pairgen(ps_thr *t, const ps_op *o)
{
	static const CK_MECHANISM_TYPE use[PS_NPAIRS] = {
		CKM_SHA256_RSA_PKCS, CKM_ECDSA_SHA256, CKM_ECDSA_SHA256, CKM_EDDSA, CKM_PV_SM2_SM3 };
	sigctx c = { .kind = pick_kind(t, o->arg), .flags = SG_PKCS1, .md = ps_md("SHA256") };
	CK_MECHANISM m = { use[c.kind], NULL, 0 };
	CK_OBJECT_HANDLE pub, priv;
	EVP_PKEY *k = NULL;
	size_t n = ps_len(t, 1024);
	CK_ULONG sl = 1024;
	CK_RV rv;
	int ok;

	if (c.kind == PS_RSA && ps_below(t, 32) != 0)
		return PS_SKIP;                              /* seconds each: rarely */
	c.md = c.kind == PS_ED25519 ? NULL : c.kind == PS_SM2 ? ps_md("SM3") : c.md;
	if ((rv = ps_genpair(t->s, c.kind, &pub, &priv, &k)) != CKR_OK)
		return rv == CKR_GENERAL_ERROR ? ps_fail(t, o, PS_WRONG, "public key attributes unusable")
		                               : PS_RV(t, o, "C_GenerateKeyPair", rv);
	ps_fill(t, t->in, n);
	rv = ps_sign(t, &m, priv, 0, t->in, n, t->ref, &sl);
	ok = rv == CKR_OK && ossl_verify(&c, k, t->in, n, t->ref, sl);
	F->C_DestroyObject(t->s, priv);
	F->C_DestroyObject(t->s, pub);
	EVP_PKEY_free(k);
	if (rv != CKR_OK)
		return PS_RV(t, o, "C_Sign with the new key", rv);
	return ok ? PS_OK : ps_fail(t, o, PS_WRONG, "OpenSSL rejects the new key's signature");
}

#define SIG(c, md, a) { #c, c, op_sig, md, a }

const ps_op ps_pk_ops[] = {
	{ "CKM_RSA_PKCS_KEY_PAIR_GEN", CKM_RSA_PKCS_KEY_PAIR_GEN, op_pairgen, NULL, PS_RSA },
	{ "CKM_EC_KEY_PAIR_GEN", CKM_EC_KEY_PAIR_GEN, op_pairgen, NULL, PS_P256 },
	{ "CKM_EC_EDWARDS_KEY_PAIR_GEN", CKM_EC_EDWARDS_KEY_PAIR_GEN, op_pairgen, NULL, PS_ED25519 },
	{ "CKM_PV_SM2_KEY_PAIR_GEN", CKM_PV_SM2_KEY_PAIR_GEN, op_pairgen, NULL, PS_SM2 },
	{ "CKM_RSA_PKCS sign", CKM_RSA_PKCS, op_sig, NULL, PS_RSA | SG_PKCS1 | SG_RAW },
	{ "CKM_RSA_PKCS crypt", CKM_RSA_PKCS, op_rsa_enc, NULL, 0 },
	{ "CKM_RSA_PKCS_OAEP", CKM_RSA_PKCS_OAEP, op_rsa_enc, NULL, 1 },
	{ "CKM_RSA_X_509", CKM_RSA_X_509, op_rsa_enc, NULL, 2 },
	{ "CKM_RSA_PKCS_PSS", CKM_RSA_PKCS_PSS, op_sig, NULL, PS_RSA | SG_PSS | SG_RAW },
	SIG(CKM_SHA1_RSA_PKCS, "SHA1", PS_RSA | SG_PKCS1),
	SIG(CKM_SHA224_RSA_PKCS, "SHA224", PS_RSA | SG_PKCS1),
	SIG(CKM_SHA256_RSA_PKCS, "SHA256", PS_RSA | SG_PKCS1),
	SIG(CKM_SHA384_RSA_PKCS, "SHA384", PS_RSA | SG_PKCS1),
	SIG(CKM_SHA512_RSA_PKCS, "SHA512", PS_RSA | SG_PKCS1),
	SIG(CKM_SHA3_256_RSA_PKCS, "SHA3-256", PS_RSA | SG_PKCS1),
	SIG(CKM_SHA3_384_RSA_PKCS, "SHA3-384", PS_RSA | SG_PKCS1),
	SIG(CKM_SHA3_512_RSA_PKCS, "SHA3-512", PS_RSA | SG_PKCS1),
	SIG(CKM_SHA1_RSA_PKCS_PSS, "SHA1", PS_RSA | SG_PSS),
	SIG(CKM_SHA224_RSA_PKCS_PSS, "SHA224", PS_RSA | SG_PSS),
	SIG(CKM_SHA256_RSA_PKCS_PSS, "SHA256", PS_RSA | SG_PSS),
	SIG(CKM_SHA384_RSA_PKCS_PSS, "SHA384", PS_RSA | SG_PSS),
	SIG(CKM_SHA512_RSA_PKCS_PSS, "SHA512", PS_RSA | SG_PSS),
	{ "CKM_ECDSA", CKM_ECDSA, op_sig, NULL, PS_P256 | SG_RAW },
	SIG(CKM_ECDSA_SHA1, "SHA1", PS_P256),
	SIG(CKM_ECDSA_SHA224, "SHA224", PS_P256),
	SIG(CKM_ECDSA_SHA256, "SHA256", PS_P256),
	SIG(CKM_ECDSA_SHA384, "SHA384", PS_P256),
	SIG(CKM_ECDSA_SHA512, "SHA512", PS_P256),
	{ "CKM_ECDH1_DERIVE", CKM_ECDH1_DERIVE, op_ecdh, NULL, 0 },
	SIG(CKM_EDDSA, NULL, PS_ED25519),
	{ "CKM_PV_SM2", CKM_PV_SM2, op_sig, NULL, PS_SM2 | SG_RAW },
	SIG(CKM_PV_SM2_SM3, NULL, PS_SM2 | SG_ID),
	{ "CKM_PV_SM2_ENCRYPT", CKM_PV_SM2_ENCRYPT, op_sm2_enc, NULL, 0 },
	{ NULL, 0, NULL, NULL, 0 }
};

const ps_gap ps_gaps[] = {
	{ 0, NULL }
};
