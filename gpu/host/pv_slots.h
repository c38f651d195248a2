/*
 * pv_slots.h - the producers' pool of ring slots (docs/vault-engine.md
 * section 2, step 1), in the producing process's memory only.  Used by
 * the ring producer (gpu/client/pv_producer.c), its twin for the CUDA
 * backend's direct callers (pv_cuda_submit, gpu/cuda/pv_cuda.c), and for
 * the CPU backend's engine states in the caller mode (gpu/cpu/pv_cpu.c).
 *
 * Each slot's words sit on a cache line of their own, and each thread
 * searches from a place of its own: with the words packed, the threads
 * holding neighbouring slots passed one line between their cores on
 * every take, completion and give, and a slot whose arena one core had
 * just wiped went to another core to fill.
 */
#ifndef PV_SLOTS_H
#define PV_SLOTS_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/host/pv_futex.h"

/* 64 bytes that keep the words before and after them on different cache
 * lines: the words that every request writes (ticket counters, counts of
 * sleepers) go between such paddings, away from the fields every request
 * only reads (padding, not alignment: the structs live in calloc'ed
 * memory; sharing lines halves the rate of async digests). */
#define PV_APART(name) uint8_t name[64]

typedef struct pv_slot_st {
	_Atomic uint32_t busy;       /* 1 while a request holds the slot          */
	_Atomic uint32_t reaping;    /* pv_producer.c: 1 while a thread completes it */
	void *owner;                 /* pv_producer.c: the request holding it
	                              * (__atomic builtins)                       */
} __attribute__((aligned(64))) pv_slot_st;

/* nslots zeroed slots, or NULL; free() them. */
static inline pv_slot_st *pv_slots_new(uint32_t nslots)
{
	pv_slot_st *s = (pv_slot_st *)aligned_alloc(64, (size_t)nslots * sizeof *s);

	if (s != NULL)
		memset((void *)s, 0, (size_t)nslots * sizeof *s);
	return s;
}

/* Where thread searches start: from its stack's address (threads' stacks
 * lie megabytes apart), spread over the pool, so that each thread keeps
 * taking the same few slots (their words and arenas stay in its core's
 * cache) and threads rarely search each other's.  Not thread-local
 * storage: a module loaded by dlopen next to CUDA's libraries may find no
 * static TLS left (glibc: "cannot allocate memory in static TLS block"),
 * and LeakSanitizer faults scanning the dynamic TLS of ended threads. */
static inline uint32_t pv_slot_start(void)
{
	char here;
	uint64_t h = ((uint64_t)(uintptr_t)&here >> 20) * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(h >> 32);
}

/* A free slot of the pool of n, marked busy (acquire: the slot's
 * previous holder gave it back with release), searching from start (< n)
 * on; UINT32_MAX if none.  It reads a slot's word before trying it: a
 * compare-and-swap on a busy slot would still take its cache line from
 * the other producers. */
static inline uint32_t pv_slot_take_at(pv_slot_st *pool, uint32_t n, uint32_t start)
{
	uint32_t i = start, k;

	for (k = 0; k < n; k++, i = i + 1u == n ? 0u : i + 1u) {
		uint32_t zero = 0;
		if (atomic_load_explicit(&pool[i].busy, memory_order_relaxed) == 0u &&
		    atomic_compare_exchange_strong_explicit(&pool[i].busy, &zero, 1u,
		        memory_order_acquire, memory_order_relaxed))
			return i;
	}
	return UINT32_MAX;
}

/* pv_slot_take_at from this thread's place (pv_slot_start); nslots a
 * power of two. */
static inline uint32_t pv_slot_take(pv_slot_st *pool, uint32_t nslots)
{
	return pv_slot_take_at(pool, nslots, pv_slot_start() & (nslots - 1u));
}

/* Give slot si back (release: the holder's wipes come before). */
static inline void pv_slot_give(pv_slot_st *pool, uint32_t si)
{
	atomic_store_explicit(&pool[si].busy, 0u, memory_order_release);
}

/* Sleeping for a slot when none is free: the sleeper counts itself in
 * *sleepers (seq_cst), reads *gen, searches once more and sleeps on *gen
 * (at most timeout_ms) if that search found none; it returns the slot
 * found or UINT32_MAX (search again).  pv_slot_give_wake gives a slot
 * back, then (after a fence) moves *gen and wakes one sleeper only if one
 * is counted: either the giver sees the count, or the sleeper's last
 * search sees the slot.  No sleeper, no shared word written. */
static inline uint32_t pv_slot_sleep_take(pv_slot_st *pool, uint32_t n, uint32_t start,
                                          _Atomic uint32_t *sleepers, uint32_t *gen,
                                          int timeout_ms)
{
	uint32_t g, si;

	atomic_fetch_add(sleepers, 1u);
	g = atomic_load(PV_AW(gen));
	si = pv_slot_take_at(pool, n, start);
	if (si == UINT32_MAX)
		pv_futex_wait(gen, g, timeout_ms, PV_FUTEX_PRIVATE);
	atomic_fetch_sub(sleepers, 1u);
	return si;
}

static inline void pv_slot_give_wake(pv_slot_st *pool, uint32_t si,
                                     _Atomic uint32_t *sleepers, uint32_t *gen)
{
	pv_slot_give(pool, si);
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(sleepers, memory_order_relaxed) != 0u) {
		atomic_fetch_add(PV_AW(gen), 1u);
		pv_futex_wake_one(gen, PV_FUTEX_PRIVATE);
	}
}

#endif /* PV_SLOTS_H */
