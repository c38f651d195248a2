/*
 * pvc_ctr_warp.cuh - the symmetric hooks of the core for a warp that runs
 * one request on all lanes with identical data (pvc_bn_warp.cuh declares
 * them; this file, included after the core, defines them):
 *   KC_CTR_COOP   (kc_ctr.c)   CTR over n full blocks,
 *   KC_ECB_COOP   (kc_bc.c)    ECB encrypt / decrypt over n blocks,
 *   KC_GHASH_COOP (kc_ghash.c) GHASH over n full blocks,
 *   KC_GHASH_PW_COOP (kc_ghash.c) GHASH over n <= 32 full blocks with the
 *                 powers of H given (a key blob under the vault's KEK).
 * The vault kernel runs RSA and EC signing on the warp, and AES/SM4-GCM,
 * CTR and ECB requests from PVC_SYM_WARP_MIN bytes of input (pvc_lanes).
 * An RSA request's key blob is 2,312 bytes of AES-GCM: on one GPU thread
 * its CTR part costs ~1 ms.
 *
 * Two shapes.  A request's message lies in global memory (the block's
 * copy of the arena), one buffer that every lane sees: each lane writes
 * only its own blocks, and warp 1 (free in mode 2) takes half of them
 * (job ops 3 and 4 of pvcw_helper): 64 lanes per message.  A private
 * buffer (a key blob unwrapped into a lane's locals) needs its bytes in
 * every lane: the lanes compute their blocks and each lane writes all of
 * them, taken from the others by shuffles.
 */
#ifndef PVC_CTR_WARP_CUH
#define PVC_CTR_WARP_CUH

/* Blocks per lane per round: the bitsliced AES computes two blocks per
 * pass (kc_aes_ct.c), so a lane's second block is nearly free. */
#define PVCW_BPL 2u
#define PVCW_ROUND (32u * PVCW_BPL)

/* What a lane does with its blocks (pvcw_sym_lanes). */
#define PVCW_CTR 0u
#define PVCW_ECB_ENC 1u
#define PVCW_ECB_DEC 2u

/* Warp 1's share of a pass over a message in global memory (ops 3 and 4
 * of pvcw_helper).  The key schedule, H and warp 1's GHASH sum are
 * secrets: warp 0 copies them in for the job and wipes them when warp 1
 * is done.  (GHASH's y enters with block 0, which is warp 0's.) */
struct pvcw_symjob {
	kc_bc bc;
	uint8_t ctr[16], h[16], part1[16];
	const uint8_t *in;
	uint8_t *out;
	size_t n;
	uint32_t cb, mode;
};
static __shared__ pvcw_symjob pvcw_ssym;
static_assert(sizeof(kc_bc) % 4u == 0u, "kc_bc is copied by words");

/* p is in global memory and the same pointer in every lane: the lanes
 * then see one buffer (the request's arena copy), and each may write its
 * own blocks of it instead of every lane writing all of them into a
 * private copy. */
__device__ static inline bool pvcw_one_buffer(const void *p)
{
	const unsigned long long v = (unsigned long long)(uintptr_t)p;
	return __all_sync(PVCW_ALL, __isGlobal(p) && __shfl_sync(PVCW_ALL, v, 0) == v) != 0;
}

/* in and out are one buffer each and equal or disjoint (n blocks). */
__device__ static inline bool pvcw_direct(const uint8_t *in, const uint8_t *out, size_t n)
{
	return pvcw_one_buffer(in) && pvcw_one_buffer(out) &&
	       (in == out || in + 16u * n <= out || out + 16u * n <= in);
}

/* Warp 1 is waiting in pvcw_helper and free for a job. */
__device__ static inline bool pvcw_w1_free(void)
{
	return pvc_coop == 2u && (threadIdx.x >> 5) == 0u && pvcw_sjob.op == 0u;
}

