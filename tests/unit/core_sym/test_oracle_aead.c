/*
 * test_oracle_aead.c - GCM, CMAC and key wrap of gpu/core/sym against
 * OpenSSL: EVP aes-*-gcm (random IV lengths 1..80, AAD, data up to 4 KiB,
 * random chunkings, in place), EVP_MAC CMAC (AES and SM4), id-aes*-wrap and
 * -wrap-pad.
 */
#include "tsym.h"
#include "tsupport.h"
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#define ITERS  1000
#define MAXLEN 4096

static const char *gcm_names[] = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" };
static const size_t klens[] = { 16, 24, 32 };

static int ossl_gcm(const char *name, int enc, const uint8_t *key, const uint8_t *iv, size_t ivlen,
                    const uint8_t *aad, size_t al, const uint8_t *in, size_t len, uint8_t *out,
                    uint8_t tag[16])
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l = 0, ok;

	ok = c && x && EVP_CipherInit_ex2(x, c, NULL, NULL, enc, NULL) == 1 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IVLEN, (int)ivlen, NULL) == 1 &&
	     EVP_CipherInit_ex2(x, NULL, key, iv, enc, NULL) == 1 &&
	     (al == 0 || EVP_CipherUpdate(x, NULL, &l, aad, (int)al) == 1) &&
	     (len == 0 || EVP_CipherUpdate(x, out, &l, in, (int)len) == 1);
	if (ok && !enc)
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_TAG, 16, tag) == 1;
	ok = ok && EVP_CipherFinal_ex(x, out + (len ? l : 0), &l) == 1;
	if (ok && enc)
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(c);
	return ok ? 0 : -1;
}

/* feed data through f in random chunks */
typedef int (*gcm_fn)(kc_gcm *, const uint8_t *, uint8_t *, size_t);
static int gcm_chunked(kc_gcm *g, gcm_fn f, const uint8_t *in, uint8_t *out, size_t len)
{
	size_t cuts[300], nc = tsym_chunks(len, cuts, 300), k, off = 0;
	for (k = 0; k < nc; k++) {
		if (f(g, in + off, out + off, cuts[k]) != PV_OK)
			return -1;
		off += cuts[k];
	}
	return 0;
}

/* Flip one random bit of the ciphertext, the AAD or the tag's first tl bytes. */
static void flip_one(uint8_t *ct, size_t len, uint8_t *aad, size_t al, uint8_t *tag, size_t tl)
{
	size_t k = ts_rand_u32((uint32_t)(len + al + tl));
	uint8_t bit = (uint8_t)(1u << ts_rand_u32(8));

	if (k < len)
		ct[k] ^= bit;
	else if (k < len + al)
		aad[k - len] ^= bit;
	else
		tag[k - len - al] ^= bit;
}

