/*
 * test_engine_wycheproof.c - Wycheproof vectors through vault.h on the CPU
 * backend: import the key (as a blob), run the operation in the vault.
 * Valid cases must give the expected output; invalid cases must be
 * rejected (at import or by the operation); "acceptable" cases may go
 * either way but must not crash and, if accepted, must be right.
 */
#include "te_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF 4096

typedef struct wp_bufs {
	uint8_t *key, *iv, *aad, *msg, *ct, *tag, *salt, *info, *okm;
	size_t key_len, iv_len, aad_len, msg_len, ct_len, tag_len, salt_len, info_len, okm_len;
} wp_bufs;

static void bufs_free(wp_bufs *b)
{
	free(b->key); free(b->iv); free(b->aad); free(b->msg); free(b->ct);
	free(b->tag); free(b->salt); free(b->info); free(b->okm);
}

static uint8_t *hx(const ts_wp_case *tc, const char *f, size_t *len)
{
	uint8_t *p = ts_wp_hex(tc, f, len);
	if (p == NULL)
		*len = 0;
	return p;
}

/* ---- AES-GCM -------------------------------------------------------------- */
static int wp_gcm(const ts_wp_case *tc, void *arg)
{
	wp_bufs b = { 0 };
	uint8_t out[BUF], ctt[BUF];
	int tagsize = ts_wp_int(tc, "tagSize") / 8, ok = 0, rc;
	te_key k;
	pv_req r;

	(void)arg;
	b.key = hx(tc, "key", &b.key_len); b.iv = hx(tc, "iv", &b.iv_len);
	b.aad = hx(tc, "aad", &b.aad_len); b.msg = hx(tc, "msg", &b.msg_len);
	b.ct = hx(tc, "ct", &b.ct_len); b.tag = hx(tc, "tag", &b.tag_len);
	rc = te_import(te_v, PV_KEY_AES, PV_USE_ENCRYPT | PV_USE_DECRYPT, b.key, b.key_len, &k);
	if (rc != PV_OK) {
		ok = !ts_wp_valid(tc);
		goto out;
	}
	memcpy(ctt, b.ct, b.ct_len);
	memcpy(ctt + b.ct_len, b.tag, b.tag_len);
	pv_req_init(&r, PV_OP_DECRYPT, PV_MECH_AES_GCM);
	te_use(&r, &k);
	r.iv = b.iv; r.iv_len = b.iv_len; r.aad = b.aad; r.aad_len = b.aad_len;
	r.tag_len = (uint32_t)b.tag_len; r.in = ctt; r.in_len = b.ct_len + b.tag_len;
	r.out = out; r.out_cap = sizeof out;
	rc = pv_vault_call(te_v, &r);
	if (ts_wp_valid(tc)) {
		ok = rc == PV_OK && r.out_len == b.msg_len && memcmp(out, b.msg, b.msg_len) == 0;
		/* and encrypt */
		pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_GCM);
		te_use(&r, &k);
		r.iv = b.iv; r.iv_len = b.iv_len; r.aad = b.aad; r.aad_len = b.aad_len;
		r.tag_len = (uint32_t)tagsize; r.in = b.msg; r.in_len = b.msg_len;
		r.out = out; r.out_cap = sizeof out;
		ok = ok && pv_vault_call(te_v, &r) == PV_OK && r.out_len == b.ct_len + b.tag_len &&
		     memcmp(out, ctt, r.out_len) == 0;
	} else {
		ok = rc != PV_OK;
	}
out:
	bufs_free(&b);
	return !ok;
}

/* ---- AES-CBC-PKCS5 --------------------------------------------------------- */
static int wp_cbc(const ts_wp_case *tc, void *arg)
{
	wp_bufs b = { 0 };
	uint8_t out[BUF];
	int ok = 0, rc;
	te_key k;
	pv_req r;

	(void)arg;
	b.key = hx(tc, "key", &b.key_len); b.iv = hx(tc, "iv", &b.iv_len);
	b.msg = hx(tc, "msg", &b.msg_len); b.ct = hx(tc, "ct", &b.ct_len);
	rc = te_import(te_v, PV_KEY_AES, PV_USE_ENCRYPT | PV_USE_DECRYPT, b.key, b.key_len, &k);
	if (rc != PV_OK) {
		ok = !ts_wp_valid(tc);
		goto out;
	}
	pv_req_init(&r, PV_OP_DECRYPT, PV_MECH_AES_CBC_PAD);
	te_use(&r, &k);
	r.iv = b.iv; r.iv_len = b.iv_len; r.in = b.ct; r.in_len = b.ct_len;
	r.out = out; r.out_cap = sizeof out;
	rc = pv_vault_call(te_v, &r);
	if (ts_wp_valid(tc)) {
		ok = rc == PV_OK && r.out_len == b.msg_len && memcmp(out, b.msg, b.msg_len) == 0;
		r.op = PV_OP_ENCRYPT; r.in = b.msg; r.in_len = b.msg_len;
		ok = ok && pv_vault_call(te_v, &r) == PV_OK && r.out_len == b.ct_len &&
		     memcmp(out, b.ct, b.ct_len) == 0;
	} else {
		ok = rc != PV_OK;
	}
out:
	bufs_free(&b);
	return !ok;
}

