/*
 * kc_rsa_core.c - RSA raw operations: public (n, e), private by CRT with
 * exponent blinding and a fault check, key checks.
 *
 * Private operation, for c < n (all steps constant time in p, q, dp, dq,
 * qinv, c; the two exponentiations are one kc_bn_modexp2):
 *   cp = c mod p                       (Montgomery wide reduction)
 *   m1 = cp^(dp + r1 (p-1)) mod p      (r1: 64 random bits)
 *   m2 = cq^(dq + r2 (q-1)) mod q
 *   h  = (m1 - m2) qinv mod p
 *   s  = m2 + h q
 *   release s only if p q == n and (s mod x)^e == c mod x for x = p and
 *   x = q (s^e == c mod n by the CRT; else zeroes and PV_ERR_GENERAL).
 */
#include "kc_rsa.h"
#include "kc_bn.h"
#include "../kc_util.h"
#include "../pv_err.h"

#define KC_RSA_NL (KC_BN_MAX_LIMBS)
#define KC_RSA_HL (KC_BN_MAX_LIMBS / 2)

/* q's CRT preparation computed elsewhere while the caller does p's:
 * KC_RSA_COOP_PREP_POST(cw, qb, db, rnd, bits, hl) starts it (1) or
 * declines (0), KC_RSA_COOP_PREP_TAKE(m, ex, px, r2, m0ip) waits for a
 * posted one and returns its ctl, as kc_rsa_core_prep would.  The vault
 * kernel's warp 1 does it (gpu/cuda/pvc_bn_warp.cuh); elsewhere nothing is
 * posted, and the TAKE that is never reached still sets *m0ip, so that no
 * compiler sees the caller's m0q used unset (clang's
 * -Wsometimes-uninitialized). */
#ifndef KC_RSA_COOP_PREP_POST
#define KC_RSA_COOP_PREP_POST(cw, qb, db, rnd, bits, hl) 0
#define KC_RSA_COOP_PREP_TAKE(m, ex, px, r2, m0ip) (*(m0ip) = 0u, 0u)
#endif
/* q's half of the fault check likewise: KC_RSA_COOP_CHECK_POST(sw, cw, e,
 * px, r2, m0i, hl) starts kc_rsa_core_check elsewhere (1) or declines
 * (0), KC_RSA_COOP_CHECK_TAKE() waits for it and returns its ctl. */
#ifndef KC_RSA_COOP_CHECK_POST
#define KC_RSA_COOP_CHECK_POST(sw, cw, e, px, r2, m0i, hl) 0
#define KC_RSA_COOP_CHECK_TAKE() 0u
#endif

KC_API size_t kc_rsa_len(uint32_t bits)
{
	return ((size_t)bits + 7) / 8;
}

KC_PRIV size_t kc_rsa_core_nl(uint32_t bits) { return ((size_t)bits + 31) / 32; }
KC_PRIV size_t kc_rsa_core_hl(uint32_t bits) { return (((size_t)bits + 1) / 2 + 31) / 32; }

/* Load and validate n (public).  Returns PV_OK or an error. */
KC_PRIV int kc_rsa_core_load_n(uint32_t *nn, const uint8_t *n, uint32_t bits, uint32_t e)
{
	size_t nl;
	if (bits < KC_RSA_MIN_BITS || bits > KC_RSA_MAX_BITS)
		return PV_ERR_KEY_SIZE;
	nl = kc_rsa_core_nl(bits);
	if (!kc_bn_decode(nn, nl, n, KC_RSA_MAX_BYTES))
		return PV_ERR_PUBKEY;
	if (kc_bn_bitlen(nn, nl) != bits || (nn[0] & 1u) == 0)
		return PV_ERR_PUBKEY;
	if ((e & 1u) == 0 || e < 3 || e >= 0x80000000u)
		return PV_ERR_PUBKEY;
	return PV_OK;
}

KC_API int kc_rsa_pub_check(const kc_rsa_pub *pk)
{
	uint32_t nn[KC_RSA_NL];
	return kc_rsa_core_load_n(nn, pk->n, pk->bits, pk->e);
}

KC_API void kc_rsa_pub_from_priv(kc_rsa_pub *pk, const kc_rsa_priv *sk)
{
	pk->bits = sk->bits;
	pk->e = sk->e;
	kc_memcpy(pk->n, sk->n, sizeof pk->n);
}

KC_API void kc_rsa_priv_clear(kc_rsa_priv *sk)
{
	kc_wipe(sk, sizeof *sk);
}

