/*
 * gpu_burn.cu - the vault kernel's local-memory burn (gpu/cuda/pvc_burn.cuh)
 * on the device.
 *
 * A kernel calls a non-inlined function that leaves a pattern in its
 * local array (a stand-in for the engine's locals and spill slots), then
 * the burn, then a non-inlined probe that reads its own uninitialized local
 * array of the same size: the words it finds not zero are what an earlier
 * call left behind.  Without the burn (the control) the probe must find
 * the pattern, every word of it - so the probe does see the earlier frame
 * and the check can fail; with the burn it must find no word.  Sizes are
 * the vault's own PVC_BURN_BYTES.
 *
 * Without a CUDA device: one line "SKIP: no CUDA device", exit 77.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu/cuda/pvc_burn.cuh"

#define NW (PVC_BURN_BYTES / 16u)

__device__ static __noinline__ void fill(uint32_t pat)
{
	uint4 b[NW];
	const uint32_t a = (uint32_t)__cvta_generic_to_local(b);

	for (uint32_t i = 0; i < NW; i++)
		asm volatile("st.local.v4.u32 [%0], {%1, %2, %3, %4};"
			:: "r"(a + 16u * i), "r"(pat | 1u), "r"(pat + i), "r"(~pat | 1u), "r"(i | 0x80000000u)
			: "memory");
}

/* words of its (never written) local array that are not zero */
__device__ static __noinline__ uint32_t probe(void)
{
	uint4 b[NW];
	const uint32_t a = (uint32_t)__cvta_generic_to_local(b);
	uint32_t n = 0;

	for (uint32_t i = 0; i < NW; i++) {
		uint32_t x, y, z, w;
		asm volatile("ld.local.v4.u32 {%0, %1, %2, %3}, [%4];"
			: "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a + 16u * i) : "memory");
		n += (x != 0) + (y != 0) + (z != 0) + (w != 0);
	}
	return n;
}

__global__ void k_burn(int burn, uint32_t *left)
{
	const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;

	fill(0x5a5a0000u ^ (t << 1));
	if (burn)
		pvc_burn();
	left[t] = probe();
}

/* with the burn, the most words any thread found; without (the control),
 * the fewest; -1 on a CUDA error */
static long run(int burn, unsigned grid, unsigned block)
{
	const unsigned n = grid * block;
	uint32_t *d = NULL, *h = new uint32_t[n];
	long most = -1;

	if (cudaMalloc(&d, n * sizeof *d) == cudaSuccess && cudaMemset(d, 0xff, n * sizeof *d) == cudaSuccess) {
		k_burn<<<grid, block>>>(burn, d);
		if (cudaDeviceSynchronize() == cudaSuccess &&
		    cudaMemcpy(h, d, n * sizeof *d, cudaMemcpyDeviceToHost) == cudaSuccess) {
			/* after a burn the most any thread saw (0 expected); the
			 * control's fewest (every word expected) */
			most = (long)h[0];
			for (unsigned i = 1; i < n; i++)
				if (burn ? (long)h[i] > most : (long)h[i] < most)
					most = h[i];
		}
	}
	cudaFree(d);
	delete[] h;
	return most;
}

int main(void)
{
	int ndev = 0, fails = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		printf("SKIP: no CUDA device\n");
		return 77;
	}
	if (cudaDeviceSetLimit(cudaLimitStackSize, 2u * PVC_BURN_BYTES + 4096u) != cudaSuccess) {
		printf("FAIL: cudaDeviceSetLimit: %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	const long words = (long)NW * 4;
	for (int burn = 0; burn <= 1; burn++) {
		const long got = run(burn, 264, 64);
		const bool ok = burn ? got == 0 : got == words;
		printf("%s %s: %ld of %ld words of the earlier frame %s\n", ok ? "PASS" : "FAIL",
		       burn ? "burn" : "control (no burn)", got, words,
		       burn ? "left (most of any thread)" : "seen (fewest of any thread)");
		fails += !ok;
	}
	printf("gpu_burn: %d of 2 checks failed (%u-byte burn, 264 x 64 threads)\n", fails, PVC_BURN_BYTES);
	return fails ? 1 : 0;
}
