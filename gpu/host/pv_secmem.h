/*
 * pv_secmem.h - heap for secrets (host only).
 *
 * Every allocation is its own anonymous mapping: mlock()ed (best effort:
 * RLIMIT_MEMLOCK may refuse, which is logged once and tolerated),
 * madvise(MADV_DONTDUMP) so it never lands in a core dump, MADV_DONTFORK so
 * a forked child does not inherit it, and wiped with kc_wipe before
 * munmap.  Page granularity: use it for a few long-lived secrets (master
 * key, KEK, DRBG states), not for per-request buffers.
 */
#ifndef PV_SECMEM_H
#define PV_SECMEM_H

#include <stddef.h>

/* Zero-filled block of n bytes, or NULL (n == 0 or no memory). */
void *pv_secmem_alloc(size_t n);
/* Wipe and release a block from pv_secmem_alloc.  NULL is a no-op. */
void pv_secmem_free(void *p);
/* 1 if the block at p is locked in RAM (mlock succeeded), else 0. */
int pv_secmem_locked(const void *p);

#endif
