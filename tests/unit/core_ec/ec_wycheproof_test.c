/*
 * ec_wycheproof_test.c - Wycheproof ECDSA (P1363 raw signatures) and ECDH
 * vectors for P-256 and P-384 through gpu/core/ec.
 *
 * ECDSA: every valid signature verifies, every invalid one is rejected
 * ("acceptable" ones may go either way, and are counted).
 * ECDH: the public key is a DER SubjectPublicKeyInfo; a minimal parser here
 * accepts only id-ecPublicKey with the named curve of the file and hands the
 * BIT STRING (the SEC1 point, any form) to kc_ecdh.  Every valid case must
 * produce the expected secret; every invalid case must be rejected, either
 * by the SPKI parser (wrong/unnamed curve, bad ASN.1: not our code's job) or
 * by kc_ecdh (point not on the curve, bad encoding...): both counts are
 * printed.  Acceptable cases must not crash and, when they succeed, must
 * give the expected secret.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/Basic.h>

#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/pv_err.h"
#include "tsupport.h"

typedef struct wp_ctx {
	int curve;
	uint32_t halg;
	int rej_parser, rej_core, acc_ok, acc_rej;
} wp_ctx;

static uint8_t *group_pub(const ts_wp_case *tc, size_t *len)
{
	json_object *pk, *u;

	*len = 0;
	if (!json_object_object_get_ex(tc->group, "publicKey", &pk) ||
	    !json_object_object_get_ex(pk, "uncompressed", &u))
		return NULL;
	return ts_unhex(json_object_get_string(u), len);
}

static int ecdsa_case(const ts_wp_case *tc, void *arg)
{
	wp_ctx *w = (wp_ctx *)arg;
	size_t publen, mlen, siglen;
	uint8_t *pub = group_pub(tc, &publen);
	uint8_t *msg = ts_wp_hex(tc, "msg", &mlen);
	uint8_t *sig = ts_wp_hex(tc, "sig", &siglen);
	uint8_t h[64];
	int rc, bad = 1;

	if (pub == NULL || msg == NULL || sig == NULL)
		goto out;
	if (kc_hash(w->halg, msg, mlen, h) != PV_OK)
		goto out;
	rc = kc_ecdsa_verify(w->curve, pub, publen, h, kc_hash_len(w->halg), sig, siglen);
	if (ts_wp_valid(tc))
		bad = rc != PV_OK;
	else if (ts_wp_invalid(tc))
		bad = rc == PV_OK || (rc != PV_ERR_SIG_INVALID && rc != PV_ERR_SIG_LEN);
	else {
		bad = 0;
		if (rc == PV_OK) w->acc_ok++; else w->acc_rej++;
	}
out:
	free(pub); free(msg); free(sig);
	return bad;
}

/* Minimal DER reader: one TLV with the expected tag; definite lengths. */
static int der_tlv(const uint8_t **p, const uint8_t *end, uint8_t tag, const uint8_t **val, size_t *len)
{
	const uint8_t *q = *p;
	size_t n, k;

	if (end - q < 2 || q[0] != tag)
		return -1;
	n = q[1];
	q += 2;
	if (n & 0x80) {
		k = n & 0x7f;
		if (k == 0 || k > 2 || (size_t)(end - q) < k)
			return -1;
		for (n = 0; k > 0; k--)
			n = (n << 8) | *q++;
	}
	if ((size_t)(end - q) < n)
		return -1;
	*val = q;
	*len = n;
	*p = q + n;
	return 0;
}

/* SPKI -> SEC1 point, only for id-ecPublicKey + the named curve oid. */
static int spki_point(const uint8_t *der, size_t dlen, const uint8_t *oid, size_t oidlen,
                      const uint8_t **pt, size_t *ptlen)
{
	static const uint8_t ecpk[] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 };
	const uint8_t *p = der, *end = der + dlen, *seq, *alg, *v, *bits;
	size_t n, an, vn, bn;

	if (der_tlv(&p, end, 0x30, &seq, &n) || p != end)
		return -1;
	p = seq;
	end = seq + n;
	if (der_tlv(&p, end, 0x30, &alg, &an))
		return -1;
	if (der_tlv(&p, end, 0x03, &bits, &bn) || p != end || bn < 2 || bits[0] != 0)
		return -1;
	p = alg;
	if (der_tlv(&p, alg + an, 0x06, &v, &vn) || vn != sizeof ecpk || memcmp(v, ecpk, vn))
		return -1;
	if (der_tlv(&p, alg + an, 0x06, &v, &vn) || p != alg + an || vn != oidlen || memcmp(v, oid, vn))
		return -1;
	*pt = bits + 1;
	*ptlen = bn - 1;
	return 0;
}

