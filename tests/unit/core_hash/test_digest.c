/*
 * test_digest.c - SHA-1/2/3, SHAKE and SM3 of gpu/core/hash.
 *   - OpenSSL EVP_Digest / EVP_DigestFinalXOF as an independent oracle on
 *     thousands of random inputs per algorithm (lengths 0..4 KiB, biased to
 *     block boundaries; SHAKE with random output lengths);
 *   - multi-part updates in random chunkings equal one shot;
 *   - a ctx copied mid-stream (memcpy) continues independently;
 *   - known answers (FIPS 180-4/202 examples, GB/T 32905-2016 appendix A);
 *   - API contract: lengths, unknown algorithms, final wipes, kc_hash_check.
 */
#include "th_common.h"
#include "tsupport.h"

static void ossl_digest(const char *name, const uint8_t *m, size_t len, uint8_t *out, size_t outlen)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	const EVP_MD *md = EVP_get_digestbyname(name);
	unsigned int ol = 0;
	int xof = (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0;

	if (!c || !md || !EVP_DigestInit_ex(c, md, NULL) || !EVP_DigestUpdate(c, m, len) ||
	    !(xof ? EVP_DigestFinalXOF(c, out, outlen) : EVP_DigestFinal_ex(c, out, &ol))) {
		fprintf(stderr, "OpenSSL digest %s failed\n", name);
		abort();
	}
	EVP_MD_CTX_free(c);
}

/* Feed m into c in random chunks (some empty, some tiny, some large). */
static void update_chunked(kc_hash_ctx *c, const uint8_t *m, size_t len)
{
	size_t off = 0;
	while (off < len) {
		size_t n;
		switch (ts_rand_u32(4)) {
		case 0: n = 0; break;
		case 1: n = 1 + ts_rand_u32(7); break;
		case 2: n = ts_rand_u32(300); break;
		default: n = ts_rand_u32((uint32_t)(len - off) + 1); break;
		}
		if (n > len - off)
			n = len - off;
		kc_hash_update(c, m + off, n);
		off += n;
	}
}

static void test_oracle(void)
{
	int rounds = th_rounds(2000);
	size_t a;
	uint8_t *m = malloc(4097), *want = malloc(1024), *got = malloc(1024), *got2 = malloc(1024);

	for (a = 0; a < TH_NALGS; a++) {
		const th_alg *al = &th_algs[a];
		int r, bad = 0;
		for (r = 0; r < rounds; r++) {
			size_t len = th_rand_len(4096, al->block);
			size_t outlen = al->len ? al->len : 1 + th_rand_len(600, al->block);
			kc_hash_ctx c;

			ts_rand(m, len);
			ossl_digest(al->name, m, len, want, outlen);
			memset(got, 0, outlen);
			memset(got2, 0, outlen);
			if (al->len) {
				CU_ASSERT_EQUAL(kc_hash(al->id, m, len, got), PV_OK);
			} else {
				CU_ASSERT_EQUAL(kc_shake(al->id, m, len, got, outlen), PV_OK);
			}
			CU_ASSERT_EQUAL(kc_hash_init(&c, al->id), PV_OK);
			update_chunked(&c, m, len);
			if (al->len) {
				kc_hash_final(&c, got2);
			} else {
				CU_ASSERT_EQUAL(kc_hash_xof(&c, got2, outlen), PV_OK);
			}
			if ((memcmp(want, got, outlen) || memcmp(want, got2, outlen)) && bad++ < 5)
				fprintf(stderr, "%s len=%zu outlen=%zu mismatch\n", al->name, len, outlen);
		}
		CU_ASSERT_EQUAL(bad, 0);
		fprintf(stderr, "%s: %d random inputs vs OpenSSL (one shot and random chunking), %d mismatches\n",
		        al->name, rounds, bad);
	}
	free(m); free(want); free(got); free(got2);
}

