/*
 * kc_sym_int.h - internal interfaces shared by the files of gpu/core/sym.
 * Not for use outside this directory (and gpu/core/cpu, the host's
 * instructions behind the same primitives).
 *
 * Bitsliced representation: eight 32-bit words q[0..7]; bit p of q[i] is bit
 * i of byte p (32 bytes per pass).  Two byte orders are used:
 *   kc_bs_from_words / kc_bs_to_words: byte j of word k is p = 4k + j
 *     (any number of words; key schedules);
 *   kc_bs_ortho8 (in place, 8 words): byte j of word k is p = 8j + k
 *     (AES state and SM4's tau: much cheaper).
 * The S-boxes are bytewise, so either order serves them.
 */
#ifndef KC_SYM_INT_H
#define KC_SYM_INT_H

#include "gpu/core/kc_defs.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/sym/kc_sym.h"

/* kc_sbox_ct.c */
KC_API void kc_bs_from_words(uint32_t q[8], const uint32_t *w, size_t nw);   /* nw <= 8 */
KC_API void kc_bs_to_words(uint32_t *w, const uint32_t q[8], size_t nw);
/* In-place 8 x 8 bit transpose inside every byte lane (an involution):
 * afterwards bit 8L + j of a[i] is bit i of byte L of the former a[j].  A
 * cheaper bitslicing than kc_bs_from_words for bytewise maps (SM4's tau),
 * where only the byte order has to be undone, by a second call. */
KC_API void kc_bs_ortho8(uint32_t a[8]);
KC_API void kc_bs_aes_sbox(uint32_t q[8]);
KC_API void kc_bs_aes_inv_sbox(uint32_t q[8]);
KC_API void kc_bs_sm4_sbox(uint32_t q[8]);

/* kc_aes_ct.c: n = 1 or 2 blocks */
KC_API int  kc_aes_ct_keysched(uint32_t *rk, uint32_t *nr, const uint8_t *key, size_t keylen);
KC_API void kc_aes_ct_encrypt(const uint32_t *rk, uint32_t nr, const uint8_t *in, uint8_t *out, size_t n);
KC_API void kc_aes_ct_decrypt(const uint32_t *rk, uint32_t nr, const uint8_t *in, uint8_t *out, size_t n);

/* kc_sm4.c: n = 1..8 blocks */
KC_API void kc_sm4_keysched(uint32_t *rk, const uint8_t key[16]);
KC_API void kc_sm4_crypt(const uint32_t *rk, uint32_t decrypt, const uint8_t *in, uint8_t *out, size_t n);

/* kc_ghash.c's reduction, shared with the host's PCLMULQDQ product
 * (gpu/core/cpu/kc_cpu_ghash.c): from Karatsuba's three carry-less
 * integer products of two operands in GCM's bit order (z3:z2 of the high
 * halves, z1:z0 of the low ones, m1:m0 of their sums) to their product in
 * GF(2^128), *h:*l. */
KC_PRIV void kc_ghash_reduce(uint64_t z3, uint64_t z2, uint64_t z1, uint64_t z0,
	uint64_t m1, uint64_t m0, uint64_t *h, uint64_t *l)
{
	uint64_t t1 = m1 ^ z3 ^ z1, t0 = m0 ^ z2 ^ z0, w0, w1, w2, w3;

	z2 ^= t1;
	z1 ^= t0;
	/* shift left by one: w0 holds degrees 0..63 (MSB first) */
	w0 = (z3 << 1) | (z2 >> 63);
	w1 = (z2 << 1) | (z1 >> 63);
	w2 = (z1 << 1) | (z0 >> 63);
	w3 = z0 << 1;
	/* fold degrees 192..255, then 128..191: x^128 = x^7 + x^2 + x + 1,
	 * and x^j is a right shift by j in this bit order */
	w1 ^= w3 ^ (w3 >> 1) ^ (w3 >> 2) ^ (w3 >> 7);
	w2 ^= (w3 << 63) ^ (w3 << 62) ^ (w3 << 57);
	w0 ^= w2 ^ (w2 >> 1) ^ (w2 >> 2) ^ (w2 >> 7);
	w1 ^= (w2 << 63) ^ (w2 << 62) ^ (w2 << 57);
	*h = w0;
	*l = w1;
}

/* kc_bc.c: encrypt / decrypt any number of blocks, several per pass */
KC_API void kc_bc_encrypt_n(const kc_bc *bc, const uint8_t *in, uint8_t *out, size_t nblocks);
KC_API void kc_bc_decrypt_n(const kc_bc *bc, const uint8_t *in, uint8_t *out, size_t nblocks);
/* blocks per pass of the bulk path (2 for AES, 8 for SM4) */
#define KC_BC_MAX_PAR 8

#endif /* KC_SYM_INT_H */
