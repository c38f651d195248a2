/*
 * ve_pk.c - public-key keys in the vault: private-key blobs, GENERATE_PAIR,
 * IMPORT_KEY of private keys, and the dispatcher of every public-key
 * request (SIGN / VERIFY incl. multi-part hashing, ENCRYPT / DECRYPT,
 * DERIVE_KEY with ECDH).  See ve_pk.h for the blob payload and workspace.
 */
#include "ve_pk.h"

KC_API int ve_pk_is_type(uint32_t type)
{
	return type == PV_KEY_RSA || type == PV_KEY_EC_P256 || type == PV_KEY_EC_P384 ||
	       type == PV_KEY_ED25519 || type == PV_KEY_SM2;
}

KC_API int ve_pk_curve(uint32_t type)
{
	switch (type) {
	case PV_KEY_EC_P256: return KC_EC_P256;
	case PV_KEY_EC_P384: return KC_EC_P384;
	case PV_KEY_SM2: return KC_EC_SM2;
	default: return 0;
	}
}

KC_API uint32_t ve_pk_hash(uint32_t prf)
{
	if (prf == 0u || ve_mech_mode(prf) != VE_MODE_DIGEST)
		return 0u;
	return ve_mech_hash(prf);
}

/* Largest payload of a key of this type (0: not a public-key type). */
KC_PRIV uint32_t vpk_payload_len(uint32_t type)
{
	switch (type) {
	case PV_KEY_RSA: return VE_PK_RSA_LEN;
	case PV_KEY_EC_P256: case PV_KEY_SM2: return 97u;
	case PV_KEY_EC_P384: return 145u;
	case PV_KEY_ED25519: return 64u;
	default: return 0u;
	}
}

/* RSA payload widths for a key of `bits`: n and d in nb bytes, the CRT
 * numbers in hb (the core's limb counts: kc_rsa_core_nl / _hl). */
KC_PRIV void vpk_rsa_widths(uint32_t bits, uint32_t *nb, uint32_t *hb)
{
	*nb = 4u * ((bits + 31u) / 32u);
	*hb = 4u * (((bits + 1u) / 2u + 31u) / 32u);
}

KC_PRIV uint32_t vpk_rsa_len(uint32_t nb, uint32_t hb)
{
	return 8u + 2u * nb + 5u * hb;
}

/* 1 if a payload of len bytes may hold a key of this type. */
KC_PRIV int vpk_len_ok(uint32_t type, uint32_t len)
{
	uint32_t nb, hb;

	if (type != PV_KEY_RSA)
		return len != 0u && len == vpk_payload_len(type);
	vpk_rsa_widths(KC_RSA_MIN_BITS, &nb, &hb);
	return len >= vpk_rsa_len(nb, hb) && len <= VE_PK_RSA_LEN;
}

/* Bytes of a ve_pkey that a key of this type uses. */
KC_PRIV size_t vpk_extent(uint32_t type)
{
	return type == PV_KEY_RSA ? sizeof(ve_pkey) : offsetof(ve_pkey, rsa);
}

KC_API void ve_pk_zero(ve_pkey *k, uint32_t type)
{
	kc_memset(k, 0, vpk_extent(type));
	k->type = type;
}

KC_API void ve_pk_wipe(ve_pkey *k)
{
	kc_wipe(k, vpk_extent(k->type));
}

/* The RSA numbers in payload order, each a right-aligned kc_rsa_priv
 * field of cap bytes written in its last w bytes (n, d: nb; the rest hb).
 * Blob versions 4 and 2 (VE_BLOB_DLAST: what the vault seals): n p q dp dq
 * qinv d - the CRT needs no d, so a private operation decrypts the
 * payload without its last nb bytes (for RSA-2048 58 cipher blocks with
 * E(J0): one pass on the warp, not two).  Version 1: n d p q dp dq qinv
 * (vpk_rsa_v1), the payload of blob versions 1 and 3. */
