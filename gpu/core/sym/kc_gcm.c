/*
 * kc_gcm.c - GCM (SP 800-38D) over AES or SM4, streaming.
 */
#include "gpu/core/sym/kc_sym_int.h"

#define KC_GCM_MAX_DATA ((((uint64_t)1) << 36) - 32)   /* 2^39 - 256 bits */

KC_API void kc_gcm_hkey(const kc_bc *bc, uint8_t h[16])
{
	kc_memset(h, 0, 16);
	kc_bc_encrypt_n(bc, h, h, 1);                    /* H = E(0^128) */
}

KC_API int kc_gcm_init(kc_gcm *g, const kc_bc *bc, const uint8_t *iv, size_t ivlen)
{
	uint8_t h[16];
	int rc;

	if (!KC_BC_IS_AES(bc) && bc->alg != KC_BC_SM4)
		return PV_ERR_ARGS;
	kc_gcm_hkey(bc, h);
	rc = kc_gcm_init_h(g, bc, h, iv, ivlen);
	kc_wipe(h, sizeof h);
	return rc;
}

KC_API int kc_gcm_init_h(kc_gcm *g, const kc_bc *bc, const uint8_t h[16], const uint8_t *iv,
                         size_t ivlen)
{
	uint8_t lenblk[16];

	if (!KC_BC_IS_AES(bc) && bc->alg != KC_BC_SM4)
		return PV_ERR_ARGS;
	if (ivlen == 0)
		return PV_ERR_MECH_PARAM;
	kc_memset(g, 0, sizeof *g);
	kc_memcpy(&g->bc, bc, sizeof *bc);
	kc_memcpy(g->H, h, 16);
	if (ivlen == 12) {
		kc_memcpy(g->J0, iv, 12);
		g->J0[15] = 1;
	} else {
		kc_ghash(g->J0, g->H, iv, ivlen);
		kc_memset(lenblk, 0, 16);
		kc_store_be64(lenblk + 8, (uint64_t)ivlen * 8u);
		kc_ghash(g->J0, g->H, lenblk, 16);
	}
	kc_memcpy(g->ctr, g->J0, 16);
	/* inc32 */
	kc_store_be32(g->ctr + 12, kc_load_be32(g->ctr + 12) + 1u);
	return PV_OK;
}

/* Feed bytes to GHASH through the partial-block buffer. */
KC_PRIV void kc_gcm_absorb(kc_gcm *g, const uint8_t *p, size_t len)
{
	size_t n;

	if (g->buf_len > 0) {
		while (g->buf_len < 16 && len > 0) {
			g->buf[g->buf_len++] = *p++;
			len--;
		}
		if (g->buf_len < 16)
			return;
		kc_ghash(g->Y, g->H, g->buf, 16);
		g->buf_len = 0;
	}
	n = len & ~(size_t)15;
	if (n > 0)
		kc_ghash(g->Y, g->H, p, n);
	p += n;
	len -= n;
	while (len > 0) {
		g->buf[g->buf_len++] = *p++;
		len--;
	}
}

/* Close the AAD (state 0) or data (state 1) section: pad to a block. */
KC_PRIV void kc_gcm_flush(kc_gcm *g)
{
	if (g->buf_len > 0)
		kc_ghash(g->Y, g->H, g->buf, g->buf_len);
	kc_wipe(g->buf, sizeof g->buf);
	g->buf_len = 0;
}

KC_API int kc_gcm_aad(kc_gcm *g, const uint8_t *aad, size_t len)
{
	if (g->state != 0)
		return PV_ERR_STATE;
	if ((uint64_t)len > ((((uint64_t)1) << 61) - 1) - g->aad_len)
		return PV_ERR_DATA_LEN;
	g->aad_len += len;
	kc_gcm_absorb(g, aad, len);
	return PV_OK;
}

KC_PRIV int kc_gcm_begin_data(kc_gcm *g, size_t len)
{
	if (g->state == 2)
		return PV_ERR_STATE;
	if ((uint64_t)len > KC_GCM_MAX_DATA - g->ct_len)
		return PV_ERR_DATA_LEN;
	if (g->state == 0) {
		kc_gcm_flush(g);
		g->state = 1;
	}
	g->ct_len += len;
	return PV_OK;
}

KC_API int kc_gcm_encrypt(kc_gcm *g, const uint8_t *in, uint8_t *out, size_t len)
{
	int rc = kc_gcm_begin_data(g, len);
	if (rc != PV_OK)
		return rc;
	kc_ctr_xcrypt(&g->bc, g->ctr, 32, g->ks, &g->ks_used, in, out, len);
	kc_gcm_absorb(g, out, len);
	return PV_OK;
}

