/*
 * test_engine_open.c - every GCM opening outside the cipher ops checks the
 * tag before it writes plaintext (kc_gcm_open), and keeps its error code
 * and its wipes:
 *   ve_blob_decrypt   KeyStore blobs: PV_ERR_WRAPPED, its work buffer zero;
 *                     ve_blob_open / ve_pk_open: PV_ERR_WRAPPED, key wiped
 *   ve_state_open     sealed states: PV_ERR_STATE, mp wiped (also when the
 *                     tag holds but magic / op / mech do not)
 *   pv_master_read    a passphrase-protected master key file:
 *                     PV_ERR_WRAPPED for a wrong passphrase or a tampered
 *                     salt / nonce / ciphertext / tag (checksum fixed up),
 *                     PV_ERR_CORRUPT when the checksum is not, key wiped
 * The engine parts call the engine directly (ve_boot, a hand-made ve_req).
 */
#include "te_common.h"
#include "gpu/engine/ve_internal.h"
#include "gpu/engine/ve_pk.h"
#include "gpu/host/pv_master.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SENT 0xa5u

static ve_vault *tv, *tv2;     /* tv2: another master key */
static ve_worker *tw;

static int all(const void *p, size_t n, uint8_t b)
{
	const uint8_t *q = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (q[i] != b)
			return 0;
	return 1;
}

static int boot(void)
{
	uint8_t m[32], ent[48];

	tv = malloc(sizeof *tv);
	tv2 = malloc(sizeof *tv2);
	tw = malloc(sizeof *tw);
	if (tv == NULL || tv2 == NULL || tw == NULL)
		return -1;
	ts_rand(m, sizeof m);
	ts_rand(ent, sizeof ent);
	if (ve_boot(tv, m, 32, ent, sizeof ent) != PV_OK ||
	    ve_worker_init(tw, 0, ent, sizeof ent) != PV_OK)
		return -1;
	m[0] ^= 1;
	ts_rand(ent, sizeof ent);      /* the state key comes from the entropy */
	return ve_boot(tv2, m, 32, ent, sizeof ent) == PV_OK ? 0 : -1;
}

static void shutdown_all(void)
{
	ve_worker_clear(tw);
	ve_vault_clear(tv);
	ve_vault_clear(tv2);
	free(tw);
	free(tv);
	free(tv2);
}

/* The blob calls over a vault's KEK, as the engine makes them. */
static int t_encrypt(const ve_vault *v, uint32_t ver, uint32_t type, uint32_t usage,
                     const uint8_t *pt, uint32_t len, const uint8_t *id, uint8_t *out)
{
	ve_bhdr h;
	memset(&h, 0, sizeof h);
	h.ver = ver; h.type = type; h.usage = usage; h.len = len;
	return ve_blob_encrypt(&v->kek, tw, &h, pt, id, out);
}
static int t_open(const ve_vault *v, const uint8_t *blob, uint32_t blen, const uint8_t *id,
                  uint32_t want, ve_key *k)
{
	ve_bhdr h;
	int rc = ve_blob_parse(blob, blen, PV_BLOB_MAX, want, 0u, &h);
	if (rc != PV_OK) {
		memset(k, 0, sizeof *k);
		return rc;
	}
	return ve_blob_open(&v->kek, &h, blob, id, k);
}
static int t_decrypt(const ve_vault *v, const uint8_t *blob, uint32_t len, const uint8_t *id,
                     uint32_t plen, uint8_t *out)
{
	ve_bhdr h;
	int rc = ve_blob_parse(blob, PV_BLOB_OVERHEAD + len, PV_BLOB_MAX, 0u, 0u, &h);
	if (rc != PV_OK) {
		memset(out, 0, VE_BLOB_W(plen));
		return rc;
	}
	return ve_blob_decrypt(&v->kek, &h, blob, id, plen, out);
}

