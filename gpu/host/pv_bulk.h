/*
 * pv_bulk.h - copies and wipes of large buffers (host only).
 *
 * A 1 MiB GCM request costs the producer a copy into the ring's arena, a
 * copy out of it and a wipe of the plaintext; on a GPU host those, not
 * the GPU, bound the rate (docs/benchmarks.md).  From PV_BULK_MIN bytes on,
 * these use non-temporal stores: each destination line is written to
 * memory without being read first (the read-for-ownership an ordinary
 * store pays), and without evicting the cache's working set.  Below it,
 * memcpy and explicit_bzero, whose destination stays in cache for the
 * reader that comes next (the GPU's loads of a small request).  Other
 * architectures than x86-64: memcpy and explicit_bzero throughout.
 */
#ifndef PV_BULK_H
#define PV_BULK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PV_BULK_MIN ((size_t)256 << 10)

/* memcpy(dst, src, n); the buffers must not overlap. */
void pv_bulk_copy(void *dst, const void *src, size_t n);
/* Zero n bytes at p; like explicit_bzero, never optimised away. */
void pv_bulk_wipe(void *p, size_t n);

#ifdef __cplusplus
}
#endif

#endif
