/*
 * pvc_ctr_warp.cuh - the symmetric hooks of the core for a warp that runs
 * one request on all lanes with identical data (pvc_bn_warp.cuh declares
 * them; this file, included after the core, defines them):
 *   KC_CTR_COOP   (kc_ctr.c)   CTR over n full blocks,
 *   KC_ECB_COOP   (kc_bc.c)    ECB encrypt / decrypt over n blocks,
 *   KC_GHASH_COOP (kc_ghash.c) GHASH over n full blocks.
 * The vault kernel runs RSA and EC signing on the warp, and AES/SM4-GCM,
 * CTR and ECB requests from PVC_SYM_WARP_MIN bytes of input (pvc_lanes).
 * An RSA request's key blob is 2,312 bytes of AES-GCM: on one GPU thread
 * its CTR part costs ~1 ms.
 */
#ifndef PVC_CTR_WARP_CUH
#define PVC_CTR_WARP_CUH

/* Blocks per lane per round: the bitsliced AES computes two blocks per
 * pass (kc_aes_ct.c), so a lane's second block is nearly free. */
#define PVCW_BPL 2u
#define PVCW_ROUND (32u * PVCW_BPL)

#ifdef __CUDA_ARCH__
/* Every lane writes the round's output blocks [r, r + cnt) into its own
 * out: lane l's PVCW_BPL blocks come by shuffles, 4 words at a time. */
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
#endif

/* CTR over n full blocks (kc_ctr.c's hook): in round r (PVCW_ROUND
 * blocks) lane L encrypts counter blocks r + 2L and r + 2L + 1; every lane
 * then writes all the round's output blocks into its own out and at the
 * end advances its ctr by n (kc_ctr_add, kc_ctr.c).  Worth it from 2
 * blocks on: one AES block on a lone GPU thread costs ~6 us (an RSA key
 * blob has 144 blocks, an EC key blob ~8; run 25).  in may equal out: a
 * round reads its blocks before the shuffles and writes only its own
 * blocks after them. */
__host__ __device__ static int pvcw_hook_ctr(const struct kc_bc *bc, uint8_t ctr[16], uint32_t cb,
	const uint8_t *in, uint8_t *out, size_t n)
{
#ifdef __CUDA_ARCH__
	if (n < 2u || !pvcw_on(0))
		return 0;
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

/* ECB over n blocks (kc_bc.c's hook): lane L en/decrypts blocks r + 2L
 * and r + 2L + 1 of each round, every lane writes all of them.  in may
 * equal out (as for CTR). */
__host__ __device__ static int pvcw_hook_ecb(const struct kc_bc *bc, int dec,
	const uint8_t *in, uint8_t *out, size_t n)
{
#ifdef __CUDA_ARCH__
	if (n < 32u || !pvcw_on(0))
		return 0;
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
 * H^e), the parts are XOR-reduced by shuffles, every lane gets y.  Worth it
 * from 64 blocks on: a part costs m = ceil((n - L) / 32) products plus 24
 * for the powers H^32 and H^e (12 each); serial GHASH n. */
__host__ __device__ static int pvcw_hook_ghash(uint8_t y[16], const uint8_t h[16],
	const uint8_t *data, size_t n)
{
#ifdef __CUDA_ARCH__
	if (n < 64u || !pvcw_on(0))
		return 0;
	uint8_t part[16];
	uint32_t w[4];
	kc_ghash_part(part, y, h, data, n, pvcw_lane(), 32u);
	kc_memcpy(w, part, 16);
	for (uint32_t d = 16u; d > 0u; d >>= 1)
		for (int k = 0; k < 4; k++)
			w[k] ^= __shfl_xor_sync(PVCW_ALL, w[k], d);
	kc_memcpy(y, w, 16);
	kc_wipe(part, sizeof part);
	kc_wipe(w, sizeof w);
	return 1;
#else
	(void)y; (void)h; (void)data; (void)n;
	return 0;
#endif
}

#endif /* PVC_CTR_WARP_CUH */
