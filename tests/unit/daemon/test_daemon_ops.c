/*
 * test_daemon_ops.c - gpu/vault.h in daemon mode: a private pvaultd (CPU
 * backend) serves this process; every op family embedded mode supports is
 * checked against OpenSSL (or, for blobs, against an embedded vault with the
 * same master key).  Also: status request, 8 threads through one client.
 */
#include "td_common.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static td_daemon D;
static pv_vault *dv;      /* daemon mode */
static pv_vault *ev;      /* embedded, same master key */

static int suite_init(void)
{
	if (td_setup(&D) != 0 || td_start(&D) != 0)
		return 1;
	if (td_open(&D, &dv) != PV_OK)
		return 1;
	if (te_open_other(te_master, 32, 1, 4, 65536, &ev) != PV_OK)
		return 1;
	return 0;
}

static int suite_clean(void)
{
	pv_vault_close(dv);
	pv_vault_close(ev);
	td_stop(&D, SIGTERM);
	td_cleanup(&D);
	return 0;
}

static void t_info(void)
{
	pv_vault_info info;
	pv_req r;
	CU_ASSERT_EQUAL_FATAL(pv_vault_get_info(dv, &info), PV_OK);
	CU_ASSERT_STRING_EQUAL(info.backend, te_backend());
	CU_ASSERT_EQUAL(info.sealed, 0);
	CU_ASSERT(strncmp(info.device, "pvaultd: ", 9) == 0);
	CU_ASSERT(info.nslots >= 2);
	pv_req_init(&r, PV_OP_NOP, PV_MECH_NONE);
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
}

static int ossl_gcm(const uint8_t *k, size_t kl, const uint8_t *iv, const uint8_t *aad, size_t al,
                    const uint8_t *pt, size_t n, uint8_t *ct, uint8_t tag[16])
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l = 0, ok;
	ok = EVP_EncryptInit_ex(x, kl == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm(), NULL, k, iv) &&
	     (al == 0 || EVP_EncryptUpdate(x, NULL, &l, aad, (int)al)) &&
	     (n == 0 || EVP_EncryptUpdate(x, ct, &l, pt, (int)n)) &&
	     EVP_EncryptFinal_ex(x, ct + n, &l) &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, 16, tag);
	EVP_CIPHER_CTX_free(x);
	return ok ? 0 : -1;
}

static void t_gcm(void)
{
	uint8_t k[32], iv[12], aad[40], pt[3000], ct[3016], ref[3016], tag[16], back[3000];
	size_t lens[] = { 0, 1, 15, 16, 17, 255, 1024, 3000 };
	unsigned i;
	te_key key;
	pv_req r;

	ts_rand(k, 32);
	CU_ASSERT_EQUAL_FATAL(te_import(dv, PV_KEY_AES, PV_USE_ENCRYPT | PV_USE_DECRYPT, k, 32, &key), PV_OK);
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		size_t n = lens[i];
		ts_rand(iv, 12); ts_rand(aad, sizeof aad); ts_rand(pt, n);
		CU_ASSERT_EQUAL_FATAL(ossl_gcm(k, 32, iv, aad, sizeof aad, pt, n, ref, tag), 0);
		pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_GCM);
		te_use(&r, &key);
		r.iv = iv; r.iv_len = 12; r.aad = aad; r.aad_len = sizeof aad;
		r.in = n ? pt : NULL; r.in_len = n; r.out = ct; r.out_cap = sizeof ct;
		CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
		CU_ASSERT_EQUAL(r.out_len, n + 16);
		CU_ASSERT(memcmp(ct, ref, n) == 0 && memcmp(ct + n, tag, 16) == 0);
		pv_req_init(&r, PV_OP_DECRYPT, PV_MECH_AES_GCM);
		te_use(&r, &key);
		r.iv = iv; r.iv_len = 12; r.aad = aad; r.aad_len = sizeof aad;
		r.in = ct; r.in_len = n + 16; r.out = back; r.out_cap = sizeof back;
		CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
		CU_ASSERT(r.out_len == n && memcmp(back, pt, n) == 0);
		ct[n] ^= 1;
		pv_req_init(&r, PV_OP_DECRYPT, PV_MECH_AES_GCM);
		te_use(&r, &key);
		r.iv = iv; r.iv_len = 12; r.aad = aad; r.aad_len = sizeof aad;
		r.in = ct; r.in_len = n + 16; r.out = back; r.out_cap = sizeof back;
		CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_ERR_ENC_INVALID);
	}
}

