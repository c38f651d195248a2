/*
 * ps_modes.c - modes OpenSSL 3.0 does not offer, built on its ECB for
 * p11stress's oracle: CTR with a counter of any width (PKCS#11's
 * ulCounterBits: only the low bits count, and wrap), and SM4-GCM (RFC 8998;
 * NIST SP 800-38D: H = E(0), J0 from the IV, GCTR = CTR with a 32-bit
 * counter, a bitwise GHASH: slow and obviously right is what an oracle
 * wants).
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

static int ecb(const EVP_CIPHER *c, const uint8_t *key, const uint8_t *in, size_t n,
               uint8_t *out)
{
	size_t ol;

	return ts_ossl_crypt(c, 1, 0, key, NULL, 0, NULL, 0, 0, in, n, out, &ol) && ol == n;
}

/* c + 1 within the low `bits` bits of the big-endian block c. */
static void ctr_inc(uint8_t c[16], unsigned bits)
{
	int j;

	for (j = 15; j >= 0 && bits > 0; j--) {
		unsigned w = bits >= 8 ? 8 : bits;
		uint8_t mask = (uint8_t)((1u << w) - 1);
		uint8_t v = (uint8_t)(((c[j] & mask) + 1) & mask);
		c[j] = (uint8_t)((c[j] & ~mask) | v);
		bits -= w;
		if (v != 0)
			break;                          /* no carry */
	}
}

int ps_ctr(const EVP_CIPHER *ecb_c, const uint8_t *key, const uint8_t cb[16], unsigned bits,
           const uint8_t *in, size_t n, uint8_t *out, uint8_t *tmp)
{
	size_t nb = (n + 15) / 16, i;
	uint8_t ctr[16];

	memcpy(ctr, cb, 16);
	for (i = 0; i < nb; i++) {
		memcpy(tmp + 16 * i, ctr, 16);
		ctr_inc(ctr, bits);
	}
	if (nb && !ecb(ecb_c, key, tmp, 16 * nb, tmp))
		return 0;
	for (i = 0; i < n; i++)
		out[i] = in[i] ^ tmp[i];
	return 1;
}

int ps_sm4_gcm(const uint8_t key[16], const uint8_t *iv, size_t ivl, const uint8_t *aad,
               size_t al, const uint8_t *in, size_t n, size_t tl, uint8_t *out, uint8_t *tmp)
{
	const EVP_CIPHER *sm4 = ps_cipher("SM4-ECB");
	uint8_t h[16] = { 0 }, j0[16] = { 0 }, j1[16], ek[16], y[16] = { 0 };
	size_t i;

	if (!ecb(sm4, key, h, 16, h))
		return 0;
	if (ivl == 12) {
		memcpy(j0, iv, 12);
		j0[15] = 1;
	} else {
		ghash(j0, h, iv, ivl);
		ghash_lens(j0, h, 0, ivl);
	}
	memcpy(j1, j0, 16);
	ctr_inc(j1, 32);                                /* GCTR starts at inc32(J0) */
	if (!ecb(sm4, key, j0, 16, ek) || !ps_ctr(sm4, key, j1, 32, in, n, out, tmp))
		return 0;
	ghash(y, h, aad, al);
	ghash(y, h, out, n);
	ghash_lens(y, h, al, n);
	for (i = 0; i < tl; i++)
		out[n + i] = y[i] ^ ek[i];
	return 1;
}
