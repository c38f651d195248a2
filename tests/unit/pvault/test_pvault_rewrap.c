/* test_pvault_rewrap.c - master key rotation of key blobs.
 *
 * Blobs are made by a vault under master key A (PV_OP_IMPORT_KEY of random
 * key bytes), re-sealed by pv_rewrap (A -> B), and then used by a vault
 * under B: its HMAC must equal OpenSSL's HMAC with the original key bytes
 * (the independent oracle).  Refusals: wrong source key, wrong identity,
 * corrupted blob, corrupted key file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/Basic.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "tsupport.h"
#include "gpu/vault.h"
#include "gpu/client/pv_rewrap.h"
#include "gpu/host/pv_master.h"

static char dir[64], fa[128], fb[128], fbad[128];
static uint8_t ka[32], kb[32];

static int setup(void)
{
	FILE *f;
	uint8_t buf[56];
	snprintf(dir, sizeof dir, "/tmp/pv-rewrap.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(fa, sizeof fa, "%s/a.key", dir);
	snprintf(fb, sizeof fb, "%s/b.key", dir);
	snprintf(fbad, sizeof fbad, "%s/bad.key", dir);
	if (pv_master_generate(ka) || pv_master_generate(kb) ||
	    pv_master_write(fa, ka, NULL) || pv_master_write(fb, kb, NULL))
		return -1;
	/* a corrupted copy of a: one key byte flipped */
	f = fopen(fa, "rb");
	if (!f || fread(buf, 1, sizeof buf, f) != sizeof buf)
		return -1;
	fclose(f);
	buf[12] ^= 0x40;
	f = fopen(fbad, "wb");
	if (!f || fwrite(buf, 1, sizeof buf, f) != sizeof buf)
		return -1;
	fclose(f);
	return chmod(fbad, 0600);       /* private, as pv_master_read requires */
}

static int teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static size_t make_blob(pv_vault *v, const uint8_t *key, size_t klen, const uint8_t id[16],
                        uint8_t *out, size_t cap)
{
	pv_req r;
	pv_req_init(&r, PV_OP_IMPORT_KEY, 0);
	r.in = key;
	r.in_len = klen;
	r.new_type = PV_KEY_GENERIC;
	r.new_usage = PV_USE_SIGN | PV_USE_VERIFY;
	memcpy(r.new_id, id, 16);
	r.out = out;
	r.out_cap = cap;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(v, &r), PV_OK);
	return r.out_len;
}

static int hmac(pv_vault *v, const uint8_t *blob, size_t blen, const uint8_t id[16],
                const uint8_t *msg, size_t mlen, uint8_t mac[32])
{
	pv_req r;
	pv_req_init(&r, PV_OP_SIGN, PV_MECH_HMAC_SHA256);
	r.key = blob;
	r.key_len = blen;
	memcpy(r.key_id, id, 16);
	r.in = msg;
	r.in_len = mlen;
	r.out = mac;
	r.out_cap = 32;
	return pv_vault_call(v, &r);
}

static void test_rotate_many(void)
{
	pv_vault *va = NULL, *vb = NULL;
	pv_rewrap *rw = NULL;
	char f1[17], f2[17], e1[17], e2[17];
	int which, i;

	CU_ASSERT_EQUAL_FATAL(pv_vault_open_key(ka, 32, 1, 0, 0, &va), PV_OK);
	CU_ASSERT_EQUAL_FATAL(pv_vault_open_key(kb, 32, 1, 0, 0, &vb), PV_OK);
	CU_ASSERT_EQUAL_FATAL(pv_rewrap_open(fa, NULL, fb, NULL, &rw, &which), PV_OK);
	pv_rewrap_fprs(rw, f1, f2);
	pv_master_fingerprint(ka, e1);
	pv_master_fingerprint(kb, e2);
	CU_ASSERT_STRING_EQUAL(f1, e1);
	CU_ASSERT_STRING_EQUAL(f2, e2);
	for (i = 0; i < 50; i++) {
		uint8_t key[128], id[16], blob[256], blob2[256], msg[200], mac[32], ref[32];
		size_t klen = 1 + ts_rand_u32(128), blen, b2len = 0, mlen = ts_rand_u32(200);
		unsigned rl = 0;
		ts_rand(key, klen);
		ts_rand(id, 16);
		ts_rand(msg, mlen);
		blen = make_blob(va, key, klen, id, blob, sizeof blob);
		CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob, blen, id, blob2, sizeof blob2, &b2len), PV_OK);
		CU_ASSERT_EQUAL(b2len, blen);
		CU_ASSERT(memcmp(blob, blob2, blen) != 0);
		/* B's vault computes the MAC OpenSSL computes with the key bytes */
		CU_ASSERT_EQUAL(hmac(vb, blob2, b2len, id, msg, mlen, mac), PV_OK);
		HMAC(EVP_sha256(), key, (int)klen, msg, mlen, ref, &rl);
		CU_ASSERT(rl == 32 && memcmp(mac, ref, 32) == 0);
		/* A no longer opens it; B does not open the old one */
		CU_ASSERT_EQUAL(hmac(va, blob2, b2len, id, msg, mlen, mac), PV_ERR_WRAPPED);
		CU_ASSERT_EQUAL(hmac(vb, blob, blen, id, msg, mlen, mac), PV_ERR_WRAPPED);
		/* rotating the new blob again from A fails: one key per blob */
		CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob2, b2len, id, blob, sizeof blob, &blen), PV_ERR_WRAPPED);
	}
	pv_rewrap_close(rw);
	pv_vault_close(va);
	pv_vault_close(vb);
}

