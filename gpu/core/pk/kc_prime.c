/*
 * kc_prime.c - probable primes: trial division by the 308 odd primes below
 * 2048, Miller-Rabin with random bases from the DRBG (FIPS 186-5 B.3.1),
 * and prime generation for RSA.
 *
 * Generated primes are = 3 (mod 4), so w - 1 = 2 m with m odd and a
 * Miller-Rabin round is one constant-time exponentiation b^m compared with
 * 1 and w - 1: nothing about an accepted prime steers a branch (rejected
 * candidates are discarded, so their early exits leak nothing kept).
 */
#include "kc_rsa.h"
#include "kc_bn.h"
#include "../kc_util.h"
#include "../pv_err.h"

#define KC_PRIME_NSMALL 308

/* i-th odd prime below 2048 */
KC_PRIV uint32_t kc_prime_small(size_t i)
{
	static const uint16_t sp[KC_PRIME_NSMALL] = {
		3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59,
		61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137,
		139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199, 211, 223, 227,
		229, 233, 239, 241, 251, 257, 263, 269, 271, 277, 281, 283, 293, 307, 311, 313,
		317, 331, 337, 347, 349, 353, 359, 367, 373, 379, 383, 389, 397, 401, 409, 419,
		421, 431, 433, 439, 443, 449, 457, 461, 463, 467, 479, 487, 491, 499, 503, 509,
		521, 523, 541, 547, 557, 563, 569, 571, 577, 587, 593, 599, 601, 607, 613, 617,
		619, 631, 641, 643, 647, 653, 659, 661, 673, 677, 683, 691, 701, 709, 719, 727,
		733, 739, 743, 751, 757, 761, 769, 773, 787, 797, 809, 811, 821, 823, 827, 829,
		839, 853, 857, 859, 863, 877, 881, 883, 887, 907, 911, 919, 929, 937, 941, 947,
		953, 967, 971, 977, 983, 991, 997, 1009, 1013, 1019, 1021, 1031, 1033, 1039, 1049, 1051,
		1061, 1063, 1069, 1087, 1091, 1093, 1097, 1103, 1109, 1117, 1123, 1129, 1151, 1153, 1163, 1171,
		1181, 1187, 1193, 1201, 1213, 1217, 1223, 1229, 1231, 1237, 1249, 1259, 1277, 1279, 1283, 1289,
		1291, 1297, 1301, 1303, 1307, 1319, 1321, 1327, 1361, 1367, 1373, 1381, 1399, 1409, 1423, 1427,
		1429, 1433, 1439, 1447, 1451, 1453, 1459, 1471, 1481, 1483, 1487, 1489, 1493, 1499, 1511, 1523,
		1531, 1543, 1549, 1553, 1559, 1567, 1571, 1579, 1583, 1597, 1601, 1607, 1609, 1613, 1619, 1621,
		1627, 1637, 1657, 1663, 1667, 1669, 1693, 1697, 1699, 1709, 1721, 1723, 1733, 1741, 1747, 1753,
		1759, 1777, 1783, 1787, 1789, 1801, 1811, 1823, 1831, 1847, 1861, 1867, 1871, 1873, 1877, 1879,
		1889, 1901, 1907, 1913, 1931, 1933, 1949, 1951, 1973, 1979, 1987, 1993, 1997, 1999, 2003, 2011,
		2017, 2027, 2029, 2039,
	};
	return sp[i];
}

/* x mod sp (sp < 2^11) in constant time: 16-bit steps, Barrett with
 * mu = floor(2^32 / sp), one correction. */
KC_PRIV uint32_t kc_prime_mod_sp(const uint32_t *x, size_t nl, uint32_t sp, uint32_t mu)
{
	uint32_t r = 0;
	size_t i;
	int h;
	for (i = nl; i > 0; i--) {
		for (h = 1; h >= 0; h--) {
			uint32_t t = (r << 16) | ((x[i - 1] >> (16 * h)) & 0xffffu);
			uint32_t q = (uint32_t)(((uint64_t)t * (uint64_t)mu) >> 32);
			r = t - q * sp;
			r -= sp & (0u - (kc_ctl_lt32(r, sp) ^ 1u));
		}
	}
	return r;
}

/* The vault kernel's warp shares the table out (pvc_bn_warp.cuh): when
 * KC_PRIME_COOP_SPLIT(nl, &first, &step) is 1 this thread takes entries
 * first, first + step, ... and KC_PRIME_COOP_ALL(ok) is the AND of every
 * thread's ok. */
