/*
 * test_badinput.c - refusals of gpu/core/sym: key sizes, GCM IV / tag
 * lengths, stream-state misuse, data limits, corrupted tags and ICVs,
 * key-wrap lengths, PKCS#7 checks (against a plain reference in this file).
 */
#include "tsym.h"
#include "tsupport.h"
#include <openssl/evp.h>
#include "gpu/core/cpu/kc_cpu.h"

/* The key schedule the host build makes: AES-NI's where the CPU has it,
 * the bitsliced one under PIXELVAULT_CPU_ACCEL=0 (this program runs both
 * ways: tests/unit/core_sym/meson.build). */
static void test_cpu_aes_path(void)
{
	const char *env = getenv("PIXELVAULT_CPU_ACCEL");
	const uint8_t key[32] = { 7 };
	int hw = 0, off = env != NULL && strcmp(env, "0") == 0;
	kc_bc bc;

#if defined(__x86_64__)
	hw = __builtin_cpu_supports("aes") && __builtin_cpu_supports("sse4.1");
#endif
	CU_ASSERT_EQUAL(kc_bc_init(&bc, KC_BC_AES, key, sizeof key), PV_OK);
	CU_ASSERT_EQUAL(bc.alg, hw && !off ? KC_BC_AES_HW : KC_BC_AES);
	CU_ASSERT_EQUAL((kc_cpu_features() & KC_CPU_AES) != 0, hw && !off);
	printf("\n    AES: %s ", bc.alg == KC_BC_AES_HW ? "AES-NI" : "bitsliced (portable)");
	kc_bc_clear(&bc);
}

static void test_key_sizes(void)
{
	uint8_t key[64] = { 1 };
	kc_bc bc;
	size_t l;

	for (l = 0; l <= 64; l++) {
		int want = (l == 16 || l == 24 || l == 32) ? PV_OK : PV_ERR_KEY_SIZE;
		CU_ASSERT_EQUAL(kc_bc_init(&bc, KC_BC_AES, key, l), want);
		if (want == PV_OK)
			CU_ASSERT(KC_BC_IS_AES(&bc) && bc.nr == 6 + l / 4);
		CU_ASSERT_EQUAL(kc_bc_init(&bc, KC_BC_SM4, key, l), l == 16 ? PV_OK : PV_ERR_KEY_SIZE);
	}
	CU_ASSERT_EQUAL(kc_bc_init(&bc, 0, key, 16), PV_ERR_MECHANISM);
	CU_ASSERT_EQUAL(kc_bc_init(&bc, 3, key, 16), PV_ERR_MECHANISM);
	kc_bc_init(&bc, KC_BC_AES, key, 32);
	kc_bc_clear(&bc);
	for (l = 0; l < sizeof bc; l++)
		CU_ASSERT_EQUAL_FATAL(((uint8_t *)&bc)[l], 0);
}

static void gcm_setup(kc_bc *bc, kc_gcm *g, uint8_t ct[40], uint8_t tag[16])
{
	uint8_t key[16], iv[12], pt[40];
	memset(key, 7, 16);
	memset(iv, 9, 12);
	memset(pt, 3, 40);
	CU_ASSERT_FATAL(kc_bc_init(bc, KC_BC_AES, key, 16) == PV_OK);
	CU_ASSERT_FATAL(kc_gcm_init(g, bc, iv, 12) == PV_OK);
	CU_ASSERT_FATAL(kc_gcm_aad(g, pt, 5) == PV_OK);
	CU_ASSERT_FATAL(kc_gcm_encrypt(g, pt, ct, 40) == PV_OK);
	kc_gcm_tag(g, tag);
	CU_ASSERT_FATAL(kc_gcm_init(g, bc, iv, 12) == PV_OK);
	CU_ASSERT_FATAL(kc_gcm_aad(g, pt, 5) == PV_OK);
}