static void test_gcm(void)
{
	uint8_t *pt = malloc(MAXLEN), *ct = malloc(MAXLEN), *buf = malloc(MAXLEN);
	int ki, it, bad = 0, n = 0;

	CU_ASSERT_FATAL(pt && ct && buf);
	for (ki = 0; ki < 3; ki++) {
		for (it = 0; it < ITERS; it++) {
			uint8_t key[32], iv[80], aad[300], tag[16], t2[16], h[16];
			size_t ivlen = ts_rand_u32(2) ? 12 : 1 + ts_rand_u32(80);
			size_t al = ts_rand_u32(4) ? ts_rand_u32(300) : 0, len = tsym_len(MAXLEN), tl;
			kc_bc bc;
			kc_gcm g;
			int ok = 1;

			ts_rand(key, klens[ki]);
			ts_rand(iv, ivlen);
			ts_rand(aad, al);
			ts_rand(pt, len);
			CU_ASSERT_FATAL(ossl_gcm(gcm_names[ki], 1, key, iv, ivlen, aad, al, pt, len, ct, tag) == 0);
			CU_ASSERT_FATAL(kc_bc_init(&bc, KC_BC_AES, key, klens[ki]) == PV_OK);
			/* encrypt: AAD in two parts, data chunked, in place */
			memcpy(buf, pt, len);
			ok &= kc_gcm_init(&g, &bc, iv, ivlen) == PV_OK;
			ok &= kc_gcm_aad(&g, aad, al / 3) == PV_OK && kc_gcm_aad(&g, aad + al / 3, al - al / 3) == PV_OK;
			ok &= gcm_chunked(&g, kc_gcm_encrypt, buf, buf, len) == 0;
			kc_gcm_tag(&g, t2);
			ok &= memcmp(buf, ct, len) == 0 && memcmp(t2, tag, 16) == 0;
			/* decrypt out of place, truncated tag, the hash key given */
			tl = 4 + ts_rand_u32(13);
			kc_gcm_hkey(&bc, h);
			ok &= kc_gcm_init_h(&g, &bc, h, iv, ivlen) == PV_OK && kc_gcm_aad(&g, aad, al) == PV_OK;
			ok &= gcm_chunked(&g, kc_gcm_decrypt, ct, buf, len) == 0;
			ok &= kc_gcm_check_tag(&g, tag, tl) == PV_OK && memcmp(buf, pt, len) == 0;
			/* one-shot open (tag first, then the plaintext), in place */
			memcpy(buf, ct, len);
			ok &= kc_gcm_init_h(&g, &bc, h, iv, ivlen) == PV_OK && kc_gcm_aad(&g, aad, al) == PV_OK;
			ok &= kc_gcm_open(&g, buf, len, tag, tl, buf) == PV_OK && memcmp(buf, pt, len) == 0;
			/* a flipped bit anywhere (ct, aad, tag) must be rejected */
			flip_one(ct, len, aad, al, tag, tl);
			ok &= kc_gcm_init(&g, &bc, iv, ivlen) == PV_OK;
			ok &= kc_gcm_aad(&g, aad, al) == PV_OK && kc_gcm_decrypt(&g, ct, buf, len) == PV_OK;
			ok &= kc_gcm_check_tag(&g, tag, tl) == PV_ERR_ENC_INVALID;
			kc_gcm_clear(&g);
			kc_bc_clear(&bc);
			if (!ok && ++bad < 4)
				fprintf(stderr, "gcm %s iv %zu aad %zu len %zu mismatch\n", gcm_names[ki], ivlen, al, len);
			n++;
		}
	}
	printf("\n    aes-gcm: %d random cases vs OpenSSL (IV 1..80 bytes, tags 4..16, tamper), %d mismatches ", n, bad);
	CU_ASSERT_EQUAL(bad, 0);
	free(pt); free(ct); free(buf);
}

/* kc_gcm_open_pw (GHASH passes over the powers of H) against OpenSSL's
 * encryptions: AAD and ciphertext lengths on both sides of the one-pass
 * and the short-ciphertext limits (32 blocks) and the key blobs' shapes
 * (an EC key, RSA-2048's payload, the largest RSA payload); the whole
 * plaintext and a prefix of it (plen), in the work buffer's bytes [16,
 * 16 + plen) and nothing beyond KC_GCM_PW_W(plen); a flipped bit anywhere
 * refused with the work buffer zero. */
