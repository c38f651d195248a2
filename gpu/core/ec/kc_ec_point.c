/*
 * kc_ec_point.c - group law and scalar multiplication on y^2 = x^3 - 3x + b
 * (P-256, P-384, SM2) in projective coordinates.
 *
 * Addition and doubling are the complete formulas of Renes, Costello and
 * Batina, "Complete addition formulas for prime order elliptic curves"
 * (EUROCRYPT 2016), algorithms 4 (add) and 6 (double) for a = -3: correct for
 * every pair of inputs including the identity and P = Q, so the scalar
 * multiplications below never branch.
 *
 *   kc_ecp_mul     k*P: 4-bit fixed window, 16-entry table, every entry read
 *                  (masked select) for every window; 4 doublings + 1 addition
 *                  per window.
 *   kc_ecp_mulgen  k*G: Lim-Lee comb with 4 teeth (spacing bits/4) over the
 *                  public 15-entry table of kc_ec_tables.h, scanned in full;
 *                  bits/4 doublings + bits/4 additions.
 */
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#ifndef __CUDACC__
#include "gpu/core/cpu/kc_cpu.h"   /* the host's k*G by columns */
#endif

/* An execution space may compute k*G its own way
 * (gpu/cuda/pvc_ec_warp.cuh: the 32 lanes of a warp that run one request
 * with identical data, each lane adding its own comb columns; the host
 * build, gpu/core/cpu/kc_cpu_ec.c: one table per column, no doublings).
 * The hook returns 1 when it did, with the same point (its projective
 * representation may differ), 0 to run the serial comb below. */
#ifndef KC_EC_COOP_MULGEN
#define KC_EC_COOP_MULGEN(c, r, k) 0
#endif

KC_API void kc_ecp_set_inf(const kc_ec_params *c, kc_ec_pt *p)
{
	uint32_t i;

	for (i = 0; i < KC_EC_MAXL; i++) {
		p->x[i] = 0;
		p->y[i] = c->p.one[i];
		p->z[i] = 0;
	}
}

KC_PRIV void kc_ecp_store(uint32_t nl, kc_ec_pt *r, const uint32_t *x, const uint32_t *y,
                          const uint32_t *z)
{
	uint32_t i;

	for (i = 0; i < nl; i++) {
		r->x[i] = x[i];
		r->y[i] = y[i];
		r->z[i] = z[i];
	}
}

