/*
 * pvc_bn_warp.cuh - warp-cooperative Montgomery arithmetic for the core's
 * big integers (the KC_BN_COOP_* hooks of gpu/core/pk/kc_bn_mont.c).
 *
 * The vault kernel runs an RSA request on all 32 lanes of a warp with
 * identical data (pvc_coop set, see vault_kernel.cu): every lane executes
 * the same engine code on its own copy of the locals, and kc_bn's
 * Montgomery product, plain product, R^2 mod m and exponentiations are
 * then done by the warp together instead of by each lane alone.  A
 * modulus of nl <= 64 limbs is spread over the lanes, K = 1 or 2 limbs
 * per lane: lane L holds limbs L and 32 + L.  The result is gathered back
 * into every lane's copy, so the serial code around the hooks sees
 * exactly what it would have computed itself.  RSA's two CRT
 * exponentiations (kc_bn_modexp2) run on warps 0 and 1 at once: warp 1
 * waits in pvcw_helper for the second one (and for q's CRT preparation
 * and half of the fault check).
 * tests/tools/pvcw_model.py models the lane algorithm in Python.
 *
 * Montgomery product (FIOS, one limb of a per step): each lane adds
 * a_i * b_L + q * m_L into its limb and keeps the high words in a 64-bit
 * carry; the division by 2^32 is one shuffle down; every lane computes q
 * itself from the position-0 word, which it gets by two shuffles issued
 * with the shift (one shuffle on the dependent chain per step by design);
 * a_(i+1) is fetched during step i.  Alone on one warp of an sm_90 GPU:
 * ~75 cycles a step with one limb per lane, ~92 with two (gpu_bench mm
 * measures it).
 * The carries left at the end and the final conditional subtraction are
 * resolved across the warp with ballots: a limb generates or propagates a
 * carry (borrow), and (G << 1) + P gives every limb its carry-in at once.
 *
 * Constant time as the serial code: loops run nl (public) steps; the
 * exponent window selects its table entry by masks over all 16 entries,
 * which live in registers; the final subtraction is a mask.  The working
 * values (table, accumulator) are registers only; results go to the
 * caller's arrays, which the serial code wipes as before.
 */
#ifndef PVC_BN_WARP_CUH
#define PVC_BN_WARP_CUH

#include <stdint.h>
#include <stddef.h>

/* the EC inversion job (op 2): the hooks are macros of kc_ec_int.h, so
 * they are defined before it is first included */
#define KC_EC_COOP_INV_POST(m, a, b) pvcw_hook_inv_post(m, a, b)
#define KC_EC_COOP_INV_TAKE(r) pvcw_hook_inv_take(r)
#include "gpu/core/ec/kc_ec_int.h"   /* kc_ecf_inv_blind, KC_EC_MAXL */
#include "gpu/core/kc_util.h"        /* kc_wipe */
#include "gpu/core/pk/kc_rsa.h"      /* kc_rsa_core_prep, KC_RSA_MAX_HBYTES */

#define PVCW_ALL 0xffffffffu

/* Set by the vault kernel while a warp runs one request on all lanes:
 * 0 each thread alone, 1 warp 0 runs it, 2 warp 0 runs it and warp 1
 * serves its second exponentiations (pvcw_helper). */
static __shared__ uint32_t pvc_coop;

/* Set by the vault kernel while its request has a recruited partner
 * block (pvc_pair.cuh): the CRT exponentiations run right to left on
 * both blocks.  NULL otherwise. */
struct pvcx_pair;
static __shared__ pvcx_pair *pvcw_xp;

/* One job handed from warp 0 to warp 1: op 1, an exponentiation
 * (kc_bn_modexp2's second half), up to 32 limbs and a 34-limb exponent
 * (RSA-2048 CRT with 64 bits of blinding); op 2, a blinded EC inversion
 * x = x^-1 mod *mod with blinding value r2 (KC_EC_COOP_INV_POST); ops 3
 * and 4, warp 1's half of a CTR / ECB pass or of a GHASH over a message in
 * global memory (pvc_ctr_warp.cuh, its own job record); op 5, q's CRT
 * preparation (kc_rsa_core_prep) beside p's, its inputs in pvcw_sprep and
 * its results in x (c mod q), m (q), r2 and e (the blinded exponent).
 * Wiped by warp 0 after each use; op is 0 while warp 1 is free. */
#define PVCW_JOB_EW 34u
struct pvcw_job {
	uint32_t op, nl, ebits, m0i;
	const void *mod;
	uint32_t x[32], r2[32], m[32], e[PVCW_JOB_EW];
};
static __shared__ pvcw_job pvcw_sjob;

/* Op 5's inputs: c in 2 hl limbs, q and d_q as the key holds them, the 64
 * bits of blinding; op 6's (q's half of the fault check, kc_rsa_core_check)
 * c and the result s in 2 hl limbs, q, its r2 and m0i in the job record,
 * e in its e[0]; ok is either's result's ctl. */
struct pvcw_prepjob {
	uint32_t cw[64], sw[64];
	uint8_t qb[KC_RSA_MAX_HBYTES], db[KC_RSA_MAX_HBYTES], rnd[8];
	uint32_t bits, ok;
};
static __shared__ pvcw_prepjob pvcw_sprep;

/* Every kernel of a translation unit that includes this header sets the
 * mode (pvc_coop's values) before any core call: shared memory starts
 * undefined. */
__device__ __forceinline__ void pvcw_mode(uint32_t on)
{
	if (threadIdx.x == 0) {
		pvc_coop = on;
		pvcw_xp = NULL;
		pvcw_sjob.op = 0;
	}
	__syncthreads();
}

