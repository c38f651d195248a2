/*
 * ve_exec.c - vault boot, worker DRBGs, and ve_execute: copy + validate one
 * descriptor, dispatch on the op, write the result.
 */
#include "ve_internal.h"
#include "ve_pk.h"

KC_API int ve_boot(ve_vault *v, const uint8_t *master, size_t mlen,
                   const uint8_t *entropy, size_t elen)
{
	static const char pers[] = "PixelVault boot";
	static const char label[] = VE_KEK_LABEL;
	kc_drbg d;
	uint8_t k[32];
	int rc;

	kc_memset(v, 0, sizeof *v);
	v->sealed = 1;
	rc = kc_drbg_init(&d, entropy, elen, NULL, 0, (const uint8_t *)pers, sizeof pers - 1u);
	if (rc != PV_OK)
		return rc;
	/* per-boot state key: never leaves the vault */
	rc = kc_drbg_generate(&d, k, sizeof k, NULL, 0);
	if (rc == PV_OK)
		rc = kc_bc_init(&v->stk, KC_BC_AES, k, sizeof k);
	if (rc == PV_OK)
		kc_gcm_hkey(&v->stk, v->stk_h);
	if (rc == PV_OK && master != NULL && mlen == VE_MASTER_LEN) {
		rc = kc_hkdf(KC_HASH_SHA256, NULL, 0, master, mlen,
		             (const uint8_t *)label, sizeof label - 1u, k, sizeof k);
		if (rc == PV_OK)
			rc = ve_kek_init(&v->kek, k);
		if (rc == PV_OK)
			v->sealed = 0;
	}
	kc_wipe(k, sizeof k);
	kc_drbg_clear(&d);
	if (rc != PV_OK)
		ve_vault_clear(v);
	return rc;
}

KC_API void ve_vault_clear(ve_vault *v)
{
	kc_wipe(v, sizeof *v);
	v->sealed = 1;
}

KC_API int ve_worker_init(ve_worker *w, uint32_t index, const uint8_t *entropy, size_t elen)
{
	uint8_t pers[24];
	static const char tag[] = "PixelVault worker ";
	int rc;

	kc_memset(w, 0, sizeof *w);
	kc_memcpy(pers, tag, sizeof tag - 1u);
	kc_store_be32(pers + 18, index);
	w->index = index;
	w->pre_curve = KC_EC_P256;
	rc = kc_drbg_init(&w->drbg, entropy, elen, NULL, 0, pers, 22);
	kc_wipe(pers, sizeof pers);
	return rc;
}

KC_API int ve_worker_reseed(ve_worker *w, const uint8_t *entropy, size_t elen)
{
	return kc_drbg_reseed(&w->drbg, entropy, elen, NULL, 0);
}

KC_API int ve_idle_wanted(const ve_vault *v, const ve_worker *w)
{
	return !v->sealed && (w->pre.curve != w->pre_curve || kc_drbg_fill_wanted(&w->drbg));
}

KC_API int ve_idle(const ve_vault *v, ve_worker *w)
{
	if (!ve_idle_wanted(v, w))
		return 0;
	if (w->pre.curve != w->pre_curve) {
		if (w->pre_curve == KC_EC_SM2)      /* empty on failure */
			(void)kc_sm2_precompute(&w->drbg, &w->pre);
		else
			(void)kc_ecdsa_precompute(w->pre_curve, &w->drbg, &w->pre);
	}
	/* after the nonce, which may have taken the bytes ahead */
	if (kc_drbg_fill_wanted(&w->drbg))
		(void)kc_drbg_fill(&w->drbg);
	return 1;
}

KC_API void ve_worker_clear(ve_worker *w)
{
	kc_drbg_clear(&w->drbg);
	kc_wipe(w, sizeof *w);
}

/* Span checks: every span inside the arena; outputs disjoint from each
 * other and from every input (engine code never has to handle aliasing). */
KC_PRIV uint32_t vx_in_arena(ve_span s, uint32_t n)
{
	return (uint32_t)((uint64_t)s.off + (uint64_t)s.len <= (uint64_t)n);
}
KC_PRIV uint32_t vx_overlap(ve_span a, ve_span b)
{
	if (a.len == 0u || b.len == 0u)
		return 0u;
	return (uint32_t)((uint64_t)a.off < (uint64_t)b.off + b.len &&
	                  (uint64_t)b.off < (uint64_t)a.off + a.len);
}

