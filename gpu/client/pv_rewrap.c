/*
 * pv_rewrap.c - two-KEK vault for master key rotation (pv_rewrap.h).
 *
 * The engine calls (both boots, every rewrap, which unwraps a key) run on
 * a stack of the vault's own (pv_secstack.h), as the CPU backend's do.
 */
#include "gpu/client/pv_keyboot.h"
#include "gpu/client/pv_rewrap.h"
#include "gpu/engine/ve_rewrap.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_os_random.h"
#include "gpu/host/pv_secmem.h"
#include "gpu/host/pv_secstack.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

#include <stdlib.h>
#include <string.h>

struct pv_rewrap {
	ve_vault *from, *to;      /* secmem */
	ve_worker *w;             /* secmem */
	pv_secstack *st;
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
	pv_secstack_free(r->st);
	free(r);
}

/* An engine call with its arguments, for pv_secstack_call. */
typedef struct rw_job {
	pv_rewrap *r;
	const uint8_t *blob, *id;     /* rewrap */
	uint32_t len, cap, out_len;
	uint8_t *out;
	int rc;
} rw_job;

static void worker_init(void *arg)
{
	rw_job *j = (rw_job *)arg;
	uint8_t e[48];

	j->rc = pv_os_random(e, sizeof e);
	if (j->rc == PV_OK)
		j->rc = ve_worker_init(j->r->w, 0u, e, sizeof e);
	kc_wipe(e, sizeof e);
}

int pv_rewrap_open(const char *old_path, const char *old_pass,
                   const char *new_path, const char *new_pass,
                   pv_rewrap **out, int *which)
{
	pv_rewrap *r = (pv_rewrap *)calloc(1, sizeof *r);
	rw_job j;
	int rc;

	*out = NULL;
	*which = -1;
	if (r == NULL)
		return PV_ERR_NOMEM;
	r->from = (ve_vault *)pv_secmem_alloc(sizeof *r->from);
	r->to = (ve_vault *)pv_secmem_alloc(sizeof *r->to);
	r->w = (ve_worker *)pv_secmem_alloc(sizeof *r->w);
	r->st = pv_secstack_new(0);
	if (r->from == NULL || r->to == NULL || r->w == NULL || r->st == NULL) {
		pv_rewrap_close(r);
		return PV_ERR_NOMEM;
	}
	*which = 0;
	rc = pv_keyboot(r->st, old_path, old_pass, r->from, r->fpr[0]);
	if (rc == PV_OK) {
		*which = 1;
		rc = pv_keyboot(r->st, new_path, new_pass, r->to, r->fpr[1]);
	}
	if (rc == PV_OK) {
		*which = -1;
		memset(&j, 0, sizeof j);
		j.r = r;
		pv_secstack_call(r->st, worker_init, &j);
		rc = j.rc;
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

static void rewrap_one(void *arg)
{
	rw_job *j = (rw_job *)arg;

	j->rc = ve_rewrap(j->r->from, j->r->to, j->r->w, j->blob, j->len, j->id, j->out,
	                  j->cap, &j->out_len);
}

int pv_rewrap_blob(pv_rewrap *r, const uint8_t *blob, size_t len,
                   const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out, size_t cap,
                   size_t *out_len)
{
	rw_job j;

	if (len > 0xffffffffu || cap > 0xffffffffu)
		return PV_ERR_DATA_LEN;
	memset(&j, 0, sizeof j);
	j.r = r;
	j.blob = blob;
	j.len = (uint32_t)len;
	j.id = id;
	j.out = out;
	j.cap = (uint32_t)cap;
	pv_secstack_call(r->st, rewrap_one, &j);
	*out_len = j.out_len;
	return j.rc;
}
