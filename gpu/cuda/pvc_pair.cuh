/*
 * pvc_pair.cuh - a lone RSA signature's CRT exponentiations on two blocks
 * of the vault kernel: the partner block squares, the block that runs
 * the request multiplies.
 *
 * Right to left with w-bit digits (Yao's method; w = PVCX_WIN): for a
 * half's modulus m and exponent e = sum d_j 2^(w j), warp h of the
 * partner block (h = 0 for p, 1 for q) computes y_0 = mont(x) and
 * y_(j+1) = y_j^(2^w) and stores each y_j into the pair's buffer; warp h
 * of the requesting block (the warps that run the two halves anyway)
 * multiplies each y_j into bucket d_j (every bucket read and written by
 * masks: constant time) and computes prod B_d^d = x^e in 2 (2^w - 2) + 1
 * products after the last y_j.  The squarings are then the only chain:
 * ~ebits products instead of the window method's ebits + ebits / 4 + 16
 * on one warp (gpu_bench mm measures both).
 * w = 2: the requesting warp has one product to do while the partner
 * squares twice (it keeps up with half its time to spare), and the
 * combination on the chain's end is 5 products instead of w = 4's 29.
 * The squarings run in
 * pvcx_serve, one copy for both halves: ptxas schedules warp 1's copy of
 * the product loop inside pvcw_helper with each limb's shuffle just
 * before its use, ~18 % slower than warp 0's, and the chain is
 * where that counts.  The exponent never leaves the requesting block.
 *
 * Hand-over through device memory, no fences on the squaring side: every
 * word is one 64-bit store of (tag << 32 | limb), and the reader polls
 * its own lane's word until it carries the tag it expects (tags are the
 * job's number and the digit's index, never 0).  The squarer never waits
 * for the products: the buffer holds every y_j of an exponent of up to
 * PVCW_JOB_EW words.  The reader zeroes what it read and wipes the job
 * record once the partner has read it (it has, when y_0 arrives), so the
 * buffer holds no value of a finished job.  Device memory is where
 * ve_execute's locals (local memory) live too: no new place for
 * secrets, and the host wipes the buffer with the vault's other device
 * memory on shutdown.
 *
 * The pair's claim protocol (which block may take a ticket, which one is
 * recruited) is the vault kernel's (vault_kernel.cu, pvc_pair_wait).
 */
#ifndef PVC_PAIR_CUH
#define PVC_PAIR_CUH

#include "gpu/cuda/pvc_sync.cuh"   /* pvc_now, relaxed polls, the release store */

#define PVCX_WIN 2        /* the vault's digits (gpu_bench mm compares 2 and 4) */
#define PVCX_WIN_MIN 2    /* the buffer holds every y_j of digits this small */
#define PVCX_NW ((32u * PVCW_JOB_EW + PVCX_WIN_MIN - 1u) / PVCX_WIN_MIN)   /* 544 digits */
#define PVCX_JOB 1u    /* ctl: a job is posted */
#define PVCX_END 2u    /* ctl: the request is over, leave pvcx_serve */

/* PVCX_STAMP(h, k, t): the vault kernel's profile row (vault_kernel.cu)
 * takes t at half h's pair column k (pvc_ring.h, PVC_PROF_PAIR + 4 h +
 * k; 8: the two blocks' multiprocessors); here nothing. */
#ifndef PVCX_STAMP
#define PVCX_STAMP(h, k, t) ((void)0)
#endif

/* Claim-state bits of block s (0 or 1) of a pair (pvcx_pair.word) */
#define PVCX_W(s) (1u << (s))    /* holds a ticket that is not ready   */
#define PVCX_P(s) (4u << (s))    /* parked: free, waits to take one    */
#define PVCX_H(s) (16u << (s))   /* recruited: serves its partner       */

struct pvcx_job {
	uint32_t m[32], r2[32], x[32];
	uint32_t m0i, nl, ebits, tag, win;
};

struct pvcx_pair {
	uint32_t word;           /* PVCX_W / _P / _H of both blocks */
	uint32_t pad0[31];
	uint32_t ctl[2];         /* per half: 0, PVCX_JOB or PVCX_END */
	uint32_t njob[2];        /* per half: jobs posted, for the tags */
	uint64_t tb[2];          /* per half: when the partner stored the last
	                            y_j (%globaltimer) */
	uint32_t smid[2];        /* each block's multiprocessor */
	uint32_t pad1[22];
	pvcx_job job[2];
	uint64_t y[2][PVCX_NW][32];
};

