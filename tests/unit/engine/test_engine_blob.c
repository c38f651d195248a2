/*
 * test_engine_blob.c - KeyStore blobs, sealed vault, bad parameters,
 * buffer sizes, usage policy and multi-part state integrity, through
 * vault.h on the CPU backend.
 */
#include "te_common.h"
#include "gpu/engine/ve_engine.h"
#include "gpu/host/pv_master.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint8_t pt32[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

/* AES-ECB encrypt 32 bytes with key k: status. */
static int ecb_with(pv_vault *v, const te_key *k, uint32_t want_type, uint8_t out[32])
{
	pv_req r;
	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_ECB);
	te_use(&r, k);
	r.key_type = want_type;
	r.in = pt32; r.in_len = 32; r.out = out; r.out_cap = 32;
	return pv_vault_call(v, &r);
}

static void test_tamper(void)
{
	uint8_t key[32], out[32], ref[32];
	te_key k, t;
	size_t i;
	int b, bad = 0, rc;
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int l;

	ts_rand(key, 32);
	CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_AES, PV_USE_ENCRYPT, key, 32, &k), PV_OK);
	CU_ASSERT_EQUAL(k.len, PV_BLOB_OVERHEAD + 32);
	CU_ASSERT_EQUAL(ecb_with(te_v, &k, 0, out), PV_OK);
	EVP_EncryptInit_ex(c, EVP_aes_256_ecb(), NULL, key, NULL);
	EVP_CIPHER_CTX_set_padding(c, 0);
	EVP_EncryptUpdate(c, ref, &l, pt32, 32);
	EVP_CIPHER_CTX_free(c);
	CU_ASSERT(memcmp(out, ref, 32) == 0);
	/* the key bytes are not visible in the blob */
	for (i = 0; i + 32 <= k.len; i++)
		CU_ASSERT(memcmp(k.blob + i, key, 32) != 0);
	/* every byte, a random bit, and every bit of a few bytes */
	for (i = 0; i < k.len; i++) {
		for (b = 0; b < 8; b++) {
			if (b != 0 && i > 20 && i < k.len - 20)
				continue;
			t = k;
			t.blob[i] ^= (uint8_t)(1u << ((b + (int)i) & 7));
			rc = ecb_with(te_v, &t, 0, out);
			/* the policy's token bit: refused before opening */
			if (rc != PV_ERR_WRAPPED && !(rc == PV_ERR_NOT_LOGGED_IN && i >= 16 && i < 20))
				bad++;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* truncated / extended */
	t = k; t.len--;
	CU_ASSERT_EQUAL(ecb_with(te_v, &t, 0, out), PV_ERR_WRAPPED);
	t = k; t.len++;
	CU_ASSERT_EQUAL(ecb_with(te_v, &t, 0, out), PV_ERR_WRAPPED);
	t = k; t.len = 0;
	CU_ASSERT_NOT_EQUAL(ecb_with(te_v, &t, 0, out), PV_OK);
	/* wrong identity (each byte) */
	for (i = 0; i < PV_OBJ_ID_LEN; i++) {
		t = k;
		t.id[i] ^= 0x80;
		CU_ASSERT_EQUAL(ecb_with(te_v, &t, 0, out), PV_ERR_WRAPPED);
	}
	/* wrong expected key type */
	CU_ASSERT_EQUAL(ecb_with(te_v, &k, PV_KEY_SM4, out), PV_ERR_WRAPPED);
	CU_ASSERT_EQUAL(ecb_with(te_v, &k, PV_KEY_GENERIC, out), PV_ERR_WRAPPED);
	CU_ASSERT_EQUAL(ecb_with(te_v, &k, PV_KEY_AES, out), PV_OK);
	/* key type swapped in the header (also caught by the tag) */
	t = k;
	t.blob[7] = PV_KEY_SM4;
	CU_ASSERT_EQUAL(ecb_with(te_v, &t, 0, out), PV_ERR_WRAPPED);
	/* usage widened in the header */
	t = k;
	t.blob[11] |= PV_USE_DECRYPT;
	CU_ASSERT_EQUAL(ecb_with(te_v, &t, 0, out), PV_ERR_WRAPPED);
}

static void test_other_master(void)
{
	uint8_t key[16], out[32], out2[32], m2[32];
	pv_vault *v2;
	te_key k;

	ts_rand(key, 16);
	CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_AES, PV_USE_ENCRYPT, key, 16, &k), PV_OK);
	CU_ASSERT_EQUAL(ecb_with(te_v, &k, 0, out), PV_OK);
	/* a new boot with the same master key opens it (blobs persist) */
	CU_ASSERT_EQUAL_FATAL(te_open_other(te_master, 32, 1, 4, 65536, &v2), PV_OK);
	CU_ASSERT_EQUAL(ecb_with(v2, &k, 0, out2), PV_OK);
	CU_ASSERT(memcmp(out, out2, 32) == 0);
	pv_vault_close(v2);
	/* a different master key does not */
	memcpy(m2, te_master, 32);
	m2[31] ^= 1;
	CU_ASSERT_EQUAL_FATAL(te_open_other(m2, 32, 1, 4, 65536, &v2), PV_OK);
	CU_ASSERT_EQUAL(ecb_with(v2, &k, 0, out2), PV_ERR_WRAPPED);
	pv_vault_close(v2);
}

