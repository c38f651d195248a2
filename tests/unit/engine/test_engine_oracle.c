/*
 * test_engine_oracle.c - every mechanism through vault.h on the CPU
 * backend against OpenSSL, random keys/inputs, one-shot and multi-part
 * with random chunkings.
 */
#include "te_common.h"
#include "ts_ossl.h"

#include <openssl/core_names.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXD 32768

/* Largest UPDATE chunk of mp_run (random 1..mp_maxchunk). */
static uint32_t mp_maxchunk = 100;

/* Multi-part run: INIT, UPDATE over random chunks of in, FINAL (final_in
 * for GCM decrypt). Returns status; out/outlen accumulate. */
static int mp_run(pv_req *tmpl, const uint8_t *in, size_t len,
                  const uint8_t *final_in, size_t final_len,
                  uint8_t *out, size_t *outlen)
{
	uint8_t st[PV_STATE_MAX], st2[PV_STATE_MAX];
	size_t stlen, off = 0, o = 0;
	pv_req r;
	int rc;

	r = *tmpl;
	r.phase = PV_PHASE_INIT;
	r.in = NULL; r.in_len = 0;
	r.in2 = NULL; r.in2_len = 0;
	r.out = NULL; r.out_cap = 0;
	r.state_out = st; r.state_out_cap = sizeof st;
	if ((rc = pv_vault_call(te_v, &r)) != PV_OK)
		return rc;
	stlen = r.state_out_len;
	while (off < len) {
		size_t n = ts_rand_u32(3) == 0 ? ts_rand_u32(3) :
		           1 + ts_rand_u32((uint32_t)(len - off < mp_maxchunk ? len - off : mp_maxchunk));
		if (n > len - off)
			n = len - off;
		pv_req_init(&r, tmpl->op, tmpl->mech);
		r.phase = PV_PHASE_UPDATE;
		r.state = st; r.state_len = stlen;
		r.in = in + off; r.in_len = n;
		r.out = out + o; r.out_cap = MAXD + 64 - o;
		r.state_out = st2; r.state_out_cap = sizeof st2;
		if ((rc = pv_vault_call(te_v, &r)) != PV_OK)
			return rc;
		o += r.out_len;
		memcpy(st, st2, r.state_out_len);
		stlen = r.state_out_len;
		off += n;
	}
	pv_req_init(&r, tmpl->op, tmpl->mech);
	r.phase = PV_PHASE_FINAL;
	r.state = st; r.state_len = stlen;
	r.in = final_in; r.in_len = final_len;
	r.in2 = tmpl->in2; r.in2_len = tmpl->in2_len;
	r.out = out + o; r.out_cap = MAXD + 64 - o;
	rc = pv_vault_call(te_v, &r);
	o += r.out_len;
	*outlen = o;
	return rc;
}

static uint32_t ncases;