static void test_gcm_params(void)
{
	uint8_t ct[40], tag[16], buf[40], t2[16], iv[1] = { 0 };
	kc_bc bc;
	kc_gcm g;
	size_t tl, i;

	gcm_setup(&bc, &g, ct, tag);
	/* IV length 0 */
	CU_ASSERT_EQUAL(kc_gcm_init(&g, &bc, iv, 0), PV_ERR_MECH_PARAM);
	/* a cleared (uninitialized) cipher is refused */
	{
		kc_bc z;
		kc_cmac c;
		memset(&z, 0, sizeof z);
		CU_ASSERT_EQUAL(kc_gcm_init(&g, &z, iv, 1), PV_ERR_ARGS);
		CU_ASSERT_EQUAL(kc_cmac_init(&c, &z), PV_ERR_ARGS);
	}
	/* 1-byte IV is fine */
	CU_ASSERT_EQUAL(kc_gcm_init(&g, &bc, iv, 1), PV_OK);
	/* tag lengths outside 4..16 */
	for (tl = 0; tl <= 20; tl++) {
		gcm_setup(&bc, &g, ct, tag);
		CU_ASSERT_EQUAL_FATAL(kc_gcm_decrypt(&g, ct, buf, 40), PV_OK);
		CU_ASSERT_EQUAL(kc_gcm_check_tag(&g, tag, tl), (tl >= 4 && tl <= 16) ? PV_OK : PV_ERR_MECH_PARAM);
	}
	/* corrupted tag bytes, truncated tags */
	for (i = 0; i < 16; i++) {
		gcm_setup(&bc, &g, ct, tag);
		kc_gcm_decrypt(&g, ct, buf, 40);
		memcpy(t2, tag, 16);
		t2[i] ^= 0x80;
		CU_ASSERT_EQUAL(kc_gcm_check_tag(&g, t2, 16), PV_ERR_ENC_INVALID);
		CU_ASSERT_EQUAL(kc_gcm_check_tag(&g, t2, i < 4 ? 4 : i), i < 4 ? PV_ERR_ENC_INVALID : PV_OK);
	}
	/* corrupted ciphertext */
	gcm_setup(&bc, &g, ct, tag);
	ct[39] ^= 1;
	kc_gcm_decrypt(&g, ct, buf, 40);
	CU_ASSERT_EQUAL(kc_gcm_check_tag(&g, tag, 16), PV_ERR_ENC_INVALID);
	kc_gcm_clear(&g);
	kc_bc_clear(&bc);
}

static void test_gcm_state(void)
{
	uint8_t ct[40], tag[16], buf[40], t1[16], t2[16];
	kc_bc bc;
	kc_gcm g;

	/* AAD after data */
	gcm_setup(&bc, &g, ct, tag);
	CU_ASSERT_EQUAL(kc_gcm_decrypt(&g, ct, buf, 1), PV_OK);
	CU_ASSERT_EQUAL(kc_gcm_aad(&g, ct, 1), PV_ERR_STATE);
	/* data after the tag; the tag is stable */
	CU_ASSERT_EQUAL(kc_gcm_decrypt(&g, ct + 1, buf + 1, 39), PV_OK);
	kc_gcm_tag(&g, t1);
	kc_gcm_tag(&g, t2);
	CU_ASSERT(memcmp(t1, tag, 16) == 0 && memcmp(t2, tag, 16) == 0);
	CU_ASSERT_EQUAL(kc_gcm_encrypt(&g, ct, buf, 1), PV_ERR_STATE);
	CU_ASSERT_EQUAL(kc_gcm_decrypt(&g, ct, buf, 0), PV_ERR_STATE);
	CU_ASSERT_EQUAL(kc_gcm_aad(&g, ct, 1), PV_ERR_STATE);
	/* the data limit 2^36 - 32 bytes (SP 800-38D) */
	gcm_setup(&bc, &g, ct, tag);
	g.ct_len = (((uint64_t)1) << 36) - 32 - 40;
	CU_ASSERT_EQUAL(kc_gcm_encrypt(&g, ct, buf, 40), PV_OK);
	CU_ASSERT_EQUAL(kc_gcm_encrypt(&g, ct, buf, 1), PV_ERR_DATA_LEN);
	kc_gcm_clear(&g);
	kc_bc_clear(&bc);
}