KC_API int kc_gcm_decrypt(kc_gcm *g, const uint8_t *in, uint8_t *out, size_t len)
{
	int rc = kc_gcm_begin_data(g, len);
	if (rc != PV_OK)
		return rc;
	kc_gcm_absorb(g, in, len);
	kc_ctr_xcrypt(&g->bc, g->ctr, 32, g->ks, &g->ks_used, in, out, len);
	return PV_OK;
}

KC_API int kc_gcm_hash_ct(kc_gcm *g, const uint8_t *in, size_t len)
{
	int rc = kc_gcm_begin_data(g, len);
	if (rc != PV_OK)
		return rc;
	kc_gcm_absorb(g, in, len);
	return PV_OK;
}

/* The GHASH's last block (the lengths) into Y, once; then tag = ek ^ Y,
 * ek = E(J0). */
KC_PRIV void kc_gcm_tag_ek(kc_gcm *g, const uint8_t ek[16], uint8_t tag[16])
{
	uint8_t lenblk[16];
	int i;

	if (g->state != 2) {
		kc_gcm_flush(g);
		kc_store_be64(lenblk, g->aad_len * 8u);
		kc_store_be64(lenblk + 8, g->ct_len * 8u);
		kc_ghash(g->Y, g->H, lenblk, 16);
		g->state = 2;
	}
	for (i = 0; i < 16; i++)
		tag[i] = ek[i] ^ g->Y[i];
}

KC_PRIV int kc_gcm_check_tag_ek(kc_gcm *g, const uint8_t ek[16], const uint8_t *tag, size_t taglen)
{
	uint8_t t[16];
	uint32_t ok;

	if (taglen < 4 || taglen > 16)
		return PV_ERR_MECH_PARAM;
	kc_gcm_tag_ek(g, ek, t);
	ok = kc_ct_eq(t, tag, taglen);
	kc_wipe(t, sizeof t);
	return (int)kc_ctl_mux32(ok, (uint32_t)PV_OK, (uint32_t)PV_ERR_ENC_INVALID);
}

/* One-shot: E(J0) for the tag and the keystream of the last (or only)
 * counter block come from one two-block encryption (a cipher pass
 * encrypts two blocks either way), the blocks before it from the CTR
 * pass - one block encryption fewer for a key blob of a partial last
 * block (an EC key's 97 bytes), or of a single block. */
KC_API int kc_gcm_open(kc_gcm *g, const uint8_t *in, size_t len, const uint8_t *tag,
                       size_t taglen, uint8_t *out)
{
	uint8_t b[32];
	size_t nb = (len + 15u) / 16u, head, i;
	int rc = kc_gcm_hash_ct(g, in, len);

	if (rc != PV_OK)
		return rc;
	if (nb == 0 || g->ks_used != 0) {
		rc = kc_gcm_check_tag(g, tag, taglen);
		if (rc == PV_OK)      /* accept / reject is public */
			kc_ctr_xcrypt(&g->bc, g->ctr, 32, g->ks, &g->ks_used, in, out, len);
		return rc;
	}
	kc_memcpy(b, g->J0, 16);
	kc_memcpy(b + 16, g->ctr, 16);
	kc_store_be32(b + 28, kc_load_be32(g->ctr + 12) + (uint32_t)(nb - 1u));   /* inc32 */
	kc_bc_encrypt_n(&g->bc, b, b, 2);
	rc = kc_gcm_check_tag_ek(g, b, tag, taglen);
	if (rc == PV_OK) {
		head = 16u * (nb - 1u);
		kc_ctr_xcrypt(&g->bc, g->ctr, 32, g->ks, &g->ks_used, in, out, head);
		for (i = head; i < len; i++)
			out[i] = in[i] ^ b[16 + i - head];
	}
	kc_wipe(b, sizeof b);
	return rc;
}

/* Bytes [off, off + plen) of the GHASH stream are p: copy those within
 * the stream's bytes [lo, hi) into x (x holds stream byte lo first). */
KC_PRIV void kc_gcm_pw_seg(uint8_t *x, size_t lo, size_t hi, size_t off, const uint8_t *p,
                           size_t plen)
{
	const size_t a = off > lo ? off : lo, b = off + plen < hi ? off + plen : hi;

	if (a < b)
		kc_memcpy(x + (a - lo), p + (a - off), b - a);
}

/* x = blocks s .. s + m - 1 of the GHASH stream of n blocks,
 * AAD || 0* || C || 0* || [len(A)]64 || [len(C)]64 (C from block na). */
KC_PRIV void kc_gcm_pw_chunk(uint8_t *x, size_t s, size_t m, size_t n, const uint8_t *aad,
                             size_t alen, size_t na, const uint8_t *ct, size_t len)
{
	const size_t lo = 16u * s, hi = 16u * (s + m);

	kc_memset(x, 0, 16u * m);
	kc_gcm_pw_seg(x, lo, hi, 0, aad, alen);
	kc_gcm_pw_seg(x, lo, hi, 16u * na, ct, len);
	if (s + m == n) {
		kc_store_be64(x + 16u * (m - 1u), (uint64_t)alen * 8u);
		kc_store_be64(x + 16u * (m - 1u) + 8u, (uint64_t)len * 8u);
	}
}

