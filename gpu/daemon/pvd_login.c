/*
 * pvd_login.c - the tickets of one client connection (pvd_login.h).
 */
#include "gpu/daemon/pvd_login.h"
#include "gpu/core/kc_util.h"
#include "gpu/host/pv_secmem.h"

#include <pthread.h>
#include <string.h>

/* Tokens one connection may be logged in to at once. */
#define PVD_LOGINS 32

struct pvd_logins {
	pthread_mutex_t mu;
	uint32_t used[PVD_LOGINS];
	uint8_t token[PVD_LOGINS][PV_OBJ_ID_LEN];
	uint8_t ticket[PVD_LOGINS][PV_TICKET_LEN];
};

pvd_logins *pvd_logins_new(void)
{
	pvd_logins *l = (pvd_logins *)pv_secmem_alloc(sizeof *l);

	if (l == NULL)
		return NULL;
	memset(l, 0, sizeof *l);
	if (pthread_mutex_init(&l->mu, NULL) != 0) {
		pv_secmem_free(l);
		return NULL;
	}
	return l;
}

void pvd_logins_free(pvd_logins *l)
{
	if (l == NULL)
		return;
	pthread_mutex_destroy(&l->mu);
	kc_wipe(l, sizeof *l);
	pv_secmem_free(l);
}

static int is_zero(const uint8_t *p, size_t n)
{
	uint8_t z = 0;
	while (n--)
		z |= *p++;
	return z == 0;
}

/* Under l->mu: the entry of token id, or -1. */
static int find(const pvd_logins *l, const uint8_t id[PV_OBJ_ID_LEN])
{
	int i;
	for (i = 0; i < PVD_LOGINS; i++)
		if (l->used[i] && memcmp(l->token[i], id, PV_OBJ_ID_LEN) == 0)
			return i;
	return -1;
}

static void drop(pvd_logins *l, const uint8_t id[PV_OBJ_ID_LEN])
{
	int i;
	pthread_mutex_lock(&l->mu);
	if ((i = find(l, id)) >= 0) {
		kc_wipe(l->ticket[i], PV_TICKET_LEN);
		l->used[i] = 0;
	}
	pthread_mutex_unlock(&l->mu);
}

static int keep(pvd_logins *l, const uint8_t id[PV_OBJ_ID_LEN], const uint8_t *t)
{
	int i, rc = PV_OK;
	pthread_mutex_lock(&l->mu);
	if ((i = find(l, id)) < 0)
		for (i = 0; i < PVD_LOGINS && l->used[i]; i++)
			;
	if (i < PVD_LOGINS) {
		memcpy(l->token[i], id, PV_OBJ_ID_LEN);
		memcpy(l->ticket[i], t, PV_TICKET_LEN);
		l->used[i] = 1;
	} else {
		rc = PV_ERR_BUSY;       /* more tokens than one connection keeps */
	}
	pthread_mutex_unlock(&l->mu);
	return rc;
}

int pvd_login_call(pvd_logins *l, pv_vault *backend, pv_req *r)
{
	uint8_t t[PV_TICKET_LEN];
	int rc, i;

	r->ticket = NULL;
	r->ticket_len = 0;
	if (r->op == PV_OP_LOGOUT) {
		drop(l, r->token_id);
		return r->status = PV_OK;
	}
	if (r->op == PV_OP_LOGIN) {
		uint8_t *out = r->out;
		size_t cap = r->out_cap;
		if (is_zero(r->token_id, PV_OBJ_ID_LEN))
			return r->status = PV_ERR_ARGS;
		r->out = t;
		r->out_cap = sizeof t;
		rc = pv_vault_call(backend, r);
		r->out = out;
		r->out_cap = cap;
		r->out_len = 0;
		if (rc == PV_OK)
			rc = r->status = keep(l, r->token_id, t);
		else if (rc != PV_ERR_PIN_INCORRECT)
			drop(l, r->token_id);
		kc_wipe(t, sizeof t);
		return rc;
	}
	if (!is_zero(r->token_id, PV_OBJ_ID_LEN)) {
		pthread_mutex_lock(&l->mu);
		if ((i = find(l, r->token_id)) >= 0) {
			memcpy(t, l->ticket[i], PV_TICKET_LEN);
			r->ticket = t;
			r->ticket_len = PV_TICKET_LEN;
		}
		pthread_mutex_unlock(&l->mu);
	}
	rc = pv_vault_call(backend, r);
	kc_wipe(t, sizeof t);
	return rc;
}