static void test_sealed(void)
{
	static const uint32_t ops[] = { PV_OP_ENCRYPT, PV_OP_DECRYPT, PV_OP_SIGN, PV_OP_VERIFY,
		PV_OP_DIGEST, PV_OP_GENERATE_KEY, PV_OP_GENERATE_PAIR, PV_OP_IMPORT_KEY, PV_OP_WRAP_KEY,
		PV_OP_UNWRAP_KEY, PV_OP_DERIVE_KEY, PV_OP_RANDOM, PV_OP_SEED };
	uint8_t key[16] = { 0 }, out[64], blob[PV_BLOB_MAX];
	pv_vault *v;
	pv_vault_info info;
	pv_conf conf;
	pv_req r;
	size_t i;
	char path[256];
	te_key k;

	CU_ASSERT_EQUAL_FATAL(te_open_other(NULL, 0, 1, 4, 65536, &v), PV_OK);
	CU_ASSERT_EQUAL(pv_vault_get_info(v, &info), PV_OK);
	CU_ASSERT_EQUAL(info.sealed, 1);
	CU_ASSERT_STRING_EQUAL(info.backend, "cpu");      /* te_open_other */
	CU_ASSERT_EQUAL(info.hw, 0);
	CU_ASSERT_EQUAL(te_import(v, PV_KEY_AES, PV_USE_ALL, key, 16, &k), PV_ERR_SEALED);
	for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		pv_req_init(&r, ops[i], ops[i] == PV_OP_DIGEST ? PV_MECH_SHA256 : PV_MECH_AES_ECB);
		r.in = key; r.in_len = 16; r.out = out; r.out_cap = sizeof out;
		CU_ASSERT_EQUAL(pv_vault_call(v, &r), PV_ERR_SEALED);
		CU_ASSERT_EQUAL(r.out_len, 0);
	}
	pv_req_init(&r, PV_OP_NOP, 0);
	CU_ASSERT_EQUAL(pv_vault_call(v, &r), PV_OK);
	pv_vault_close(v);

	/* through the configuration: missing file -> sealed */
	pv_conf_defaults(&conf);
	snprintf(conf.master_key, sizeof conf.master_key, "/nonexistent/pv-%d/master.key", (int)getpid());
	snprintf(conf.backend, sizeof conf.backend, "cpu");
	snprintf(conf.mode, sizeof conf.mode, "embedded");
	conf.workers = 1;
	CU_ASSERT_EQUAL_FATAL(pv_vault_open(&conf, &v), PV_OK);
	pv_vault_get_info(v, &info);
	CU_ASSERT_EQUAL(info.sealed, 1);
	CU_ASSERT_EQUAL(info.seal_reason, PV_ERR_NOT_FOUND);
	pv_vault_close(v);
	/* a real master key file with te_master: unsealed, opens te_v's blobs */
	snprintf(path, sizeof path, "/tmp/pv-engine-test-%d.key", (int)getpid());
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(pv_master_write(path, te_master, NULL), PV_OK);
	snprintf(conf.master_key, sizeof conf.master_key, "%s", path);
	CU_ASSERT_EQUAL_FATAL(pv_vault_open(&conf, &v), PV_OK);
	pv_vault_get_info(v, &info);
	CU_ASSERT_EQUAL(info.sealed, 0);
	ts_rand(key, 16);
	CU_ASSERT_EQUAL(te_import(te_v, PV_KEY_AES, PV_USE_ENCRYPT, key, 16, &k), PV_OK);
	CU_ASSERT_EQUAL(ecb_with(v, &k, 0, out), PV_OK);
	pv_vault_close(v);
	/* corrupt file -> sealed, reason CORRUPT */
	{
		FILE *f = fopen(path, "r+b");
		CU_ASSERT_FATAL(f != NULL);
		fseek(f, 10, SEEK_SET);
		fputc(0x5a, f);
		fclose(f);
	}
	CU_ASSERT_EQUAL_FATAL(pv_vault_open(&conf, &v), PV_OK);
	pv_vault_get_info(v, &info);
	CU_ASSERT_EQUAL(info.sealed, 1);
	CU_ASSERT_EQUAL(info.seal_reason, PV_ERR_CORRUPT);
	CU_ASSERT_EQUAL(ecb_with(v, &k, 0, out), PV_ERR_SEALED);
	pv_vault_close(v);
	unlink(path);
	/* unsupported backend / mode */
	snprintf(conf.backend, sizeof conf.backend, "tpu");
	CU_ASSERT_EQUAL(pv_vault_open(&conf, &v), PV_ERR_CONFIG);
	(void)blob;
}

