/* pv_bulk.c - large copies and wipes with non-temporal stores (pv_bulk.h). */
#define _DEFAULT_SOURCE
#include "gpu/host/pv_bulk.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>

/* Bytes before p's next 16-byte boundary. */
static size_t head16(const void *p)
{
	return (size_t)(-(uintptr_t)p & 15u);
}

void pv_bulk_copy(void *dst, const void *src, size_t n)
{
	uint8_t *d = (uint8_t *)dst;
	const uint8_t *s = (const uint8_t *)src;
	size_t h, i;

	if (n < PV_BULK_MIN) {
		memcpy(dst, src, n);
		return;
	}
	h = head16(d);
	memcpy(d, s, h);
	d += h, s += h, n -= h;
	for (i = 0; i + 64 <= n; i += 64) {
		const __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
		const __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
		const __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
		const __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
		_mm_stream_si128((__m128i *)(d + i), a);
		_mm_stream_si128((__m128i *)(d + i + 16), b);
		_mm_stream_si128((__m128i *)(d + i + 32), c);
		_mm_stream_si128((__m128i *)(d + i + 48), e);
	}
	_mm_sfence();   /* the stores are visible before the caller publishes */
	memcpy(d + i, s + i, n - i);
}

void pv_bulk_wipe(void *p, size_t n)
{
	uint8_t *d = (uint8_t *)p;
	const __m128i z = _mm_setzero_si128();
	size_t h, i;

	if (n < PV_BULK_MIN) {
		explicit_bzero(p, n);
		return;
	}
	h = head16(d);
	explicit_bzero(d, h);
	d += h, n -= h;
	for (i = 0; i + 16 <= n; i += 16)
		_mm_stream_si128((__m128i *)(d + i), z);
	_mm_sfence();
	explicit_bzero(d + i, n - i);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

#else

void pv_bulk_copy(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

void pv_bulk_wipe(void *p, size_t n)
{
	explicit_bzero(p, n);
}

#endif