#define VPK_RSA_FIELDS(k, nb, hb) { \
	{ (k)->rsa.n, KC_RSA_MAX_BYTES, (nb) }, \
	{ (k)->rsa.p, KC_RSA_MAX_HBYTES, (hb) }, { (k)->rsa.q, KC_RSA_MAX_HBYTES, (hb) }, \
	{ (k)->rsa.dp, KC_RSA_MAX_HBYTES, (hb) }, { (k)->rsa.dq, KC_RSA_MAX_HBYTES, (hb) }, \
	{ (k)->rsa.qinv, KC_RSA_MAX_HBYTES, (hb) }, { (k)->rsa.d, KC_RSA_MAX_BYTES, (nb) } }
typedef struct { const uint8_t *f; uint32_t cap, w; } vpk_cfield;
typedef struct { uint8_t *f; uint32_t cap, w; } vpk_mfield;

/* Version 1's order from version 2's: d second instead of last. */
KC_PRIV void vpk_rsa_v1(vpk_mfield fl[7])
{
	const vpk_mfield d = fl[6];
	uint32_t i;

	for (i = 6u; i > 1u; i--)
		fl[i] = fl[i - 1u];
	fl[1] = d;
}

/* Serialize k's key material into buf in blob version 2's layout (1 for
 * the other types: the same); returns the payload length.  An RSA key
 * takes the widths of its size (vpk_rsa_widths), or those of the largest
 * size (VE_PK_RSA_LEN: every field whole) if a number does not fit them. */
KC_PRIV uint32_t vpk_pack(const ve_pkey *k, uint8_t *buf)
{
	uint32_t nb, hb, o, i, j, over = 0;

	if (k->type != PV_KEY_RSA) {
		kc_memcpy(buf, k->d, k->flen);
		kc_memcpy(buf + k->flen, k->pub, k->publen);
		return k->flen + k->publen;
	}
	vpk_rsa_widths(k->rsa.bits, &nb, &hb);
	{
		const vpk_cfield fl[7] = VPK_RSA_FIELDS(k, nb, hb);
		for (i = 0; i < 7u; i++)
			for (j = 0; j < fl[i].cap - fl[i].w; j++)
				over |= fl[i].f[j];
		if (over != 0u)
			nb = KC_RSA_MAX_BYTES, hb = KC_RSA_MAX_HBYTES;
	}
	{
		const vpk_cfield fl[7] = VPK_RSA_FIELDS(k, nb, hb);
		kc_store_be32(buf, k->rsa.bits);
		kc_store_be32(buf + 4, k->rsa.e);
		for (i = 0, o = 8u; i < 7u; o += fl[i].w, i++)
			kc_memcpy(buf + o, fl[i].f + fl[i].cap - fl[i].w, fl[i].w);
		return o;
	}
}

/* nb of an RSA payload of len bytes (public, from the blob's header):
 * that of the size whose widths give len (they depend on bits / 32 only),
 * KC_RSA_MAX_BYTES for VE_PK_RSA_LEN; 0 if none. */
KC_PRIV uint32_t vpk_rsa_nb(uint32_t len)
{
	uint32_t a, nb, hb;

	if (len == VE_PK_RSA_LEN)
		return KC_RSA_MAX_BYTES;
	for (a = (KC_RSA_MIN_BITS + 31u) / 32u; a <= KC_RSA_MAX_BITS / 32u; a++) {
		vpk_rsa_widths(32u * a, &nb, &hb);
		if (vpk_rsa_len(nb, hb) == len)
			return nb;
	}
	return 0u;
}

/* k's key material from a payload of len bytes (vpk_len_ok) in blob
 * version ver's layout, of which the first plen bytes are in buf (an RSA
 * field beyond them - version 2's d - stays zero); PV_ERR_WRAPPED if an
 * RSA payload's length is not that of its size's widths nor
 * VE_PK_RSA_LEN.  k is zero but for the type, usage and len. */