KC_EC_NOINLINE KC_API void kc_ecp_add(const kc_ec_params *c, kc_ec_pt *r, const kc_ec_pt *p, const kc_ec_pt *q)
{
	const kc_ec_mod *F = &c->p;
	uint32_t t0[KC_EC_MAXL], t1[KC_EC_MAXL], t2[KC_EC_MAXL], t3[KC_EC_MAXL], t4[KC_EC_MAXL];
	uint32_t x3[KC_EC_MAXL], y3[KC_EC_MAXL], z3[KC_EC_MAXL];

	kc_ecf_mul(F, t0, p->x, q->x);
	kc_ecf_mul(F, t1, p->y, q->y);
	kc_ecf_mul(F, t2, p->z, q->z);
	kc_ecf_add(F, t3, p->x, p->y);
	kc_ecf_add(F, t4, q->x, q->y);
	kc_ecf_mul(F, t3, t3, t4);
	kc_ecf_add(F, t4, t0, t1);
	kc_ecf_sub(F, t3, t3, t4);
	kc_ecf_add(F, t4, p->y, p->z);
	kc_ecf_add(F, x3, q->y, q->z);
	kc_ecf_mul(F, t4, t4, x3);
	kc_ecf_add(F, x3, t1, t2);
	kc_ecf_sub(F, t4, t4, x3);
	kc_ecf_add(F, x3, p->x, p->z);
	kc_ecf_add(F, y3, q->x, q->z);
	kc_ecf_mul(F, x3, x3, y3);
	kc_ecf_add(F, y3, t0, t2);
	kc_ecf_sub(F, y3, x3, y3);
	kc_ecf_mul(F, z3, c->b, t2);
	kc_ecf_sub(F, x3, y3, z3);
	kc_ecf_add(F, z3, x3, x3);
	kc_ecf_add(F, x3, x3, z3);
	kc_ecf_sub(F, z3, t1, x3);
	kc_ecf_add(F, x3, t1, x3);
	kc_ecf_mul(F, y3, c->b, y3);
	kc_ecf_add(F, t1, t2, t2);
	kc_ecf_add(F, t2, t1, t2);
	kc_ecf_sub(F, y3, y3, t2);
	kc_ecf_sub(F, y3, y3, t0);
	kc_ecf_add(F, t1, y3, y3);
	kc_ecf_add(F, y3, t1, y3);
	kc_ecf_add(F, t1, t0, t0);
	kc_ecf_add(F, t0, t1, t0);
	kc_ecf_sub(F, t0, t0, t2);
	kc_ecf_mul(F, t1, t4, y3);
	kc_ecf_mul(F, t2, t0, y3);
	kc_ecf_mul(F, y3, x3, z3);
	kc_ecf_add(F, y3, y3, t2);
	kc_ecf_mul(F, x3, t3, x3);
	kc_ecf_sub(F, x3, x3, t1);
	kc_ecf_mul(F, z3, t4, z3);
	kc_ecf_mul(F, t1, t3, t0);
	kc_ecf_add(F, z3, z3, t1);
	kc_ecp_store(c->nl, r, x3, y3, z3);
}

KC_EC_NOINLINE KC_API void kc_ecp_dbl(const kc_ec_params *c, kc_ec_pt *r, const kc_ec_pt *p)
{
	const kc_ec_mod *F = &c->p;
	uint32_t t0[KC_EC_MAXL], t1[KC_EC_MAXL], t2[KC_EC_MAXL], t3[KC_EC_MAXL];
	uint32_t x3[KC_EC_MAXL], y3[KC_EC_MAXL], z3[KC_EC_MAXL];

	kc_ecf_mul(F, t0, p->x, p->x);
	kc_ecf_mul(F, t1, p->y, p->y);
	kc_ecf_mul(F, t2, p->z, p->z);
	kc_ecf_mul(F, t3, p->x, p->y);
	kc_ecf_add(F, t3, t3, t3);
	kc_ecf_mul(F, z3, p->x, p->z);
	kc_ecf_add(F, z3, z3, z3);
	kc_ecf_mul(F, y3, c->b, t2);
	kc_ecf_sub(F, y3, y3, z3);
	kc_ecf_add(F, x3, y3, y3);
	kc_ecf_add(F, y3, x3, y3);
	kc_ecf_sub(F, x3, t1, y3);
	kc_ecf_add(F, y3, t1, y3);
	kc_ecf_mul(F, y3, x3, y3);
	kc_ecf_mul(F, x3, x3, t3);
	kc_ecf_add(F, t3, t2, t2);
	kc_ecf_add(F, t2, t2, t3);
	kc_ecf_mul(F, z3, c->b, z3);
	kc_ecf_sub(F, z3, z3, t2);
	kc_ecf_sub(F, z3, z3, t0);
	kc_ecf_add(F, t3, z3, z3);
	kc_ecf_add(F, z3, z3, t3);
	kc_ecf_add(F, t3, t0, t0);
	kc_ecf_add(F, t0, t3, t0);
	kc_ecf_sub(F, t0, t0, t2);
	kc_ecf_mul(F, t0, t0, z3);
	kc_ecf_add(F, y3, y3, t0);
	kc_ecf_mul(F, t0, p->y, p->z);
	kc_ecf_add(F, t0, t0, t0);
	kc_ecf_mul(F, z3, t0, z3);
	kc_ecf_sub(F, x3, x3, z3);
	kc_ecf_mul(F, z3, t0, t1);
	kc_ecf_add(F, z3, z3, z3);
	kc_ecf_add(F, z3, z3, z3);
	kc_ecp_store(c->nl, r, x3, y3, z3);
}

