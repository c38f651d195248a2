/*
 * ve_cipher.c - ENCRYPT / DECRYPT with the block-cipher mechanisms
 * (ECB, CBC, CBC_PAD, CTR, CFB128, GCM over AES and SM4), one-shot and
 * multi-part (INIT / UPDATE / FINAL with a sealed state).
 *
 * Output sizes are checked before anything is written; a short output span
 * gives PV_ERR_BUF_SMALL with res->out_len = bytes needed, and the state
 * does not advance (the caller still holds the old sealed state).
 *
 * GCM decrypt never writes plaintext before the tag verifies
 * (kc_gcm_open: GHASH over the ciphertext, the tag, then the CTR pass
 * into the output).  In multi-part
 * mode the caller buffers the ciphertext: UPDATE only accepts data (output
 * 0 bytes) and FINAL takes the whole ciphertext || tag.
 */
#include "ve_internal.h"

KC_PRIV uint32_t vc_is_block(uint32_t mode)
{
	return (uint32_t)(mode == VE_MODE_ECB || mode == VE_MODE_CBC || mode == VE_MODE_CBC_PAD);
}

/* Open the key, check the parameters, set up mp.  enc: 1 encrypt. */
KC_PRIV int vc_start(const ve_req *r, ve_mp *mp, uint32_t enc)
{
	ve_key k;
	uint32_t mode = ve_mech_mode(r->d.mech);
	uint32_t bc = ve_mech_bc(r->d.mech);
	int rc;

	kc_memset(mp, 0, sizeof *mp);
	if (bc == 0u || (mode != VE_MODE_ECB && mode != VE_MODE_CBC && mode != VE_MODE_CBC_PAD &&
	                 mode != VE_MODE_CTR && mode != VE_MODE_CFB && mode != VE_MODE_GCM))
		return PV_ERR_MECHANISM;
	/* parameters (public) before the key */
	if (mode == VE_MODE_ECB && r->d.iv.len != 0u)
		return PV_ERR_MECH_PARAM;
	if ((mode == VE_MODE_CBC || mode == VE_MODE_CBC_PAD || mode == VE_MODE_CTR ||
	     mode == VE_MODE_CFB) && r->d.iv.len != 16u)
		return PV_ERR_MECH_PARAM;
	if (mode == VE_MODE_CTR && r->d.ctr_bits > 128u)
		return PV_ERR_MECH_PARAM;
	if (mode == VE_MODE_GCM) {
		if (r->d.iv.len == 0u || r->d.iv.len > PV_IV_MAX)
			return PV_ERR_MECH_PARAM;
		if (r->d.tag_len != 0u && (r->d.tag_len < 4u || r->d.tag_len > 16u))
			return PV_ERR_MECH_PARAM;
	} else if (r->d.aad.len != 0u || r->d.tag_len != 0u) {
		return PV_ERR_MECH_PARAM;
	}
	rc = ve_state_key(r, enc ? PV_USE_ENCRYPT : PV_USE_DECRYPT, mode,
	                  r->d.tag_len == 0u ? 16u : r->d.tag_len, mp, &k);
	if (rc != PV_OK)
		return rc;
	mp->ctr_bits = r->d.ctr_bits;
	if (mode == VE_MODE_GCM) {
		kc_bc b;
		rc = kc_bc_init(&b, bc, k.k, k.len);
		if (rc == PV_OK)
			rc = kc_gcm_init(&mp->u.gcm, &b, ve_ptr(r, r->d.iv), r->d.iv.len);
		if (rc == PV_OK && r->d.aad.len != 0u)
			rc = kc_gcm_aad(&mp->u.gcm, ve_ptr(r, r->d.aad), r->d.aad.len);
		kc_bc_clear(&b);
	} else {
		rc = kc_bc_init(&mp->u.bc, bc, k.k, k.len);
		if (r->d.iv.len == 16u)
			kc_memcpy(mp->iv, ve_ptr(r, r->d.iv), 16);
	}
	kc_wipe(&k, sizeof k);
	if (rc != PV_OK)
		kc_wipe(mp, sizeof *mp);
	return rc;
}

/* Bytes an UPDATE of len bytes outputs. */
KC_PRIV uint64_t vc_update_need(const ve_mp *mp, uint32_t enc, uint64_t len)
{
	uint64_t total, n;

	if (vc_is_block(mp->mode)) {
		total = (uint64_t)mp->buf_len + len;
		n = total - (total & 15u);
		if (mp->mode == VE_MODE_CBC_PAD && !enc && (total & 15u) == 0u && n > 0u)
			n -= 16u;
		return n;
	}
	if (mp->mode == VE_MODE_GCM && !enc)
		return 0u;
	return len;
}

KC_PRIV void vc_blocks(ve_mp *mp, uint32_t enc, const uint8_t *in, uint8_t *out, size_t nb)
{
	if (mp->mode == VE_MODE_ECB) {
		if (enc)
			kc_ecb_encrypt(&mp->u.bc, in, out, nb);
		else
			kc_ecb_decrypt(&mp->u.bc, in, out, nb);
	} else {
		if (enc)
			kc_cbc_encrypt(&mp->u.bc, mp->iv, in, out, nb);
		else
			kc_cbc_decrypt(&mp->u.bc, mp->iv, in, out, nb);
	}
}