KC_PRIV int vpk_unpack(ve_pkey *k, const uint8_t *buf, uint32_t len, uint32_t ver, uint32_t plen)
{
	uint32_t nb, hb, o, i, bits;

	if (k->type != PV_KEY_RSA) {
		k->flen = k->type == PV_KEY_ED25519 ? 32u : (uint32_t)kc_ec_flen(ve_pk_curve(k->type));
		k->publen = k->type == PV_KEY_ED25519 ? 32u : 1u + 2u * k->flen;
		kc_memcpy(k->d, buf, k->flen);
		kc_memcpy(k->pub, buf + k->flen, k->publen);
		return PV_OK;
	}
	bits = kc_load_be32(buf);
	if (bits < KC_RSA_MIN_BITS || bits > KC_RSA_MAX_BITS)
		return PV_ERR_WRAPPED;
	vpk_rsa_widths(bits, &nb, &hb);
	if (len == VE_PK_RSA_LEN)
		nb = KC_RSA_MAX_BYTES, hb = KC_RSA_MAX_HBYTES;
	else if (len != vpk_rsa_len(nb, hb))
		return PV_ERR_WRAPPED;
	k->rsa.bits = bits;
	k->rsa.e = kc_load_be32(buf + 4);
	{
		vpk_mfield fl[7] = VPK_RSA_FIELDS(k, nb, hb);
		if (!VE_BLOB_DLAST(ver))
			vpk_rsa_v1(fl);
		for (i = 0, o = 8u; i < 7u; o += fl[i].w, i++) {
			if (o + fl[i].w > plen) {              /* not decrypted */
				kc_memset(fl[i].f, 0, fl[i].cap);
				continue;
			}
			kc_memset(fl[i].f, 0, fl[i].cap - fl[i].w);
			kc_memcpy(fl[i].f + fl[i].cap - fl[i].w, buf + o, fl[i].w);
		}
	}
	return PV_OK;
}

/* Seal k (type, usage, policy set) under kek with identity id and the
 * allowed-list digest into o (cap bytes); *olen = the blob length (also
 * on BUF_SMALL). */
KC_PRIV int vpk_seal_raw(const ve_kek *kek, ve_worker *w, const ve_pkey *k, uint32_t nmechs,
                         const uint8_t mdig[16], const uint8_t id[PV_OBJ_ID_LEN], uint8_t *o,
                         uint32_t cap, uint32_t *olen)
{
	uint8_t buf[VE_PK_RSA_LEN] KC_ALIGN16;
	uint32_t len = vpk_payload_len(k->type);
	ve_bhdr h;
	int rc;

	*olen = PV_BLOB_OVERHEAD + len;
	if (len == 0u)
		return PV_ERR_KEY_TYPE;
	if (cap < PV_BLOB_OVERHEAD + len)
		return PV_ERR_BUF_SMALL;
	len = vpk_pack(k, buf);
	*olen = PV_BLOB_OVERHEAD + len;
	kc_memset(&h, 0, sizeof h);
	h.ver = k->type == PV_KEY_RSA ? VE_BLOB_V_RSA_DLAST : VE_BLOB_VERSION;
	h.type = k->type;
	h.usage = k->usage;
	h.len = len;
	h.policy = k->policy;
	h.nmechs = nmechs;
	kc_memcpy(h.mdig, mdig, 16);
	rc = ve_blob_encrypt(kek, w, &h, buf, id, o);
	kc_wipe(buf, len);
	return rc;
}

KC_API int ve_pk_seal(ve_req *r, ve_pkey *k, ve_span out)
{
	const ve_kek *kek;
	ve_bhdr h;
	uint32_t olen = 0;
	int rc;

	kc_memset(&h, 0, sizeof h);
	rc = ve_req_new_blob(r, &h, &kek);
	if (rc != PV_OK)
		return rc;
	k->policy = h.policy;
	rc = vpk_seal_raw(kek, r->w, k, h.nmechs, h.mdig, r->d.new_id, ve_wptr(r, out), out.len,
	                  &olen);
	r->res->out_len = olen;
	return rc;
}

/* Open the private-key blob b with parsed header h under kek with identity
 * id; without whole, an RSA key of a d-last blob without d (a private
 * operation's: the CRT needs none).  PV_ERR_WRAPPED for any mismatch. */
