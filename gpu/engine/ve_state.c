/*
 * ve_state.c - sealed multi-part state.  A keyed operation's state (key
 * schedule, chaining value, GHASH, HMAC inner/outer states, buffered
 * partial block) leaves the vault only as
 *
 *    "PVS" | version | op (be32) | mech (be32) | len (be32) |
 *    nonce (12) | AES-256-GCM(state key, ve_mp) | tag (16)
 *
 * with the 16-byte header as AAD.  The state key is drawn at boot and never
 * leaves the vault, so a state is valid only in the boot that made it; any
 * mismatch is PV_ERR_STATE.  A caller may replay an older state of its own
 * operation (it could equally have re-run the operation); that gives it
 * nothing it could not compute with the key handle it already holds.
 */
#include "ve_internal.h"

#define VE_STATE_VERSION 1u
#define VE_STATE_SEALED_LEN ((uint32_t)sizeof(ve_mp) + 44u)

/* compile-time: a sealed state fits the documented bound */
typedef char ve_state_fits_max[(sizeof(ve_mp) + 44u <= PV_STATE_MAX) ? 1 : -1];

KC_PRIV void ve_state_hdr(uint8_t h[16], uint32_t op, uint32_t mech)
{
	h[0] = (uint8_t)'P';
	h[1] = (uint8_t)'V';
	h[2] = (uint8_t)'S';
	h[3] = (uint8_t)VE_STATE_VERSION;
	kc_store_be32(h + 4, op);
	kc_store_be32(h + 8, mech);
	kc_store_be32(h + 12, (uint32_t)sizeof(ve_mp));
}

KC_API int ve_state_key(const ve_req *r, uint32_t usage, uint32_t mode,
                        uint32_t tag_len, ve_mp *mp, ve_key *k)
{
	int rc = ve_req_key(r, usage, k);

	if (rc != PV_OK)
		return rc;
	if (k->type != ve_mech_key_type(r->d.mech)) {
		kc_wipe(k, sizeof *k);
		return PV_ERR_KEY_TYPE;
	}
	mp->magic = VE_MP_MAGIC;
	mp->op = r->d.op;
	mp->mech = r->d.mech;
	mp->mode = mode;
	mp->tag_len = tag_len;
	return PV_OK;
}

KC_API int ve_state_seal(const ve_req *r, const ve_mp *mp)
{
	kc_gcm g;
	uint8_t *o;
	uint8_t tag[16];
	int rc;

	r->res->state_len = VE_STATE_SEALED_LEN;
	if (r->d.state_out.len < VE_STATE_SEALED_LEN)
		return PV_ERR_BUF_SMALL;
	o = ve_wptr(r, r->d.state_out);
	ve_state_hdr(o, r->d.op, r->d.mech);
	rc = kc_drbg_generate(&r->w->drbg, o + 16, 12, NULL, 0);
	if (rc == PV_OK)
		rc = kc_gcm_init_h(&g, &r->v->stk, r->v->stk_h, o + 16, 12);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, o, 16);
	if (rc == PV_OK)
		rc = kc_gcm_encrypt(&g, (const uint8_t *)mp, o + 28, sizeof(ve_mp));
	if (rc == PV_OK) {
		kc_gcm_tag(&g, tag);
		kc_memcpy(o + 28 + sizeof(ve_mp), tag, 16);
	}
	kc_gcm_clear(&g);
	kc_wipe(tag, sizeof tag);
	if (rc != PV_OK)
		r->res->state_len = 0;
	return rc;
}

KC_API int ve_state_open(const ve_req *r, ve_mp *mp)
{
	kc_gcm g;
	uint8_t hdr[16];
	const uint8_t *s;
	int rc = PV_ERR_STATE;

	kc_memset(mp, 0, sizeof *mp);
	if (r->d.state.len != VE_STATE_SEALED_LEN)
		return PV_ERR_STATE;
	s = ve_ptr(r, r->d.state);
	ve_state_hdr(hdr, r->d.op, r->d.mech);
	if (!kc_ct_eq(hdr, s, 16))
		return PV_ERR_STATE;
	if (kc_gcm_init_h(&g, &r->v->stk, r->v->stk_h, s + 16, 12) == PV_OK &&
	    kc_gcm_aad(&g, s, 16) == PV_OK &&
	    kc_gcm_open(&g, s + 28, sizeof(ve_mp), s + 28 + sizeof(ve_mp), 16,
	                (uint8_t *)mp) == PV_OK &&
	    mp->magic == VE_MP_MAGIC && mp->op == r->d.op && mp->mech == r->d.mech)
		rc = PV_OK;
	kc_gcm_clear(&g);
	if (rc != PV_OK)
		kc_wipe(mp, sizeof *mp);
	return rc;
}