/* Process len input bytes; the caller checked room for vc_update_need. */
KC_PRIV int vc_update(ve_mp *mp, uint32_t enc, const uint8_t *in, size_t len, uint8_t *out)
{
	if (vc_is_block(mp->mode)) {
		size_t nout = (size_t)vc_update_need(mp, enc, len);
		size_t o = 0;
		while (nout > 0u) {
			if (mp->buf_len > 0u) {
				size_t take = 16u - mp->buf_len;
				kc_memcpy(mp->buf + mp->buf_len, in, take);
				in += take;
				len -= take;
				vc_blocks(mp, enc, mp->buf, out + o, 1);
				kc_wipe(mp->buf, sizeof mp->buf);
				mp->buf_len = 0;
				o += 16u;
				nout -= 16u;
			} else {
				size_t nb = nout / 16u;
				vc_blocks(mp, enc, in, out + o, nb);
				in += nb * 16u;
				len -= nb * 16u;
				o += nb * 16u;
				nout = 0;
			}
		}
		kc_memcpy(mp->buf + mp->buf_len, in, len);
		mp->buf_len += (uint32_t)len;
		mp->total += (uint64_t)o;
		return PV_OK;
	}
	switch (mp->mode) {
	case VE_MODE_CTR:
		kc_ctr_xcrypt(&mp->u.bc, mp->iv, mp->ctr_bits, mp->ks, &mp->num, in, out, len);
		break;
	case VE_MODE_CFB:
		if (enc)
			kc_cfb128_encrypt(&mp->u.bc, mp->iv, &mp->num, in, out, len);
		else
			kc_cfb128_decrypt(&mp->u.bc, mp->iv, &mp->num, in, out, len);
		break;
	case VE_MODE_GCM:
		if (!enc) {            /* buffered by the caller until FINAL */
			mp->total += (uint64_t)len;
			return PV_OK;
		}
		return kc_gcm_encrypt(&mp->u.gcm, in, out, len);
	default:
		return PV_ERR_MECHANISM;
	}
	mp->total += (uint64_t)len;
	return PV_OK;
}

/* GCM decrypt of ct || tag (in, len) into out: tag first, then plaintext
 * (kc_gcm_open; the ciphertext is hashed in one call, so that the GPU
 * warps split it). */
KC_PRIV int vc_gcm_open(ve_mp *mp, const uint8_t *in, size_t len, uint8_t *out)
{
	size_t ct = len - mp->tag_len;
	int rc = kc_gcm_open(&mp->u.gcm, in, ct, in + ct, mp->tag_len, out);

	return rc == PV_ERR_DATA_LEN ? PV_ERR_ENC_LEN : rc;
}

/* FINAL.  in/len: only GCM decrypt takes input here.  Writes at out with
 * room cap; *olen = bytes written or needed. */
KC_PRIV int vc_final(ve_mp *mp, uint32_t enc, const uint8_t *in, size_t len,
                     uint8_t *out, size_t cap, uint32_t *olen)
{
	uint8_t blk[16];
	size_t pad = 0;
	int rc = PV_OK;

	*olen = 0;
	switch (mp->mode) {
	case VE_MODE_ECB: case VE_MODE_CBC:
		if (mp->buf_len != 0u)
			return enc ? PV_ERR_DATA_LEN : PV_ERR_ENC_LEN;
		return PV_OK;
	case VE_MODE_CBC_PAD:
		*olen = 16;
		if (enc) {
			if (cap < 16u)
				return PV_ERR_BUF_SMALL;
			(void)kc_pad_pkcs7(mp->buf, mp->buf_len);
			vc_blocks(mp, 1, mp->buf, out, 1);
			return PV_OK;
		}
		*olen = 0;
		if (mp->buf_len != 16u)
			return PV_ERR_ENC_LEN;
		kc_memcpy(blk, mp->iv, 16);  /* decrypt a copy: state untouched */
		kc_bc_decrypt(&mp->u.bc, mp->buf, blk);
		{
			uint32_t j;
			for (j = 0; j < 16u; j++)
				blk[j] = (uint8_t)(blk[j] ^ mp->iv[j]);
		}
		rc = kc_unpad_pkcs7_ct(blk, &pad);
		if (rc == PV_OK) {
			*olen = (uint32_t)(16u - pad);
			if (cap < *olen)
				rc = PV_ERR_BUF_SMALL;
			else
				kc_memcpy(out, blk, *olen);
		}
		kc_wipe(blk, sizeof blk);
		return rc;
	case VE_MODE_CTR: case VE_MODE_CFB:
		return PV_OK;
	case VE_MODE_GCM:
		if (enc) {
			*olen = mp->tag_len;
			if (cap < mp->tag_len)
				return PV_ERR_BUF_SMALL;
			kc_gcm_tag(&mp->u.gcm, blk);
			kc_memcpy(out, blk, mp->tag_len);
			kc_wipe(blk, sizeof blk);
			return PV_OK;
		}
		if (len < mp->tag_len)
			return PV_ERR_ENC_LEN;
		*olen = (uint32_t)(len - mp->tag_len);
		if (cap < *olen)
			return PV_ERR_BUF_SMALL;
		return vc_gcm_open(mp, in, len, out);
	default:
		return PV_ERR_MECHANISM;
	}
}