/* backend = cuda needs a usable device; auto falls back to the CPU without
 * one; $PIXELVAULT_BACKEND overrides the file. */
static void test_backend_choice(void)
{
	char dir[] = "/tmp/pv-backend-XXXXXX", path[64];
	int gpu = access("/dev/nvidiactl", F_OK) == 0;
	char *saved = getenv("PIXELVAULT_BACKEND") ? strdup(getenv("PIXELVAULT_BACKEND")) : NULL;
	pv_vault_info info;
	pv_conf conf;
	pv_vault *v = NULL;
	FILE *f;
	int suite_gpu;

	CU_ASSERT_EQUAL_FATAL(pv_vault_get_info(te_v, &info), PV_OK);
	suite_gpu = strcmp(info.backend, "cuda") == 0;
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/pixelvault.conf", dir);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "backend = cuda\nmaster_key = %s/none\nworkers = 1\n", dir);
	fclose(f);

	unsetenv("PIXELVAULT_BACKEND");
	CU_ASSERT_EQUAL_FATAL(pv_conf_load_file(&conf, path), PV_OK);
	CU_ASSERT_STRING_EQUAL(conf.backend, "cuda");
	if (!gpu) {
		CU_ASSERT_EQUAL(pv_vault_open(&conf, &v), PV_ERR_DEVICE);
		CU_ASSERT_PTR_NULL(v);
	}
	setenv("PIXELVAULT_BACKEND", "auto", 1);
	CU_ASSERT_EQUAL_FATAL(pv_conf_load_file(&conf, path), PV_OK);
	CU_ASSERT_STRING_EQUAL(conf.backend, "auto");
	CU_ASSERT_EQUAL_FATAL(pv_vault_open(&conf, &v), PV_OK);
	CU_ASSERT_EQUAL(pv_vault_get_info(v, &info), PV_OK);
	/* the suite's own vault may hold the GPU already (one vault per GPU
	 * and process): auto then falls back to the CPU at once */
	CU_ASSERT_STRING_EQUAL(info.backend, gpu && !suite_gpu ? "cuda" : "cpu");
	CU_ASSERT_EQUAL(info.hw, gpu && !suite_gpu);
	CU_ASSERT_EQUAL(info.sealed, 1);               /* no key file */
	CU_ASSERT_EQUAL(info.seal_reason, PV_ERR_NOT_FOUND);
	pv_vault_close(v);
	setenv("PIXELVAULT_BACKEND", "tpu", 1);
	CU_ASSERT_EQUAL(pv_conf_load_file(&conf, path), PV_ERR_CONFIG);
	if (saved != NULL) {
		setenv("PIXELVAULT_BACKEND", saved, 1);
		free(saved);
	} else
		unsetenv("PIXELVAULT_BACKEND");
	unlink(path);
	rmdir(dir);
}

struct conf_case { const char *v; int rc; uint32_t n; };

/* each "key = v" of c alone in a pixelvault.conf: the load's rc, and the
 * value field() reads back when it is PV_OK */
static void conf_cases(const char *key, const struct conf_case *c, size_t n, uint32_t (*field)(const pv_conf *))
{
	char dir[] = "/tmp/pv-conf-XXXXXX", path[256];
	pv_conf conf;
	size_t i;

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/pixelvault.conf", dir);
	for (i = 0; i < n; i++) {
		FILE *f = fopen(path, "w");
		CU_ASSERT_FATAL(f != NULL);
		fprintf(f, "%s = %s\n", key, c[i].v);
		fclose(f);
		CU_ASSERT_EQUAL(pv_conf_load_file(&conf, path), c[i].rc);
		if (c[i].rc == PV_OK)
			CU_ASSERT_EQUAL(field(&conf), c[i].n);
	}
	unlink(path);
	rmdir(dir);
}