static void cipher_case(uint32_t mech, size_t klen, size_t len)
{
	static uint8_t pt[MAXD], ref[MAXD + 32], got[MAXD + 64], back[MAXD + 64];
	uint8_t k[32], iv[64], aad[64], tag[16];
	size_t ivlen = 16, aadlen = 0, reflen, gotlen;
	uint32_t tag_len = 0;
	int gcm = mech == PV_MECH_AES_GCM || mech == PV_MECH_SM4_GCM;
	int pad = mech == PV_MECH_AES_CBC_PAD || mech == PV_MECH_SM4_CBC_PAD;
	int ecb = mech == PV_MECH_AES_ECB || mech == PV_MECH_SM4_ECB;
	uint32_t type = (mech >> 8) == 1 ? PV_KEY_AES : PV_KEY_SM4;
	te_key key;
	pv_req r;
	int rc;

	ts_rand(k, klen); ts_rand(pt, len); ts_rand(iv, sizeof iv); ts_rand(aad, sizeof aad);
	CU_ASSERT_EQUAL_FATAL(te_import(te_v, type, PV_USE_ENCRYPT | PV_USE_DECRYPT, k, klen, &key), PV_OK);
	if (ecb)
		ivlen = 0;
	if (gcm) {
		ivlen = ts_rand_u32(4) == 0 ? 1 + ts_rand_u32(64) : 12;
		aadlen = ts_rand_u32(65);
		tag_len = ts_rand_u32(2) ? 16 : 12 + ts_rand_u32(5);
		CU_ASSERT_FATAL(ts_gcm_ecb(mech == PV_MECH_SM4_GCM ? EVP_sm4_ecb() :
		                           klen == 16 ? EVP_aes_128_ecb() : klen == 24 ? EVP_aes_192_ecb() :
		                           EVP_aes_256_ecb(), k, iv, ivlen, aad, aadlen, pt, len, 16, ref));
		memcpy(tag, ref + len, 16);
		if (mech == PV_MECH_AES_GCM) {   /* the reference itself vs OpenSSL */
			EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
			uint8_t o2[MAXD + 16], t2[16];
			int l;
			EVP_EncryptInit_ex(c, te_evp_cipher(mech, klen), NULL, NULL, NULL);
			EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)ivlen, NULL);
			EVP_EncryptInit_ex(c, NULL, NULL, k, iv);
			EVP_EncryptUpdate(c, NULL, &l, aad, (int)aadlen);
			EVP_EncryptUpdate(c, o2, &l, pt, (int)len);
			EVP_EncryptFinal_ex(c, o2 + l, &l);
			EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, t2);
			EVP_CIPHER_CTX_free(c);
			CU_ASSERT(memcmp(o2, ref, len) == 0 && memcmp(t2, tag, 16) == 0);
		}
		memcpy(ref + len, tag, tag_len ? tag_len : 16);
		reflen = len + (tag_len ? tag_len : 16);
	} else {
		int n = te_ossl_crypt(mech, 1, k, klen, iv, pt, len, ref);
		CU_ASSERT_FATAL(n >= 0);
		reflen = (size_t)n;
	}
	/* one-shot encrypt / decrypt */
	pv_req_init(&r, PV_OP_ENCRYPT, mech);
	te_use(&r, &key);
	r.iv = ivlen ? iv : NULL; r.iv_len = ivlen;
	r.aad = aadlen ? aad : NULL; r.aad_len = aadlen;
	r.tag_len = tag_len;
	r.in = pt; r.in_len = len;
	r.out = got; r.out_cap = sizeof got;
	rc = pv_vault_call(te_v, &r);
	CU_ASSERT_EQUAL(rc, PV_OK);
	CU_ASSERT(r.out_len == reflen && memcmp(got, ref, reflen) == 0);
	if (rc != PV_OK || r.out_len != reflen || memcmp(got, ref, reflen) != 0)
		printf("\n  mech %#x klen %zu len %zu: one-shot encrypt mismatch (rc %d)\n", mech, klen, len, rc);
	r.op = PV_OP_DECRYPT;
	r.in = ref; r.in_len = reflen;
	r.out = back; r.out_cap = sizeof back;
	rc = pv_vault_call(te_v, &r);
	CU_ASSERT_EQUAL(rc, PV_OK);
	CU_ASSERT(r.out_len == len && memcmp(back, pt, len) == 0);
	/* multi-part encrypt / decrypt */
	r.op = PV_OP_ENCRYPT;
	rc = mp_run(&r, pt, len, NULL, 0, got, &gotlen);
	CU_ASSERT_EQUAL(rc, PV_OK);
	CU_ASSERT(gotlen == reflen && memcmp(got, ref, reflen) == 0);
	if (rc != PV_OK || gotlen != reflen || memcmp(got, ref, reflen) != 0)
		printf("\n  mech %#x klen %zu len %zu: multi-part encrypt mismatch (rc %d)\n", mech, klen, len, rc);
	r.op = PV_OP_DECRYPT;
	if (gcm)
		rc = mp_run(&r, ref, reflen, ref, reflen, back, &gotlen);
	else
		rc = mp_run(&r, ref, reflen, NULL, 0, back, &gotlen);
	CU_ASSERT_EQUAL(rc, PV_OK);
	CU_ASSERT(gotlen == len && memcmp(back, pt, len) == 0);
	if (rc != PV_OK || gotlen != len || memcmp(back, pt, len) != 0)
		printf("\n  mech %#x klen %zu len %zu: multi-part decrypt mismatch (rc %d)\n", mech, klen, len, rc);
	(void)pad;
	ncases++;
}