/* Lane g of ng: in each round of PVCW_BPL ng blocks it takes blocks
 * r + 2g and r + 2g + 1 (CTR: counter blocks ctr + those indices) and
 * writes them straight into out, which every lane shares (pvcw_direct);
 * a block is read and written by one lane only, so in may equal out. */
__device__ static void pvcw_sym_lanes(const kc_bc *bc, uint32_t mode, const uint8_t ctr[16],
	uint32_t cb, const uint8_t *in, uint8_t *out, size_t n, uint32_t g, uint32_t ng)
{
	uint4 c[PVCW_BPL], ks[PVCW_BPL];
	const bool al = (((uintptr_t)in | (uintptr_t)out) & 15u) == 0u;

	if (mode == PVCW_CTR) {
		kc_memcpy(c, ctr, 16);
		kc_ctr_add((uint8_t *)c, cb, PVCW_BPL * g);
	}
	for (size_t r = 0; r < n; r += (size_t)PVCW_BPL * ng) {
		const size_t j = r + (size_t)PVCW_BPL * g;
		if (j < n) {
			const size_t k = n - j < PVCW_BPL ? n - j : PVCW_BPL;
			if (mode == PVCW_ECB_ENC) {
				kc_bc_encrypt_n(bc, in + 16u * j, out + 16u * j, k);
			} else if (mode == PVCW_ECB_DEC) {
				kc_bc_decrypt_n(bc, in + 16u * j, out + 16u * j, k);
			} else {
				for (uint32_t b = 1; b < PVCW_BPL; b++) {
					c[b] = c[b - 1];
					kc_ctr_add((uint8_t *)&c[b], cb, 1u);
				}
				kc_bc_encrypt_n(bc, (const uint8_t *)c, (uint8_t *)ks, k);
				if (al) {
					for (size_t b = 0; b < k; b++) {
						const uint4 x = ((const uint4 *)in)[j + b];
						((uint4 *)out)[j + b] = make_uint4(x.x ^ ks[b].x, x.y ^ ks[b].y,
						                                   x.z ^ ks[b].z, x.w ^ ks[b].w);
					}
				} else {
					for (size_t q = 0; q < 16u * k; q++)
						out[16u * j + q] = in[16u * j + q] ^ ((const uint8_t *)ks)[q];
				}
			}
		}
		if (mode == PVCW_CTR)
			kc_ctr_add((uint8_t *)c, cb, PVCW_BPL * ng);
	}
	kc_wipe(c, sizeof c);
	kc_wipe(ks, sizeof ks);
}

/* A pass over n blocks of a message in global memory (pvcw_direct):
 * warp 0 alone, or warps 0 and 1 (64 lanes) when warp 1 is free and the
 * message has a round for each; out is complete for every lane of warp 0
 * on return. */
__device__ static void pvcw_sym_pass(const kc_bc *bc, uint32_t mode, const uint8_t ctr[16],
	uint32_t cb, const uint8_t *in, uint8_t *out, size_t n)
{
	const uint32_t L = pvcw_lane();
	uint32_t *sbc = (uint32_t *)&pvcw_ssym.bc;

	if (n < 2u * PVCW_ROUND || !pvcw_w1_free()) {
		pvcw_sym_lanes(bc, mode, ctr, cb, in, out, n, L, 32u);
		__syncwarp();
		return;
	}
	for (uint32_t i = L; i < sizeof(kc_bc) / 4u; i += 32u)
		sbc[i] = ((const uint32_t *)bc)[i];
	if (L == 0u) {
		if (mode == PVCW_CTR)
			kc_memcpy(pvcw_ssym.ctr, ctr, 16);
		pvcw_ssym.in = in;
		pvcw_ssym.out = out;
		pvcw_ssym.n = n;
		pvcw_ssym.cb = cb;
		pvcw_ssym.mode = mode;
		pvcw_sjob.op = 3u;
	}
	__syncwarp();
	pvcw_bar(1);
	pvcw_sym_lanes(bc, mode, ctr, cb, in, out, n, L, 64u);
	pvcw_bar(2);      /* warp 1's blocks are written (bar.sync orders memory) */
	for (uint32_t i = L; i < sizeof(kc_bc) / 4u; i += 32u)
		sbc[i] = 0;
	if (L == 0u)
		pvcw_sjob.op = 0;
	__syncwarp();
}