static uint32_t conf_slots(const pv_conf *c) { return c->gpu_slots; }
static uint32_t conf_bps(const pv_conf *c) { return c->gpu_blocks_per_sm; }

/* gpu_slots: a power of two in [16, 4096]; anything else is refused */
static void test_gpu_slots(void)
{
	static const struct conf_case c[] = {
		{ "1024", PV_OK, 1024 }, { "16", PV_OK, 16 }, { "4096", PV_OK, 4096 },
		{ "100", PV_ERR_CONFIG, 0 }, { "8", PV_ERR_CONFIG, 0 }, { "8192", PV_ERR_CONFIG, 0 },
		{ "0", PV_ERR_CONFIG, 0 }, { "-64", PV_ERR_CONFIG, 0 }, { "64k", PV_ERR_CONFIG, 0 },
	};
	conf_cases("gpu_slots", c, sizeof c / sizeof c[0], conf_slots);
}

/* gpu_blocks_per_sm: 0 (as many as fit) to 32; 0 by default */
static void test_gpu_blocks_per_sm(void)
{
	static const struct conf_case c[] = {
		{ "4", PV_OK, 4 }, { "0", PV_OK, 0 }, { "1", PV_OK, 1 }, { "32", PV_OK, 32 },
		{ "33", PV_ERR_CONFIG, 0 }, { "-1", PV_ERR_CONFIG, 0 }, { "four", PV_ERR_CONFIG, 0 },
		{ "", PV_ERR_CONFIG, 0 },
	};
	pv_conf d;
	pv_conf_defaults(&d);
	CU_ASSERT_EQUAL(d.gpu_blocks_per_sm, 0);
	conf_cases("gpu_blocks_per_sm", c, sizeof c / sizeof c[0], conf_bps);
}

static te_key aes_key(uint32_t usage, size_t kl)
{
	uint8_t k[32];
	te_key t;
	ts_rand(k, kl);
	CU_ASSERT_EQUAL(te_import(te_v, PV_KEY_AES, usage, k, kl, &t), PV_OK);
	return t;
}

static int enc(const te_key *k, uint32_t op, uint32_t mech, const uint8_t *iv, size_t ivlen,
               uint32_t tag_len, const uint8_t *in, size_t len, uint8_t *out, size_t cap, size_t *olen)
{
	pv_req r;
	int rc;
	pv_req_init(&r, op, mech);
	te_use(&r, k);
	r.iv = iv; r.iv_len = ivlen; r.tag_len = tag_len;
	r.in = in; r.in_len = len; r.out = out; r.out_cap = cap;
	rc = pv_vault_call(te_v, &r);
	if (olen)
		*olen = r.out_len;
	return rc;
}