static void t_modes(void)
{
	uint32_t mechs[] = { PV_MECH_AES_ECB, PV_MECH_AES_CBC, PV_MECH_AES_CBC_PAD, PV_MECH_AES_CTR };
	uint8_t k[16], iv[16], pt[512], out[600], ref[600];
	unsigned i;
	te_key key;
	pv_req r;
	int n;

	ts_rand(k, 16);
	CU_ASSERT_EQUAL_FATAL(te_import(dv, PV_KEY_AES, PV_USE_ENCRYPT | PV_USE_DECRYPT, k, 16, &key), PV_OK);
	for (i = 0; i < 4; i++) {
		ts_rand(iv, 16); ts_rand(pt, sizeof pt);
		n = te_ossl_crypt(mechs[i], 1, k, 16, iv, pt, 512, ref);
		CU_ASSERT_FATAL(n > 0);
		pv_req_init(&r, PV_OP_ENCRYPT, mechs[i]);
		te_use(&r, &key);
		if (mechs[i] != PV_MECH_AES_ECB) { r.iv = iv; r.iv_len = 16; }
		r.in = pt; r.in_len = 512; r.out = out; r.out_cap = sizeof out;
		CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
		CU_ASSERT(r.out_len == (size_t)n && memcmp(out, ref, (size_t)n) == 0);
	}
	/* size query: out NULL, cap 0 -> BUF_SMALL + needed size */
	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_CBC_PAD);
	te_use(&r, &key);
	r.iv = iv; r.iv_len = 16; r.in = pt; r.in_len = 100;
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(r.out_len, 112);
}

static void t_hmac_digest(void)
{
	uint8_t k[32], msg[777], mac[64], ref[64], dg[64];
	unsigned rl = 0;
	te_key key;
	pv_req r;
	size_t i;

	ts_rand(k, 32); ts_rand(msg, sizeof msg);
	CU_ASSERT_EQUAL_FATAL(te_import(dv, PV_KEY_GENERIC, PV_USE_SIGN | PV_USE_VERIFY, k, 32, &key), PV_OK);
	HMAC(EVP_sha256(), k, 32, msg, sizeof msg, ref, &rl);
	pv_req_init(&r, PV_OP_SIGN, PV_MECH_HMAC_SHA256);
	te_use(&r, &key);
	r.in = msg; r.in_len = sizeof msg; r.out = mac; r.out_cap = sizeof mac;
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
	CU_ASSERT(r.out_len == 32 && memcmp(mac, ref, 32) == 0);
	pv_req_init(&r, PV_OP_VERIFY, PV_MECH_HMAC_SHA256);
	te_use(&r, &key);
	r.in = msg; r.in_len = sizeof msg; r.in2 = ref; r.in2_len = 32;
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
	ref[5] ^= 0x40;
	pv_req_init(&r, PV_OP_VERIFY, PV_MECH_HMAC_SHA256);
	te_use(&r, &key);
	r.in = msg; r.in_len = sizeof msg; r.in2 = ref; r.in2_len = 32;
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_ERR_SIG_INVALID);

	/* digests one-shot and multi-part */
	{
		uint32_t mechs[] = { PV_MECH_SHA256, PV_MECH_SHA512, PV_MECH_SHA3_256 };
		for (i = 0; i < 3; i++) {
			unsigned dl = 0;
			uint8_t st[PV_STATE_MAX], st2[PV_STATE_MAX];
			size_t sl;
			EVP_Digest(msg, sizeof msg, ref, &dl, te_evp_md(mechs[i]), NULL);
			pv_req_init(&r, PV_OP_DIGEST, mechs[i]);
			r.in = msg; r.in_len = sizeof msg; r.out = dg; r.out_cap = sizeof dg;
			CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
			CU_ASSERT(r.out_len == dl && memcmp(dg, ref, dl) == 0);
			pv_req_init(&r, PV_OP_DIGEST, mechs[i]);
			r.phase = PV_PHASE_INIT; r.state_out = st; r.state_out_cap = sizeof st;
			CU_ASSERT_EQUAL_FATAL(pv_vault_call(dv, &r), PV_OK);
			sl = r.state_out_len;
			pv_req_init(&r, PV_OP_DIGEST, mechs[i]);
			r.phase = PV_PHASE_UPDATE; r.state = st; r.state_len = sl;
			r.in = msg; r.in_len = 300; r.state_out = st2; r.state_out_cap = sizeof st2;
			CU_ASSERT_EQUAL_FATAL(pv_vault_call(dv, &r), PV_OK);
			sl = r.state_out_len;
			pv_req_init(&r, PV_OP_DIGEST, mechs[i]);
			r.phase = PV_PHASE_FINAL; r.state = st2; r.state_len = sl;
			r.in = msg + 300; r.in_len = sizeof msg - 300; r.out = dg; r.out_cap = sizeof dg;
			CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
			CU_ASSERT(r.out_len == dl && memcmp(dg, ref, dl) == 0);
		}
	}
}