/* ve_blob_decrypt / ve_blob_open */
static void test_blob(void)
{
	uint8_t pt[32], out[VE_BLOB_W(32)], blob[PV_BLOB_MAX], t[PV_BLOB_MAX], id[PV_OBJ_ID_LEN];
	const uint32_t blen = PV_BLOB_OVERHEAD + 32u;
	ve_key k;
	uint32_t i;
	int bad_rc = 0, bad_out = 0, bad_wipe = 0;

	ts_rand(pt, sizeof pt);
	ts_rand(id, sizeof id);
	/* the d-last version is only for RSA keys */
	CU_ASSERT_EQUAL_FATAL(t_encrypt(tv, VE_BLOB_V_RSA_DLAST, PV_KEY_AES, PV_USE_ENCRYPT, pt, 32,
	                                      id, blob), PV_OK);
	memset(&k, SENT, sizeof k);
	CU_ASSERT_EQUAL(t_open(tv, blob, blen, id, PV_KEY_AES, &k), PV_ERR_WRAPPED);
	CU_ASSERT(all(&k, sizeof k, 0));
	CU_ASSERT_EQUAL_FATAL(t_encrypt(tv, VE_BLOB_VERSION, PV_KEY_AES, PV_USE_ENCRYPT, pt, 32,
	                                      id, blob), PV_OK);
	memset(out, SENT, sizeof out);
	CU_ASSERT_EQUAL(t_decrypt(tv, blob, 32, id, 32, out), PV_OK);
	CU_ASSERT(memcmp(out + 16, pt, 32) == 0 && all(out, 16, 0));
	memset(&k, SENT, sizeof k);
	CU_ASSERT_EQUAL(t_open(tv, blob, blen, id, PV_KEY_AES, &k), PV_OK);
	CU_ASSERT(k.type == PV_KEY_AES && k.usage == PV_USE_ENCRYPT && k.len == 32u);
	CU_ASSERT(memcmp(k.k, pt, 32) == 0);

	/* one bit of every byte: header (AAD), nonce, ciphertext, tag */
	for (i = 0; i < blen; i++) {
		memcpy(t, blob, blen);
		t[i] ^= (uint8_t)(1u << (i & 7u));
		memset(out, SENT, sizeof out);
		if (t_decrypt(tv, t, 32, id, 32, out) != PV_ERR_WRAPPED)
			bad_rc++;
		if (!all(out, sizeof out, 0))
			bad_out++;
		memset(&k, SENT, sizeof k);
		if (t_open(tv, t, blen, id, 0, &k) != PV_ERR_WRAPPED)
			bad_rc++;
		if (!all(&k, sizeof k, 0))
			bad_wipe++;
	}
	CU_ASSERT_EQUAL(bad_rc, 0);
	CU_ASSERT_EQUAL(bad_out, 0);
	CU_ASSERT_EQUAL(bad_wipe, 0);
	/* another identity, another master key */
	id[3] ^= 0x40;
	memset(out, SENT, sizeof out);
	CU_ASSERT_EQUAL(t_decrypt(tv, blob, 32, id, 32, out), PV_ERR_WRAPPED);
	CU_ASSERT(all(out, sizeof out, 0));
	id[3] ^= 0x40;
	memset(out, SENT, sizeof out);
	CU_ASSERT_EQUAL(t_decrypt(tv2, blob, 32, id, 32, out), PV_ERR_WRAPPED);
	CU_ASSERT(all(out, sizeof out, 0));
	memset(&k, SENT, sizeof k);
	CU_ASSERT_EQUAL(t_open(tv2, blob, blen, id, 0, &k), PV_ERR_WRAPPED);
	CU_ASSERT(all(&k, sizeof k, 0));
	/* and the good blob still opens */
	CU_ASSERT_EQUAL(t_decrypt(tv, blob, 32, id, 32, out), PV_OK);
	CU_ASSERT(memcmp(out + 16, pt, 32) == 0);
}

