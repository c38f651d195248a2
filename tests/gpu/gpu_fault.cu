/*
 * gpu_fault.cu - a deliberately failing kernel for the seal test: it
 * executes a trap instruction on its own stream, which puts the context
 * into a sticky error state (cudaErrorLaunchFailure), as a real device
 * fault would.  (A write through a wild pointer was used first; in three
 * H200 runs the check never got past it.  Cause not established: with HMM
 * a user-range address may be serviced as a page fault instead of failing
 * at once.  A trap fails at once on any system.)
 */
#include <cuda_runtime.h>

__global__ void k_fault(void)
{
	__trap();
}

extern "C" int gpu_fault_launch(void)
{
	cudaStream_t s;
	if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
		return -1;
	k_fault<<<1, 1, 0, s>>>();
	return cudaGetLastError() == cudaSuccess ? 0 : -1;
}
