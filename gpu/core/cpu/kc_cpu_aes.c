/*
 * kc_cpu_aes.c - AES with AES-NI (kc_cpu.h).
 *
 * The key schedule is FIPS-197's, with SubWord taken from AESKEYGENASSIST
 * (no table); decryption uses the equivalent inverse cipher (AESIMC of
 * the middle round keys).  kc_bc.rk holds the (nr + 1) encryption round
 * keys, then the (nr + 1) decryption ones: 2 x 15 x 4 = 120 words for
 * AES-256, the bitsliced schedule's size.  Blocks go through eight at a
 * time, so that the rounds of independent blocks overlap; CTR makes its
 * counter blocks in registers (kc_ctr.c builds and copies each one).
 */
#include "gpu/core/cpu/kc_cpu.h"
#include "gpu/core/kc_util.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define KC_AESNI __attribute__((target("aes,sse4.1")))

/* SubWord(w) */
KC_AESNI static uint32_t kc_cpu_subword(uint32_t w)
{
	__m128i v = _mm_set_epi32(0, 0, (int)w, 0);
	return (uint32_t)_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(v, 0));
}

KC_AESNI int kc_cpu_aes_init(kc_bc *bc, const uint8_t *key, size_t keylen)
{
	static const uint8_t rcon[10] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36 };
	uint32_t w[60], t;
	size_t nk = keylen / 4, nr, nw, i;
	__m128i *ek = (__m128i *)(void *)bc->rk;
	__m128i *dk;

	if (!(kc_cpu_features() & KC_CPU_AES) || (keylen != 16 && keylen != 24 && keylen != 32))
		return 0;
	nr = nk + 6;
	nw = 4 * (nr + 1);
	for (i = 0; i < nk; i++)
		w[i] = kc_load_le32(key + 4 * i);
	for (i = nk; i < nw; i++) {
		t = w[i - 1];
		if (i % nk == 0) {
			t = kc_cpu_subword(t);          /* SubWord(RotWord(t)) = RotWord(SubWord(t)) */
			t = ((t >> 8) | (t << 24)) ^ rcon[i / nk - 1];
		}
		else if (nk > 6 && i % nk == 4)
			t = kc_cpu_subword(t);
		w[i] = w[i - nk] ^ t;
	}
	kc_memset(bc, 0, sizeof *bc);
	bc->alg = KC_BC_AES_HW;
	bc->nr = (uint32_t)nr;
	for (i = 0; i <= nr; i++)
		_mm_storeu_si128(ek + i, _mm_set_epi32((int)w[4 * i + 3], (int)w[4 * i + 2],
		                                       (int)w[4 * i + 1], (int)w[4 * i]));
	dk = ek + nr + 1;
	_mm_storeu_si128(dk, _mm_loadu_si128(ek + nr));
	for (i = 1; i < nr; i++)
		_mm_storeu_si128(dk + i, _mm_aesimc_si128(_mm_loadu_si128(ek + nr - i)));
	_mm_storeu_si128(dk + nr, _mm_loadu_si128(ek));
	kc_wipe(w, sizeof w);
	kc_wipe(&t, sizeof t);
	return 1;
}

/* zero the blocks (keystream, plaintext) in memory and registers */
KC_AESNI static inline void kc_cpu_aes_wipe(__m128i b[8])
{
	int j;

	for (j = 0; j < 8; j++)
		b[j] = _mm_setzero_si128();
	__asm__ volatile("" : : "r"(b) : "memory");
}

/* the rounds over 8 blocks: the loops have constant trip counts, so the
 * blocks stay in registers */
KC_AESNI static inline void kc_cpu_aes8(const __m128i *rk, uint32_t nr, int dec, __m128i b[8])
{
	__m128i k;
	uint32_t r;
	int j;

	k = _mm_loadu_si128(rk);
	KC_UNROLL
	for (j = 0; j < 8; j++)
		b[j] = _mm_xor_si128(b[j], k);
	for (r = 1; r < nr; r++) {
		k = _mm_loadu_si128(rk + r);
		if (dec) {
			KC_UNROLL
			for (j = 0; j < 8; j++)
				b[j] = _mm_aesdec_si128(b[j], k);
		} else {
			KC_UNROLL
			for (j = 0; j < 8; j++)
				b[j] = _mm_aesenc_si128(b[j], k);
		}
	}
	k = _mm_loadu_si128(rk + nr);
	if (dec) {
		KC_UNROLL
		for (j = 0; j < 8; j++)
			b[j] = _mm_aesdeclast_si128(b[j], k);
	} else {
		KC_UNROLL
		for (j = 0; j < 8; j++)
			b[j] = _mm_aesenclast_si128(b[j], k);
	}
}

