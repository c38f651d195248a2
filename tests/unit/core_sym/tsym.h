/*
 * tsym.h - helpers shared by the core_sym CUnit programs.
 */
#ifndef TSYM_H
#define TSYM_H

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tsupport.h"
#include "gpu/core/sym/kc_sym.h"
#include "gpu/core/pv_err.h"

#define TSYM_ADD(suite, fn) \
	do { if (!CU_add_test((suite), #fn, (fn))) { CU_cleanup_registry(); return 2; } } while (0)

/* random length in [0, max] biased towards small and block-boundary values */
static inline size_t tsym_len(size_t max)
{
	uint32_t r = ts_rand_u32(8);
	size_t l;
	if (r == 0)
		l = ts_rand_u32(33);
	else if (r == 1)
		l = 16 * ts_rand_u32((uint32_t)(max / 16 + 1));
	else
		l = ts_rand_u32((uint32_t)max + 1);
	return l > max ? max : l;
}

/* Cut [0, len) into random chunks: fills cuts[] with chunk sizes, returns
 * the number of chunks (<= maxc). */
static inline size_t tsym_chunks(size_t len, size_t *cuts, size_t maxc)
{
	size_t n = 0;
	while (len > 0 && n + 1 < maxc) {
		size_t c = ts_rand_u32(4) == 0 ? ts_rand_u32(3) : ts_rand_u32(70);
		if (c > len)
			c = len;
		cuts[n++] = c;
		len -= c;
	}
	if (len > 0)
		cuts[n++] = len;
	return n;
}

#endif