static void test_params(void)
{
	uint8_t iv[64] = { 0 }, in[100], out[200], out2[200];
	te_key k = aes_key(PV_USE_ENCRYPT | PV_USE_DECRYPT, 16);
	size_t ol;
	int i;

	ts_rand(in, sizeof in);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CBC, iv, 8, 0, in, 32, out, 200, NULL), PV_ERR_MECH_PARAM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CBC, iv, 17, 0, in, 32, out, 200, NULL), PV_ERR_MECH_PARAM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CBC, NULL, 0, 0, in, 32, out, 200, NULL), PV_ERR_MECH_PARAM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_ECB, iv, 16, 0, in, 32, out, 200, NULL), PV_ERR_MECH_PARAM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CTR, iv, 12, 0, in, 32, out, 200, NULL), PV_ERR_MECH_PARAM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_GCM, NULL, 0, 0, in, 32, out, 200, NULL), PV_ERR_MECH_PARAM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_GCM, iv, 12, 3, in, 32, out, 200, NULL), PV_ERR_MECH_PARAM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_GCM, iv, 12, 17, in, 32, out, 200, NULL), PV_ERR_MECH_PARAM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CBC, iv, 16, 5, in, 32, out, 200, NULL), PV_ERR_MECH_PARAM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, 0x7777, iv, 16, 0, in, 32, out, 200, NULL), PV_ERR_MECHANISM);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_SM4_CBC, iv, 16, 0, in, 32, out, 200, NULL), PV_ERR_KEY_TYPE);
	/* a public-key mechanism with an AES blob: refused (whatever the wiring) */
	CU_ASSERT_NOT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_RSA_PKCS, NULL, 0, 0, in, 32, out, 200, NULL), PV_OK);
	/* data lengths */
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CBC, iv, 16, 0, in, 33, out, 200, NULL), PV_ERR_DATA_LEN);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_ECB, NULL, 0, 0, in, 15, out, 200, NULL), PV_ERR_DATA_LEN);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_CBC, iv, 16, 0, in, 31, out, 200, NULL), PV_ERR_ENC_LEN);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_CBC_PAD, iv, 16, 0, in, 0, out, 200, NULL), PV_ERR_ENC_LEN);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_CBC_PAD, iv, 16, 0, in, 40, out, 200, NULL), PV_ERR_ENC_LEN);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_GCM, iv, 12, 0, in, 15, out, 200, NULL), PV_ERR_ENC_LEN);
	/* CBC_PAD with bad padding: craft a ciphertext whose last block decrypts to ...05 */
	for (i = 0; i < 3; i++) {
		uint8_t blk[48], ct[48];
		memcpy(blk, in, 48);
		blk[47] = i == 0 ? 0 : i == 1 ? 17 : 5;
		if (i == 2)
			blk[44] = 4;          /* 5 pad bytes that are not all 05 */
		CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CBC, iv, 16, 0, blk, 48, ct, 48, NULL), PV_OK);
		CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_CBC_PAD, iv, 16, 0, ct, 48, out, 200, NULL), PV_ERR_ENC_INVALID);
	}
	/* GCM: a bad tag releases nothing */
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_GCM, iv, 12, 0, in, 64, out, 200, &ol), PV_OK);
	CU_ASSERT_EQUAL(ol, 80);
	out[79] ^= 1;
	memset(out2, 0xee, sizeof out2);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_GCM, iv, 12, 0, out, 80, out2, 200, &ol), PV_ERR_ENC_INVALID);
	CU_ASSERT_EQUAL(ol, 0);
	for (i = 0; i < 200; i++)
		CU_ASSERT_EQUAL(out2[i], 0xee);
	out[79] ^= 1;
	out[3] ^= 1;
	CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_GCM, iv, 12, 0, out, 80, out2, 200, &ol), PV_ERR_ENC_INVALID);
	out[3] ^= 1;
	CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_GCM, iv, 12, 0, out, 80, out2, 200, &ol), PV_OK);
	CU_ASSERT(ol == 64 && memcmp(out2, in, 64) == 0);
}

static void test_buf_small(void)
{
	uint8_t iv[16] = { 0 }, in[100], out[200];
	te_key k = aes_key(PV_USE_ENCRYPT | PV_USE_DECRYPT, 32);
	size_t ol = 0;
	pv_req r;

	ts_rand(in, sizeof in);
	/* size query with out == NULL */
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CBC_PAD, iv, 16, 0, in, 100, NULL, 0, &ol), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(ol, 112);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CBC_PAD, iv, 16, 0, in, 100, out, 111, &ol), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(ol, 112);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CBC_PAD, iv, 16, 0, in, 100, out, 112, &ol), PV_OK);
	CU_ASSERT_EQUAL(ol, 112);
	/* CBC_PAD decrypt: exact size (100), not the 112 upper bound */
	{
		uint8_t ct[112], pt[112];
		memcpy(ct, out, 112);
		CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_CBC_PAD, iv, 16, 0, ct, 112, pt, 99, &ol), PV_ERR_BUF_SMALL);
		CU_ASSERT_EQUAL(ol, 100);
		CU_ASSERT_EQUAL(enc(&k, PV_OP_DECRYPT, PV_MECH_AES_CBC_PAD, iv, 16, 0, ct, 112, pt, 100, &ol), PV_OK);
		CU_ASSERT(ol == 100 && memcmp(pt, in, 100) == 0);
	}
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_GCM, iv, 12, 8, in, 50, out, 57, &ol), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(ol, 58);
	CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CTR, iv, 16, 0, in, 50, out, 10, &ol), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(ol, 50);
	/* digest, mac, keygen, import */
	pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA512);
	r.in = in; r.in_len = 10; r.out = out; r.out_cap = 63;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(r.out_len, 64);
	pv_req_init(&r, PV_OP_GENERATE_KEY, PV_MECH_AES_KEY_GEN);
	r.new_len = 32; r.out = out; r.out_cap = 10;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(r.out_len, PV_BLOB_OVERHEAD + 32);
	pv_req_init(&r, PV_OP_IMPORT_KEY, 0);
	r.new_type = PV_KEY_AES; r.in = in; r.in_len = 24; r.out = out;
	r.out_cap = PV_BLOB_OVERHEAD + 23;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(r.out_len, PV_BLOB_OVERHEAD + 24);
	/* multi-part: short output on UPDATE keeps the old state usable */
	{
		uint8_t st[PV_STATE_MAX], st2[PV_STATE_MAX], got[100];
		size_t stlen;
		pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_CTR);
		te_use(&r, &k);
		r.phase = PV_PHASE_INIT; r.iv = iv; r.iv_len = 16;
		r.state_out = st; r.state_out_cap = 10;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_BUF_SMALL);
		CU_ASSERT(r.state_out_len > 10 && r.state_out_len <= PV_STATE_MAX);
		r.state_out_cap = sizeof st;
		CU_ASSERT_EQUAL_FATAL(pv_vault_call(te_v, &r), PV_OK);
		stlen = r.state_out_len;
		pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_CTR);
		r.phase = PV_PHASE_UPDATE; r.state = st; r.state_len = stlen;
		r.in = in; r.in_len = 100; r.out = got; r.out_cap = 99;
		r.state_out = st2; r.state_out_cap = sizeof st2;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_BUF_SMALL);
		CU_ASSERT_EQUAL(r.out_len, 100);
		r.out_cap = 100;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
		{
			uint8_t ref[100];
			CU_ASSERT_EQUAL(enc(&k, PV_OP_ENCRYPT, PV_MECH_AES_CTR, iv, 16, 0, in, 100, ref, 100, &ol), PV_OK);
			CU_ASSERT(memcmp(got, ref, 100) == 0);
		}
	}
	/* a request larger than the ring slot */
	{
		pv_vault_info info;
		pv_vault_get_info(te_v, &info);
		pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
		r.in = in; r.in_len = (size_t)info.max_data + 1; r.out = out; r.out_cap = 32;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_DATA_LEN);
	}
}

