/*
 * test_secstack.c - gpu/host/pv_secstack: a function runs on the secure
 * stack (a mapping marked not to be dumped, not the caller's stack), may
 * use it deeply and nest, many threads run on their own stacks at once,
 * and on x86-64 no register the function filled survives the way back.
 * Built twice: with the x86-64 switch and with the makecontext one
 * (PV_SECSTACK_UCONTEXT) that other architectures use.
 */
#include "gpu/host/pv_secstack.h"
#include "tsupport.h"

#include <CUnit/Basic.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* 1 if addr lies in a mapping whose VmFlags say "dd" (not dumped). */
static int not_dumped(uintptr_t addr)
{
	char line[512];
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long long a, b, x = (unsigned long long)addr;
	int in = 0, dd = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%llx-%llx ", &a, &b) == 2) {      /* a mapping's first line */
			if (in)
				break;
			in = x >= a && x < b;
		} else if (in && strncmp(line, "VmFlags:", 8) == 0) {
			dd = strstr(line, " dd") != NULL;
			break;
		}
	}
	fclose(f);
	return dd;
}

typedef struct probe {
	uintptr_t local;              /* address of a local of the function */
	pv_secstack *inner;           /* nest a call on it, if not NULL */
	uintptr_t inner_local;
	size_t deep;                  /* bytes of stack to touch */
	uint32_t in, out;
} probe;

static void inner_fn(void *arg)
{
	probe *p = (probe *)arg;
	volatile uint8_t here = 1;
	p->inner_local = (uintptr_t)&here;
}

static void probe_fn(void *arg)
{
	probe *p = (probe *)arg;
	volatile uint8_t buf[64 << 10];
	size_t i;

	p->local = (uintptr_t)buf;
	for (i = 0; i < p->deep && i < sizeof buf; i++)
		buf[i] = (uint8_t)(i | 1);
	p->out = p->in * 2654435761u + (p->deep ? buf[0] : 0);
	if (p->inner != NULL)
		pv_secstack_call(p->inner, inner_fn, p);
}

static void t_runs_there(void)
{
	pv_secstack *s = pv_secstack_new(0), *t = pv_secstack_new(16 << 10);
	volatile uint8_t mine = 0;
	probe p;

	CU_ASSERT_FATAL(s != NULL && t != NULL);
	CU_ASSERT_EQUAL(pv_secstack_used(s), 0);
	memset(&p, 0, sizeof p);
	p.in = 7;
	p.deep = 40 << 10;
	p.inner = t;
	pv_secstack_call(s, probe_fn, &p);
	CU_ASSERT_EQUAL(p.out, 7u * 2654435761u + 1u);
	CU_ASSERT(not_dumped(p.local));
	CU_ASSERT(not_dumped(p.inner_local));
	CU_ASSERT(!not_dumped((uintptr_t)&mine));           /* the caller's own stack */
	CU_ASSERT(pv_secstack_used(s) >= (40u << 10));
	CU_ASSERT(pv_secstack_used(s) < PV_SECSTACK_SIZE);
	CU_ASSERT(pv_secstack_used(t) > 0);
	fprintf(stderr, "  stack used %zu bytes, locked %d\n", pv_secstack_used(s),
	        pv_secstack_locked(s));
	pv_secstack_free(t);
	pv_secstack_free(s);
	pv_secstack_free(NULL);
}

static void *thread_fn(void *arg)
{
	pv_secstack *s = pv_secstack_new(0);
	uint32_t i, bad = 0;
	probe p;

	(void)arg;
	if (s == NULL)
		return (void *)1;
	for (i = 0; i < 20000; i++) {
		memset(&p, 0, sizeof p);
		p.in = i;
		p.deep = i % 64 == 0 ? 4096 : 0;
		pv_secstack_call(s, probe_fn, &p);
		bad += p.out != i * 2654435761u + (p.deep ? 1u : 0u);
	}
	pv_secstack_free(s);
	return (void *)(uintptr_t)bad;
}

static void t_threads(void)
{
	pthread_t th[8];
	void *r;
	int i;

	for (i = 0; i < 8; i++)
		CU_ASSERT_FATAL(pthread_create(&th[i], NULL, thread_fn, NULL) == 0);
	for (i = 0; i < 8; i++) {
		CU_ASSERT_FATAL(pthread_join(th[i], &r) == 0);
		CU_ASSERT_PTR_NULL(r);
	}
}

#if defined(__x86_64__) && !defined(PV_SECSTACK_UCONTEXT)
#define PATTERN 0x5a5a5a5a5a5a5a5aull

