/*
 * tk_state.c - the process state: initialise, finalise, fork detection.
 *
 * Fork: the pid is recorded at initialisation.  In a forked child every
 * call reports "not initialised" until the child's own C_Initialize, which
 * drops the parent's state without touching it (its mutexes may be held by
 * parent threads that do not exist here, and closing its SQLite handles
 * could checkpoint or unlink the parent's WAL): that memory is leaked once
 * per fork, on purpose.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/pv_err.h"
#include "gpu/host/pv_pid.h"
#include "token/tk_crypto.h"
#include "token/tk_int.h"

struct tk_global tk_g;

static pthread_mutex_t tk_init_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t tk_once = PTHREAD_ONCE_INIT;

static void tk_atfork_child(void)
{
	/* a parent thread may have held it at fork time */
	pthread_mutex_init(&tk_init_mu, NULL);
}

static void tk_register_atfork(void)
{
	pthread_atfork(NULL, NULL, tk_atfork_child);
}

int tk_initialized(void)
{
	return tk_g.init && tk_g.pid == pv_pid();
}

CK_RV tk_initialize(const tk_mutex_ops *ops, int no_threads)
{
	CK_RV rv = CKR_OK;
	int rc;

	pthread_once(&tk_once, tk_register_atfork);
	pthread_mutex_lock(&tk_init_mu);
	if (tk_g.init && tk_g.pid == pv_pid()) {
		rv = CKR_CRYPTOKI_ALREADY_INITIALIZED;
		goto out;
	}
	/* fresh start, or a forked child: forget (never free) old state */
	if (tk_g.init)                /* a forked child */
		tk_ops_drop_parent();
	memset(&tk_g, 0, sizeof tk_g);
	tk_mutex_setup(ops);
	rc = tk_conf_token_dir(tk_g.token_dir, sizeof tk_g.token_dir);
	if (rc < 0) {
		rv = tk_rv_from_pv(rc);
		goto out;
	}
	tk_g.mu = tk_mutex_new();
	if (tk_g.mu == NULL) {
		rv = ops != NULL ? CKR_CANT_LOCK : CKR_HOST_MEMORY;
		goto out;
	}
	tk_g.next_sess = 1;
	tk_g.next_sobj = 1;
	tk_g.no_threads = no_threads;
	tk_g.pid = pv_pid();
	tk_g.init = 1;
	tk_mutex_lock(tk_g.mu);
	(void)tk_slots_refresh();      /* a missing token_dir is not an error */
	tk_mutex_unlock(tk_g.mu);
out:
	pthread_mutex_unlock(&tk_init_mu);
	return rv;
}

CK_RV tk_finalize(void)
{
	pthread_mutex_lock(&tk_init_mu);
	if (!tk_initialized()) {
		pthread_mutex_unlock(&tk_init_mu);
		return CKR_CRYPTOKI_NOT_INITIALIZED;
	}
	tk_mutex_lock(tk_g.mu);
	tk_g.init = 0;
	tk_sessions_free();
	tk_slots_free();
	tk_mutex_unlock(tk_g.mu);
	tk_mutex_free(tk_g.mu);
	memset(&tk_g, 0, sizeof tk_g);
	tk_vault_close();
	pthread_mutex_unlock(&tk_init_mu);
	return CKR_OK;
}