#ifndef KC_PRIME_COOP_SPLIT
#define KC_PRIME_COOP_SPLIT(nl, first, step) 0
#define KC_PRIME_COOP_ALL(ok) (ok)
#endif

/* ctl 1 if no small prime divides x (x larger than every small prime);
 * all residues are computed (no early exit). */
KC_PRIV uint32_t kc_prime_trial(const uint32_t *x, size_t nl)
{
	uint32_t ok = 1, first = 0, step = 1, i;
	const int coop = KC_PRIME_COOP_SPLIT(nl, &first, &step);
	for (i = first; i < KC_PRIME_NSMALL; i += step) {
		uint32_t sp = kc_prime_small(i);
		ok &= kc_ctl_neq32(kc_prime_mod_sp(x, nl, sp, 0xffffffffu / sp), 0);
	}
	return coop ? KC_PRIME_COOP_ALL(ok) : ok;
}

KC_API uint32_t kc_prime_mr_rounds(uint32_t pbits)
{
	/* FIPS 186-5 Table B.1 (error <= 2^-100 .. 2^-144 for RSA primes);
	 * 512-bit primes (1024-bit legacy keys) from FIPS 186-4 Table C.3. */
	if (pbits <= 512)
		return 7;
	if (pbits <= 1024)
		return 5;
	return 4;
}

/* Random base b with 2 <= b < 2^(wbits-1) <= w - 2 (public randomness);
 * buf: 4 nl bytes of scratch. */
KC_PRIV int kc_prime_base(kc_drbg *rng, uint32_t *b, size_t nl, uint32_t wbits, uint8_t *buf)
{
	uint32_t top = wbits - 1, i;
	int tries;
	for (tries = 0; tries < 100; tries++) {
		if (kc_drbg_generate(rng, buf, 4 * nl, (const uint8_t *)0, 0) != 0)
			return PV_ERR_RANDOM;
		kc_bn_decode(b, nl, buf, 4 * nl);
		for (i = 0; i < 32u * (uint32_t)nl; i++)
			if (i >= top)
				b[i >> 5] &= ~(1u << (i & 31));
		if (!(kc_bn_bitlen(b, nl) <= 1))
			return PV_OK;
	}
	return PV_ERR_RANDOM;
}

/* kc_prime_mr's workspace for w of nl limbs: m, w - 1, 1, R^2, z, t, then
 * the exponentiation's */
#define KC_PRIME_MR_WS(nl) (6u * (nl) + KC_BN_MODEXP_TMP(nl))

/*
 * Miller-Rabin, `rounds` random bases, w odd > 2^11 of nl limbs, in ws
 * (KC_PRIME_MR_WS(nl) limbs, wiped on return: the caller sizes it, so key
 * generation's primes of up to 2048 bits take half the frame of a 4096-bit
 * test).  a = the number of trailing zero bits of w - 1 (public for the
 * generator, where it is 1).  Returns 1 / 0 / error.
 */
KC_PRIV int kc_prime_mr(kc_drbg *rng, const uint32_t *w, size_t nl, uint32_t rounds, uint32_t *ws)
{
	uint32_t *m = ws, *wm1 = ws + nl, *one = ws + 2 * nl;
	uint32_t *r2 = ws + 3 * nl, *z = ws + 4 * nl, *t = ws + 5 * nl, *tmp = ws + 6 * nl;
	uint32_t m0i, a = 0, wbits, ok = 1, r, j;
	size_t i;
	int rc = 1;

	wbits = kc_bn_bitlen(w, nl);
	for (i = 0; i < nl; i++) {
		m[i] = w[i];
		wm1[i] = w[i];
		one[i] = 0;
	}
	one[0] = 1;
	wm1[0] ^= 1u;                         /* w odd */
	m[0] ^= 1u;
	while ((m[0] & 1u) == 0 && a < 32u * (uint32_t)nl) {
		kc_bn_rshift1(m, nl, 0);
		a++;
	}
	m0i = kc_bn_ninv32(w[0]);
	kc_bn_r2(r2, w, nl, m0i, 1);
	for (r = 0; r < rounds && ok; r++) {
		uint32_t pass;
		rc = kc_prime_base(rng, z, nl, wbits, (uint8_t *)t);   /* t: free here */
		if (rc != PV_OK)
			break;
		rc = 1;
		kc_bn_modexp(z, m, 32 * nl, r2, w, nl, m0i, tmp);
		pass = kc_bn_eq(z, one, nl) | kc_bn_eq(z, wm1, nl);
		for (j = 1; j < a; j++) {
			kc_bn_to_mont(t, z, r2, w, nl, m0i);
			kc_bn_montmul(z, t, t, w, nl, m0i);
			kc_bn_from_mont(t, z, w, nl, m0i);
			for (i = 0; i < nl; i++)
				z[i] = t[i];
			pass |= kc_bn_eq(z, wm1, nl);
		}
		ok &= pass;
	}
	kc_wipe(ws, 6 * nl * sizeof *ws);   /* tmp: wiped by kc_bn_modexp */
	if (rc < 0)
		return rc;
	return ok ? 1 : 0;
}

