/*
 * gpu_fault.cu - a deliberately faulting kernel for the seal test: it
 * writes through a wild pointer on its own stream, which puts the context
 * into a sticky error state, as a real device fault would.
 */
#include <cuda_runtime.h>

__global__ void k_fault(unsigned *p)
{
	*(volatile unsigned *)((char *)p + 0x7ff0000000ull) = 1u;
}

extern "C" int gpu_fault_launch(void)
{
	cudaStream_t s;
	if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
		return -1;
	k_fault<<<1, 1, 0, s>>>((unsigned *)0x1000);
	return cudaGetLastError() == cudaSuccess ? 0 : -1;
}
