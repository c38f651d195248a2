/* test_kc_util.c - constant-time control words and byte helpers of gpu/core. */
#include "gpu/core/kc_util.h"
#include "tsupport.h"

#include <CUnit/Basic.h>
#include <string.h>

static const uint32_t edge[] = { 0, 1, 2, 0x7ffffffe, 0x7fffffff, 0x80000000,
                                 0x80000001, 0xfffffffe, 0xffffffff };

static void test_compare_words(void)
{
	size_t i, j;
	int n;
	for (i = 0; i < sizeof edge / sizeof edge[0]; i++)
		for (j = 0; j < sizeof edge / sizeof edge[0]; j++) {
			uint32_t x = edge[i], y = edge[j];
			CU_ASSERT_EQUAL(kc_ctl_lt32(x, y), x < y);
			CU_ASSERT_EQUAL(kc_ctl_gt32(x, y), x > y);
			CU_ASSERT_EQUAL(kc_ctl_eq32(x, y), x == y);
			CU_ASSERT_EQUAL(kc_ctl_neq32(x, y), x != y);
		}
	for (n = 0; n < 100000; n++) {
		uint32_t x, y;
		ts_rand(&x, sizeof x);
		ts_rand(&y, sizeof y);
		if (n & 1)
			y = x + (y & 3) - 1;    /* neighbours */
		CU_ASSERT_EQUAL(kc_ctl_lt32(x, y), x < y);
		CU_ASSERT_EQUAL(kc_ctl_gt32(x, y), x > y);
		CU_ASSERT_EQUAL(kc_ctl_mux32(1, x, y), x);
		CU_ASSERT_EQUAL(kc_ctl_mux32(0, x, y), y);
	}
}

static void test_bytes(void)
{
	uint8_t a[300], b[300], c[300];
	size_t n;
	for (n = 0; n < sizeof a; n += 7) {
		ts_rand(a, n);
		memcpy(b, a, n);
		CU_ASSERT_EQUAL(kc_ct_eq(a, b, n), 1);
		if (n) {
			b[ts_rand_u32((uint32_t)n)] ^= (uint8_t)(1u << ts_rand_u32(8));
			CU_ASSERT_EQUAL(kc_ct_eq(a, b, n), 0);
		}
		memcpy(c, b, n);
		kc_ct_ccopy(0, c, a, n);
		CU_ASSERT_EQUAL(memcmp(c, b, n), 0);
		kc_ct_ccopy(1, c, a, n);
		CU_ASSERT_EQUAL(memcmp(c, a, n), 0);
		kc_memcpy(c, a, n);
		CU_ASSERT_EQUAL(memcmp(c, a, n), 0);
		kc_wipe(c, n);
		memset(b, 0, n);
		CU_ASSERT_EQUAL(memcmp(c, b, n), 0);
	}
	/* kc_memcpy at every pair of alignments (its 8-byte words and their
	 * byte heads and tails) */
	{
		uint8_t src[160], dst[160], want[160];
		size_t so, d0, len;
		for (so = 0; so < 16; so++)
			for (d0 = 0; d0 < 16; d0++)
				for (len = 0; len <= 140; len += (len < 20 ? 1 : 13)) {
					ts_rand(src, sizeof src);
					ts_rand(dst, sizeof dst);
					memcpy(want, dst, sizeof dst);
					memcpy(want + d0, src + so, len);
					kc_memcpy(dst + d0, src + so, len);
					CU_ASSERT(memcmp(dst, want, sizeof dst) == 0);
				}
	}
	/* kc_or_bytes: 0 on zeros, else nonzero for one set bit at any
	 * position, length and alignment (its 8-byte words, heads, tails) */
	{
		uint8_t z[80];
		size_t o, len, k;
		int bad = 0;
		memset(z, 0, sizeof z);
		for (o = 0; o < 16; o++)
			for (len = 0; len + o <= 64; len++) {
				bad += kc_or_bytes(z + o, len) != 0u;
				for (k = 0; k < len; k++) {
					z[o + k] = (uint8_t)(1u << ((o + k) & 7u));
					bad += kc_or_bytes(z + o, len) == 0u;
					z[o + k] = 0;
				}
				z[o + len] = 0xff;           /* a byte just past the end */
				bad += kc_or_bytes(z + o, len) != 0u;
				z[o + len] = 0;
			}
		CU_ASSERT_EQUAL(bad, 0);
	}
	/* overlapping moves both ways */
	for (n = 0; n < 64; n++)
		a[n] = (uint8_t)n;
	kc_memmove(a + 3, a, 20);
	for (n = 0; n < 20; n++)
		CU_ASSERT_EQUAL(a[n + 3], n);
	kc_memmove(a, a + 3, 20);
	for (n = 0; n < 20; n++)
		CU_ASSERT_EQUAL(a[n], n);
}

static void test_endian(void)
{
	uint8_t p[8];
	kc_store_be64(p, 0x0102030405060708ull);
	CU_ASSERT_EQUAL(p[0], 1);
	CU_ASSERT_EQUAL(p[7], 8);
	CU_ASSERT_EQUAL(kc_load_be64(p), 0x0102030405060708ull);
	CU_ASSERT_EQUAL(kc_load_le64(p), 0x0807060504030201ull);
	kc_store_le32(p, 0xa1b2c3d4u);
	CU_ASSERT_EQUAL(p[0], 0xd4);
	CU_ASSERT_EQUAL(kc_load_be32(p), 0xd4c3b2a1u);
	CU_ASSERT_EQUAL(kc_rotl32(0x80000001u, 1), 3u);
	CU_ASSERT_EQUAL(kc_rotr64(1ull, 1), 0x8000000000000000ull);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("kc_util", NULL, NULL);
	CU_add_test(s, "ctl compare words", test_compare_words);
	CU_add_test(s, "byte helpers and wipe", test_bytes);
	CU_add_test(s, "endian loads and stores", test_endian);
	return ts_run();
}