/* A ctx copied with memcpy mid-stream is an independent, complete state. */
static void test_copy(void)
{
	size_t a;
	uint8_t m[3000], want[200], got[200];

	for (a = 0; a < TH_NALGS; a++) {
		const th_alg *al = &th_algs[a];
		size_t outlen = al->len ? al->len : 200, cut = 1 + ts_rand_u32(1500);
		kc_hash_ctx c, d;
		ts_rand(m, sizeof m);
		kc_hash_init(&c, al->id);
		kc_hash_update(&c, m, cut);
		CU_ASSERT_EQUAL(kc_hash_check(&c), PV_OK);
		memcpy(&d, &c, sizeof c);
		/* c: m[0..cut) || m[cut..3000);  d: m[0..cut) || m[0..100) */
		kc_hash_update(&c, m + cut, sizeof m - cut);
		kc_hash_update(&d, m, 100);
		if (al->len) kc_hash_final(&c, got); else kc_hash_xof(&c, got, outlen);
		ossl_digest(al->name, m, sizeof m, want, outlen);
		CU_ASSERT(memcmp(got, want, outlen) == 0);
		if (al->len) kc_hash_final(&d, got); else kc_hash_xof(&d, got, outlen);
		{
			uint8_t m2[1600];
			memcpy(m2, m, cut);
			memcpy(m2 + cut, m, 100);
			ossl_digest(al->name, m2, cut + 100, want, outlen);
		}
		CU_ASSERT(memcmp(got, want, outlen) == 0);
	}
}

static void check_kat(uint32_t alg, const void *m, size_t len, const char *hex)
{
	size_t wl;
	uint8_t *want = ts_unhex(hex, &wl), got[256];
	if (kc_hash_len(alg)) {
		CU_ASSERT_EQUAL(kc_hash(alg, m, len, got), PV_OK);
	} else {
		CU_ASSERT_EQUAL(kc_shake(alg, m, len, got, wl), PV_OK);
	}
	CU_ASSERT(memcmp(got, want, wl) == 0);
	if (memcmp(got, want, wl))
		fprintf(stderr, "KAT alg %u len %zu: got %s\n", alg, len, ts_hex(got, wl));
	free(want);
}