/* ve_pk_open (vpk_open_raw -> ve_blob_decrypt) on an Ed25519 blob */
static void test_pk_blob(void)
{
	static uint8_t arena[1024];
	ve_result res;
	ve_req r;
	ve_pkey pk, k;
	uint32_t blen, i;
	int bad_rc = 0, bad_wipe = 0;

	memset(&pk, 0, sizeof pk);
	pk.type = PV_KEY_ED25519;
	pk.usage = PV_USE_SIGN;
	pk.flen = 32;
	pk.publen = 32;
	ts_rand(pk.d, 32);
	ts_rand(pk.pub, 32);
	memset(&r, 0, sizeof r);
	memset(&res, 0, sizeof res);
	r.arena = arena;
	r.v = tv;
	r.w = tw;
	r.res = &res;
	ts_rand(r.d.new_id, PV_OBJ_ID_LEN);
	CU_ASSERT_EQUAL_FATAL(ve_pk_seal(&r, &pk, (ve_span){ 0u, 512u }), PV_OK);
	blen = res.out_len;
	CU_ASSERT_EQUAL_FATAL(blen, PV_BLOB_OVERHEAD + 64u);
	memcpy(r.d.key_id, r.d.new_id, PV_OBJ_ID_LEN);
	r.d.key = (ve_span){ 0u, blen };
	r.d.key_type = PV_KEY_ED25519;
	memset(&k, SENT, sizeof k);
	CU_ASSERT_EQUAL(ve_pk_open(&r, PV_USE_SIGN, &k), PV_OK);
	CU_ASSERT(k.type == PV_KEY_ED25519 && k.len == 64u);
	CU_ASSERT(memcmp(k.d, pk.d, 32) == 0 && memcmp(k.pub, pk.pub, 32) == 0);
	for (i = 0; i < blen; i++) {
		arena[i] ^= (uint8_t)(1u << (i & 7u));
		memset(&k, SENT, sizeof k);
		if (ve_pk_open(&r, PV_USE_SIGN, &k) != PV_ERR_WRAPPED)
			bad_rc++;
		/* an Ed25519 key's bytes zero; the RSA part, never written, as
		 * the caller left it (ve_pk_wipe) */
		if (!all(&k, offsetof(ve_pkey, rsa), 0) ||
		    !all(&k.rsa, sizeof k.rsa, SENT))
			bad_wipe++;
		arena[i] ^= (uint8_t)(1u << (i & 7u));
	}
	CU_ASSERT_EQUAL(bad_rc, 0);
	CU_ASSERT_EQUAL(bad_wipe, 0);
	CU_ASSERT_EQUAL(ve_pk_open(&r, PV_USE_SIGN, &k), PV_OK);
	ve_pk_wipe(&k);
	CU_ASSERT(all(&k, offsetof(ve_pkey, rsa), 0));
}

/* Seal mp as op/mech into a fresh request over arena; the sealed length. */
static uint32_t seal_state(ve_req *r, ve_result *res, uint8_t *arena, uint32_t op,
                           uint32_t mech, const ve_mp *mp)
{
	memset(r, 0, sizeof *r);
	memset(res, 0, sizeof *res);
	r->arena = arena;
	r->v = tv;
	r->w = tw;
	r->res = res;
	r->d.op = op;
	r->d.mech = mech;
	r->d.state_out = (ve_span){ 0u, PV_STATE_MAX };
	if (ve_state_seal(r, mp) != PV_OK)
		return 0;
	r->d.state = (ve_span){ 0u, res->state_len };
	return res->state_len;
}

