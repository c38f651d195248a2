/*
 * kc_bn.c - constant-time big-integer basics: encode/decode, add/sub,
 * compare, conditional copy, schoolbook multiply, small divisors, generic
 * reduction.  See kc_bn.h for the representation.
 */
#include "kc_bn.h"
#include "../kc_util.h"

/* The schoolbook product may be done cooperatively by an execution space
 * (gpu/cuda/pvc_bn_warp.cuh: a warp's lanes running one request with
 * identical data, kc_bn_mont.c's hooks); 1 = done with the same result. */
#ifndef KC_BN_COOP_MUL
#define KC_BN_COOP_MUL(d, x, xl, y, yl) 0
#endif

KC_API void kc_bn_zero(uint32_t *x, size_t nl)
{
	size_t i;
	for (i = 0; i < nl; i++)
		x[i] = 0;
}

/* Limb i holds the bytes of significance 4i..4i+3, src[len - 4i - 4 ..
 * len - 4i - 1]: each limb is assembled in a register and stored once (a
 * byte-wise read-modify-write of the limb array would wait on local
 * memory for every byte on the GPU).  Where src + len is 4-byte aligned a
 * limb is one
 * 32-bit load, byte-swapped, and the bytes above the limbs are ORed by
 * words (kc_or_bytes): an RSA key's fields are right-aligned in fields
 * sized for the largest key, so a 2,048-bit key's n leaves 256 such
 * bytes and each CRT number 128.  Four limbs are loaded before any is
 * stored (x and src may alias as far as the compiler knows: one limb at a
 * time waits for each load).  Alignment depends on addresses only. */
typedef uint32_t __attribute__((may_alias)) kc_bn_w32;

KC_PRIV uint32_t kc_bn_bswap32(uint32_t v)
{
#ifdef __CUDA_ARCH__
	return __byte_perm(v, 0u, 0x0123u);
#else
	return __builtin_bswap32(v);
#endif
}

KC_API uint32_t kc_bn_decode(uint32_t *x, size_t nl, const uint8_t *src, size_t len)
{
	const int aligned = ((uintptr_t)(src + len) & 3u) == 0u;
	size_t i, j;
	for (i = 0; aligned && i + 4u <= nl && 4u * i + 16u <= len; i += 4u) {
		const uint8_t *p = src + len - 4u * i - 16u;
		const uint32_t w0 = *(const kc_bn_w32 *)(p + 12), w1 = *(const kc_bn_w32 *)(p + 8);
		const uint32_t w2 = *(const kc_bn_w32 *)(p + 4), w3 = *(const kc_bn_w32 *)p;
		x[i] = kc_bn_bswap32(w0);
		x[i + 1u] = kc_bn_bswap32(w1);
		x[i + 2u] = kc_bn_bswap32(w2);
		x[i + 3u] = kc_bn_bswap32(w3);
	}
	for (; i < nl; i++) {
		uint32_t w = 0;
		if (4u * i + 4u <= len) {
			const uint8_t *p = src + len - 4u * i - 4u;
			w = aligned ? kc_bn_bswap32(*(const kc_bn_w32 *)p) : kc_load_be32(p);
		} else {
			for (j = 4u * i; j < len; j++)
				w |= (uint32_t)src[len - 1u - j] << (8u * (uint32_t)(j & 3u));
		}
		x[i] = w;
	}
	return len > 4u * nl ? kc_ctl_eq32(kc_or_bytes(src, len - 4u * nl), 0) : 1u;
}

KC_API void kc_bn_encode(uint8_t *dst, size_t len, const uint32_t *x, size_t nl)
{
	size_t i, j;
	for (i = 0; 4u * i < len; i++) {
		const uint32_t w = i < nl ? x[i] : 0u;
		if (4u * i + 4u <= len) {
			kc_store_be32(dst + len - 4u * i - 4u, w);
		} else {
			for (j = 4u * i; j < len; j++)
				dst[len - 1u - j] = (uint8_t)(w >> (8u * (uint32_t)(j & 3u)));
		}
	}
}

