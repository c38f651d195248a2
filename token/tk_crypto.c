/*
 * tk_crypto.c - per-session operations: encrypt, decrypt, digest, sign,
 * verify; single part and multi-part; operation state (digests).
 *
 * A session has one operation of each kind.  Init checks the key and keeps
 * a copy of its blob and the mechanism parameters; a single-part call runs
 * one ONESHOT request; the first multi-part call runs INIT and every later
 * one carries the vault's state.  GCM decryption buffers the ciphertext
 * and hands all of it to FINAL (the vault releases plaintext only after
 * the tag verifies).  Inputs larger than one request can carry are split.
 *
 * Locking: the session's operation is reserved ("busy") in the table of
 * tk_optab.c, under its bucket's lock, not the token's; the thread that
 * reserved it then owns the operation's record, and uses it without any
 * lock, the vault call included.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "token/tk_key.h"
#include "token/tk_op.h"

#define TK_CHUNK (256u << 10)          /* update input per request        */

static uint32_t tk_pvop(int kind)
{
	switch (kind) {
	case TK_OPK_ENCRYPT: return PV_OP_ENCRYPT;
	case TK_OPK_DECRYPT: return PV_OP_DECRYPT;
	case TK_OPK_DIGEST:  return PV_OP_DIGEST;
	case TK_OPK_SIGN:    return PV_OP_SIGN;
	default:             return PV_OP_VERIFY;
	}
}

static int tk_is_gcm(const tk_op *p)
{
	return p->m.pv == PV_MECH_AES_GCM || p->m.pv == PV_MECH_SM4_GCM;
}

/* A request of p's operation in a phase. */
static void tk_op_req(tk_op *p, pv_req *r, uint32_t phase)
{
	pv_req_init(r, p->pvop, p->m.pv);
	r->phase = phase;
	if (phase == PV_PHASE_ONESHOT || phase == PV_PHASE_INIT) {
		if (p->blob_len > 0) {
			r->key = p->blob;
			r->key_len = p->blob_len;
			memcpy(r->key_id, p->id, PV_OBJ_ID_LEN);
			tk_auth_req(&p->auth, r);
		}
		if (p->m.iv_len > 0) {
			r->iv = p->iv;
			r->iv_len = p->m.iv_len;
		}
		if (p->m.aad_len > 0) {
			r->aad = p->aad;
			r->aad_len = p->m.aad_len;
		}
		r->tag_len = p->m.tag_len;
		r->ctr_bits = p->m.ctr_bits;
	} else {
		r->state = p->state;
		r->state_len = p->state_len;
	}
	if (phase == PV_PHASE_INIT || phase == PV_PHASE_UPDATE) {
		r->state_out = p->nstate;
		r->state_out_cap = sizeof p->nstate;
	}
}

/* Commit a request's new state. */
static void tk_op_state(tk_op *p, const pv_req *r)
{
	memcpy(p->state, p->nstate, r->state_out_len);
	p->state_len = r->state_out_len;
}

static CK_RV tk_rv_op(int rc, int kind)
{
	if (rc == PV_ERR_PERM)           /* the blob's policy refuses this use */
		return CKR_KEY_FUNCTION_NOT_PERMITTED;
	if (kind == TK_OPK_VERIFY && rc == PV_ERR_DATA_LEN)
		return CKR_DATA_LEN_RANGE;
	if (kind == TK_OPK_DECRYPT && rc == PV_ERR_DATA_LEN)
		return CKR_ENCRYPTED_DATA_LEN_RANGE;
	return tk_rv_from_pv(rc);
}

