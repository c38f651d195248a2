/*
 * test_ghash_lanes.c - the lane decomposition of GHASH (kc_ghash_part +
 * kc_ghash_combine, what the CUDA warp hook KC_GHASH_COOP runs on 32 lanes
 * with shuffles) against the serial kc_ghash: random H, random initial y,
 * block counts 0..100, 32 k - 1, 32 k, 32 k + 1 up to 1,025 and the lane
 * counts 32 (the warp), 1, 2, 3, 7, 31, 33 and 64.  Every block's exponent
 * must be exact: a power of H off by one in any lane changes the result.
 * And kc_ghash_pw (one product a block with the powers of H, what the warp
 * hook KC_GHASH_PW_COOP runs one block a lane) against kc_ghash for 0..40
 * blocks (over 32: kc_ghash itself).
 */
#include "tsym.h"

#define TG_MAXB 1100u

static uint8_t tg_data[16 * TG_MAXB];

/* kc_ghash_part over all lanes, combined; returns memcmp vs kc_ghash */
static int tg_check(const uint8_t h[16], const uint8_t y0[16], size_t n, uint32_t nlanes)
{
	uint8_t ref[16], y[16] = { 0 }, part[16];
	uint32_t l;

	memcpy(ref, y0, 16);
	kc_ghash(ref, h, tg_data, 16 * n);
	for (l = 0; l < nlanes; l++) {
		kc_ghash_part(part, y0, h, tg_data, n, l, nlanes);
		kc_ghash_combine(y, part);
	}
	return memcmp(y, ref, 16);
}

static void test_ghash_lanes_vs_serial(void)
{
	static const uint32_t lanes[] = { 32, 1, 2, 3, 7, 31, 33, 64 };
	size_t ns[200], nn = 0, i, k;
	uint8_t h[16], y0[16];
	int bad = 0, cases = 0, rep;

	for (i = 0; i <= 100; i++)
		ns[nn++] = i;
	for (k = 1; k <= 32; k++) {
		ns[nn++] = 32 * k - 1;
		ns[nn++] = 32 * k;
		ns[nn++] = 32 * k + 1;
	}
	for (rep = 0; rep < 3; rep++) {
		ts_rand(h, 16);
		ts_rand(y0, 16);
		if (rep == 1)
			memset(y0, 0, 16);  /* kc_gcm's fresh Y */
		ts_rand(tg_data, sizeof tg_data);
		for (i = 0; i < nn; i++)
			for (k = 0; k < sizeof lanes / sizeof lanes[0]; k++) {
				if (rep > 0 && lanes[k] != 32)
					continue;
				cases++;
				if (tg_check(h, y0, ns[i], lanes[k]) != 0) {
					if (bad < 5)
						printf("\n    n=%zu lanes=%u differs", ns[i], lanes[k]);
					bad++;
				}
			}
	}
	printf("\n    ghash lanes vs serial: %d cases, %d mismatches ", cases, bad);
	CU_ASSERT_EQUAL(bad, 0);
}

/* A lane's part only depends on its own blocks: changing block i changes
 * only lane i % nlanes's part (and the combined result). */
static void test_ghash_lanes_ownership(void)
{
	uint8_t h[16], y0[16], p0[32][16], p1[16];
	size_t n = 77, i;
	uint32_t l;
	int bad = 0;

	ts_rand(h, 16);
	ts_rand(y0, 16);
	ts_rand(tg_data, 16 * n);
	for (l = 0; l < 32; l++)
		kc_ghash_part(p0[l], y0, h, tg_data, n, l, 32);
	for (i = 0; i < n; i += 5) {
		tg_data[16 * i + (i % 16)] ^= 0x5a;
		for (l = 0; l < 32; l++) {
			kc_ghash_part(p1, y0, h, tg_data, n, l, 32);
			if ((memcmp(p1, p0[l], 16) != 0) != (l == i % 32))
				bad++;
		}
		tg_data[16 * i + (i % 16)] ^= 0x5a;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_ghash_pw_vs_serial(void)
{
	uint8_t h[16], y0[16], ref[16], y[16], pow[KC_GHASH_POW_N][16], h2[16];
	int bad = 0, cases = 0, rep;
	size_t n;

	for (rep = 0; rep < 20; rep++) {
		ts_rand(h, 16);
		ts_rand(y0, 16);
		if (rep == 1)
			memset(y0, 0, 16);
		ts_rand(tg_data, 16 * 40);
		kc_ghash_powers(pow, h);
		memset(h2, 0, 16);
		kc_ghash(h2, h, pow[0], 16);    /* 0 ^ H, times H = H^2 */
		if (memcmp(pow[0], h, 16) != 0 || memcmp(pow[1], h2, 16) != 0)
			bad++;
		for (n = 0; n <= 40; n++) {
			memcpy(ref, y0, 16);
			kc_ghash(ref, h, tg_data, 16 * n);
			memcpy(y, y0, 16);
			kc_ghash_pw(y, pow, tg_data, n);
			cases++;
			if (memcmp(y, ref, 16) != 0) {
				if (bad < 5)
					printf("\n    pw n=%zu differs", n);
				bad++;
			}
		}
	}
	printf("\n    ghash with powers vs serial: %d cases, %d mismatches ", cases, bad);
	CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("sym_ghash_lanes", NULL, NULL);
	if (!s)
		return 2;
	TSYM_ADD(s, test_ghash_lanes_vs_serial);
	TSYM_ADD(s, test_ghash_lanes_ownership);
	TSYM_ADD(s, test_ghash_pw_vs_serial);
	return ts_run();
}
