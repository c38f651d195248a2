/*
 * ve_login.c - the vault's side of logging in, and the policy checks every
 * use of a key blob goes through.
 *
 * Each token has a random 32-byte token key T, made in the vault (TOKEN_NEW)
 * and never outside it.  A token's private keys are sealed under the token
 * KEK = HKDF-SHA256(T, info "PixelVault token KEK v1" || token id) instead
 * of the master KEK (PV_POL_TOKEN in their header).  T exists outside the
 * vault only in PIN records:
 *
 *   inner  = nonce (12) || AES-256-GCM_Kpin(T) || tag (16)       60 bytes
 *            Kpin = HKDF-SHA256(PIN key, info "PixelVault PIN record v1"
 *            || who || token id), AAD "PVR1" || who || token id
 *   record = a blob of type PV_KEY_TOKEN_REC holding inner, identity =
 *            token id, under the master KEK
 *
 * The PIN key is the host's PBKDF2 of the PIN.  Opening a record needs
 * the master key (the outer blob) and the PIN (the inner layer), so no
 * edit of the token store and no process without the PIN can reach T;
 * master-key rotation re-seals the outer layer without any PIN.
 *
 * LOGIN opens a record and answers a ticket: T and the token KEK sealed
 * under the per-boot state key (AAD "PVT1" || token id), valid until the
 * vault reboots.  A request for a token's private key carries the ticket;
 * ve_req_ticket opens it before anything else.  In daemon mode the ticket
 * never reaches the client: pvaultd keeps it per connection and token and
 * puts it into that connection's requests itself.
 *
 * The "no login" record (PV_WHO_NOLOGIN) is a user record under an
 * all-zero PIN key: it can be made only with a ticket (the SO's or the
 * user's), so a row added to the store cannot create it.  An SO ticket may
 * make any record (C_SetPIN, C_InitPIN, `pvault token set-login`) and set
 * PV_POL_TRUSTED on a new key; it never opens a private key.
 */
#include "ve_internal.h"

#define VL_TICKET_PT (4u + 2u * PV_TOKEN_KEY_LEN)   /* who || T || KEK    */
#define VL_INNER_LEN (VE_BLOB_NONCE + PV_TOKEN_KEY_LEN + VE_BLOB_TAG)

KC_API int ve_kek_init(ve_kek *kek, const uint8_t key[32])
{
	uint8_t h[16];
	int rc = kc_bc_init(&kek->bc, KC_BC_AES, key, 32u);

	if (rc == PV_OK) {
		kc_gcm_hkey(&kek->bc, h);
		kc_ghash_powers(kek->pow, h);
	}
	kc_wipe(h, sizeof h);
	return rc;
}

/* info = label || who (one byte, when with_who) || token id */
KC_PRIV int vl_hkdf(const uint8_t *ikm, const char *label, uint32_t llen, uint32_t who,
                    uint32_t with_who, const uint8_t tid[PV_OBJ_ID_LEN], uint8_t out[32])
{
	uint8_t info[40 + 1 + PV_OBJ_ID_LEN];
	uint32_t n = llen;
	int rc;

	kc_memcpy(info, label, llen);
	if (with_who)
		info[n++] = (uint8_t)who;
	kc_memcpy(info + n, tid, PV_OBJ_ID_LEN);
	n += PV_OBJ_ID_LEN;
	rc = kc_hkdf(KC_HASH_SHA256, NULL, 0, ikm, 32u, info, n, out, 32u);
	kc_wipe(info, sizeof info);
	return rc;
}

KC_PRIV int vl_token_kek(const uint8_t t[PV_TOKEN_KEY_LEN], const uint8_t tid[PV_OBJ_ID_LEN],
                         uint8_t out[32])
{
	static const char label[] = "PixelVault token KEK v1";
	return vl_hkdf(t, label, sizeof label - 1u, 0u, 0u, tid, out);
}

/* A ticket's AAD: "PVT1" || token id. */
KC_PRIV void vl_ticket_aad(uint8_t aad[4 + PV_OBJ_ID_LEN], const uint8_t tid[PV_OBJ_ID_LEN])
{
	aad[0] = 'P'; aad[1] = 'V'; aad[2] = 'T'; aad[3] = '1';
	kc_memcpy(aad + 4, tid, PV_OBJ_ID_LEN);
}