__device__ __forceinline__ uint32_t pvcw_lane(void)
{
	return threadIdx.x & 31u;
}

/* Limbs L, 32 + L, ... of a (nl limbs, identical in every lane). */
template <int K>
__device__ __forceinline__ void pvcw_ld(uint32_t (&v)[K], const uint32_t *a, uint32_t nl)
{
	const uint32_t L = pvcw_lane();
#pragma unroll
	for (int k = 0; k < K; k++) {
		const uint32_t i = 32u * (uint32_t)k + L;
		v[k] = i < nl ? a[i] : 0u;
	}
}

/* Every lane writes all nl limbs into its own a. */
template <int K>
__device__ __forceinline__ void pvcw_st(uint32_t *a, const uint32_t (&v)[K], uint32_t nl)
{
#pragma unroll
	for (int k = 0; k < K; k++) {
		for (uint32_t l = 0; l < 32u; l++) {
			const uint32_t w = __shfl_sync(PVCW_ALL, v[k], l);
			if (32u * (uint32_t)k + l < nl)
				a[32u * (uint32_t)k + l] = w;
		}
	}
}

/* 0/1 flags of every limb as one mask: bit 32 k + L is f[k] of lane L. */
template <int K>
__device__ __forceinline__ uint64_t pvcw_ballot(const uint32_t (&f)[K])
{
	uint64_t r = 0;
#pragma unroll
	for (int k = 0; k < K; k++)
		r |= (uint64_t)__ballot_sync(PVCW_ALL, f[k]) << (32 * k);
	return r;
}

/* A carry (or borrow) chain over the 32 K limbs: limb i generates one
 * (G) or passes an incoming one on (P); never both.  Returns the carry-in
 * of every limb as a mask and the carry out of the top limb in *out. */
template <int K>
__device__ __forceinline__ uint64_t pvcw_chain(uint64_t G, uint64_t P, uint32_t *out)
{
	const int top = 32 * K - 1;
	const uint64_t cin = ((G << 1) + P) ^ P;
	*out = (uint32_t)(((G >> top) | ((P >> top) & (cin >> top))) & 1u);
	return cin;
}

__device__ __forceinline__ uint32_t pvcw_bit(uint64_t mask, int k)
{
	return (uint32_t)(mask >> (32u * (uint32_t)k + pvcw_lane())) & 1u;
}

/* d = t - m if t + top 2^(1024 K) >= m, else t (t < 2m).  d may be t. */
template <int K>
__device__ __forceinline__ void pvcw_csub(uint32_t (&d)[K], const uint32_t (&t)[K],
	const uint32_t (&m)[K], uint32_t top)
{
	uint32_t x[K], bo[K], z[K], bout, mask;
	uint64_t bin;

#pragma unroll
	for (int k = 0; k < K; k++) {
		x[k] = t[k] - m[k];
		bo[k] = t[k] < m[k] ? 1u : 0u;
		z[k] = x[k] == 0u ? 1u : 0u;
	}
	bin = pvcw_chain<K>(pvcw_ballot<K>(bo), pvcw_ballot<K>(z), &bout);
	mask = 0u - (top | (bout ^ 1u));
#pragma unroll
	for (int k = 0; k < K; k++) {
		x[k] -= pvcw_bit(bin, k);
		d[k] = t[k] ^ (mask & (t[k] ^ x[k]));
	}
}

/* t = t + (c one limb up), the end of a product's pass (pvcw_mm,
 * pvcw_mul1): limb i of t takes the small carry c of limb i - 1 (lane 0
 * of the second limbs the top lane's of the first), and the one-bit
 * carries this makes are resolved by the ballot chain.  *cout: the carry
 * out of the top limb (c's top limb itself is the caller's). */
template <int K>
__device__ __forceinline__ void pvcw_resolve(uint32_t (&t)[K], const uint64_t (&c)[K], uint32_t *cout)
{
	const uint32_t L = pvcw_lane();
	uint32_t g[K], pf[K];

#pragma unroll
	for (int k = 0; k < K; k++) {
		uint32_t ci = __shfl_up_sync(PVCW_ALL, (uint32_t)c[k], 1);
		const uint32_t cw = __shfl_sync(PVCW_ALL, (uint32_t)c[k > 0 ? k - 1 : 0], 31);
		if (L == 0u)
			ci = k > 0 ? cw : 0u;
		const uint64_t s = (uint64_t)t[k] + ci;
		t[k] = (uint32_t)s;
		g[k] = (uint32_t)(s >> 32);
		pf[k] = t[k] == 0xffffffffu ? 1u : 0u;
	}
	const uint64_t cin = pvcw_chain<K>(pvcw_ballot<K>(g), pvcw_ballot<K>(pf), cout);
#pragma unroll
	for (int k = 0; k < K; k++)
		t[k] += pvcw_bit(cin, k);
}

/* d = a b / 2^(32 nl) mod m, for a < 2^(32 nl), b < m, nl <= 32 K.  d may
 * be a or b. */
