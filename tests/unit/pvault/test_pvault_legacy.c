/* test_pvault_legacy.c - keys out of master-key blobs (gpu/client/pv_legacy),
 * what pvault token migrate imports again.
 *
 * Blobs are made by a vault under master key A (PV_OP_IMPORT_KEY without a
 * token policy: blobs under the master KEK, as a rotated legacy store
 * holds them) of keys OpenSSL made; pv_legacy must give back each key in
 * IMPORT_KEY's form: the same secret bytes, EC scalar and Ed25519 seed, and
 * RSA's eight numbers equal to OpenSSL's.  Refused: another master key,
 * another identity, a flipped bit, a PIN record, too small an output.
 * (Blob formats 1 and 2 and the 4096-bit RSA layout are written by
 * tests/e2e/pv_mklegacy.c and migrated in tests/e2e/pvault_migrate.sh.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>
#include <openssl/evp.h>

#include "tsupport.h"
#include "../p11pk/pk_ossl.h"
#include "gpu/vault.h"
#include "gpu/client/pv_legacy.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_secmem.h"

static char dir[64], fa[128], fb[128];
static uint8_t ka[32], kb[32];
static pv_vault *va;

static int setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/pv-legacy.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(fa, sizeof fa, "%s/a.key", dir);
	snprintf(fb, sizeof fb, "%s/b.key", dir);
	if (pv_master_generate(ka) || pv_master_generate(kb) ||
	    pv_master_write(fa, ka, NULL) || pv_master_write(fb, kb, NULL))
		return -1;
	return pv_vault_open_key(ka, 32, 1, 0, 0, &va) == PV_OK ? 0 : -1;
}

static int teardown(void)
{
	char cmd[128];
	pv_vault_close(va);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A blob of key (IMPORT_KEY's form) of type under the master KEK. */
static size_t make_blob(uint32_t type, const uint8_t *key, size_t klen, const uint8_t id[16],
                        uint8_t *out, size_t cap)
{
	pv_req r;
	pv_req_init(&r, PV_OP_IMPORT_KEY, 0);
	r.in = key;
	r.in_len = klen;
	r.new_type = type;
	r.new_usage = PV_USE_SIGN;
	memcpy(r.new_id, id, 16);
	r.out = out;
	r.out_cap = cap;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(va, &r), PV_OK);
	return r.out_len;
}

/* key back out of its blob: PV_OK with the same bytes and the type */
static void roundtrip(pv_legacy *l, uint32_t type, const uint8_t *key, size_t klen)
{
	uint8_t id[16], blob[PV_PKBLOB_MAX], *out = pv_secmem_alloc(PV_LEGACY_KEY_MAX);
	size_t blen, olen = 0;
	uint32_t t = 0, u = 0, p = 0;

	CU_ASSERT_FATAL(out != NULL);
	ts_rand(id, sizeof id);
	blen = make_blob(type, key, klen, id, blob, sizeof blob);
	CU_ASSERT_EQUAL(pv_legacy_key(l, blob, blen, id, out, PV_LEGACY_KEY_MAX, &olen, &t, &u, &p),
	                PV_OK);
	CU_ASSERT_EQUAL(t, type);
	/* what the header bound, for the migration to stay within */
	CU_ASSERT_EQUAL(u, PV_USE_SIGN);
	CU_ASSERT_EQUAL(p, 0u);
	CU_ASSERT(olen == klen && memcmp(out, key, klen) == 0);
	pv_secmem_free(out);
}

