/*
 * gpu_fault.cu - a deliberately failing kernel for the seal test: it
 * executes a trap instruction on its own stream, which puts the context
 * into a sticky error state (cudaErrorLaunchFailure), as a real device
 * fault would.  (A write through a wild pointer was used first; in three
 * H200 runs the check never got past it.  Cause not established: with HMM
 * a user-range address may be serviced as a page fault instead of failing
 * at once.  A trap fails at once on any system.)
 *
 * The trap too hung (run 17).  Likely cause: CUDA's lazy loading (the
 * default since 12.2) loads a kernel at its first launch, and loading may
 * need the context to synchronize - which never happens while the vault's
 * persistent kernel runs.  gpu_fault_prepare() loads the kernel before the
 * vault opens.
 */
#include <cuda_runtime.h>

__global__ void k_fault(void)
{
	__trap();
}

/* Load k_fault now (before a persistent kernel runs). */
extern "C" int gpu_fault_prepare(void)
{
	cudaFuncAttributes a;
	return cudaFuncGetAttributes(&a, k_fault) == cudaSuccess ? 0 : -1;
}

extern "C" int gpu_fault_launch(void)
{
	cudaStream_t s;
	if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
		return -1;
	k_fault<<<1, 1, 0, s>>>();
	return cudaGetLastError() == cudaSuccess ? 0 : -1;
}