/* keys made by pvaultd are ordinary blobs under the same master key */
static void t_keys(void)
{
	uint8_t blob[PV_BLOB_MAX], id[16], pt[64], c1[64], c2[64], kw[32], kek[32];
	uint8_t wrapped[64], ref[64], blob2[PV_BLOB_MAX];
	size_t bl;
	te_key wk, tk;
	pv_req r;

	/* generate in the daemon, use in the embedded vault */
	ts_rand(id, 16); ts_rand(pt, sizeof pt);
	pv_req_init(&r, PV_OP_GENERATE_KEY, PV_MECH_AES_KEY_GEN);
	r.new_len = 32; r.new_usage = PV_USE_ENCRYPT; memcpy(r.new_id, id, 16);
	r.out = blob; r.out_cap = sizeof blob;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(dv, &r), PV_OK);
	bl = r.out_len;
	CU_ASSERT_EQUAL(bl, PV_BLOB_OVERHEAD + 32);
	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_ECB);
	r.key = blob; r.key_len = bl; memcpy(r.key_id, id, 16);
	r.in = pt; r.in_len = 64; r.out = c1; r.out_cap = 64;
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_ECB);
	r.key = blob; r.key_len = bl; memcpy(r.key_id, id, 16);
	r.in = pt; r.in_len = 64; r.out = c2; r.out_cap = 64;
	CU_ASSERT_EQUAL(pv_vault_call(ev, &r), PV_OK);
	CU_ASSERT(memcmp(c1, c2, 64) == 0);
	/* wrong identity -> refused */
	id[0] ^= 1;
	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_ECB);
	r.key = blob; r.key_len = bl; memcpy(r.key_id, id, 16);
	r.in = pt; r.in_len = 16; r.out = c1; r.out_cap = 64;
	CU_ASSERT_NOT_EQUAL(pv_vault_call(dv, &r), PV_OK);

	/* RFC 3394 wrap of an extractable key vs OpenSSL */
	ts_rand(kek, 32); ts_rand(kw, 32);
	CU_ASSERT_EQUAL_FATAL(te_import(dv, PV_KEY_AES, PV_USE_WRAP | PV_USE_UNWRAP, kek, 32, &wk), PV_OK);
	CU_ASSERT_EQUAL_FATAL(te_import(dv, PV_KEY_AES, PV_USE_EXTRACT | PV_USE_ENCRYPT, kw, 32, &tk), PV_OK);
	pv_req_init(&r, PV_OP_WRAP_KEY, PV_MECH_AES_KEY_WRAP);
	te_use(&r, &wk);
	r.key2 = tk.blob; r.key2_len = tk.len; memcpy(r.key2_id, tk.id, 16);
	r.out = wrapped; r.out_cap = sizeof wrapped;
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
	CU_ASSERT_EQUAL(r.out_len, 40);
	{
		EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
		int l1 = 0, l2 = 0;
		EVP_CIPHER_CTX_set_flags(x, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
		CU_ASSERT(EVP_EncryptInit_ex(x, EVP_aes_256_wrap(), NULL, kek, NULL) == 1 &&
		          EVP_EncryptUpdate(x, ref, &l1, kw, 32) == 1 &&
		          EVP_EncryptFinal_ex(x, ref + l1, &l2) == 1);
		CU_ASSERT_EQUAL(l1 + l2, 40);
		EVP_CIPHER_CTX_free(x);
	}
	CU_ASSERT(memcmp(wrapped, ref, 40) == 0);
	/* unwrap into a new blob; it encrypts like kw */
	pv_req_init(&r, PV_OP_UNWRAP_KEY, PV_MECH_AES_KEY_WRAP);
	te_use(&r, &wk);
	r.in = wrapped; r.in_len = 40; r.new_type = PV_KEY_AES; r.new_usage = PV_USE_ENCRYPT;
	ts_rand(r.new_id, 16); memcpy(id, r.new_id, 16);
	r.out = blob2; r.out_cap = sizeof blob2;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(dv, &r), PV_OK);
	bl = r.out_len;
	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_ECB);
	r.key = blob2; r.key_len = bl; memcpy(r.key_id, id, 16);
	r.in = pt; r.in_len = 16; r.out = c1; r.out_cap = 64;
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
	CU_ASSERT_EQUAL(te_ossl_crypt(PV_MECH_AES_ECB, 1, kw, 32, NULL, pt, 16, ref), 16);
	CU_ASSERT(memcmp(c1, ref, 16) == 0);
}