static void test_secret_ec(void)
{
	static const struct { const char *group; uint32_t type; size_t flen; } ec[] = {
		{ "P-256", PV_KEY_EC_P256, 32 }, { "P-384", PV_KEY_EC_P384, 48 },
		{ "SM2", PV_KEY_SM2, 32 },
	};
	uint8_t k[64];
	pv_legacy *l = NULL;
	char fpr[17], want[17];
	size_t i;

	CU_ASSERT_EQUAL_FATAL(pv_legacy_open(fa, NULL, &l), PV_OK);
	pv_legacy_fpr(l, fpr);
	pv_master_fingerprint(ka, want);
	CU_ASSERT_STRING_EQUAL(fpr, want);
	for (i = 0; i < 3; i++) {
		ts_rand(k, 32);
		roundtrip(l, PV_KEY_AES, k, 16 + 8 * i);
	}
	ts_rand(k, 16);
	roundtrip(l, PV_KEY_SM4, k, 16);
	ts_rand(k, 64);
	roundtrip(l, PV_KEY_GENERIC, k, 64);
	for (i = 0; i < sizeof ec / sizeof ec[0]; i++) {
		EVP_PKEY *p = po_ec_gen(ec[i].group);
		CU_ASSERT_FATAL(p != NULL && po_ec_priv(p, k, ec[i].flen) == ec[i].flen);
		roundtrip(l, ec[i].type, k, ec[i].flen);
		EVP_PKEY_free(p);
	}
	ts_rand(k, 32);
	roundtrip(l, PV_KEY_ED25519, k, 32);
	pv_legacy_close(l);
}

/* RSA: each of the eight fields, leading zeros dropped, equals OpenSSL's. */
static void test_rsa(void)
{
	static const int bits[2] = { 2048, 3072 };
	uint8_t enc[4096], id[16], blob[PV_PKBLOB_MAX], c[600], *out = pv_secmem_alloc(PV_LEGACY_KEY_MAX);
	pv_legacy *l = NULL;
	size_t el, blen, olen = 0, pos, n, cl;
	uint32_t t = 0, u = 0, pol = 0;
	int b, f;

	CU_ASSERT_FATAL(out != NULL);
	CU_ASSERT_EQUAL_FATAL(pv_legacy_open(fa, NULL, &l), PV_OK);
	for (b = 0; b < 2; b++) {
		EVP_PKEY *p = po_rsa_gen(bits[b]);
		CU_ASSERT_FATAL(p != NULL);
		el = po_rsa_import_enc(p, enc, sizeof enc);
		ts_rand(id, sizeof id);
		blen = make_blob(PV_KEY_RSA, enc, el, id, blob, sizeof blob);
		CU_ASSERT_EQUAL(pv_legacy_key(l, blob, blen, id, out, PV_LEGACY_KEY_MAX, &olen, &t, &u,
		                              &pol), PV_OK);
		CU_ASSERT_EQUAL(t, PV_KEY_RSA);
		for (f = 0, pos = 0; f < 8; f++) {
			const uint8_t *v;
			CU_ASSERT_FATAL(pos + 2 <= olen);
			n = (size_t)out[pos] << 8 | out[pos + 1];
			v = out + pos + 2;
			pos += 2 + n;
			CU_ASSERT_FATAL(pos <= olen);
			while (n > 0 && v[0] == 0) {
				v++;
				n--;
			}
			cl = po_rsa_comp(p, f, c, sizeof c);
			CU_ASSERT(n == cl && memcmp(v, c, n) == 0);
		}
		CU_ASSERT_EQUAL(pos, olen);
		EVP_PKEY_free(p);
	}
	pv_legacy_close(l);
	pv_secmem_free(out);
}

/* The allowed list a blob binds, as the migration compares it with the
 * attribute: count and SHA-256's first 16 bytes (OpenSSL's digest);
 * none for a blob made without one. */
static void test_mechs(void)
{
	static const uint8_t list[8] = { 0, 0, 0x10, 0x82, 0, 0, 0x10, 0x85 };
	uint8_t id[16], key[32], blob[PV_PKBLOB_MAX], dig[16], want[32];
	unsigned int wl = 0;
	uint32_t n = 99;
	pv_req r;

	ts_rand(id, sizeof id);
	ts_rand(key, sizeof key);
	pv_req_init(&r, PV_OP_IMPORT_KEY, 0);
	r.in = key; r.in_len = sizeof key;
	r.new_type = PV_KEY_AES;
	r.new_usage = PV_USE_ENCRYPT;
	r.new_mechs = list; r.new_mechs_len = sizeof list;
	memcpy(r.new_id, id, 16);
	r.out = blob; r.out_cap = sizeof blob;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(va, &r), PV_OK);
	CU_ASSERT_EQUAL(pv_legacy_mechs(blob, r.out_len, &n, dig), PV_OK);
	CU_ASSERT_EQUAL(n, 2u);
	CU_ASSERT(EVP_Digest(list, sizeof list, want, &wl, EVP_sha256(), NULL) == 1);
	CU_ASSERT(memcmp(dig, want, 16) == 0);
	/* without a list */
	r.new_mechs = NULL; r.new_mechs_len = 0;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(va, &r), PV_OK);
	CU_ASSERT_EQUAL(pv_legacy_mechs(blob, r.out_len, &n, dig), PV_OK);
	CU_ASSERT_EQUAL(n, 0u);
	/* not a blob */
	CU_ASSERT_EQUAL(pv_legacy_mechs(blob, 10, &n, dig), PV_ERR_WRAPPED);
}

