/* kc_util.c - byte helpers, wipe and constant-time compare for gpu/core. */
#include "kc_util.h"

#if defined(__GLIBC__) && !defined(__CUDACC__)
#include <string.h>          /* explicit_bzero (_GNU_SOURCE: meson.build) */
#define KC_HOST_BZERO 1
#endif

/* The byte helpers move 8-byte words where the pointers allow it: on the
 * GPU each call runs on one thread against local memory, where a byte loop
 * over a multi-kilobyte request context costs tens of microseconds.
 * Alignment depends on addresses only, never on data (constant time). */
typedef uint64_t __attribute__((may_alias)) kc_w64;
#define KC_MIS8(p) ((uintptr_t)(p) & 7u)

/* d[0..n) := n copies of the byte in w (w holds it 8 times): bytes up to
 * 8-byte alignment, then on the GPU 16-byte stores (its widest), then
 * 8-byte words, then bytes. */
KC_PRIV void kc_fill(uint8_t *d, uint64_t w, size_t n)
{
	size_t i = 0;
	for (; i < n && KC_MIS8(d + i); i++)
		d[i] = (uint8_t)w;
#ifdef __CUDA_ARCH__
	if (i + 8u <= n && ((uintptr_t)(d + i) & 8u) != 0u) {
		*(kc_w64 *)(d + i) = w;
		i += 8u;
	}
	for (; i + 16u <= n; i += 16u)
		*(ulonglong2 *)(d + i) = make_ulonglong2(w, w);
#endif
	for (; i + 8u <= n; i += 8u)
		*(kc_w64 *)(d + i) = w;
	for (; i < n; i++)
		d[i] = (uint8_t)w;
}

KC_API void kc_wipe(void *p, size_t n)
{
#ifdef __CUDA_ARCH__
	/* Plain stores: a volatile one compiles to ST.STRONG.SYS, a
	 * system-scope store per word.  They cannot be dropped: the asm below
	 * receives p and may read any memory. */
	kc_fill((uint8_t *)p, 0, n);
	asm volatile("" : : "l"(p) : "memory");
#elif defined(KC_HOST_BZERO)
	/* glibc's memset behind a barrier: vector stores, where the volatile
	 * word loop below stores 8 bytes at a time (a session's 3.7 KB
	 * operation record per digest: 1.6 % of a 4 KiB SHA-256 on the CPU
	 * backend, perf) */
	explicit_bzero(p, n);
#else
	volatile uint8_t *v = (volatile uint8_t *)p;
	size_t i = 0;
	for (; i < n && KC_MIS8(v + i); i++)
		v[i] = 0;
	for (; i + 8u <= n; i += 8u)
		*(volatile kc_w64 *)(v + i) = 0;
	for (; i < n; i++)
		v[i] = 0;
#endif
}

/* Four words loaded before any is stored: dst and src may alias as far
 * as the compiler knows, so a word-at-a-time loop waits for each load
 * before the next (on the GPU a round trip to L2 a word when the L1 does
 * not hold a lane's context). */
KC_API void kc_memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = (uint8_t *)dst;
	const uint8_t *s = (const uint8_t *)src;
	size_t i = 0;
	if (KC_MIS8(d) == KC_MIS8(s)) {
		for (; i < n && KC_MIS8(d + i); i++)
			d[i] = s[i];
		for (; i + 32u <= n; i += 32u) {
			const uint64_t w0 = *(const kc_w64 *)(s + i), w1 = *(const kc_w64 *)(s + i + 8u);
			const uint64_t w2 = *(const kc_w64 *)(s + i + 16u), w3 = *(const kc_w64 *)(s + i + 24u);
			*(kc_w64 *)(d + i) = w0;
			*(kc_w64 *)(d + i + 8u) = w1;
			*(kc_w64 *)(d + i + 16u) = w2;
			*(kc_w64 *)(d + i + 24u) = w3;
		}
		for (; i + 8u <= n; i += 8u)
			*(kc_w64 *)(d + i) = *(const kc_w64 *)(s + i);
	}
	for (; i < n; i++)
		d[i] = s[i];
}

KC_API void kc_memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = (uint8_t *)dst;
	const uint8_t *s = (const uint8_t *)src;
	size_t i;
	if (d == s || n == 0)
		return;
	if (d < s) {
		for (i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		for (i = n; i > 0; i--)
			d[i - 1] = s[i - 1];
	}
}

KC_API void kc_memset(void *dst, uint8_t v, size_t n)
{
	kc_fill((uint8_t *)dst, (uint64_t)v * 0x0101010101010101ull, n);
}

KC_API uint32_t kc_or_bytes(const void *p, size_t n)
{
	const uint8_t *s = (const uint8_t *)p;
	uint64_t acc = 0;
	size_t i = 0;
	for (; i < n && KC_MIS8(s + i); i++)
		acc |= s[i];
	for (; i + 32u <= n; i += 32u)         /* four loads in flight */
		acc |= *(const kc_w64 *)(s + i) | *(const kc_w64 *)(s + i + 8u) |
		       *(const kc_w64 *)(s + i + 16u) | *(const kc_w64 *)(s + i + 24u);
	for (; i + 8u <= n; i += 8u)
		acc |= *(const kc_w64 *)(s + i);
	for (; i < n; i++)
		acc |= s[i];
	return (uint32_t)(acc | (acc >> 32));
}

KC_API uint32_t kc_ct_eq(const void *a, const void *b, size_t n)
{
	const uint8_t *x = (const uint8_t *)a;
	const uint8_t *y = (const uint8_t *)b;
	uint32_t acc = 0;
	size_t i;
	for (i = 0; i < n; i++)
		acc |= (uint32_t)(x[i] ^ y[i]);
	return kc_ctl_eq32(acc, 0);
}

KC_API void kc_ct_ccopy(uint32_t ctl, void *dst, const void *src, size_t n)
{
	uint8_t *d = (uint8_t *)dst;
	const uint8_t *s = (const uint8_t *)src;
	uint8_t m = (uint8_t)(0u - ctl);
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = (uint8_t)(d[i] ^ (m & (d[i] ^ s[i])));
}