KC_API int kc_rsa_public(const kc_rsa_pub *pk, const uint8_t *in, size_t inlen, uint8_t *out)
{
	uint32_t nn[KC_RSA_NL], x[KC_RSA_NL], r2[KC_RSA_NL], tmp[2 * KC_RSA_NL];
	size_t nl, k;
	uint32_t m0i;
	int rc;

	rc = kc_rsa_core_load_n(nn, pk->n, pk->bits, pk->e);
	if (rc != PV_OK)
		return rc;
	nl = kc_rsa_core_nl(pk->bits);
	k = kc_rsa_len(pk->bits);
	if (inlen != k)
		return PV_ERR_DATA_LEN;
	kc_bn_decode(x, nl, in, k);
	if (!kc_bn_lt(x, nn, nl))
		return PV_ERR_ENC_INVALID;
	m0i = kc_bn_ninv32(nn[0]);
	kc_bn_r2(r2, nn, nl, m0i, pk->bits);
	kc_bn_modexp_pub(x, pk->e, r2, nn, nl, m0i, tmp);
	kc_bn_encode(out, k, x, nl);
	return PV_OK;
}

/* For one prime: px, its r2, ex = dx + r (px - 1) (hl + 2 limbs) and
 * m = c mod px, ready for m^ex mod px.  Returns ctl "fits"; *m0i.
 *
 * R mod px starts from 2^(bits - 32 hl - 1), a public bound below px:
 * n = p q has `bits` bits and the other prime is below 2^(32 hl), so px >
 * 2^(bits - 1 - 32 hl) (RSA-2048: 2^1023, one doubling instead of 1,024).
 * A key whose primes do not multiply to n gets a wrong r2 and a wrong
 * result, which the fault check refuses like any other. */
KC_API uint32_t kc_rsa_core_prep(uint32_t *m, uint32_t *ex, const uint32_t *cw, const uint8_t *pb,
                                 const uint8_t *db, const uint8_t *rnd, uint32_t bits, size_t hl,
                                 uint32_t *px, uint32_t *r2, uint32_t *m0ip)
{
	const uint32_t minbits = bits > 32u * (uint32_t)hl ? bits - 32u * (uint32_t)hl : 1u;
	uint32_t t[KC_RSA_HL + 2], r[2], ok, m0i;

	ok = kc_bn_decode(px, hl, pb, KC_RSA_MAX_HBYTES);
	ok &= px[0] & 1u;
	px[0] |= 1u;                         /* keep Montgomery defined */
	m0i = kc_bn_ninv32(px[0]);
	kc_bn_r2(r2, px, hl, m0i, minbits);
	KC_PROF(15);
	/* ex = dx + r (px - 1) */
	r[0] = kc_load_be32(rnd);
	r[1] = kc_load_be32(rnd + 4);
	px[0] ^= 1u;
	kc_bn_mul(ex, px, hl, r, 2);
	px[0] ^= 1u;
	kc_bn_zero(t, hl + 2);
	ok &= kc_bn_decode(t, hl, db, KC_RSA_MAX_HBYTES);
	kc_bn_add(ex, t, hl + 2, 1);
	kc_bn_mod_wide(m, cw, r2, px, hl, m0i);
	*m0ip = m0i;
	kc_wipe(t, sizeof t);
	kc_wipe(r, sizeof r);
	return ok;
}

/* One prime's half of the fault check: (s mod px)^e == c mod px, from the
 * result s and the input c themselves (2 hl limbs each).  For s, c < n =
 * p q their limbs above hl are below px (the other prime is below
 * 2^(32 hl)), as kc_bn_mod_wide needs; a larger s fails the caller's own
 * s < n check.  c mod px is computed again here, not taken from the
 * preparation, so that a fault there cannot make both sides agree.
 * Returns ctl. */
KC_API uint32_t kc_rsa_core_check(const uint32_t *sw, const uint32_t *cw, uint32_t e,
                                  const uint32_t *px, const uint32_t *r2, uint32_t m0i, size_t hl)
{
	uint32_t a[KC_RSA_HL], b[KC_RSA_HL], tmp[2 * KC_RSA_HL], ok;

	kc_bn_mod_wide(a, sw, r2, px, hl, m0i);
	kc_bn_mod_wide(b, cw, r2, px, hl, m0i);
	kc_bn_modexp_pub(a, e, r2, px, hl, m0i, tmp);
	ok = kc_bn_eq(a, b, hl);
	kc_wipe(a, sizeof a);
	kc_wipe(b, sizeof b);
	kc_wipe(tmp, sizeof tmp);
	return ok;
}

