/*
 * kc_sm2_enc.c - SM2 public-key encryption (GB/T 32918.4-2016,
 * GM/T 0003.4-2012), ciphertext in the C1||C3||C2 order:
 *
 *   k in [1, n-1] from the DRBG, C1 = k*G = 04||x1||y1 (65 bytes)
 *   (x2, y2) = k*P, t = KDF(x2||y2, len(M)), reject t = 0...0
 *   C2 = M xor t, C3 = SM3(x2 || M || y2) (32 bytes)
 *
 *   KDF(Z, klen) = SM3(Z || ct=1) || SM3(Z || ct=2) || ...  (ct: 32-bit BE)
 *
 * The cofactor is 1, so the check "h*P != O" is the point validation of P
 * (and of C1 on decryption).  Decryption recomputes C3 and compares in
 * constant time; the plaintext buffer is cleared by mask when the check
 * fails, so there is a single, data-independent exit decision.
 */
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/kc_ec_int.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

#define KC_SM2_ENC_TRIES 8

/* buf ^= KDF(xy, len); returns the OR of all KDF bytes (0 iff t is all zero). */
KC_PRIV uint32_t kc_sm2_kdf_xor(const uint8_t *xy, uint8_t *buf, size_t len)
{
	kc_hash_ctx base, h;
	uint8_t blk[32], ctr[4];
	uint32_t ct = 1, acc = 0;
	size_t off = 0, i, n;

	kc_hash_init(&base, KC_HASH_SM3);
	kc_hash_update(&base, xy, 64);
	while (off < len) {
		h = base;
		kc_store_be32(ctr, ct);
		kc_hash_update(&h, ctr, 4);
		kc_hash_final(&h, blk);
		n = len - off < 32 ? len - off : 32;
		for (i = 0; i < n; i++) {
			acc |= blk[i];
			buf[off + i] ^= blk[i];
		}
		off += n;
		ct++;
	}
	kc_hash_clear(&base);
	kc_wipe(blk, sizeof blk);
	return acc;
}

/* C3 = SM3(x2 || M || y2) */
KC_PRIV void kc_sm2_c3(const uint8_t *xy, const uint8_t *m, size_t len, uint8_t *c3)
{
	kc_hash_ctx h;

	kc_hash_init(&h, KC_HASH_SM3);
	kc_hash_update(&h, xy, 32);
	kc_hash_update(&h, m, len);
	kc_hash_update(&h, xy + 32, 32);
	kc_hash_final(&h, c3);
}

/* xy = x||y (64 bytes) of k*P */
KC_PRIV void kc_sm2_shared(const kc_ec_params *c, const kc_ec_pt *P, const uint8_t *k, uint8_t *xy)
{
	kc_ec_pt S;
	uint8_t enc[65];

	kc_ecp_mul(c, &S, P, k);
	kc_ecp_encode(c, enc, &S);           /* never the identity: prime order, k != 0 */
	kc_memcpy(xy, enc + 1, 64);
	kc_wipe(&S, sizeof S);
	kc_wipe(enc, sizeof enc);
}

KC_API int kc_sm2_encrypt(const uint8_t *pub, size_t publen,
                          const uint8_t *msg, size_t len,
                          kc_drbg *drbg, uint8_t *out, size_t *outlen)
{
	const kc_ec_params *c = kc_ec_params_get(KC_EC_SM2);
	kc_ec_pt P, C1;
	uint8_t k[32], xy[64];
	uint32_t nz;
	int rc, i;

	if (outlen == NULL || drbg == NULL || (msg == NULL && len > 0))
		return PV_ERR_ARGS;
	if (len == 0)
		return PV_ERR_DATA_LEN;
	rc = kc_ecp_decode(c, &P, pub, publen);
	if (rc != PV_OK)
		return rc;
	if (out == NULL || *outlen < len + KC_SM2_ENC_OVERHEAD || len + KC_SM2_ENC_OVERHEAD < len) {
		*outlen = len + KC_SM2_ENC_OVERHEAD;
		return out == NULL ? PV_OK : PV_ERR_BUF_SMALL;
	}
	rc = PV_ERR_RANDOM;
	for (i = 0; i < KC_SM2_ENC_TRIES; i++) {
		if (kc_drbg_generate(drbg, k, sizeof k, NULL, 0) != PV_OK)
			break;
		if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, k, 0)))
			continue;                     /* rejected candidate: discarded */
		kc_ecp_mulgen(c, &C1, k);
		kc_sm2_shared(c, &P, k, xy);
		kc_memcpy(out + KC_SM2_ENC_OVERHEAD, msg, len);
		nz = kc_sm2_kdf_xor(xy, out + KC_SM2_ENC_OVERHEAD, len);
		if (!kc_ec_public_ctl(kc_ctl_neq32(nz, 0)))
			continue;                     /* t = 0: new k (GB/T 32918.4 A5) */
		kc_ecp_encode(c, out, &C1);
		kc_sm2_c3(xy, msg, len, out + 65);
		*outlen = len + KC_SM2_ENC_OVERHEAD;
		rc = PV_OK;
		break;
	}
	if (rc != PV_OK)
		kc_memset(out, 0, len + KC_SM2_ENC_OVERHEAD);
	kc_wipe(k, sizeof k);
	kc_wipe(xy, sizeof xy);
	kc_wipe(&C1, sizeof C1);
	return rc;
}

KC_API int kc_sm2_decrypt(const uint8_t *priv, const uint8_t *in, size_t len,
                          uint8_t *out, size_t *outlen)
{
	const kc_ec_params *c = kc_ec_params_get(KC_EC_SM2);
	kc_ec_pt C1;
	uint8_t xy[64], c3[32];
	uint32_t ok, mask;
	size_t mlen, i;
	int rc;

	if (priv == NULL || outlen == NULL || in == NULL)
		return PV_ERR_ARGS;
	if (len <= KC_SM2_ENC_OVERHEAD)
		return PV_ERR_ENC_LEN;
	mlen = len - KC_SM2_ENC_OVERHEAD;
	if (out == NULL || *outlen < mlen) {
		*outlen = mlen;
		return out == NULL ? PV_OK : PV_ERR_BUF_SMALL;
	}
	if (!kc_ec_public_ctl(kc_ec_scalar_ok(c, priv, 0)))
		return PV_ERR_ARGS;
	rc = kc_ecp_decode(c, &C1, in, 65);  /* C1 is public */
	if (rc != PV_OK || in[0] != 0x04)
		return PV_ERR_ENC_INVALID;
	kc_sm2_shared(c, &C1, priv, xy);
	kc_memcpy(out, in + KC_SM2_ENC_OVERHEAD, mlen);
	ok = kc_ctl_neq32(kc_sm2_kdf_xor(xy, out, mlen), 0);
	kc_sm2_c3(xy, out, mlen, c3);
	ok &= kc_ct_eq(c3, in + 65, 32);
	/* clear the output unless every check passed, without branching */
	mask = (uint32_t)0 - ok;
	for (i = 0; i < mlen; i++)
		out[i] = (uint8_t)(out[i] & mask);
	kc_wipe(xy, sizeof xy);
	kc_wipe(c3, sizeof c3);
	ok = kc_ec_public_ctl(ok);           /* the one decision that is revealed */
	*outlen = ok ? mlen : 0;
	return ok ? PV_OK : PV_ERR_ENC_INVALID;
}
