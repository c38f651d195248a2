/*
 * tk_state.c - the process state: initialise, finalise, fork detection.
 *
 * Fork: the pid is recorded at initialisation.  In a forked child every
 * call reports "not initialised" until the child's own C_Initialize, which
 * drops the parent's state without touching it (its mutexes may be held by
 * parent threads that do not exist here, and closing its SQLite handles
 * could checkpoint or unlink the parent's WAL): that memory is leaked once
 * per fork, on purpose.
 *
 * The gate: every PKCS#11 call but C_Initialize and C_Finalize passes
 * tk_enter on its way in and tk_leave on its way out, and is counted in
 * tk_inflight meanwhile.  C_Finalize closes the gate (later calls answer
 * CKR_CRYPTOKI_NOT_INITIALIZED) and waits until the count is 0 before it
 * frees anything, so a call in flight finishes with the state it started
 * with.  Every call ends on its own: the vault completes each request it
 * accepted (or fails it when it seals or pvaultd is lost), a login's KDF
 * is bounded, and no call blocks waiting for an event; so the wait
 * ends.  A call that waits in a vault request cannot be woken early: the
 * request's buffers are the caller's until the vault is done with them.
 *
 * A thread already inside the module (the application's mutex callback,
 * run by the module, calling back in) must not wait for itself:
 * C_Finalize from there, and C_Initialize from inside C_Initialize or
 * C_Finalize, answer CKR_FUNCTION_FAILED at once.  tk_calls and tk_life
 * count, per thread, the calls in progress and the C_Initialize /
 * C_Finalize in progress.
 */
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/pv_err.h"
#include "gpu/host/pv_futex.h"
#include "gpu/host/pv_pid.h"
#include "token/tk_crypto.h"
#include "token/tk_int.h"

struct tk_global tk_g;

static pthread_mutex_t tk_init_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t tk_once = PTHREAD_ONCE_INIT;

/* The gate: open while initialised; tk_inflight, the calls past it (a
 * futex word: C_Finalize sleeps on it).  Their own cache line: every call
 * writes it twice. */
static struct {
	alignas(64) _Atomic int open;
	uint32_t inflight;
} tk_gate;
static _Thread_local int tk_calls, tk_life;

static void tk_atfork_child(void)
{
	/* a parent thread may have held it at fork time */
	pthread_mutex_init(&tk_init_mu, NULL);
	/* the only thread here is this one: its calls are the only ones in
	 * flight; closed until the child's own C_Initialize */
	atomic_store(&tk_gate.open, 0);
	atomic_store(PV_AW(&tk_gate.inflight), (uint32_t)tk_calls);
}

static void tk_register_atfork(void)
{
	pthread_atfork(NULL, NULL, tk_atfork_child);
}

/* Under tk_init_mu. */
static int tk_initialized(void)
{
	return tk_g.init && tk_g.pid == pv_pid();
}

/* One call out of the count; the last one out of a closed gate wakes
 * C_Finalize.  Release: what the call did to the state happens before
 * C_Finalize frees it. */
static void tk_gate_out(void)
{
	if (atomic_fetch_sub(PV_AW(&tk_gate.inflight), 1u) == 1u &&
	    !atomic_load(&tk_gate.open))
		pv_futex_wake(&tk_gate.inflight, PV_FUTEX_PRIVATE);
}

int tk_enter(void)
{
	/* a closed gate is refused without touching the count, so that
	 * callers hammering it cannot keep C_Finalize waiting */
	if (!atomic_load(&tk_gate.open))
		return 0;
	atomic_fetch_add(PV_AW(&tk_gate.inflight), 1u);
	/* seq_cst: either C_Finalize's wait sees this call counted, or this
	 * load sees the gate closed (and the call leaves again) */
	if (!atomic_load(&tk_gate.open) || tk_g.pid != pv_pid()) {
		tk_gate_out();
		return 0;
	}
	tk_calls++;
	return 1;
}

void tk_leave(void)
{
	tk_calls--;
	tk_gate_out();
}

/* Under tk_init_mu: close the gate and wait for the calls in flight. */
static void tk_gate_close(void)
{
	uint32_t n;

	atomic_store(&tk_gate.open, 0);
	while ((n = atomic_load(PV_AW(&tk_gate.inflight))) != 0)
		pv_futex_wait(&tk_gate.inflight, n, 100, PV_FUTEX_PRIVATE);
}

CK_RV tk_initialize(const tk_mutex_ops *ops, int no_threads)
{
	CK_RV rv = CKR_OK;
	int rc;

	if (tk_life > 0)              /* from a callback of C_Initialize/C_Finalize */
		return CKR_FUNCTION_FAILED;
	pthread_once(&tk_once, tk_register_atfork);
	tk_life++;
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
	atomic_store(&tk_gate.open, 1);
out:
	pthread_mutex_unlock(&tk_init_mu);
	tk_life--;
	return rv;
}

CK_RV tk_finalize(void)
{
	/* from inside a call (or C_Initialize): waiting for the calls in
	 * flight would wait for this thread's own */
	if (tk_calls > 0 || tk_life > 0)
		return CKR_FUNCTION_FAILED;
	tk_life++;
	pthread_mutex_lock(&tk_init_mu);
	if (!tk_initialized()) {
		pthread_mutex_unlock(&tk_init_mu);
		tk_life--;
		return CKR_CRYPTOKI_NOT_INITIALIZED;
	}
	tk_gate_close();
	tk_mutex_lock(tk_g.mu);
	tk_g.init = 0;
	tk_sessions_free();
	tk_slots_free();
	tk_mutex_unlock(tk_g.mu);
	tk_mutex_free(tk_g.mu);
	memset(&tk_g, 0, sizeof tk_g);
	tk_vault_close();
	pthread_mutex_unlock(&tk_init_mu);
	tk_life--;
	return CKR_OK;
}
