/* pv_keyboot.c - an engine state booted from a master key file (pv_keyboot.h). */
#include "gpu/client/pv_keyboot.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_os_random.h"
#include "gpu/host/pv_secmem.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"

#include <string.h>

typedef struct kb_job {
	const char *path, *pass;
	ve_vault *v;
	char *fpr;
	int rc;
} kb_job;

static void kb_boot(void *arg)
{
	kb_job *j = (kb_job *)arg;
	uint8_t *mk = (uint8_t *)pv_secmem_alloc(PV_MASTER_KEY_LEN);
	uint8_t e[48];
	int rc;

	if (mk == NULL) {
		j->rc = PV_ERR_NOMEM;
		return;
	}
	rc = pv_master_read(j->path, j->pass, mk);
	if (rc == PV_OK)
		rc = pv_os_random(e, sizeof e);
	if (rc == PV_OK) {
		pv_master_fingerprint(mk, j->fpr);
		rc = ve_boot(j->v, mk, PV_MASTER_KEY_LEN, e, sizeof e);
	}
	if (rc == PV_OK && j->v->sealed)
		rc = PV_ERR_SEALED;
	kc_wipe(e, sizeof e);
	pv_secmem_free(mk);        /* wipes */
	j->rc = rc;
}

int pv_keyboot(pv_secstack *st, const char *path, const char *pass, ve_vault *v,
               char fpr[17])
{
	kb_job j;

	memset(&j, 0, sizeof j);
	j.path = path;
	j.pass = pass;
	j.v = v;
	j.fpr = fpr;
	j.rc = PV_ERR_GENERAL;
	pv_secstack_call(st, kb_boot, &j);
	return j.rc;
}
