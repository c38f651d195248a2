/*
 * test_engine_pk_wp.c - Wycheproof public-key vectors through gpu/vault.h
 * (the engine's request path: key import into blobs with validation,
 * public-key inputs, DER/raw ECDH peers): RSA PKCS#1 v1.5 decryption and
 * signature generation/verification, PSS, OAEP, ECDSA P1363 (P-256,
 * P-384), ECDH (P-256, P-384), Ed25519.  Every valid case must be
 * accepted with the expected output, every invalid one rejected;
 * "acceptable" cases are counted and may go either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <openssl/x509.h>
#include <openssl/core_names.h>

#include "te_common.h"
#include "../core_pk/pk_test.h"

static int acc_yes, acc_no;

static int verdict(const ts_wp_case *tc, int accepted)
{
	if (ts_wp_valid(tc))
		return accepted ? 0 : 1;
	if (ts_wp_invalid(tc))
		return accepted ? 1 : 0;
	if (accepted)
		acc_yes++;
	else
		acc_no++;
	return 0;
}

static uint32_t prf_of(const char *sha)
{
	switch (pk_alg_from_name(sha)) {
	case 1: return PV_MECH_SHA1;
	case 2: return PV_MECH_SHA224;
	case 3: return PV_MECH_SHA256;
	case 4: return PV_MECH_SHA384;
	case 5: return PV_MECH_SHA512;
	default: return 0;
	}
}

typedef struct pblob {
	uint8_t blob[PV_PKBLOB_MAX];
	size_t len;
	uint8_t id[16];
	uint8_t pub[PV_PK_PUB_MAX];
	size_t publen;
} pblob;

static void put_field(uint8_t *o, size_t *pos, const uint8_t *v, size_t n)
{
	while (n > 1 && v[0] == 0) { v++; n--; }
	o[*pos] = (uint8_t)(n >> 8);
	o[*pos + 1] = (uint8_t)n;
	memcpy(o + *pos + 2, v, n);
	*pos += 2 + n;
}

/* Import the group's RSA private key (cached per group). */
static json_object *cur_group;
static pblob cur;
static int cur_rc;

static int rsa_key(const ts_wp_case *tc)
{
	kc_rsa_priv sk;
	uint8_t enc[4096], e4[4];
	size_t pos = 0, hb = KC_RSA_MAX_HBYTES;
	pv_req r;

	if (tc->group == cur_group)
		return cur_rc;
	cur_group = tc->group;
	if (!pk_wp_priv(tc, &sk))
		return cur_rc = -1;
	e4[0] = (uint8_t)(sk.e >> 24); e4[1] = (uint8_t)(sk.e >> 16);
	e4[2] = (uint8_t)(sk.e >> 8); e4[3] = (uint8_t)sk.e;
	put_field(enc, &pos, sk.n, sizeof sk.n);
	put_field(enc, &pos, e4, 4);
	put_field(enc, &pos, sk.d, sizeof sk.d);
	put_field(enc, &pos, sk.p, hb);
	put_field(enc, &pos, sk.q, hb);
	put_field(enc, &pos, sk.dp, hb);
	put_field(enc, &pos, sk.dq, hb);
	put_field(enc, &pos, sk.qinv, hb);
	memset(&cur, 0, sizeof cur);
	ts_rand(cur.id, 16);
	pv_req_init(&r, PV_OP_IMPORT_KEY, PV_MECH_NONE);
	r.in = enc; r.in_len = pos;
	r.new_type = PV_KEY_RSA; r.new_usage = PV_USE_SIGN | PV_USE_DECRYPT;
	memcpy(r.new_id, cur.id, 16);
	r.out = cur.blob; r.out_cap = sizeof cur.blob;
	r.out2 = cur.pub; r.out2_cap = sizeof cur.pub;
	cur_rc = pv_vault_call(te_v, &r);
	cur.len = r.out_len;
	cur.publen = r.out2_len;
	return cur_rc;
}

/* RSA public encoding n || e(4) from the group's key. */
static int rsa_pubenc(const ts_wp_case *tc, uint8_t *out, size_t *len)
{
	kc_rsa_pub pk;
	size_t k;

	if (!pk_wp_pub(tc, &pk))
		return 0;
	k = (pk.bits + 7) / 8;
	memcpy(out, pk.n + sizeof pk.n - k, k);
	out[k] = (uint8_t)(pk.e >> 24); out[k + 1] = (uint8_t)(pk.e >> 16);
	out[k + 2] = (uint8_t)(pk.e >> 8); out[k + 3] = (uint8_t)pk.e;
	*len = k + 4;
	return 1;
}