/* One-shot CBC_PAD decrypt: exact output size from the last block first. */
KC_PRIV int vc_cbcpad_need(const ve_mp *mp, const uint8_t *in, size_t len, uint32_t *need)
{
	uint8_t blk[16];
	const uint8_t *prev;
	size_t pad = 0;
	uint32_t j;
	int rc;

	if (len == 0u || (len & 15u) != 0u)
		return PV_ERR_ENC_LEN;
	prev = len == 16u ? mp->iv : in + len - 32u;
	kc_bc_decrypt(&mp->u.bc, in + len - 16u, blk);
	for (j = 0; j < 16u; j++)
		blk[j] = (uint8_t)(blk[j] ^ prev[j]);
	rc = kc_unpad_pkcs7_ct(blk, &pad);
	kc_wipe(blk, sizeof blk);
	*need = (uint32_t)(len - pad);
	return rc;
}

KC_API int ve_op_cipher(ve_req *r)
{
	ve_mp mp;
	uint32_t enc = r->d.op == PV_OP_ENCRYPT ? 1u : 0u;
	const uint8_t *in = ve_ptr(r, r->d.in);
	uint8_t *out = ve_wptr(r, r->d.out);
	size_t len = r->d.in.len;
	uint64_t need;
	uint32_t olen = 0, need32 = 0;
	int rc;

	switch (r->d.phase) {
	case PV_PHASE_ONESHOT:
		rc = vc_start(r, &mp, enc);
		if (rc != PV_OK)
			return rc;
		/* exact output size before anything is written */
		if (mp.mode == VE_MODE_GCM) {
			if (!enc && len < mp.tag_len) {
				rc = PV_ERR_ENC_LEN;
				break;
			}
			need = enc ? (uint64_t)len + mp.tag_len : (uint64_t)len - mp.tag_len;
		} else if (mp.mode == VE_MODE_CBC_PAD && !enc) {
			rc = vc_cbcpad_need(&mp, in, len, &need32);
			if (rc != PV_OK)
				break;
			need = need32;
		} else if (mp.mode == VE_MODE_CBC_PAD) {
			need = ((uint64_t)len / 16u + 1u) * 16u;
		} else {
			if ((mp.mode == VE_MODE_ECB || mp.mode == VE_MODE_CBC) && (len & 15u) != 0u) {
				rc = enc ? PV_ERR_DATA_LEN : PV_ERR_ENC_LEN;
				break;
			}
			need = len;
		}
		if ((rc = ve_out_room(r, (uint32_t)need)) != PV_OK)
			break;
		if (mp.mode == VE_MODE_GCM && !enc) {
			rc = vc_final(&mp, 0, in, len, out, r->d.out.len, &olen);
			r->res->out_len = olen;
			break;
		}
		rc = vc_update(&mp, enc, in, len, out);
		if (rc != PV_OK)
			break;
		{
			uint32_t done = mp.mode == VE_MODE_CBC_PAD && !enc ? (uint32_t)(len - 16u) :
			                (vc_is_block(mp.mode) ? (uint32_t)(len - (len & 15u)) : (uint32_t)len);
			rc = vc_final(&mp, enc, NULL, 0, out + done, r->d.out.len - done, &olen);
			r->res->out_len = done + olen;
		}
		break;
	case PV_PHASE_INIT:
		if (r->d.in.len != 0u)
			return PV_ERR_ARGS;
		rc = vc_start(r, &mp, enc);
		if (rc != PV_OK)
			return rc;
		r->res->out_len = 0;
		rc = ve_state_seal(r, &mp);
		break;
	case PV_PHASE_UPDATE:
		rc = ve_state_open(r, &mp);
		if (rc != PV_OK)
			return rc;
		need = vc_update_need(&mp, enc, len);
		if (need > 0xffffffffu) {
			rc = PV_ERR_DATA_LEN;
			break;
		}
		if ((rc = ve_out_room(r, (uint32_t)need)) != PV_OK)
			break;
		rc = vc_update(&mp, enc, in, len, out);
		if (rc == PV_OK)
			rc = ve_state_seal(r, &mp);
		break;
	case PV_PHASE_FINAL:
		rc = ve_state_open(r, &mp);
		if (rc != PV_OK)
			return rc;
		if (len != 0u && !(mp.mode == VE_MODE_GCM && !enc)) {
			rc = PV_ERR_ARGS;
			break;
		}
		rc = vc_final(&mp, enc, in, len, out, r->d.out.len, &olen);
		r->res->out_len = olen;
		break;
	default:
		return PV_ERR_ARGS;
	}
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	kc_wipe(&mp, sizeof mp);
	return rc;
}