static int ecdh_case(const ts_wp_case *tc, void *arg)
{
	static const uint8_t p256[] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	static const uint8_t p384[] = { 0x2b, 0x81, 0x04, 0x00, 0x22 };
	wp_ctx *w = (wp_ctx *)arg;
	size_t publen, privlen, shlen, flen = kc_ec_flen(w->curve), ptlen;
	uint8_t *pub = ts_wp_hex(tc, "public", &publen);
	uint8_t *priv = ts_wp_hex(tc, "private", &privlen);
	uint8_t *shared = ts_wp_hex(tc, "shared", &shlen);
	uint8_t d[48], out[48];
	const uint8_t *pt, *dp;
	size_t dl;
	int rc, bad = 1;

	if (pub == NULL || priv == NULL || shared == NULL)
		goto out;
	/* private: big-endian integer, maybe with a leading 00 */
	dp = priv;
	dl = privlen;
	while (dl > 0 && *dp == 0) { dp++; dl--; }
	if (dl > flen)
		goto out;
	memset(d, 0, sizeof d);
	memcpy(d + flen - dl, dp, dl);
	if (w->curve == KC_EC_P256)
		rc = spki_point(pub, publen, p256, sizeof p256, &pt, &ptlen);
	else
		rc = spki_point(pub, publen, p384, sizeof p384, &pt, &ptlen);
	if (rc != 0) {
		/* not an SPKI for this curve: our parser stops it */
		if (ts_wp_valid(tc))
			goto out;
		if (ts_wp_invalid(tc)) w->rej_parser++; else w->acc_rej++;
		bad = 0;
		goto out;
	}
	rc = kc_ecdh(w->curve, d, pt, ptlen, out);
	if (ts_wp_valid(tc)) {
		bad = rc != PV_OK || shlen != flen || memcmp(out, shared, flen) != 0;
	} else if (ts_wp_invalid(tc)) {
		bad = rc == PV_OK;
		if (!bad) w->rej_core++;
	} else {
		bad = rc == PV_OK && (shlen != flen || memcmp(out, shared, flen) != 0);
		if (rc == PV_OK) w->acc_ok++; else w->acc_rej++;
	}
out:
	free(pub); free(priv); free(shared);
	return bad;
}

static void run_ecdsa(const char *file, int curve, uint32_t halg)
{
	wp_ctx w = { curve, halg, 0, 0, 0, 0 };
	ts_wp_stats st;

	CU_ASSERT_EQUAL_FATAL(ts_wp_run(file, ecdsa_case, &w, &st), 0);
	fprintf(stderr, "%s: acceptable: %d accepted, %d rejected\n", file, w.acc_ok, w.acc_rej);
	CU_ASSERT(st.total > 0);
	CU_ASSERT_EQUAL(st.failed, 0);
	CU_ASSERT_EQUAL(st.skipped, 0);
}

static void run_ecdh(const char *file, int curve)
{
	wp_ctx w = { curve, 0, 0, 0, 0, 0 };
	ts_wp_stats st;

	CU_ASSERT_EQUAL_FATAL(ts_wp_run(file, ecdh_case, &w, &st), 0);
	fprintf(stderr, "%s: invalid rejected by SPKI parser %d, by kc_ecdh %d; "
	        "acceptable: %d accepted, %d rejected\n",
	        file, w.rej_parser, w.rej_core, w.acc_ok, w.acc_rej);
	CU_ASSERT(st.total > 0);
	CU_ASSERT_EQUAL(st.failed, 0);
	CU_ASSERT_EQUAL(st.skipped, 0);
}

static void test_ecdsa_p256(void) { run_ecdsa("ecdsa_secp256r1_sha256_p1363_test.json", KC_EC_P256, KC_HASH_SHA256); }
static void test_ecdsa_p384(void) { run_ecdsa("ecdsa_secp384r1_sha384_p1363_test.json", KC_EC_P384, KC_HASH_SHA384); }
static void test_ecdh_p256(void) { run_ecdh("ecdh_secp256r1_test.json", KC_EC_P256); }
static void test_ecdh_p384(void) { run_ecdh("ecdh_secp384r1_test.json", KC_EC_P384); }

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("ec_wycheproof", NULL, NULL);
	CU_add_test(s, "ecdsa_secp256r1_sha256_p1363", test_ecdsa_p256);
	CU_add_test(s, "ecdsa_secp384r1_sha384_p1363", test_ecdsa_p384);
	CU_add_test(s, "ecdh_secp256r1", test_ecdh_p256);
	CU_add_test(s, "ecdh_secp384r1", test_ecdh_p384);
	return ts_run();
}
