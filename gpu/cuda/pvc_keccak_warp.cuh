/*
 * pvc_keccak_warp.cuh - warp-cooperative Keccak-f[1600] for the core's
 * sponge (the KC_KECCAK_COOP and KC_SHA3_ABSORB_COOP hooks of
 * gpu/core/hash/kc_sha3.c), for a warp that runs one request on all lanes
 * with identical data (pvc_coop, pvc_bn_warp.cuh).
 *
 * Lane L = x + 5 y holds the state's 64-bit lane (x, y) in a register;
 * lanes 25..31 mirror lanes 0..6 (their results are never used).  A round
 * is five shuffles' worth of dependent steps: theta's column parities
 * (four shuffles from the column, then two from the neighbouring
 * columns), rho in the source lane and pi as one shuffle, chi from the
 * two next lanes of the row, iota in lane 0.  One lane alone runs the 24
 * rounds over all 25 words, ~8 us a permutation on an sm_90 GPU; the warp
 * does it in a few hundred cycles a round.  The absorb keeps the state
 * in the lanes' registers over every full block of a call (lanes below
 * rate / 8 load their word of each block); the state is gathered back
 * into every lane's copy at the end, so the serial code around the hook
 * sees what it would have computed itself.  tests/tools/pvck_model.py
 * models the lane algorithm in Python against hashlib.
 *
 * Constant time: every index and rotation is the lane's position or the
 * round number, never data.
 */
#ifndef PVC_KECCAK_WARP_CUH
#define PVC_KECCAK_WARP_CUH

#include <stdint.h>
#include <stddef.h>

/* rho offsets by lane x + 5 y */
__device__ static const uint8_t pvck_rho[25] = {
	0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
	41, 45, 15, 21, 8, 18, 2, 61, 56, 14
};

/* A lane's place in the state and the lanes it reads. */
struct pvck_lane {
	uint32_t col[4];          /* theta: the other four lanes of column x  */
	uint32_t left, right;     /* x - 1 and x + 1 of row y                  */
	uint32_t right2;          /* x + 2 of row y                            */
	uint32_t pisrc;           /* pi: lane (X, Y) takes ((X + 3 Y) % 5, X)  */
	uint32_t rho;
};

__device__ __forceinline__ pvck_lane pvck_setup(uint32_t L)
{
	const uint32_t i = L < 25u ? L : L - 25u, x = i % 5u, y = i / 5u;
	pvck_lane l;

	for (uint32_t k = 0; k < 4u; k++)
		l.col[k] = x + 5u * ((y + 1u + k) % 5u);
	l.left = (x + 4u) % 5u + 5u * y;
	l.right = (x + 1u) % 5u + 5u * y;
	l.right2 = (x + 2u) % 5u + 5u * y;
	l.pisrc = (x + 3u * y) % 5u + 5u * x;
	l.rho = pvck_rho[i];
	return l;
}

__device__ __forceinline__ uint64_t pvck_rotl(uint64_t v, uint32_t n)
{
	return (v << n) | (v >> ((64u - n) & 63u));
}

__device__ __forceinline__ uint64_t pvck_shfl(uint64_t v, uint32_t src)
{
	return __shfl_sync(PVCW_ALL, (unsigned long long)v, (int)src);
}

/* Keccak-f[1600] on the warp: v is this lane's word, rc the core's round
 * constants.  Inlined into the absorb, so that the next block's load is
 * in flight while it runs. */
__device__ __forceinline__ uint64_t pvck_permute(uint64_t v, const pvck_lane l, const uint64_t *rc)
{
	const bool lane0 = pvcw_lane() == 0u;

	for (uint32_t r = 0; r < 24u; r++) {
		uint64_t c, t, b1, b2;

		c = v ^ pvck_shfl(v, l.col[0]) ^ pvck_shfl(v, l.col[1]) ^
		    pvck_shfl(v, l.col[2]) ^ pvck_shfl(v, l.col[3]);
		v ^= pvck_shfl(c, l.left) ^ pvck_rotl(pvck_shfl(c, l.right), 1u);
		t = pvck_rotl(v, l.rho);
		v = pvck_shfl(t, l.pisrc);
		b1 = pvck_shfl(v, l.right);
		b2 = pvck_shfl(v, l.right2);
		v ^= ~b1 & b2;
		if (lane0)
			v ^= rc[r];
	}
	return v;
}

__device__ static __noinline__ uint64_t pvck_permute_one(uint64_t v, const uint64_t *rc)
{
	return pvck_permute(v, pvck_setup(pvcw_lane()), rc);
}

/* The whole warp is here, running one request with identical data. */
__device__ __forceinline__ bool pvck_on(void)
{
	return pvc_coop != 0u && __activemask() == PVCW_ALL;
}

/* this lane's word of st (identical in every lane); st back from the lanes */
__device__ __forceinline__ uint64_t pvck_load(const uint64_t st[25])
{
	const uint32_t L = pvcw_lane();
	return st[L < 25u ? L : L - 25u];
}

__device__ __forceinline__ void pvck_store(uint64_t st[25], uint64_t v)
{
	for (uint32_t i = 0; i < 25u; i++)
		st[i] = pvck_shfl(v, i);
}

/* Word L of a block (little-endian; al: the block is 8-byte aligned). */
__device__ __forceinline__ uint64_t pvck_word(const uint8_t *p, uint32_t L, bool al)
{
	const uint8_t *q = p + 8u * L;
	uint64_t m = 0;

	if (al)
		return *(const uint64_t *)q;
	for (uint32_t k = 0; k < 8u; k++)
		m |= (uint64_t)q[k] << (8u * k);
	return m;
}

/* ---- the hooks (kc_sha3.c): 1 = done, 0 = run the serial code ---- */

__host__ __device__ static inline int pvck_hook_permute(uint64_t st[25], const uint64_t *rc)
{
#ifdef __CUDA_ARCH__
	if (!pvck_on())
		return 0;
	pvck_store(st, pvck_permute_one(pvck_load(st), rc));
	return 1;
#else
	(void)st; (void)rc;
	return 0;
#endif
}

/* Absorb nb full blocks of rate bytes (rate a multiple of 8, <= 200). */
__host__ __device__ static inline int pvck_hook_absorb(uint64_t st[25], const uint8_t *p,
	size_t nb, uint32_t rate, const uint64_t *rc)
{
#ifdef __CUDA_ARCH__
	if (!pvck_on())
		return 0;
	const uint32_t L = pvcw_lane(), w = rate / 8u;
	const pvck_lane l = pvck_setup(L);
	const bool al = ((uintptr_t)p & 7u) == 0u;
	uint64_t v = pvck_load(st), m = L < w ? pvck_word(p, L, al) : 0u;

	for (size_t b = 0; b < nb; b++) {
		v ^= m;
		p += rate;
		m = L < w && b + 1u < nb ? pvck_word(p, L, al) : 0u;
		v = pvck_permute(v, l, rc);
	}
	pvck_store(st, v);
	v = m = 0;
	return 1;
#else
	(void)st; (void)p; (void)nb; (void)rate; (void)rc;
	return 0;
#endif
}

#define KC_KECCAK_COOP(st, rc) pvck_hook_permute(st, rc)
#define KC_SHA3_ABSORB_COOP(st, p, nb, rate, rc) pvck_hook_absorb(st, p, nb, rate, rc)

#endif /* PVC_KECCAK_WARP_CUH */
