/*
 * href.h - host reference for the GPU tests: the CPU build of gpu/core
 * (libpv_core.a, compiled by the C compiler) behind names that do not clash
 * with the core functions #included into the CUDA test translation units.
 */
#ifndef HREF_H
#define HREF_H

#include <stdint.h>
#include "tests/gpu/kat_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run one KAT job (kat_ops.h) with the CPU build of the core. */
int href_run(const kat_job *j, const uint8_t *in, uint8_t *out, uint32_t *outlen);

#ifdef __cplusplus
}
#endif

#endif /* HREF_H */