/* One-shot open with the powers of H given.  The GHASH runs in passes of
 * up to KC_GHASH_POW_N blocks (kc_ghash_pw; on the warp one product a
 * lane and one reduction a pass - an RSA-2048 key blob's 76 blocks in
 * three passes, where the streaming kc_ghash's lanes each computed ~27
 * products); a pass of whole blocks of C reads them in place, the others
 * are assembled in x.  Then one CTR pass from J0 over the 16 bytes
 * before C and C[0, plen) (to whole blocks: up to 15 bytes past plen, of
 * C or of the 16 after it) into w gives E(J0) for the tag (w's first
 * block XOR those 16 bytes) and the plaintext together: J0, J0 + 1, ...
 * are consecutive counter blocks, so on the warp that is one cipher pass
 * for up to 64 blocks (a separate E(J0) cost RSA-2048's blob a third
 * pass, and a partial last block a serial one), read straight from the
 * caller's buffer (a copy of C into w would cost an RSA-2048 blob ~10 us
 * a lane).  A wrong tag wipes w. */
KC_API int kc_gcm_open_pw(const kc_bc *bc, const uint8_t pow[KC_GHASH_POW_N][16],
                          const uint8_t iv[12], const uint8_t *aad, size_t alen,
                          const uint8_t *ct, size_t len, const uint8_t tag[16], size_t plen,
                          uint8_t *w)
{
	uint8_t x[16 * KC_GHASH_POW_N], y[16], ctr[16], ks[16];
	const size_t na = (alen + 15u) / 16u, nc = (len + 15u) / 16u, n = na + nc + 1u;
	const size_t used = 16u * (n < KC_GHASH_POW_N ? n : KC_GHASH_POW_N);
	const size_t wl = KC_GCM_PW_W(plen);
	size_t s, m, i;
	uint32_t ks_used = 0, ok;

	if (!KC_BC_IS_AES(bc) && bc->alg != KC_BC_SM4)
		return PV_ERR_ARGS;
	if ((uint64_t)len > KC_GCM_MAX_DATA)
		return PV_ERR_DATA_LEN;
	if (plen > len)
		return PV_ERR_ARGS;
	kc_memset(y, 0, 16);
	for (s = 0; s < n; s += m) {
		m = n - s < KC_GHASH_POW_N ? n - s : KC_GHASH_POW_N;
		if (s >= na && s + m <= na + len / 16u) {
			kc_ghash_pw(y, pow, ct + 16u * (s - na), m);
		} else {
			kc_gcm_pw_chunk(x, s, m, n, aad, alen, na, ct, len);
			kc_ghash_pw(y, pow, x, m);
		}
	}
	KC_PROF(20);
	kc_memcpy(ctr, iv, 12);
	kc_store_be32(ctr + 12, 1u);                       /* J0 */
	/* w = (E(J0) ^ ct[-16, 0)) || P || junk, straight from the caller's
	 * bytes (no copy of C into w) */
	kc_ctr_xcrypt(bc, ctr, 32, ks, &ks_used, ct - 16, w, wl);
	KC_PROF(21);
	for (i = 0; i < 16; i++)
		y[i] ^= w[i] ^ ct[(ptrdiff_t)i - 16];
	ok = kc_ct_eq(y, tag, 16);
	kc_wipe(w, 16);
	kc_wipe(w + 16 + plen, wl - 16u - plen);
	if (!ok)              /* accept / reject is public */
		kc_wipe(w + 16, plen);
	kc_wipe(x, used);
	kc_wipe(y, sizeof y);
	kc_wipe(ks, sizeof ks);
	kc_wipe(ctr, sizeof ctr);
	return (int)kc_ctl_mux32(ok, (uint32_t)PV_OK, (uint32_t)PV_ERR_ENC_INVALID);
}

KC_API void kc_gcm_tag(kc_gcm *g, uint8_t tag[16])
{
	uint8_t ek[16];

	kc_bc_encrypt_n(&g->bc, g->J0, ek, 1);
	kc_gcm_tag_ek(g, ek, tag);
	kc_wipe(ek, sizeof ek);
}

KC_API int kc_gcm_check_tag(kc_gcm *g, const uint8_t *tag, size_t taglen)
{
	uint8_t ek[16];
	int rc;

	kc_bc_encrypt_n(&g->bc, g->J0, ek, 1);
	rc = kc_gcm_check_tag_ek(g, ek, tag, taglen);
	kc_wipe(ek, sizeof ek);
	return rc;
}

KC_API void kc_gcm_clear(kc_gcm *g)
{
	kc_wipe(g, sizeof *g);
}