/* ---- AES-KW / KWP: wrap msg (imported as an extractable generic key),
 * unwrap ct into a new blob and wrap that again ------------------------------ */
static int wp_wrap(const ts_wp_case *tc, void *arg)
{
	uint32_t mech = *(const uint32_t *)arg;
	wp_bufs b = { 0 };
	uint8_t out[BUF], blob[PV_BLOB_MAX];
	int ok = 0, rc, urc;
	te_key k, m, u;
	pv_req r;

	b.key = hx(tc, "key", &b.key_len); b.msg = hx(tc, "msg", &b.msg_len);
	b.ct = hx(tc, "ct", &b.ct_len);
	rc = te_import(te_v, PV_KEY_AES, PV_USE_WRAP | PV_USE_UNWRAP, b.key, b.key_len, &k);
	if (rc != PV_OK) {
		ok = !ts_wp_valid(tc);
		goto out;
	}
	/* unwrap */
	pv_req_init(&r, PV_OP_UNWRAP_KEY, mech);
	te_use(&r, &k);
	r.in = b.ct; r.in_len = b.ct_len;
	r.new_type = PV_KEY_GENERIC; r.new_usage = PV_USE_EXTRACT;
	ts_rand(r.new_id, 16);
	r.out = blob; r.out_cap = sizeof blob;
	urc = pv_vault_call(te_v, &r);
	if (urc == PV_OK) {
		memcpy(u.blob, blob, r.out_len); u.len = r.out_len; memcpy(u.id, r.new_id, 16);
		/* wrapping the unwrapped key again must reproduce ct */
		pv_req_init(&r, PV_OP_WRAP_KEY, mech);
		te_use(&r, &k);
		r.key2 = u.blob; r.key2_len = u.len; memcpy(r.key2_id, u.id, 16);
		r.out = out; r.out_cap = sizeof out;
		if (pv_vault_call(te_v, &r) != PV_OK || r.out_len != b.ct_len ||
		    memcmp(out, b.ct, b.ct_len) != 0 || u.len != PV_BLOB_OVERHEAD + b.msg_len)
			urc = -1000;        /* accepted but wrong */
	}
	if (ts_wp_valid(tc)) {
		ok = urc == PV_OK;
		/* wrap msg directly */
		rc = te_import(te_v, PV_KEY_GENERIC, PV_USE_EXTRACT, b.msg, b.msg_len, &m);
		if (rc == PV_OK) {
			pv_req_init(&r, PV_OP_WRAP_KEY, mech);
			te_use(&r, &k);
			r.key2 = m.blob; r.key2_len = m.len; memcpy(r.key2_id, m.id, 16);
			r.out = out; r.out_cap = sizeof out;
			rc = pv_vault_call(te_v, &r);
			ok = ok && rc == PV_OK && r.out_len == b.ct_len && memcmp(out, b.ct, b.ct_len) == 0;
		} else {
			ok = 0;
		}
	} else if (ts_wp_invalid(tc)) {
		ok = urc != PV_OK && urc != -1000;
	} else {
		ok = urc != -1000;      /* acceptable: either way, but right if accepted */
	}
out:
	bufs_free(&b);
	return !ok;
}

/* ---- MACs: AES-CMAC and HMAC-* -------------------------------------------- */
static int wp_mac(const ts_wp_case *tc, void *arg)
{
	uint32_t mech = *(const uint32_t *)arg;
	wp_bufs b = { 0 };
	uint8_t out[64];
	int tagsize = ts_wp_int(tc, "tagSize") / 8, ok = 0, rc, vrc;
	uint32_t full = mech == PV_MECH_AES_CMAC ? 16 : (uint32_t)EVP_MD_get_size(te_evp_md(mech));
	te_key k;
	pv_req r;

	b.key = hx(tc, "key", &b.key_len); b.msg = hx(tc, "msg", &b.msg_len);
	b.tag = hx(tc, "tag", &b.tag_len);
	rc = te_import(te_v, mech == PV_MECH_AES_CMAC ? PV_KEY_AES : PV_KEY_GENERIC,
	               PV_USE_SIGN | PV_USE_VERIFY, b.key, b.key_len, &k);
	if (rc != PV_OK) {
		ok = !ts_wp_valid(tc);
		goto out;
	}
	pv_req_init(&r, PV_OP_VERIFY, mech);
	te_use(&r, &k);
	r.tag_len = (uint32_t)tagsize == full ? 0 : (uint32_t)tagsize;
	r.in = b.msg; r.in_len = b.msg_len; r.in2 = b.tag; r.in2_len = b.tag_len;
	vrc = pv_vault_call(te_v, &r);
	if (ts_wp_valid(tc)) {
		r.op = PV_OP_SIGN; r.in2 = NULL; r.in2_len = 0; r.out = out; r.out_cap = sizeof out;
		rc = pv_vault_call(te_v, &r);
		ok = vrc == PV_OK && rc == PV_OK && r.out_len == b.tag_len && memcmp(out, b.tag, b.tag_len) == 0;
	} else {
		ok = vrc != PV_OK;
	}
out:
	bufs_free(&b);
	return !ok;
}