#define PW_MAX (16 * 160)
static void test_gcm_open_pw(void)
{
	static const size_t shape[][2] = {
		{ 32, 97 }, { 32, 1160 }, { 32, 2312 }, { 0, 16 * 31 }, { 0, 16 * 31 + 1 },
		{ 0, 16 * 32 }, { 16, 16 * 30 }, { 16, 16 * 30 + 1 }, { 16 * 31, 0 }, { 16 * 32, 0 },
		{ 16 * 33 + 5, 16 * 64 + 3 }, { 0, 0 },
	};
	const size_t nshape = sizeof shape / sizeof shape[0];
	int ki, it, bad = 0, n = 0;

	for (ki = 0; ki < 3; ki++) {
		for (it = 0; it < ITERS / 2; it++) {
			/* C with 16 readable bytes on each side (kc_gcm_open_pw), random */
			static uint8_t aad[PW_MAX], pt[PW_MAX], cbuf[16 + PW_MAX + 16], buf[KC_GCM_PW_W(PW_MAX) + 1];
			uint8_t *const ct = cbuf + 16;
			uint8_t key[32], iv[12], tag[16], h[16], pow[KC_GHASH_POW_N][16];
			size_t al = ts_rand_u32(16 * 40 + 1), len = ts_rand_u32(16 * 100 + 1);
			kc_bc bc;
			int ok = 1;

			if ((size_t)it < nshape) {
				al = shape[it][0];
				len = shape[it][1];
			} else if (it & 1) {                 /* half of them in one pass */
				al = ts_rand_u32(16 * 30 + 1);
				len = ts_rand_u32((uint32_t)(16 * (31 - (al + 15) / 16) + 1));
			}
			ts_rand(key, klens[ki]);
			ts_rand(iv, 12);
			ts_rand(aad, al);
			ts_rand(pt, len);
			ts_rand(cbuf, sizeof cbuf);
			CU_ASSERT_FATAL(ossl_gcm(gcm_names[ki], 1, key, iv, 12, aad, al, pt, len, ct, tag) == 0);
			CU_ASSERT_FATAL(kc_bc_init(&bc, KC_BC_AES, key, klens[ki]) == PV_OK);
			kc_gcm_hkey(&bc, h);
			kc_ghash_powers(pow, h);
			{
				/* whole, then a prefix (RSA's blob without d: 904 of 1,160) */
				const size_t pl[2] = { len, it == 1 ? 904u : ts_rand_u32((uint32_t)len + 1u) };
				size_t i, j;
				for (j = 0; j < 2; j++) {
					const size_t wl = KC_GCM_PW_W(pl[j]);
					memset(buf, 0xa5, sizeof buf);
					ok &= kc_gcm_open_pw(&bc, pow, iv, aad, al, ct, len, tag, pl[j], buf) == PV_OK;
					ok &= memcmp(buf + 16, pt, pl[j]) == 0 && buf[wl] == 0xa5;
					for (i = 0; i < wl; i++)
						ok &= (i >= 16 && i < 16 + pl[j]) || buf[i] == 0;
				}
				ok &= kc_gcm_open_pw(&bc, pow, iv, aad, al, ct, len, tag, len + 1, buf) == PV_ERR_ARGS;
				flip_one(ct, len, aad, al, tag, 16);
				memset(buf, 0xa5, sizeof buf);
				ok &= kc_gcm_open_pw(&bc, pow, iv, aad, al, ct, len, tag, len, buf) ==
				      PV_ERR_ENC_INVALID;
				for (i = 0; i < KC_GCM_PW_W(len); i++)
					ok &= buf[i] == 0;
				ok &= buf[KC_GCM_PW_W(len)] == 0xa5;
			}
			kc_bc_clear(&bc);
			if (!ok && ++bad < 4)
				fprintf(stderr, "gcm_open_pw %s aad %zu len %zu mismatch\n", gcm_names[ki], al, len);
			n++;
		}
	}
	printf("\n    aes-gcm open with H's powers: %d random cases vs OpenSSL, %d mismatches ", n, bad);
	CU_ASSERT_EQUAL(bad, 0);
}

static int ossl_cmac(const char *cipher, const uint8_t *key, size_t kl, const uint8_t *in, size_t len, uint8_t mac[16])
{
	EVP_MAC *m = EVP_MAC_fetch(NULL, "CMAC", NULL);
	EVP_MAC_CTX *x = m ? EVP_MAC_CTX_new(m) : NULL;
	OSSL_PARAM p[2];
	size_t ol = 0;
	int ok;

	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cipher, 0);
	p[1] = OSSL_PARAM_construct_end();
	ok = x && EVP_MAC_init(x, key, kl, p) == 1 && EVP_MAC_update(x, in, len) == 1 &&
	     EVP_MAC_final(x, mac, &ol, 16) == 1 && ol == 16;
	EVP_MAC_CTX_free(x);
	EVP_MAC_free(m);
	return ok ? 0 : -1;
}

static void test_cmac(void)
{
	static const char *names[] = { "AES-128-CBC", "AES-192-CBC", "AES-256-CBC", "SM4-CBC" };
	uint8_t *msg = malloc(MAXLEN);
	int ci, it, bad = 0, n = 0;

	CU_ASSERT_FATAL(msg != NULL);
	for (ci = 0; ci < 4; ci++) {
		for (it = 0; it < ITERS / 2; it++) {
			uint8_t key[32], ref[16], mac[16];
			size_t kl = ci < 3 ? klens[ci] : 16, len = tsym_len(MAXLEN / 2);
			size_t cuts[300], nc = tsym_chunks(len, cuts, 300), k, off = 0;
			kc_bc bc;
			kc_cmac c;

			ts_rand(key, kl);
			ts_rand(msg, len);
			CU_ASSERT_FATAL(ossl_cmac(names[ci], key, kl, msg, len, ref) == 0);
			CU_ASSERT_FATAL(kc_bc_init(&bc, ci < 3 ? KC_BC_AES : KC_BC_SM4, key, kl) == PV_OK);
			CU_ASSERT_FATAL(kc_cmac_init(&c, &bc) == PV_OK);
			for (k = 0; k < nc; k++) {
				kc_cmac_update(&c, msg + off, cuts[k]);
				off += cuts[k];
			}
			kc_cmac_final(&c, mac);
			if (memcmp(mac, ref, 16) != 0 && ++bad < 4)
				fprintf(stderr, "cmac %s len %zu mismatch\n", names[ci], len);
			kc_bc_clear(&bc);
			n++;
		}
	}
	printf("\n    cmac (AES-128/192/256, SM4): %d random cases vs OpenSSL EVP_MAC, %d mismatches ", n, bad);
	CU_ASSERT_EQUAL(bad, 0);
	free(msg);
}

