/*
 * ve_mac.c - SIGN / VERIFY with HMAC (every digest) and CMAC (AES, SM4),
 * one-shot and multi-part; DIGEST with a plain, checkable state.
 *
 * tag_len: 0 = the full MAC; otherwise the MAC is truncated to tag_len
 * bytes (PKCS#11 *_HMAC_GENERAL / CMAC_GENERAL).  VERIFY takes the MAC in
 * in2 (ONESHOT and FINAL); its length must equal the expected length
 * (PV_ERR_SIG_LEN), and the comparison is constant time
 * (PV_ERR_SIG_INVALID).
 *
 * Digest state (DIGEST INIT/UPDATE output, UPDATE/FINAL input) is not
 * secret and not sealed, so the token can implement C_GetOperationState:
 *   "PVD" | version 1 | mech (be32) | len (be32) | 0 (be32) | kc_hash_ctx
 * A state read back is checked with kc_hash_check before use.
 */
#include "ve_internal.h"

#define VE_DIGEST_STATE_LEN (16u + (uint32_t)sizeof(kc_hash_ctx))

KC_PRIV int vm_start(const ve_req *r, ve_mp *mp, uint32_t *maclen)
{
	ve_key k;
	uint32_t mode = ve_mech_mode(r->d.mech);
	uint32_t full;
	int rc;

	kc_memset(mp, 0, sizeof *mp);
	if (mode == VE_MODE_HMAC)
		full = (uint32_t)kc_hash_len(ve_mech_hash(r->d.mech));
	else if (mode == VE_MODE_CMAC)
		full = 16u;
	else
		return PV_ERR_MECHANISM;
	if (r->d.tag_len > full || r->d.iv.len != 0u || r->d.aad.len != 0u)
		return PV_ERR_MECH_PARAM;
	rc = ve_state_key(r, r->d.op == PV_OP_SIGN ? PV_USE_SIGN : PV_USE_VERIFY, mode,
	                  r->d.tag_len == 0u ? full : r->d.tag_len, mp, &k);
	if (rc != PV_OK)
		return rc;
	if (mode == VE_MODE_HMAC) {
		rc = kc_hmac_init(&mp->u.hmac, ve_mech_hash(r->d.mech), k.k, k.len);
	} else {
		kc_bc b;
		rc = kc_bc_init(&b, ve_mech_bc(r->d.mech), k.k, k.len);
		if (rc == PV_OK)
			rc = kc_cmac_init(&mp->u.cmac, &b);
		kc_bc_clear(&b);
	}
	kc_wipe(&k, sizeof k);
	if (rc != PV_OK)
		kc_wipe(mp, sizeof *mp);
	*maclen = mp->tag_len;
	return rc;
}

KC_PRIV void vm_update(ve_mp *mp, const uint8_t *in, size_t len)
{
	if (mp->mode == VE_MODE_HMAC)
		kc_hmac_update(&mp->u.hmac, in, len);
	else
		kc_cmac_update(&mp->u.cmac, in, len);
}

/* Finish: SIGN writes the MAC to out, VERIFY compares with in2. */
KC_PRIV int vm_final(const ve_req *r, ve_mp *mp)
{
	uint8_t mac[KC_HASH_MAX_LEN];
	int rc;

	if (r->d.op == PV_OP_VERIFY && r->d.in2.len != mp->tag_len) {
		kc_wipe(mp, sizeof *mp);
		return PV_ERR_SIG_LEN;
	}
	if (r->d.op == PV_OP_SIGN && (rc = ve_out_room(r, mp->tag_len)) != PV_OK)
		return rc;
	if (mp->mode == VE_MODE_HMAC)
		kc_hmac_final(&mp->u.hmac, mac);
	else
		kc_cmac_final(&mp->u.cmac, mac);
	if (r->d.op == PV_OP_SIGN) {
		kc_memcpy(ve_wptr(r, r->d.out), mac, mp->tag_len);
		rc = PV_OK;
	} else {
		r->res->out_len = 0;
		rc = kc_ct_eq(mac, ve_ptr(r, r->d.in2), mp->tag_len) ? PV_OK : PV_ERR_SIG_INVALID;
	}
	kc_wipe(mac, sizeof mac);
	return rc;
}

