/*
 * test_sm4.c - SM4 specifics: the GB/T 32907-2016 example (one block and
 * 1,000,000 iterations), SM4-GCM against RFC 8998 Appendix A.1, and the
 * consistency of GCM over SM4 with OpenSSL SM4-CTR (OpenSSL 3.0 has no
 * SM4-GCM) plus tag behaviour on random inputs.
 */
#include "tsym.h"
#include "tsupport.h"
#include <openssl/evp.h>

static void unhex(const char *h, uint8_t *out, size_t want)
{
	size_t l = 0;
	uint8_t *p = ts_unhex(h, &l);
	CU_ASSERT_FATAL(p != NULL && l == want);
	memcpy(out, p, l);
	free(p);
}

/* GB/T 32907-2016, Appendix A, examples 1 and 2 */
static void test_gbt_example(void)
{
	uint8_t key[16], ct[16], ct1m[16], buf[16];
	kc_bc bc;
	long i;

	unhex("0123456789abcdeffedcba9876543210", key, 16);
	unhex("681edf34d206965e86b3e94f536e4246", ct, 16);
	unhex("595298c7c6fd271f0402f804c33d3f66", ct1m, 16);
	CU_ASSERT_EQUAL_FATAL(kc_bc_init(&bc, KC_BC_SM4, key, 16), PV_OK);
	kc_bc_encrypt(&bc, key, buf);
	CU_ASSERT(memcmp(buf, ct, 16) == 0);
	kc_bc_decrypt(&bc, buf, buf);
	CU_ASSERT(memcmp(buf, key, 16) == 0);
	memcpy(buf, key, 16);
	for (i = 0; i < 1000000; i++)
		kc_bc_encrypt(&bc, buf, buf);
	CU_ASSERT(memcmp(buf, ct1m, 16) == 0);
	kc_bc_clear(&bc);
}

/* RFC 8998 (ShangMi cipher suites for TLS 1.3), Appendix A.1: SM4-GCM */
static void test_rfc8998_gcm(void)
{
	uint8_t key[16], iv[12], aad[20], pt[64], ct[64], tag[16], buf[64], t[16];
	kc_bc bc;
	kc_gcm g;
	size_t i;

	unhex("0123456789ABCDEFFEDCBA9876543210", key, 16);
	unhex("00001234567800000000ABCD", iv, 12);
	unhex("FEEDFACEDEADBEEFFEEDFACEDEADBEEFABADDAD2", aad, 20);
	unhex("AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBBCCCCCCCCCCCCCCCCDDDDDDDDDDDDDDDD"
	      "EEEEEEEEEEEEEEEEFFFFFFFFFFFFFFFFEEEEEEEEEEEEEEEEAAAAAAAAAAAAAAAA", pt, 64);
	unhex("17F399F08C67D5EE19D0DC9969C4BB7D5FD46FD3756489069157B282BB200735"
	      "D82710CA5C22F0CCFA7CBF93D496AC15A56834CBCF98C397B4024A2691233B8D", ct, 64);
	unhex("83DE3541E4C2B58177E065A9BF7B62EC", tag, 16);

	CU_ASSERT_EQUAL_FATAL(kc_bc_init(&bc, KC_BC_SM4, key, 16), PV_OK);
	CU_ASSERT_EQUAL(kc_gcm_init(&g, &bc, iv, 12), PV_OK);
	CU_ASSERT_EQUAL(kc_gcm_aad(&g, aad, 20), PV_OK);
	CU_ASSERT_EQUAL(kc_gcm_encrypt(&g, pt, buf, 64), PV_OK);
	kc_gcm_tag(&g, t);
	CU_ASSERT(memcmp(buf, ct, 64) == 0);
	CU_ASSERT(memcmp(t, tag, 16) == 0);
	/* decrypt, byte by byte */
	CU_ASSERT_EQUAL(kc_gcm_init(&g, &bc, iv, 12), PV_OK);
	CU_ASSERT_EQUAL(kc_gcm_aad(&g, aad, 20), PV_OK);
	for (i = 0; i < 64; i++)
		CU_ASSERT_EQUAL(kc_gcm_decrypt(&g, ct + i, buf + i, 1), PV_OK);
	CU_ASSERT_EQUAL(kc_gcm_check_tag(&g, tag, 16), PV_OK);
	CU_ASSERT(memcmp(buf, pt, 64) == 0);
	/* any flipped tag bit is refused */
	for (i = 0; i < 128; i++) {
		memcpy(t, tag, 16);
		t[i / 8] ^= (uint8_t)(1u << (i % 8));
		CU_ASSERT_EQUAL_FATAL(kc_gcm_init(&g, &bc, iv, 12), PV_OK);
		kc_gcm_aad(&g, aad, 20);
		kc_gcm_decrypt(&g, ct, buf, 64);
		CU_ASSERT_EQUAL(kc_gcm_check_tag(&g, t, 16), PV_ERR_ENC_INVALID);
	}
	kc_gcm_clear(&g);
	kc_bc_clear(&bc);
}