KC_API int ve_req_ticket(ve_req *r)
{
	uint8_t aad[4 + PV_OBJ_ID_LEN];
	uint8_t pt[VL_TICKET_PT];
	const uint8_t *t;
	kc_gcm g;
	uint32_t who;
	int rc;

	r->tk = NULL;
	r->who = PV_WHO_NOLOGIN;
	if (r->d.ticket.len == 0u)
		return PV_OK;
	if (r->d.ticket.len != PV_TICKET_LEN)
		return PV_ERR_NOT_LOGGED_IN;
	t = ve_ptr(r, r->d.ticket);
	vl_ticket_aad(aad, r->d.token_id);
	rc = kc_gcm_init_h(&g, &r->v->stk, r->v->stk_h, t, VE_BLOB_NONCE);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, aad, sizeof aad);
	if (rc == PV_OK)
		rc = kc_gcm_open(&g, t + VE_BLOB_NONCE, VL_TICKET_PT,
		                 t + VE_BLOB_NONCE + VL_TICKET_PT, VE_BLOB_TAG, pt);
	kc_gcm_clear(&g);
	if (rc == PV_OK) {
		who = kc_load_be32(pt);
		kc_memcpy(r->tkey, pt + 4, PV_TOKEN_KEY_LEN);
		rc = ve_kek_init(&r->tkek, pt + 4 + PV_TOKEN_KEY_LEN);
		if (rc == PV_OK && (who == PV_WHO_SO || who == PV_WHO_USER)) {
			r->who = who;
			r->tk = &r->tkek;
		}
	}
	kc_wipe(pt, sizeof pt);
	return r->tk != NULL ? PV_OK : PV_ERR_NOT_LOGGED_IN;
}

/* The request's mechanism as an allowed-list entry. */
KC_PRIV uint32_t vl_mech_id(const ve_desc *d)
{
	uint32_t v = 0;

	if (d->flags & PV_F_HASH_DATA)
		v |= PV_MV_HASH_DATA;
	if (d->flags & PV_F_DERIVE_DATA)
		v |= PV_MV_DERIVE_DATA;
	return (d->mech << 16) | (v << 8) | (d->prf & 0xffu);
}

/* Digest of an allowed list (span s of the request): PV_ERR_ARGS if it is
 * no list. */
KC_PRIV int vl_mechs_digest(const ve_req *r, ve_span s, uint32_t *n, uint8_t dig[16])
{
	uint8_t full[32];
	int rc = PV_OK;

	kc_memset(dig, 0, 16);
	*n = s.len / 4u;
	if ((s.len & 3u) != 0u || *n > PV_MECHS_MAX)
		return PV_ERR_ARGS;
	if (*n == 0u)
		return PV_OK;
	rc = kc_hash(KC_HASH_SHA256, ve_ptr(r, s), s.len, full);
	kc_memcpy(dig, full, 16);
	return rc;
}

KC_API int ve_req_blob(const ve_req *r, ve_span b, uint32_t want_type, uint32_t max,
                       uint32_t primary, ve_bhdr *h, const ve_kek **kek)
{
	uint8_t dig[16];
	const uint8_t *m;
	uint32_t n, i, want, e;
	int rc;

	if (b.len == 0u)
		return PV_ERR_ARGS;
	rc = ve_blob_parse(ve_ptr(r, b), b.len, max, want_type, 0u, h);
	if (rc != PV_OK)
		return rc;
	if (h->type == PV_KEY_TOKEN_REC)        /* records: PV_OP_LOGIN alone */
		return PV_ERR_WRAPPED;
	*kek = &r->v->kek;
	if (h->policy & PV_POL_TOKEN) {
		if (r->tk == NULL || r->who != PV_WHO_USER)
			return PV_ERR_NOT_LOGGED_IN;
		*kek = r->tk;
	}
	if (!primary || h->nmechs == 0u)
		return PV_OK;
	rc = vl_mechs_digest(r, r->d.mechs, &n, dig);
	if (rc != PV_OK || n != h->nmechs || !kc_ct_eq(dig, h->mdig, 16))
		return PV_ERR_PERM;
	want = vl_mech_id(&r->d);
	m = ve_ptr(r, r->d.mechs);
	for (i = 0; i < n; i++) {
		e = kc_load_be32(m + 4u * i);
		if ((e >> 8) == (want >> 8) && ((e & 0xffu) == 0u || e == want))
			return PV_OK;
	}
	return PV_ERR_PERM;
}