/* w4 = the XOR of the warp's lanes' w4, in every lane (a butterfly of
 * shuffles). */
__device__ static inline void pvcw_xor_lanes(uint32_t w4[4])
{
	for (uint32_t d = 16u; d > 0u; d >>= 1)
		for (int k = 0; k < 4; k++)
			w4[k] ^= __shfl_xor_sync(PVCW_ALL, w4[k], d);
}

/* GHASH parts of lanes g = 32 w + L of 64 (warp w), XOR-reduced over the
 * warp: every lane gets its warp's sum in w4. */
__device__ static void pvcw_ghash_warp(uint32_t w4[4], const uint8_t y[16], const uint8_t h[16],
	const uint8_t *data, size_t n, uint32_t g, uint32_t ng)
{
	uint8_t part[16];
	kc_ghash_part(part, y, h, data, n, g, ng);
	kc_memcpy(w4, part, 16);
	pvcw_xor_lanes(w4);
	kc_wipe(part, sizeof part);
}

/* pvcw_helper's ops 3 and 4: warp 1 is lanes 32..63 of the pass. */
__device__ static void pvcw_job_sym(uint32_t op)
{
	const uint32_t g = 32u + pvcw_lane();
	if (op == 3u) {
		pvcw_sym_lanes(&pvcw_ssym.bc, pvcw_ssym.mode, pvcw_ssym.ctr, pvcw_ssym.cb,
		               pvcw_ssym.in, pvcw_ssym.out, pvcw_ssym.n, g, 64u);
	} else {
		const uint8_t y0[16] = { 0 };   /* unused: lanes 32..63 never hold block 0 */
		uint32_t w4[4];
		pvcw_ghash_warp(w4, y0, pvcw_ssym.h, pvcw_ssym.in, pvcw_ssym.n, g, 64u);
		if (g == 32u)
			kc_memcpy(pvcw_ssym.part1, w4, 16);
		kc_wipe(w4, sizeof w4);
	}
}

/* Every lane writes the round's output blocks [r, r + cnt) into its own
 * out (a private buffer: pvcw_direct failed): lane l's PVCW_BPL blocks
 * come by shuffles, 4 words at a time. */
__device__ static inline void pvcw_gather_out(uint8_t *out, size_t r, size_t n,
	const uint8_t ks[16 * PVCW_BPL])
{
	uint32_t w[4 * PVCW_BPL];
	kc_memcpy(w, ks, sizeof w);
	for (uint32_t l = 0; l < 32u && r + PVCW_BPL * l < n; l++)
		for (uint32_t b = 0; b < PVCW_BPL; b++) {
			uint32_t v[4];
			for (int k = 0; k < 4; k++)
				v[k] = __shfl_sync(PVCW_ALL, w[4 * b + k], l);
			if (r + PVCW_BPL * l + b < n)
				kc_memcpy(out + 16u * (r + PVCW_BPL * l + b), v, 16);
		}
	kc_wipe(w, sizeof w);
}

/* CTR over n full blocks (kc_ctr.c's hook).  A message in global memory
 * (the request's data) goes through pvcw_sym_pass: each lane of warp 0,
 * and of warp 1 when it is free, writes its own blocks.  A private buffer
 * (a key blob unwrapped into locals): in round r (PVCW_ROUND blocks) lane
 * L encrypts counter blocks r + 2L and r + 2L + 1 and every lane then
 * writes all the round's output blocks into its own out.  Either way ctr
 * advances by n (kc_ctr_add, kc_ctr.c).  Worth it from 2 blocks on: one
 * AES block on a lone GPU thread costs microseconds (the bitsliced,
 * table-free cipher), and an RSA key blob alone is dozens of blocks, an EC
 * key blob ~8.  in may equal out: a round reads its
 * blocks before the shuffles and writes only its own blocks after them. */
