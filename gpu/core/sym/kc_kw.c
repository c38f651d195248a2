/*
 * kc_kw.c - AES key wrap (RFC 3394) and key wrap with padding (RFC 5649).
 * Integrity checks on unwrap are constant time; a failed unwrap wipes out.
 */
#include "gpu/core/sym/kc_sym_int.h"

/* Zero p[0..n) unless ok, without a branch on ok (the verdict is secret
 * until the caller looks at the return value). */
KC_PRIV void kc_kw_cwipe(uint8_t *p, size_t n, uint32_t ok)
{
	uint8_t m = (uint8_t)(0u - ok);
	size_t i;
	for (i = 0; i < n; i++)
		p[i] &= m;
}

/* W: a[8] is the initial value, r the n >= 2 semiblocks, in place. */
KC_PRIV void kc_kw_w(const kc_bc *bc, uint8_t a[8], uint8_t *r, size_t n)
{
	uint8_t b[16];
	uint64_t t;
	size_t i, j;

	for (j = 0; j < 6; j++) {
		for (i = 0; i < n; i++) {
			kc_memcpy(b, a, 8);
			kc_memcpy(b + 8, r + 8 * i, 8);
			kc_bc_encrypt_n(bc, b, b, 1);
			t = (uint64_t)(n * j + i + 1);
			kc_store_be64(a, kc_load_be64(b) ^ t);
			kc_memcpy(r + 8 * i, b + 8, 8);
		}
	}
	kc_wipe(b, sizeof b);
}

/* W^-1: a[8] is the first semiblock on entry, the recovered IV on exit. */
KC_PRIV void kc_kw_winv(const kc_bc *bc, uint8_t a[8], uint8_t *r, size_t n)
{
	uint8_t b[16];
	uint64_t t;
	size_t i, j;

	for (j = 6; j > 0; j--) {
		for (i = n; i > 0; i--) {
			t = (uint64_t)(n * (j - 1) + i);
			kc_store_be64(b, kc_load_be64(a) ^ t);
			kc_memcpy(b + 8, r + 8 * (i - 1), 8);
			kc_bc_decrypt_n(bc, b, b, 1);
			kc_memcpy(a, b, 8);
			kc_memcpy(r + 8 * (i - 1), b + 8, 8);
		}
	}
	kc_wipe(b, sizeof b);
}

KC_API int kc_kw_wrap(const kc_bc *bc, const uint8_t *in, size_t inlen, uint8_t *out)
{
	uint8_t a[8];

	if (!KC_BC_IS_AES(bc))
		return PV_ERR_KEY_TYPE;
	if (inlen < 16 || inlen % 8 != 0)
		return PV_ERR_DATA_LEN;
	kc_memset(a, 0xA6, 8);
	kc_memmove(out + 8, in, inlen);
	kc_kw_w(bc, a, out + 8, inlen / 8);
	kc_memcpy(out, a, 8);
	return PV_OK;
}

KC_API int kc_kw_unwrap(const kc_bc *bc, const uint8_t *in, size_t inlen, uint8_t *out)
{
	uint8_t a[8], iv[8];
	uint32_t ok;

	if (!KC_BC_IS_AES(bc))
		return PV_ERR_KEY_TYPE;
	if (inlen < 24 || inlen % 8 != 0)
		return PV_ERR_ENC_LEN;
	kc_memcpy(a, in, 8);
	kc_memmove(out, in + 8, inlen - 8);
	kc_kw_winv(bc, a, out, inlen / 8 - 1);
	kc_memset(iv, 0xA6, 8);
	ok = kc_ct_eq(a, iv, 8);
	kc_wipe(a, sizeof a);
	kc_kw_cwipe(out, inlen - 8, ok);
	return (int)kc_ctl_mux32(ok, (uint32_t)PV_OK, (uint32_t)PV_ERR_WRAPPED);
}

KC_API int kc_kwp_wrap(const kc_bc *bc, const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen)
{
	uint8_t a[8];
	size_t plen;

	if (!KC_BC_IS_AES(bc))
		return PV_ERR_KEY_TYPE;
	if (inlen == 0 || (uint64_t)inlen > 0xFFFFFFFFull)
		return PV_ERR_DATA_LEN;
	plen = (inlen + 7) & ~(size_t)7;
	a[0] = 0xA6; a[1] = 0x59; a[2] = 0x59; a[3] = 0xA6;
	kc_store_be32(a + 4, (uint32_t)inlen);
	kc_memmove(out + 8, in, inlen);
	kc_memset(out + 8 + inlen, 0, plen - inlen);
	if (plen == 8) {
		kc_memcpy(out, a, 8);
		kc_bc_encrypt_n(bc, out, out, 1);
	} else {
		kc_kw_w(bc, a, out + 8, plen / 8);
		kc_memcpy(out, a, 8);
	}
	*outlen = plen + 8;
	return PV_OK;
}

KC_API int kc_kwp_unwrap(const kc_bc *bc, const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen)
{
	uint8_t a[8], b[16];
	uint32_t ok, mli, i, plen;

	*outlen = 0;
	if (!KC_BC_IS_AES(bc))
		return PV_ERR_KEY_TYPE;
	if (inlen < 16 || inlen % 8 != 0 || (uint64_t)inlen > 0xFFFFFFFFull)
		return PV_ERR_ENC_LEN;
	plen = (uint32_t)(inlen - 8);
	if (inlen == 16) {
		kc_bc_decrypt_n(bc, in, b, 1);
		kc_memcpy(a, b, 8);
		kc_memcpy(out, b + 8, 8);
		kc_wipe(b, sizeof b);
	} else {
		kc_memcpy(a, in, 8);
		kc_memmove(out, in + 8, plen);
		kc_kw_winv(bc, a, out, plen / 8);
	}
	/* ICV, 8 * (n - 1) < MLI <= 8 * n, zero padding: all in constant time */
	ok = kc_ctl_eq32(kc_load_be32(a), 0xA65959A6u);
	mli = kc_load_be32(a + 4);
	ok &= kc_ctl_lt32(plen - 8, mli) & kc_ctl_not(kc_ctl_lt32(plen, mli));
	for (i = plen - 8; i < plen; i++) {
		uint32_t in_pad = kc_ctl_not(kc_ctl_lt32(i, mli));
		ok &= kc_ctl_not(in_pad) | kc_ctl_eq32(out[i], 0);
	}
	kc_wipe(a, sizeof a);
	kc_kw_cwipe(out, plen, ok);
	*outlen = (size_t)kc_ctl_mux32(ok, mli, 0);
	return (int)kc_ctl_mux32(ok, (uint32_t)PV_OK, (uint32_t)PV_ERR_WRAPPED);
}