static void test_ciphers(void)
{
	static const uint32_t mechs[] = {
		PV_MECH_AES_ECB, PV_MECH_AES_CBC, PV_MECH_AES_CBC_PAD, PV_MECH_AES_CTR,
		PV_MECH_AES_CFB128, PV_MECH_AES_GCM, PV_MECH_SM4_ECB, PV_MECH_SM4_CBC,
		PV_MECH_SM4_CBC_PAD, PV_MECH_SM4_CTR, PV_MECH_SM4_CFB128, PV_MECH_SM4_GCM };
	size_t m, it;

	ncases = 0;
	for (m = 0; m < sizeof mechs / sizeof mechs[0]; m++) {
		uint32_t mech = mechs[m];
		int blk = mech == PV_MECH_AES_ECB || mech == PV_MECH_AES_CBC ||
		          mech == PV_MECH_SM4_ECB || mech == PV_MECH_SM4_CBC;
		for (it = 0; it < 24; it++) {
			size_t klen = (mech >> 8) == 2 ? 16 : 16 + 8 * (it % 3);
			size_t len = it < 3 ? it * 16 : ts_rand_u32(600);
			if (blk)
				len &= ~(size_t)15;
			cipher_case(mech, klen, len);
		}
	}
	printf("\n  cipher cases: %u\n", ncases);
}

/* Large messages: on the CUDA backend GCM, CTR and ECB requests of 4 KiB
 * of input or more run on a whole warp (vault_kernel.cu pvc_lanes:
 * cooperative CTR/ECB two blocks per lane per round, GHASH split over the
 * lanes; warp 1 joins from 128 blocks, pvc_ctr_warp.cuh).  Block counts
 * around multiples of 32, 64 and 128 and partial tails;
 * multi-part with UPDATEs up to 9,000 bytes (some of them on the warp);
 * GCM decrypt's FINAL takes the whole ciphertext. */
static void test_ciphers_large(void)
{
	static const uint32_t mechs[] = {
		PV_MECH_AES_GCM, PV_MECH_AES_CTR, PV_MECH_AES_ECB,
		PV_MECH_SM4_GCM, PV_MECH_SM4_CTR, PV_MECH_SM4_ECB };
	static const size_t lens[] = {
		4096, 4097, 4096 + 16 * 31 + 9, 4096 + 16 * 32 + 16, 5000,
		4096 + 16 * 127 + 3, 16 * 385, 8192 + 16 * 63 + 15, 8192 + 16 * 65, 16383, 28000 };
	size_t m, i;

	ncases = 0;
	mp_maxchunk = 9000;
	for (m = 0; m < sizeof mechs / sizeof mechs[0]; m++)
		for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
			uint32_t mech = mechs[m];
			size_t klen = (mech >> 8) == 2 ? 16 : 16 + 8 * (i % 3);
			size_t len = lens[i];
			if (mech == PV_MECH_AES_ECB || mech == PV_MECH_SM4_ECB)
				len &= ~(size_t)15;
			cipher_case(mech, klen, len);
		}
	mp_maxchunk = 100;
	printf("\n  large cipher cases: %u\n", ncases);
}