KC_API uint32_t kc_ecp_to_affine(const kc_ec_params *c, const kc_ec_pt *p, uint32_t *x, uint32_t *y)
{
	uint32_t zi[KC_EC_MAXL];
	uint32_t ok;

	ok = kc_ecf_is_zero(&c->p, p->z) ^ 1u;
	kc_ecf_inv(&c->p, zi, p->z);
	kc_ecf_mul(&c->p, x, p->x, zi);
	kc_ecf_mul(&c->p, y, p->y, zi);
	kc_wipe(zi, sizeof zi);
	return ok;
}

/* t = tab[idx] for idx in [0, 16), reading every entry. */
KC_PRIV void kc_ecp_select16(uint32_t nl, kc_ec_pt *t, const kc_ec_pt *tab, uint32_t idx)
{
	uint32_t j;

	for (j = 0; j < 16; j++) {
		uint32_t ctl = kc_ctl_eq32(j, idx);

		kc_ecf_cmov(t->x, tab[j].x, ctl, nl);
		kc_ecf_cmov(t->y, tab[j].y, ctl, nl);
		kc_ecf_cmov(t->z, tab[j].z, ctl, nl);
	}
}

KC_EC_NOINLINE KC_API void kc_ecp_mul(const kc_ec_params *c, kc_ec_pt *r, const kc_ec_pt *p, const uint8_t *k)
{
	kc_ec_pt tab[16], acc, t;
	uint32_t i, nib;

	kc_ecp_set_inf(c, &tab[0]);
	tab[1] = *p;
	for (i = 2; i < 16; i++) {
		if ((i & 1u) == 0)
			kc_ecp_dbl(c, &tab[i], &tab[i >> 1]);
		else
			kc_ecp_add(c, &tab[i], &tab[i - 1], p);
	}
	kc_ecp_set_inf(c, &acc);
	kc_ecp_set_inf(c, &t);
	for (i = 0; i < 2u * c->flen; i++) {
		uint32_t byte = k[i >> 1];

		nib = (i & 1u) ? (byte & 15u) : (byte >> 4);
		kc_ecp_dbl(c, &acc, &acc);
		kc_ecp_dbl(c, &acc, &acc);
		kc_ecp_dbl(c, &acc, &acc);
		kc_ecp_dbl(c, &acc, &acc);
		kc_ecp_select16(c->nl, &t, tab, nib);
		kc_ecp_add(c, &acc, &acc, &t);
	}
	*r = acc;
	nib = 0;
	kc_wipe(tab, sizeof tab);
	kc_wipe(&acc, sizeof acc);
	kc_wipe(&t, sizeof t);
}

KC_EC_NOINLINE KC_API void kc_ecp_mulgen(const kc_ec_params *c, kc_ec_pt *r, const uint8_t *k)
{
	kc_ec_pt acc, t;
	uint32_t d = c->comb_d, flen = c->flen, nl = c->nl;
	uint32_t i, j, idx;
	int s;

	if (KC_EC_COOP_MULGEN(c, r, k))
		return;
	kc_ecp_set_inf(c, &acc);
	for (s = (int)d - 1; s >= 0; s--) {
		idx = 0;
		for (j = 0; j < 4; j++) {
			uint32_t pos = (uint32_t)s + j * d;   /* public bit position */
			uint32_t bit = ((uint32_t)k[flen - 1u - (pos >> 3)] >> (pos & 7u)) & 1u;

			idx |= bit << j;
		}
		/* t = identity, or the affine table entry idx-1 with Z = 1 */
		kc_ecp_set_inf(c, &t);
		for (i = 1; i < 16; i++) {
			uint32_t ctl = kc_ctl_eq32(i, idx);

			kc_ecf_cmov(t.x, c->comb[i - 1][0], ctl, nl);
			kc_ecf_cmov(t.y, c->comb[i - 1][1], ctl, nl);
			kc_ecf_cmov(t.z, c->p.one, ctl, nl);
		}
		kc_ecp_dbl(c, &acc, &acc);
		kc_ecp_add(c, &acc, &acc, &t);
	}
	*r = acc;
	idx = 0;
	kc_wipe(&acc, sizeof acc);
	kc_wipe(&t, sizeof t);
}