static int ossl_wrap(const char *name, int enc, const uint8_t *key, const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ok;

	ok = c && x && EVP_CipherInit_ex2(x, c, key, NULL, enc, NULL) == 1 &&
	     EVP_CipherUpdate(x, out, &l1, in, (int)len) == 1 &&
	     EVP_CipherFinal_ex(x, out + l1, &l2) == 1;
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(c);
	return ok ? l1 + l2 : -1;
}

static void test_wrap(void)
{
	static const char *kw[] = { "AES-128-WRAP", "AES-192-WRAP", "AES-256-WRAP" };
	static const char *kwp[] = { "AES-128-WRAP-PAD", "AES-192-WRAP-PAD", "AES-256-WRAP-PAD" };
	int ki, it, pad, bad = 0, n = 0;

	for (pad = 0; pad < 2; pad++) {
		for (ki = 0; ki < 3; ki++) {
			for (it = 0; it < ITERS / 4; it++) {
				uint8_t key[32], msg[520], ref[540], out[540], back[540];
				size_t len = pad ? 1 + ts_rand_u32(512) : 8 * (2 + ts_rand_u32(63)), ol = 0;
				int rl, ok = 1;
				kc_bc bc;

				ts_rand(key, klens[ki]);
				ts_rand(msg, len);
				rl = ossl_wrap(pad ? kwp[ki] : kw[ki], 1, key, msg, len, ref);
				CU_ASSERT_FATAL(rl > 0);
				CU_ASSERT_FATAL(kc_bc_init(&bc, KC_BC_AES, key, klens[ki]) == PV_OK);
				if (pad) {
					ok &= kc_kwp_wrap(&bc, msg, len, out, &ol) == PV_OK && ol == (size_t)rl;
					memcpy(back, ref, (size_t)rl);          /* unwrap in place */
					ok &= kc_kwp_unwrap(&bc, back, (size_t)rl, back, &ol) == PV_OK && ol == len;
				} else {
					ok &= kc_kw_wrap(&bc, msg, len, out) == PV_OK && len + 8 == (size_t)rl;
					memcpy(back, ref, (size_t)rl);
					ok &= kc_kw_unwrap(&bc, back, (size_t)rl, back) == PV_OK;
				}
				ok &= memcmp(out, ref, (size_t)rl) == 0 && memcmp(back, msg, len) == 0;
				/* corrupt one byte: must be refused */
				ref[ts_rand_u32((uint32_t)rl)] ^= (uint8_t)(1u << ts_rand_u32(8));
				if (pad)
					ok &= kc_kwp_unwrap(&bc, ref, (size_t)rl, back, &ol) == PV_ERR_WRAPPED && ol == 0;
				else
					ok &= kc_kw_unwrap(&bc, ref, (size_t)rl, back) == PV_ERR_WRAPPED;
				if (!ok && ++bad < 4)
					fprintf(stderr, "%s len %zu mismatch\n", pad ? kwp[ki] : kw[ki], len);
				kc_bc_clear(&bc);
				n++;
			}
		}
	}
	printf("\n    aes kw/kwp: %d random cases vs OpenSSL id-aes*-wrap(-pad), %d mismatches ", n, bad);
	CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("sym_oracle_aead", NULL, NULL);
	if (!s)
		return 2;
	TSYM_ADD(s, test_gcm);
	TSYM_ADD(s, test_gcm_open_pw);
	TSYM_ADD(s, test_cmac);
	TSYM_ADD(s, test_wrap);
	return ts_run();
}