/* CTR with a short counter: the wrap stays inside the low bits. */
static void test_ctr_bits(void)
{
	uint8_t k[16], iv[16], pt[160], ref[160], got[160], ctr[16], ks[16];
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	te_key key;
	pv_req r;
	int i, j, ol;

	ts_rand(k, 16); ts_rand(pt, sizeof pt); ts_rand(iv, 16);
	iv[12] = iv[13] = iv[14] = 0xff; iv[15] = 0xfd;   /* wraps after 3 blocks */
	EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, k, NULL);
	EVP_CIPHER_CTX_set_padding(c, 0);
	memcpy(ctr, iv, 16);
	for (i = 0; i < 10; i++) {
		uint32_t v;
		EVP_EncryptUpdate(c, ks, &ol, ctr, 16);
		for (j = 0; j < 16; j++)
			ref[16 * i + j] = pt[16 * i + j] ^ ks[j];
		v = ((uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16 | (uint32_t)ctr[14] << 8 | ctr[15]) + 1;
		ctr[12] = (uint8_t)(v >> 24); ctr[13] = (uint8_t)(v >> 16); ctr[14] = (uint8_t)(v >> 8); ctr[15] = (uint8_t)v;
	}
	EVP_CIPHER_CTX_free(c);
	CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_AES, PV_USE_ENCRYPT, k, 16, &key), PV_OK);
	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_CTR);
	te_use(&r, &key);
	r.iv = iv; r.iv_len = 16; r.ctr_bits = 32;
	r.in = pt; r.in_len = sizeof pt; r.out = got; r.out_cap = sizeof got;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
	CU_ASSERT(memcmp(got, ref, sizeof ref) == 0);
}

static void test_macs(void)
{
	static const uint32_t hm[] = {
		PV_MECH_HMAC_SHA1, PV_MECH_HMAC_SHA224, PV_MECH_HMAC_SHA256, PV_MECH_HMAC_SHA384,
		PV_MECH_HMAC_SHA512, PV_MECH_HMAC_SHA3_224, PV_MECH_HMAC_SHA3_256,
		PV_MECH_HMAC_SHA3_384, PV_MECH_HMAC_SHA3_512, PV_MECH_HMAC_SM3,
		PV_MECH_AES_CMAC, PV_MECH_SM4_CMAC };
	static uint8_t msg[MAXD];
	uint8_t k[200], ref[64], got[64];
	size_t m, it, reflen, gotlen;
	uint32_t n = 0;

	for (m = 0; m < sizeof hm / sizeof hm[0]; m++) {
		for (it = 0; it < 12; it++) {
			uint32_t mech = hm[m];
			int cmac = mech == PV_MECH_AES_CMAC || mech == PV_MECH_SM4_CMAC;
			size_t klen = cmac ? (mech == PV_MECH_SM4_CMAC ? 16 : 16 + 8 * (it % 3)) : 1 + ts_rand_u32(199);
			size_t len = ts_rand_u32(700);
			uint32_t tl;
			te_key key;
			pv_req r;
			int rc;

			ts_rand(k, klen); ts_rand(msg, len);
			if (cmac) {
				EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
				EVP_MAC_CTX *mc = EVP_MAC_CTX_new(mac);
				OSSL_PARAM p[2];
				const char *cn = mech == PV_MECH_SM4_CMAC ? "SM4-CBC" :
				        klen == 16 ? "AES-128-CBC" : klen == 24 ? "AES-192-CBC" : "AES-256-CBC";
				p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cn, 0);
				p[1] = OSSL_PARAM_construct_end();
				CU_ASSERT_FATAL(EVP_MAC_init(mc, k, klen, p) == 1);
				EVP_MAC_update(mc, msg, len);
				EVP_MAC_final(mc, ref, &reflen, sizeof ref);
				EVP_MAC_CTX_free(mc);
				EVP_MAC_free(mac);
			} else {
				unsigned int l;
				HMAC(te_evp_md(mech), k, (int)klen, msg, len, ref, &l);
				reflen = l;
			}
			CU_ASSERT_EQUAL_FATAL(te_import(te_v, cmac ? ((mech >> 8) == 1 ? PV_KEY_AES : PV_KEY_SM4) : PV_KEY_GENERIC,
			                                PV_USE_SIGN | PV_USE_VERIFY, k, klen, &key), PV_OK);
			tl = it % 4 == 3 ? (uint32_t)(reflen / 2) : 0;
			pv_req_init(&r, PV_OP_SIGN, mech);
			te_use(&r, &key);
			r.tag_len = tl;
			r.in = msg; r.in_len = len; r.out = got; r.out_cap = sizeof got;
			rc = pv_vault_call(te_v, &r);
			CU_ASSERT_EQUAL(rc, PV_OK);
			CU_ASSERT(r.out_len == (tl ? tl : reflen) && memcmp(got, ref, r.out_len) == 0);
			/* verify one-shot: right, and one flipped bit */
			r.op = PV_OP_VERIFY; r.in2 = ref; r.in2_len = tl ? tl : reflen;
			r.out = NULL; r.out_cap = 0;
			CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
			ref[ts_rand_u32((uint32_t)r.in2_len)] ^= (uint8_t)(1u << ts_rand_u32(8));
			CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_SIG_INVALID);
			r.in2_len = r.in2_len - 1;
			CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_SIG_LEN);
			/* multi-part sign */
			r.op = PV_OP_SIGN; r.in2 = NULL; r.in2_len = 0;
			rc = mp_run(&r, msg, len, NULL, 0, got, &gotlen);
			CU_ASSERT_EQUAL(rc, PV_OK);
			CU_ASSERT(gotlen == (tl ? tl : reflen));
			/* multi-part verify against the one-shot MAC (ref was flipped) */
			{
				uint8_t mac1[64];
				memcpy(mac1, got, gotlen);
				r.op = PV_OP_VERIFY; r.in2 = mac1; r.in2_len = gotlen;
				CU_ASSERT_EQUAL(mp_run(&r, msg, len, NULL, 0, got, &gotlen), PV_OK);
				mac1[0] ^= 1;
				CU_ASSERT_EQUAL(mp_run(&r, msg, len, NULL, 0, got, &gotlen), PV_ERR_SIG_INVALID);
			}
			n++;
		}
	}
	printf("\n  mac cases: %u\n", n);
}