static void test_refusals(void)
{
	pv_vault *va = NULL;
	pv_rewrap *rw = NULL;
	uint8_t key[32], id[16], id2[16], blob[128], out[128];
	size_t blen, olen = 0;
	int which;

	ts_rand(key, sizeof key);
	ts_rand(id, sizeof id);
	memcpy(id2, id, 16);
	id2[15] ^= 1;
	CU_ASSERT_EQUAL_FATAL(pv_vault_open_key(ka, 32, 1, 0, 0, &va), PV_OK);
	blen = make_blob(va, key, sizeof key, id, blob, sizeof blob);
	pv_vault_close(va);

	/* from B (the blob is under A) */
	CU_ASSERT_EQUAL_FATAL(pv_rewrap_open(fb, NULL, fa, NULL, &rw, &which), PV_OK);
	CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob, blen, id, out, sizeof out, &olen), PV_ERR_WRAPPED);
	pv_rewrap_close(rw);

	CU_ASSERT_EQUAL_FATAL(pv_rewrap_open(fa, NULL, fb, NULL, &rw, &which), PV_OK);
	/* another object identity */
	CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob, blen, id2, out, sizeof out, &olen), PV_ERR_WRAPPED);
	/* one flipped bit in the ciphertext, the tag, the header */
	blob[30] ^= 1;
	CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob, blen, id, out, sizeof out, &olen), PV_ERR_WRAPPED);
	blob[30] ^= 1;
	blob[blen - 1] ^= 0x80;
	CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob, blen, id, out, sizeof out, &olen), PV_ERR_WRAPPED);
	blob[blen - 1] ^= 0x80;
	blob[11] ^= 0x04;            /* usage field */
	CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob, blen, id, out, sizeof out, &olen), PV_ERR_WRAPPED);
	blob[11] ^= 0x04;
	/* truncated, too small an output */
	CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob, blen - 1, id, out, sizeof out, &olen), PV_ERR_WRAPPED);
	CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob, blen, id, out, blen - 1, &olen), PV_ERR_BUF_SMALL);
	/* and the intact blob still goes through */
	CU_ASSERT_EQUAL(pv_rewrap_blob(rw, blob, blen, id, out, sizeof out, &olen), PV_OK);
	pv_rewrap_close(rw);

	/* corrupted key files: which one is named */
	rw = NULL;
	CU_ASSERT_EQUAL(pv_rewrap_open(fbad, NULL, fb, NULL, &rw, &which), PV_ERR_CORRUPT);
	CU_ASSERT_EQUAL(which, 0);
	CU_ASSERT_PTR_NULL(rw);
	CU_ASSERT_EQUAL(pv_rewrap_open(fa, NULL, fbad, NULL, &rw, &which), PV_ERR_CORRUPT);
	CU_ASSERT_EQUAL(which, 1);
	CU_ASSERT_EQUAL(pv_rewrap_open(fa, NULL, "/nonexistent/x.key", NULL, &rw, &which), PV_ERR_IO);
	CU_ASSERT_EQUAL(which, 1);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("pvault_rewrap", setup, teardown);
	CU_add_test(s, "50 random keys rotated A->B, HMAC under B = OpenSSL", test_rotate_many);
	CU_add_test(s, "wrong key, identity, flipped bits, files", test_refusals);
	return ts_run();
}
