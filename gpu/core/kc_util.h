/*
 * kc_util.h - byte helpers and constant-time control words for gpu/core.
 * No libc: these replace memcpy/memset/memcmp inside the vault.
 * Control words: 0 or 1 in a uint32_t ("ctl"), as in BearSSL.
 */
#ifndef KC_UTIL_H
#define KC_UTIL_H

#include "kc_defs.h"

/* The one wipe function; use it on every exit path.  The compiler cannot
 * drop it: on the host it writes through a volatile pointer, on the GPU the
 * stores are followed by an asm statement that takes the pointer and
 * clobbers memory. */
KC_API void kc_wipe(void *p, size_t n);

/* The wipe of a fully unrolled primitive's temporaries (KC_UNROLL), which
 * the GPU keeps in registers (docs/gpu-kernel.md lists such functions'
 * stack frames: 0): there a volatile wipe would force them into local
 * memory, the very leak it exists to prevent.  The host wipes them. */
#ifdef __CUDA_ARCH__
#define KC_WIPE_REGS(p, n) ((void)(p), (void)(n))
#else
#define KC_WIPE_REGS(p, n) kc_wipe((p), (n))
#endif

KC_API void kc_memcpy(void *dst, const void *src, size_t n);
KC_API void kc_memmove(void *dst, const void *src, size_t n);
KC_API void kc_memset(void *dst, uint8_t v, size_t n);

/* The OR of the n bytes at p folded into 32 bits: 0 exactly when they are
 * all zero.  Constant time (8-byte words where p allows). */
KC_API uint32_t kc_or_bytes(const void *p, size_t n);

/* Constant-time comparison: returns 1 if equal, 0 otherwise. */
KC_API uint32_t kc_ct_eq(const void *a, const void *b, size_t n);

/* ctl helpers */
KC_PRIV uint32_t kc_ctl_not(uint32_t c) { return c ^ 1u; }
KC_PRIV uint32_t kc_ctl_eq32(uint32_t x, uint32_t y)
{
	uint32_t q = x ^ y;
	return ((q | (uint32_t)(0u - q)) >> 31) ^ 1u;
}
KC_PRIV uint32_t kc_ctl_neq32(uint32_t x, uint32_t y) { return kc_ctl_eq32(x, y) ^ 1u; }
/* 1 if x > y (unsigned) */
KC_PRIV uint32_t kc_ctl_gt32(uint32_t x, uint32_t y)
{
	uint32_t z = y - x;
	return (z ^ ((x ^ y) & (x ^ z))) >> 31;
}
/* 1 if x < y (unsigned) */
KC_PRIV uint32_t kc_ctl_lt32(uint32_t x, uint32_t y) { return kc_ctl_gt32(y, x); }
KC_PRIV uint32_t kc_ctl_mux32(uint32_t ctl, uint32_t x, uint32_t y)
{
	return y ^ ((uint32_t)(0u - ctl) & (x ^ y));
}
/* Copy src into dst when ctl == 1, leave dst when ctl == 0; constant time. */
KC_API void kc_ct_ccopy(uint32_t ctl, void *dst, const void *src, size_t n);

KC_PRIV uint32_t kc_load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
KC_PRIV void kc_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
KC_PRIV uint32_t kc_load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
KC_PRIV void kc_store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
KC_PRIV uint64_t kc_load_be64(const uint8_t *p)
{
	return ((uint64_t)kc_load_be32(p) << 32) | (uint64_t)kc_load_be32(p + 4);
}
KC_PRIV void kc_store_be64(uint8_t *p, uint64_t v)
{
	kc_store_be32(p, (uint32_t)(v >> 32)); kc_store_be32(p + 4, (uint32_t)v);
}
KC_PRIV uint64_t kc_load_le64(const uint8_t *p)
{
	return (uint64_t)kc_load_le32(p) | ((uint64_t)kc_load_le32(p + 4) << 32);
}
KC_PRIV void kc_store_le64(uint8_t *p, uint64_t v)
{
	kc_store_le32(p, (uint32_t)v); kc_store_le32(p + 4, (uint32_t)(v >> 32));
}
KC_PRIV uint32_t kc_rotl32(uint32_t x, unsigned n) { return (x << n) | (x >> ((32u - n) & 31u)); }
KC_PRIV uint32_t kc_rotr32(uint32_t x, unsigned n) { return (x >> n) | (x << ((32u - n) & 31u)); }
KC_PRIV uint64_t kc_rotl64(uint64_t x, unsigned n) { return (x << n) | (x >> ((64u - n) & 63u)); }
KC_PRIV uint64_t kc_rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << ((64u - n) & 63u)); }

#endif /* KC_UTIL_H */