static void test_digests(void)
{
	static uint8_t msg[MAXD];
	uint8_t ref[64], got[64];
	uint32_t mech, n = 0;

	for (mech = PV_MECH_SHA1; mech <= PV_MECH_SM3; mech++) {
		int it;
		for (it = 0; it < 10; it++) {
			size_t len = it == 0 ? 0 : ts_rand_u32(1500), gotlen;
			unsigned int l;
			pv_req r;
			ts_rand(msg, len);
			EVP_Digest(msg, len, ref, &l, te_evp_md(mech), NULL);
			pv_req_init(&r, PV_OP_DIGEST, mech);
			r.in = msg; r.in_len = len; r.out = got; r.out_cap = sizeof got;
			CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
			CU_ASSERT(r.out_len == l && memcmp(got, ref, l) == 0);
			CU_ASSERT_EQUAL(mp_run(&r, msg, len, NULL, 0, got, &gotlen), PV_OK);
			CU_ASSERT(gotlen == l && memcmp(got, ref, l) == 0);
			n++;
		}
	}
	printf("\n  digest cases: %u\n", n);
}

static void test_hkdf(void)
{
	uint8_t ikm[80], salt[64], info[64], ref[300], got[300];
	uint32_t n = 0;
	int it;

	for (it = 0; it < 40; it++) {
		uint32_t prf = PV_MECH_SHA1 + (uint32_t)(it % 10);
		size_t il = 1 + ts_rand_u32(80), sl = ts_rand_u32(64), nl = ts_rand_u32(64);
		size_t ol = 1 + ts_rand_u32(300);
		EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
		EVP_KDF_CTX *kc = EVP_KDF_CTX_new(kdf);
		OSSL_PARAM p[5], *pp = p;
		te_key key;
		pv_req r;

		if (ol > 255 * (size_t)EVP_MD_get_size(te_evp_md(prf)))
			ol = 255 * (size_t)EVP_MD_get_size(te_evp_md(prf));
		ts_rand(ikm, il); ts_rand(salt, sl); ts_rand(info, nl);
		*pp++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
		              (char *)EVP_MD_get0_name(te_evp_md(prf)), 0);
		*pp++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, ikm, il);
		if (sl)
			*pp++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, salt, sl);
		*pp++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info, nl);
		*pp = OSSL_PARAM_construct_end();
		CU_ASSERT_FATAL(EVP_KDF_derive(kc, ref, ol, p) == 1);
		EVP_KDF_CTX_free(kc);
		EVP_KDF_free(kdf);

		CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_GENERIC, PV_USE_DERIVE | PV_USE_EXTRACT, ikm, il, &key), PV_OK);
		pv_req_init(&r, PV_OP_DERIVE_KEY, PV_MECH_HKDF);
		te_use(&r, &key);
		r.prf = prf; r.flags = PV_F_DERIVE_DATA;
		r.salt = sl ? salt : NULL; r.salt_len = sl;
		r.aad = nl ? info : NULL; r.aad_len = nl;
		r.new_len = (uint32_t)ol;
		r.out = got; r.out_cap = sizeof got;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
		CU_ASSERT(r.out_len == ol && memcmp(got, ref, ol) == 0);
		/* into a blob, then HMAC-SHA256 with it vs OpenSSL with ref */
		if (ol <= PV_SECRET_MAX) {
			uint8_t blob[PV_BLOB_MAX], mac[32], mref[32];
			unsigned int ml;
			te_key dk;
			r.flags = 0; r.new_type = PV_KEY_GENERIC; r.new_usage = PV_USE_SIGN;
			ts_rand(r.new_id, 16);
			r.out = blob; r.out_cap = sizeof blob;
			CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
			memcpy(dk.blob, blob, r.out_len); dk.len = r.out_len; memcpy(dk.id, r.new_id, 16);
			pv_req_init(&r, PV_OP_SIGN, PV_MECH_HMAC_SHA256);
			te_use(&r, &dk);
			r.in = info; r.in_len = nl; r.out = mac; r.out_cap = 32;
			CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
			HMAC(EVP_sha256(), ref, (int)ol, info, nl, mref, &ml);
			CU_ASSERT(memcmp(mac, mref, 32) == 0);
		}
		n++;
	}
	printf("\n  hkdf cases: %u\n", n);
}

