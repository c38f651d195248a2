/*
 * tk_vault.c - the process's one vault: opened on first use from
 * pixelvault.conf, closed by C_Finalize, opened again in a forked child
 * (the parent's handle is dropped there, never used: its worker threads do
 * not exist in the child).
 *
 * A vault without a master key opens sealed: objects and sessions keep
 * working, every crypto request answers PV_ERR_SEALED, which
 * tk_rv_from_pv() turns into CKR_DEVICE_ERROR.
 *
 * Daemon mode: an open that fails with PV_ERR_REMOVED (pvaultd not running
 * yet) or PV_ERR_BUSY (pvaultd at its connection or memory limits) is
 * retried by the next call that needs the vault, at most once a second;
 * other open failures (configuration, a refused uid) stand until
 * C_Finalize.  The
 * cached pv_vault_info is refreshed by every call that reads it, so it
 * follows the transport's reconnects (pvaultd restarted, e.g. now
 * unsealed).
 *
 * A request's path takes no lock here: the open vault is published with
 * the pid that opened it (tk_v_live, tk_v_live_pid, written under tk_v_mu),
 * and a thread of that process uses it as it is; anything else (first use,
 * a forked child, a failed open) goes through tk_v_mu.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gpu/core/pv_err.h"
#include "gpu/host/pv_conf.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_pid.h"
#include "token/tk_crypto.h"
#include "token/tk_int.h"
/* after pkcs11.h: its compat macros (iv_len, aad_len) rename pv_req
 * fields consistently in this file */
#include "gpu/vault.h"

#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
static pthread_mutex_t tk_v_mu = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;   /* tk_lock.c */
#else
static pthread_mutex_t tk_v_mu = PTHREAD_MUTEX_INITIALIZER;
#endif
static pv_vault *tk_v;
static pid_t tk_v_pid;
static pv_vault_info tk_v_info;
static int tk_v_failed;           /* open failed in this process: don't retry */
static int tk_v_removed;          /* ... REMOVED or BUSY: retry at tk_v_next */
static struct timespec tk_v_next;
static pv_conf tk_v_conf;         /* the configuration of the last open */
static int tk_v_rc;               /* the last open's answer */
static int tk_v_told;             /* the state last reported, 0: none */
static char tk_v_why[512];        /* why keys cannot be used, "" if they can */
static _Atomic(struct pv_vault *) tk_v_live;
static _Atomic pid_t tk_v_live_pid;

/* Under tk_v_mu: publish tk_v (or none) for this process's lock-free
 * readers when it changed; the pointer is cleared first, so a reader that
 * sees the new pid sees the new pointer or NULL. */
static void tk_v_publish(void)
{
	if (atomic_load(&tk_v_live) == tk_v &&
	    atomic_load(&tk_v_live_pid) == (tk_v != NULL ? tk_v_pid : 0))
		return;
	atomic_store(&tk_v_live, NULL);
	atomic_store(&tk_v_live_pid, tk_v != NULL ? tk_v_pid : 0);
	atomic_store(&tk_v_live, tk_v);
}

static struct pv_vault *tk_v_fast(void)
{
	if (atomic_load(&tk_v_live_pid) != pv_pid())
		return NULL;
	return atomic_load(&tk_v_live);
}

static int tk_v_due(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > tk_v_next.tv_sec ||
	       (now.tv_sec == tk_v_next.tv_sec && now.tv_nsec >= tk_v_next.tv_nsec);
}

static pthread_once_t tk_v_once = PTHREAD_ONCE_INIT;

static void tk_v_child(void)
{
	(void)tk_mutex_init_adaptive(&tk_v_mu);
}

static void tk_v_atfork(void)
{
	pthread_atfork(NULL, NULL, tk_v_child);
}

/* Under tk_v_mu, after an open or a refresh: tk_v_why from the state,
 * and one warning line the first time this process sees each state that
 * keeps keys out of reach (sealed, pvaultd unreachable), so that a person
 * running any client learns why every operation fails and what to do. */
static void tk_v_state(void)
{
	int state = tk_v_rc != PV_OK ? tk_v_rc :
	            tk_v_info.sealed ? 1000 - tk_v_info.seal_reason : 0;

	(void)pv_vault_explain(&tk_v_conf, tk_v_rc, tk_v != NULL ? &tk_v_info : NULL,
	                       tk_v_why, sizeof tk_v_why);
	if (state == tk_v_told)
		return;
	tk_v_told = state;
	if (state != 0)
		pv_log(PV_LOG_WARN, "%s: %s",
		       tk_v_rc != PV_OK ? "no vault" : "vault sealed", tk_v_why);
}

/* The vault and, when info is not NULL, a fresh copy of its info (its
 * health, pvaultd's), both taken under tk_v_mu: tk_v_info is read nowhere
 * else.  A request on its way to the vault needs no info, nor does the
 * data capacity (pv_vault_max_data). */