CK_RV tk_op_init(CK_SESSION_HANDLE h, int call, const tk_mech *m,
                 CK_OBJECT_HANDLE key, const uint8_t *sig, size_t sig_len)
{
	const int kind = TK_KIND(call);
	tk_obj *o = NULL;
	const uint8_t *blob = NULL, *id = NULL;
	size_t blen = 0;
	tk_ops *os;
	tk_op *p;
	CK_RV rv;

	rv = tk_op_take(h, kind, NEED_IDLE, &os, &p);
	if (rv != CKR_OK)
		return rv;
	if (m->iv_len > PV_IV_MAX)
		rv = CKR_MECHANISM_PARAM_INVALID;
	else if (kind != TK_OPK_DIGEST) {
		rv = tk_key_get(h, key, m->ckm, &o);
		if (rv == CKR_OK)
			rv = tk_key_check(o, m, kind);
		if (rv == CKR_OK)
			rv = tk_key_blob(o, &blob, &blen, &id);
		if (rv == CKR_OK)
			rv = tk_auth_session(h, &p->auth);
		if (rv == CKR_OK)
			tk_auth_key(&p->auth, o);
	}
	if (rv == CKR_OK)
		rv = tk_vsig_keep(&p->vsig, call, sig, sig_len);
	if (rv == CKR_OK) {
		p->m = *m;
		p->pvop = tk_pvop(kind);
		if (m->iv_len > 0)
			memcpy(p->iv, m->iv, m->iv_len);
		p->m.iv = NULL;
		p->m.aad = NULL;
		p->m.salt = NULL;
		if (m->aad_len > 0) {
			p->aad = malloc(m->aad_len);
			if (p->aad == NULL)
				rv = CKR_HOST_MEMORY;
			else
				memcpy(p->aad, m->aad, m->aad_len);
		}
		if (blen > 0) {
			memcpy(p->blob, blob, blen);
			p->blob_len = blen;
			memcpy(p->id, id, PV_OBJ_ID_LEN);
		}
	}
	tk_obj_free(o);
	tk_op_put(os, p, rv != CKR_OK);
	return rv;
}

/* Bytes of arena a one-shot request of p needs besides in and out. */
static size_t tk_op_overhead(const tk_op *p)
{
	return p->blob_len + p->m.iv_len + p->m.aad_len + 2 * PV_STATE_MAX + 4096;
}

/* Upper bound of the output of a whole message of in_len bytes. */
static size_t tk_op_bound(const tk_op *p, size_t in_len)
{
	switch (p->m.pv) {
	case PV_MECH_AES_CBC_PAD: case PV_MECH_SM4_CBC_PAD:
		return p->pvop == PV_OP_ENCRYPT ? (in_len / 16 + 1) * 16 : in_len;
	case PV_MECH_AES_GCM: case PV_MECH_SM4_GCM:
		return p->pvop == PV_OP_ENCRYPT ? in_len + (p->m.tag_len ? p->m.tag_len : 16)
		                                : in_len;
	default:
		if (p->pvop == PV_OP_DIGEST || p->pvop == PV_OP_SIGN)
			return p->m.tag_len ? p->m.tag_len : p->m.dlen;
		return in_len + 16;
	}
}

/* An output capacity no request needs more of (the arena is finite). */
static size_t tk_cap(size_t cap, size_t want)
{
	return cap < want ? cap : want;
}

/* INIT, if not done yet. */
static int tk_op_start(tk_op *p)
{
	pv_req r;
	int rc;

	if (p->multi)
		return PV_OK;
	tk_op_req(p, &r, PV_PHASE_INIT);
	rc = tk_vault_call(&r);
	if (rc == PV_OK) {
		tk_op_state(p, &r);
		p->multi = 1;
	}
	return rc;
}