KC_API int ve_req_new_blob(const ve_req *r, ve_bhdr *h, const ve_kek **kek)
{
	int rc;

	h->policy = r->d.new_policy;
	if ((h->policy & ~PV_POL_ALL) != 0u)
		return PV_ERR_ARGS;
	rc = vl_mechs_digest(r, r->d.new_mechs, &h->nmechs, h->mdig);
	if (rc != PV_OK)
		return rc;
	if ((h->policy & PV_POL_TRUSTED) && (r->tk == NULL || r->who != PV_WHO_SO))
		return PV_ERR_PERM;
	*kek = &r->v->kek;
	if (h->policy & PV_POL_TOKEN) {
		if (r->tk == NULL || r->who != PV_WHO_USER)
			return PV_ERR_NOT_LOGGED_IN;
		*kek = r->tk;
	}
	return PV_OK;
}

KC_API int ve_req_key(const ve_req *r, uint32_t usage, ve_key *k)
{
	const ve_kek *kek;
	ve_bhdr h;
	int rc;

	kc_memset(k, 0, sizeof *k);
	rc = ve_req_blob(r, r->d.key, r->d.key_type, PV_BLOB_MAX, 1u, &h, &kek);
	if (rc == PV_OK)
		rc = ve_blob_open(kek, &h, ve_ptr(r, r->d.key), r->d.key_id, k);
	if (rc != PV_OK)
		return rc;
	if ((k->usage & usage) != usage) {
		kc_wipe(k, sizeof *k);
		return PV_ERR_PERM;
	}
	return PV_OK;
}

KC_API int ve_req_seal(ve_req *r, ve_key *k, ve_span out)
{
	const ve_kek *kek;
	ve_bhdr h;
	uint32_t olen = 0;
	int rc;

	kc_memset(&h, 0, sizeof h);
	k->usage = r->d.new_usage;
	rc = ve_req_new_blob(r, &h, &kek);
	if (rc != PV_OK)
		return rc;
	k->policy = h.policy;
	rc = ve_blob_seal(kek, r->w, k, h.nmechs, h.mdig, r->d.new_id, ve_wptr(r, out), out.len,
	                  &olen);
	r->res->out_len = olen;
	return rc;
}

/* ---- PIN records and tickets -------------------------------------------- */

KC_PRIV void vl_rec_aad(uint8_t aad[4 + 1 + PV_OBJ_ID_LEN], uint32_t who,
                        const uint8_t tid[PV_OBJ_ID_LEN])
{
	aad[0] = 'P'; aad[1] = 'V'; aad[2] = 'R'; aad[3] = '1';
	aad[4] = (uint8_t)who;
	kc_memcpy(aad + 5, tid, PV_OBJ_ID_LEN);
}

KC_PRIV int vl_pin_bc(const uint8_t pinkey[PV_PIN_KEY_LEN], uint32_t who,
                      const uint8_t tid[PV_OBJ_ID_LEN], kc_bc *bc)
{
	static const char label[] = "PixelVault PIN record v1";
	uint8_t k[32];
	int rc = vl_hkdf(pinkey, label, sizeof label - 1u, who, 1u, tid, k);

	if (rc == PV_OK)
		rc = kc_bc_init(bc, KC_BC_AES, k, sizeof k);
	kc_wipe(k, sizeof k);
	return rc;
}