template <int K>
__device__ __forceinline__ void pvcw_mm(uint32_t (&d)[K], const uint32_t (&a)[K],
	const uint32_t (&b)[K], const uint32_t (&m)[K], uint32_t nl, uint32_t m0i)
{
	const uint32_t L = pvcw_lane();
	const uint32_t src = (L + 1u) & 31u;
	const uint32_t b0 = __shfl_sync(PVCW_ALL, b[0], 0);
	uint32_t t[K], t0 = 0, topc, cout;
	uint64_t c[K];

#pragma unroll
	for (int k = 0; k < K; k++) {
		t[k] = 0;
		c[k] = 0;
	}
	uint32_t an = __shfl_sync(PVCW_ALL, a[0], 0);
	for (uint32_t i = 0; i < nl; i++) {
		/* a_i was fetched during step i - 1: fetch a_(i+1) now, so that
		 * no step waits for the shuffle of its own limb of a (at i =
		 * nl - 1 the word fetched is not used) */
		const uint32_t ai = an, n = i + 1u;
		an = __shfl_sync(PVCW_ALL, K > 1 && n >= 32u ? a[K - 1] : a[0], n & 31u);
		const uint32_t q = (t0 + ai * b0) * m0i;
		uint32_t v[K];
#pragma unroll
		for (int k = 0; k < K; k++) {
			const uint64_t p = (uint64_t)ai * b[k] + t[k];
			const uint64_t p2 = (uint64_t)q * m[k] + (uint32_t)p;
			t[k] = (uint32_t)p2;
			c[k] += (p >> 32) + (p2 >> 32);
		}
		/* divide by 2^32: limb j takes limb j + 1 plus the carries of
		 * limb j; the new position-0 word for everyone's next q */
#pragma unroll
		for (int k = 0; k < K; k++)
			v[k] = __shfl_sync(PVCW_ALL, t[k], src);
		t0 = __shfl_sync(PVCW_ALL, t[0], 1) + __shfl_sync(PVCW_ALL, (uint32_t)c[0], 0);
#pragma unroll
		for (int k = 0; k < K; k++) {
			const uint32_t up = L == 31u ? (k + 1 < K ? v[k + 1 < K ? k + 1 : 0] : 0u) : v[k];
			const uint64_t s = (uint64_t)up + c[k];
			t[k] = (uint32_t)s;
			c[k] = s >> 32;
		}
	}
	/* value = t + (c one limb up), c <= 3 */
	topc = __shfl_sync(PVCW_ALL, (uint32_t)c[K - 1], 31);
	pvcw_resolve<K>(t, c, &cout);
	pvcw_csub<K>(d, t, m, topc + cout);
}

/* lo, hi = a b (2 nl limbs: lane L gets limbs L and nl + L), for a, b of
 * nl <= 32 limbs, one a lane: pvcw_mm's pass without the reduction.  At
 * step i lane 0's word is the product's limb i, final (every later step
 * adds at higher positions); the rest shifts down one lane with the
 * carries, as in pvcw_mm, and what is left after nl steps is the high
 * half with one-bit carries, resolved by the same ballot chain. */
__device__ __forceinline__ void pvcw_mul1(uint32_t &lo, uint32_t &hi, uint32_t a, uint32_t b,
	uint32_t nl)
{
	const uint32_t L = pvcw_lane(), src = (L + 1u) & 31u;
	uint32_t t = 0, cout;
	uint64_t c = 0;

	lo = 0;
	for (uint32_t i = 0; i < nl; i++) {
		const uint32_t ai = __shfl_sync(PVCW_ALL, a, i);
		const uint64_t p = (uint64_t)ai * b + t;
		const uint32_t w = (uint32_t)p;
		c += p >> 32;
		const uint32_t li = __shfl_sync(PVCW_ALL, w, 0);
		uint32_t up = __shfl_sync(PVCW_ALL, w, src);
		if (L == i)
			lo = li;
		if (L == 31u)
			up = 0;
		const uint64_t s = (uint64_t)up + c;
		t = (uint32_t)s;
		c = s >> 32;
	}
	/* value = t + (c one limb up); the top limb's carry is 0 (a b <
	 * 2^(64 nl)), so is the chain's carry out */
	uint32_t tt[1] = { t };
	const uint64_t cc[1] = { c };
	pvcw_resolve<1>(tt, cc, &cout);
	hi = tt[0];
}

/* x = 2x mod m (x < m) */
template <int K>
__device__ __forceinline__ void pvcw_dbl(uint32_t (&x)[K], const uint32_t (&m)[K])
{
	const uint32_t L = pvcw_lane();
	uint32_t hi[K], t[K], top;

#pragma unroll
	for (int k = 0; k < K; k++)
		hi[k] = x[k] >> 31;
	top = __shfl_sync(PVCW_ALL, hi[K - 1], 31);
#pragma unroll
	for (int k = 0; k < K; k++) {
		uint32_t in = __shfl_up_sync(PVCW_ALL, hi[k], 1);
		const uint32_t w = __shfl_sync(PVCW_ALL, hi[k > 0 ? k - 1 : 0], 31);
		if (L == 0u)
			in = k > 0 ? w : 0u;
		t[k] = (x[k] << 1) | in;
	}
	pvcw_csub<K>(x, t, m, top);
}

/* An exponentiation's operands in registers, and the 1 that takes its
 * result out of Montgomery form. */
template <int K>
__device__ __forceinline__ void pvcw_exp_in(uint32_t (&m)[K], uint32_t (&r2)[K], uint32_t (&x)[K],
	uint32_t (&one)[K], const uint32_t *mp, const uint32_t *r2p, const uint32_t *xp, uint32_t nl)
{
	const uint32_t L = pvcw_lane();

	pvcw_ld<K>(m, mp, nl);
	pvcw_ld<K>(r2, r2p, nl);
	pvcw_ld<K>(x, xp, nl);
#pragma unroll
	for (int k = 0; k < K; k++)
		one[k] = (k == 0 && L == 0u) ? 1u : 0u;
}

/* x = x^e mod m, kc_bn_modexp's window of 4 bits from the top, the table
 * of 16 entries in registers. */
