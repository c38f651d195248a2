/*
 * ct_sym.c - constant-time checks of gpu/core/sym (ctgrind technique, see
 * ../ct.h): keys, plaintexts and the GHASH state are marked secret; any
 * branch or memory index that depends on them makes valgrind fail the run.
 *
 * Covered: AES-128/256 key schedule, encrypt and decrypt (1 and 2 blocks);
 * SM4 key schedule, encrypt, decrypt (1 and 8 blocks); CTR; CFB128; CBC-PAD
 * decrypt with the padding check; GHASH with secret H and data, and its
 * lane split (kc_ghash_part), GHASH over H's powers (kc_ghash_powers,
 * kc_ghash_pw); AES- and
 * SM4-GCM encrypt, tag and tag check; CMAC; KW and KWP unwrap with their
 * integrity checks; the
 * PKCS#7 unpad check.  Results are declassified (CT_PUBLIC) only where the
 * caller would look at them, and checked for sanity.
 */
#include "ct.h"
#include "gpu/core/sym/kc_sym.h"
#include <stdint.h>
#include <string.h>

static int fails;

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "ct_sym: check failed at line %d: %s\n", __LINE__, #c); fails++; } } while (0)

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
	size_t i;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + 37 * i + (i >> 3));
}

static void ct_aes(size_t klen, const char *name)
{
	uint8_t key[32], pt[32], ct[32], back[32];
	kc_bc bc;
	int rc;

	fill(key, sizeof key, 1);
	fill(pt, sizeof pt, 2);
	CT_SECRET(key, sizeof key);
	CT_SECRET(pt, sizeof pt);
	rc = kc_bc_init(&bc, KC_BC_AES, key, klen);
	CHECK(rc == PV_OK);
	kc_bc_encrypt(&bc, pt, ct);                 /* one block */
	kc_ecb_encrypt(&bc, pt, ct, 2);             /* two blocks per pass */
	kc_ecb_decrypt(&bc, ct, back, 2);
	kc_bc_decrypt(&bc, ct, back);
	CT_PUBLIC(back, sizeof back);
	CT_PUBLIC(pt, sizeof pt);
	CHECK(memcmp(back, pt, 16) == 0);
	kc_bc_clear(&bc);
	CT_REPORT(name);
}

static void ct_sm4(void)
{
	uint8_t key[16], pt[128], ct[128], back[128];
	kc_bc bc;

	fill(key, sizeof key, 3);
	fill(pt, sizeof pt, 4);
	CT_SECRET(key, sizeof key);
	CT_SECRET(pt, sizeof pt);
	CHECK(kc_bc_init(&bc, KC_BC_SM4, key, 16) == PV_OK);
	kc_bc_encrypt(&bc, pt, ct);
	kc_ecb_encrypt(&bc, pt, ct, 8);
	kc_ecb_decrypt(&bc, ct, back, 8);
	CT_PUBLIC(back, sizeof back);
	CT_PUBLIC(pt, sizeof pt);
	CHECK(memcmp(back, pt, sizeof pt) == 0);
	kc_bc_clear(&bc);
	CT_REPORT("sm4 key schedule, encrypt, decrypt");
}

static void ct_modes(void)
{
	uint8_t key[16], iv[16], ctr[16], ks[16], pt[100], ct[112], back[112];
	uint32_t used = 0;
	size_t ol = 0;
	kc_bc bc;
	int rc;

	fill(key, sizeof key, 5);
	fill(pt, sizeof pt, 6);
	memset(iv, 1, 16);
	memset(ctr, 2, 16);
	CT_SECRET(key, sizeof key);
	CT_SECRET(pt, sizeof pt);
	CHECK(kc_bc_init(&bc, KC_BC_AES, key, 16) == PV_OK);
	kc_ctr_xcrypt(&bc, ctr, 128, ks, &used, pt, ct, sizeof pt);
	used = 0;
	kc_cfb128_encrypt(&bc, iv, &used, pt, ct, sizeof pt);
	memset(iv, 1, 16);
	used = 0;
	kc_cfb128_decrypt(&bc, iv, &used, ct, back, sizeof pt);
	memset(iv, 1, 16);
	CHECK(kc_cbc_pad_encrypt(&bc, iv, pt, sizeof pt, ct, &ol) == PV_OK && ol == 112);
	memset(iv, 1, 16);
	rc = kc_cbc_pad_decrypt(&bc, iv, ct, 112, back, &ol);
	CT_PUBLIC(&rc, sizeof rc);
	CT_PUBLIC(&ol, sizeof ol);
	CHECK(rc == PV_OK && ol == sizeof pt);
	kc_bc_clear(&bc);
	CT_REPORT("ctr, cfb128, cbc-pad encrypt/decrypt with padding check");
}

