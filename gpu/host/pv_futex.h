/*
 * pv_futex.h - sleep/wake on a 32-bit ring word (Linux futex), used by the
 * ring producers (gpu/client), the CPU workers (gpu/cpu) and pvaultd's
 * client rings (gpu/daemon).  Ordering comes from the C11 acquire/release
 * accesses around them, never from the futex itself.
 *
 * scope: PV_FUTEX_PRIVATE for a word that only this process's threads
 * sleep or wake on (an in-process ring, a request's inflight_): the
 * kernel keys it by address, without the page lookup and reference a
 * shared futex takes on every call; PV_FUTEX_SHARED for a ring mapped by
 * two processes (pvaultd's memfd rings).  The sleepers and the wakers of
 * a word must use the same scope, or the wake finds nobody.
 */
#ifndef PV_FUTEX_H
#define PV_FUTEX_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Ring words are plain uint32_t in the shared layout (gpu/engine/ve_ring.h);
 * the host accesses them as C11 atomics of the same size and alignment. */
#define PV_AW(p) ((_Atomic uint32_t *)(void *)(p))

#define PV_FUTEX_PRIVATE FUTEX_PRIVATE_FLAG
#define PV_FUTEX_SHARED  0

static inline uint32_t pv_load_acq(const uint32_t *p)
{
	return atomic_load_explicit(PV_AW(p), memory_order_acquire);
}
static inline void pv_store_rel(uint32_t *p, uint32_t v)
{
	atomic_store_explicit(PV_AW(p), v, memory_order_release);
}

/* Sleep while *p == val, at most timeout_ms (spurious returns allowed). */
static inline void pv_futex_wait(uint32_t *p, uint32_t val, int timeout_ms, int scope)
{
	struct timespec ts;
	ts.tv_sec = timeout_ms / 1000;
	ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
	(void)syscall(SYS_futex, p, FUTEX_WAIT | scope, val, &ts, NULL, 0);
}
static inline void pv_futex_wake(uint32_t *p, int scope)
{
	(void)syscall(SYS_futex, p, FUTEX_WAKE | scope, 0x7fffffff, NULL, NULL, 0);
}
static inline void pv_futex_wake_one(uint32_t *p, int scope)
{
	(void)syscall(SYS_futex, p, FUTEX_WAKE | scope, 1, NULL, NULL, 0);
}

/* A word whose sleepers count themselves in *n (ve_ring.h's
 * host.sleepers for a slot's dev.done_seq), so that its waker can skip
 * the FUTEX_WAKE - a system call of a few microseconds (pv_cuda.c) -
 * when nobody sleeps, as nobody does while callers poll (PKCS#11 3.2
 * async sessions).  The sleeper counts itself before FUTEX_WAIT checks
 * the word; the waker stores or sees the word's new value, then (a full
 * fence) reads the count: either it sees the sleeper, or the sleeper's
 * check sees the new value and does not sleep. */
static inline void pv_futex_wait_counted(uint32_t *p, uint32_t val, int timeout_ms, int scope,
                                         uint32_t *n)
{
	atomic_fetch_add(PV_AW(n), 1u);
	pv_futex_wait(p, val, timeout_ms, scope);
	atomic_fetch_sub(PV_AW(n), 1u);
}
static inline void pv_futex_wake_counted(uint32_t *p, int scope, const uint32_t *n)
{
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(PV_AW(n), memory_order_relaxed) != 0u)
		pv_futex_wake(p, scope);
}

/* Wait until *p == want (acquire).  Spins briefly, then sleeps in
 * timeout_ms slices; returns 0 when seen, 1 if *stop became non-zero. */
static inline int pv_wait_eq(uint32_t *p, uint32_t want, const uint32_t *stop, int timeout_ms,
                             int scope)
{
	int spin;
	for (spin = 0; spin < 64; spin++) {
		if (pv_load_acq(p) == want)
			return 0;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
	for (;;) {
		uint32_t v = pv_load_acq(p);
		if (v == want)
			return 0;
		if (stop != NULL && pv_load_acq(stop) != 0)
			return 1;
		pv_futex_wait(p, v, timeout_ms, scope);
	}
}

#endif
