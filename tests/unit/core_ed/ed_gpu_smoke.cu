/*
 * ed_gpu_smoke.cu - manual GPU check of gpu/core/ec/ed25519 (not part of the
 * meson suites): the core .c files are #included into one CUDA translation
 * unit as the CUDA backend does, 256 threads each derive a key, sign and
 * verify on the device, and the host build of the same sources must give
 * identical public keys and signatures.
 *   nvcc -arch=sm_90 -std=c++17 -I. tests/unit/core_ed/ed_gpu_smoke.cu -o /tmp/ed_gpu_smoke
 */
#include "gpu/core/kc_util.c"
#include "gpu/core/hash/kc_sha1.c"
#include "gpu/core/hash/kc_sha256.c"
#include "gpu/core/hash/kc_sha512.c"
#include "gpu/core/hash/kc_sha3.c"
#include "gpu/core/hash/kc_sm3.c"
#include "gpu/core/hash/kc_hash.c"
#include "gpu/core/hash/kc_hmac.c"
#include "gpu/core/hash/kc_drbg.c"
#include "gpu/core/ec/ed25519/kc_f25519.c"
#include "gpu/core/ec/ed25519/kc_sc25519.c"
#include "gpu/core/ec/ed25519/kc_ge25519_tab.c"
#include "gpu/core/ec/ed25519/kc_ge25519.c"
#include "gpu/core/ec/ed25519/kc_ed25519.c"
#include <cstdio>
#include <cstring>
__global__ void k(const uint8_t *seeds, const uint8_t *msg, size_t len, uint8_t *pubs, uint8_t *sigs, int *rc, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	kc_ed25519_pubkey(seeds + 32 * i, pubs + 32 * i);
	kc_ed25519_sign(seeds + 32 * i, pubs + 32 * i, msg, len, sigs + 64 * i);
	rc[i] = kc_ed25519_verify(pubs + 32 * i, msg, len, sigs + 64 * i, 64);
}
int main(void)
{
	const int n = 256;
	static uint8_t seeds[32 * n], pubs[32 * n], sigs[64 * n], hp[32 * n], hs[64 * n];
	uint8_t msg[100];
	int rc[n];
	for (int i = 0; i < 32 * n; i++) seeds[i] = (uint8_t)(i * 131 + 7);
	for (int i = 0; i < 100; i++) msg[i] = (uint8_t)i;
	uint8_t *ds, *dm, *dp, *dsg; int *drc;
	cudaMalloc(&ds, sizeof seeds); cudaMalloc(&dm, 100); cudaMalloc(&dp, sizeof pubs);
	cudaMalloc(&dsg, sizeof sigs); cudaMalloc(&drc, sizeof rc);
	cudaMemcpy(ds, seeds, sizeof seeds, cudaMemcpyHostToDevice);
	cudaMemcpy(dm, msg, 100, cudaMemcpyHostToDevice);
	k<<<n / 64, 64>>>(ds, dm, 100, dp, dsg, drc, n);
	cudaError_t e = cudaDeviceSynchronize();
	printf("kernel: %s\n", cudaGetErrorString(e));
	cudaMemcpy(pubs, dp, sizeof pubs, cudaMemcpyDeviceToHost);
	cudaMemcpy(sigs, dsg, sizeof sigs, cudaMemcpyDeviceToHost);
	cudaMemcpy(rc, drc, sizeof rc, cudaMemcpyDeviceToHost);
	int bad = 0;
	for (int i = 0; i < n; i++) {
		kc_ed25519_pubkey(seeds + 32 * i, hp + 32 * i);
		kc_ed25519_sign(seeds + 32 * i, hp + 32 * i, msg, 100, hs + 64 * i);
		if (memcmp(hp + 32 * i, pubs + 32 * i, 32) || memcmp(hs + 64 * i, sigs + 64 * i, 64) || rc[i] != 0) bad++;
	}
	printf("gpu vs host: %d of %d differ\n", bad, n);

	/* throughput of pubkey + sign + verify, one thread each */
	{
		const int N = 65536;
		uint8_t *bs, *bp, *bsg; int *brc;
		cudaEvent_t t0, t1;
		float ms;
		cudaMalloc(&bs, 32 * N); cudaMalloc(&bp, 32 * N); cudaMalloc(&bsg, 64 * N);
		cudaMalloc(&brc, sizeof(int) * N);
		cudaMemset(bs, 0x5a, 32 * N);
		cudaEventCreate(&t0); cudaEventCreate(&t1);
		k<<<N / 128, 128>>>(bs, dm, 100, bp, bsg, brc, N);   /* warm-up */
		cudaEventRecord(t0);
		k<<<N / 128, 128>>>(bs, dm, 100, bp, bsg, brc, N);
		cudaEventRecord(t1);
		e = cudaEventSynchronize(t1);
		cudaEventElapsedTime(&ms, t0, t1);
		printf("%d x (pubkey + sign + verify, 100-byte message): %.1f ms, %.0f/s (%s)\n",
		       N, ms, N / (ms / 1000.0), cudaGetErrorString(e));
	}
	return bad != 0 || e != cudaSuccess;
}