KC_API int ve_op_mac(ve_req *r)
{
	ve_mp mp;
	uint32_t maclen = 0;
	int rc;

	switch (r->d.phase) {
	case PV_PHASE_ONESHOT:
		rc = vm_start(r, &mp, &maclen);
		if (rc != PV_OK)
			return rc;
		vm_update(&mp, ve_ptr(r, r->d.in), r->d.in.len);
		rc = vm_final(r, &mp);
		break;
	case PV_PHASE_INIT:
		if (r->d.in.len != 0u)
			return PV_ERR_ARGS;
		rc = vm_start(r, &mp, &maclen);
		if (rc == PV_OK)
			rc = ve_state_seal(r, &mp);
		break;
	case PV_PHASE_UPDATE:
		rc = ve_state_open(r, &mp);
		if (rc != PV_OK)
			return rc;
		vm_update(&mp, ve_ptr(r, r->d.in), r->d.in.len);
		rc = ve_state_seal(r, &mp);
		break;
	case PV_PHASE_FINAL:
		rc = ve_state_open(r, &mp);
		if (rc != PV_OK)
			return rc;
		if (r->d.in.len != 0u)
			vm_update(&mp, ve_ptr(r, r->d.in), r->d.in.len);
		rc = vm_final(r, &mp);
		break;
	default:
		return PV_ERR_ARGS;
	}
	kc_wipe(&mp, sizeof mp);
	return rc;
}

/* ---- DIGEST ------------------------------------------------------------ */

KC_PRIV void vd_hdr(uint8_t h[16], uint32_t mech)
{
	h[0] = (uint8_t)'P';
	h[1] = (uint8_t)'V';
	h[2] = (uint8_t)'D';
	h[3] = 1u;
	kc_store_be32(h + 4, mech);
	kc_store_be32(h + 8, VE_DIGEST_STATE_LEN);
	kc_store_be32(h + 12, 0u);
}

KC_PRIV int vd_save(const ve_req *r, const kc_hash_ctx *c)
{
	uint8_t *o;

	r->res->state_len = VE_DIGEST_STATE_LEN;
	if (r->d.state_out.len < VE_DIGEST_STATE_LEN)
		return PV_ERR_BUF_SMALL;
	o = ve_wptr(r, r->d.state_out);
	vd_hdr(o, r->d.mech);
	kc_memcpy(o + 16, c, sizeof *c);
	return PV_OK;
}

KC_PRIV int vd_load(const ve_req *r, kc_hash_ctx *c)
{
	uint8_t h[16];
	const uint8_t *s = ve_ptr(r, r->d.state);

	if (r->d.state.len != VE_DIGEST_STATE_LEN)
		return PV_ERR_STATE;
	vd_hdr(h, r->d.mech);
	if (!kc_ct_eq(h, s, 16))
		return PV_ERR_STATE;
	kc_memcpy(c, s + 16, sizeof *c);
	if (c->alg != ve_mech_hash(r->d.mech) || kc_hash_check(c) != PV_OK) {
		kc_hash_clear(c);
		return PV_ERR_STATE;
	}
	return PV_OK;
}

KC_API int ve_op_digest(ve_req *r)
{
	kc_hash_ctx c;
	uint32_t alg = ve_mech_hash(r->d.mech);
	uint32_t dlen;
	int rc;

	if (ve_mech_mode(r->d.mech) != VE_MODE_DIGEST || alg == 0u)
		return PV_ERR_MECHANISM;
	dlen = (uint32_t)kc_hash_len(alg);
	switch (r->d.phase) {
	case PV_PHASE_ONESHOT:
		if ((rc = ve_out_room(r, dlen)) != PV_OK)
			return rc;
		rc = kc_hash(alg, ve_ptr(r, r->d.in), r->d.in.len, ve_wptr(r, r->d.out));
		break;
	case PV_PHASE_INIT:
		if ((rc = kc_hash_init(&c, alg)) != PV_OK)
			return rc;
		if (r->d.in.len != 0u)
			kc_hash_update(&c, ve_ptr(r, r->d.in), r->d.in.len);
		rc = vd_save(r, &c);
		kc_hash_clear(&c);
		break;
	case PV_PHASE_UPDATE:
		if ((rc = vd_load(r, &c)) != PV_OK)
			return rc;
		kc_hash_update(&c, ve_ptr(r, r->d.in), r->d.in.len);
		rc = vd_save(r, &c);
		kc_hash_clear(&c);
		break;
	case PV_PHASE_FINAL:
		if ((rc = ve_out_room(r, dlen)) != PV_OK)
			return rc;
		if ((rc = vd_load(r, &c)) != PV_OK)
			return rc;
		if (r->d.in.len != 0u)
			kc_hash_update(&c, ve_ptr(r, r->d.in), r->d.in.len);
		kc_hash_final(&c, ve_wptr(r, r->d.out));
		break;
	default:
		return PV_ERR_ARGS;
	}
	return rc;
}