KC_PRIV int vpk_open_raw(const ve_kek *kek, const ve_bhdr *h, const uint8_t *b,
                         const uint8_t id[PV_OBJ_ID_LEN], int whole, ve_pkey *k)
{
	uint8_t buf[VE_BLOB_W(VE_PK_RSA_LEN)] KC_ALIGN16;
	uint32_t plen;
	int rc;

	ve_pk_zero(k, 0u);
	if (!ve_pk_is_type(h->type) || !vpk_len_ok(h->type, h->len))
		return PV_ERR_WRAPPED;
	plen = h->len;
	if (VE_BLOB_DLAST(h->ver) && !whole) {
		const uint32_t nb = vpk_rsa_nb(h->len);
		if (nb == 0u)
			return PV_ERR_WRAPPED;
		plen = h->len - nb;
	}
	rc = ve_blob_decrypt(kek, h, b, id, plen, buf);   /* the payload: buf + 16 */
	KC_PROF(13);
	if (rc == PV_OK) {
		k->type = h->type;
		k->usage = h->usage;
		k->len = h->len;
		k->policy = h->policy;
		rc = vpk_unpack(k, buf + 16, h->len, h->ver, plen);
	}
	kc_wipe(buf, VE_BLOB_W(plen));
	if (rc != PV_OK)
		ve_pk_wipe(k);
	return rc;
}

/* Open the request's key blob (identity key_id, expected key_type if set)
 * through the policy checks and check the usage. */
KC_API int ve_pk_open(const ve_req *r, uint32_t usage, ve_pkey *k)
{
	const ve_kek *kek;
	ve_bhdr h;
	int rc;

	rc = ve_req_blob(r, r->d.key, r->d.key_type, PV_PKBLOB_MAX, 1u, &h, &kek);
	if (rc != PV_OK) {
		ve_pk_zero(k, 0u);
		return rc;
	}
	rc = vpk_open_raw(kek, &h, ve_ptr(r, r->d.key), r->d.key_id, 0, k);
	if (rc == PV_OK && (k->usage & usage) != usage) {
		ve_pk_wipe(k);
		rc = PV_ERR_PERM;
	}
	KC_PROF(0);
	return rc;
}

KC_API int ve_pk_blob_is_pk(const uint8_t *blob, uint32_t blen)
{
	return blen >= VE_BLOB_HDR_V1 && ve_pk_is_type(kc_load_be32(blob + 4));
}

KC_API int ve_pk_rewrap(const ve_kek *from, const ve_kek *to, ve_worker *w,
                        const ve_bhdr *h, const uint8_t *blob,
                        const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out,
                        uint32_t cap, uint32_t *outlen)
{
	ve_pkey k;
	int rc;

	rc = vpk_open_raw(from, h, blob, id, 1, &k);
	if (rc == PV_OK)
		rc = vpk_seal_raw(to, w, &k, h->nmechs, h->mdig, id, out, cap, outlen);
	ve_pk_wipe(&k);
	return rc;
}

/* Public encoding of k into out2 (size query friendly). */
KC_API int ve_pk_pub_out(ve_req *r, const ve_pkey *k)
{
	uint8_t *o = ve_wptr(r, r->d.out2);
	uint32_t need;
	size_t kb;

	if (r->d.out2.len == 0u)
		return PV_OK;                /* public part not asked for */

	if (k->type == PV_KEY_RSA) {
		kb = kc_rsa_len(k->rsa.bits);
		need = (uint32_t)kb + 4u;
		r->res->out2_len = need;
		if (r->d.out2.len < need)
			return PV_ERR_BUF_SMALL;
		kc_memcpy(o, k->rsa.n + KC_RSA_MAX_BYTES - kb, kb);
		kc_store_be32(o + kb, k->rsa.e);
		return PV_OK;
	}
	need = k->publen;
	r->res->out2_len = need;
	if (r->d.out2.len < need)
		return PV_ERR_BUF_SMALL;
	kc_memcpy(o, k->pub, need);
	return PV_OK;
}

KC_API int ve_pk_rsa_pub(const uint8_t *in, uint32_t len, kc_rsa_pub *pk)
{
	uint32_t kb, bits, t;

	kc_memset(pk, 0, sizeof *pk);
	if (len < 5u || len - 4u > KC_RSA_MAX_BYTES)
		return PV_ERR_PUBKEY;
	kb = len - 4u;
	if (in[0] == 0u)
		return PV_ERR_PUBKEY;
	bits = 8u * kb;
	for (t = in[0]; t < 0x80u; t <<= 1)
		bits--;
	if (bits < KC_RSA_MIN_BITS)
		return PV_ERR_KEY_SIZE;
	pk->bits = bits;
	pk->e = kc_load_be32(in + kb);
	kc_memcpy(pk->n + KC_RSA_MAX_BYTES - kb, in, kb);
	return kc_rsa_pub_check(pk);
}

