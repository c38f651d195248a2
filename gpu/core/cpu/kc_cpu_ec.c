/*
 * kc_cpu_ec.c - k*G on the host without doublings (kc_cpu.h).
 *
 * kc_ecp_mulgen's comb with 4 teeth and spacing d = bits/4 computes
 *   k*G = sum over s < d of 2^s * T[idx(s)],
 *   idx(s) = the bits s, s + d, s + 2d, s + 3d of k,
 * by d doublings of an accumulator and d additions.  With a table per
 * column, C[s][i-1] = 2^s * T[i-1] (gen_tables.py --host-comb: the points
 * of the GPU's per-column comb, laid out for one thread; 61,440 B each
 * for P-256 and SM2, 138,240 B for P-384), the sum needs the d additions
 * alone: on P-256 and SM2 mixed additions in four 64-bit limbs
 * (kc_cpu_f256.h), on P-384 the core's complete addition.  Every column's
 * 15 entries are read and selected by masks, and a zero index adds the
 * identity, also by masks.  The result is the same point as the portable
 * comb's (its projective representation may differ), which is all the
 * hook promises.
 */
#include "gpu/core/cpu/kc_cpu.h"
#include "gpu/core/cpu/kc_cpu_f256.h"
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/kc_util.h"

#include "gpu/core/cpu/kc_cpu_comb_tables.h"   /* generated (meson.build) */

/* this curve's column tables (public), or NULL */
static const uint32_t *kc_cpu_comb(const kc_ec_params *c)
{
	if (c == kc_ec_params_get(KC_EC_P256))
		return &kc_cpu_comb_p256[0][0][0][0];
	if (c == kc_ec_params_get(KC_EC_SM2))
		return &kc_cpu_comb_sm2[0][0][0][0];
	if (c == kc_ec_params_get(KC_EC_P384))
		return &kc_cpu_comb_p384[0][0][0][0];
	return NULL;
}

/* idx(s): the comb's bits s, s + d, s + 2d, s + 3d of k (flen bytes,
 * big-endian); positions are public */
static uint32_t kc_cpu_comb_idx(const uint8_t *k, uint32_t flen, uint32_t s, uint32_t d)
{
	uint32_t j, idx = 0;

	for (j = 0; j < 4; j++) {
		uint32_t pos = s + j * d;
		idx |= (((uint32_t)k[flen - 1u - (pos >> 3)] >> (pos & 7u)) & 1u) << j;
	}
	return idx;
}

/* sel (2 nl words: x then y) = entry idx - 1 of the column, or 0 for idx
 * 0: every entry read, selected by masks */
static void kc_cpu_comb_sel(uint32_t *sel, const uint32_t *col, uint32_t idx, uint32_t nl)
{
	uint32_t i, w;

	for (w = 0; w < 2u * nl; w++)
		sel[w] = 0;
	for (i = 1; i < 16; i++) {
		const uint32_t mask = 0u - kc_ctl_eq32(i, idx);
		const uint32_t *e = col + (size_t)(i - 1u) * 2u * nl;

		for (w = 0; w < 2u * nl; w++)
			sel[w] |= e[w] & mask;
	}
}

#if defined(KC_CPU_F256)
/* The 256-bit curves (P-256, SM2): the sum in four 64-bit limbs, with the
 * mixed addition of Renes, Costello and Batina for a = -3 (algorithm 5:
 * kc_ecp_add's algorithm 4 with Z2 = 1; complete for any P and an affine
 * Q, so a zero index is kept out by masks instead).  p, b and 1 in
 * Montgomery form are the curve's own; R = 2^256 either way. */
typedef struct {
	uint64_t x[4], y[4], z[4];
} kc_cpu_pt4;

static inline __attribute__((always_inline)) void
kc_cpu_madd4(kc_cpu_pt4 *r, const kc_cpu_pt4 *p, const uint64_t x2[4], const uint64_t y2[4],
             const uint64_t b[4], const uint64_t m[4], uint64_t m0i)
{
	uint64_t t0[4], t1[4], t2[4], t3[4], t4[4], x3[4], y3[4], z3[4];
	unsigned i;

	kc_f256_mul(t0, p->x, x2, m, m0i);
	kc_f256_mul(t1, p->y, y2, m, m0i);
	kc_f256_add(t3, x2, y2, m);
	kc_f256_add(t4, p->x, p->y, m);
	kc_f256_mul(t3, t3, t4, m, m0i);
	kc_f256_add(t4, t0, t1, m);
	kc_f256_sub(t3, t3, t4, m);
	kc_f256_mul(t4, y2, p->z, m, m0i);
	kc_f256_add(t4, t4, p->y, m);
	kc_f256_mul(y3, x2, p->z, m, m0i);
	kc_f256_add(y3, y3, p->x, m);
	kc_f256_mul(z3, b, p->z, m, m0i);
	kc_f256_sub(x3, y3, z3, m);
	kc_f256_add(z3, x3, x3, m);
	kc_f256_add(x3, x3, z3, m);
	kc_f256_sub(z3, t1, x3, m);
	kc_f256_add(x3, t1, x3, m);
	kc_f256_mul(y3, b, y3, m, m0i);
	kc_f256_add(t1, p->z, p->z, m);
	kc_f256_add(t2, t1, p->z, m);
	kc_f256_sub(y3, y3, t2, m);
	kc_f256_sub(y3, y3, t0, m);
	kc_f256_add(t1, y3, y3, m);
	kc_f256_add(y3, t1, y3, m);
	kc_f256_add(t1, t0, t0, m);
	kc_f256_add(t0, t1, t0, m);
	kc_f256_sub(t0, t0, t2, m);
	kc_f256_mul(t1, t4, y3, m, m0i);
	kc_f256_mul(t2, t0, y3, m, m0i);
	kc_f256_mul(y3, x3, z3, m, m0i);
	kc_f256_add(y3, y3, t2, m);
	kc_f256_mul(x3, t3, x3, m, m0i);
	kc_f256_sub(x3, x3, t1, m);
	kc_f256_mul(z3, t4, z3, m, m0i);
	kc_f256_mul(t1, t3, t0, m, m0i);
	kc_f256_add(z3, z3, t1, m);
	for (i = 0; i < 4; i++) {
		r->x[i] = x3[i];
		r->y[i] = y3[i];
		r->z[i] = z3[i];
	}
}

