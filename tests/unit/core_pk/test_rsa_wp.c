/* test_rsa_wp.c - Wycheproof vectors through gpu/core/pk: PKCS#1 v1.5
 * decryption and signature generation/verification, PSS verification,
 * OAEP decryption, primality.  Every valid case must give the expected
 * output, every invalid one must be rejected; "acceptable" cases may go
 * either way (counted, printed). */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/pv_err.h"
#include "pk_test.h"
#include "tsupport.h"

static kc_drbg rng;

static int acc_yes, acc_no;

/* 0: behaved as expected, 1: failure */
static int verdict(const ts_wp_case *tc, int accepted)
{
	if (ts_wp_valid(tc))
		return accepted ? 0 : 1;
	if (ts_wp_invalid(tc))
		return accepted ? 1 : 0;
	/* acceptable: either outcome is allowed; counted */
	if (accepted)
		acc_yes++;
	else
		acc_no++;
	return 0;
}

static int wp_pkcs1_dec(const ts_wp_case *tc, void *arg)
{
	kc_rsa_priv sk;
	uint8_t out[KC_RSA_MAX_BYTES];
	size_t ctl, ml, ol = 0;
	uint8_t *ct = ts_wp_hex(tc, "ct", &ctl), *msg = ts_wp_hex(tc, "msg", &ml);
	int rc, acc, r;
	(void)arg;
	if (!pk_wp_priv(tc, &sk) || !ct || !msg) {
		free(ct); free(msg);
		return 1;
	}
	rc = kc_rsa_pkcs1_decrypt(&sk, &rng, ct, ctl, out, &ol);
	acc = rc == PV_OK && ol == ml && memcmp(out, msg, ml) == 0;
	r = verdict(tc, acc);
	/* a rejected case must report the one padding error or a length/range error, and no data */
	if (rc != PV_OK && (ol != 0 || (rc != PV_ERR_ENC_INVALID && rc != PV_ERR_ENC_LEN)))
		r = 1;
	free(ct); free(msg);
	return r;
}