/* Write the record of T for who (PIN key from `in`) to the out span. */
KC_PRIV int vl_record(ve_req *r, uint32_t who, const uint8_t t[PV_TOKEN_KEY_LEN])
{
	uint8_t aad[4 + 1 + PV_OBJ_ID_LEN];
	uint8_t tag[16];
	ve_key k;
	kc_bc bc;
	kc_gcm g;
	int rc;

	if ((rc = ve_out_room(r, PV_RECORD_LEN)) != PV_OK)
		return rc;
	if (r->d.in.len != PV_PIN_KEY_LEN)
		return PV_ERR_ARGS;
	kc_memset(&k, 0, sizeof k);
	kc_memset(&bc, 0, sizeof bc);
	k.type = PV_KEY_TOKEN_REC;
	k.len = VL_INNER_LEN;
	rc = vl_pin_bc(ve_ptr(r, r->d.in), who, r->d.token_id, &bc);
	if (rc == PV_OK)
		rc = kc_drbg_generate(&r->w->drbg, k.k, VE_BLOB_NONCE, NULL, 0);
	vl_rec_aad(aad, who, r->d.token_id);
	if (rc == PV_OK)
		rc = kc_gcm_init(&g, &bc, k.k, VE_BLOB_NONCE);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, aad, sizeof aad);
	if (rc == PV_OK)
		rc = kc_gcm_encrypt(&g, t, k.k + VE_BLOB_NONCE, PV_TOKEN_KEY_LEN);
	if (rc == PV_OK) {
		kc_gcm_tag(&g, tag);
		kc_memcpy(k.k + VE_BLOB_NONCE + PV_TOKEN_KEY_LEN, tag, VE_BLOB_TAG);
	}
	kc_gcm_clear(&g);
	if (rc == PV_OK) {
		ve_bhdr h;
		uint32_t olen = 0;
		kc_memset(&h, 0, sizeof h);
		h.ver = VE_BLOB_VERSION;
		h.type = PV_KEY_TOKEN_REC;
		h.len = VL_INNER_LEN;
		rc = ve_blob_encrypt(&r->v->kek, r->w, &h, k.k, r->d.token_id, ve_wptr(r, r->d.out));
		olen = PV_RECORD_LEN;
		r->res->out_len = olen;
	}
	kc_bc_clear(&bc);
	kc_wipe(tag, sizeof tag);
	kc_wipe(&k, sizeof k);
	return rc;
}

/* Open the record in `key` with the PIN key in `in` for who into t. */
KC_PRIV int vl_open_record(const ve_req *r, uint32_t who, uint8_t t[PV_TOKEN_KEY_LEN])
{
	uint8_t w[VE_BLOB_W(VL_INNER_LEN)] KC_ALIGN16;
	uint8_t aad[4 + 1 + PV_OBJ_ID_LEN];
	const uint8_t *in;
	ve_bhdr h;
	kc_bc bc;
	kc_gcm g;
	int rc;

	if (r->d.in.len != PV_PIN_KEY_LEN || r->d.key.len == 0u)
		return PV_ERR_ARGS;
	rc = ve_blob_parse(ve_ptr(r, r->d.key), r->d.key.len, PV_RECORD_LEN, PV_KEY_TOKEN_REC,
	                   0u, &h);
	if (rc != PV_OK || h.len != VL_INNER_LEN || h.policy != 0u || h.nmechs != 0u)
		return PV_ERR_WRAPPED;
	rc = ve_blob_decrypt(&r->v->kek, &h, ve_ptr(r, r->d.key), r->d.token_id, h.len, w);
	if (rc != PV_OK)
		return PV_ERR_WRAPPED;
	in = w + 16;
	kc_memset(&bc, 0, sizeof bc);
	rc = vl_pin_bc(ve_ptr(r, r->d.in), who, r->d.token_id, &bc);
	vl_rec_aad(aad, who, r->d.token_id);
	if (rc == PV_OK)
		rc = kc_gcm_init(&g, &bc, in, VE_BLOB_NONCE);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, aad, sizeof aad);
	if (rc == PV_OK)
		rc = kc_gcm_open(&g, in + VE_BLOB_NONCE, PV_TOKEN_KEY_LEN,
		                 in + VE_BLOB_NONCE + PV_TOKEN_KEY_LEN, VE_BLOB_TAG, t);
	kc_gcm_clear(&g);
	kc_bc_clear(&bc);
	kc_wipe(w, sizeof w);
	if (rc == PV_ERR_ENC_INVALID)
		return PV_ERR_PIN_INCORRECT;
	return rc;
}

/* Seal who || t || the token KEK as the out ticket. */
KC_PRIV int vl_ticket(ve_req *r, uint32_t who, const uint8_t t[PV_TOKEN_KEY_LEN])
{
	uint8_t aad[4 + PV_OBJ_ID_LEN];
	uint8_t pt[VL_TICKET_PT];
	uint8_t *o = ve_wptr(r, r->d.out);
	kc_gcm g;
	int rc;

	if ((rc = ve_out_room(r, PV_TICKET_LEN)) != PV_OK)
		return rc;
	kc_store_be32(pt, who);
	kc_memcpy(pt + 4, t, PV_TOKEN_KEY_LEN);
	rc = vl_token_kek(t, r->d.token_id, pt + 4 + PV_TOKEN_KEY_LEN);
	vl_ticket_aad(aad, r->d.token_id);
	if (rc == PV_OK)
		rc = kc_drbg_generate(&r->w->drbg, o, VE_BLOB_NONCE, NULL, 0);
	if (rc == PV_OK)
		rc = kc_gcm_init_h(&g, &r->v->stk, r->v->stk_h, o, VE_BLOB_NONCE);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, aad, sizeof aad);
	if (rc == PV_OK)
		rc = kc_gcm_encrypt(&g, pt, o + VE_BLOB_NONCE, VL_TICKET_PT);
	if (rc == PV_OK)
		kc_gcm_tag(&g, o + VE_BLOB_NONCE + VL_TICKET_PT);
	kc_gcm_clear(&g);
	kc_wipe(pt, sizeof pt);
	return rc;
}