KC_API int kc_prime_test(kc_drbg *rng, const uint8_t *wb, size_t len, uint32_t rounds)
{
	uint32_t w[KC_BN_MAX_LIMBS], ws[KC_PRIME_MR_WS(KC_BN_MAX_LIMBS)];
	size_t nl, i;
	int rc;

	/* strip leading zeros so nl fits the value */
	while (len > 0 && wb[0] == 0) {
		wb++;
		len--;
	}
	if (len > KC_BN_MAX_BITS / 8)
		return PV_ERR_DATA_LEN;
	nl = len ? (len + 3) / 4 : 1;
	kc_bn_decode(w, nl, wb, len);
	if (nl == 1 && w[0] < 2048u) {
		/* small: exact, by the table */
		for (i = 0; i < KC_PRIME_NSMALL; i++)
			if (kc_prime_small(i) == w[0])
				return 1;
		return w[0] == 2 ? 1 : 0;
	}
	if ((w[0] & 1u) == 0)
		return 0;
	if (!kc_prime_trial(w, nl))
		return 0;
	if (nl == 1 && w[0] < 2048u * 2048u)
		return 1;                     /* no factor below sqrt(w) */
	rc = kc_prime_mr(rng, w, nl, rounds, ws);
	kc_wipe(w, sizeof w);
	return rc;
}

KC_API int kc_prime_gen(kc_drbg *rng, uint32_t *p, uint32_t pbits, uint32_t e, uint32_t *dp)
{
	uint8_t buf[KC_PRIME_MAX_BITS / 8];
	uint32_t t[KC_PRIME_MAX_LIMBS + 1], ws[KC_PRIME_MR_WS(KC_PRIME_MAX_LIMBS)];
	size_t nl = ((size_t)pbits + 31) / 32, i;
	uint32_t rounds = kc_prime_mr_rounds(pbits), tries;
	int rc;

	if (pbits < 16 || pbits > KC_PRIME_MAX_BITS)
		return PV_ERR_ARGS;

	/* FIPS 186-5 B.3.3: at most 5 pbits candidates (x2 for 3 mod 4) */
	for (tries = 0; tries < 10u * pbits; tries++) {
		if (kc_drbg_generate(rng, buf, 4 * nl, (const uint8_t *)0, 0) != 0)
			return PV_ERR_RANDOM;
		kc_bn_decode(p, nl, buf, 4 * nl);
		for (i = pbits; i < 32 * nl; i++)
			p[i >> 5] &= ~(1u << (i & 31));
		/* top two bits (p >= 1.5 2^(pbits-1) > sqrt(2) 2^(pbits-1)), 3 mod 4 */
		p[(pbits - 1) >> 5] |= 1u << ((pbits - 1) & 31);
		p[(pbits - 2) >> 5] |= 1u << ((pbits - 2) & 31);
		p[0] |= 3u;
		if (!kc_prime_trial(p, nl))
			continue;
		/* gcd(e, p - 1) == 1, and dp = e^-1 mod (p - 1) */
		p[0] ^= 1u;
		i = kc_bn_inv_small_e(dp, e, p, nl, t);
		p[0] ^= 1u;
		if (!i)
			continue;
		rc = kc_prime_mr(rng, p, nl, rounds, ws);
		if (rc < 0)
			break;
		if (rc == 1) {
			kc_wipe(buf, sizeof buf);
			kc_wipe(t, sizeof t);
			return PV_OK;
		}
	}
	kc_wipe(buf, sizeof buf);
	kc_wipe(t, sizeof t);
	kc_bn_zero(p, nl);
	return PV_ERR_RANDOM;
}
