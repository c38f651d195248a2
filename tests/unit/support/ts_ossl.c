/* ts_ossl.c - see ts_ossl.h. */
#include "ts_ossl.h"

#include <string.h>

int ts_ossl_crypt(const EVP_CIPHER *c, int enc, int pad, const uint8_t *k,
                  const uint8_t *iv, size_t ivl, const uint8_t *aad,
                  size_t al, size_t tl, const uint8_t *in, size_t n,
                  uint8_t *out, size_t *ol)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ok, gcm = EVP_CIPHER_get_mode(c) == EVP_CIPH_GCM_MODE;

	ok = x != NULL && EVP_CipherInit_ex(x, c, NULL, NULL, NULL, enc);
	if (ok && gcm)
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IVLEN, (int)ivl, NULL);
	ok = ok && EVP_CipherInit_ex(x, NULL, NULL, k, iv, enc);
	ok = ok && EVP_CIPHER_CTX_set_padding(x, pad);
	if (ok && gcm && al > 0)
		ok = EVP_CipherUpdate(x, NULL, &l1, aad, (int)al);
	if (ok && gcm && !enc) {
		if (n < tl) {
			ok = 0;
		} else {
			n -= tl;
			ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_TAG, (int)tl,
			                         (void *)(in + n));
		}
	}
	ok = ok && EVP_CipherUpdate(x, out, &l1, in, (int)n);
	ok = ok && EVP_CipherFinal_ex(x, out + l1, &l2);
	*ol = (size_t)(l1 + l2);
	if (ok && gcm && enc) {
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, (int)tl, out + *ol);
		*ol += tl;
	}
	EVP_CIPHER_CTX_free(x);
	return ok;
}

/* X = X * Y in GF(2^128), GCM bit order (SP 800-38D algorithm 1). */
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

static void inc32(uint8_t c[16])
{
	int j;

	for (j = 15; j >= 12; j--)
		if (++c[j] != 0)
			break;
}

int ts_gcm_ecb(const EVP_CIPHER *ecb, const uint8_t *key, const uint8_t *iv, size_t ivl,
               const uint8_t *aad, size_t al, const uint8_t *in, size_t n, size_t tl,
               uint8_t *out)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	uint8_t h[16] = { 0 }, j0[16] = { 0 }, ctr[16], ks[16], ek[16], y[16] = { 0 };
	size_t off, i;
	int l, ok;

	ok = x != NULL && tl <= 16 && EVP_EncryptInit_ex(x, ecb, NULL, key, NULL) &&
	     EVP_CIPHER_CTX_set_padding(x, 0) && EVP_EncryptUpdate(x, h, &l, h, 16);
	if (ok && ivl == 12) {
		memcpy(j0, iv, 12);
		j0[15] = 1;
	} else if (ok) {
		ghash(j0, h, iv, ivl);
		ghash_lens(j0, h, 0, ivl);
	}
	memcpy(ctr, j0, 16);
	for (off = 0; ok && off < n; off += 16) {
		inc32(ctr);                     /* GCTR starts at inc32(J0) */
		ok = EVP_EncryptUpdate(x, ks, &l, ctr, 16);
		for (i = 0; i < 16 && off + i < n; i++)
			out[off + i] = in[off + i] ^ ks[i];
	}
	ok = ok && EVP_EncryptUpdate(x, ek, &l, j0, 16);
	if (ok) {
		ghash(y, h, aad, al);
		ghash(y, h, out, n);
		ghash_lens(y, h, al, n);
		for (i = 0; i < tl; i++)
			out[n + i] = y[i] ^ ek[i];
	}
	EVP_CIPHER_CTX_free(x);
	return ok;
}
