/* pv_rewrap.c - two-KEK vault for master key rotation (pv_rewrap.h). */
#include "gpu/client/pv_rewrap.h"
#include "gpu/engine/ve_rewrap.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_os_random.h"
#include "gpu/host/pv_secmem.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

#include <stdlib.h>
#include <string.h>

struct pv_rewrap {
	ve_vault *from, *to;      /* secmem */
	ve_worker *w;             /* secmem */
	char fpr[2][17];
};

void pv_rewrap_close(pv_rewrap *r)
{
	if (r == NULL)
		return;
	if (r->from) {
		ve_vault_clear(r->from);
		pv_secmem_free(r->from);
	}
	if (r->to) {
		ve_vault_clear(r->to);
		pv_secmem_free(r->to);
	}
	if (r->w) {
		ve_worker_clear(r->w);
		pv_secmem_free(r->w);
	}
	free(r);
}

static int boot_one(const char *path, const char *pass, ve_vault *v, char fpr[17])
{
	uint8_t *mk = (uint8_t *)pv_secmem_alloc(PV_MASTER_KEY_LEN);
	uint8_t e[48];
	int rc;

	if (mk == NULL)
		return PV_ERR_NOMEM;
	rc = pv_master_read(path, pass, mk);
	if (rc == PV_OK)
		rc = pv_os_random(e, sizeof e);
	if (rc == PV_OK) {
		pv_master_fingerprint(mk, fpr);
		rc = ve_boot(v, mk, PV_MASTER_KEY_LEN, e, sizeof e);
	}
	if (rc == PV_OK && v->sealed)
		rc = PV_ERR_SEALED;
	kc_wipe(e, sizeof e);
	pv_secmem_free(mk);        /* wipes */
	return rc;
}

int pv_rewrap_open(const char *old_path, const char *old_pass,
                   const char *new_path, const char *new_pass,
                   pv_rewrap **out, int *which)
{
	pv_rewrap *r = (pv_rewrap *)calloc(1, sizeof *r);
	uint8_t e[48];
	int rc;

	*out = NULL;
	*which = -1;
	if (r == NULL)
		return PV_ERR_NOMEM;
	r->from = (ve_vault *)pv_secmem_alloc(sizeof *r->from);
	r->to = (ve_vault *)pv_secmem_alloc(sizeof *r->to);
	r->w = (ve_worker *)pv_secmem_alloc(sizeof *r->w);
	if (r->from == NULL || r->to == NULL || r->w == NULL) {
		pv_rewrap_close(r);
		return PV_ERR_NOMEM;
	}
	*which = 0;
	rc = boot_one(old_path, old_pass, r->from, r->fpr[0]);
	if (rc == PV_OK) {
		*which = 1;
		rc = boot_one(new_path, new_pass, r->to, r->fpr[1]);
	}
	if (rc == PV_OK) {
		*which = -1;
		rc = pv_os_random(e, sizeof e);
		if (rc == PV_OK)
			rc = ve_worker_init(r->w, 0u, e, sizeof e);
		kc_wipe(e, sizeof e);
	}
	if (rc != PV_OK) {
		pv_rewrap_close(r);
		return rc;
	}
	*out = r;
	return PV_OK;
}

void pv_rewrap_fprs(const pv_rewrap *r, char old_fpr[17], char new_fpr[17])
{
	memcpy(old_fpr, r->fpr[0], 17);
	memcpy(new_fpr, r->fpr[1], 17);
}

int pv_rewrap_blob(pv_rewrap *r, const uint8_t *blob, size_t len,
                   const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out, size_t cap,
                   size_t *out_len)
{
	uint32_t ol = 0;
	int rc;

	if (len > 0xffffffffu || cap > 0xffffffffu)
		return PV_ERR_DATA_LEN;
	rc = ve_rewrap(r->from, r->to, r->w, blob, (uint32_t)len, id, out,
	               (uint32_t)cap, &ol);
	*out_len = ol;
	return rc;
}