/* Multi-part update of in into out (cap bytes; written: *done). */
static int tk_op_feed(tk_op *p, const uint8_t *in, size_t in_len, uint8_t *out,
                      size_t cap, size_t *done)
{
	pv_req r;
	int rc = PV_OK;

	*done = 0;
	if (p->pvop == PV_OP_DECRYPT && tk_is_gcm(p)) {
		size_t lim = tk_vault_max_data() / 2;
		if (p->buf_len + in_len > lim)
			return PV_ERR_DATA_LEN;
		if (p->buf_len + in_len > p->buf_cap) {
			size_t nc = (p->buf_len + in_len) * 2 + 64;
			uint8_t *nb = malloc(nc);
			if (nb == NULL)
				return PV_ERR_NOMEM;
			if (p->buf_len > 0)
				memcpy(nb, p->buf, p->buf_len);
			if (p->buf != NULL) {
				kc_wipe(p->buf, p->buf_cap);
				free(p->buf);
			}
			p->buf = nb;
			p->buf_cap = nc;
		}
		if (in_len > 0)
			memcpy(p->buf + p->buf_len, in, in_len);
		p->buf_len += in_len;
		return PV_OK;
	}
	do {
		size_t n = in_len > TK_CHUNK ? TK_CHUNK : in_len;
		tk_op_req(p, &r, PV_PHASE_UPDATE);
		r.in = in;
		r.in_len = n;
		if (out != NULL) {
			r.out = out + *done;
			r.out_cap = tk_cap(cap - *done, n + 32);
		}
		rc = tk_vault_call(&r);
		if (rc != PV_OK)
			break;
		tk_op_state(p, &r);
		*done += r.out_len;
		in += n;
		in_len -= n;
	} while (in_len > 0);
	return rc;
}

/* Async sessions (tk_async.c): the end of a pending call's operation. */
static void tk_op_async_end(tk_async *a)
{
	tk_op_put(a->os, a->op, 1);
}

/* p (reserved by this thread, of os) as a pending single-part call:
 * into out (cap bytes, large enough for any answer), or for C_Verify
 * over sig (no output: its answer is the CK_RV). */
static CK_RV tk_op_pend(tk_ops *os, tk_op *p, int call, const uint8_t *in, size_t in_len,
                        const uint8_t *sig, size_t sig_len, uint8_t *out, size_t cap)
{
	tk_async *a = tk_async_new(os, call, tk_rv_op, tk_op_async_end, p);

	if (a == NULL) {
		tk_op_put(os, p, 1);
		return CKR_HOST_MEMORY;
	}
	tk_op_req(p, &a->r, PV_PHASE_ONESHOT);
	a->r.in = in;
	a->r.in_len = in_len;
	a->r.in2 = sig;
	a->r.in2_len = sig_len;
	a->r.out = out;
	a->r.out_cap = out != NULL ? tk_cap(cap, tk_op_bound(p, in_len) + 64) : 0;
	return tk_async_start(a);
}

CK_RV tk_op_oneshot(CK_SESSION_HANDLE h, int kind, const uint8_t *in,
                    size_t in_len, uint8_t *out, CK_ULONG *out_len)
{
	tk_ops *os;
	tk_op *p;
	pv_req r;
	size_t cap = out != NULL ? *out_len : 0, done = 0, fin = 0;
	CK_RV rv = tk_op_take(h, kind, NEED_ACTIVE, &os, &p);
	int rc, end = 1;

	if (rv != CKR_OK)
		return rv;
	if (p->multi) {
		tk_op_put(os, p, 0);
		return CKR_OPERATION_ACTIVE;
	}
	if (in_len + tk_op_bound(p, in_len) + 64 + tk_op_overhead(p) <=
	    tk_vault_max_data()) {
		if (os->async_ok && out != NULL && cap >= tk_op_bound(p, in_len))
			return tk_op_pend(os, p, kind, in, in_len, NULL, 0, out, cap);
		tk_op_req(p, &r, PV_PHASE_ONESHOT);
		r.in = in;
		r.in_len = in_len;
		r.out = out;
		r.out_cap = tk_cap(cap, tk_op_bound(p, in_len) + 64);
		rc = tk_vault_call(&r);
		if (rc == PV_ERR_BUF_SMALL || (rc == PV_OK && out == NULL)) {
			/* a size query (or too small): the operation goes on */
			*out_len = (CK_ULONG)r.out_len;
			rv = out == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
			end = 0;
		} else {
			if (rc == PV_OK)
				*out_len = (CK_ULONG)r.out_len;
			rv = tk_rv_op(rc, kind);
		}
		tk_op_put(os, p, end);
		return rv;
	}
	/* too large for one request: multi-part inside */
	if (out == NULL || cap < tk_op_bound(p, in_len)) {
		*out_len = (CK_ULONG)tk_op_bound(p, in_len);
		tk_op_put(os, p, 0);
		return out == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
	}
	rc = tk_op_start(p);
	if (rc == PV_OK)
		rc = tk_op_feed(p, in, in_len, out, cap, &done);
	if (rc == PV_OK) {
		tk_op_req(p, &r, PV_PHASE_FINAL);
		if (p->buf_len > 0) {
			r.in = p->buf;
			r.in_len = p->buf_len;
		}
		r.out = out + done;
		r.out_cap = tk_cap(cap - done, p->buf_len + 64);
		rc = tk_vault_call(&r);
		fin = r.out_len;
	}
	if (rc == PV_OK)
		*out_len = (CK_ULONG)(done + fin);
	else if (done > 0)
		kc_wipe(out, done);
	tk_op_put(os, p, 1);
	return tk_rv_op(rc, kind);
}