KC_PRIV int vx_validate(const ve_desc *d, uint32_t n)
{
	ve_span in[11];
	ve_span out[3];
	uint32_t i, j;

	in[0] = d->key; in[1] = d->key2; in[2] = d->iv; in[3] = d->aad;
	in[4] = d->salt; in[5] = d->in; in[6] = d->in2; in[7] = d->state;
	in[8] = d->ticket; in[9] = d->mechs; in[10] = d->new_mechs;
	out[0] = d->out; out[1] = d->out2; out[2] = d->state_out;
	if (d->version != VE_DESC_VERSION)
		return PV_ERR_PROTOCOL;
	for (i = 0; i < 11u; i++)
		if (!vx_in_arena(in[i], n))
			return PV_ERR_PROTOCOL;
	for (i = 0; i < 3u; i++) {
		if (!vx_in_arena(out[i], n))
			return PV_ERR_PROTOCOL;
		for (j = 0; j < 11u; j++)
			if (vx_overlap(out[i], in[j]))
				return PV_ERR_PROTOCOL;
		for (j = i + 1u; j < 3u; j++)
			if (vx_overlap(out[i], out[j]))
				return PV_ERR_PROTOCOL;
	}
	if (d->phase > PV_PHASE_FINAL)
		return PV_ERR_ARGS;
	return PV_OK;
}

KC_API void ve_execute(const ve_vault *v, ve_worker *w, const ve_desc *desc,
                       uint8_t *arena, uint32_t arena_len, ve_result *res)
{
	ve_req r;
	int rc;

	kc_memcpy(&r.d, desc, sizeof r.d);     /* the producer may change it */
	r.tk = NULL;
	r.arena = arena;
	r.v = v;
	r.w = w;
	r.res = res;
	res->status = PV_OK;
	res->out_len = 0;
	res->out2_len = 0;
	res->state_len = 0;
	w->nreq++;
	rc = vx_validate(&r.d, arena_len);
	if (rc == PV_OK && v->sealed && r.d.op != PV_OP_NOP)
		rc = PV_ERR_SEALED;
	if (rc == PV_OK && r.d.op != PV_OP_NOP)
		rc = ve_req_ticket(&r);
	if (rc == PV_OK && ve_pk_claims(&r.d)) {
		rc = ve_op_pk(&r);           /* public key: ve_pk.c */
	} else if (rc == PV_OK) {
		switch (r.d.op) {
		case PV_OP_NOP:
			break;
		case PV_OP_ENCRYPT: case PV_OP_DECRYPT:
			rc = ve_op_cipher(&r);
			break;
		case PV_OP_SIGN: case PV_OP_VERIFY:
			rc = ve_op_mac(&r);
			break;
		case PV_OP_DIGEST:
			rc = ve_op_digest(&r);
			break;
		case PV_OP_GENERATE_KEY:
			rc = ve_op_keygen(&r);
			break;
		case PV_OP_IMPORT_KEY:
			rc = ve_op_import(&r);
			break;
		case PV_OP_WRAP_KEY:
			rc = ve_op_wrap(&r);
			break;
		case PV_OP_UNWRAP_KEY:
			rc = ve_op_unwrap(&r);
			break;
		case PV_OP_DERIVE_KEY:
			rc = ve_op_derive(&r);
			break;
		case PV_OP_RANDOM:
			rc = ve_op_random(&r);
			break;
		case PV_OP_SEED:
			rc = ve_op_seed(&r);
			break;
		case PV_OP_LOGIN: case PV_OP_TOKEN_NEW: case PV_OP_PIN_RECORD:
		case PV_OP_LOGOUT: case PV_OP_REPOLICY:
			rc = ve_op_login(&r);
			break;
		default:                    /* GENERATE_PAIR: reserved */
			rc = PV_ERR_MECHANISM;
			break;
		}
	}
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL) {
		res->out_len = 0;
		res->out2_len = 0;
		res->state_len = 0;
	}
	res->status = (int32_t)rc;
	kc_wipe(&r, sizeof r);
}