static CK_RV tk_vault_get(struct pv_vault **out, pv_vault_info *info)
{
	struct pv_vault *v;
	int rc = PV_OK;

	pthread_once(&tk_v_once, tk_v_atfork);
	pthread_mutex_lock(&tk_v_mu);
	if (tk_v_pid != pv_pid()) {
		/* first use, or a forked child: forget the parent's vault */
		tk_v = NULL;
		tk_v_failed = 0;
		tk_v_removed = 0;
		tk_v_told = 0;
		tk_v_pid = pv_pid();
	}
	if (tk_v == NULL && tk_v_failed && tk_v_removed && tk_v_due())
		tk_v_failed = 0;              /* pvaultd may be up now: try again */
	if (tk_v != NULL && info != NULL) {
		pv_vault_info i;
		if (pv_vault_get_info(tk_v, &i) == PV_OK) {
			tk_v_info = i;
			tk_v_state();        /* pvaultd may have changed */
		}
	}
	if (tk_v == NULL && !tk_v_failed) {
		rc = pv_conf_load(&tk_v_conf);
		tk_v_conf.no_threads = (uint32_t)tk_g.no_threads;
		if (rc == PV_OK) {
			rc = pv_vault_open(&tk_v_conf, &tk_v);
			if (rc == PV_OK)
				rc = pv_vault_get_info(tk_v, &tk_v_info);
			tk_v_rc = rc;
			tk_v_state();
		} else {
			tk_v_rc = rc;         /* pv_conf_load said why */
			snprintf(tk_v_why, sizeof tk_v_why, "the configuration cannot be read: "
			         "`pvault status` names the problem");
		}
		if (rc != PV_OK) {
			if (tk_v != NULL)
				pv_vault_close(tk_v);
			tk_v = NULL;
			tk_v_failed = 1;
			tk_v_removed = rc == PV_ERR_REMOVED || rc == PV_ERR_BUSY;
			clock_gettime(CLOCK_MONOTONIC, &tk_v_next);
			tk_v_next.tv_sec += 1;
		} else {
			tk_v_removed = 0;
		}
	}
	v = tk_v;
	if (v != NULL && info != NULL)
		*info = tk_v_info;
	tk_v_publish();
	pthread_mutex_unlock(&tk_v_mu);
	*out = v;
	return v != NULL ? CKR_OK : CKR_DEVICE_ERROR;
}

CK_RV tk_vault(struct pv_vault **out)
{
	if ((*out = tk_v_fast()) != NULL)
		return CKR_OK;
	return tk_vault_get(out, NULL);
}

int tk_vault_call(pv_req *r)
{
	struct pv_vault *v;

	if (tk_vault(&v) != CKR_OK)
		return PV_ERR_DEVICE;
	return pv_vault_call(v, r);
}

int tk_vault_submit(struct pv_vault **v, pv_req *r)
{
	if (tk_vault(v) != CKR_OK)
		return PV_ERR_DEVICE;
	return pv_vault_submit(*v, r);
}

int tk_vault_hw(void)
{
	struct pv_vault *v;
	pv_vault_info i;

	return tk_vault_get(&v, &i) == CKR_OK && i.hw;
}

int tk_vault_why(char *why, size_t cap)
{
	struct pv_vault *v;
	pv_vault_info i;
	int ready = tk_vault_get(&v, &i) == CKR_OK && !i.sealed;

	pthread_mutex_lock(&tk_v_mu);
	snprintf(why, cap, "%s", ready ? "" : tk_v_why);
	pthread_mutex_unlock(&tk_v_mu);
	return ready ? TK_VAULT_READY : v != NULL ? TK_VAULT_SEALED : TK_VAULT_NONE;
}

int tk_vault_ready(void)
{
	char why[1];

	return tk_vault_why(why, sizeof why) == TK_VAULT_READY;
}

size_t tk_vault_max_data(void)
{
	struct pv_vault *v;

	return tk_vault(&v) == CKR_OK ? pv_vault_max_data(v) : 0;
}

_Static_assert(TK_FPR_LEN == sizeof ((pv_vault_info *)0)->master_fpr, "TK_FPR_LEN");

const char *tk_vault_master_fpr(char fpr[TK_FPR_LEN])
{
	struct pv_vault *v;
	pv_vault_info i;

	fpr[0] = '\0';
	if (tk_vault_get(&v, &i) == CKR_OK) {
		memcpy(fpr, i.master_fpr, TK_FPR_LEN);
		fpr[TK_FPR_LEN - 1] = '\0';
	}
	return fpr;
}

void tk_vault_close(void)
{
	pthread_mutex_lock(&tk_v_mu);
	if (tk_v != NULL && tk_v_pid == pv_pid())
		pv_vault_close(tk_v);
	tk_v = NULL;
	tk_v_failed = 0;
	tk_v_removed = 0;
	tk_v_pid = 0;
	tk_v_told = 0;
	memset(&tk_v_info, 0, sizeof tk_v_info);
	tk_v_publish();
	pthread_mutex_unlock(&tk_v_mu);
}