/* REPOLICY: the secret key of blob `key` sealed again with new_usage and
 * new_policy, under the rules of C_SetAttributeValue: the usage flags
 * change freely, EXTRACT only goes away, SENSITIVE and WRAP_TRUSTED only
 * come, TRUSTED comes only with the SO's ticket, the token bit and the
 * allowed list stay.  A token-bound key needs the user's ticket to be
 * opened at all. */
KC_PRIV int vl_repolicy(ve_req *r)
{
	const uint32_t sticky = PV_POL_SENSITIVE | PV_POL_WRAP_TRUSTED;
	const ve_kek *kek;
	ve_bhdr h;
	ve_key k;
	uint32_t olen = 0, np = r->d.new_policy, nu = r->d.new_usage;
	int rc;

	rc = ve_req_blob(r, r->d.key, 0u, PV_BLOB_MAX, 0u, &h, &kek);
	if (rc != PV_OK)
		return rc;
	if ((np & ~PV_POL_ALL) != 0u || (nu & ~PV_USE_ALL) != 0u ||
	    (np & PV_POL_TOKEN) != (h.policy & PV_POL_TOKEN) ||
	    (h.policy & sticky & ~np) != 0u ||
	    ((nu & ~h.usage) & PV_USE_EXTRACT) != 0u ||
	    ((np & ~h.policy & PV_POL_TRUSTED) != 0u && (r->tk == NULL || r->who != PV_WHO_SO)))
		return PV_ERR_PERM;
	rc = ve_blob_open(kek, &h, ve_ptr(r, r->d.key), r->d.key_id, &k);
	if (rc == PV_OK) {
		k.usage = nu;
		k.policy = np;
		rc = ve_blob_seal(kek, r->w, &k, h.nmechs, h.mdig, r->d.key_id, ve_wptr(r, r->d.out),
		                  r->d.out.len, &olen);
		r->res->out_len = olen;
	}
	kc_wipe(&k, sizeof k);
	return rc;
}

KC_API int ve_op_login(ve_req *r)
{
	uint8_t t[PV_TOKEN_KEY_LEN];
	uint32_t who = r->d.who;
	int rc;

	kc_memset(t, 0, sizeof t);
	switch (r->d.op) {
	case PV_OP_LOGIN:
		if (who > PV_WHO_NOLOGIN)
			return PV_ERR_ARGS;
		rc = vl_open_record(r, who, t);
		if (rc == PV_OK)
			rc = vl_ticket(r, who == PV_WHO_SO ? PV_WHO_SO : PV_WHO_USER, t);
		break;
	case PV_OP_TOKEN_NEW:            /* a fresh T and its SO record */
		if (who != PV_WHO_SO)
			return PV_ERR_ARGS;
		rc = kc_drbg_generate(&r->w->drbg, t, sizeof t, NULL, 0);
		if (rc == PV_OK)
			rc = vl_record(r, who, t);
		break;
	case PV_OP_PIN_RECORD:
		if (r->tk == NULL)
			return PV_ERR_NOT_LOGGED_IN;
		/* the SO may make any record (C_InitPIN can hand the user's
		 * rights to anyone anyway); the user, no SO record */
		if (who > PV_WHO_NOLOGIN || (r->who != PV_WHO_SO && who == PV_WHO_SO))
			return PV_ERR_PERM;
		rc = vl_record(r, who, r->tkey);
		break;
	case PV_OP_LOGOUT:               /* the daemon's; nothing to do here */
		rc = PV_OK;
		break;
	case PV_OP_REPOLICY:
		rc = vl_repolicy(r);
		break;
	default:
		rc = PV_ERR_MECHANISM;
		break;
	}
	kc_wipe(t, sizeof t);
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		r->res->out_len = 0;
	return rc;
}
