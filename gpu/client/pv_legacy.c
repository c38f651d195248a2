/*
 * pv_legacy.c - keys out of master-key blobs for the token migration
 * (pv_legacy.h).
 *
 * The payload layouts are those of gpu/engine/ve_pk.h (private keys) and
 * ve_blob.c (secret keys); the RSA field order depends on the blob
 * version: d second in versions 1 and 3, last in 2 and 4 (VE_BLOB_DLAST).
 */
#include "gpu/client/pv_keyboot.h"
#include "gpu/client/pv_legacy.h"
#include "gpu/engine/ve_pk.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_secmem.h"
#include "gpu/host/pv_secstack.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

#include <stdlib.h>
#include <string.h>

/* The largest payload: RSA in the widths of 4096 bits. */
#define LG_W VE_BLOB_W(VE_PK_RSA_LEN)

struct pv_legacy {
	ve_vault *v;              /* secmem */
	uint8_t *w;               /* secmem: a blob's payload, LG_W bytes */
	pv_secstack *st;
	char fpr[17];
};

int pv_legacy_mechs(const uint8_t *blob, size_t len, uint32_t *n, uint8_t dig[16])
{
	ve_bhdr h;
	int rc;

	*n = 0;
	memset(dig, 0, 16);
	if (len > PV_PKBLOB_MAX)
		return PV_ERR_WRAPPED;
	rc = ve_blob_parse(blob, (uint32_t)len, PV_PKBLOB_MAX, 0u, VE_BP_LEGACY, &h);
	if (rc != PV_OK)
		return rc;
	*n = h.nmechs;
	memcpy(dig, h.mdig, 16);
	return PV_OK;
}

void pv_legacy_close(pv_legacy *l)
{
	if (l == NULL)
		return;
	if (l->v) {
		ve_vault_clear(l->v);
		pv_secmem_free(l->v);
	}
	pv_secmem_free(l->w);     /* wipes */
	pv_secstack_free(l->st);
	free(l);
}

/* An engine call with its arguments, for pv_secstack_call. */
typedef struct lg_job {
	pv_legacy *l;
	const uint8_t *blob, *id; /* key */
	uint32_t len;
	uint8_t *out;
	size_t cap, out_len;
	uint32_t type, usage, policy;
	int rc;
} lg_job;

int pv_legacy_open(const char *path, const char *pass, pv_legacy **out)
{
	pv_legacy *l = (pv_legacy *)calloc(1, sizeof *l);
	int rc;

	*out = NULL;
	if (l == NULL)
		return PV_ERR_NOMEM;
	l->v = (ve_vault *)pv_secmem_alloc(sizeof *l->v);
	l->w = (uint8_t *)pv_secmem_alloc(LG_W);
	l->st = pv_secstack_new(0);
	if (l->v == NULL || l->w == NULL || l->st == NULL) {
		pv_legacy_close(l);
		return PV_ERR_NOMEM;
	}
	rc = pv_keyboot(l->st, path, pass, l->v, l->fpr);
	if (rc != PV_OK) {
		pv_legacy_close(l);
		return rc;
	}
	*out = l;
	return PV_OK;
}

void pv_legacy_fpr(const pv_legacy *l, char fpr[17])
{
	memcpy(fpr, l->fpr, 17);
}

/* Append a big-endian 16-bit length and the n bytes at p to out. */
static int lg_field(const uint8_t *p, size_t n, uint8_t *out, size_t cap, size_t *pos)
{
	if (cap - *pos < 2 + n)
		return PV_ERR_BUF_SMALL;
	out[*pos] = (uint8_t)(n >> 8);
	out[*pos + 1] = (uint8_t)n;
	memcpy(out + *pos + 2, p, n);
	*pos += 2 + n;
	return PV_OK;
}

/* RSA payload pl (len bytes, blob version ver) as IMPORT_KEY's eight
 * fields: n e d p q dp dq qinv. */
