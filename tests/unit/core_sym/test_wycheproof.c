/*
 * test_wycheproof.c - Wycheproof vectors through gpu/core/sym: AES-GCM (all
 * IV sizes, invalid tags), AES-CBC-PKCS5, AES key wrap (RFC 3394), AES-KWP
 * (RFC 5649), AES-CMAC.  Every valid case must reproduce exactly, every
 * invalid case must be rejected.
 */
#include "tsym.h"
#include "tsupport.h"

#define WP_CHECK(expr) do { if (!(expr)) { rc = 1; goto out; } } while (0)

static int key_ok(kc_bc *bc, const uint8_t *key, size_t klen)
{
	return kc_bc_init(bc, KC_BC_AES, key, klen) == PV_OK;
}

/* ---------------------------------------------------------------- GCM */
static int wp_gcm(const ts_wp_case *tc, void *arg)
{
	size_t kl, il, al, ml, cl, tl, i;
	uint8_t *key = ts_wp_hex(tc, "key", &kl), *iv = ts_wp_hex(tc, "iv", &il);
	uint8_t *aad = ts_wp_hex(tc, "aad", &al), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *ct = ts_wp_hex(tc, "ct", &cl), *tag = ts_wp_hex(tc, "tag", &tl);
	uint8_t *buf = malloc(ml + cl + 1), t[16];
	kc_bc bc;
	kc_gcm g;
	int rc = 0, r;
	(void)arg;

	WP_CHECK(key && iv && aad && msg && ct && tag && buf && key_ok(&bc, key, kl));
	r = kc_gcm_init(&g, &bc, iv, il);
	if (il == 0) {              /* ZeroLengthIv: must be refused */
		WP_CHECK(ts_wp_invalid(tc) && r == PV_ERR_MECH_PARAM);
		goto out;
	}
	WP_CHECK(r == PV_OK);
	/* decrypt in two parts, check the tag */
	WP_CHECK(kc_gcm_aad(&g, aad, al / 2) == PV_OK && kc_gcm_aad(&g, aad + al / 2, al - al / 2) == PV_OK);
	WP_CHECK(kc_gcm_decrypt(&g, ct, buf, cl / 3) == PV_OK);
	WP_CHECK(kc_gcm_decrypt(&g, ct + cl / 3, buf + cl / 3, cl - cl / 3) == PV_OK);
	r = kc_gcm_check_tag(&g, tag, tl);
	if (ts_wp_valid(tc)) {
		WP_CHECK(r == PV_OK && cl == ml && memcmp(buf, msg, ml) == 0);
		/* encrypt one shot, in place */
		memcpy(buf, msg, ml);
		WP_CHECK(kc_gcm_init(&g, &bc, iv, il) == PV_OK && kc_gcm_aad(&g, aad, al) == PV_OK);
		WP_CHECK(kc_gcm_encrypt(&g, buf, buf, ml) == PV_OK);
		kc_gcm_tag(&g, t);
		WP_CHECK(memcmp(buf, ct, cl) == 0 && tl <= 16 && memcmp(t, tag, tl) == 0);
		/* byte-by-byte streaming decrypt */
		WP_CHECK(kc_gcm_init(&g, &bc, iv, il) == PV_OK);
		for (i = 0; i < al; i++)
			WP_CHECK(kc_gcm_aad(&g, aad + i, 1) == PV_OK);
		for (i = 0; i < cl; i++)
			WP_CHECK(kc_gcm_decrypt(&g, ct + i, buf + i, 1) == PV_OK);
		WP_CHECK(kc_gcm_check_tag(&g, tag, tl) == PV_OK && memcmp(buf, msg, ml) == 0);
	} else {
		WP_CHECK(r == PV_ERR_ENC_INVALID || r == PV_ERR_MECH_PARAM);
	}
	/* kc_gcm_open: the same verdict; plaintext only when the tag holds */
	memset(buf, 0xA5, cl + 1);
	WP_CHECK(kc_gcm_init(&g, &bc, iv, il) == PV_OK && kc_gcm_aad(&g, aad, al) == PV_OK);
	r = kc_gcm_open(&g, ct, cl, tag, tl, buf);
	if (ts_wp_valid(tc)) {
		WP_CHECK(r == PV_OK && cl == ml && memcmp(buf, msg, ml) == 0);
	} else {
		WP_CHECK(r == PV_ERR_ENC_INVALID || r == PV_ERR_MECH_PARAM);
		for (i = 0; i < cl + 1; i++)
			WP_CHECK(buf[i] == 0xA5);
	}
out:
	kc_gcm_clear(&g);
	free(key); free(iv); free(aad); free(msg); free(ct); free(tag); free(buf);
	return rc;
}

/* ------------------------------------------------------- CBC-PKCS5 */
static int wp_cbc(const ts_wp_case *tc, void *arg)
{
	size_t kl, il, ml, cl, ol;
	uint8_t *key = ts_wp_hex(tc, "key", &kl), *iv = ts_wp_hex(tc, "iv", &il);
	uint8_t *msg = ts_wp_hex(tc, "msg", &ml), *ct = ts_wp_hex(tc, "ct", &cl);
	uint8_t *buf = malloc(ml + cl + 32), ivc[16];
	kc_bc bc;
	int rc = 0, r;
	(void)arg;

	WP_CHECK(key && iv && msg && ct && buf && il == 16 && key_ok(&bc, key, kl));
	memcpy(ivc, iv, 16);
	r = kc_cbc_pad_decrypt(&bc, ivc, ct, cl, buf, &ol);
	if (ts_wp_valid(tc)) {
		WP_CHECK(r == PV_OK && ol == ml && memcmp(buf, msg, ml) == 0);
		memcpy(ivc, iv, 16);
		memcpy(buf, msg, ml);
		WP_CHECK(kc_cbc_pad_encrypt(&bc, ivc, buf, ml, buf, &ol) == PV_OK);  /* in place */
		WP_CHECK(ol == cl && memcmp(buf, ct, cl) == 0);
	} else {
		WP_CHECK(r != PV_OK && ol == 0);
	}
out:
	kc_bc_clear(&bc);
	free(key); free(iv); free(msg); free(ct); free(buf);
	return rc;
}