static void test_usage(void)
{
	uint8_t iv[16] = { 0 }, in[32] = { 0 }, out[64];
	te_key ke = aes_key(PV_USE_ENCRYPT, 16), kd = aes_key(PV_USE_DECRYPT, 16);
	te_key kw = aes_key(PV_USE_WRAP, 16), kn = aes_key(PV_USE_ENCRYPT, 16);
	pv_req r;

	CU_ASSERT_EQUAL(enc(&ke, PV_OP_ENCRYPT, PV_MECH_AES_CBC, iv, 16, 0, in, 32, out, 64, NULL), PV_OK);
	CU_ASSERT_EQUAL(enc(&ke, PV_OP_DECRYPT, PV_MECH_AES_CBC, iv, 16, 0, in, 32, out, 64, NULL), PV_ERR_PERM);
	CU_ASSERT_EQUAL(enc(&kd, PV_OP_ENCRYPT, PV_MECH_AES_CBC, iv, 16, 0, in, 32, out, 64, NULL), PV_ERR_PERM);
	CU_ASSERT_EQUAL(enc(&ke, PV_OP_SIGN, PV_MECH_AES_CMAC, NULL, 0, 0, in, 32, out, 64, NULL), PV_ERR_PERM);
	/* wrapping a key without EXTRACT is refused */
	pv_req_init(&r, PV_OP_WRAP_KEY, PV_MECH_AES_KEY_WRAP);
	te_use(&r, &kw);
	r.key2 = kn.blob; r.key2_len = kn.len; memcpy(r.key2_id, kn.id, 16);
	r.out = out; r.out_cap = sizeof out;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_PERM);
	/* wrapping with a key that lacks WRAP */
	te_use(&r, &ke);
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_PERM);
	/* import: bad sizes and reserved types */
	{
		te_key t;
		CU_ASSERT_EQUAL(te_import(te_v, PV_KEY_AES, PV_USE_ALL, in, 20, &t), PV_ERR_KEY_SIZE);
		CU_ASSERT_EQUAL(te_import(te_v, PV_KEY_SM4, PV_USE_ALL, in, 32, &t), PV_ERR_KEY_SIZE);
		CU_ASSERT_EQUAL(te_import(te_v, PV_KEY_GENERIC, PV_USE_ALL, in, 0, &t), PV_ERR_KEY_SIZE);
		CU_ASSERT_NOT_EQUAL(te_import(te_v, PV_KEY_RSA, PV_USE_ALL, in, 32, &t), PV_OK);
		CU_ASSERT_EQUAL(te_import(te_v, 0x7f, PV_USE_ALL, in, 32, &t), PV_ERR_KEY_TYPE);
	}
	pv_req_init(&r, PV_OP_GENERATE_PAIR, PV_MECH_AES_KEY_GEN);
	r.out = out; r.out_cap = sizeof out;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_MECHANISM);
}