static int ossl_sm4(const char *name, const uint8_t *key, const uint8_t *iv, const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ok;

	ok = c && x && EVP_EncryptInit_ex2(x, c, key, iv, NULL) == 1 &&
	     EVP_CIPHER_CTX_set_padding(x, 0) == 1 &&
	     EVP_EncryptUpdate(x, out, &l1, in, (int)len) == 1 &&
	     EVP_EncryptFinal_ex(x, out + l1, &l2) == 1;
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(c);
	return ok ? l1 + l2 : -1;
}

/* GCM over SM4: ciphertext = OpenSSL SM4-CTR from inc32(J0) (12-byte IV:
 * J0 = IV || 00000002 as the first counter; the 32-bit counter never wraps
 * at these lengths); H = SM4(0) and the tag = SM4(J0) ^ GHASH_H(A, C) with
 * SM4 blocks from OpenSSL SM4-ECB and GHASH from kc_ghash (checked against
 * OpenSSL through AES-GCM in test_oracle_aead). */
static void test_sm4_gcm_vs_ctr(void)
{
	uint8_t pt[2048], ct[2048], ref[2048], aad[100];
	int it, bad = 0;

	for (it = 0; it < 300; it++) {
		uint8_t key[16], iv[16], tag[16], zero[16] = { 0 }, H[16], EJ0[16], S[16] = { 0 }, lb[16] = { 0 };
		size_t len = ts_rand_u32(sizeof pt + 1), al = ts_rand_u32(sizeof aad + 1), i, c, off;
		kc_bc bc;
		kc_gcm g;
		int ok = 1;

		ts_rand(key, 16);
		ts_rand(iv, 12);
		ts_rand(pt, len);
		ts_rand(aad, al);
		memcpy(iv + 12, "\x00\x00\x00\x02", 4);
		CU_ASSERT_FATAL(ossl_sm4("SM4-CTR", key, iv, pt, len, ref) == (int)len);
		CU_ASSERT_FATAL(kc_bc_init(&bc, KC_BC_SM4, key, 16) == PV_OK);
		ok &= kc_gcm_init(&g, &bc, iv, 12) == PV_OK && kc_gcm_aad(&g, aad, al) == PV_OK;
		for (off = 0; off < len; off += c) {
			c = ts_rand_u32(100);
			if (c > len - off)
				c = len - off;
			ok &= kc_gcm_encrypt(&g, pt + off, ct + off, c) == PV_OK;
		}
		kc_gcm_tag(&g, tag);
		ok &= memcmp(ct, ref, len) == 0;
		/* tag from OpenSSL SM4 blocks */
		memcpy(iv + 12, "\x00\x00\x00\x01", 4);
		CU_ASSERT_FATAL(ossl_sm4("SM4-ECB", key, NULL, zero, 16, H) == 16);
		CU_ASSERT_FATAL(ossl_sm4("SM4-ECB", key, NULL, iv, 16, EJ0) == 16);
		kc_ghash(S, H, aad, al);
		kc_ghash(S, H, ref, len);
		for (i = 0; i < 8; i++) {
			lb[7 - i] = (uint8_t)(((uint64_t)al * 8) >> (8 * i));
			lb[15 - i] = (uint8_t)(((uint64_t)len * 8) >> (8 * i));
		}
		kc_ghash(S, H, lb, 16);
		for (i = 0; i < 16; i++)
			S[i] ^= EJ0[i];
		ok &= memcmp(S, tag, 16) == 0;
		/* decrypt in place and verify */
		ok &= kc_gcm_init(&g, &bc, iv, 12) == PV_OK && kc_gcm_aad(&g, aad, al) == PV_OK;
		ok &= kc_gcm_decrypt(&g, ct, ct, len) == PV_OK && kc_gcm_check_tag(&g, tag, 16) == PV_OK;
		ok &= memcmp(ct, pt, len) == 0;
		if (!ok)
			bad++;
		kc_gcm_clear(&g);
		kc_bc_clear(&bc);
	}
	printf("\n    sm4-gcm vs OpenSSL SM4-CTR/ECB: 300 random cases, %d mismatches ", bad);
	CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("sym_sm4", NULL, NULL);
	if (!s)
		return 2;
	TSYM_ADD(s, test_gbt_example);
	TSYM_ADD(s, test_rfc8998_gcm);
	TSYM_ADD(s, test_sm4_gcm_vs_ctr);
	return ts_run();
}