template <int K>
__device__ __forceinline__ void pvcw_modexp(uint32_t *xp, const uint32_t *e, uint32_t ebits,
	const uint32_t *r2p, const uint32_t *mp, uint32_t nl, uint32_t m0i)
{
	const uint32_t nw = (ebits + 3u) / 4u;
	uint32_t m[K], r2[K], x[K], one[K], tab[16][K], acc[K], b[K], r[K] = {};

	pvcw_exp_in<K>(m, r2, x, one, mp, r2p, xp, nl);
	/* tab[0] = mont(1), tab[1] = mont(x), tab[s] = tab[s-1] tab[1] */
	for (uint32_t s = 0; s < 16u; s++) {
#pragma unroll
		for (int k = 0; k < K; k++) {
			acc[k] = s == 0u ? one[k] : s == 1u ? x[k] : r[k];
			b[k] = s < 2u ? r2[k] : tab[1][k];
		}
		pvcw_mm<K>(r, acc, b, m, nl, m0i);
#pragma unroll
		for (int j = 0; j < 16; j++)
			if ((uint32_t)j == s)
#pragma unroll
				for (int k = 0; k < K; k++)
					tab[j][k] = r[k];
	}
#pragma unroll
	for (int k = 0; k < K; k++)
		acc[k] = tab[0][k];
	for (uint32_t w = nw; w > 0u; w--) {
		const uint32_t pos = 4u * (w - 1u);
		const uint32_t bits = (e[pos >> 5] >> (pos & 31u)) & 15u;
		uint32_t sel[K];
#pragma unroll
		for (int k = 0; k < K; k++)
			sel[k] = 0;
#pragma unroll
		for (int j = 0; j < 16; j++) {
			const uint32_t mk = 0u - (uint32_t)(bits == (uint32_t)j);
#pragma unroll
			for (int k = 0; k < K; k++)
				sel[k] |= mk & tab[j][k];
		}
		for (uint32_t s = w == nw ? 4u : 0u; s < 5u; s++) {
#pragma unroll
			for (int k = 0; k < K; k++)
				b[k] = s < 4u ? acc[k] : sel[k];
			pvcw_mm<K>(acc, acc, b, m, nl, m0i);
		}
	}
	pvcw_mm<K>(r, acc, one, m, nl, m0i);        /* out of Montgomery form */
	pvcw_st<K>(xp, r, nl);
}

#include "gpu/cuda/pvc_pair.cuh"   /* uses pvcw_mm, pvcw_exp_in, pvcw_st */

/* Named barriers of warps 0 and 1 (0 is __syncthreads): 1 = a job (or
 * the end) is posted, 2 = the job is done.  bar.sync is "aligned": every
 * lane of a warp must execute it together, so the warp is converged first
 * (a job's lanes may leave it at different times, e.g. a CTR pass whose
 * last round has blocks for some lanes only). */
__device__ __forceinline__ void pvcw_bar(int id)
{
	__syncwarp();
	if (id == 1)
		asm volatile("bar.sync 1, 64;" ::: "memory");
	else
		asm volatile("bar.sync 2, 64;" ::: "memory");
}

/* Warp 1, job op 2: every lane inverts its own copy; lane 0 writes the
 * result back once all lanes have read the job. */
__device__ static __noinline__ void pvcw_job_inv(void)
{
	pvcw_job *j = &pvcw_sjob;
	uint32_t a[KC_EC_MAXL], b[KC_EC_MAXL];

	for (uint32_t i = 0; i < KC_EC_MAXL; i++) {
		a[i] = j->x[i];
		b[i] = j->r2[i];
	}
	__syncwarp();
	kc_ecf_inv_blind((const kc_ec_mod *)j->mod, a, a, b);
	if (pvcw_lane() == 0u)
		for (uint32_t i = 0; i < KC_EC_MAXL; i++)
			j->x[i] = a[i];
	kc_wipe(a, sizeof a);
	kc_wipe(b, sizeof b);
}

/* Ops 3 and 4 (warp 1's share of a symmetric pass): pvc_ctr_warp.cuh,
 * which is included after the core. */
__device__ static void pvcw_job_sym(uint32_t op);

/* Warp 1, job op 5: q's CRT preparation, every lane on its own copy; the
 * lanes write the results back once all have computed them. */
__device__ static __noinline__ void pvcw_job_prep(void)
{
	pvcw_job *j = &pvcw_sjob;
	const pvcw_prepjob *in = &pvcw_sprep;
	const uint32_t hl = j->nl, L = pvcw_lane();
	uint32_t m[32], ex[PVCW_JOB_EW], px[32], r2[32], m0i = 0, ok;

	ok = kc_rsa_core_prep(m, ex, in->cw, in->qb, in->db, in->rnd, in->bits, hl, px, r2, &m0i);
	__syncwarp();
	if (L < hl) {
		j->x[L] = m[L];
		j->m[L] = px[L];
		j->r2[L] = r2[L];
	}
	for (uint32_t i = L; i < hl + 2u; i += 32u)
		j->e[i] = ex[i];
	if (L == 0u) {
		j->m0i = m0i;
		pvcw_sprep.ok = ok;
	}
	kc_wipe(m, sizeof m);
	kc_wipe(ex, sizeof ex);
	kc_wipe(px, sizeof px);
	kc_wipe(r2, sizeof r2);
}

/* Warp 1, job op 6: q's half of the fault check, the lanes reading the
 * job's shared arrays (kc_rsa_core_check only reads them). */
__device__ static __noinline__ void pvcw_job_check(void)
{
	const pvcw_job *j = &pvcw_sjob;
	const uint32_t ok = kc_rsa_core_check(pvcw_sprep.sw, pvcw_sprep.cw, j->e[0], j->m, j->r2,
	                                      j->m0i, j->nl);
	__syncwarp();
	if (pvcw_lane() == 0u)
		pvcw_sprep.ok = ok;
}

