/*
 * pvc_ec_warp.cuh - warp-cooperative fixed-base scalar multiplication k*G
 * for P-256, SM2 and P-384 (the KC_EC_COOP_MULGEN hook of
 * gpu/core/ec/kc_ec_point.c).
 *
 * The vault kernel runs ECDSA and SM2 SIGN requests on all 32 lanes of
 * warp 0 with identical data (pvc_coop set, pvc_lanes in vault_kernel.cu),
 * as it does RSA (pvc_bn_warp.cuh).  The serial comb of kc_ecp_mulgen
 * computes
 *     k*G = sum over s = 0..d-1 of 2^s * T[idx_s],   d = bits / 4,
 * idx_s = the bits of k at s, s + d, s + 2d, s + 3d, by d doublings and d
 * additions in sequence.  Here every column s has its own precomputed
 * table C[s][i] = 2^s * T[i] (gen_tables.py --warp-comb, built into
 * pvc_ec_comb_tables.h), so the sum needs no doubling: lane L takes the
 * columns s = 32 g + L (g < d / 32: 2 columns per lane on P-256 / SM2, 3
 * on P-384), adds their entries, and an xor butterfly over 5 levels
 * (__shfl_xor_sync of X, Y, Z, then the complete addition) leaves the whole
 * sum in every lane: 1 + 5 additions (P-384: 2 + 5) in sequence instead of
 * 64 doublings + 64 additions.  The lanes' sums are then replaced by lane
 * 0's (one shuffle per word), so that every lane continues with exactly the
 * same projective point.  The result is the same point as the serial comb's,
 * possibly in another projective representation (callers only use it
 * through affine coordinates).  tests/tools/pvce_model.py models the lane
 * decomposition and butterfly with the generated tables in Python.
 *
 * Constant time as the serial comb: idx is assembled from public bit
 * positions; each lane reads all 15 entries of its column (coalesced: the
 * table is laid out [g][i][coord][limb][lane]) and keeps one by masks
 * (idx 0 = the identity (0:1:0)); the additions are the complete formulas
 * (no exceptional case: identity, P = Q, P = -Q all fine); loops and
 * shuffles are the same for every k.  Lane-local points and the selected
 * entries are wiped before returning.
 *
 * Fallback: without pvc_coop, outside warp 0, or when not all 32 lanes
 * are here (__activemask), the hook returns 0 and the serial comb runs.
 */
#ifndef PVC_EC_WARP_CUH
#define PVC_EC_WARP_CUH

#include <stdint.h>
#include <stddef.h>

#include "gpu/cuda/pvc_bn_warp.cuh"       /* pvc_coop, PVCW_ALL, pvcw_lane */
#include "gpu/core/kc_util.h"
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/kc_ec_int.h"
#include "pvc_ec_comb_tables.h"           /* generated (gpu/cuda/meson.build) */

/* xor-select entry i (1..15) of one column into (x, y, z) when i == idx;
 * every entry is read.  e points at [g][0][0][0][lane]. */
template <int NL>
__device__ __forceinline__ void pvce_select(uint32_t (&x)[NL], uint32_t (&y)[NL], uint32_t (&z)[NL],
	const uint32_t *e, uint32_t idx, const uint32_t *one)
{
#pragma unroll
	for (int w = 0; w < NL; w++) {
		x[w] = 0;
		y[w] = one[w];
		z[w] = 0;
	}
#pragma unroll 1
	for (uint32_t i = 1; i < 16u; i++) {
		const uint32_t mask = 0u - kc_ctl_eq32(i, idx);
		const uint32_t *ex = e + (size_t)(i - 1u) * (2u * NL * 32u);
#pragma unroll
		for (int w = 0; w < NL; w++) {
			const uint32_t ax = ex[(uint32_t)w * 32u];
			const uint32_t ay = ex[((uint32_t)NL + (uint32_t)w) * 32u];
			x[w] ^= mask & (x[w] ^ ax);
			y[w] ^= mask & (y[w] ^ ay);
			z[w] ^= mask & (z[w] ^ one[w]);
		}
	}
}

