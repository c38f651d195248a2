/* pv_secstack.c - locked, non-dumpable stacks and the switch onto them. */
#include "pv_secstack.h"
#include "pv_log.h"
#include "gpu/core/kc_util.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__) || defined(PV_SECSTACK_UCONTEXT)
#define PV_SECSTACK_UC 1
#include <ucontext.h>
#endif

/* AddressSanitizer keeps its own idea of the current stack: tell it about
 * each switch (its fiber interface), or it reports the frames on the
 * other stack as wild accesses. */
#if defined(__SANITIZE_ADDRESS__)
#define PV_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PV_ASAN 1
#endif
#endif
#ifdef PV_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

struct pv_secstack {
	uint8_t *map;              /* guard page, then the stack */
	size_t map_len;
	uint8_t *base;             /* lowest usable byte */
	size_t size;
	int locked;
};

/* What the function on the secure stack needs, on the caller's stack. */
typedef struct sst_call {
	void (*fn)(void *);
	void *arg;
	const void *back_bottom;   /* ASan: the caller's stack */
	size_t back_size;
} sst_call;

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096u;
}

pv_secstack *pv_secstack_new(size_t size)
{
	static _Atomic int warned;
	size_t pg = page_size();
	pv_secstack *s = (pv_secstack *)calloc(1, sizeof *s);

	if (s == NULL)
		return NULL;
	if (size == 0)
		size = PV_SECSTACK_SIZE;
	s->size = (size + pg - 1) / pg * pg;
	s->map_len = s->size + pg;
	s->map = (uint8_t *)mmap(NULL, s->map_len, PROT_READ | PROT_WRITE,
	                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (s->map == MAP_FAILED) {
		free(s);
		return NULL;
	}
	s->base = s->map + pg;
	/* an overflow faults instead of running into the mapping below */
	(void)mprotect(s->map, pg, PROT_NONE);
#ifdef MADV_DONTDUMP
	(void)madvise(s->map, s->map_len, MADV_DONTDUMP);
#endif
#ifdef MADV_WIPEONFORK
	(void)madvise(s->map, s->map_len, MADV_WIPEONFORK);
#elif defined(MADV_DONTFORK)
	(void)madvise(s->map, s->map_len, MADV_DONTFORK);
#endif
	s->locked = mlock(s->base, s->size) == 0;
	if (!s->locked && !atomic_exchange(&warned, 1))
		pv_log(PV_LOG_WARN, "secstack: mlock refused (RLIMIT_MEMLOCK?); the engine's "
		       "stacks are not dumpable but may be swapped");
	return s;
}

void pv_secstack_free(pv_secstack *s)
{
	if (s == NULL)
		return;
	kc_wipe(s->base, s->size);
	(void)munlock(s->base, s->size);
	(void)munmap(s->map, s->map_len);
	free(s);
}

size_t pv_secstack_used(const pv_secstack *s)
{
	size_t i = 0;

	while (i < s->size && s->base[i] == 0)
		i++;
	return s->size - i;
}

int pv_secstack_locked(const pv_secstack *s)
{
	return s != NULL && s->locked;
}

/* Runs on the secure stack. */
static void sst_entry(sst_call *c)
{
#ifdef PV_ASAN
	__sanitizer_finish_switch_fiber(NULL, &c->back_bottom, &c->back_size);
#endif
	c->fn(c->arg);
#ifdef PV_ASAN
	/* NULL: this stack's frames are finished, nothing of them to keep */
	__sanitizer_start_switch_fiber(NULL, c->back_bottom, c->back_size);
#endif
}

#ifndef PV_SECSTACK_UC
/* Zero the vector registers (vec, in register R: 0 SSE's 16, 1 AVX's,
 * 2 AVX-512's 32 as well) and the scratch integer registers. */
#define SST_CLEAR(R) \
	"cmpl $2, %" R "\n" \
	"jb 1f\n" \
	"vpxord %zmm16, %zmm16, %zmm16\n" "vpxord %zmm17, %zmm17, %zmm17\n" \
	"vpxord %zmm18, %zmm18, %zmm18\n" "vpxord %zmm19, %zmm19, %zmm19\n" \
	"vpxord %zmm20, %zmm20, %zmm20\n" "vpxord %zmm21, %zmm21, %zmm21\n" \
	"vpxord %zmm22, %zmm22, %zmm22\n" "vpxord %zmm23, %zmm23, %zmm23\n" \
	"vpxord %zmm24, %zmm24, %zmm24\n" "vpxord %zmm25, %zmm25, %zmm25\n" \
	"vpxord %zmm26, %zmm26, %zmm26\n" "vpxord %zmm27, %zmm27, %zmm27\n" \
	"vpxord %zmm28, %zmm28, %zmm28\n" "vpxord %zmm29, %zmm29, %zmm29\n" \
	"vpxord %zmm30, %zmm30, %zmm30\n" "vpxord %zmm31, %zmm31, %zmm31\n" \
	"1:\n" \
	"cmpl $1, %" R "\n" \
	"jb 2f\n" \
	"vzeroall\n"                 /* ymm0-15, and zmm0-15 whole */ \
	"jmp 3f\n" \
	"2:\n" \
	"pxor %xmm0, %xmm0\n"   "pxor %xmm1, %xmm1\n"   "pxor %xmm2, %xmm2\n" \
	"pxor %xmm3, %xmm3\n"   "pxor %xmm4, %xmm4\n"   "pxor %xmm5, %xmm5\n" \
	"pxor %xmm6, %xmm6\n"   "pxor %xmm7, %xmm7\n"   "pxor %xmm8, %xmm8\n" \
	"pxor %xmm9, %xmm9\n"   "pxor %xmm10, %xmm10\n" "pxor %xmm11, %xmm11\n" \
	"pxor %xmm12, %xmm12\n" "pxor %xmm13, %xmm13\n" "pxor %xmm14, %xmm14\n" \
	"pxor %xmm15, %xmm15\n" \
	"3:\n" \
	"xorl %eax, %eax\n" "xorl %ecx, %ecx\n" "xorl %edx, %edx\n" \
	"xorl %esi, %esi\n" "xorl %edi, %edi\n" "xorl %r8d, %r8d\n" \
	"xorl %r9d, %r9d\n" "xorl %r10d, %r10d\n" "xorl %r11d, %r11d\n"

/* sst_switch(c, entry, top, vec): entry(c) with the stack pointer at top,
 * then back.  Before it leaves the secure stack it zeroes every register
 * the ABI lets a call clobber (SST_CLEAR), since a key's bytes stay in
 * them (glibc's memcpy moves 32 bytes per register) until other code
 * overwrites them, and a thread that sleeps keeps them in the register
 * notes of a core dump.  The callee-saved ones hold the caller's values
 * again by then.  rbp keeps the caller's stack pointer,
 * rbx vec; the CFI lets a debugger unwind from the secure stack into the
 * caller.  top is 16-byte aligned, so entry sees the ABI's alignment after
 * the call pushes its return address. */
void sst_switch(sst_call *c, void (*entry)(sst_call *), void *top, int vec);
__asm__(
	".text\n"
	".p2align 4\n"
	".globl sst_switch\n"
	".hidden sst_switch\n"
	".type sst_switch, @function\n"
	"sst_switch:\n"
	".cfi_startproc\n"
#ifdef __CET__
	"endbr64\n"
#endif
	"pushq %rbp\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbp, -16\n"
	"movq %rsp, %rbp\n"
	".cfi_def_cfa_register %rbp\n"
	"pushq %rbx\n"
	".cfi_offset %rbx, -24\n"
	"movl %ecx, %ebx\n"
	"movq %rdx, %rsp\n"
	"callq *%rsi\n"
	SST_CLEAR("ebx")
	"movq -8(%rbp), %rbx\n"
	"movq %rbp, %rsp\n"
	"popq %rbp\n"
	".cfi_def_cfa %rsp, 8\n"
	"ret\n"
	".cfi_endproc\n"
	".size sst_switch, .-sst_switch\n");

/* sst_scrub(vec): SST_CLEAR as a function (a call may clobber them all). */
void sst_scrub(int vec);
__asm__(
	".text\n"
	".p2align 4\n"
	".globl sst_scrub\n"
	".hidden sst_scrub\n"
	".type sst_scrub, @function\n"
	"sst_scrub:\n"
	".cfi_startproc\n"
#ifdef __CET__
	"endbr64\n"
#endif
	SST_CLEAR("edi")
	"ret\n"
	".cfi_endproc\n"
	".size sst_scrub, .-sst_scrub\n");

/* Which vector registers this CPU and OS have (SST_CLEAR's vec). */
static int sst_vec(void)
{
	static _Atomic int vec = -1;
	int v = atomic_load_explicit(&vec, memory_order_relaxed);

	if (v < 0) {
		__builtin_cpu_init();
		v = __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx") ? 1 : 0;
		atomic_store_explicit(&vec, v, memory_order_relaxed);
	}
	return v;
}
#else
/* makecontext passes int arguments: the pointer in two halves */
static void sst_uc_entry(unsigned lo, unsigned hi)
{
	sst_entry((sst_call *)(uintptr_t)(((uint64_t)hi << 32) | lo));
}
#endif

void pv_secstack_scrub(void)
{
#ifndef PV_SECSTACK_UC
	sst_scrub(sst_vec());
#endif
}

void pv_secstack_call(pv_secstack *s, void (*fn)(void *), void *arg)
{
	sst_call c;
#ifdef PV_ASAN
	void *fake = NULL;
#endif
#ifdef PV_SECSTACK_UC
	ucontext_t back, run;
	uint64_t cp = (uint64_t)(uintptr_t)&c;
#endif

	c.fn = fn;
	c.arg = arg;
	c.back_bottom = NULL;
	c.back_size = 0;
#ifdef PV_ASAN
	__sanitizer_start_switch_fiber(&fake, s->base, s->size);
#endif
#ifndef PV_SECSTACK_UC
	sst_switch(&c, sst_entry, s->base + s->size, sst_vec());
#else
	(void)getcontext(&run);
	run.uc_stack.ss_sp = s->base;
	run.uc_stack.ss_size = s->size;
	run.uc_link = &back;
	makecontext(&run, (void (*)(void))sst_uc_entry, 2, (unsigned)cp, (unsigned)(cp >> 32));
	(void)swapcontext(&back, &run);
#endif
#ifdef PV_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}