/* Warp 1 while warp 0 runs a request in mode 2: serve jobs until warp 0
 * posts the end (pvcw_release). */
__device__ static __noinline__ void pvcw_helper(void)
{
	for (;;) {
		pvcw_bar(1);
		const uint32_t op = pvcw_sjob.op;
		if (op == 0u)
			return;
		if (op == 2u)
			pvcw_job_inv();
		else if (op == 5u)
			pvcw_job_prep();
		else if (op == 6u)
			pvcw_job_check();
		else if (op >= 3u)
			pvcw_job_sym(op);
		else if (pvcw_xp != NULL)
			pvcx_modexp<PVCX_WIN>(pvcw_xp, 1u, pvcw_sjob.x, pvcw_sjob.e, pvcw_sjob.ebits, pvcw_sjob.r2,
			            pvcw_sjob.m, pvcw_sjob.nl, pvcw_sjob.m0i);
		else
			pvcw_modexp<1>(pvcw_sjob.x, pvcw_sjob.e, pvcw_sjob.ebits, pvcw_sjob.r2,
			               pvcw_sjob.m, pvcw_sjob.nl, pvcw_sjob.m0i);
		pvcw_bar(2);
	}
}

/* KC_EC_COOP_INV_POST / _TAKE (kc_ec_int.h): warp 0 (all lanes, mode 2)
 * hands x = a^-1 to warp 1 and goes on with k*G; the take waits for it
 * and wipes the job. */
__host__ __device__ static __noinline__ int pvcw_hook_inv_post(const void *m, const uint32_t *a,
	const uint32_t *b)
{
#ifdef __CUDA_ARCH__
	const uint32_t L = pvcw_lane();
	if (pvc_coop != 2u || (threadIdx.x >> 5) != 0u || __activemask() != PVCW_ALL)
		return 0;
	if (L < KC_EC_MAXL) {
		pvcw_sjob.x[L] = a[L];
		pvcw_sjob.r2[L] = b[L];
	}
	if (L == 0u) {
		pvcw_sjob.mod = m;
		pvcw_sjob.op = 2u;
	}
	__syncwarp();
	pvcw_bar(1);
	return 1;
#else
	(void)m; (void)a; (void)b;
	return 0;
#endif
}

__host__ __device__ static __noinline__ void pvcw_hook_inv_take(uint32_t *r)
{
#ifdef __CUDA_ARCH__
	const uint32_t L = pvcw_lane();
	pvcw_bar(2);
	for (uint32_t i = 0; i < KC_EC_MAXL; i++)
		r[i] = pvcw_sjob.x[i];
	__syncwarp();
	if (L < KC_EC_MAXL) {
		pvcw_sjob.x[L] = 0;
		pvcw_sjob.r2[L] = 0;
	}
	if (L == 0u)
		pvcw_sjob.op = 0;
	__syncwarp();
#else
	(void)r;
#endif
}

/* Warp 0, all lanes, after its request in mode 2: let warp 1 go. */
__device__ static __noinline__ void pvcw_release(void)
{
	__syncwarp();
	if (pvcw_lane() == 0u)
		pvcw_sjob.op = 0;
	__syncwarp();
	pvcw_bar(1);
}

/* KC_RSA_COOP_PREP_POST / _TAKE (kc_rsa_core.c): warp 0 (all lanes, mode
 * 2) hands q's CRT preparation to warp 1 and does p's; the take waits for
 * it, copies the results into every lane's arrays and wipes the job. */
__host__ __device__ static __noinline__ int pvcw_hook_prep_post(const uint32_t *cw, const uint8_t *qb,
	const uint8_t *db, const uint8_t *rnd, uint32_t bits, size_t hl)
{
#ifdef __CUDA_ARCH__
	const uint32_t L = pvcw_lane();
	if (pvc_coop != 2u || (threadIdx.x >> 5) != 0u || __activemask() != PVCW_ALL || hl > 32u)
		return 0;
	for (uint32_t i = L; i < 2u * hl; i += 32u)
		pvcw_sprep.cw[i] = cw[i];
	for (uint32_t i = L; i < KC_RSA_MAX_HBYTES; i += 32u) {
		pvcw_sprep.qb[i] = qb[i];
		pvcw_sprep.db[i] = db[i];
	}
	if (L < 8u)
		pvcw_sprep.rnd[L] = rnd[L];
	if (L == 0u) {
		pvcw_sprep.bits = bits;
		pvcw_sjob.nl = (uint32_t)hl;
		pvcw_sjob.op = 5u;
	}
	__syncwarp();
	pvcw_bar(1);
	return 1;
#else
	(void)cw; (void)qb; (void)db; (void)rnd; (void)bits; (void)hl;
	return 0;
#endif
}

__host__ __device__ static __noinline__ uint32_t pvcw_hook_prep_take(uint32_t *m, uint32_t *ex,
	uint32_t *px, uint32_t *r2, uint32_t *m0ip)
{
#ifdef __CUDA_ARCH__
	pvcw_job *j = &pvcw_sjob;
	const uint32_t L = pvcw_lane(), hl = j->nl;
	uint32_t ok;

	pvcw_bar(2);
	for (uint32_t i = 0; i < hl; i++) {
		m[i] = j->x[i];
		px[i] = j->m[i];
		r2[i] = j->r2[i];
	}
	for (uint32_t i = 0; i < hl + 2u; i++)
		ex[i] = j->e[i];
	*m0ip = j->m0i;
	ok = pvcw_sprep.ok;
	__syncwarp();
	j->x[L] = j->m[L] = j->r2[L] = 0;
	for (uint32_t i = L; i < PVCW_JOB_EW; i += 32u)
		j->e[i] = 0;
	pvcw_sprep.cw[L] = pvcw_sprep.cw[32u + L] = 0;
	for (uint32_t i = L; i < KC_RSA_MAX_HBYTES; i += 32u)
		pvcw_sprep.qb[i] = pvcw_sprep.db[i] = 0;
	if (L < 8u)
		pvcw_sprep.rnd[L] = 0;
	if (L == 0u) {
		pvcw_sprep.ok = 0;
		j->m0i = 0;
		j->op = 0;
	}
	__syncwarp();
	return ok;
#else
	(void)m; (void)ex; (void)px; (void)r2; (void)m0ip;
	return 0u;
#endif
}