/* HKDF halves: extract only (PRK = HMAC(salt, ikm)) and expand only (the
 * base key is the PRK), against OpenSSL's HKDF modes. */
static void test_hkdf_modes(void)
{
	uint8_t ikm[64], salt[32], info[32], ref[200], got[200];
	int it;

	for (it = 0; it < 10; it++) {
		uint32_t prf = PV_MECH_SHA1 + (uint32_t)it;
		const EVP_MD *md = te_evp_md(prf);
		size_t hl = (size_t)EVP_MD_get_size(md), ol = 1 + ts_rand_u32(200);
		int mode;
		te_key key;
		pv_req r;

		ts_rand(ikm, sizeof ikm); ts_rand(salt, sizeof salt); ts_rand(info, sizeof info);
		CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_GENERIC, PV_USE_DERIVE | PV_USE_EXTRACT,
		                                ikm, hl, &key), PV_OK);
		for (mode = 0; mode < 2; mode++) {
			EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
			EVP_KDF_CTX *kc = EVP_KDF_CTX_new(kdf);
			OSSL_PARAM p[6], *pp = p;
			int m = mode == 0 ? EVP_KDF_HKDF_MODE_EXTRACT_ONLY : EVP_KDF_HKDF_MODE_EXPAND_ONLY;
			size_t want = mode == 0 ? hl : ol;

			*pp++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
			              (char *)EVP_MD_get0_name(md), 0);
			*pp++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &m);
			*pp++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, ikm, hl);
			*pp++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, salt, sizeof salt);
			*pp++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info, sizeof info);
			*pp = OSSL_PARAM_construct_end();
			CU_ASSERT_FATAL(EVP_KDF_derive(kc, ref, want, p) == 1);
			EVP_KDF_CTX_free(kc);
			EVP_KDF_free(kdf);

			pv_req_init(&r, PV_OP_DERIVE_KEY, PV_MECH_HKDF);
			te_use(&r, &key);
			r.prf = prf;
			r.flags = PV_F_DERIVE_DATA | (mode == 0 ? PV_F_HKDF_NO_EXPAND : PV_F_HKDF_NO_EXTRACT);
			r.salt = salt; r.salt_len = sizeof salt; r.aad = info; r.aad_len = sizeof info;
			r.new_len = mode == 0 ? 0 : (uint32_t)ol;
			r.out = got; r.out_cap = sizeof got;
			CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
			CU_ASSERT(r.out_len == want && memcmp(got, ref, want) == 0);
		}
		/* without EXTRACT usage the derived bytes are not released */
		{
			te_key k2;
			CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_GENERIC, PV_USE_DERIVE, ikm, hl, &k2), PV_OK);
			pv_req_init(&r, PV_OP_DERIVE_KEY, PV_MECH_HKDF);
			te_use(&r, &k2);
			r.prf = prf; r.flags = PV_F_DERIVE_DATA; r.new_len = 16;
			r.out = got; r.out_cap = sizeof got;
			CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_PERM);
		}
	}
}