static void test_kat(void)
{
	static const char abc[] = "abc";
	static const char abcd16[] = "abcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcdabcd";
	static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	uint8_t *mil = malloc(1000000);

	/* GB/T 32905-2016 appendix A, examples 1 and 2 */
	check_kat(KC_HASH_SM3, abc, 3, "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0");
	check_kat(KC_HASH_SM3, abcd16, 64, "debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732");
	/* FIPS 180-4 examples (NIST CSRC) */
	check_kat(KC_HASH_SHA1, abc, 3, "a9993e364706816aba3e25717850c26c9cd0d89d");
	check_kat(KC_HASH_SHA224, abc, 3, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7");
	check_kat(KC_HASH_SHA256, abc, 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_kat(KC_HASH_SHA256, two_blocks, 56, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check_kat(KC_HASH_SHA384, abc, 3, "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7");
	check_kat(KC_HASH_SHA512, abc, 3, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
	/* FIPS 202 examples */
	check_kat(KC_HASH_SHA3_256, "", 0, "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
	check_kat(KC_HASH_SHA3_224, abc, 3, "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf");
	check_kat(KC_HASH_SHA3_384, abc, 3, "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25");
	check_kat(KC_HASH_SHA3_512, abc, 3, "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0");
	check_kat(KC_HASH_SHAKE128, "", 0, "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26");
	check_kat(KC_HASH_SHAKE256, "", 0, "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be");
	/* one million 'a' */
	memset(mil, 'a', 1000000);
	check_kat(KC_HASH_SHA1, mil, 1000000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
	check_kat(KC_HASH_SHA256, mil, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	check_kat(KC_HASH_SHA512, mil, 1000000, "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b");
	check_kat(KC_HASH_SHA3_256, mil, 1000000, "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1");
	free(mil);
}

static void test_api(void)
{
	size_t a;
	kc_hash_ctx c, zero;
	uint8_t out[KC_HASH_MAX_LEN];

	memset(&zero, 0, sizeof zero);
	for (a = 0; a < TH_NALGS; a++) {
		const th_alg *al = &th_algs[a];
		CU_ASSERT_EQUAL(kc_hash_len(al->id), al->len);
		CU_ASSERT_EQUAL(kc_hash_block_len(al->id), al->block);
		CU_ASSERT(al->len <= KC_HASH_MAX_LEN && al->block <= KC_HASH_MAX_BLOCK);
		CU_ASSERT_EQUAL(kc_hash_init(&c, al->id), PV_OK);
		CU_ASSERT_EQUAL(c.alg, al->id);
		CU_ASSERT_EQUAL(kc_hash_check(&c), PV_OK);
		kc_hash_update(&c, "x", 1);
		CU_ASSERT_EQUAL(kc_hash_check(&c), PV_OK);
		if (al->len) {
			CU_ASSERT_EQUAL(kc_hash_xof(&c, out, 8), PV_ERR_MECHANISM);
			CU_ASSERT_EQUAL(c.alg, al->id);             /* untouched */
			kc_hash_final(&c, out);
			CU_ASSERT_EQUAL(kc_shake(al->id, "", 0, out, 8), PV_ERR_MECHANISM);
		} else {
			CU_ASSERT_EQUAL(kc_hash(al->id, "", 0, out), PV_ERR_MECHANISM);
			CU_ASSERT_EQUAL(kc_hash_xof(&c, out, 0), PV_OK);   /* zero-length XOF */
		}
		CU_ASSERT(memcmp(&c, &zero, sizeof c) == 0);          /* finalizing wipes */
		CU_ASSERT_EQUAL(kc_hash_check(&c), PV_ERR_STATE);
	}
	CU_ASSERT_EQUAL(kc_hash_len(0), 0);
	CU_ASSERT_EQUAL(kc_hash_len(13), 0);
	CU_ASSERT_EQUAL(kc_hash_block_len(0), 0);
	CU_ASSERT_EQUAL(kc_hash_block_len(0xffffffffu), 0);
	CU_ASSERT_EQUAL(kc_hash_init(&c, 13), PV_ERR_MECHANISM);
	CU_ASSERT_EQUAL(c.alg, 0);
	kc_hash_update(&c, "x", 1);                                  /* no-op */
	CU_ASSERT_EQUAL(kc_hash(0, "x", 1, out), PV_ERR_MECHANISM);
	CU_ASSERT_EQUAL(kc_hash_xof(&c, out, 1), PV_ERR_MECHANISM);

	/* kc_hash_check rejects states no update could produce */
	kc_hash_init(&c, KC_HASH_SHA3_256);
	c.u.sha3.pos = c.u.sha3.rate;
	CU_ASSERT_EQUAL(kc_hash_check(&c), PV_ERR_STATE);
	kc_hash_init(&c, KC_HASH_SHAKE128);
	c.u.sha3.rate = 200;
	CU_ASSERT_EQUAL(kc_hash_check(&c), PV_ERR_STATE);
	kc_hash_init(&c, KC_HASH_SHA3_512);
	c.alg = KC_HASH_SHA3_256;                 /* rate of one, alg of another */
	CU_ASSERT_EQUAL(kc_hash_check(&c), PV_ERR_STATE);
	kc_hash_init(&c, KC_HASH_SHA3_256);
	c.alg = KC_HASH_SHAKE256;                 /* same rate, other padding */
	CU_ASSERT_EQUAL(kc_hash_check(&c), PV_ERR_STATE);
	kc_hash_init(&c, KC_HASH_SHA256);
	c.pad_ = 1;
	CU_ASSERT_EQUAL(kc_hash_check(&c), PV_ERR_STATE);
	c.pad_ = 0;
	c.alg = 99;
	CU_ASSERT_EQUAL(kc_hash_check(&c), PV_ERR_STATE);
	kc_hash_init(&c, KC_HASH_SHA512);
	kc_hash_clear(&c);
	CU_ASSERT(memcmp(&c, &zero, sizeof c) == 0);
	/* layout: plain, compact */
	CU_ASSERT(sizeof(kc_hash_ctx) <= 216);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("core_hash_digest", NULL, NULL);
	CU_add_test(s, "digests vs OpenSSL EVP_Digest", test_oracle);
	CU_add_test(s, "ctx copy mid-stream", test_copy);
	CU_add_test(s, "known answers", test_kat);
	CU_add_test(s, "API contract", test_api);
	return ts_run();
}