/* KC_RSA_COOP_CHECK_POST / _TAKE (kc_rsa_core.c): warp 0 (all lanes, mode
 * 2) hands q's half of the fault check to warp 1 and does p's; the take
 * waits for its verdict and wipes the job. */
__host__ __device__ static __noinline__ int pvcw_hook_check_post(const uint32_t *sw, const uint32_t *cw,
	uint32_t e, const uint32_t *px, const uint32_t *r2, uint32_t m0i, size_t hl)
{
#ifdef __CUDA_ARCH__
	pvcw_job *j = &pvcw_sjob;
	const uint32_t L = pvcw_lane();
	if (pvc_coop != 2u || (threadIdx.x >> 5) != 0u || __activemask() != PVCW_ALL || hl > 32u)
		return 0;
	for (uint32_t i = L; i < 2u * hl; i += 32u) {
		pvcw_sprep.sw[i] = sw[i];
		pvcw_sprep.cw[i] = cw[i];
	}
	if (L < hl) {
		j->m[L] = px[L];
		j->r2[L] = r2[L];
	}
	if (L == 0u) {
		j->e[0] = e;
		j->m0i = m0i;
		j->nl = (uint32_t)hl;
		j->op = 6u;
	}
	__syncwarp();
	pvcw_bar(1);
	return 1;
#else
	(void)sw; (void)cw; (void)e; (void)px; (void)r2; (void)m0i; (void)hl;
	return 0;
#endif
}

__host__ __device__ static __noinline__ uint32_t pvcw_hook_check_take(void)
{
#ifdef __CUDA_ARCH__
	pvcw_job *j = &pvcw_sjob;
	const uint32_t L = pvcw_lane();
	uint32_t ok;

	pvcw_bar(2);
	ok = pvcw_sprep.ok;
	__syncwarp();
	pvcw_sprep.sw[L] = pvcw_sprep.sw[32u + L] = 0;
	pvcw_sprep.cw[L] = pvcw_sprep.cw[32u + L] = 0;
	j->m[L] = j->r2[L] = 0;
	if (L == 0u) {
		pvcw_sprep.ok = 0;
		j->e[0] = 0;
		j->m0i = 0;
		j->op = 0;
	}
	__syncwarp();
	return ok;
#else
	return 0u;
#endif
}

/* The whole warp is here, running one request with identical data. */
__device__ __forceinline__ bool pvcw_on(size_t nl)
{
	return pvc_coop != 0u && nl <= 64u && __activemask() == PVCW_ALL;
}

/* ---- the hooks (kc_bn_mont.c): 1 = done, 0 = run the serial code ---- */

/* d = x y / R mod m and x = 2^n x mod m over arrays, K limbs per lane */
template <int K>
__device__ __forceinline__ void pvcw_montmul_arr(uint32_t *d, const uint32_t *x, const uint32_t *y,
	const uint32_t *m, uint32_t nl, uint32_t m0i)
{
	uint32_t a[K], b[K], mm[K], r[K];
	pvcw_ld<K>(a, x, nl);
	pvcw_ld<K>(b, y, nl);
	pvcw_ld<K>(mm, m, nl);
	pvcw_mm<K>(r, a, b, mm, nl, m0i);
	pvcw_st<K>(d, r, nl);
}

/* kc_bn_r2 in registers: 2^from (< m) doubled up to R = 2^(32 nl), then
 * R^2 = mont(2^E), E = 32 nl, by square-and-double from mont(2) */
template <int K>
__device__ __forceinline__ void pvcw_r2_arr(uint32_t *r2, const uint32_t *m, uint32_t nl,
	uint32_t m0i, uint32_t from)
{
	const uint32_t L = pvcw_lane(), e = 32u * nl;
	uint32_t x[K], mm[K];
	int top = 31;

	pvcw_ld<K>(mm, m, nl);
#pragma unroll
	for (int k = 0; k < K; k++)
		x[k] = 32u * (uint32_t)k + L == (from >> 5) ? 1u << (from & 31u) : 0u;
	for (uint32_t i = from; i < e; i++)
		pvcw_dbl<K>(x, mm);
	while (top > 0 && !((e >> top) & 1u))
		top--;
	pvcw_dbl<K>(x, mm);
	for (int b = top - 1; b >= 0; b--) {
		pvcw_mm<K>(x, x, x, mm, nl, m0i);
		if ((e >> b) & 1u)
			pvcw_dbl<K>(x, mm);
	}
	pvcw_st<K>(r2, x, nl);
}

/* kc_bn_modexp_pub in registers: x = x^e mod m, square-and-multiply on
 * the public e from its top bit */