static void test_states(void)
{
	uint8_t iv[16] = { 0 }, st[PV_STATE_MAX], st2[PV_STATE_MAX], in[64], out[128];
	uint8_t raw[16];
	te_key k;
	size_t stlen, i;
	pv_req r;
	pv_vault *v2;
	int bad = 0;

	ts_rand(in, sizeof in);
	ts_rand(raw, sizeof raw);
	CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_AES, PV_USE_ENCRYPT | PV_USE_DECRYPT, raw, 16, &k), PV_OK);
	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_CBC);
	te_use(&r, &k);
	r.phase = PV_PHASE_INIT; r.iv = iv; r.iv_len = 16;
	r.state_out = st; r.state_out_cap = sizeof st;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(te_v, &r), PV_OK);
	stlen = r.state_out_len;
	/* the key bytes are nowhere in the sealed state */
	for (i = 0; i + 16 <= stlen; i++)
		CU_ASSERT(memcmp(st + i, raw, 16) != 0);
	/* tamper every 7th byte */
	for (i = 0; i < stlen; i += 7) {
		pv_req u;
		st[i] ^= 0x10;
		pv_req_init(&u, PV_OP_ENCRYPT, PV_MECH_AES_CBC);
		u.phase = PV_PHASE_UPDATE; u.state = st; u.state_len = stlen;
		u.in = in; u.in_len = 32; u.out = out; u.out_cap = sizeof out;
		u.state_out = st2; u.state_out_cap = sizeof st2;
		if (pv_vault_call(te_v, &u) != PV_ERR_STATE)
			bad++;
		st[i] ^= 0x10;
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* wrong op / mech / truncated */
	{
		pv_req u;
		pv_req_init(&u, PV_OP_DECRYPT, PV_MECH_AES_CBC);
		u.phase = PV_PHASE_UPDATE; u.state = st; u.state_len = stlen;
		u.in = in; u.in_len = 32; u.out = out; u.out_cap = sizeof out;
		u.state_out = st2; u.state_out_cap = sizeof st2;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &u), PV_ERR_STATE);
		u.op = PV_OP_ENCRYPT; u.mech = PV_MECH_AES_ECB;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &u), PV_ERR_STATE);
		u.mech = PV_MECH_AES_CBC; u.state_len = stlen - 1;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &u), PV_ERR_STATE);
		u.state_len = stlen;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &u), PV_OK);
		/* another boot (same master) cannot open this boot's state */
		CU_ASSERT_EQUAL_FATAL(te_open_other(te_master, 32, 1, 4, 65536, &v2), PV_OK);
		CU_ASSERT_EQUAL(pv_vault_call(v2, &u), PV_ERR_STATE);
		pv_vault_close(v2);
	}
	/* digest state: plain, moves between boots, checked on load */
	{
		uint8_t ds[PV_STATE_MAX], ds2[PV_STATE_MAX], d1[32], d2[32];
		size_t dl;
		unsigned int l;
		pv_req u;
		pv_req_init(&u, PV_OP_DIGEST, PV_MECH_SHA256);
		u.phase = PV_PHASE_INIT; u.state_out = ds; u.state_out_cap = sizeof ds;
		CU_ASSERT_EQUAL_FATAL(pv_vault_call(te_v, &u), PV_OK);
		dl = u.state_out_len;
		pv_req_init(&u, PV_OP_DIGEST, PV_MECH_SHA256);
		u.phase = PV_PHASE_UPDATE; u.state = ds; u.state_len = dl;
		u.in = in; u.in_len = 50; u.state_out = ds2; u.state_out_cap = sizeof ds2;
		CU_ASSERT_EQUAL_FATAL(pv_vault_call(te_v, &u), PV_OK);
		CU_ASSERT_EQUAL_FATAL(te_open_other(te_master, 32, 1, 4, 65536, &v2), PV_OK);
		pv_req_init(&u, PV_OP_DIGEST, PV_MECH_SHA256);
		u.phase = PV_PHASE_FINAL; u.state = ds2; u.state_len = dl;
		u.in = in + 50; u.in_len = 14; u.out = d1; u.out_cap = 32;
		CU_ASSERT_EQUAL(pv_vault_call(v2, &u), PV_OK);
		EVP_Digest(in, 64, d2, &l, EVP_sha256(), NULL);
		CU_ASSERT(memcmp(d1, d2, 32) == 0);
		/* a state of the wrong mech or with a broken count is refused */
		u.mech = PV_MECH_SHA224;
		CU_ASSERT_EQUAL(pv_vault_call(v2, &u), PV_ERR_STATE);
		u.mech = PV_MECH_SHA256;
		ds2[16] ^= 0x40;             /* the alg field of the ctx */
		CU_ASSERT_EQUAL(pv_vault_call(v2, &u), PV_ERR_STATE);
		pv_vault_close(v2);
	}
}