/* ---- GENERATE_PAIR ------------------------------------------------------ */

/* vpk_genpair and vpk_import are KC_OUTLINE: each holds a whole private
 * key (ve_pkey), which inlined would sit in ve_op_pk's frame, under every
 * public-key job (docs/gpu-kernel.md, cuda-frame-paths). */

KC_OUTLINE int vpk_genpair(ve_req *r)
{
	ve_pkey k;
	uint32_t type, e = 65537u, i;
	const uint8_t *in = ve_ptr(r, r->d.in);
	int rc, curve;

	switch (r->d.mech) {
	case PV_MECH_RSA_KEY_PAIR_GEN: type = PV_KEY_RSA; break;
	case PV_MECH_EC_KEY_PAIR_GEN:
		type = r->d.new_type;
		if (type != PV_KEY_EC_P256 && type != PV_KEY_EC_P384 && type != PV_KEY_SM2)
			return r->d.new_type == 0u ? PV_ERR_ARGS : PV_ERR_DOMAIN;
		break;
	case PV_MECH_SM2_KEY_PAIR_GEN: type = PV_KEY_SM2; break;
	case PV_MECH_EDDSA_KEY_PAIR_GEN: type = PV_KEY_ED25519; break;
	default: return PV_ERR_MECHANISM;
	}
	if (r->d.new_type != 0u && r->d.new_type != type)
		return PV_ERR_KEY_TYPE;
	if (r->d.phase != PV_PHASE_ONESHOT)
		return PV_ERR_ARGS;
	if (type == PV_KEY_RSA) {
		if (r->d.new_len < KC_RSA_MIN_BITS || r->d.new_len > KC_RSA_MAX_BITS ||
		    (r->d.new_len & 1u) != 0u)
			return PV_ERR_KEY_SIZE;
		if (r->d.in.len != 0u) {
			for (i = 0, e = 0; i < r->d.in.len; i++) {
				if (e >= (1u << 23))
					return PV_ERR_MECH_PARAM;
				e = (e << 8) | in[i];
			}
			if (e < 3u || (e & 1u) == 0u || e >= 0x80000000u)
				return PV_ERR_MECH_PARAM;
		}
	}
	/* size check before the (slow) generation */
	r->res->out_len = PV_BLOB_OVERHEAD + vpk_payload_len(type);
	if (r->d.out.len < r->res->out_len)
		return PV_ERR_BUF_SMALL;
	ve_pk_zero(&k, type);
	k.usage = r->d.new_usage;
	if (type == PV_KEY_RSA) {
		rc = kc_rsa_keygen(&r->w->drbg, r->d.new_len, e, &k.rsa);
	} else if (type == PV_KEY_ED25519) {
		k.flen = 32u;
		k.publen = 32u;
		rc = kc_ed25519_keygen(&r->w->drbg, k.d, k.pub);
	} else {
		curve = ve_pk_curve(type);
		k.flen = (uint32_t)kc_ec_flen(curve);
		k.publen = 1u + 2u * k.flen;
		rc = kc_ec_keygen(curve, &r->w->drbg, k.d, k.pub);
	}
	if (rc == PV_OK)
		rc = ve_pk_pub_out(r, &k);
	if (rc == PV_OK)
		rc = ve_pk_seal(r, &k, r->d.out);
	ve_pk_wipe(&k);
	return rc;
}

/* ---- IMPORT_KEY of a private key ---------------------------------------- */

/* Next be16-length field of the RSA import encoding, right-aligned into
 * dst (cap bytes); leading zero bytes are skipped. */