template <int K>
__device__ __forceinline__ void pvcw_modexp_pub(uint32_t *xp, uint32_t e, const uint32_t *r2p,
	const uint32_t *mp, uint32_t nl, uint32_t m0i)
{
	uint32_t m[K], r2[K], xm[K], acc[K], one[K];
	int top = 31;

	pvcw_exp_in<K>(m, r2, xm, one, mp, r2p, xp, nl);
	pvcw_mm<K>(xm, xm, r2, m, nl, m0i);           /* into Montgomery form */
#pragma unroll
	for (int k = 0; k < K; k++)
		acc[k] = xm[k];
	while (top > 0 && !((e >> top) & 1u))
		top--;
	for (int b = top - 1; b >= 0; b--) {
		pvcw_mm<K>(acc, acc, acc, m, nl, m0i);
		if ((e >> b) & 1u)
			pvcw_mm<K>(acc, acc, xm, m, nl, m0i);
	}
	pvcw_mm<K>(acc, acc, one, m, nl, m0i);        /* out of Montgomery form */
	pvcw_st<K>(xp, acc, nl);
}

__host__ __device__ static inline int pvcw_hook_montmul(uint32_t *d, const uint32_t *x,
	const uint32_t *y, const uint32_t *m, size_t nl, uint32_t m0i)
{
#ifdef __CUDA_ARCH__
	if (!pvcw_on(nl))
		return 0;
	if (nl <= 32u)
		pvcw_montmul_arr<1>(d, x, y, m, (uint32_t)nl, m0i);
	else
		pvcw_montmul_arr<2>(d, x, y, m, (uint32_t)nl, m0i);
	return 1;
#else
	(void)d; (void)x; (void)y; (void)m; (void)nl; (void)m0i;
	return 0;
#endif
}

/* kc_bn_mul for two operands of the same nl <= 32 limbs (RSA's q h and p q
 * of 1024-bit halves): d = x y in 2 nl limbs */
__host__ __device__ static inline int pvcw_hook_mul(uint32_t *d, const uint32_t *x, size_t xl,
	const uint32_t *y, size_t yl)
{
#ifdef __CUDA_ARCH__
	if (xl != yl || xl > 32u || xl == 0u || !pvcw_on(xl))
		return 0;
	const uint32_t nl = (uint32_t)xl;
	uint32_t a[1], b[1], lo[1], hi[1];
	pvcw_ld<1>(a, x, nl);
	pvcw_ld<1>(b, y, nl);
	pvcw_mul1(lo[0], hi[0], a[0], b[0], nl);
	pvcw_st<1>(d, lo, nl);
	pvcw_st<1>(d + nl, hi, nl);
	return 1;
#else
	(void)d; (void)x; (void)xl; (void)y; (void)yl;
	return 0;
#endif
}

__host__ __device__ static inline int pvcw_hook_modexp(uint32_t *x, const uint32_t *e,
	size_t ebits, const uint32_t *r2, const uint32_t *m, size_t nl, uint32_t m0i)
{
#ifdef __CUDA_ARCH__
	/* one limb per lane only: with two the table of 32 registers per
	 * lane spills; larger moduli use the serial loop over the warp's
	 * products */
	if (nl > 32u || !pvcw_on(nl))
		return 0;
	pvcw_modexp<1>(x, e, (uint32_t)ebits, r2, m, (uint32_t)nl, m0i);
	return 1;
#else
	(void)x; (void)e; (void)ebits; (void)r2; (void)m; (void)nl; (void)m0i;
	return 0;
#endif
}

__host__ __device__ static inline int pvcw_hook_r2(uint32_t *r2, const uint32_t *m, size_t nl,
	uint32_t m0i, uint32_t from)
{
#ifdef __CUDA_ARCH__
	if (!pvcw_on(nl))
		return 0;
	if (nl <= 32u)
		pvcw_r2_arr<1>(r2, m, (uint32_t)nl, m0i, from);
	else
		pvcw_r2_arr<2>(r2, m, (uint32_t)nl, m0i, from);
	return 1;
#else
	(void)r2; (void)m; (void)nl; (void)m0i; (void)from;
	return 0;
#endif
}

__host__ __device__ static inline int pvcw_hook_modexp_pub(uint32_t *x, uint32_t e,
	const uint32_t *r2, const uint32_t *m, size_t nl, uint32_t m0i)
{
#ifdef __CUDA_ARCH__
	if (!pvcw_on(nl))
		return 0;
	if (nl <= 32u)
		pvcw_modexp_pub<1>(x, e, r2, m, (uint32_t)nl, m0i);
	else
		pvcw_modexp_pub<2>(x, e, r2, m, (uint32_t)nl, m0i);
	return 1;
#else
	(void)x; (void)e; (void)r2; (void)m; (void)nl; (void)m0i;
	return 0;
#endif
}

/* x1 = x1^e1 mod m1 on this warp while warp 1 does x2 = x2^e2 mod m2;
 * with a recruited partner block both right to left (pvc_pair.cuh) */