static void test_wrap_lengths(void)
{
	uint8_t key[16] = { 5 }, in[80] = { 1 }, out[96];
	kc_bc bc, sm4;
	size_t l, ol;

	CU_ASSERT_FATAL(kc_bc_init(&bc, KC_BC_AES, key, 16) == PV_OK);
	CU_ASSERT_FATAL(kc_bc_init(&sm4, KC_BC_SM4, key, 16) == PV_OK);
	for (l = 0; l <= 72; l++) {
		int okw = l >= 16 && l % 8 == 0, oku = l >= 24 && l % 8 == 0;
		int r = kc_kw_wrap(&bc, in, l, out);
		CU_ASSERT_EQUAL(r, okw ? PV_OK : PV_ERR_DATA_LEN);
		r = kc_kw_unwrap(&bc, in, l, out);
		CU_ASSERT_EQUAL(r, oku ? PV_ERR_WRAPPED : PV_ERR_ENC_LEN);   /* random data: bad ICV */
		r = kc_kwp_wrap(&bc, in, l, out, &ol);
		CU_ASSERT_EQUAL(r, l ? PV_OK : PV_ERR_DATA_LEN);
		if (l)
			CU_ASSERT_EQUAL(ol, ((l + 7) & ~(size_t)7) + 8);
		ol = 99;
		r = kc_kwp_unwrap(&bc, in, l, out, &ol);
		CU_ASSERT_EQUAL(r, (l >= 16 && l % 8 == 0) ? PV_ERR_WRAPPED : PV_ERR_ENC_LEN);
		CU_ASSERT_EQUAL(ol, 0);
	}
	CU_ASSERT_EQUAL(kc_kw_wrap(&sm4, in, 16, out), PV_ERR_KEY_TYPE);
	CU_ASSERT_EQUAL(kc_kw_unwrap(&sm4, in, 24, out), PV_ERR_KEY_TYPE);
	CU_ASSERT_EQUAL(kc_kwp_wrap(&sm4, in, 16, out, &ol), PV_ERR_KEY_TYPE);
	CU_ASSERT_EQUAL(kc_kwp_unwrap(&sm4, in, 24, out, &ol), PV_ERR_KEY_TYPE);
	kc_bc_clear(&bc);
	kc_bc_clear(&sm4);
}

/* RFC 3394 W with a chosen 8-byte IV, from OpenSSL (id-aes128-wrap takes an
 * explicit IV) or ECB for one semiblock: builds KWP blobs with a wrong
 * length field or non-zero padding. */
static int craft_kwp(const uint8_t key[16], const uint8_t aiv[8], const uint8_t *p, size_t plen, uint8_t *out)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, plen == 8 ? "AES-128-ECB" : "AES-128-WRAP", NULL);
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	uint8_t blk[16];
	int l1 = 0, l2 = 0, ok;

	memcpy(blk, aiv, 8);
	memcpy(blk + 8, p, 8);
	ok = c && x && EVP_EncryptInit_ex2(x, c, key, plen == 8 ? NULL : aiv, NULL) == 1 &&
	     EVP_CIPHER_CTX_set_padding(x, 0) == 1 &&
	     EVP_EncryptUpdate(x, out, &l1, plen == 8 ? blk : p, plen == 8 ? 16 : (int)plen) == 1 &&
	     EVP_EncryptFinal_ex(x, out + l1, &l2) == 1;
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(c);
	return ok ? l1 + l2 : -1;
}

static void test_kwp_icv(void)
{
	uint8_t key[16], p[32], blob[48], out[48], aiv[8];
	size_t ol;
	kc_bc bc;
	int it, bad = 0;

	ts_rand(key, 16);
	CU_ASSERT_FATAL(kc_bc_init(&bc, KC_BC_AES, key, 16) == PV_OK);
	for (it = 0; it < 200; it++) {
		size_t plen = 8 * (1 + ts_rand_u32(4));
		uint32_t mli = (uint32_t)(plen - 7 + ts_rand_u32(8));   /* valid range */
		int kind = (int)ts_rand_u32(4), want_ok, r, bl;
		size_t i;

		ts_rand(p, plen);
		for (i = mli; i < plen; i++)
			p[i] = 0;
		memcpy(aiv, "\xA6\x59\x59\xA6", 4);
		if (kind == 1)
			mli = (uint32_t)(plen - 8 - ts_rand_u32((uint32_t)(plen - 7)));  /* too small */
		else if (kind == 2)
			mli = (uint32_t)(plen + 1 + ts_rand_u32(100));                   /* too large */
		else if (kind == 3 && mli < plen)
			p[mli + ts_rand_u32((uint32_t)(plen - mli))] = (uint8_t)(1 + ts_rand_u32(255));
		want_ok = kind == 0 || (kind == 3 && mli == plen);
		aiv[4] = (uint8_t)(mli >> 24); aiv[5] = (uint8_t)(mli >> 16);
		aiv[6] = (uint8_t)(mli >> 8); aiv[7] = (uint8_t)mli;
		bl = craft_kwp(key, aiv, p, plen, blob);
		CU_ASSERT_FATAL(bl == (int)plen + 8);
		ol = 77;
		r = kc_kwp_unwrap(&bc, blob, (size_t)bl, out, &ol);
		if (want_ok ? (r != PV_OK || ol != mli || memcmp(out, p, mli) != 0)
		            : (r != PV_ERR_WRAPPED || ol != 0))
			bad++;
		if (!want_ok)
			for (i = 0; i < plen; i++)
				if (out[i] != 0)
					bad++;               /* refused output is wiped */
	}
	printf("\n    kwp crafted MLI / padding / ICV cases: 200, %d wrong ", bad);
	CU_ASSERT_EQUAL(bad, 0);
	/* a KW blob with a wrong ICV: refused and wiped */
	memset(aiv, 0xA6, 8);
	aiv[3] = 0xA7;
	ts_rand(p, 24);
	CU_ASSERT_FATAL(craft_kwp(key, aiv, p, 24, blob) == 32);
	memset(out, 0x55, sizeof out);
	CU_ASSERT_EQUAL(kc_kw_unwrap(&bc, blob, 32, out), PV_ERR_WRAPPED);
	for (it = 0; it < 24; it++)
		CU_ASSERT_EQUAL(out[it], 0);
	aiv[3] = 0xA6;
	CU_ASSERT_FATAL(craft_kwp(key, aiv, p, 24, blob) == 32);
	CU_ASSERT_EQUAL(kc_kw_unwrap(&bc, blob, 32, out), PV_OK);
	CU_ASSERT(memcmp(out, p, 24) == 0);
	kc_bc_clear(&bc);
}