static void ct_pkcs7(void)
{
	uint8_t blk[16];
	size_t pl = 0;
	int rc;

	fill(blk, 16, 7);
	kc_pad_pkcs7(blk, 9);
	CT_SECRET(blk, sizeof blk);
	rc = kc_unpad_pkcs7_ct(blk, &pl);
	CT_PUBLIC(&rc, sizeof rc);
	CT_PUBLIC(&pl, sizeof pl);
	CHECK(rc == PV_OK && pl == 7);
	blk[15] = 0x11;
	CT_SECRET(blk, sizeof blk);
	rc = kc_unpad_pkcs7_ct(blk, &pl);
	CT_PUBLIC(&rc, sizeof rc);
	CHECK(rc == PV_ERR_ENC_INVALID);
	CT_REPORT("pkcs7 unpad check");
}

static void ct_gcm(void)
{
	uint8_t key[32], iv[12], aad[20], pt[70], ct[70], back[70], tag[16], h[16], y[16];
	kc_bc bc;
	kc_gcm g;
	int rc;

	fill(key, sizeof key, 8);
	fill(iv, sizeof iv, 9);
	fill(aad, sizeof aad, 10);
	fill(pt, sizeof pt, 11);
	fill(h, sizeof h, 12);
	memset(y, 0, sizeof y);
	/* GHASH with a secret H, state and data */
	CT_SECRET(h, sizeof h);
	CT_SECRET(y, sizeof y);
	CT_SECRET(pt, sizeof pt);
	kc_ghash(y, h, pt, sizeof pt);
	CT_REPORT("ghash");
	/* the warp's lane split: every lane of 32 (and of 3) over 4 blocks,
	 * secret H, y and data; lanes with no block included */
	{
		uint8_t part[16], acc[16];
		uint32_t l;
		memset(acc, 0, sizeof acc);
		for (l = 0; l < 32; l++) {
			kc_ghash_part(part, y, h, pt, sizeof pt / 16, l, 32);
			kc_ghash_combine(acc, part);
		}
		for (l = 0; l < 3; l++)
			kc_ghash_part(part, y, h, pt, sizeof pt / 16, l, 3);
		CT_REPORT("ghash lane parts");
	}
	/* the KEK's powers of H and one pass over them (small key blobs) */
	{
		uint8_t pow[KC_GHASH_POW_N][16];
		kc_ghash_powers(pow, h);
		kc_ghash_pw(y, pow, pt, sizeof pt / 16);
		CT_REPORT("ghash powers, ghash over the powers");
	}

	CT_SECRET(key, sizeof key);
	CHECK(kc_bc_init(&bc, KC_BC_AES, key, 32) == PV_OK);
	CHECK(kc_gcm_init(&g, &bc, iv, 12) == PV_OK);
	CHECK(kc_gcm_aad(&g, aad, sizeof aad) == PV_OK);
	CHECK(kc_gcm_encrypt(&g, pt, ct, 33) == PV_OK);
	CHECK(kc_gcm_encrypt(&g, pt + 33, ct + 33, sizeof pt - 33) == PV_OK);
	kc_gcm_tag(&g, tag);
	CT_PUBLIC(ct, sizeof ct);                    /* what goes on the wire */
	CT_PUBLIC(tag, sizeof tag);
	/* decrypt and check the tag: the GHASH state is secret throughout */
	CHECK(kc_gcm_init(&g, &bc, iv, 12) == PV_OK);
	CHECK(kc_gcm_aad(&g, aad, sizeof aad) == PV_OK);
	CHECK(kc_gcm_decrypt(&g, ct, back, sizeof ct) == PV_OK);
	rc = kc_gcm_check_tag(&g, tag, 16);
	CT_PUBLIC(&rc, sizeof rc);
	CHECK(rc == PV_OK);
	tag[3] ^= 4;
	CHECK(kc_gcm_init(&g, &bc, iv, 7) == PV_OK);   /* non-96-bit IV path */
	CHECK(kc_gcm_decrypt(&g, ct, back, sizeof ct) == PV_OK);
	rc = kc_gcm_check_tag(&g, tag, 12);
	CT_PUBLIC(&rc, sizeof rc);
	CHECK(rc == PV_ERR_ENC_INVALID);
	/* the engine's tag pass: GHASH alone over the ciphertext */
	CHECK(kc_gcm_init(&g, &bc, iv, 12) == PV_OK);
	CHECK(kc_gcm_aad(&g, aad, sizeof aad) == PV_OK);
	CHECK(kc_gcm_hash_ct(&g, ct, sizeof ct) == PV_OK);
	rc = kc_gcm_check_tag(&g, tag, 12);
	CT_PUBLIC(&rc, sizeof rc);
	CHECK(rc == PV_ERR_ENC_INVALID);
	kc_gcm_clear(&g);
	kc_bc_clear(&bc);
	CT_REPORT("aes-256-gcm encrypt, tag, tag check");
	/* SM4-GCM */
	CHECK(kc_bc_init(&bc, KC_BC_SM4, key, 16) == PV_OK);
	CHECK(kc_gcm_init(&g, &bc, iv, 12) == PV_OK);
	CHECK(kc_gcm_encrypt(&g, pt, ct, sizeof pt) == PV_OK);
	kc_gcm_tag(&g, tag);
	CT_PUBLIC(ct, sizeof ct);
	CT_PUBLIC(tag, sizeof tag);
	CHECK(kc_gcm_init(&g, &bc, iv, 12) == PV_OK);
	CHECK(kc_gcm_decrypt(&g, ct, back, sizeof ct) == PV_OK);
	rc = kc_gcm_check_tag(&g, tag, 16);
	CT_PUBLIC(&rc, sizeof rc);
	CHECK(rc == PV_OK);
	kc_gcm_clear(&g);
	kc_bc_clear(&bc);
	CT_REPORT("sm4-gcm encrypt, tag, tag check");
}