__host__ __device__ static inline int pvcw_hook_modexp2(uint32_t *x1, const uint32_t *e1,
	const uint32_t *r2_1, const uint32_t *m1, uint32_t m0i_1, uint32_t *x2, const uint32_t *e2,
	const uint32_t *r2_2, const uint32_t *m2, uint32_t m0i_2, size_t ebits, size_t nl)
{
#ifdef __CUDA_ARCH__
	const uint32_t ew = (uint32_t)((ebits + 31u) / 32u);
	if (pvc_coop != 2u || nl > 32u || ew > PVCW_JOB_EW || !pvcw_on(nl) || (threadIdx.x >> 5) != 0u)
		return 0;
	const uint32_t L = pvcw_lane();
	pvcw_job *j = &pvcw_sjob;
	if (L < nl) {
		j->x[L] = x2[L];
		j->r2[L] = r2_2[L];
		j->m[L] = m2[L];
	}
	for (uint32_t i = L; i < ew; i += 32u)
		j->e[i] = e2[i];
	if (L == 0u) {
		j->nl = (uint32_t)nl;
		j->ebits = (uint32_t)ebits;
		j->m0i = m0i_2;
		j->op = 1;
	}
	__syncwarp();
	pvcw_bar(1);
	if (pvcw_xp != NULL)
		pvcx_modexp<PVCX_WIN>(pvcw_xp, 0u, x1, e1, (uint32_t)ebits, r2_1, m1, (uint32_t)nl, m0i_1);
	else
		pvcw_modexp<1>(x1, e1, (uint32_t)ebits, r2_1, m1, (uint32_t)nl, m0i_1);
	pvcw_bar(2);
	for (uint32_t i = 0; i < nl; i++)
		x2[i] = j->x[i];
	__syncwarp();
	j->x[L] = 0;
	j->r2[L] = 0;
	j->m[L] = 0;
	if (L < PVCW_JOB_EW)
		j->e[L] = 0;
	if (L < 2u)
		j->e[32u + L] = 0;
	if (L == 0u)
		j->op = 0;
	__syncwarp();
	return 1;
#else
	(void)x1; (void)e1; (void)r2_1; (void)m1; (void)m0i_1;
	(void)x2; (void)e2; (void)r2_2; (void)m2; (void)m0i_2; (void)ebits; (void)nl;
	return 0;
#endif
}

/* Trial division of a prime candidate (kc_prime.c's hook): lane L takes
 * the small primes L, L + 32, ...; the candidate passes when it passes on
 * every lane (a vote of the whole warp, so every lane gets the answer). */
__host__ __device__ static inline int pvcw_hook_split(size_t nl, uint32_t *first, uint32_t *step)
{
#ifdef __CUDA_ARCH__
	if (!pvcw_on(nl))
		return 0;
	*first = pvcw_lane();
	*step = 32u;
	return 1;
#else
	(void)nl; (void)first; (void)step;
	return 0;
#endif
}

__host__ __device__ static inline uint32_t pvcw_hook_all(uint32_t ok)
{
#ifdef __CUDA_ARCH__
	return __all_sync(PVCW_ALL, ok != 0u) ? 1u : 0u;
#else
	return ok;
#endif
}

/* CTR over n full blocks (kc_ctr.c's hook), defined in pvc_ctr_warp.cuh
 * after the core (it calls the block cipher). */
struct kc_bc;
__host__ __device__ static int pvcw_hook_ctr(const struct kc_bc *bc, uint8_t ctr[16], uint32_t cb,
	const uint8_t *in, uint8_t *out, size_t n);

/* ECB over n blocks (kc_bc.c's hook) and GHASH over n full blocks
 * (kc_ghash.c's hook), also in pvc_ctr_warp.cuh. */
__host__ __device__ static int pvcw_hook_ecb(const struct kc_bc *bc, int dec,
	const uint8_t *in, uint8_t *out, size_t n);
__host__ __device__ static int pvcw_hook_ghash(uint8_t y[16], const uint8_t h[16],
	const uint8_t *data, size_t n);
__host__ __device__ static int pvcw_hook_ghash_pw(uint8_t y[16], const uint8_t (*pow)[16],
	const uint8_t *data, size_t n);

#define KC_CTR_COOP(bc, ctr, cb, in, out, n) pvcw_hook_ctr(bc, ctr, cb, in, out, n)
#define KC_ECB_COOP(bc, dec, in, out, n) pvcw_hook_ecb(bc, dec, in, out, n)
#define KC_GHASH_COOP(y, h, data, n) pvcw_hook_ghash(y, h, data, n)
#define KC_GHASH_PW_COOP(y, pow, data, n) pvcw_hook_ghash_pw(y, pow, data, n)
#define KC_BN_COOP_MODEXP2(x1, e1, r2_1, m1, m0i_1, x2, e2, r2_2, m2, m0i_2, ebits, nl) \
	pvcw_hook_modexp2(x1, e1, r2_1, m1, m0i_1, x2, e2, r2_2, m2, m0i_2, ebits, nl)
#define KC_BN_COOP_MONTMUL(d, x, y, m, nl, m0i) pvcw_hook_montmul(d, x, y, m, nl, m0i)
#define KC_BN_COOP_MUL(d, x, xl, y, yl) pvcw_hook_mul(d, x, xl, y, yl)
#define KC_BN_COOP_MODEXP(x, e, ebits, r2, m, nl, m0i) pvcw_hook_modexp(x, e, ebits, r2, m, nl, m0i)
#define KC_BN_COOP_MODEXP_PUB(x, e, r2, m, nl, m0i) pvcw_hook_modexp_pub(x, e, r2, m, nl, m0i)
#define KC_BN_COOP_R2(r2, m, nl, m0i, from) pvcw_hook_r2(r2, m, nl, m0i, from)
#define KC_PRIME_COOP_SPLIT(nl, first, step) pvcw_hook_split(nl, first, step)
#define KC_PRIME_COOP_ALL(ok) pvcw_hook_all(ok)
#define KC_RSA_COOP_PREP_POST(cw, qb, db, rnd, bits, hl) pvcw_hook_prep_post(cw, qb, db, rnd, bits, hl)
#define KC_RSA_COOP_PREP_TAKE(m, ex, px, r2, m0ip) pvcw_hook_prep_take(m, ex, px, r2, m0ip)
#define KC_RSA_COOP_CHECK_POST(sw, cw, e, px, r2, m0i, hl) pvcw_hook_check_post(sw, cw, e, px, r2, m0i, hl)
#define KC_RSA_COOP_CHECK_TAKE() pvcw_hook_check_take()

#endif /* PVC_BN_WARP_CUH */