__host__ __device__ static int pvcw_hook_ctr(const struct kc_bc *bc, uint8_t ctr[16], uint32_t cb,
	const uint8_t *in, uint8_t *out, size_t n)
{
#ifdef __CUDA_ARCH__
	if (n < 2u || !pvcw_on(0))
		return 0;
	if (pvcw_direct(in, out, n)) {
		pvcw_sym_pass(bc, PVCW_CTR, ctr, cb, in, out, n);
		kc_ctr_add(ctr, cb, (uint32_t)n);
		return 1;
	}
	const uint32_t L = pvcw_lane();
	uint8_t c[16 * PVCW_BPL], ks[16 * PVCW_BPL];
	kc_memset(ks, 0, sizeof ks);        /* defined values for lanes without a block */
	kc_memcpy(c, ctr, 16);
	kc_ctr_add(c, cb, PVCW_BPL * L);
	for (size_t r = 0; r < n; r += PVCW_ROUND) {
		const size_t j = r + PVCW_BPL * L;   /* this lane's first block of the round */
		for (uint32_t b = 1; b < PVCW_BPL; b++) {
			kc_memcpy(c + 16u * b, c + 16u * (b - 1u), 16);
			kc_ctr_add(c + 16u * b, cb, 1u);
		}
		if (j < n) {
			const size_t k = n - j < PVCW_BPL ? n - j : PVCW_BPL;
			kc_bc_encrypt_n(bc, c, ks, k);
			for (size_t q = 0; q < 16u * k; q++)
				ks[q] ^= in[16u * j + q];
		}
		pvcw_gather_out(out, r, n, ks);
		kc_ctr_add(c, cb, PVCW_ROUND);
	}
	kc_ctr_add(ctr, cb, (uint32_t)n);
	kc_wipe(ks, sizeof ks);
	return 1;
#else
	(void)bc; (void)ctr; (void)cb; (void)in; (void)out; (void)n;
	return 0;
#endif
}

/* ECB over n blocks (kc_bc.c's hook): as CTR without counters - a
 * message in global memory through pvcw_sym_pass, a private buffer by
 * lane L en/decrypting blocks r + 2L and r + 2L + 1 of each round and
 * every lane writing all of them.  in may equal out (as for CTR). */
__host__ __device__ static int pvcw_hook_ecb(const struct kc_bc *bc, int dec,
	const uint8_t *in, uint8_t *out, size_t n)
{
#ifdef __CUDA_ARCH__
	if (n < 32u || !pvcw_on(0))
		return 0;
	if (pvcw_direct(in, out, n)) {
		pvcw_sym_pass(bc, dec ? PVCW_ECB_DEC : PVCW_ECB_ENC, NULL, 0u, in, out, n);
		return 1;
	}
	const uint32_t L = pvcw_lane();
	uint8_t ks[16 * PVCW_BPL];
	kc_memset(ks, 0, sizeof ks);
	for (size_t r = 0; r < n; r += PVCW_ROUND) {
		const size_t j = r + PVCW_BPL * L;
		if (j < n) {
			const size_t k = n - j < PVCW_BPL ? n - j : PVCW_BPL;
			if (dec)
				kc_bc_decrypt_n(bc, in + 16u * j, ks, k);
			else
				kc_bc_encrypt_n(bc, in + 16u * j, ks, k);
		}
		pvcw_gather_out(out, r, n, ks);
	}
	kc_wipe(ks, sizeof ks);
	return 1;
#else
	(void)bc; (void)dec; (void)in; (void)out; (void)n;
	return 0;
#endif
}