KC_API int kc_rsa_private_ct(const kc_rsa_priv *sk, kc_drbg *rng, const uint8_t *in,
                             size_t inlen, uint8_t *out, uint32_t *okp, uint32_t *rangep)
{
	uint32_t nn[KC_RSA_NL], cw[KC_RSA_NL], s[KC_RSA_NL + 2];
	uint32_t pp[KC_RSA_HL], qq[KC_RSA_HL], r2p[KC_RSA_HL], r2q[KC_RSA_HL];
	uint32_t m1[KC_RSA_HL], m2[KC_RSA_HL + KC_RSA_HL], h[KC_RSA_HL];
	uint32_t ex1[KC_RSA_HL + 2], ex2[KC_RSA_HL + 2], m0q;
	uint32_t tmp[KC_BN_MODEXP_TMP(KC_RSA_HL)];
	uint8_t rnd[16];
	size_t nl, hl, k, i;
	uint32_t ok, m0p, c, msk, range;
	int rc, posted;

	*okp = 0;
	*rangep = 0;
	rc = kc_rsa_core_load_n(nn, sk->n, sk->bits, sk->e);
	if (rc != PV_OK)
		return rc;
	KC_PROF(14);
	nl = kc_rsa_core_nl(sk->bits);
	hl = kc_rsa_core_hl(sk->bits);
	k = kc_rsa_len(sk->bits);
	if (inlen != k)
		return PV_ERR_DATA_LEN;
	/* c, zero-extended to 2 hl limbs for the wide reductions */
	kc_bn_zero(cw, KC_RSA_NL);
	kc_bn_decode(cw, nl, in, k);
	KC_PROF(7);
	if (kc_drbg_generate(rng, rnd, sizeof rnd, (const uint8_t *)0, 0) != 0)
		return PV_ERR_RANDOM;
	KC_PROF(8);
	/* c < n, without a branch (c may be a secret message) */
	range = kc_bn_lt(cw, nn, nl);

	ok = range;
	posted = KC_RSA_COOP_PREP_POST(cw, sk->q, sk->dq, rnd + 8, sk->bits, hl);
	ok &= kc_rsa_core_prep(m1, ex1, cw, sk->p, sk->dp, rnd, sk->bits, hl, pp, r2p, &m0p);
	KC_PROF(16);
	if (posted)
		ok &= KC_RSA_COOP_PREP_TAKE(m2, ex2, qq, r2q, &m0q);
	else
		ok &= kc_rsa_core_prep(m2, ex2, cw, sk->q, sk->dq, rnd + 8, sk->bits, hl, qq, r2q, &m0q);
	KC_PROF(9);
	/* m1 = cp^ex1 mod p, m2 = cq^ex2 mod q */
	kc_bn_modexp2(m1, ex1, r2p, pp, m0p, m2, ex2, r2q, qq, m0q, 32 * (hl + 2), hl, tmp);
	KC_PROF(10);
	kc_wipe(ex1, sizeof ex1);
	kc_wipe(ex2, sizeof ex2);

	/* h = (m1 - m2) qinv mod p */
	kc_bn_zero(m2 + hl, hl);
	kc_bn_mod_wide(h, m2, r2p, pp, hl, m0p);          /* m2 mod p */
	KC_PROF(17);
	c = kc_bn_sub(m1, h, hl, 1);
	kc_bn_add(m1, pp, hl, c);                          /* m1 - m2 mod p */
	ok &= kc_bn_decode(h, hl, sk->qinv, KC_RSA_MAX_HBYTES);
	kc_bn_montmul(s, m1, h, pp, hl, m0p);              /* (m1-m2) qinv / R */
	kc_bn_montmul(h, s, r2p, pp, hl, m0p);             /* (m1-m2) qinv */
	/* s = m2 + h q (2 hl limbs, fits in nl limbs when correct) */
	kc_bn_mul(s, h, hl, qq, hl);
	kc_bn_add(s, m2, 2 * hl, 1);
	for (i = nl; i < 2 * hl; i++)
		ok &= kc_ctl_eq32(s[i], 0);
	KC_PROF(11);

	/* fault check, one half a prime (q's beside p's where it can), on
	 * the primes this signature used: p q == n, s < n, s^e == c mod p
	 * and mod q */
	ok &= kc_bn_lt(s, nn, nl);
	posted = KC_RSA_COOP_CHECK_POST(s, cw, sk->e, qq, r2q, m0q, hl);
	ok &= kc_rsa_core_check(s, cw, sk->e, pp, r2p, m0p, hl);
	KC_PROF(18);
	if (posted)
		ok &= KC_RSA_COOP_CHECK_TAKE();
	else
		ok &= kc_rsa_core_check(s, cw, sk->e, qq, r2q, m0q, hl);
	KC_PROF(19);
	kc_bn_mul(tmp, pp, hl, qq, hl);
	ok &= kc_bn_eq(tmp, nn, nl);
	for (i = nl; i < 2 * hl; i++)
		ok &= kc_ctl_eq32(tmp[i], 0);
	KC_PROF(12);

	/* release s only when ok */
	msk = 0u - ok;
	for (i = 0; i < nl; i++)
		s[i] &= msk;
	kc_bn_encode(out, k, s, nl);
	*okp = ok;
	*rangep = range;

	kc_wipe(cw, sizeof cw);
	kc_wipe(s, sizeof s);
	kc_wipe(pp, sizeof pp);
	kc_wipe(qq, sizeof qq);
	kc_wipe(r2p, sizeof r2p);
	kc_wipe(r2q, sizeof r2q);
	kc_wipe(m1, sizeof m1);
	kc_wipe(m2, sizeof m2);
	kc_wipe(h, sizeof h);
	kc_wipe(tmp, sizeof tmp);
	kc_wipe(rnd, sizeof rnd);
	kc_wipe(&ok, sizeof ok);
	return PV_OK;
}

