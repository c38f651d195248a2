/*
 * kc_ghash.c - GHASH (SP 800-38D), constant time.
 *
 * Multiplication in GF(2^128) by the right-shift algorithm (SP 800-38D,
 * Algorithm 1) with every data-dependent choice turned into a mask: for each
 * bit of X, Z ^= V & mask(bit); V = V >> 1 ^ (R & mask(lsb V)).  No table,
 * no branch, no secret-dependent index.
 */
#include "gpu/core/sym/kc_sym_int.h"

/* (zh:zl) = (xh:xl) * (hh:hl); big-endian halves as in the byte string */
KC_PRIV void kc_ghash_mul(uint64_t *yh, uint64_t *yl, uint64_t hh, uint64_t hl)
{
	uint64_t zh = 0, zl = 0, vh = hh, vl = hl, xh = *yh, xl = *yl, m;
	int i;

	for (i = 0; i < 64; i++) {
		m = (uint64_t)0 - (xh >> 63);
		zh ^= vh & m;
		zl ^= vl & m;
		xh <<= 1;
		m = (uint64_t)0 - (vl & 1u);
		vl = (vl >> 1) | (vh << 63);
		vh = (vh >> 1) ^ (m & 0xE100000000000000ull);
	}
	for (i = 0; i < 64; i++) {
		m = (uint64_t)0 - (xl >> 63);
		zh ^= vh & m;
		zl ^= vl & m;
		xl <<= 1;
		m = (uint64_t)0 - (vl & 1u);
		vl = (vl >> 1) | (vh << 63);
		vh = (vh >> 1) ^ (m & 0xE100000000000000ull);
	}
	*yh = zh;
	*yl = zl;
}

KC_API void kc_ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *data, size_t len)
{
	uint64_t yh = kc_load_be64(y), yl = kc_load_be64(y + 8);
	uint64_t hh = kc_load_be64(h), hl = kc_load_be64(h + 8);
	uint8_t tmp[16];
	size_t i;

	while (len > 0) {
		const uint8_t *src = data;
		size_t n = len < 16 ? len : 16;
		if (n < 16) {
			kc_memset(tmp, 0, 16);
			for (i = 0; i < n; i++)
				tmp[i] = data[i];
			src = tmp;
		}
		yh ^= kc_load_be64(src);
		yl ^= kc_load_be64(src + 8);
		kc_ghash_mul(&yh, &yl, hh, hl);
		data += n;
		len -= n;
	}
	kc_store_be64(y, yh);
	kc_store_be64(y + 8, yl);
	kc_wipe(tmp, sizeof tmp);
	kc_wipe(&yh, sizeof yh);
	kc_wipe(&yl, sizeof yl);
	kc_wipe(&hh, sizeof hh);
	kc_wipe(&hl, sizeof hl);
}