static void ct_cmac(void)
{
	uint8_t key[16], msg[53], mac[16];
	kc_bc bc;
	kc_cmac c;

	fill(key, sizeof key, 13);
	fill(msg, sizeof msg, 14);
	CT_SECRET(key, sizeof key);
	CT_SECRET(msg, sizeof msg);
	CHECK(kc_bc_init(&bc, KC_BC_AES, key, 16) == PV_OK);
	CHECK(kc_cmac_init(&c, &bc) == PV_OK);
	kc_cmac_update(&c, msg, 20);
	kc_cmac_update(&c, msg + 20, sizeof msg - 20);
	kc_cmac_final(&c, mac);
	kc_bc_clear(&bc);
	CT_REPORT("cmac");
}

static void ct_wrap(void)
{
	uint8_t key[16], k1[32], k2[21], w1[40], w2[32], out[40];
	size_t ol = 0;
	kc_bc bc;
	int rc;

	fill(key, sizeof key, 15);
	fill(k1, sizeof k1, 16);
	fill(k2, sizeof k2, 17);
	CT_SECRET(key, sizeof key);
	CT_SECRET(k1, sizeof k1);
	CT_SECRET(k2, sizeof k2);
	CHECK(kc_bc_init(&bc, KC_BC_AES, key, 16) == PV_OK);
	CHECK(kc_kw_wrap(&bc, k1, sizeof k1, w1) == PV_OK);
	CHECK(kc_kwp_wrap(&bc, k2, sizeof k2, w2, &ol) == PV_OK && ol == 32);
	CT_PUBLIC(w1, sizeof w1);
	CT_PUBLIC(w2, sizeof w2);
	rc = kc_kw_unwrap(&bc, w1, sizeof w1, out);
	CT_PUBLIC(&rc, sizeof rc);
	CHECK(rc == PV_OK);
	rc = kc_kwp_unwrap(&bc, w2, sizeof w2, out, &ol);
	CT_PUBLIC(&rc, sizeof rc);
	CT_PUBLIC(&ol, sizeof ol);
	CHECK(rc == PV_OK && ol == sizeof k2);
	w1[5] ^= 1;
	w2[30] ^= 1;
	rc = kc_kw_unwrap(&bc, w1, sizeof w1, out);
	CT_PUBLIC(&rc, sizeof rc);
	CHECK(rc == PV_ERR_WRAPPED);
	rc = kc_kwp_unwrap(&bc, w2, sizeof w2, out, &ol);
	CT_PUBLIC(&rc, sizeof rc);
	CHECK(rc == PV_ERR_WRAPPED);
	/* one-semiblock KWP */
	CHECK(kc_kwp_wrap(&bc, k2, 5, w2, &ol) == PV_OK && ol == 16);
	CT_PUBLIC(w2, 16);
	rc = kc_kwp_unwrap(&bc, w2, 16, out, &ol);
	CT_PUBLIC(&rc, sizeof rc);
	CHECK(rc == PV_OK);
	kc_bc_clear(&bc);
	CT_REPORT("kw / kwp wrap and unwrap checks");
}

int main(void)
{
	ct_aes(16, "aes-128 key schedule, encrypt, decrypt");
	ct_aes(32, "aes-256 key schedule, encrypt, decrypt");
	ct_sm4();
	ct_modes();
	ct_pkcs7();
	ct_gcm();
	ct_cmac();
	ct_wrap();
	fprintf(stderr, "ct_sym: %s\n", fails ? "FAILED" : "done");
	return fails ? 1 : 0;
}
