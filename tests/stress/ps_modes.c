/*
 * ps_modes.c - CTR with a counter of any width (PKCS#11's ulCounterBits:
 * only the low bits count, and wrap), which OpenSSL 3.0 does not offer,
 * built on its ECB for p11stress's oracle.  (SM4-GCM: ts_gcm_ecb in
 * tests/unit/support/ts_ossl.c.)
 */
#include <string.h>

#include "ps.h"
#include "ts_ossl.h"

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