static int wp_oaep_dec(const ts_wp_case *tc, void *arg)
{
	kc_rsa_priv sk;
	uint8_t out[KC_RSA_MAX_BYTES];
	size_t ctl, ml, ll, ol = 0;
	uint8_t *ct = ts_wp_hex(tc, "ct", &ctl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint8_t *label = ts_wp_hex(tc, "label", &ll);
	uint32_t h = pk_alg_from_name(ts_wp_str(tc, "sha")), mg = pk_alg_from_name(ts_wp_str(tc, "mgfSha"));
	int rc, acc, r;
	(void)arg;
	if (!pk_wp_priv(tc, &sk) || !ct || !msg || !label || !h || !mg) {
		free(ct); free(msg); free(label);
		return 1;
	}
	rc = kc_rsa_oaep_decrypt(&sk, &rng, h, mg, label, ll, ct, ctl, out, &ol);
	acc = rc == PV_OK && ol == ml && memcmp(out, msg, ml) == 0;
	r = verdict(tc, acc);
	if (rc != PV_OK && (ol != 0 || (rc != PV_ERR_ENC_INVALID && rc != PV_ERR_ENC_LEN)))
		r = 1;
	free(ct); free(msg); free(label);
	return r;
}

static int wp_pkcs1_sig_gen(const ts_wp_case *tc, void *arg)
{
	kc_rsa_priv sk;
	kc_rsa_pub pk;
	uint8_t sig[KC_RSA_MAX_BYTES], want[KC_RSA_MAX_BYTES], hash[64];
	size_t sl, ml, hl, k;
	uint8_t *es = ts_wp_hex(tc, "sig", &sl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint32_t h = pk_alg_from_name(ts_wp_str(tc, "sha"));
	int rc, acc;
	(void)arg;
	if (!pk_wp_priv(tc, &sk) || !es || !msg || !h) {
		free(es); free(msg);
		return 1;
	}
	k = kc_rsa_len(sk.bits);
	{
		/* these keys come as (n, e, d): our recovery must find the same primes */
		kc_rsa_priv ned = sk;
		memset(ned.p, 0, sizeof ned.p);
		memset(ned.q, 0, sizeof ned.q);
		rc = kc_rsa_priv_from_ned(&ned, &rng);
		if (rc == PV_ERR_KEY_SIZE) {
			/* unbalanced primes (the e = 3 keys here: 684 + 1364 bits) do
			 * not fit the CRT half size: refused, like their signatures */
			free(es); free(msg);
			return verdict(tc, 0);
		}
		if (rc != PV_OK
		    || !((!memcmp(ned.p, sk.p, sizeof ned.p) && !memcmp(ned.q, sk.q, sizeof ned.q))
		         || (!memcmp(ned.p, sk.q, sizeof ned.p) && !memcmp(ned.q, sk.p, sizeof ned.q)))) {
			free(es); free(msg);
			return 1;
		}
		sk = ned;          /* sign with the key as we completed it */
	}
	hl = pk_digest(h, msg, ml, hash);
	rc = kc_rsa_pkcs1_sign(&sk, &rng, h, hash, hl, sig);
	acc = rc == PV_OK && sl <= k && pk_hex_fixed(ts_wp_str(tc, "sig"), want, k) && memcmp(sig, want, k) == 0;
	/* and our verifier accepts what we produced */
	kc_rsa_pub_from_priv(&pk, &sk);
	if (acc)
		acc = kc_rsa_pkcs1_verify(&pk, h, hash, hl, sig, k) == PV_OK;
	free(es); free(msg);
	return verdict(tc, acc);
}

static int wp_pkcs1_verify(const ts_wp_case *tc, void *arg)
{
	kc_rsa_pub pk;
	uint8_t hash[64];
	size_t sl, ml, hl;
	uint8_t *sig = ts_wp_hex(tc, "sig", &sl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint32_t h = pk_alg_from_name(ts_wp_str(tc, "sha"));
	int rc;
	(void)arg;
	if (!pk_wp_pub(tc, &pk) || !sig || !msg || !h) {
		free(sig); free(msg);
		return 1;
	}
	hl = pk_digest(h, msg, ml, hash);
	rc = kc_rsa_pkcs1_verify(&pk, h, hash, hl, sig, sl);
	free(sig); free(msg);
	return verdict(tc, rc == PV_OK);
}

static int wp_pss_verify(const ts_wp_case *tc, void *arg)
{
	kc_rsa_pub pk;
	uint8_t hash[64];
	size_t sl, ml, hl;
	uint8_t *sig = ts_wp_hex(tc, "sig", &sl), *msg = ts_wp_hex(tc, "msg", &ml);
	uint32_t h = pk_alg_from_name(ts_wp_str(tc, "sha")), mg = pk_alg_from_name(ts_wp_str(tc, "mgfSha"));
	int slen = ts_wp_int(tc, "sLen"), rc;
	(void)arg;
	if (!pk_wp_pub(tc, &pk) || !sig || !msg || !h || !mg || slen < 0) {
		free(sig); free(msg);
		return 1;
	}
	hl = pk_digest(h, msg, ml, hash);
	rc = kc_rsa_pss_verify(&pk, h, mg, (size_t)slen, hash, hl, sig, sl);
	free(sig); free(msg);
	return verdict(tc, rc == PV_OK);
}

static int wp_prime(const ts_wp_case *tc, void *arg)
{
	size_t len;
	uint8_t *v = ts_wp_hex(tc, "value", &len);
	int rc;
	(void)arg;
	if (!v)
		return 1;
	if (len > 0 && (v[0] & 0x80)) {
		/* Wycheproof integers are signed: a negative value is outside the
		 * unsigned domain of kc_prime_test; counted as skipped. */
		free(v);
		return TS_WP_SKIP;
	}
	rc = kc_prime_test(&rng, v, len, 40);
	free(v);
	if (rc < 0)
		return 1;
	return verdict(tc, rc == 1);
}

static void run_sk(const char *file, ts_wp_fn fn, int min_cases, int skips)
{
	ts_wp_stats st;
	acc_yes = acc_no = 0;
	CU_ASSERT_FATAL(ts_wp_run(file, fn, NULL, &st) == 0);
	if (acc_yes + acc_no)
		fprintf(stderr, "%s: acceptable cases: %d accepted, %d rejected\n", file, acc_yes, acc_no);
	CU_ASSERT(st.failed == 0);
	CU_ASSERT(st.skipped == skips);
	CU_ASSERT(st.total >= min_cases);
}

static void run(const char *file, ts_wp_fn fn, int min_cases)
{
	run_sk(file, fn, min_cases, 0);
}

static void t_pkcs1_dec(void) { run("rsa_pkcs1_2048_test.json", wp_pkcs1_dec, 67); }
static void t_oaep_sha1(void) { run("rsa_oaep_2048_sha1_mgf1sha1_test.json", wp_oaep_dec, 36); }
static void t_oaep_sha256(void) { run("rsa_oaep_2048_sha256_mgf1sha256_test.json", wp_oaep_dec, 37); }
static void t_sig_gen(void) { run("rsa_pkcs1_2048_sig_gen_test.json", wp_pkcs1_sig_gen, 43); }
static void t_sig_2048(void) { run("rsa_signature_2048_sha256_test.json", wp_pkcs1_verify, 259); }
static void t_sig_3072(void) { run("rsa_signature_3072_sha256_test.json", wp_pkcs1_verify, 259); }
static void t_pss_2048(void) { run("rsa_pss_2048_sha256_mgf1_32_test.json", wp_pss_verify, 108); }
static void t_pss_3072(void) { run("rsa_pss_3072_sha256_mgf1_32_test.json", wp_pss_verify, 108); }
/* 14 negative values: 6 invalid (negative composites), 8 acceptable */
static void t_prime(void) { run_sk("primality_test.json", wp_prime, 317, 14); }

int main(void)
{
	CU_pSuite s;
	int rc;
	pk_drbg(&rng);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("core_pk_wycheproof", NULL, NULL);
	CU_add_test(s, "rsa_pkcs1_2048 decryption", t_pkcs1_dec);
	CU_add_test(s, "rsa_oaep_2048 sha1/mgf1sha1", t_oaep_sha1);
	CU_add_test(s, "rsa_oaep_2048 sha256/mgf1sha256", t_oaep_sha256);
	CU_add_test(s, "rsa_pkcs1_2048 signature generation", t_sig_gen);
	CU_add_test(s, "rsa_signature_2048_sha256", t_sig_2048);
	CU_add_test(s, "rsa_signature_3072_sha256", t_sig_3072);
	CU_add_test(s, "rsa_pss_2048_sha256_mgf1_32", t_pss_2048);
	CU_add_test(s, "rsa_pss_3072_sha256_mgf1_32", t_pss_3072);
	CU_add_test(s, "primality_test", t_prime);
	rc = ts_run();
	kc_drbg_clear(&rng);
	return rc;
}