KC_API void kc_ecp_mul2(const kc_ec_params *c, kc_ec_pt *r, const uint8_t *u1, const kc_ec_pt *q,
                        const uint8_t *u2)
{
	kc_ec_pt a, b;

	kc_ecp_mulgen(c, &a, u1);
	kc_ecp_mul(c, &b, q, u2);
	kc_ecp_add(c, r, &a, &b);
}

KC_API int kc_ecp_decode(const kc_ec_params *c, kc_ec_pt *p, const uint8_t *src, size_t len)
{
	const kc_ec_mod *F = &c->p;
	uint32_t x[KC_EC_MAXL], y[KC_EC_MAXL], t[KC_EC_MAXL], rhs[KC_EC_MAXL];
	uint32_t flen = c->flen, ok, i;

	if (src == NULL || len == 0)
		return PV_ERR_PUBKEY;
	for (i = 0; i < KC_EC_MAXL; i++)
		y[i] = 0;
	if (len == 1u + 2u * flen && src[0] == 0x04) {
		ok = kc_ecf_decode(F, x, src + 1);
		ok &= kc_ecf_decode(F, y, src + 1 + flen);
	} else if (len == 1u + flen && (src[0] == 0x02 || src[0] == 0x03)) {
		ok = kc_ecf_decode(F, x, src + 1);
	} else {
		return PV_ERR_PUBKEY;
	}
	if (!ok)
		return PV_ERR_PUBKEY;
	kc_ecf_to_mont(F, x, x);
	/* rhs = x^3 - 3x + b */
	kc_ecf_mul(F, rhs, x, x);
	kc_ecf_mul(F, rhs, rhs, x);
	kc_ecf_add(F, t, x, x);
	kc_ecf_add(F, t, t, x);
	kc_ecf_sub(F, rhs, rhs, t);
	kc_ecf_add(F, rhs, rhs, c->b);
	if (src[0] == 0x04) {
		kc_ecf_to_mont(F, y, y);
	} else {
		uint32_t yr[KC_EC_MAXL], zero[KC_EC_MAXL];

		kc_ecf_pow(F, y, rhs, c->sqrt_e);
		kc_ecf_from_mont(F, yr, y);
		if ((yr[0] & 1u) != (uint32_t)(src[0] & 1u)) {
			for (i = 0; i < KC_EC_MAXL; i++)
				zero[i] = 0;
			kc_ecf_sub(F, y, zero, y);
		}
	}
	kc_ecf_mul(F, t, y, y);
	if (!kc_ecf_eq(F, t, rhs))
		return PV_ERR_PUBKEY;
	kc_memcpy(p->x, x, sizeof x);
	kc_memcpy(p->y, y, sizeof y);
	kc_memcpy(p->z, F->one, sizeof p->z);
	return PV_OK;
}

KC_API uint32_t kc_ecp_encode(const kc_ec_params *c, uint8_t *dst, const kc_ec_pt *p)
{
	uint32_t x[KC_EC_MAXL], y[KC_EC_MAXL];
	uint32_t ok;

	ok = kc_ecp_to_affine(c, p, x, y);
	kc_ecf_from_mont(&c->p, x, x);
	kc_ecf_from_mont(&c->p, y, y);
	dst[0] = 0x04;
	kc_ecf_encode(&c->p, dst + 1, x);
	kc_ecf_encode(&c->p, dst + 1 + c->flen, y);
	kc_wipe(x, sizeof x);
	kc_wipe(y, sizeof y);
	return ok;
}
