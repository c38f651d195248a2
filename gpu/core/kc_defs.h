/*
 * kc_defs.h - the one execution-space header of the portable crypto core.
 *
 * gpu/core (and gpu/engine) is written once in the common subset of C99 and
 * CUDA C++.  Every function is declared with KC_API:
 *   - under nvcc it is `__host__ __device__ static inline`; the CUDA backend
 *     builds its kernel as one translation unit that #includes the .c files
 *     (whole-program register allocation, no relocatable device code);
 *   - in the host build it is an ordinary external function compiled into
 *     libpv_core.a.
 * KC_PRIV marks file-local helpers (always static).
 *
 * Rules for code under gpu/core: include only <stdint.h>, <stddef.h> and
 * headers of gpu/core; no libc, no allocation, no VLAs; fixed-width types and
 * explicit casts; never branch on or index by secret data.
 */
#ifndef KC_DEFS_H
#define KC_DEFS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define KC_API __host__ __device__ static inline
#define KC_PRIV __host__ __device__ static inline
#else
#define KC_API
#define KC_PRIV static inline
#endif

#if defined(__GNUC__) || defined(__CUDACC__)
#define KC_UNUSED __attribute__((unused))
#else
#define KC_UNUSED
#endif

#endif /* KC_DEFS_H */
