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
 * alone.  Every column's 15 entries are read and selected by masks; a zero
 * index selects the identity, which the complete addition takes like any
 * other point.  The result is the same point as the portable comb's (its
 * projective representation may differ), which is all the hook promises.
 */
#include "gpu/core/cpu/kc_cpu.h"
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

int kc_cpu_ec_mulgen(const kc_ec_params *c, kc_ec_pt *r, const uint8_t *k)
{
	const uint32_t *tab = kc_cpu_comb(c);
	const uint32_t d = c->comb_d, flen = c->flen, nl = c->nl;
	kc_ec_pt acc, t;
	uint32_t sel[2 * KC_EC_MAXL];
	uint32_t s, i, j, w, idx, nz;

	if (tab == NULL || !(kc_cpu_features() & KC_CPU_TABLES))
		return 0;
	kc_ecp_set_inf(c, &acc);
	kc_ecp_set_inf(c, &t);
	for (s = 0; s < d; s++) {
		const uint32_t *col = tab + (size_t)s * 15u * 2u * nl;

		idx = 0;
		for (j = 0; j < 4; j++) {
			uint32_t pos = s + j * d;   /* public bit position */
			uint32_t bit = ((uint32_t)k[flen - 1u - (pos >> 3)] >> (pos & 7u)) & 1u;

			idx |= bit << j;
		}
		/* sel = entry idx - 1 (x then y), or 0: every entry read */
		for (w = 0; w < 2u * nl; w++)
			sel[w] = 0;
		for (i = 1; i < 16; i++) {
			const uint32_t mask = 0u - kc_ctl_eq32(i, idx);
			const uint32_t *e = col + (size_t)(i - 1u) * 2u * nl;

			for (w = 0; w < 2u * nl; w++)
				sel[w] |= e[w] & mask;
		}
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