/* ve_state_open */
static void test_state(void)
{
	static uint8_t arena[PV_STATE_MAX];
	static ve_mp mp0, mp, bad;
	ve_result res;
	ve_req r;
	uint32_t slen, i;
	int bad_rc = 0, bad_wipe = 0;

	ts_rand(&mp0, sizeof mp0);
	mp0.magic = VE_MP_MAGIC;
	mp0.op = PV_OP_ENCRYPT;
	mp0.mech = PV_MECH_AES_CBC;
	slen = seal_state(&r, &res, arena, PV_OP_ENCRYPT, PV_MECH_AES_CBC, &mp0);
	CU_ASSERT_EQUAL_FATAL(slen, sizeof(ve_mp) + 44u);
	memset(&mp, SENT, sizeof mp);
	CU_ASSERT_EQUAL(ve_state_open(&r, &mp), PV_OK);
	CU_ASSERT(memcmp(&mp, &mp0, sizeof mp) == 0);
	/* one bit of every byte: header, nonce, ciphertext, tag */
	for (i = 0; i < slen; i++) {
		arena[i] ^= (uint8_t)(1u << (i & 7u));
		memset(&mp, SENT, sizeof mp);
		if (ve_state_open(&r, &mp) != PV_ERR_STATE)
			bad_rc++;
		if (!all(&mp, sizeof mp, 0))
			bad_wipe++;
		arena[i] ^= (uint8_t)(1u << (i & 7u));
	}
	CU_ASSERT_EQUAL(bad_rc, 0);
	CU_ASSERT_EQUAL(bad_wipe, 0);
	/* another boot's state key */
	r.v = tv2;
	memset(&mp, SENT, sizeof mp);
	CU_ASSERT_EQUAL(ve_state_open(&r, &mp), PV_ERR_STATE);
	CU_ASSERT(all(&mp, sizeof mp, 0));
	r.v = tv;
	CU_ASSERT_EQUAL(ve_state_open(&r, &mp), PV_OK);

	/* the tag holds, the content does not (magic, op, mech): the opened
	 * state is wiped */
	for (int k = 0; k < 3; k++) {
		bad = mp0;
		if (k == 0)
			bad.magic ^= 1u;
		else if (k == 1)
			bad.op = PV_OP_DECRYPT;
		else
			bad.mech = PV_MECH_AES_ECB;
		CU_ASSERT_EQUAL_FATAL(seal_state(&r, &res, arena, PV_OP_ENCRYPT, PV_MECH_AES_CBC, &bad), slen);
		memset(&mp, SENT, sizeof mp);
		CU_ASSERT_EQUAL(ve_state_open(&r, &mp), PV_ERR_STATE);
		CU_ASSERT(all(&mp, sizeof mp, 0));
	}
	kc_wipe(&mp0, sizeof mp0);
	kc_wipe(&mp, sizeof mp);
}

/* --- the master key file (format in gpu/host/pv_master.h) ------------ */

#define MK_ITERS 1000u    /* pv_master_read's floor: keeps the test fast */

static void mk_check(uint8_t f[104])
{
	static const char label[] = "PixelVault master key file v1";
	uint8_t d[32];
	unsigned int dl;
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	EVP_DigestInit_ex(c, EVP_sha256(), NULL);
	EVP_DigestUpdate(c, label, sizeof label - 1);
	EVP_DigestUpdate(c, f, 88);
	EVP_DigestFinal_ex(c, d, &dl);
	EVP_MD_CTX_free(c);
	memcpy(f + 88, d, 16);
}

/* A passphrase-protected file built with OpenSSL (PBKDF2-HMAC-SHA256,
 * AES-256-GCM, AAD = the 8-byte header). */
static int mk_build(uint8_t f[104], const uint8_t key[32], const char *pass)
{
	uint8_t kek[32];
	int l, ok;
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

	memset(f, 0, 104);
	memcpy(f, "PVMK", 4);
	f[4] = 1;
	f[5] = 1;
	ts_rand(f + 8, 16);
	f[24] = (uint8_t)(MK_ITERS >> 24);
	f[25] = (uint8_t)(MK_ITERS >> 16);
	f[26] = (uint8_t)(MK_ITERS >> 8);
	f[27] = (uint8_t)MK_ITERS;
	ts_rand(f + 28, 12);
	ok = PKCS5_PBKDF2_HMAC(pass, (int)strlen(pass), f + 8, 16, (int)MK_ITERS, EVP_sha256(),
	                       32, kek) == 1 &&
	     EVP_EncryptInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL) == 1 &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) == 1 &&
	     EVP_EncryptInit_ex(c, NULL, NULL, kek, f + 28) == 1 &&
	     EVP_EncryptUpdate(c, NULL, &l, f, 8) == 1 &&
	     EVP_EncryptUpdate(c, f + 40, &l, key, 32) == 1 && l == 32 &&
	     EVP_EncryptFinal_ex(c, f + 72, &l) == 1 &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, f + 72) == 1;
	EVP_CIPHER_CTX_free(c);
	mk_check(f);
	return ok ? 0 : -1;
}

/* The file private to its owner, as pv_master_read requires. */
static int mk_put(const char *path, const uint8_t *f, size_t n)
{
	FILE *fp = fopen(path, "wb");
	size_t w;

	if (fp == NULL)
		return -1;
	w = fwrite(f, 1, n, fp);
	return fclose(fp) == 0 && w == n && chmod(path, 0600) == 0 ? 0 : -1;
}