KC_API int kc_rsa_private(const kc_rsa_priv *sk, kc_drbg *rng, const uint8_t *in, size_t inlen, uint8_t *out)
{
	uint32_t ok = 0, range = 0, e1, e2;
	int rc = kc_rsa_private_ct(sk, rng, in, inlen, out, &ok, &range);
	if (rc != PV_OK)
		return rc;
	/* ok: 0;  c >= n: PV_ERR_ENC_INVALID;  fault: PV_ERR_GENERAL (masks) */
	e1 = (uint32_t)PV_ERR_ENC_INVALID & (0u - (range ^ 1u));
	e2 = (uint32_t)PV_ERR_GENERAL & (0u - range);
	return (int)((e1 | e2) & (ok - 1u));
}

KC_API int kc_rsa_priv_check(const kc_rsa_priv *sk)
{
	uint32_t nn[KC_RSA_NL], pq[KC_RSA_NL + 2], pp[KC_RSA_HL], qq[KC_RSA_HL];
	uint32_t a[KC_RSA_HL], b[KC_RSA_HL], t[3 * KC_RSA_HL + 1];
	size_t nl, hl, i;
	uint32_t ok = 1;
	int rc, j;

	rc = kc_rsa_core_load_n(nn, sk->n, sk->bits, sk->e);
	if (rc != PV_OK)
		return rc;
	nl = kc_rsa_core_nl(sk->bits);
	hl = kc_rsa_core_hl(sk->bits);
	ok &= kc_bn_decode(pp, hl, sk->p, KC_RSA_MAX_HBYTES);
	ok &= kc_bn_decode(qq, hl, sk->q, KC_RSA_MAX_HBYTES);
	ok &= pp[0] & qq[0] & 1u;
	if (!ok)
		return PV_ERR_KEY_SIZE;
	kc_bn_zero(pq, KC_RSA_NL + 2);
	kc_bn_mul(pq, pp, hl, qq, hl);
	for (i = nl; i < 2 * hl; i++)
		ok &= kc_ctl_eq32(pq[i], 0);
	ok &= kc_bn_eq(pq, nn, nl);
	/* dp, dq against e^-1 mod (p-1), (q-1) */
	for (j = 0; j < 2; j++) {
		uint32_t *x = j ? qq : pp;
		x[0] ^= 1u;
		ok &= kc_bn_inv_small_e(a, sk->e, x, hl, t);
		x[0] ^= 1u;
		ok &= kc_bn_decode(b, hl, j ? sk->dq : sk->dp, KC_RSA_MAX_HBYTES);
		ok &= kc_bn_eq(a, b, hl);
	}
	/* qinv = q^-1 mod p (q < p is not required: reduce q first) */
	kc_bn_zero(pq, 2 * hl);
	for (i = 0; i < hl; i++)
		pq[i] = qq[i];
	kc_bn_reduce(a, pq, hl, pp, hl);
	ok &= kc_bn_modinv_odd(a, pp, hl, t);
	ok &= kc_bn_decode(b, hl, sk->qinv, KC_RSA_MAX_HBYTES);
	ok &= kc_bn_eq(a, b, hl);
	kc_wipe(pq, sizeof pq);
	kc_wipe(pp, sizeof pp);
	kc_wipe(qq, sizeof qq);
	kc_wipe(a, sizeof a);
	kc_wipe(b, sizeof b);
	kc_wipe(t, sizeof t);
	return ok ? PV_OK : PV_ERR_KEY_TYPE;
}
