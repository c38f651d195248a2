/*
 * kc_ctr.c - CTR (big-endian counter over the low counter_bits bits) and
 * CFB128, both streaming with OpenSSL-style position counters.
 */
#include "gpu/core/sym/kc_sym_int.h"
#ifndef __CUDACC__
#include "gpu/core/cpu/kc_cpu.h"   /* the host's AES-NI CTR */
#endif

/* An execution space may run the full blocks of a CTR stream
 * cooperatively (gpu/cuda/pvc_bn_warp.cuh: the 32 lanes of a warp that
 * run one request with identical data, each encrypting every 32nd counter
 * block), and so may the host's AES instructions (gpu/core/cpu).
 * Returns 1 when it wrote out[0, 16 n) and advanced ctr by n. */
#ifndef KC_CTR_COOP
#define KC_CTR_COOP(bc, ctr, cb, in, out, n) 0
#endif

/* ctr += k over its low cb bits (big-endian, modulo 2^cb), the high bits
 * untouched.  The counter block is public (an IV). */
KC_PRIV void kc_ctr_add(uint8_t ctr[16], uint32_t cb, uint32_t k)
{
	uint64_t carry = k;
	uint32_t j;

	if (cb == 0 || cb > 128)
		cb = 128;
	for (j = 0; j < 16 && 8 * j < cb; j++) {
		uint32_t bits = cb - 8 * j >= 8 ? 8 : cb - 8 * j;
		uint32_t m = (1u << bits) - 1u;
		uint64_t v = ((uint64_t)ctr[15 - j] & m) + carry;
		carry = v >> bits;
		ctr[15 - j] = (uint8_t)(((uint32_t)ctr[15 - j] & ~m) | ((uint32_t)v & m));
	}
}

KC_API void kc_ctr_xcrypt(const kc_bc *bc, uint8_t ctr[16], uint32_t counter_bits,
	uint8_t ks[16], uint32_t *ks_used, const uint8_t *in, uint8_t *out, size_t len)
{
	uint8_t buf[16 * KC_BC_MAX_PAR];
	uint32_t n = *ks_used & 15u;
	size_t i, m;

	while (n != 0 && len > 0) {
		*out++ = *in++ ^ ks[n];
		n = (n + 1) & 15u;
		len--;
	}
	if (len >= 16 && KC_CTR_COOP(bc, ctr, counter_bits, in, out, len / 16)) {
		m = len / 16;
		in += 16 * m;
		out += 16 * m;
		len -= 16 * m;
	}
	while (len >= 16) {
		m = len / 16;
		if (m > KC_BC_MAX_PAR)
			m = KC_BC_MAX_PAR;
		for (i = 0; i < m; i++) {
			kc_memcpy(buf + 16 * i, ctr, 16);
			kc_ctr_add(ctr, counter_bits, 1);
		}
		kc_bc_encrypt_n(bc, buf, buf, m);
		for (i = 0; i < 16 * m; i++)
			out[i] = in[i] ^ buf[i];
		in += 16 * m;
		out += 16 * m;
		len -= 16 * m;
	}
	if (len > 0) {
		kc_bc_encrypt_n(bc, ctr, ks, 1);
		kc_ctr_add(ctr, counter_bits, 1);
		for (i = 0; i < len; i++)
			out[i] = in[i] ^ ks[i];
		n = (uint32_t)len;
	}
	*ks_used = n;
	kc_wipe(buf, sizeof buf);
}

KC_API void kc_cfb128_encrypt(const kc_bc *bc, uint8_t iv[16], uint32_t *num, const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t n = *num & 15u;

	while (len > 0) {
		if (n == 0)
			kc_bc_encrypt_n(bc, iv, iv, 1);
		iv[n] ^= *in++;
		*out++ = iv[n];
		n = (n + 1) & 15u;
		len--;
	}
	*num = n;
}

KC_API void kc_cfb128_decrypt(const kc_bc *bc, uint8_t iv[16], uint32_t *num, const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t n = *num & 15u;
	uint8_t c;

	while (len > 0) {
		if (n == 0)
			kc_bc_encrypt_n(bc, iv, iv, 1);
		c = *in++;
		*out++ = iv[n] ^ c;
		iv[n] = c;
		n = (n + 1) & 15u;
		len--;
	}
	*num = n;
	kc_wipe(&c, sizeof c);
}