KC_PRIV int vpk_field(const uint8_t *in, uint32_t len, uint32_t *pos, uint8_t *dst, uint32_t cap)
{
	uint32_t n, p = *pos;

	if (len - p < 2u)
		return PV_ERR_ARGS;
	n = ((uint32_t)in[p] << 8) | in[p + 1u];
	p += 2u;
	if (len - p < n)
		return PV_ERR_ARGS;
	*pos = p + n;
	while (n > 0u && in[p] == 0u) {
		p++;
		n--;
	}
	if (n > cap)
		return PV_ERR_KEY_SIZE;
	kc_memcpy(dst + cap - n, in + p, n);
	return PV_OK;
}

KC_OUTLINE int vpk_import(ve_req *r)
{
	ve_pkey k;
	const uint8_t *in = ve_ptr(r, r->d.in);
	uint32_t len = r->d.in.len, pos = 0, i, kb;
	uint8_t ebuf[4];
	int rc = PV_OK, curve;

	ve_pk_zero(&k, r->d.new_type);
	k.usage = r->d.new_usage;
	r->res->out_len = PV_BLOB_OVERHEAD + vpk_payload_len(k.type);
	if (r->d.out.len < r->res->out_len)
		return PV_ERR_BUF_SMALL;
	if (k.type == PV_KEY_RSA) {
		kc_memset(ebuf, 0, 4);
		if ((rc = vpk_field(in, len, &pos, k.rsa.n, KC_RSA_MAX_BYTES)) == PV_OK &&
		    (rc = vpk_field(in, len, &pos, ebuf, 4u)) == PV_OK &&
		    (rc = vpk_field(in, len, &pos, k.rsa.d, KC_RSA_MAX_BYTES)) == PV_OK &&
		    (rc = vpk_field(in, len, &pos, k.rsa.p, KC_RSA_MAX_HBYTES)) == PV_OK &&
		    (rc = vpk_field(in, len, &pos, k.rsa.q, KC_RSA_MAX_HBYTES)) == PV_OK &&
		    (rc = vpk_field(in, len, &pos, k.rsa.dp, KC_RSA_MAX_HBYTES)) == PV_OK &&
		    (rc = vpk_field(in, len, &pos, k.rsa.dq, KC_RSA_MAX_HBYTES)) == PV_OK)
			rc = vpk_field(in, len, &pos, k.rsa.qinv, KC_RSA_MAX_HBYTES);
		if (rc == PV_OK && pos != len)
			rc = PV_ERR_ARGS;
		if (rc == PV_OK) {
			k.rsa.e = kc_load_be32(ebuf);
			for (i = 0; i < KC_RSA_MAX_BYTES && k.rsa.n[i] == 0u; i++)
				;
			kb = KC_RSA_MAX_BYTES - i;
			k.rsa.bits = 8u * kb;
			if (kb > 0u) {
				uint32_t t;
				for (t = k.rsa.n[i]; t < 0x80u; t <<= 1)
					k.rsa.bits--;
			}
			if (k.rsa.bits < KC_RSA_MIN_BITS || k.rsa.bits > KC_RSA_MAX_BITS)
				rc = PV_ERR_KEY_SIZE;
		}
		if (rc == PV_OK)
			rc = kc_rsa_priv_check(&k.rsa);
	} else if (k.type == PV_KEY_ED25519) {
		if (len != 32u) {
			rc = PV_ERR_KEY_SIZE;
		} else {
			k.flen = 32u;
			k.publen = 32u;
			kc_memcpy(k.d, in, 32u);
			rc = kc_ed25519_pubkey(k.d, k.pub);
		}
	} else if ((curve = ve_pk_curve(k.type)) != 0) {
		k.flen = (uint32_t)kc_ec_flen(curve);
		k.publen = 1u + 2u * k.flen;
		while (len > 0u && in[0] == 0u && len > k.flen) {
			in++;
			len--;
		}
		if (len == 0u || len > k.flen) {
			rc = PV_ERR_KEY_SIZE;
		} else {
			kc_memcpy(k.d + k.flen - len, in, len);
			rc = kc_ec_priv_check(curve, k.d);
			if (rc == PV_OK && k.type == PV_KEY_SM2) {
				/* SM2 needs d <= n - 2: sign with it once as the check */
				uint8_t e[32], sig[64];
				kc_memset(e, 1, sizeof e);
				rc = kc_sm2_sign_digest(k.d, e, NULL, sig);
				kc_wipe(sig, sizeof sig);
			}
			if (rc == PV_OK)
				rc = kc_ec_pubkey(curve, k.d, k.pub);
		}
	} else {
		rc = PV_ERR_KEY_TYPE;
	}
	if (rc == PV_ERR_ARGS && k.type != PV_KEY_RSA)
		rc = PV_ERR_KEY_SIZE;       /* scalar 0 or >= n */
	if (rc == PV_ERR_PUBKEY)
		rc = PV_ERR_KEY_SIZE;
	if (rc == PV_OK)
		rc = ve_pk_pub_out(r, &k);
	if (rc == PV_OK)
		rc = ve_pk_seal(r, &k, r->d.out);
	ve_pk_wipe(&k);
	kc_wipe(ebuf, sizeof ebuf);
	return rc;
}

