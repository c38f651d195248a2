/*
 * pvc_ctr_warp.cuh - the CTR hook of gpu/core/sym/kc_ctr.c for a warp
 * that runs one request on all lanes with identical data (pvc_bn_warp.cuh
 * declares it; this file, included after the core, defines it).  An RSA
 * request's key blob is 2,312 bytes of AES-GCM: on one GPU thread its CTR
 * part costs ~1 ms; over 32 lanes each encrypts 5 blocks.
 */
#ifndef PVC_CTR_WARP_CUH
#define PVC_CTR_WARP_CUH

/* CTR over n full blocks (kc_ctr.c's hook): lane L encrypts counter
 * blocks L, L + 32, ...; every lane then writes all n output blocks into
 * its own out (shuffled 4 words at a time) and advances its ctr by n.
 * Worth it from 2 blocks on: one AES block on a lone GPU thread costs
 * ~6 us (an RSA key blob has 144 blocks, an EC key blob ~8). */
__host__ __device__ static int pvcw_hook_ctr(const struct kc_bc *bc, uint8_t ctr[16], uint32_t cb,
	const uint8_t *in, uint8_t *out, size_t n)
{
#ifdef __CUDA_ARCH__
	if (n < 2u || !pvcw_on(0))
		return 0;
	const uint32_t L = pvcw_lane();
	uint8_t c[16], ks[16];
	uint32_t w[4];
	kc_memcpy(c, ctr, 16);
	for (uint32_t i = 0; i < L; i++)
		kc_ctr_inc(c, cb);
	for (size_t r = 0; r < n; r += 32u) {
		const size_t j = r + L;          /* this lane's block of the round */
		if (j < n) {
			kc_bc_encrypt_n(bc, c, ks, 1);
			for (int k = 0; k < 16; k++)
				ks[k] ^= in[16u * j + (size_t)k];
		}
		kc_memcpy(w, ks, 16);
		for (uint32_t l = 0; l < 32u && r + l < n; l++) {
			uint32_t v[4];
			for (int k = 0; k < 4; k++)
				v[k] = __shfl_sync(PVCW_ALL, w[k], l);
			kc_memcpy(out + 16u * (r + l), v, 16);
		}
		for (uint32_t i = 0; i < 32u; i++)
			kc_ctr_inc(c, cb);
	}
	for (size_t i = 0; i < n; i++)
		kc_ctr_inc(ctr, cb);
	kc_wipe(ks, sizeof ks);
	kc_wipe(w, sizeof w);
	return 1;
#else
	(void)bc; (void)ctr; (void)cb; (void)in; (void)out; (void)n;
	return 0;
#endif
}

#endif /* PVC_CTR_WARP_CUH */