/* GHASH over n full blocks (kc_ghash.c's hook): lane L computes
 * kc_ghash_part (blocks L, L + 32, ... by Horner's rule with H^32, times
 * H^e), the parts are XOR-reduced by shuffles, every lane gets y.  Over a
 * message in global memory with warp 1 free, the 64 lanes of both warps
 * split it (stride 64) and warp 1's sum comes through shared memory.
 * Worth it from 64 blocks on: a part costs m = ceil((n - L) / 32)
 * products plus 24 for the powers H^32 and H^e (12 each); serial GHASH n. */
__host__ __device__ static int pvcw_hook_ghash(uint8_t y[16], const uint8_t h[16],
	const uint8_t *data, size_t n)
{
#ifdef __CUDA_ARCH__
	if (n < 64u || !pvcw_on(0))
		return 0;
	const uint32_t L = pvcw_lane();
	uint32_t w[4];
	if (n < 2u * PVCW_ROUND || !pvcw_w1_free() || !pvcw_one_buffer(data)) {
		pvcw_ghash_warp(w, y, h, data, n, L, 32u);
	} else {
		if (L == 0u) {
			kc_memcpy(pvcw_ssym.h, h, 16);
			pvcw_ssym.in = data;
			pvcw_ssym.n = n;
			pvcw_sjob.op = 4u;
		}
		__syncwarp();
		pvcw_bar(1);
		pvcw_ghash_warp(w, y, h, data, n, L, 64u);
		pvcw_bar(2);
		for (int k = 0; k < 4; k++)
			w[k] ^= ((const uint32_t *)pvcw_ssym.part1)[k];
		__syncwarp();
		if (L == 0u) {
			kc_memset(pvcw_ssym.h, 0, 16);
			kc_memset(pvcw_ssym.part1, 0, 16);
			pvcw_sjob.op = 0;
		}
		__syncwarp();
	}
	kc_memcpy(y, w, 16);
	kc_wipe(w, sizeof w);
	return 1;
#else
	(void)y; (void)h; (void)data; (void)n;
	return 0;
#endif
}

/* GHASH over n <= KC_GHASH_POW_N full blocks with H's powers
 * (kc_ghash_pw's hook): lane L < n takes block L, (y ^) X_L times
 * H^(n - L) = pow[n - 1 - L], and the products are XOR-reduced by
 * shuffles: one product on the critical path instead of n.  pow is the
 * vault's (shared memory), data the lane's own copy. */
__host__ __device__ static int pvcw_hook_ghash_pw(uint8_t y[16], const uint8_t (*pow)[16],
	const uint8_t *data, size_t n)
{
#ifdef __CUDA_ARCH__
	if (n < 2u || !pvcw_on(0))
		return 0;
	const uint32_t L = pvcw_lane();
	kc_gf128 a = { 0, 0 };
	uint32_t w[4];
	if (L < n) {
		const uint8_t *x = data + 16u * L, *p = pow[n - 1u - L];
		a.h = kc_load_be64(x);
		a.l = kc_load_be64(x + 8);
		if (L == 0u) {
			a.h ^= kc_load_be64(y);
			a.l ^= kc_load_be64(y + 8);
		}
		a = kc_ghash_mul(a, kc_load_be64(p), kc_load_be64(p + 8));
	}
	w[0] = (uint32_t)(a.h >> 32); w[1] = (uint32_t)a.h;
	w[2] = (uint32_t)(a.l >> 32); w[3] = (uint32_t)a.l;
	pvcw_xor_lanes(w);
	for (int k = 0; k < 4; k++)
		kc_store_be32(y + 4 * k, w[k]);
	KC_WIPE_REGS(&a, sizeof a);
	KC_WIPE_REGS(w, sizeof w);
	return 1;
#else
	(void)y; (void)pow; (void)data; (void)n;
	return 0;
#endif
}

#endif /* PVC_CTR_WARP_CUH */