/* This lane's word of a 64-bit tagged array once it carries tag; zeroed */
__device__ __forceinline__ uint32_t pvcx_take(uint64_t *a, uint32_t tag)
{
	uint64_t v;
	do
		v = pvc_ld_rlx_gpu64(a);
	while ((uint32_t)(v >> 32) != tag);
	pvc_st_rlx_gpu64(a, 0);
	return (uint32_t)v;
}

/* Bucket d of 2^WIN (d a secret digit) times y: every bucket read and
 * written by masks, constant time. */
template <int WIN>
__device__ __forceinline__ void pvcx_bucket_mul(uint32_t (&bk)[1 << WIN], uint32_t d, const uint32_t (&y)[1],
	const uint32_t (&m)[1], uint32_t nl, uint32_t m0i)
{
	uint32_t sel[1] = { 0 }, r[1];
#pragma unroll
	for (int k = 0; k < (1 << WIN); k++)
		sel[0] |= (0u - (uint32_t)(d == (uint32_t)k)) & bk[k];
	pvcw_mm<1>(r, sel, y, m, nl, m0i);
#pragma unroll
	for (int k = 0; k < (1 << WIN); k++) {
		const uint32_t mk = 0u - (uint32_t)(d == (uint32_t)k);
		bk[k] = (r[0] & mk) | (bk[k] & ~mk);
	}
	sel[0] = r[0] = 0;
}

/* A = prod_d B_d^d over the buckets, out of Montgomery form: C = B_top
 * ... B_d, A = the product of the Cs (2 (2^WIN - 2) + 1 products).  The
 * buckets move down one register a step, so that the loop is not
 * unrolled: its two products are the same code each time (unrolled, 28
 * copies of the product ran from cold instruction caches). */
template <int WIN>
__device__ __forceinline__ void pvcx_buckets_out(uint32_t (&A)[1], uint32_t (&bk)[1 << WIN],
	const uint32_t (&m)[1], uint32_t nl, uint32_t m0i)
{
	uint32_t C[1] = { bk[(1 << WIN) - 1] }, s[1] = { 0 }, one[1] = { pvcw_lane() == 0u ? 1u : 0u };
	A[0] = C[0];
#pragma unroll 1
	for (int k = (1 << WIN) - 2; k >= 1; k--) {
		s[0] = bk[(1 << WIN) - 2];
#pragma unroll
		for (int j = (1 << WIN) - 2; j > 0; j--)
			bk[j] = bk[j - 1];
		pvcw_mm<1>(C, C, s, m, nl, m0i);
		pvcw_mm<1>(A, A, C, m, nl, m0i);
	}
	pvcw_mm<1>(A, A, one, m, nl, m0i);
	C[0] = s[0] = 0;
}

/* The requesting block's warp h (all lanes, identical data): x = x^e mod
 * m as pvcw_modexp computes it, the squarings on the partner's warp h:
 * this warp keeps the exponent and multiplies each y_j into its bucket
 * (WIN-bit digits: 2 or 4). */
