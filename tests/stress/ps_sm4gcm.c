/*
 * ps_sm4gcm.c - SM4-GCM (RFC 8998) for p11stress's oracle: OpenSSL 3.0 has
 * SM4 but no SM4-GCM, so GCM (NIST SP 800-38D) is built here on OpenSSL's
 * SM4-ECB: H = E(0), J0 from the IV, GCTR with inc32 counters, and a
 * bitwise GHASH (slow and obviously right is what an oracle wants).
 */
#include <string.h>

#include "ps.h"
#include "ts_ossl.h"

/* X = X * Y in GF(2^128) with GCM's bit order. */
static void gf_mul(uint8_t x[16], const uint8_t y[16])
{
	uint8_t z[16] = { 0 }, v[16];
	int i, j, lsb;

	memcpy(v, y, 16);
	for (i = 0; i < 128; i++) {
		if (x[i / 8] & (0x80 >> (i % 8)))
			for (j = 0; j < 16; j++)
				z[j] ^= v[j];
		lsb = v[15] & 1;
		for (j = 15; j > 0; j--)
			v[j] = (uint8_t)(v[j] >> 1 | v[j - 1] << 7);
		v[0] >>= 1;
		if (lsb)
			v[0] ^= 0xe1;
	}
	memcpy(x, z, 16);
}

/* y = GHASH over data zero-padded to whole blocks (accumulating). */
static void ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *p, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i += 16) {
		for (j = 0; j < 16 && i + j < n; j++)
			y[j] ^= p[i + j];
		gf_mul(y, h);
	}
}

static void ghash_lens(uint8_t y[16], const uint8_t h[16], uint64_t a, uint64_t c)
{
	uint8_t l[16];
	int i;

	for (i = 0; i < 8; i++) {
		l[i] = (uint8_t)((a * 8) >> (56 - 8 * i));
		l[8 + i] = (uint8_t)((c * 8) >> (56 - 8 * i));
	}
	ghash(y, h, l, 16);
}

static int sm4_ecb(const uint8_t key[16], const uint8_t *in, size_t n, uint8_t *out)
{
	size_t ol;

	return ts_ossl_crypt(ps_cipher("SM4-ECB"), 1, 0, key, NULL, 0, NULL, 0, 0,
	                     in, n, out, &ol) && ol == n;
}

int ps_sm4_gcm(const uint8_t key[16], const uint8_t *iv, size_t ivl, const uint8_t *aad,
               size_t al, const uint8_t *in, size_t n, size_t tl, uint8_t *out, uint8_t *tmp)
{
	uint8_t h[16] = { 0 }, j0[16] = { 0 }, ek[16], y[16] = { 0 };
	size_t nb = (n + 15) / 16, i;
	uint32_t c;

	if (!sm4_ecb(key, h, 16, h))
		return 0;
	if (ivl == 12) {
		memcpy(j0, iv, 12);
		j0[15] = 1;
	} else {
		ghash(j0, h, iv, ivl);
		ghash_lens(j0, h, 0, ivl);
	}
	/* counter blocks inc32(J0), inc32^2(J0) ... encrypted in one call */
	c = (uint32_t)j0[12] << 24 | (uint32_t)j0[13] << 16 | (uint32_t)j0[14] << 8 | j0[15];
	for (i = 0; i < nb; i++) {
		uint32_t ci = c + 1 + (uint32_t)i;
		memcpy(tmp + 16 * i, j0, 12);
		tmp[16 * i + 12] = (uint8_t)(ci >> 24);
		tmp[16 * i + 13] = (uint8_t)(ci >> 16);
		tmp[16 * i + 14] = (uint8_t)(ci >> 8);
		tmp[16 * i + 15] = (uint8_t)ci;
	}
	if ((nb && !sm4_ecb(key, tmp, 16 * nb, tmp)) || !sm4_ecb(key, j0, 16, ek))
		return 0;
	for (i = 0; i < n; i++)
		out[i] = in[i] ^ tmp[i];
	ghash(y, h, aad, al);
	ghash(y, h, out, n);
	ghash_lens(y, h, al, n);
	for (i = 0; i < tl; i++)
		out[n + i] = y[i] ^ ek[i];
	return 1;
}
