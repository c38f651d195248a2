/*
 * kc_cpu.h - the host CPU as an execution space of the portable core.
 *
 * The GPU defines hooks of the core (KC_*_COOP) with a warp's lanes
 * (gpu/cuda/pvc_*.cuh); the host build defines some of them with the CPU's
 * own instructions: AES-NI for AES and CTR, PCLMULQDQ for GHASH's
 * carry-less products, the SHA extensions for SHA-256, 64 x 64 -> 128-bit multiplication for the
 * Montgomery product (of big numbers and of the EC field elements); and
 * larger tables than the GPU's registers allow (EC k*G by columns).
 * Each hook computes exactly what the portable code below it computes
 * (the unit suites run both: PIXELVAULT_CPU_ACCEL=0 turns the hooks off),
 * in constant time as that code does.  Included by the core's .c files
 * outside nvcc only; the CUDA kernel never sees this header.
 */
#ifndef KC_CPU_H
#define KC_CPU_H

#include "gpu/core/kc_defs.h"
#include "gpu/core/sym/kc_sym.h"

/* What this process may use: set once from cpuid and the environment
 * (PIXELVAULT_CPU_ACCEL=0: none of it, the portable code everywhere). */
#define KC_CPU_AES   1u    /* AES-NI: AES rounds */
#define KC_CPU_CLMUL 2u    /* PCLMULQDQ: GHASH */
#define KC_CPU_WIDE  4u    /* 64 x 64 -> 128-bit products: big numbers */
#define KC_CPU_SHA   8u    /* the SHA extensions: SHA-256 */
#define KC_CPU_TABLES 16u  /* the host's larger tables: k*G by columns */
uint32_t kc_cpu_features(void);

/* AES with the host's AES instructions.  kc_cpu_aes_init schedules
 * 16/24/32-byte keys into bc (alg KC_BC_AES_HW: the encryption round keys,
 * then the decryption ones, in the instructions' layout) and returns 1;
 * 0 when the CPU has no AES-NI or keylen is another length. */
int  kc_cpu_aes_init(kc_bc *bc, const uint8_t *key, size_t keylen);
void kc_cpu_aes_crypt(const kc_bc *bc, int dec, const uint8_t *in, uint8_t *out, size_t nblocks);

/* CTR over n full blocks of a KC_BC_AES_HW key, ctr advanced by n
 * (kc_ctr.c's KC_CTR_COOP); 0 (nothing done) for another key. */
int  kc_cpu_ctr(const kc_bc *bc, uint8_t ctr[16], uint32_t cb,
                const uint8_t *in, uint8_t *out, size_t nblocks);

/* With PCLMULQDQ (else 0, nothing done): (*yh:*yl) * (hh:hl) in
 * GF(2^128), GCM's bit order (kc_ghash_mul's); and GHASH over n full
 * blocks of data into y (kc_ghash.c's KC_GHASH_COOP). */
int  kc_cpu_ghash_mul(uint64_t *yh, uint64_t *yl, uint64_t hh, uint64_t hl);
int  kc_cpu_ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *data, size_t nblocks);

/* SHA-256's compression of one block into h (kc_sha256_compress); 0
 * (nothing done) without the SHA extensions. */
int  kc_cpu_sha256(uint32_t h[8], const uint8_t *block);

/* kc_bn_montmul's d = x y / R mod m (R = 2^(32 nl)) with 64-bit limbs,
 * for an even nl; returns 0 (nothing done) otherwise. */
int  kc_cpu_montmul(uint32_t *d, const uint32_t *x, const uint32_t *y,
                    const uint32_t *m, size_t nl);

/* k*G (kc_ecp_mulgen's hook) as a sum of one entry of a table per comb
 * column, without the comb's doublings (kc_cpu_ec.c); 0 (nothing done)
 * for another curve. */
struct kc_ec_params;
struct kc_ec_pt;
int  kc_cpu_ec_mulgen(const struct kc_ec_params *c, struct kc_ec_pt *r, const uint8_t *k);

#define KC_CPU_AES_INIT(bc, key, keylen) kc_cpu_aes_init(bc, key, keylen)
#define KC_CPU_AES_CRYPT(bc, dec, in, out, n) \
	((bc)->alg == KC_BC_AES_HW ? (kc_cpu_aes_crypt(bc, dec, in, out, n), 1) : 0)
#define KC_CPU_SHA256(h, block) kc_cpu_sha256(h, block)
#define KC_CTR_COOP(bc, ctr, cb, in, out, n) kc_cpu_ctr(bc, ctr, cb, in, out, n)
#define KC_CPU_GHASH_MUL(yh, yl, hh, hl) kc_cpu_ghash_mul(yh, yl, hh, hl)
#define KC_GHASH_COOP(y, h, data, n) kc_cpu_ghash(y, h, data, n)
#define KC_CPU_MONTMUL(d, x, y, m, nl) kc_cpu_montmul(d, x, y, m, nl)
#define KC_BN_COOP_MONTMUL(d, x, y, m, nl, m0i) kc_cpu_montmul(d, x, y, m, nl)
#define KC_EC_COOP_MULGEN(c, r, k) kc_cpu_ec_mulgen(c, r, k)

#endif /* KC_CPU_H */