CK_RV tk_op_update(CK_SESSION_HANDLE h, int kind, const uint8_t *in,
                   size_t in_len, uint8_t *out, CK_ULONG *out_len)
{
	tk_ops *os;
	tk_op *p;
	pv_req r;
	size_t done = 0;
	CK_RV rv = tk_op_take(h, kind, NEED_ACTIVE, &os, &p);
	int rc;

	if (rv != CKR_OK)
		return rv;
	kind = TK_KIND(kind);
	rc = tk_op_start(p);
	if (rc == PV_OK && out_len != NULL && !(kind == TK_OPK_DECRYPT && tk_is_gcm(p))) {
		size_t cap = out != NULL ? *out_len : 0;
		if (in_len <= TK_CHUNK) {
			/* ask the vault for the exact size; the state is kept */
			tk_op_req(p, &r, PV_PHASE_UPDATE);
			r.in = in;
			r.in_len = in_len;
			r.out = out;
			r.out_cap = tk_cap(cap, in_len + 32);
			rc = tk_vault_call(&r);
			if (rc == PV_ERR_BUF_SMALL || (rc == PV_OK && out == NULL)) {
				/* size query: the vault's new state is not kept */
				*out_len = (CK_ULONG)r.out_len;
				tk_op_put(os, p, 0);
				return out == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
			}
			if (rc == PV_OK) {
				tk_op_state(p, &r);
				*out_len = (CK_ULONG)r.out_len;
			}
			tk_op_put(os, p, rc != PV_OK);
			return tk_rv_op(rc, kind);
		}
		if (out == NULL || cap < in_len + 16) {
			*out_len = (CK_ULONG)(in_len + 16);
			tk_op_put(os, p, 0);
			return out == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
		}
		rc = tk_op_feed(p, in, in_len, out, cap, &done);
		if (rc == PV_OK)
			*out_len = (CK_ULONG)done;
	} else if (rc == PV_OK) {
		rc = tk_op_feed(p, in, in_len, NULL, 0, &done);
		if (out_len != NULL)
			*out_len = 0;
	}
	tk_op_put(os, p, rc != PV_OK);
	return tk_rv_op(rc, kind);
}

CK_RV tk_op_final(CK_SESSION_HANDLE h, int kind, uint8_t *out,
                  CK_ULONG *out_len)
{
	tk_ops *os;
	tk_op *p;
	pv_req r;
	CK_RV rv = tk_op_take(h, kind, NEED_ACTIVE, &os, &p);
	int rc, end = 1;

	if (rv != CKR_OK)
		return rv;
	rc = tk_op_start(p);
	if (rc == PV_OK) {
		tk_op_req(p, &r, PV_PHASE_FINAL);
		if (p->buf_len > 0) {
			r.in = p->buf;
			r.in_len = p->buf_len;
		}
		r.out = out;
		r.out_cap = out != NULL ? tk_cap(*out_len, p->buf_len + 64) : 0;
		rc = tk_vault_call(&r);
		if (rc == PV_ERR_BUF_SMALL || (rc == PV_OK && out == NULL)) {
			*out_len = (CK_ULONG)r.out_len;
			tk_op_put(os, p, 0);
			return out == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
		}
		if (rc == PV_OK)
			*out_len = (CK_ULONG)r.out_len;
	}
	tk_op_put(os, p, end);
	return tk_rv_op(rc, kind);
}