/* k*G for a 256-bit curve (nl 8): as kc_cpu_ec_mulgen, in 64-bit limbs */
static void kc_cpu_mulgen4(const kc_ec_params *c, kc_ec_pt *r, const uint8_t *k, const uint32_t *tab)
{
	const uint32_t d = c->comb_d, flen = c->flen;
	kc_cpu_pt4 acc, sum;
	uint64_t m[4], b[4], x2[4], y2[4], m0i, keep;
	uint32_t sel[16];
	uint32_t s, i, idx;

	kc_f256_load(m, c->p.m);
	kc_f256_load(b, c->b);
	m0i = kc_cpu_m0i64(m[0]);
	for (i = 0; i < 4; i++) {           /* the identity (0 : 1 : 0) */
		acc.x[i] = 0;
		acc.z[i] = 0;
	}
	kc_f256_load(acc.y, c->p.one);
	for (s = 0; s < d; s++) {
		idx = kc_cpu_comb_idx(k, flen, s, d);
		kc_cpu_comb_sel(sel, tab + (size_t)s * 15u * 16u, idx, 8);
		kc_f256_load(x2, sel);
		kc_f256_load(y2, sel + 8);
		kc_cpu_madd4(&sum, &acc, x2, y2, b, m, m0i);
		/* acc = sum, unless idx is 0 (then acc + the identity = acc) */
		keep = (uint64_t)0 - kc_ctl_eq32(idx, 0);
		for (i = 0; i < 4; i++) {
			acc.x[i] = (acc.x[i] & keep) | (sum.x[i] & ~keep);
			acc.y[i] = (acc.y[i] & keep) | (sum.y[i] & ~keep);
			acc.z[i] = (acc.z[i] & keep) | (sum.z[i] & ~keep);
		}
	}
	kc_ecp_set_inf(c, r);
	kc_f256_store(r->x, acc.x);
	kc_f256_store(r->y, acc.y);
	kc_f256_store(r->z, acc.z);
	kc_wipe(&acc, sizeof acc);
	kc_wipe(&sum, sizeof sum);
	kc_wipe(x2, sizeof x2);
	kc_wipe(y2, sizeof y2);
	kc_wipe(sel, sizeof sel);
}
#endif

int kc_cpu_ec_mulgen(const kc_ec_params *c, kc_ec_pt *r, const uint8_t *k)
{
	const uint32_t *tab = kc_cpu_comb(c);
	const uint32_t d = c->comb_d, flen = c->flen, nl = c->nl;
	kc_ec_pt acc, t;
	uint32_t sel[2 * KC_EC_MAXL];
	uint32_t s, w, idx, nz;

	const uint32_t f = kc_cpu_features();

	if (tab == NULL || !(f & KC_CPU_TABLES))
		return 0;
#if defined(KC_CPU_F256)
	if (nl == 8 && (f & KC_CPU_WIDE)) {
		kc_cpu_mulgen4(c, r, k, tab);
		return 1;
	}
#endif
	/* P-384: the core's complete addition, the identity for idx 0 */
	kc_ecp_set_inf(c, &acc);
	kc_ecp_set_inf(c, &t);
	for (s = 0; s < d; s++) {
		idx = kc_cpu_comb_idx(k, flen, s, d);
		kc_cpu_comb_sel(sel, tab + (size_t)s * 15u * 2u * nl, idx, nl);
		/* t = (x : y : 1), or the identity (0 : 1 : 0) for idx 0 */
		nz = 0u - (kc_ctl_eq32(idx, 0) ^ 1u);
		for (w = 0; w < nl; w++) {
			t.x[w] = sel[w];
			t.y[w] = sel[nl + w] | (c->p.one[w] & ~nz);
			t.z[w] = c->p.one[w] & nz;
		}
		kc_ecp_add(c, &acc, &acc, &t);
	}
	*r = acc;
	kc_wipe(&acc, sizeof acc);
	kc_wipe(&t, sizeof t);
	kc_wipe(sel, sizeof sel);
	return 1;
}