template <int WIN>
__device__ __forceinline__ void pvcx_modexp(pvcx_pair *pp, uint32_t h, uint32_t *xp, const uint32_t *e,
	uint32_t ebits, const uint32_t *r2p, const uint32_t *mp, uint32_t nl, uint32_t m0i)
{
	static_assert(WIN >= (int)PVCX_WIN_MIN && WIN <= 4 && 32 % WIN == 0,
		"the buffer and the tags fit these digits, and no digit spans two exponent words");
	const uint32_t L = pvcw_lane(), nw = (ebits + WIN - 1u) / WIN;
	pvcx_job *j = &pp->job[h];
	uint32_t m[1], r2[1], x[1], one[1], yy[1], bk[1u << WIN], tag = 0;

	if (L == 0u) {
		tag = (__ldcg(&pp->njob[h]) + 1u) & 0x3fffffu;
		__stcg(&pp->njob[h], tag);
		tag <<= 10;
	}
	tag = __shfl_sync(PVCW_ALL, tag, 0);
	pvcw_exp_in<1>(m, r2, x, one, mp, r2p, xp, nl);
	__stcg(&j->m[L], m[0]);
	__stcg(&j->r2[L], r2[0]);
	__stcg(&j->x[L], x[0]);
	if (L == 0u) {
		__stcg(&j->m0i, m0i);
		__stcg(&j->nl, nl);
		__stcg(&j->ebits, ebits);
		__stcg(&j->tag, tag);
		__stcg(&j->win, (uint32_t)WIN);
	}
	__threadfence();
	__syncwarp();
	if (L == 0u)
		pvc_st_rel_gpu(&pp->ctl[h], PVCX_JOB);

	pvcw_mm<1>(yy, one, r2, m, nl, m0i);             /* mont(1) */
#pragma unroll
	for (int k = 0; k < (1 << WIN); k++)
		bk[k] = yy[0];
	for (uint32_t d = 0; d < nw; d++) {
		const uint32_t pos = WIN * d;
		const uint32_t dg = (e[pos >> 5] >> (pos & 31u)) & ((1u << WIN) - 1u);
		yy[0] = pvcx_take(&pp->y[h][d][L], tag | (d + 1u));
		__syncwarp();
		if (d == 0u) {     /* the partner has read the job: wipe it */
			__threadfence();
			__stcg(&j->m[L], 0u);
			__stcg(&j->r2[L], 0u);
			__stcg(&j->x[L], 0u);
			if (L == 0u)
				__stcg(&j->m0i, 0u);
		}
		pvcx_bucket_mul<WIN>(bk, dg, yy, m, nl, m0i);
	}
	const uint64_t tlast = pvc_now();
	pvcx_buckets_out<WIN>(x, bk, m, nl, m0i);
	PVCX_STAMP(h, 0, __ldcg((const unsigned long long *)&pp->tb[h]));
	PVCX_STAMP(h, 1, tlast);
	PVCX_STAMP(h, 2, pvc_now());
	if (h == 0u)
		PVCX_STAMP(2, 0, ((uint64_t)__ldcg(&pp->smid[0]) << 32) | __ldcg(&pp->smid[1]));   /* PVC_PROF_PAIR_SMS */
	pvcw_st<1>(xp, x, nl);
#pragma unroll
	for (int k = 0; k < (1 << WIN); k++)
		bk[k] = 0;
	x[0] = yy[0] = 0;
}

/* The recruited block's warp h (all lanes): serve half h's jobs - y_0 =
 * mont(x), y_(j+1) = y_j^(2^w) into the buffer, w the job's digit width -
 * until the requesting block posts PVCX_END.  It never sees the
 * exponent. */
__device__ static __noinline__ void pvcx_serve(pvcx_pair *pp, uint32_t h)
{
	const uint32_t L = pvcw_lane();
	unsigned ns = 32;

	for (;;) {
		const uint32_t c = pvc_ld_rlx_gpu(&pp->ctl[h]);
		if (c == 0u) {
			__nanosleep(ns);
			if (ns < 256u)
				ns <<= 1;
			continue;
		}
		ns = 32;
		pvc_fence_acq_gpu();
		__syncwarp();
		if (L == 0u)
			__stcg(&pp->ctl[h], 0u);
		if (c != PVCX_JOB)
			return;
		const pvcx_job *j = &pp->job[h];
		const uint32_t nl = __ldcg(&j->nl), m0i = __ldcg(&j->m0i), tag = __ldcg(&j->tag);
		const uint32_t eb = __ldcg(&j->ebits), jw = __ldcg(&j->win);
		const uint32_t w = jw >= PVCX_WIN_MIN && jw <= 4u ? jw : 4u;
		const uint32_t nw = (eb < 32u * PVCW_JOB_EW ? eb + w - 1u : 32u * PVCW_JOB_EW) / w;
		uint32_t m[1], r2[1], x[1], y[1];
		m[0] = __ldcg(&j->m[L]);
		r2[0] = __ldcg(&j->r2[L]);
		x[0] = __ldcg(&j->x[L]);
		__threadfence();   /* read before the requester sees y_0 and wipes the job */
		pvcw_mm<1>(y, x, r2, m, nl, m0i);              /* y_0 = mont(x) */
		for (uint32_t d = 0; d < nw; d++) {
			pvc_st_rlx_gpu64(&pp->y[h][d][L], ((uint64_t)(tag | (d + 1u)) << 32) | y[0]);
			if (d + 1u < nw)
				for (uint32_t k = 0; k < w; k++)
					pvcw_mm<1>(y, y, y, m, nl, m0i);
		}
		if (L == 0u)
			__stcg((unsigned long long *)&pp->tb[h], (unsigned long long)pvc_now());
		x[0] = y[0] = r2[0] = 0;
	}
}

#endif /* PVC_PAIR_CUH */