/* ------------------------------------------------------ KW / KWP */
static int wp_wrap(const ts_wp_case *tc, void *arg)
{
	int kwp = *(int *)arg;
	size_t kl, ml, cl, ol = 0;
	uint8_t *key = ts_wp_hex(tc, "key", &kl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *ct = ts_wp_hex(tc, "ct", &cl);
	uint8_t *buf = malloc(ml + cl + 32);
	kc_bc bc;
	int rc = 0, rw, ru;

	WP_CHECK(key && msg && ct && buf && key_ok(&bc, key, kl));
	/* unwrap */
	if (kwp) {
		ru = kc_kwp_unwrap(&bc, ct, cl, buf, &ol);
	} else {
		ru = kc_kw_unwrap(&bc, ct, cl, buf);
		ol = ru == PV_OK ? cl - 8 : 0;
	}
	/* wrap */
	if (kwp) {
		size_t wl = 0;
		rw = kc_kwp_wrap(&bc, msg, ml, buf + cl, &wl);
		if (rw == PV_OK && (wl != cl || memcmp(buf + cl, ct, cl) != 0))
			rw = 1;              /* wrapped, but differently */
	} else {
		rw = kc_kw_wrap(&bc, msg, ml, buf + cl);
		if (rw == PV_OK && (ml + 8 != cl || memcmp(buf + cl, ct, cl) != 0))
			rw = 1;
	}
	if (ts_wp_valid(tc)) {
		WP_CHECK(ru == PV_OK && ol == ml && memcmp(buf, msg, ml) == 0);
		WP_CHECK(rw == PV_OK);
	} else if (ts_wp_invalid(tc)) {
		WP_CHECK(ru != PV_OK && ru != 1);
		WP_CHECK(rw != PV_OK);   /* an invalid ct is never what we produce */
	} else {
		/* acceptable (8-byte key with RFC 3394): refusing is allowed, a
		 * result must be the expected one */
		WP_CHECK(ru != PV_OK || (ol == ml && memcmp(buf, msg, ml) == 0));
		WP_CHECK(rw <= 0);
	}
out:
	kc_bc_clear(&bc);
	free(key); free(msg); free(ct); free(buf);
	return rc;
}

/* ----------------------------------------------------------- CMAC */
static int wp_cmac(const ts_wp_case *tc, void *arg)
{
	size_t kl, ml, tl;
	uint8_t *key = ts_wp_hex(tc, "key", &kl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *tag = ts_wp_hex(tc, "tag", &tl), mac[16];
	kc_bc bc;
	kc_cmac c;
	int rc = 0;
	(void)arg;

	WP_CHECK(key && msg && tag);
	if (kc_bc_init(&bc, KC_BC_AES, key, kl) != PV_OK) {
		WP_CHECK(ts_wp_invalid(tc) && kl != 16 && kl != 24 && kl != 32);
		goto out;
	}
	WP_CHECK(kc_cmac_init(&c, &bc) == PV_OK);
	kc_cmac_update(&c, msg, ml / 2);
	kc_cmac_update(&c, msg + ml / 2, ml - ml / 2);
	kc_cmac_final(&c, mac);
	if (ts_wp_valid(tc))
		WP_CHECK(tl <= 16 && memcmp(mac, tag, tl) == 0);
	else
		WP_CHECK(tl > 16 || memcmp(mac, tag, tl) != 0);
out:
	kc_bc_clear(&bc);
	free(key); free(msg); free(tag);
	return rc;
}

static void run_file(const char *file, ts_wp_fn fn, void *arg, int min_cases)
{
	ts_wp_stats st;
	CU_ASSERT_EQUAL_FATAL(ts_wp_run(file, fn, arg, &st), 0);
	CU_ASSERT(st.total >= min_cases);
	CU_ASSERT_EQUAL(st.failed, 0);
	CU_ASSERT_EQUAL(st.skipped, 0);
	printf("\n    %s: %d cases (%d valid, %d invalid, %d acceptable), %d failed, %d skipped ",
	       file, st.total, st.valid, st.invalid, st.acceptable, st.failed, st.skipped);
}

static void test_gcm(void) { run_file("aes_gcm_test.json", wp_gcm, NULL, 316); }
static void test_cbc(void) { run_file("aes_cbc_pkcs5_test.json", wp_cbc, NULL, 216); }
static void test_kw(void) { int kwp = 0; run_file("aes_wrap_test.json", wp_wrap, &kwp, 165); }
static void test_kwp(void) { int kwp = 1; run_file("aes_kwp_test.json", wp_wrap, &kwp, 254); }
static void test_cmac(void) { run_file("aes_cmac_test.json", wp_cmac, NULL, 311); }

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("sym_wycheproof", NULL, NULL);
	if (!s)
		return 2;
	TSYM_ADD(s, test_gcm);
	TSYM_ADD(s, test_cbc);
	TSYM_ADD(s, test_kw);
	TSYM_ADD(s, test_kwp);
	TSYM_ADD(s, test_cmac);
	return ts_run();
}
