/*
 * pv_proto.c - message checks and descriptor validation of the pvaultd
 * protocol (pv_proto.h).  Pure functions over copied bytes: the fuzz
 * harness (tests/fuzz) drives them directly.
 */
#include "gpu/client/pv_proto.h"
#include "gpu/vault.h"

#include <string.h>

void pvp_hdr_set(pvp_hdr *h, uint32_t t, size_t n)
{
	h->magic = PVP_MAGIC;
	h->version = PVP_VERSION;
	h->type = t;
	h->len = (uint32_t)n;
}

static size_t type_size(uint32_t t)
{
	switch (t) {
	case PVP_HELLO:     return sizeof(pvp_hello);
	case PVP_HELLO_OK:  return sizeof(pvp_hello_ok);
	case PVP_STATUS:    return sizeof(pvp_hdr);
	case PVP_STATUS_OK: return sizeof(pvp_status_ok);
	case PVP_ERROR:     return sizeof(pvp_error);
	default:            return 0;
	}
}

int pvp_check(const void *buf, size_t n, size_t cap, uint32_t *type)
{
	pvp_hdr h;
	size_t want;

	if (buf == NULL || type == NULL || n < sizeof h || n > cap || n > PVP_MSG_MAX)
		return PV_ERR_PROTOCOL;
	memcpy(&h, buf, sizeof h);
	if (h.magic != PVP_MAGIC || h.version != PVP_VERSION ||
	    h.type == 0 || h.type > PVP_TYPE_MAX)
		return PV_ERR_PROTOCOL;
	want = type_size(h.type);
	if (want == 0 || h.len != want || n != want)
		return PV_ERR_PROTOCOL;
	if (h.type == PVP_HELLO) {
		pvp_hello m;
		unsigned i;
		memcpy(&m, buf, sizeof m);
		for (i = 0; i < 6; i++)
			if (m.rsv[i] != 0)
				return PV_ERR_PROTOCOL;
		if (m.nslots != 0 && (m.nslots < PVP_SLOTS_MIN || m.nslots > PVP_SLOTS_MAX ||
		                      (m.nslots & (m.nslots - 1u)) != 0))
			return PV_ERR_PROTOCOL;
		if (m.slot_arena != 0 && (m.slot_arena < PVP_ARENA_MIN ||
		                          m.slot_arena > PVP_ARENA_MAX))
			return PV_ERR_PROTOCOL;
	}
	*type = h.type;
	return PV_OK;
}

static int span_ok(ve_span s, uint32_t arena_len)
{
	if (s.len == 0)
		return 1;
	return (uint64_t)s.off + (uint64_t)s.len <= (uint64_t)arena_len;
}

int pvp_desc_check(const ve_desc *d, uint32_t arena_len)
{
	unsigned i;

	if (d->version != VE_DESC_VERSION || d->op > PV_OP_MAX || d->phase > PV_PHASE_FINAL)
		return PV_ERR_ARGS;
	if (!span_ok(d->key, arena_len) || !span_ok(d->key2, arena_len) ||
	    !span_ok(d->iv, arena_len) || !span_ok(d->aad, arena_len) ||
	    !span_ok(d->salt, arena_len) || !span_ok(d->in, arena_len) ||
	    !span_ok(d->in2, arena_len) || !span_ok(d->state, arena_len) ||
	    !span_ok(d->out, arena_len) || !span_ok(d->out2, arena_len) ||
	    !span_ok(d->state_out, arena_len) || !span_ok(d->ticket, arena_len) ||
	    !span_ok(d->mechs, arena_len) || !span_ok(d->new_mechs, arena_len))
		return PV_ERR_DATA_LEN;
	for (i = 0; i < sizeof d->rsv1 / sizeof d->rsv1[0]; i++)
		if (d->rsv1[i] != 0)
			return PV_ERR_ARGS;
	return PV_OK;
}

#define SP(s) ((s).len ? arena + (s).off : NULL)

int pvp_desc_to_req(const ve_desc *d, uint8_t *arena, uint32_t arena_len, pv_req *r)
{
	int rc = pvp_desc_check(d, arena_len);
	if (rc != PV_OK)
		return rc;
	pv_req_init(r, d->op, d->mech);
	r->phase = d->phase; r->flags = d->flags; r->prf = d->prf;
	r->tag_len = d->tag_len; r->ctr_bits = d->ctr_bits; r->key_type = d->key_type;
	r->new_type = d->new_type; r->new_usage = d->new_usage; r->new_len = d->new_len;
	memcpy(r->key_id, d->key_id, PV_OBJ_ID_LEN);
	memcpy(r->key2_id, d->key2_id, PV_OBJ_ID_LEN);
	memcpy(r->new_id, d->new_id, PV_OBJ_ID_LEN);
	memcpy(r->token_id, d->token_id, PV_OBJ_ID_LEN);
	r->new_policy = d->new_policy; r->who = d->who;
	r->ticket = SP(d->ticket); r->ticket_len = d->ticket.len;
	r->mechs = SP(d->mechs); r->mechs_len = d->mechs.len;
	r->new_mechs = SP(d->new_mechs); r->new_mechs_len = d->new_mechs.len;
	r->key = SP(d->key);   r->key_len = d->key.len;
	r->key2 = SP(d->key2); r->key2_len = d->key2.len;
	r->iv = SP(d->iv);     r->iv_len = d->iv.len;
	r->aad = SP(d->aad);   r->aad_len = d->aad.len;
	r->salt = SP(d->salt); r->salt_len = d->salt.len;
	r->in = SP(d->in);     r->in_len = d->in.len;
	r->in2 = SP(d->in2);   r->in2_len = d->in2.len;
	r->state = SP(d->state); r->state_len = d->state.len;
	r->out = SP(d->out);   r->out_cap = d->out.len;
	r->out2 = SP(d->out2); r->out2_cap = d->out2.len;
	r->state_out = SP(d->state_out); r->state_out_cap = d->state_out.len;
	return PV_OK;
}
