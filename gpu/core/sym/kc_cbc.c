/*
 * kc_cbc.c - CBC (chained over calls through iv), CBC with PKCS#7 padding,
 * and the constant-time PKCS#7 checks.
 */
#include "gpu/core/sym/kc_sym_int.h"

KC_API void kc_cbc_encrypt(const kc_bc *bc, uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t nblocks)
{
	uint8_t x[16];
	size_t b;
	int i;

	kc_memcpy(x, iv, 16);
	for (b = 0; b < nblocks; b++) {
		for (i = 0; i < 16; i++)
			x[i] ^= in[16 * b + (size_t)i];
		kc_bc_encrypt_n(bc, x, x, 1);
		kc_memcpy(out + 16 * b, x, 16);
	}
	kc_memcpy(iv, x, 16);
	kc_wipe(x, sizeof x);
}

KC_API void kc_cbc_decrypt(const kc_bc *bc, uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t nblocks)
{
	uint8_t c[16 * KC_BC_MAX_PAR], d[16 * KC_BC_MAX_PAR], prev[16];
	size_t n, i;

	kc_memcpy(prev, iv, 16);
	while (nblocks > 0) {
		n = nblocks < KC_BC_MAX_PAR ? nblocks : KC_BC_MAX_PAR;
		kc_memcpy(c, in, 16 * n);
		kc_bc_decrypt_n(bc, c, d, n);
		for (i = 0; i < 16; i++)
			out[i] = d[i] ^ prev[i];
		for (i = 16; i < 16 * n; i++)
			out[i] = d[i] ^ c[i - 16];
		kc_memcpy(prev, c + 16 * (n - 1), 16);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
	kc_memcpy(iv, prev, 16);
	kc_wipe(d, sizeof d);
	kc_wipe(c, sizeof c);
}

KC_API size_t kc_pad_pkcs7(uint8_t *block_tail, size_t tail_len)
{
	size_t i;
	uint8_t p;

	if (tail_len > 15)
		return 0;
	p = (uint8_t)(16 - tail_len);
	for (i = tail_len; i < 16; i++)
		block_tail[i] = p;
	return 16;
}

KC_API int kc_unpad_pkcs7_ct(const uint8_t last[16], size_t *pad_len)
{
	uint32_t p = last[15];
	uint32_t good, i;

	good = kc_ctl_lt32(0, p) & kc_ctl_lt32(p, 17);
	for (i = 0; i < 15; i++) {
		/* byte i is padding iff i >= 16 - p */
		uint32_t in_pad = kc_ctl_not(kc_ctl_lt32(i + p, 16));
		good &= kc_ctl_not(in_pad) | kc_ctl_eq32(last[i], p);
	}
	*pad_len = (size_t)kc_ctl_mux32(good, p, 0);
	return (int)kc_ctl_mux32(good, (uint32_t)PV_OK, (uint32_t)PV_ERR_ENC_INVALID);
}

KC_API int kc_cbc_pad_encrypt(const kc_bc *bc, uint8_t iv[16], const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen)
{
	uint8_t last[16];
	size_t full = inlen / 16, tail = inlen % 16;

	kc_cbc_encrypt(bc, iv, in, out, full);
	kc_memcpy(last, in + 16 * full, tail);
	kc_pad_pkcs7(last, tail);
	kc_cbc_encrypt(bc, iv, last, out + 16 * full, 1);
	*outlen = 16 * (full + 1);
	kc_wipe(last, sizeof last);
	return PV_OK;
}

KC_API int kc_cbc_pad_decrypt(const kc_bc *bc, uint8_t iv[16], const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen)
{
	size_t pad = 0, i;
	uint32_t ok;
	uint8_t m;
	int rc;

	*outlen = 0;
	if (inlen == 0 || inlen % 16 != 0)
		return PV_ERR_ENC_LEN;
	kc_cbc_decrypt(bc, iv, in, out, inlen / 16);
	rc = kc_unpad_pkcs7_ct(out + inlen - 16, &pad);
	/* no branch on the padding verdict: wipe with a mask */
	ok = kc_ctl_eq32((uint32_t)rc, (uint32_t)PV_OK);
	m = (uint8_t)(0u - ok);
	for (i = 0; i < inlen; i++)
		out[i] &= m;
	*outlen = (size_t)kc_ctl_mux32(ok, (uint32_t)(inlen - pad), 0);
	return rc;
}