/* r = k*G on the whole warp; tab = pvce_comb_<curve>, NG column groups. */
template <int NL, int NG>
__device__ static __noinline__ void pvce_mulgen(const kc_ec_params *c, kc_ec_pt *r, const uint8_t *k,
	const uint32_t *tab)
{
	const uint32_t L = pvcw_lane();
	const uint32_t d = 32u * (uint32_t)NG, flen = 4u * (uint32_t)NL;
	uint32_t x[NL], y[NL], z[NL], one[NL];
	kc_ec_pt acc, t;
	uint32_t idx = 0;

#pragma unroll
	for (int w = 0; w < NL; w++)
		one[w] = c->p.one[w];
	kc_ecp_set_inf(c, &acc);
	kc_ecp_set_inf(c, &t);
#pragma unroll 1
	for (uint32_t g = 0; g < (uint32_t)NG; g++) {
		const uint32_t s = 32u * g + L;              /* public */
		idx = 0;
#pragma unroll
		for (uint32_t j = 0; j < 4u; j++) {
			const uint32_t pos = s + j * d;
			idx |= (((uint32_t)k[flen - 1u - (pos >> 3)] >> (pos & 7u)) & 1u) << j;
		}
		pvce_select<NL>(x, y, z, tab + (size_t)g * (15u * 2u * NL * 32u) + L, idx, one);
#pragma unroll
		for (int w = 0; w < NL; w++) {
			t.x[w] = x[w];
			t.y[w] = y[w];
			t.z[w] = z[w];
		}
		if (g == 0u) {
			acc = t;
		} else {
			kc_ecp_add(c, &acc, &acc, &t);
		}
	}
	/* butterfly: after level off, lane L holds the sum over its block of
	 * 2 off lanes; after 5 levels every lane holds the whole sum */
#pragma unroll 1
	for (uint32_t off = 16u; off > 0u; off >>= 1) {
#pragma unroll
		for (int w = 0; w < NL; w++) {
			t.x[w] = __shfl_xor_sync(PVCW_ALL, acc.x[w], off);
			t.y[w] = __shfl_xor_sync(PVCW_ALL, acc.y[w], off);
			t.z[w] = __shfl_xor_sync(PVCW_ALL, acc.z[w], off);
		}
		kc_ecp_add(c, &acc, &acc, &t);
	}
	/* every lane continues with lane 0's representation */
#pragma unroll
	for (int w = 0; w < KC_EC_MAXL; w++) {
		const bool in = w < NL;
		r->x[w] = __shfl_sync(PVCW_ALL, in ? acc.x[w] : 0u, 0);
		r->y[w] = __shfl_sync(PVCW_ALL, in ? acc.y[w] : 0u, 0);
		r->z[w] = __shfl_sync(PVCW_ALL, in ? acc.z[w] : 0u, 0);
	}
	idx = 0;
	kc_wipe(&acc, sizeof acc);
	kc_wipe(&t, sizeof t);
	kc_wipe(x, sizeof x);
	kc_wipe(y, sizeof y);
	kc_wipe(z, sizeof z);
}

/* ---- the hook (kc_ec_point.c): 1 = done, 0 = run the serial comb ---- */
__host__ __device__ static inline int pvce_hook_mulgen(const kc_ec_params *c, kc_ec_pt *r,
	const uint8_t *k)
{
#ifdef __CUDA_ARCH__
	if (pvc_coop == 0u || (threadIdx.x >> 5) != 0u || __activemask() != PVCW_ALL)
		return 0;
	if (c == kc_ec_params_get(KC_EC_P256))
		pvce_mulgen<8, (int)PVCE_NG_P256>(c, r, k, &pvce_comb_p256[0][0][0][0][0]);
	else if (c == kc_ec_params_get(KC_EC_SM2))
		pvce_mulgen<8, (int)PVCE_NG_SM2>(c, r, k, &pvce_comb_sm2[0][0][0][0][0]);
	else if (c == kc_ec_params_get(KC_EC_P384))
		pvce_mulgen<12, (int)PVCE_NG_P384>(c, r, k, &pvce_comb_p384[0][0][0][0][0]);
	else
		return 0;
	return 1;
#else
	(void)c; (void)r; (void)k;
	return 0;
#endif
}

#define KC_EC_COOP_MULGEN(c, r, k) pvce_hook_mulgen(c, r, k)

#endif /* PVC_EC_WARP_CUH */