CK_RV tk_op_verify(CK_SESSION_HANDLE h, int kind, const uint8_t *in, size_t in_len,
                   const uint8_t *sig, size_t sig_len, int final)
{
	tk_ops *os;
	tk_op *p;
	pv_req r;
	size_t done;
	CK_RV rv = tk_op_take(h, kind, NEED_ACTIVE, &os, &p);
	int rc = PV_OK;

	if (rv != CKR_OK)
		return rv;
	if (!final && p->multi) {
		tk_op_put(os, p, 0);
		return CKR_OPERATION_ACTIVE;
	}
	if (p->vsig.sig != NULL) {
		sig = p->vsig.sig;
		sig_len = p->vsig.len;
	}
	if (!final && in_len + sig_len + tk_op_overhead(p) <= tk_vault_max_data()) {
		if (os->async_ok)
			return tk_op_pend(os, p, kind, in, in_len, sig, sig_len, NULL, 0);
		tk_op_req(p, &r, PV_PHASE_ONESHOT);
		r.in = in;
		r.in_len = in_len;
	} else {
		rc = tk_op_start(p);
		if (rc == PV_OK && !final)
			rc = tk_op_feed(p, in, in_len, NULL, 0, &done);
		tk_op_req(p, &r, PV_PHASE_FINAL);
	}
	if (rc == PV_OK) {
		r.in2 = sig;
		r.in2_len = sig_len;
		rc = tk_vault_call(&r);
	}
	tk_op_put(os, p, 1);
	return tk_rv_op(rc, TK_OPK_VERIFY);
}

/* C_DigestKey.  Digest states are plain (saveable) and pass through the
 * host, so only a key whose value may be read anyway (non-sensitive and
 * extractable, and not restricted to other mechanisms) is digested: its
 * value is fetched from the vault and fed as data.  Any other key is
 * CKR_KEY_INDIGESTIBLE (the operation goes on). */
CK_RV tk_op_digest_key(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE key)
{
	uint8_t v[PV_SECRET_MAX + 8];
	size_t vl = 0, done;
	tk_ops *os;
	tk_op *p;
	tk_obj *o = NULL;
	CK_RV rv = tk_op_take(h, TK_OPK_DIGEST, NEED_ACTIVE, &os, &p);
	int rc, end = 0;

	if (rv != CKR_OK)
		return rv;
	/* a key restricted to other mechanisms than the digest's is not
	 * digested: C_DigestKey's own code (CKR_MECHANISM_INVALID is not among
	 * its answers, and the digest's mechanism was accepted at its Init) */
	rv = tk_key_get(h, key, p->m.ckm, &o);
	if (rv == CKR_MECHANISM_INVALID)
		rv = CKR_KEY_INDIGESTIBLE;
	if (rv == CKR_OK && (tk_obj_ulong(o, CKA_CLASS, 0) != CKO_SECRET_KEY ||
	                     tk_obj_bool(o, CKA_SENSITIVE, CK_TRUE) ||
	                     !tk_obj_bool(o, CKA_EXTRACTABLE, CK_FALSE)))
		rv = CKR_KEY_INDIGESTIBLE;
	if (rv == CKR_OK)
		rv = tk_key_value(h, o, v, &vl);
	if (rv == CKR_OK) {
		rc = tk_op_start(p);
		if (rc == PV_OK)
			rc = tk_op_feed(p, v, vl, NULL, 0, &done);
		rv = tk_rv_from_pv(rc);
		end = rc != PV_OK;
	}
	kc_wipe(v, sizeof v);
	tk_obj_free(o);
	tk_op_put(os, p, end);
	return rv;
}

/* ---- operation state: digests only ----
 * Saved state = "PVOS" | version 1 | CKM (8 bytes, big endian) | vault
 * digest state (plain: header + hash context, checked by the vault). */