KC_API uint32_t kc_bn_add(uint32_t *x, const uint32_t *y, size_t nl, uint32_t ctl)
{
	uint32_t cc = 0;
	size_t i;
	for (i = 0; i < nl; i++) {
		uint32_t a = x[i];
		uint64_t s = (uint64_t)a + (uint64_t)y[i] + (uint64_t)cc;
		cc = (uint32_t)(s >> 32);
		x[i] = kc_ctl_mux32(ctl, (uint32_t)s, a);
	}
	return cc;
}

KC_API uint32_t kc_bn_sub(uint32_t *x, const uint32_t *y, size_t nl, uint32_t ctl)
{
	uint32_t cc = 0;
	size_t i;
	for (i = 0; i < nl; i++) {
		uint32_t a = x[i];
		uint64_t s = (uint64_t)a - (uint64_t)y[i] - (uint64_t)cc;
		cc = (uint32_t)(s >> 32) & 1u;
		x[i] = kc_ctl_mux32(ctl, (uint32_t)s, a);
	}
	return cc;
}

KC_API uint32_t kc_bn_lt(const uint32_t *x, const uint32_t *y, size_t nl)
{
	uint32_t cc = 0;
	size_t i;
	for (i = 0; i < nl; i++) {
		uint64_t s = (uint64_t)x[i] - (uint64_t)y[i] - (uint64_t)cc;
		cc = (uint32_t)(s >> 32) & 1u;
	}
	return cc;
}

KC_API uint32_t kc_bn_eq(const uint32_t *x, const uint32_t *y, size_t nl)
{
	uint32_t acc = 0;
	size_t i;
	for (i = 0; i < nl; i++)
		acc |= x[i] ^ y[i];
	return kc_ctl_eq32(acc, 0);
}

KC_API uint32_t kc_bn_iszero(const uint32_t *x, size_t nl)
{
	uint32_t acc = 0;
	size_t i;
	for (i = 0; i < nl; i++)
		acc |= x[i];
	return kc_ctl_eq32(acc, 0);
}

KC_API void kc_bn_ccopy(uint32_t ctl, uint32_t *dst, const uint32_t *src, size_t nl)
{
	uint32_t m = 0u - ctl;
	size_t i;
	for (i = 0; i < nl; i++)
		dst[i] ^= m & (dst[i] ^ src[i]);
}

KC_PRIV uint32_t kc_bn_gt32(uint32_t x, uint32_t y) { return kc_ctl_lt32(y, x); }

KC_PRIV uint32_t kc_bn_bitlen32(uint32_t x)
{
	uint32_t k = kc_ctl_neq32(x, 0), c;
	c = kc_bn_gt32(x, 0xFFFFu); x = kc_ctl_mux32(c, x >> 16, x); k += c << 4;
	c = kc_bn_gt32(x, 0xFFu);   x = kc_ctl_mux32(c, x >> 8, x);  k += c << 3;
	c = kc_bn_gt32(x, 0x0Fu);   x = kc_ctl_mux32(c, x >> 4, x);  k += c << 2;
	c = kc_bn_gt32(x, 0x03u);   x = kc_ctl_mux32(c, x >> 2, x);  k += c << 1;
	k += kc_bn_gt32(x, 0x01u);
	return k;
}

KC_API uint32_t kc_bn_bitlen(const uint32_t *x, size_t nl)
{
	uint32_t bl = 0;
	size_t i;
	for (i = 0; i < nl; i++) {
		uint32_t nz = kc_ctl_neq32(x[i], 0);
		bl = kc_ctl_mux32(nz, 32u * (uint32_t)i + kc_bn_bitlen32(x[i]), bl);
	}
	return bl;
}