static int wp_dec(const ts_wp_case *tc, void *arg)
{
	int oaep = arg != NULL;
	size_t ctl, ml, ll = 0;
	uint8_t *ct = ts_wp_hex(tc, "ct", &ctl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *label = oaep ? ts_wp_hex(tc, "label", &ll) : NULL;
	uint8_t out[512];
	pv_req r;
	int rc, res;

	if (rsa_key(tc) != PV_OK || !ct || !msg) {
		free(ct); free(msg); free(label);
		return 1;
	}
	pv_req_init(&r, PV_OP_DECRYPT, oaep ? PV_MECH_RSA_PKCS_OAEP : PV_MECH_RSA_PKCS);
	if (oaep) {
		r.prf = prf_of(ts_wp_str(tc, "sha"));
		r.tag_len = prf_of(ts_wp_str(tc, "mgfSha"));
		r.aad = label; r.aad_len = ll;
	}
	r.key = cur.blob; r.key_len = cur.len; memcpy(r.key_id, cur.id, 16);
	r.in = ct; r.in_len = ctl;
	r.out = out; r.out_cap = sizeof out;
	rc = pv_vault_call(te_v, &r);
	res = verdict(tc, rc == PV_OK && r.out_len == ml && memcmp(out, msg, ml) == 0);
	if (rc != PV_OK && rc != PV_ERR_ENC_INVALID && rc != PV_ERR_ENC_LEN)
		res = 1;
	free(ct); free(msg); free(label);
	return res;
}

/* Signature verification (PKCS#1 v1.5 or PSS with the group's params). */
static int wp_ver(const ts_wp_case *tc, void *arg)
{
	int pss = arg != NULL;
	size_t sl, ml, pl;
	uint8_t *sig = ts_wp_hex(tc, "sig", &sl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t pub[PV_PK_PUB_MAX];
	pv_req r;
	int rc, res;

	if (!rsa_pubenc(tc, pub, &pl) || !sig || !msg) {
		free(sig); free(msg);
		return 1;
	}
	pv_req_init(&r, PV_OP_VERIFY, pss ? PV_MECH_RSA_PKCS_PSS : PV_MECH_RSA_PKCS);
	r.prf = prf_of(ts_wp_str(tc, "sha"));
	r.flags = PV_F_HASH_DATA;
	if (pss) {
		r.tag_len = prf_of(ts_wp_str(tc, "mgfSha"));
		r.ctr_bits = (uint32_t)ts_wp_int(tc, "sLen");
	}
	r.key = pub; r.key_len = pl; r.key_type = PV_KEY_RSA;
	r.in = msg; r.in_len = ml;
	r.in2 = sig; r.in2_len = sl;
	rc = pv_vault_call(te_v, &r);
	res = verdict(tc, rc == PV_OK);
	free(sig); free(msg);
	return res;
}

/* PKCS#1 v1.5 signature generation: deterministic, must equal "sig". */
static int wp_siggen(const ts_wp_case *tc, void *arg)
{
	size_t sl, ml;
	uint8_t *sig = ts_wp_hex(tc, "sig", &sl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t out[512];
	pv_req r;
	int rc, res;

	(void)arg;
	if (!msg) {
		free(sig);
		return 1;
	}
	if (rsa_key(tc) != PV_OK) {
		/* a key the vault refuses to import can sign nothing */
		if (getenv("W4DBG")) fprintf(stderr, "tc %d import rc %d\n", tc->tc_id, cur_rc);
		free(sig); free(msg);
		return verdict(tc, 0);
	}
	pv_req_init(&r, PV_OP_SIGN, PV_MECH_RSA_PKCS);
	r.prf = prf_of(ts_wp_str(tc, "sha"));
	r.flags = PV_F_HASH_DATA;
	r.key = cur.blob; r.key_len = cur.len; memcpy(r.key_id, cur.id, 16);
	r.in = msg; r.in_len = ml;
	r.out = out; r.out_cap = sizeof out;
	rc = pv_vault_call(te_v, &r);
	/* "sig" may omit leading zero bytes (acceptable "short signature") */
	res = verdict(tc, rc == PV_OK && sig && sl <= r.out_len &&
	                  memcmp(out + r.out_len - sl, sig, sl) == 0 &&
	                  (sl == r.out_len || out[0] == 0));
	free(sig); free(msg);
	return res;
}

/* Group's EC public key: "publicKey"."uncompressed" (hex) or Ed25519 "pk". */
static uint8_t *grp_pub(const ts_wp_case *tc, const char *field, size_t *len)
{
	json_object *o, *v;

	if (!json_object_object_get_ex(tc->group, "publicKey", &o) ||
	    !json_object_object_get_ex(o, field, &v))
		return NULL;
	return ts_unhex(json_object_get_string(v), len);
}

static int wp_ecdsa(const ts_wp_case *tc, void *arg)
{
	uint32_t type = (uint32_t)(uintptr_t)arg;
	size_t sl, ml, pl;
	uint8_t *sig = ts_wp_hex(tc, "sig", &sl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *pub = grp_pub(tc, "uncompressed", &pl);
	pv_req r;
	int rc, res;

	if (!pub || !sig || !msg) {
		free(sig); free(msg); free(pub);
		return 1;
	}
	pv_req_init(&r, PV_OP_VERIFY, PV_MECH_ECDSA);
	r.prf = prf_of(json_object_get_string(json_object_object_get(tc->group, "sha")));
	r.flags = PV_F_HASH_DATA;
	r.key = pub; r.key_len = pl; r.key_type = type;
	r.in = msg; r.in_len = ml;
	r.in2 = sig; r.in2_len = sl;
	rc = pv_vault_call(te_v, &r);
	res = verdict(tc, rc == PV_OK);
	free(sig); free(msg); free(pub);
	return res;
}

static int wp_ed(const ts_wp_case *tc, void *arg)
{
	size_t sl, ml, pl;
	uint8_t *sig = ts_wp_hex(tc, "sig", &sl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *pub = grp_pub(tc, "pk", &pl);
	pv_req r;
	int rc, res;

	(void)arg;
	if (!pub || !sig || !msg) {
		free(sig); free(msg); free(pub);
		return 1;
	}
	pv_req_init(&r, PV_OP_VERIFY, PV_MECH_EDDSA);
	r.key = pub; r.key_len = pl; r.key_type = PV_KEY_ED25519;
	r.in = msg; r.in_len = ml;
	r.in2 = sig; r.in2_len = sl;
	rc = pv_vault_call(te_v, &r);
	res = verdict(tc, rc == PV_OK);
	free(sig); free(msg); free(pub);
	return res;
}

/* ECDH: "public" is a SubjectPublicKeyInfo.  Its point (the BIT STRING) is
 * given to the vault as a DER OCTET STRING, the way PKCS#11 callers pass
 * CKA_EC_POINT; a SPKI that names another curve or does not parse can only
 * be refused by the token layer's CKA_EC_PARAMS check, which is counted
 * here as a rejection ("spki"). */
static int spki_rejects;

static int spki_point(const uint8_t *der, size_t len, int nid, uint8_t *pt, size_t *ptl)
{
	/* AlgorithmIdentifier {id-ecPublicKey, namedCurve} exactly */
	static const uint8_t a256[] = { 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
	                                0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	static const uint8_t a384[] = { 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
	                                0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22 };
	const uint8_t *alg = nid == NID_X9_62_prime256v1 ? a256 : a384;
	size_t al = nid == NID_X9_62_prime256v1 ? sizeof a256 : sizeof a384, l;

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

static int wp_ecdh(const ts_wp_case *tc, void *arg)
{
	uint32_t type = (uint32_t)(uintptr_t)arg;
	int nid = type == PV_KEY_EC_P256 ? NID_X9_62_prime256v1 : NID_secp384r1;
	size_t publ, privl, shl, ptl = 0;
	uint8_t *pub = ts_wp_hex(tc, "public", &publ), *priv = ts_wp_hex(tc, "private", &privl);
	uint8_t *sh = ts_wp_hex(tc, "shared", &shl);
	uint8_t pt[200], peer[210], out[64];
	pblob k;
	pv_req r;
	int rc, res;

	if (!pub || !priv || !sh) {
		free(pub); free(priv); free(sh);
		return 1;
	}
	memset(&k, 0, sizeof k);
	ts_rand(k.id, 16);
	pv_req_init(&r, PV_OP_IMPORT_KEY, PV_MECH_NONE);
	r.in = priv; r.in_len = privl;
	r.new_type = type; r.new_usage = PV_USE_DERIVE | PV_USE_EXTRACT;
	memcpy(r.new_id, k.id, 16);
	r.out = k.blob; r.out_cap = sizeof k.blob;
	rc = pv_vault_call(te_v, &r);
	k.len = r.out_len;
	if (rc != PV_OK) {
		res = 1;     /* Wycheproof private keys are all valid */
		if (getenv("W4DBG")) fprintf(stderr, "import rc %d len %zu\n", rc, privl);
		goto out;
	}
	if (!spki_point(pub, publ, nid, pt, &ptl)) {
		spki_rejects++;
		res = verdict(tc, 0);
		goto out;
	}
	peer[0] = 0x04;
	peer[1] = (uint8_t)ptl;
	memcpy(peer + 2, pt, ptl);
	pv_req_init(&r, PV_OP_DERIVE_KEY, PV_MECH_ECDH1_DERIVE);
	r.flags = PV_F_DERIVE_DATA;
	r.key = k.blob; r.key_len = k.len; memcpy(r.key_id, k.id, 16);
	r.in2 = peer; r.in2_len = ptl + 2;
	r.out = out; r.out_cap = sizeof out;
	rc = pv_vault_call(te_v, &r);
	if (getenv("W4DBG")) fprintf(stderr, "derive rc %d\n", rc);
	res = verdict(tc, rc == PV_OK && r.out_len == shl && memcmp(out, sh, shl) == 0);
	if (rc != PV_OK && rc != PV_ERR_PUBKEY)
		res = 1;
out:
	free(pub); free(priv); free(sh);
	return res;
}

static void run(const char *file, ts_wp_fn fn, void *arg)
{
	ts_wp_stats st;

	memset(&st, 0, sizeof st);
	cur_group = NULL;
	acc_yes = acc_no = 0;
	spki_rejects = 0;
	CU_ASSERT_EQUAL_FATAL(ts_wp_run(file, fn, arg, &st), 0);
	printf("\n    %s: %d cases (%d valid, %d invalid, %d acceptable: %d accepted / %d rejected), "
	       "%d failed, %d skipped%s", file, st.total, st.valid, st.invalid, st.acceptable,
	       acc_yes, acc_no, st.failed, st.skipped,
	       spki_rejects ? " (SPKI rejects counted)" : "");
	if (spki_rejects)
		printf(" spki=%d", spki_rejects);
	CU_ASSERT(st.total > 0);
	CU_ASSERT_EQUAL(st.failed, 0);
	CU_ASSERT_EQUAL(st.skipped, 0);
}

static void t_pkcs1_dec(void) { run("rsa_pkcs1_2048_test.json", wp_dec, NULL); }
static void t_oaep(void)
{
	run("rsa_oaep_2048_sha1_mgf1sha1_test.json", wp_dec, (void *)1);
	run("rsa_oaep_2048_sha256_mgf1sha256_test.json", wp_dec, (void *)1);
}
static void t_sig(void)
{
	run("rsa_signature_2048_sha256_test.json", wp_ver, NULL);
	run("rsa_signature_3072_sha256_test.json", wp_ver, NULL);
}
static void t_siggen(void) { run("rsa_pkcs1_2048_sig_gen_test.json", wp_siggen, NULL); }
static void t_pss(void)
{
	run("rsa_pss_2048_sha256_mgf1_32_test.json", wp_ver, (void *)1);
	run("rsa_pss_3072_sha256_mgf1_32_test.json", wp_ver, (void *)1);
}
static void t_ecdsa(void)
{
	run("ecdsa_secp256r1_sha256_p1363_test.json", wp_ecdsa, (void *)(uintptr_t)PV_KEY_EC_P256);
	run("ecdsa_secp384r1_sha384_p1363_test.json", wp_ecdsa, (void *)(uintptr_t)PV_KEY_EC_P384);
}
static void t_ecdh(void)
{
	run("ecdh_secp256r1_test.json", wp_ecdh, (void *)(uintptr_t)PV_KEY_EC_P256);
	run("ecdh_secp384r1_test.json", wp_ecdh, (void *)(uintptr_t)PV_KEY_EC_P384);
}
static void t_ed(void) { run("ed25519_test.json", wp_ed, NULL); }

int main(void)
{
	CU_pSuite s;

	CU_initialize_registry();
	s = CU_add_suite("engine_pk_wycheproof", NULL, NULL);
	if (te_open(2) != PV_OK)
		return 1;
	CU_add_test(s, "rsa_pkcs1_2048 decryption", t_pkcs1_dec);
	CU_add_test(s, "rsa_oaep_2048 sha1/sha256", t_oaep);
	CU_add_test(s, "rsa_signature_2048/3072_sha256", t_sig);
	CU_add_test(s, "rsa_pkcs1_2048_sig_gen", t_siggen);
	CU_add_test(s, "rsa_pss_2048/3072", t_pss);
	CU_add_test(s, "ecdsa p1363 P-256/P-384", t_ecdsa);
	CU_add_test(s, "ecdh P-256/P-384", t_ecdh);
	CU_add_test(s, "ed25519", t_ed);
	return ts_run();
}