static int lg_rsa(const uint8_t *pl, uint32_t len, uint32_t ver, uint8_t *out, size_t cap,
                  size_t *olen)
{
	/* payload order: n, then d (versions 1, 3) or the CRT numbers (2, 4) */
	static const int v1[7] = { 0, 2, 3, 4, 5, 6, 7 };   /* n d p q dp dq qinv */
	static const int v2[7] = { 0, 3, 4, 5, 6, 7, 2 };   /* n p q dp dq qinv d */
	const uint8_t *f[8];
	size_t w[8], pos = 0, o = 8;
	uint32_t bits, nb, hb, i;
	const int *ord = VE_BLOB_DLAST(ver) ? v2 : v1;
	int rc = PV_OK;

	if (len < 8)
		return PV_ERR_WRAPPED;
	bits = kc_load_be32(pl);
	if (bits < KC_RSA_MIN_BITS || bits > KC_RSA_MAX_BITS)
		return PV_ERR_WRAPPED;
	if (len == VE_PK_RSA_LEN) {
		nb = KC_RSA_MAX_BYTES;
		hb = KC_RSA_MAX_HBYTES;
	} else {
		nb = 4u * ((bits + 31u) / 32u);
		hb = 4u * (((bits + 1u) / 2u + 31u) / 32u);
		if (len != 8u + 2u * nb + 5u * hb)
			return PV_ERR_WRAPPED;
	}
	f[1] = pl + 4;                                   /* e */
	w[1] = 4;
	for (i = 0; i < 7; i++) {
		const int k = ord[i];
		w[k] = (k == 0 || k == 2) ? nb : hb;
		f[k] = pl + o;
		o += w[k];
	}
	for (i = 0; i < 8 && rc == PV_OK; i++)
		rc = lg_field(f[i], w[i], out, cap, &pos);
	*olen = pos;
	return rc;
}

static void lg_key(void *arg)
{
	lg_job *j = (lg_job *)arg;
	const uint8_t *pl = j->l->w + 16;
	size_t n = 0;
	ve_bhdr h;
	int rc;

	j->out_len = 0;
	rc = ve_blob_parse(j->blob, j->len, PV_PKBLOB_MAX, 0u, VE_BP_LEGACY, &h);
	if (rc == PV_OK && ((h.policy & PV_POL_TOKEN) != 0u || h.type == PV_KEY_TOKEN_REC ||
	                    VE_BLOB_W(h.len) > LG_W))
		rc = PV_ERR_WRAPPED;
	if (rc == PV_OK)
		rc = ve_blob_decrypt(&j->l->v->kek, &h, j->blob, j->id, h.len, j->l->w);
	if (rc != PV_OK) {
		j->rc = PV_ERR_WRAPPED;
		return;
	}
	switch (h.type) {
	case PV_KEY_GENERIC: case PV_KEY_AES: case PV_KEY_SM4:
		rc = ve_key_len_ok(h.type, h.len) != PV_OK ? PV_ERR_WRAPPED : PV_OK;
		n = h.len;
		break;
	case PV_KEY_EC_P256: case PV_KEY_SM2:
		rc = h.len == 97u ? PV_OK : PV_ERR_WRAPPED;    /* d (32) | 04 X Y */
		n = 32;
		break;
	case PV_KEY_EC_P384:
		rc = h.len == 145u ? PV_OK : PV_ERR_WRAPPED;   /* d (48) | 04 X Y */
		n = 48;
		break;
	case PV_KEY_ED25519:
		rc = h.len == 64u ? PV_OK : PV_ERR_WRAPPED;    /* seed | public */
		n = 32;
		break;
	case PV_KEY_RSA:
		rc = lg_rsa(pl, h.len, h.ver, j->out, j->cap, &j->out_len);
		break;
	default:
		rc = PV_ERR_WRAPPED;
		break;
	}
	if (rc == PV_OK && h.type != PV_KEY_RSA) {
		if (n > j->cap)
			rc = PV_ERR_BUF_SMALL;
		else
			memcpy(j->out, pl, n);
		j->out_len = n;
	}
	if (rc != PV_OK && rc != PV_ERR_BUF_SMALL)
		j->out_len = 0;
	if (rc != PV_OK)
		kc_wipe(j->out, j->cap);
	kc_wipe(j->l->w, VE_BLOB_W(h.len));
	j->type = h.type;
	j->usage = h.usage;
	j->policy = h.hlen == VE_BLOB_HDR ? h.policy : PV_LEGACY_NO_POLICY;
	j->rc = rc;
}

int pv_legacy_key(pv_legacy *l, const uint8_t *blob, size_t len,
                  const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out, size_t cap,
                  size_t *out_len, uint32_t *type, uint32_t *usage, uint32_t *policy)
{
	lg_job j;

	*out_len = 0;
	*type = 0;
	*usage = 0;
	*policy = 0;
	if (len > PV_PKBLOB_MAX)
		return PV_ERR_WRAPPED;
	memset(&j, 0, sizeof j);
	j.l = l;
	j.blob = blob;
	j.len = (uint32_t)len;
	j.id = id;
	j.out = out;
	j.cap = cap;
	pv_secstack_call(l->st, lg_key, &j);
	*out_len = j.out_len;
	*type = j.rc == PV_OK ? j.type : 0;
	*usage = j.rc == PV_OK ? j.usage : 0;
	*policy = j.rc == PV_OK ? j.policy : 0;
	return j.rc;
}