static void test_wrap(void)
{
	uint8_t kek[32], tk[64], ref[80], got[80], blob[PV_BLOB_MAX];
	uint32_t n = 0;
	int it;

	for (it = 0; it < 40; it++) {
		int kwp = it & 1;
		size_t kl = 16 + 8 * (size_t)(it % 3);
		size_t tl = kwp ? 1 + ts_rand_u32(64) : 16 + 8 * ts_rand_u32(7);
		EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
		const EVP_CIPHER *ci = kwp ? (kl == 16 ? EVP_aes_128_wrap_pad() : kl == 24 ? EVP_aes_192_wrap_pad() : EVP_aes_256_wrap_pad())
		                           : (kl == 16 ? EVP_aes_128_wrap() : kl == 24 ? EVP_aes_192_wrap() : EVP_aes_256_wrap());
		int l1 = 0, l2 = 0;
		te_key wk, target, un;
		pv_req r;

		ts_rand(kek, kl); ts_rand(tk, tl);
		EVP_CIPHER_CTX_set_flags(c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
		EVP_EncryptInit_ex(c, ci, NULL, kek, NULL);
		EVP_EncryptUpdate(c, ref, &l1, tk, (int)tl);
		EVP_EncryptFinal_ex(c, ref + l1, &l2);
		EVP_CIPHER_CTX_free(c);
		CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_AES, PV_USE_WRAP | PV_USE_UNWRAP, kek, kl, &wk), PV_OK);
		CU_ASSERT_EQUAL_FATAL(te_import(te_v, PV_KEY_GENERIC, PV_USE_EXTRACT | PV_USE_SIGN, tk, tl, &target), PV_OK);
		pv_req_init(&r, PV_OP_WRAP_KEY, kwp ? PV_MECH_AES_KEY_WRAP_KWP : PV_MECH_AES_KEY_WRAP);
		te_use(&r, &wk);
		r.key2 = target.blob; r.key2_len = target.len; memcpy(r.key2_id, target.id, 16);
		r.out = got; r.out_cap = sizeof got;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
		CU_ASSERT(r.out_len == (size_t)(l1 + l2) && memcmp(got, ref, r.out_len) == 0);
		/* unwrap into a blob, then wrap it again: same bytes */
		pv_req_init(&r, PV_OP_UNWRAP_KEY, kwp ? PV_MECH_AES_KEY_WRAP_KWP : PV_MECH_AES_KEY_WRAP);
		te_use(&r, &wk);
		r.in = ref; r.in_len = (size_t)(l1 + l2);
		r.new_type = PV_KEY_GENERIC; r.new_usage = PV_USE_EXTRACT;
		ts_rand(r.new_id, 16);
		r.out = blob; r.out_cap = sizeof blob;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
		CU_ASSERT_EQUAL(r.out_len, PV_BLOB_OVERHEAD + tl);
		memcpy(un.blob, blob, r.out_len); un.len = r.out_len; memcpy(un.id, r.new_id, 16);
		pv_req_init(&r, PV_OP_WRAP_KEY, kwp ? PV_MECH_AES_KEY_WRAP_KWP : PV_MECH_AES_KEY_WRAP);
		te_use(&r, &wk);
		r.key2 = un.blob; r.key2_len = un.len; memcpy(r.key2_id, un.id, 16);
		r.out = got; r.out_cap = sizeof got;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
		CU_ASSERT(memcmp(got, ref, (size_t)(l1 + l2)) == 0);
		n++;
	}
	printf("\n  wrap cases: %u\n", n);
}