/* The engine itself rejects descriptors whose spans leave the arena or
 * make an output overlap an input (a client may send anything). */
static void test_protocol(void)
{
	ve_vault *v = malloc(sizeof *v);
	ve_worker *w = malloc(sizeof *w);
	uint8_t ent[48], arena[1024];
	ve_desc d;
	ve_result res;

	ts_rand(ent, sizeof ent);
	CU_ASSERT_EQUAL_FATAL(ve_boot(v, te_master, 32, ent, sizeof ent), PV_OK);
	CU_ASSERT_EQUAL_FATAL(ve_worker_init(w, 0, ent, sizeof ent), PV_OK);
	memset(&d, 0, sizeof d);
	d.version = VE_DESC_VERSION;
	d.op = PV_OP_DIGEST; d.mech = PV_MECH_SHA256;
	d.in.off = 0; d.in.len = 100; d.out.off = 512; d.out.len = 32;
	ve_execute(v, w, &d, arena, sizeof arena, &res);
	CU_ASSERT_EQUAL(res.status, PV_OK);
	CU_ASSERT_EQUAL(res.out_len, 32);
	d.out.off = 1000;
	ve_execute(v, w, &d, arena, sizeof arena, &res);
	CU_ASSERT_EQUAL(res.status, PV_ERR_PROTOCOL);
	d.out.off = 90;                         /* overlaps the input */
	ve_execute(v, w, &d, arena, sizeof arena, &res);
	CU_ASSERT_EQUAL(res.status, PV_ERR_PROTOCOL);
	d.out.off = 512;
	d.in.off = 0xffffff00u; d.in.len = 0x200;   /* wraps 32 bits */
	ve_execute(v, w, &d, arena, sizeof arena, &res);
	CU_ASSERT_EQUAL(res.status, PV_ERR_PROTOCOL);
	d.in.off = 0; d.in.len = 100;
	d.version = 9;
	ve_execute(v, w, &d, arena, sizeof arena, &res);
	CU_ASSERT_EQUAL(res.status, PV_ERR_PROTOCOL);
	d.version = VE_DESC_VERSION;
	d.phase = 7;
	ve_execute(v, w, &d, arena, sizeof arena, &res);
	CU_ASSERT_EQUAL(res.status, PV_ERR_ARGS);
	d.phase = 0; d.op = 99;
	ve_execute(v, w, &d, arena, sizeof arena, &res);
	CU_ASSERT_EQUAL(res.status, PV_ERR_MECHANISM);
	ve_worker_clear(w);
	ve_vault_clear(v);
	CU_ASSERT_EQUAL(v->sealed, 1);
	free(v);
	free(w);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	if (te_open(2) != PV_OK) {
		fprintf(stderr, "cannot open vault\n");
		return 1;
	}
	s = CU_add_suite("engine_blob", NULL, NULL);
	CU_add_test(s, "blob tampering, identity, type", test_tamper);
	CU_add_test(s, "same / different master key", test_other_master);
	CU_add_test(s, "sealed vault", test_sealed);
	CU_add_test(s, "backend choice: cuda / auto / $PIXELVAULT_BACKEND", test_backend_choice);
	CU_add_test(s, "gpu_slots = N (power of two, 16..4096)", test_gpu_slots);
	CU_add_test(s, "gpu_blocks_per_sm = N (0..32)", test_gpu_blocks_per_sm);
	CU_add_test(s, "bad parameters", test_params);
	CU_add_test(s, "short outputs -> BUF_SMALL with size", test_buf_small);
	CU_add_test(s, "usage policy", test_usage);
	CU_add_test(s, "multi-part state integrity", test_states);
	CU_add_test(s, "descriptor validation", test_protocol);
	{
		int rc = ts_run();
		te_close();
		return rc;
	}
}