/* pv_master_read of f: its status; *wiped = key all zero afterwards. */
static int mk_read(const char *path, const uint8_t f[104], const char *pass,
                   uint8_t key[32], int *wiped)
{
	int rc;

	if (mk_put(path, f, 104) != 0)
		return -999;
	memset(key, SENT, 32);
	rc = pv_master_read(path, pass, key);
	*wiped = all(key, 32, 0);
	return rc;
}

static void test_master(void)
{
	static const char pass[] = "correct horse battery staple";
	uint8_t key[32], got[32], f[104], t[104];
	char path[256];
	int wiped, i, bad_rc = 0, bad_wipe = 0;

	snprintf(path, sizeof path, "/tmp/pv-open-test-%d.key", (int)getpid());
	ts_rand(key, sizeof key);
	CU_ASSERT_EQUAL_FATAL(mk_build(f, key, pass), 0);
	CU_ASSERT_EQUAL(mk_read(path, f, pass, got, &wiped), PV_OK);
	CU_ASSERT(memcmp(got, key, 32) == 0);
	CU_ASSERT_EQUAL(pv_master_needs_passphrase(path), 1);
	/* no passphrase, a wrong one */
	CU_ASSERT_EQUAL(mk_read(path, f, NULL, got, &wiped), PV_ERR_PASSPHRASE);
	CU_ASSERT(wiped);
	CU_ASSERT_EQUAL(mk_read(path, f, "correct horse battery stapler", got, &wiped),
	                PV_ERR_WRAPPED);
	CU_ASSERT(wiped);
	/* salt, nonce, ciphertext, tag: one bit each, checksum fixed up */
	for (i = 8; i < 88; i++) {
		if (i >= 24 && i < 28)
			continue;          /* the iteration count: see below */
		memcpy(t, f, sizeof t);
		t[i] ^= (uint8_t)(1u << (i & 7));
		mk_check(t);
		if (mk_read(path, t, pass, got, &wiped) != PV_ERR_WRAPPED)
			bad_rc++;
		if (!wiped)
			bad_wipe++;
	}
	CU_ASSERT_EQUAL(bad_rc, 0);
	CU_ASSERT_EQUAL(bad_wipe, 0);
	memcpy(t, f, sizeof t);
	t[27] ^= 1;                    /* 1001 iterations: another KEK */
	mk_check(t);
	CU_ASSERT_EQUAL(mk_read(path, t, pass, got, &wiped), PV_ERR_WRAPPED);
	CU_ASSERT(wiped);
	/* the same tampering without the checksum: CORRUPT, before any GCM */
	memcpy(t, f, sizeof t);
	t[72] ^= 1;
	CU_ASSERT_EQUAL(mk_read(path, t, pass, got, &wiped), PV_ERR_CORRUPT);
	CU_ASSERT(wiped);
	CU_ASSERT_EQUAL(mk_read(path, f, pass, got, &wiped), PV_OK);
	CU_ASSERT(memcmp(got, key, 32) == 0);
	unlink(path);

	/* pv_master_write's own passphrase file (600,000 iterations) */
	CU_ASSERT_EQUAL_FATAL(pv_master_write(path, key, pass), PV_OK);
	memset(got, SENT, sizeof got);
	CU_ASSERT_EQUAL(pv_master_read(path, pass, got), PV_OK);
	CU_ASSERT(memcmp(got, key, 32) == 0);
	memset(got, SENT, sizeof got);
	CU_ASSERT_EQUAL(pv_master_read(path, "wrong", got), PV_ERR_WRAPPED);
	CU_ASSERT(all(got, 32, 0));
	unlink(path);
	kc_wipe(key, sizeof key);
	kc_wipe(got, sizeof got);
}

int main(void)
{
	CU_pSuite s;
	int rc;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	if (boot() != 0) {
		fprintf(stderr, "cannot boot the engine\n");
		return 1;
	}
	s = CU_add_suite("engine_open", NULL, NULL);
	CU_add_test(s, "key blob: tag before plaintext, WRAPPED, key wiped", test_blob);
	CU_add_test(s, "private-key blob: WRAPPED, key wiped", test_pk_blob);
	CU_add_test(s, "sealed state: STATE, state wiped", test_state);
	CU_add_test(s, "master key file: WRAPPED / CORRUPT, key wiped", test_master);
	rc = ts_run();
	shutdown_all();
	return rc;
}