/* ---- SIGN / VERIFY dispatch (with multi-part hashing) -------------------- */

#define VE_MODE_PKHASH 0x40u

KC_PRIV int vpk_sign_family_ok(const ve_req *r)
{
	switch (r->d.mech) {
	case PV_MECH_RSA_PKCS: case PV_MECH_RSA_PKCS_PSS: case PV_MECH_RSA_X_509:
	case PV_MECH_ECDSA: case PV_MECH_SM2_SIGN: case PV_MECH_EDDSA:
		return 1;
	default:
		return 0;
	}
}

/* Run the signature op on a final digest (or the raw input). */
KC_PRIV int vpk_sig_final(ve_req *r, const uint8_t *in, uint32_t inlen, uint32_t hashed)
{
	uint32_t sign = r->d.op == PV_OP_SIGN;

	switch (r->d.mech) {
	case PV_MECH_RSA_PKCS: case PV_MECH_RSA_PKCS_PSS: case PV_MECH_RSA_X_509:
		return sign ? ve_pk_rsa_sign(r, in, inlen, hashed) : ve_pk_rsa_verify(r, in, inlen, hashed);
	case PV_MECH_ECDSA: case PV_MECH_SM2_SIGN:
		return sign ? ve_pk_ec_sign(r, in, inlen) : ve_pk_ec_verify(r, in, inlen);
	default:
		return PV_ERR_MECHANISM;
	}
}

/* Start the in-vault hash of a SIGN/VERIFY: alg from prf (SM2: SM3 over
 * Z first). */
KC_PRIV int vpk_hash_start(ve_req *r, ve_mp *mp)
{
	uint8_t z[32];
	uint32_t alg;
	int rc;

	kc_memset(mp, 0, sizeof *mp);
	if (r->d.mech == PV_MECH_SM2_SIGN) {
		alg = KC_HASH_SM3;
	} else {
		alg = ve_pk_hash(r->d.prf);
		if (alg == 0u)
			return PV_ERR_MECH_PARAM;
	}
	mp->magic = VE_MP_MAGIC;
	mp->op = r->d.op;
	mp->mech = r->d.mech;
	mp->mode = VE_MODE_PKHASH;
	mp->num = r->d.prf;
	mp->tag_len = r->d.tag_len;
	mp->ctr_bits = r->d.ctr_bits;
	kc_memcpy(mp->iv, r->d.key_id, 16);
	rc = kc_hash_init(&mp->u.hash, alg);
	if (rc == PV_OK && r->d.mech == PV_MECH_SM2_SIGN) {
		rc = ve_pk_sm2_z(r, z);
		if (rc == PV_OK)
			kc_hash_update(&mp->u.hash, z, 32);
		kc_wipe(z, sizeof z);
	}
	return rc;
}