/* Fill every SSE register and rax..r11's scratch ones with PATTERN. */
static void fill_regs(void *arg)
{
	static const uint64_t pat[2] = { PATTERN, PATTERN };
	(void)arg;
	__asm__ __volatile__(
		"movdqu (%0), %%xmm0\n movdqa %%xmm0, %%xmm1\n movdqa %%xmm0, %%xmm2\n"
		"movdqa %%xmm0, %%xmm3\n movdqa %%xmm0, %%xmm4\n movdqa %%xmm0, %%xmm5\n"
		"movdqa %%xmm0, %%xmm6\n movdqa %%xmm0, %%xmm7\n movdqa %%xmm0, %%xmm8\n"
		"movdqa %%xmm0, %%xmm9\n movdqa %%xmm0, %%xmm10\n movdqa %%xmm0, %%xmm11\n"
		"movdqa %%xmm0, %%xmm12\n movdqa %%xmm0, %%xmm13\n movdqa %%xmm0, %%xmm14\n"
		"movdqa %%xmm0, %%xmm15\n"
		"movq (%0), %%r8\n movq %%r8, %%r9\n movq %%r8, %%r10\n movq %%r8, %%r11\n"
		: : "r"(pat)
		: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
		  "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
		  "r8", "r9", "r10", "r11", "memory");
}

__attribute__((target("avx512f"))) static void fill_zmm16(void *arg)
{
	static const uint64_t pat[8] = { PATTERN, PATTERN, PATTERN, PATTERN,
	                                 PATTERN, PATTERN, PATTERN, PATTERN };
	(void)arg;
	__asm__ __volatile__("vmovdqu64 (%0), %%zmm16\n vmovdqa64 %%zmm16, %%zmm31\n"
	                     : : "r"(pat) : "xmm16", "xmm31", "memory");
}

__attribute__((target("avx512f"))) static int zmm16_left(pv_secstack *s)
{
	uint64_t out[16];
	int i, left = 0;

	pv_secstack_call(s, fill_zmm16, NULL);
	__asm__ __volatile__("vmovdqu64 %%zmm16, (%0)\n vmovdqu64 %%zmm31, 64(%0)\n"
	                     : : "r"(out) : "memory");
	for (i = 0; i < 16; i++)
		left += out[i] == PATTERN;
	return left;
}

static void t_registers(void)
{
	pv_secstack *s = pv_secstack_new(0);
	uint64_t x[32], r[4];
	int i, left = 0;

	CU_ASSERT_FATAL(s != NULL);
	pv_secstack_call(s, fill_regs, NULL);
	__asm__ __volatile__(
		"movdqu %%xmm0, 0(%0)\n movdqu %%xmm1, 16(%0)\n movdqu %%xmm2, 32(%0)\n"
		"movdqu %%xmm3, 48(%0)\n movdqu %%xmm4, 64(%0)\n movdqu %%xmm5, 80(%0)\n"
		"movdqu %%xmm6, 96(%0)\n movdqu %%xmm7, 112(%0)\n movdqu %%xmm8, 128(%0)\n"
		"movdqu %%xmm9, 144(%0)\n movdqu %%xmm10, 160(%0)\n movdqu %%xmm11, 176(%0)\n"
		"movdqu %%xmm12, 192(%0)\n movdqu %%xmm13, 208(%0)\n movdqu %%xmm14, 224(%0)\n"
		"movdqu %%xmm15, 240(%0)\n"
		"movq %%r8, 0(%1)\n movq %%r9, 8(%1)\n movq %%r10, 16(%1)\n movq %%r11, 24(%1)\n"
		: : "r"(x), "r"(r) : "memory");
	for (i = 0; i < 32; i++)
		left += x[i] == PATTERN;
	for (i = 0; i < 4; i++)
		left += r[i] == PATTERN;
	CU_ASSERT_EQUAL(left, 0);
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		CU_ASSERT_EQUAL(zmm16_left(s), 0);
	/* the same for a thread that only copied a secret (pvp_submit) */
	fill_regs(NULL);
	pv_secstack_scrub();
	__asm__ __volatile__("movdqu %%xmm7, 0(%0)\n movdqu %%xmm15, 16(%0)\n"
	                     : : "r"(x) : "memory");
	CU_ASSERT(x[0] != PATTERN && x[2] != PATTERN);
	pv_secstack_free(s);
}
#endif

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS ||
	    (s = CU_add_suite("secstack", NULL, NULL)) == NULL)
		return 1;
	CU_add_test(s, "runs on the secure stack, deep and nested", t_runs_there);
	CU_add_test(s, "8 threads, each on its own stack", t_threads);
#if defined(__x86_64__) && !defined(PV_SECSTACK_UCONTEXT)
	CU_add_test(s, "no register survives the way back", t_registers);
#endif
	return ts_run();
}