/* plain reference: valid iff 1 <= p <= 16 and the last p bytes equal p */
static int ref_unpad(const uint8_t b[16], size_t *pl)
{
	unsigned p = b[15], i;
	if (p < 1 || p > 16)
		return -1;
	for (i = 16 - p; i < 16; i++)
		if (b[i] != p)
			return -1;
	*pl = p;
	return 0;
}

static void test_pkcs7(void)
{
	uint8_t b[16];
	size_t t, pl, rpl;
	int it, bad = 0, v;

	for (t = 0; t < 16; t++) {
		ts_rand(b, 16);
		CU_ASSERT_EQUAL(kc_pad_pkcs7(b, t), 16);
		CU_ASSERT(ref_unpad(b, &rpl) == 0 && rpl == 16 - t);
		CU_ASSERT(kc_unpad_pkcs7_ct(b, &pl) == PV_OK && pl == 16 - t);
	}
	CU_ASSERT_EQUAL(kc_pad_pkcs7(b, 16), 0);
	for (it = 0; it < 20000; it++) {
		unsigned p = ts_rand_u32(18), i;
		ts_rand(b, 16);
		if (ts_rand_u32(4) == 0) {
			b[15] = (uint8_t)ts_rand_u32(256);
		} else {
			for (i = 0; i < p && i < 16; i++)
				b[15 - i] = (uint8_t)p;
			if (ts_rand_u32(2))
				b[ts_rand_u32(16)] ^= (uint8_t)(1u << ts_rand_u32(8));
		}
		v = ref_unpad(b, &rpl);
		pl = 99;
		if (kc_unpad_pkcs7_ct(b, &pl) != (v == 0 ? PV_OK : PV_ERR_ENC_INVALID) || pl != (v == 0 ? rpl : 0))
			bad++;
	}
	printf("\n    pkcs7 unpad vs reference: 20000 cases, %d wrong ", bad);
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_cbc_pad_lengths(void)
{
	uint8_t key[16] = { 3 }, iv[16] = { 0 }, in[48] = { 0 }, out[48];
	size_t l, ol;
	kc_bc bc;

	CU_ASSERT_FATAL(kc_bc_init(&bc, KC_BC_AES, key, 16) == PV_OK);
	for (l = 0; l <= 48; l++) {
		int r = kc_cbc_pad_decrypt(&bc, iv, in, l, out, &ol);
		if (l == 0 || l % 16)
			CU_ASSERT_EQUAL(r, PV_ERR_ENC_LEN);
	}
	kc_bc_clear(&bc);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("sym_badinput", NULL, NULL);
	if (!s)
		return 2;
	TSYM_ADD(s, test_cpu_aes_path);
	TSYM_ADD(s, test_key_sizes);
	TSYM_ADD(s, test_gcm_params);
	TSYM_ADD(s, test_gcm_state);
	TSYM_ADD(s, test_wrap_lengths);
	TSYM_ADD(s, test_kwp_icv);
	TSYM_ADD(s, test_pkcs7);
	TSYM_ADD(s, test_cbc_pad_lengths);
	return ts_run();
}