KC_PRIV int vpk_sig(ve_req *r)
{
	ve_mp mp;
	uint8_t h[KC_HASH_MAX_LEN];
	uint32_t hashing = (r->d.flags & PV_F_HASH_DATA) != 0u;
	uint32_t hl;
	int rc;

	if (!vpk_sign_family_ok(r))
		return PV_ERR_MECHANISM;
	if (r->d.op == PV_OP_SIGN && r->d.key_type == 0u && r->d.key.len == 0u)
		return PV_ERR_ARGS;
	if (r->d.mech == PV_MECH_EDDSA)
		return r->d.phase == PV_PHASE_ONESHOT ? ve_pk_eddsa(r) : PV_ERR_MECHANISM;
	if (!hashing) {
		if (r->d.phase != PV_PHASE_ONESHOT)
			return PV_ERR_MECHANISM;
		return vpk_sig_final(r, ve_ptr(r, r->d.in), r->d.in.len, 0u);
	}
	switch (r->d.phase) {
	case PV_PHASE_ONESHOT:
		rc = vpk_hash_start(r, &mp);
		if (rc == PV_OK)
			kc_hash_update(&mp.u.hash, ve_ptr(r, r->d.in), r->d.in.len);
		break;
	case PV_PHASE_INIT:
		if (r->d.in.len != 0u)
			return PV_ERR_ARGS;
		rc = vpk_hash_start(r, &mp);
		if (rc == PV_OK)
			rc = ve_state_seal(r, &mp);
		kc_wipe(&mp, sizeof mp);
		return rc;
	case PV_PHASE_UPDATE: case PV_PHASE_FINAL:
		rc = ve_state_open(r, &mp);
		if (rc == PV_OK && (mp.mode != VE_MODE_PKHASH || mp.num != r->d.prf ||
		                    kc_hash_check(&mp.u.hash) != PV_OK))
			rc = PV_ERR_STATE;
		if (rc == PV_OK && r->d.op == PV_OP_SIGN && !kc_ct_eq(mp.iv, r->d.key_id, 16))
			rc = PV_ERR_STATE;
		if (rc == PV_OK && r->d.in.len != 0u)
			kc_hash_update(&mp.u.hash, ve_ptr(r, r->d.in), r->d.in.len);
		if (rc == PV_OK && r->d.phase == PV_PHASE_UPDATE) {
			rc = ve_state_seal(r, &mp);
			kc_wipe(&mp, sizeof mp);
			return rc;
		}
		break;
	default:
		return PV_ERR_ARGS;
	}
	if (rc == PV_OK) {
		hl = (uint32_t)kc_hash_len(mp.u.hash.alg);
		kc_hash_final(&mp.u.hash, h);
		rc = vpk_sig_final(r, h, hl, 1u);
	}
	kc_wipe(&mp, sizeof mp);
	kc_wipe(h, sizeof h);
	return rc;
}

/* ---- entry points ---------------------------------------------------------- */

KC_API uint32_t ve_pk_claims(const ve_desc *d)
{
	if (d->mech >= 0x1000u && d->mech < 0x1400u)
		return 1u;
	if (d->op == PV_OP_GENERATE_PAIR)
		return 1u;
	return (uint32_t)(d->op == PV_OP_IMPORT_KEY && ve_pk_is_type(d->new_type));
}

KC_API int ve_op_pk(ve_req *r)
{
	switch (r->d.op) {
	case PV_OP_GENERATE_PAIR:
		return vpk_genpair(r);
	case PV_OP_IMPORT_KEY:
		if (r->d.phase != PV_PHASE_ONESHOT)
			return PV_ERR_ARGS;
		return vpk_import(r);
	case PV_OP_SIGN: case PV_OP_VERIFY:
		return vpk_sig(r);
	case PV_OP_ENCRYPT: case PV_OP_DECRYPT:
		if (r->d.phase != PV_PHASE_ONESHOT)
			return PV_ERR_MECHANISM;
		if (r->d.mech == PV_MECH_SM2_ENCRYPT)
			return ve_pk_sm2_crypt(r);
		if (r->d.mech == PV_MECH_RSA_PKCS || r->d.mech == PV_MECH_RSA_PKCS_OAEP ||
		    r->d.mech == PV_MECH_RSA_X_509)
			return ve_pk_rsa_crypt(r);
		return PV_ERR_MECHANISM;
	case PV_OP_DERIVE_KEY:
		if (r->d.mech != PV_MECH_ECDH1_DERIVE || r->d.phase != PV_PHASE_ONESHOT)
			return PV_ERR_MECHANISM;
		return ve_pk_ecdh(r);
	default:
		return PV_ERR_MECHANISM;
	}
}