/* Generated keys work, differ, and RANDOM gives distinct bytes. */
static void test_keygen_random(void)
{
	uint8_t b1[PV_BLOB_MAX], b2[PV_BLOB_MAX], r1[1000], r2[1000], ct1[32], ct2[32], pt[32] = { 0 };
	static const uint32_t gm[] = { PV_MECH_AES_KEY_GEN, PV_MECH_SM4_KEY_GEN, PV_MECH_GENERIC_KEY_GEN };
	static const uint32_t gl[] = { 32, 16, 48 };
	size_t i;
	pv_req r;

	for (i = 0; i < 3; i++) {
		te_key k1, k2;
		pv_req_init(&r, PV_OP_GENERATE_KEY, gm[i]);
		r.new_len = gl[i]; r.new_usage = PV_USE_ALL;
		ts_rand(r.new_id, 16);
		r.out = b1; r.out_cap = sizeof b1;
		CU_ASSERT_EQUAL_FATAL(pv_vault_call(te_v, &r), PV_OK);
		CU_ASSERT_EQUAL(r.out_len, PV_BLOB_OVERHEAD + gl[i]);
		memcpy(k1.blob, b1, r.out_len); k1.len = r.out_len; memcpy(k1.id, r.new_id, 16);
		r.out = b2;
		CU_ASSERT_EQUAL_FATAL(pv_vault_call(te_v, &r), PV_OK);
		memcpy(k2.blob, b2, r.out_len); k2.len = r.out_len; memcpy(k2.id, r.new_id, 16);
		/* use both: different keys give different outputs */
		pv_req_init(&r, i == 2 ? PV_OP_SIGN : PV_OP_ENCRYPT,
		            i == 0 ? PV_MECH_AES_ECB : i == 1 ? PV_MECH_SM4_ECB : PV_MECH_HMAC_SHA256);
		r.in = pt; r.in_len = 32; r.out = ct1; r.out_cap = 32;
		te_use(&r, &k1);
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
		te_use(&r, &k2);
		r.out = ct2;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
		CU_ASSERT(memcmp(ct1, ct2, 32) != 0);
	}
	pv_req_init(&r, PV_OP_GENERATE_KEY, PV_MECH_AES_KEY_GEN);
	r.new_len = 20; r.out = b1; r.out_cap = sizeof b1;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_KEY_SIZE);
	pv_req_init(&r, PV_OP_RANDOM, PV_MECH_RANDOM);
	r.out = r1; r.out_cap = sizeof r1;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
	CU_ASSERT_EQUAL(r.out_len, sizeof r1);
	r.out = r2;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
	CU_ASSERT(memcmp(r1, r2, sizeof r1) != 0);
	pv_req_init(&r, PV_OP_SEED, PV_MECH_NONE);
	r.in = r1; r.in_len = 5;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
	r.in_len = 48;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
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
	s = CU_add_suite("engine_oracle", NULL, NULL);
	CU_add_test(s, "ciphers one-shot + multi-part vs OpenSSL", test_ciphers);
	CU_add_test(s, "ciphers 4..28 KB (the GPU's warp path)", test_ciphers_large);
	CU_add_test(s, "CTR counter width", test_ctr_bits);
	CU_add_test(s, "HMAC/CMAC sign+verify vs OpenSSL", test_macs);
	CU_add_test(s, "digests vs OpenSSL", test_digests);
	CU_add_test(s, "HKDF vs OpenSSL", test_hkdf);
	CU_add_test(s, "HKDF extract-only / expand-only vs OpenSSL", test_hkdf_modes);
	CU_add_test(s, "AES-KW/KWP wrap+unwrap vs OpenSSL", test_wrap);
	CU_add_test(s, "key generation and random", test_keygen_random);
	{
		int rc = ts_run();
		te_close();
		return rc;
	}
}