#define TK_OS_HDR 16

CK_RV tk_op_get_state(CK_SESSION_HANDLE h, uint8_t *out, CK_ULONG *len)
{
	tk_ops *os;
	tk_op *p;
	CK_RV rv;
	int i, rc;

	if (tk_ops_other_active(h, TK_OPK_DIGEST))
		return CKR_STATE_UNSAVEABLE;
	rv = tk_op_take(h, TK_OPK_DIGEST, NEED_ACTIVE, &os, &p);
	if (rv != CKR_OK)
		return rv;
	rc = tk_op_start(p);
	if (rc != PV_OK) {
		tk_op_put(os, p, 1);
		return tk_rv_from_pv(rc);
	}
	if (out != NULL && *len < TK_OS_HDR + p->state_len) {
		rv = CKR_BUFFER_TOO_SMALL;
	} else if (out != NULL) {
		uint64_t ckm = p->m.ckm;
		memcpy(out, "PVOS", 4);
		out[4] = 1; out[5] = out[6] = out[7] = 0;
		for (i = 0; i < 8; i++)
			out[8 + i] = (uint8_t)(ckm >> (56 - 8 * i));
		memcpy(out + TK_OS_HDR, p->state, p->state_len);
	}
	*len = (CK_ULONG)(TK_OS_HDR + p->state_len);
	tk_op_put(os, p, 0);
	return rv;
}

/* The mechanism of a saved state (pkcs11/ re-decodes it). */
static CK_RV tk_state_parse(const uint8_t *in, size_t len, CK_MECHANISM_TYPE *ckm)
{
	uint64_t v = 0;
	int i;

	if (len <= TK_OS_HDR || len - TK_OS_HDR > PV_STATE_MAX ||
	    memcmp(in, "PVOS", 4) != 0 || in[4] != 1)
		return CKR_SAVED_STATE_INVALID;
	for (i = 0; i < 8; i++)
		v = (v << 8) | in[8 + i];
	*ckm = (CK_MECHANISM_TYPE)v;
	return CKR_OK;
}

CK_RV tk_op_set_state(CK_SESSION_HANDLE h, const uint8_t *in, size_t len)
{
	return tk_op_set_state_mech(h, in, len, NULL);
}

CK_RV tk_op_set_state_mech(CK_SESSION_HANDLE h, const uint8_t *in, size_t len,
                           const tk_mech *m)
{
	CK_MECHANISM_TYPE ckm;
	tk_ops *os;
	tk_op *p;
	pv_req r;
	CK_RV rv = tk_state_parse(in, len, &ckm);
	int rc;

	if (rv != CKR_OK)
		return rv;
	if (m == NULL || m->ckm != ckm)
		return CKR_SAVED_STATE_INVALID;
	/* the state replaces any digest in progress */
	rv = tk_op_take(h, TK_OPK_DIGEST, NEED_ANY, &os, &p);
	if (rv != CKR_OK)
		return rv;
	tk_op_clear(p);
	p->m = *m;
	p->m.iv = p->m.aad = p->m.salt = NULL;
	p->m.iv_len = p->m.aad_len = p->m.salt_len = 0;
	p->pvop = PV_OP_DIGEST;
	memcpy(p->state, in + TK_OS_HDR, len - TK_OS_HDR);
	p->state_len = len - TK_OS_HDR;
	p->multi = 1;
	/* let the vault check it now: an empty update */
	tk_op_req(p, &r, PV_PHASE_UPDATE);
	rc = tk_vault_call(&r);
	if (rc == PV_OK)
		tk_op_state(p, &r);
	tk_op_put(os, p, rc != PV_OK);
	return rc == PV_ERR_STATE ? CKR_SAVED_STATE_INVALID : tk_rv_from_pv(rc);
}

/* For pkcs11/: the mechanism recorded in a saved state. */
CK_RV tk_op_state_mech(const uint8_t *in, size_t len, CK_MECHANISM_TYPE *ckm)
{
	return tk_state_parse(in, len, ckm);
}