KC_AESNI void kc_cpu_aes_crypt(const kc_bc *bc, int dec, const uint8_t *in, uint8_t *out, size_t nblocks)
{
	const __m128i *rk = (const __m128i *)(const void *)bc->rk + (dec ? bc->nr + 1 : 0);
	__m128i b[8];
	size_t n, j;

	while (nblocks > 0) {
		n = nblocks < 8 ? nblocks : 8;
		for (j = 0; j < 8; j++)      /* a short tail: the rest are zeros */
			b[j] = j < n ? _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * j))
			             : _mm_setzero_si128();
		kc_cpu_aes8(rk, bc->nr, dec, b);
		for (j = 0; j < n; j++)
			_mm_storeu_si128((__m128i *)(void *)(out + 16 * j), b[j]);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	kc_cpu_aes_wipe(b);
}

/* ctr (hi:lo, big-endian halves) + 1 in its low cb bits (kc_ctr_add's
 * rule: 0 or above 128 is 128); the counter block is public */
static inline void kc_cpu_ctr_inc(uint64_t *hi, uint64_t *lo, uint32_t cb)
{
	if (cb == 0 || cb >= 128) {
		*lo += 1;
		*hi += *lo == 0;
	} else if (cb > 64) {
		const uint64_t m = ((uint64_t)1 << (cb - 64)) - 1u;
		*lo += 1;
		*hi = (*hi & ~m) | ((*hi + (*lo == 0)) & m);
	} else {
		const uint64_t m = cb == 64 ? ~(uint64_t)0 : ((uint64_t)1 << cb) - 1u;
		*lo = (*lo & ~m) | ((*lo + 1u) & m);
	}
}

KC_AESNI int kc_cpu_ctr(const kc_bc *bc, uint8_t ctr[16], uint32_t cb,
                        const uint8_t *in, uint8_t *out, size_t nblocks)
{
	const __m128i *rk = (const __m128i *)(const void *)bc->rk;
	uint64_t hi, lo;
	__m128i b[8];
	size_t n, j;

	if (bc->alg != KC_BC_AES_HW)
		return 0;
	hi = kc_load_be64(ctr);
	lo = kc_load_be64(ctr + 8);
	while (nblocks > 0) {
		n = nblocks < 8 ? nblocks : 8;
		for (j = 0; j < 8; j++) {
			b[j] = _mm_set_epi64x((long long)__builtin_bswap64(lo), (long long)__builtin_bswap64(hi));
			if (j < n)
				kc_cpu_ctr_inc(&hi, &lo, cb);
		}
		kc_cpu_aes8(rk, bc->nr, 0, b);
		for (j = 0; j < n; j++) {
			__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * j));
			_mm_storeu_si128((__m128i *)(void *)(out + 16 * j), _mm_xor_si128(b[j], x));
		}
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	kc_store_be64(ctr, hi);
	kc_store_be64(ctr + 8, lo);
	kc_cpu_aes_wipe(b);
	return 1;
}

#else

int kc_cpu_ctr(const kc_bc *bc, uint8_t ctr[16], uint32_t cb,
               const uint8_t *in, uint8_t *out, size_t nblocks)
{
	(void)bc; (void)ctr; (void)cb; (void)in; (void)out; (void)nblocks;
	return 0;
}

int kc_cpu_aes_init(kc_bc *bc, const uint8_t *key, size_t keylen)
{
	(void)bc; (void)key; (void)keylen;
	return 0;
}

void kc_cpu_aes_crypt(const kc_bc *bc, int dec, const uint8_t *in, uint8_t *out, size_t nblocks)
{
	(void)bc; (void)dec; (void)in; (void)out; (void)nblocks;
}

#endif