static void test_refusals(void)
{
	uint8_t key[32], id[16], id2[16], blob[PV_BLOB_MAX], rec[PV_RECORD_LEN], out[64];
	pv_legacy *l = NULL;
	size_t blen, olen = 0;
	uint32_t t = 0, u = 0, p = 0;
	pv_req r;

	ts_rand(key, sizeof key);
	ts_rand(id, sizeof id);
	memcpy(id2, id, 16);
	id2[0] ^= 1;
	blen = make_blob(PV_KEY_AES, key, sizeof key, id, blob, sizeof blob);

	CU_ASSERT_EQUAL_FATAL(pv_legacy_open(fb, NULL, &l), PV_OK);   /* another master key */
	CU_ASSERT_EQUAL(pv_legacy_key(l, blob, blen, id, out, sizeof out, &olen, &t, &u, &p), PV_ERR_WRAPPED);
	CU_ASSERT(olen == 0 && t == 0);
	pv_legacy_close(l);

	CU_ASSERT_EQUAL_FATAL(pv_legacy_open(fa, NULL, &l), PV_OK);
	CU_ASSERT_EQUAL(pv_legacy_key(l, blob, blen, id2, out, sizeof out, &olen, &t, &u, &p), PV_ERR_WRAPPED);
	blob[blen - 5] ^= 0x10;
	CU_ASSERT_EQUAL(pv_legacy_key(l, blob, blen, id, out, sizeof out, &olen, &t, &u, &p), PV_ERR_WRAPPED);
	blob[blen - 5] ^= 0x10;
	/* an edited header word (the policy, as if token-bound) fails the tag:
	 * a real token-bound blob is under the token's KEK and fails it too */
	blob[19] ^= 0x01;
	CU_ASSERT_EQUAL(pv_legacy_key(l, blob, blen, id, out, sizeof out, &olen, &t, &u, &p), PV_ERR_WRAPPED);
	blob[19] ^= 0x01;
	CU_ASSERT_EQUAL(pv_legacy_key(l, blob, blen, id, out, 31, &olen, &t, &u, &p), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(pv_legacy_key(l, blob, blen, id, out, sizeof out, &olen, &t, &u, &p), PV_OK);
	CU_ASSERT(olen == 32 && memcmp(out, key, 32) == 0);

	/* a PIN record opens under the master key but is no key */
	pv_req_init(&r, PV_OP_TOKEN_NEW, PV_MECH_NONE);
	memcpy(r.token_id, id, 16);
	r.who = PV_WHO_SO;
	r.in = key; r.in_len = 32;
	r.out = rec; r.out_cap = sizeof rec;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(va, &r), PV_OK);
	CU_ASSERT_EQUAL(pv_legacy_key(l, rec, r.out_len, id, out, sizeof out, &olen, &t, &u, &p),
	                PV_ERR_WRAPPED);
	pv_legacy_close(l);

	l = NULL;
	CU_ASSERT_EQUAL(pv_legacy_open("/nonexistent/x.key", NULL, &l), PV_ERR_IO);
	CU_ASSERT_PTR_NULL(l);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("pvault_legacy", setup, teardown);
	CU_add_test(s, "secret, EC, SM2, Ed25519 keys back from their blobs", test_secret_ec);
	CU_add_test(s, "RSA 2048 / 3072: the eight numbers = OpenSSL's", test_rsa);
	CU_add_test(s, "the allowed list a blob binds", test_mechs);
	CU_add_test(s, "another key or identity, flipped bits, a PIN record, small output",
	            test_refusals);
	return ts_run();
}
