/*
 * pv_slots.h - the producers' pool of ring slots (docs/vault-engine.md
 * section 2, step 1): one word a slot, 1 while a request holds it, in the
 * producing process's memory only.  Used by the ring producer
 * (gpu/client/pv_producer.c) and its twin for the CUDA backend's direct
 * callers (pv_cuda_submit, gpu/cuda/pv_cuda.c).
 */
#ifndef PV_SLOTS_H
#define PV_SLOTS_H

#include <stdatomic.h>
#include <stdint.h>

/* A free slot of the pool of nslots (a power of two), marked busy
 * (acquire: the slot's previous holder gave it back with release);
 * UINT32_MAX if none.  The search starts at a rotating index, so that
 * producers do not all race for the same slot, and reads a slot's word
 * before trying it: a compare-and-swap on a busy slot would still take
 * its cache line from the other producers (gpu_bench's 8 threads with
 * 512 requests in flight: 557k digests /s with a CAS on every word
 * scanned, docs/gpu-validation.md run 154). */
static inline uint32_t pv_slot_take(_Atomic uint32_t *busy, uint32_t nslots, _Atomic uint32_t *next)
{
	uint32_t i = atomic_fetch_add_explicit(next, 1u, memory_order_relaxed), k;
	const uint32_t m = nslots - 1u;

	for (k = 0; k < nslots; k++, i++) {
		uint32_t zero = 0;
		if (atomic_load_explicit(&busy[i & m], memory_order_relaxed) == 0u &&
		    atomic_compare_exchange_strong_explicit(&busy[i & m], &zero, 1u,
		        memory_order_acquire, memory_order_relaxed))
			return i & m;
	}
	return UINT32_MAX;
}

/* Give slot si back (release: the holder's wipes come before). */
static inline void pv_slot_give(_Atomic uint32_t *busy, uint32_t si)
{
	atomic_store_explicit(&busy[si], 0u, memory_order_release);
}

#endif /* PV_SLOTS_H */