/* ---- HKDF-SHA256 (derived bytes via PV_F_DERIVE_DATA) ----------------------- */
static int wp_hkdf(const ts_wp_case *tc, void *arg)
{
	wp_bufs b = { 0 };
	static uint8_t out[9000];
	int size = ts_wp_int(tc, "size"), ok = 0, rc;
	te_key k;
	pv_req r;

	(void)arg;
	b.key = hx(tc, "ikm", &b.key_len); b.salt = hx(tc, "salt", &b.salt_len);
	b.info = hx(tc, "info", &b.info_len); b.okm = hx(tc, "okm", &b.okm_len);
	rc = te_import(te_v, PV_KEY_GENERIC, PV_USE_DERIVE | PV_USE_EXTRACT, b.key, b.key_len, &k);
	if (rc != PV_OK) {
		ok = !ts_wp_valid(tc);
		goto out;
	}
	pv_req_init(&r, PV_OP_DERIVE_KEY, PV_MECH_HKDF);
	te_use(&r, &k);
	r.prf = PV_MECH_SHA256; r.flags = PV_F_DERIVE_DATA;
	r.salt = b.salt; r.salt_len = b.salt_len; r.aad = b.info; r.aad_len = b.info_len;
	r.new_len = (uint32_t)size;
	r.out = out; r.out_cap = sizeof out;
	rc = pv_vault_call(te_v, &r);
	if (ts_wp_valid(tc))
		ok = rc == PV_OK && r.out_len == b.okm_len && memcmp(out, b.okm, b.okm_len) == 0;
	else
		ok = rc != PV_OK;
out:
	bufs_free(&b);
	return !ok;
}

static void run_file(const char *file, ts_wp_fn fn, uint32_t mech)
{
	ts_wp_stats st;
	int rc = ts_wp_run(file, fn, &mech, &st);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(st.total > 0);
	CU_ASSERT_EQUAL(st.failed, 0);
	CU_ASSERT_EQUAL(st.skipped, 0);
}

static void t_gcm(void) { run_file("aes_gcm_test.json", wp_gcm, PV_MECH_AES_GCM); }
static void t_cbc(void) { run_file("aes_cbc_pkcs5_test.json", wp_cbc, PV_MECH_AES_CBC_PAD); }
static void t_kw(void) { run_file("aes_wrap_test.json", wp_wrap, PV_MECH_AES_KEY_WRAP); }
static void t_kwp(void) { run_file("aes_kwp_test.json", wp_wrap, PV_MECH_AES_KEY_WRAP_KWP); }
static void t_cmac(void) { run_file("aes_cmac_test.json", wp_mac, PV_MECH_AES_CMAC); }
static void t_hmac(void)
{
	run_file("hmac_sha1_test.json", wp_mac, PV_MECH_HMAC_SHA1);
	run_file("hmac_sha224_test.json", wp_mac, PV_MECH_HMAC_SHA224);
	run_file("hmac_sha256_test.json", wp_mac, PV_MECH_HMAC_SHA256);
	run_file("hmac_sha384_test.json", wp_mac, PV_MECH_HMAC_SHA384);
	run_file("hmac_sha512_test.json", wp_mac, PV_MECH_HMAC_SHA512);
	run_file("hmac_sha3_256_test.json", wp_mac, PV_MECH_HMAC_SHA3_256);
	run_file("hmac_sha3_512_test.json", wp_mac, PV_MECH_HMAC_SHA3_512);
}
static void t_hkdf(void) { run_file("hkdf_sha256_test.json", wp_hkdf, PV_MECH_HKDF); }

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	if (te_open(2) != PV_OK) {
		fprintf(stderr, "cannot open vault\n");
		return 1;
	}
	s = CU_add_suite("engine_wycheproof", NULL, NULL);
	CU_add_test(s, "aes_gcm", t_gcm);
	CU_add_test(s, "aes_cbc_pkcs5", t_cbc);
	CU_add_test(s, "aes_wrap", t_kw);
	CU_add_test(s, "aes_kwp", t_kwp);
	CU_add_test(s, "aes_cmac", t_cmac);
	CU_add_test(s, "hmac_*", t_hmac);
	CU_add_test(s, "hkdf_sha256", t_hkdf);
	{
		int rc = ts_run();
		te_close();
		return rc;
	}
}