static void t_random(void)
{
	uint8_t a[64], b[64], z[64];
	pv_req r;
	memset(z, 0, sizeof z);
	pv_req_init(&r, PV_OP_RANDOM, PV_MECH_RANDOM);
	r.out = a; r.out_cap = 64;
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
	CU_ASSERT_EQUAL(r.out_len, 64);
	pv_req_init(&r, PV_OP_RANDOM, PV_MECH_RANDOM);
	r.out = b; r.out_cap = 64;
	CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_OK);
	CU_ASSERT(memcmp(a, b, 64) != 0 && memcmp(a, z, 64) != 0);
	/* too large for one slot: refused at submit */
	{
		static uint8_t big[4u << 20];
		pv_req_init(&r, PV_OP_RANDOM, PV_MECH_RANDOM);
		r.out = big; r.out_cap = sizeof big;
		CU_ASSERT_EQUAL(pv_vault_call(dv, &r), PV_ERR_DATA_LEN);
	}
}

static te_key th_key;
static uint8_t th_k[32];
static int th_bad;

static void *th_body(void *arg)
{
	uint8_t iv[12], pt[200], ct[216], ref[216], tag[16];
	int i;
	(void)arg;
	for (i = 0; i < 100; i++) {
		pv_req r;
		size_t n = (size_t)(i * 7 % 200);
		ts_rand(iv, 12); ts_rand(pt, n);
		pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_GCM);
		te_use(&r, &th_key);
		r.iv = iv; r.iv_len = 12; r.in = n ? pt : NULL; r.in_len = n;
		r.out = ct; r.out_cap = sizeof ct;
		if (pv_vault_call(dv, &r) != PV_OK || r.out_len != n + 16 ||
		    ossl_gcm(th_k, 32, iv, NULL, 0, pt, n, ref, tag) != 0 ||
		    memcmp(ct, ref, n) != 0 || memcmp(ct + n, tag, 16) != 0)
			__atomic_add_fetch(&th_bad, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void t_threads(void)
{
	pthread_t th[8];
	int i;
	ts_rand(th_k, 32);
	CU_ASSERT_EQUAL_FATAL(te_import(dv, PV_KEY_AES, PV_USE_ENCRYPT, th_k, 32, &th_key), PV_OK);
	for (i = 0; i < 8; i++)
		pthread_create(&th[i], NULL, th_body, NULL);
	for (i = 0; i < 8; i++)
		pthread_join(th[i], NULL);
	CU_ASSERT_EQUAL(th_bad, 0);
}

static void t_status(void)
{
	pv_conf c;
	pv_daemon_status st;
	uint32_t i;
	int gcm = 0;
	td_conf(&D, &c);
	CU_ASSERT_EQUAL_FATAL(pv_vault_status(&c, &st), PV_OK);
	CU_ASSERT_STRING_EQUAL(st.backend, te_backend());
	CU_ASSERT_EQUAL(st.sealed, 0);
	CU_ASSERT_EQUAL(st.pid, (uint32_t)D.pid);
	CU_ASSERT(st.clients >= 1);
	CU_ASSERT(st.completed >= 800);
	CU_ASSERT(st.errors >= 3);     /* tag / MAC / identity failures above */
	for (i = 0; i < st.nmech; i++)
		if (st.mech[i].op == PV_OP_ENCRYPT && st.mech[i].mech == PV_MECH_AES_GCM)
			gcm = st.mech[i].ok >= 800;
	CU_ASSERT(gcm);
}

static void t_nodaemon(void)
{
	pv_conf c;
	pv_vault *v = NULL;
	pv_daemon_status st;
	td_conf(&D, &c);
	snprintf(c.socket, sizeof c.socket, "%s/none.sock", D.dir);
	CU_ASSERT_EQUAL(pv_vault_open(&c, &v), PV_ERR_REMOVED);
	CU_ASSERT_PTR_NULL(v);
	CU_ASSERT_EQUAL(pv_vault_status(&c, &st), PV_ERR_REMOVED);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_ops", suite_init, suite_clean);
	CU_add_test(s, "info + NOP", t_info);
	CU_add_test(s, "AES-256-GCM vs OpenSSL (8 lengths, tamper)", t_gcm);
	CU_add_test(s, "AES ECB/CBC/CBC_PAD/CTR vs OpenSSL, size query", t_modes);
	CU_add_test(s, "HMAC sign/verify, digests one-shot + multi-part", t_hmac_digest);
	CU_add_test(s, "generate/wrap/unwrap: blobs shared with embedded", t_keys);
	CU_add_test(s, "random, oversized request", t_random);
	CU_add_test(s, "8 threads x 100 GCM through one client", t_threads);
	CU_add_test(s, "status request", t_status);
	CU_add_test(s, "no daemon -> PV_ERR_REMOVED", t_nodaemon);
	return ts_run();
}
