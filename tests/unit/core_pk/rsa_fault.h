/*
 * rsa_fault.h - the corrupted keys of the RSA fault check's tests
 * (test_rsa_ossl.c on the host, tests/gpu/gpu_bench.cu on the GPU): field
 * f of the RSA_NFAULT fields dp, dq, qinv, p, q, n gets a bit of its
 * second-lowest byte flipped (the fields are big-endian, right-aligned;
 * the lowest bit of p, q and n is their oddness, which is refused
 * separately).  A wrong p or q computes consistently modulo itself: only
 * p q == n refuses it.
 */
#ifndef RSA_FAULT_H
#define RSA_FAULT_H

#include "gpu/core/pk/kc_rsa.h"

#define RSA_NFAULT 6

static inline const char *rsa_fault_name(int f)
{
	static const char *const name[RSA_NFAULT] = { "dp", "dq", "qinv", "p", "q", "n" };
	return name[f];
}

static inline void rsa_fault(kc_rsa_priv *k, int f)
{
	uint8_t *fld[RSA_NFAULT] = { k->dp, k->dq, k->qinv, k->p, k->q, k->n };
	fld[f][(f == 5 ? sizeof k->n : sizeof k->p) - 2] ^= 0x02;
}

#endif /* RSA_FAULT_H */
