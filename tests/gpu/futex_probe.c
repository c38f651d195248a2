/*
 * futex_probe.c - do Linux futexes sleep and wake on the CUDA backend's
 * ring memory (cudaHostAlloc, mapped + portable)?  The producers sleep on
 * ring words with shared futexes (gpu/host/pv_futex.h); a futex that
 * fails at once (EFAULT) on that memory would turn every sleep into a
 * busy loop.  For the pinned ring, malloc'd memory (reference), shared and
 * private: FUTEX_WAIT with a 50 ms timeout (its return, errno, elapsed),
 * then a waiter woken by FUTEX_WAKE after 10 ms (elapsed ~10 ms = woken,
 * ~50 ms = the wake was lost).  Also the ring's line of /proc/self/maps.
 * Build on the GPU machine: gcc -O2 -I/usr/local/cuda/include
 * tests/gpu/futex_probe.c -L/usr/local/cuda/lib64 -lcudart -lpthread
 */
#define _GNU_SOURCE
#include <cuda_runtime.h>
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static long fx(uint32_t *w, int op, uint32_t val, int ms)
{
	struct timespec ts = { 0, (long)ms * 1000000L };
	return syscall(SYS_futex, w, op, val, ms ? &ts : NULL, NULL, 0);
}

struct wt { uint32_t *w; int priv; double el; long rc; int err; };

static void *waiter(void *vp)
{
	struct wt *a = (struct wt *)vp;
	double t0 = now_ms();
	a->rc = fx(a->w, FUTEX_WAIT | (a->priv ? FUTEX_PRIVATE_FLAG : 0), 7u, 50);
	a->err = errno;
	a->el = now_ms() - t0;
	return NULL;
}

static void probe(const char *what, uint32_t *w)
{
	for (int priv = 0; priv < 2; priv++) {
		double t0;
		long rc;
		int err;
		pthread_t th;
		struct wt a = { w, priv, 0, 0, 0 };

		*w = 5u;
		t0 = now_ms();
		rc = fx(w, FUTEX_WAIT | (priv ? FUTEX_PRIVATE_FLAG : 0), 5u, 50);
		err = errno;
		printf("FUTEX %-8s %-7s wait 50 ms: rc %ld errno %d (%s), %.2f ms\n", what,
		       priv ? "private" : "shared", rc, rc ? err : 0, rc ? strerror(err) : "-", now_ms() - t0);
		*w = 7u;
		pthread_create(&th, NULL, waiter, &a);
		usleep(10000);
		rc = fx(w, FUTEX_WAKE | (priv ? FUTEX_PRIVATE_FLAG : 0), 1u, 0);
		pthread_join(th, NULL);
		printf("FUTEX %-8s %-7s wake after 10 ms: woke %ld, the waiter's rc %ld errno %d, %.2f ms\n",
		       what, priv ? "private" : "shared", rc, a.rc, a.rc ? a.err : 0, a.el);
	}
}

int main(void)
{
	uint32_t *ring = NULL, *heap = (uint32_t *)aligned_alloc(4096, 1 << 20);
	char line[512];
	FILE *f;

	if (cudaHostAlloc((void **)&ring, 1 << 20, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
		printf("SKIP: no CUDA device\n");
		return 77;
	}
	f = fopen("/proc/self/maps", "r");
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (uintptr_t)ring >= lo && (uintptr_t)ring < hi)
			printf("MAPS ring %s", line);
	}
	if (f != NULL)
		fclose(f);
	probe("pinned", ring);
	probe("malloc", heap);
	cudaFreeHost(ring);
	free(heap);
	return 0;
}