KC_API void kc_bn_mul(uint32_t *d, const uint32_t *x, size_t xl, const uint32_t *y, size_t yl)
{
	size_t i, j;
	if (KC_BN_COOP_MUL(d, x, xl, y, yl))
		return;
	kc_bn_zero(d, xl + yl);
	for (i = 0; i < xl; i++) {
		uint32_t cc = 0, xi = x[i];
		for (j = 0; j < yl; j++) {
			uint64_t t = (uint64_t)xi * (uint64_t)y[j] + (uint64_t)d[i + j] + (uint64_t)cc;
			d[i + j] = (uint32_t)t;
			cc = (uint32_t)(t >> 32);
		}
		d[i + yl] = cc;
	}
}

KC_API uint32_t kc_bn_mul_small(uint32_t *x, size_t nl, uint32_t k, uint32_t a)
{
	uint32_t cc = a;
	size_t i;
	for (i = 0; i < nl; i++) {
		uint64_t t = (uint64_t)x[i] * (uint64_t)k + (uint64_t)cc;
		x[i] = (uint32_t)t;
		cc = (uint32_t)(t >> 32);
	}
	return cc;
}

KC_API uint32_t kc_bn_mod_small(const uint32_t *x, size_t nl, uint32_t k)
{
	uint32_t r = 0;
	size_t i;
	int b;
	for (i = nl; i > 0; i--) {
		uint32_t w = x[i - 1];
		for (b = 31; b >= 0; b--) {
			r = (r << 1) | ((w >> b) & 1u);
			r -= k & (0u - (kc_ctl_lt32(r, k) ^ 1u));
		}
	}
	return r;
}

KC_API uint32_t kc_bn_div_small(uint32_t *x, size_t nl, uint32_t k)
{
	uint32_t r = 0;
	size_t i;
	int b;
	for (i = nl; i > 0; i--) {
		uint32_t w = x[i - 1], q = 0;
		for (b = 31; b >= 0; b--) {
			uint32_t ge;
			r = (r << 1) | ((w >> b) & 1u);
			ge = kc_ctl_lt32(r, k) ^ 1u;
			r -= k & (0u - ge);
			q |= ge << b;
		}
		x[i - 1] = q;
	}
	return r;
}

KC_API void kc_bn_rshift1(uint32_t *x, size_t nl, uint32_t hi)
{
	size_t i;
	for (i = 0; i < nl; i++) {
		uint32_t next = (i + 1 < nl) ? x[i + 1] : hi;
		x[i] = (x[i] >> 1) | (next << 31);
	}
}

KC_API void kc_bn_reduce(uint32_t *r, const uint32_t *a, size_t al, const uint32_t *m, size_t ml)
{
	size_t i, j;
	int b;
	kc_bn_zero(r, ml);
	for (i = al; i > 0; i--) {
		uint32_t w = a[i - 1];
		for (b = 31; b >= 0; b--) {
			/* r = 2r + bit; r < m before, so 2r + 1 < 2m */
			uint32_t cin = (w >> b) & 1u, c;
			for (j = 0; j < ml; j++) {
				uint32_t t = r[j];
				r[j] = (t << 1) | cin;
				cin = t >> 31;
			}
			c = cin;
			c |= kc_bn_lt(r, m, ml) ^ 1u;
			kc_bn_sub(r, m, ml, c);
		}
	}
}

KC_API void kc_bn_div(uint32_t *q, uint32_t *r, const uint32_t *a, const uint32_t *m, size_t nl)
{
	size_t i, j;
	int b;
	kc_bn_zero(r, nl);
	for (i = nl; i > 0; i--) {
		uint32_t w = a[i - 1], qw = 0;
		for (b = 31; b >= 0; b--) {
			uint32_t cin = (w >> b) & 1u, c;
			for (j = 0; j < nl; j++) {
				uint32_t t = r[j];
				r[j] = (t << 1) | cin;
				cin = t >> 31;
			}
			c = cin | (kc_bn_lt(r, m, nl) ^ 1u);
			kc_bn_sub(r, m, nl, c);
			qw |= c << b;
		}
		q[i - 1] = qw;
	}
}
