/*
 * tk_lock.c - mutexes: the application's callbacks from C_Initialize, or
 * pthreads (CKF_OS_LOCKING_OK, NULL arguments, or no callbacks).
 *
 * The pthread ones are adaptive (glibc's PTHREAD_MUTEX_ADAPTIVE_NP): a
 * thread that finds the lock taken spins a short while before it sleeps
 * in the kernel.  The token's critical sections are a few hash-table
 * look-ups, and every PKCS#11 call takes the token's lock several times,
 * so with hundreds of application threads a plain mutex sends most of
 * those takers to sleep and wake in the kernel for a lock that would
 * have been free within a microsecond.
 */
#include <pthread.h>
#include <stdlib.h>

#include "token/tk_int.h"

struct tk_mutex {
	pthread_mutex_t pm;
	void *app;                    /* app mutex when callbacks are in use */
};

static tk_mutex_ops tk_ops;
static int tk_use_app;

int tk_mutex_init_adaptive(pthread_mutex_t *pm)
{
	pthread_mutexattr_t a;
	int rc;

	if (pthread_mutexattr_init(&a) != 0)
		return -1;
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
	(void)pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
	rc = pthread_mutex_init(pm, &a);
	(void)pthread_mutexattr_destroy(&a);
	return rc != 0 ? -1 : 0;
}

void tk_mutex_setup(const tk_mutex_ops *ops)
{
	if (ops != NULL && ops->create != NULL) {
		tk_ops = *ops;
		tk_use_app = 1;
	} else {
		tk_use_app = 0;
	}
}

tk_mutex *tk_mutex_new(void)
{
	tk_mutex *m = calloc(1, sizeof *m);

	if (m == NULL)
		return NULL;
	if (tk_use_app) {
		if (tk_ops.create(&m->app) != CKR_OK) {
			free(m);
			return NULL;
		}
	} else if (tk_mutex_init_adaptive(&m->pm) != 0) {
		free(m);
		return NULL;
	}
	return m;
}

void tk_mutex_free(tk_mutex *m)
{
	if (m == NULL)
		return;
	if (tk_use_app)
		tk_ops.destroy(m->app);
	else
		pthread_mutex_destroy(&m->pm);
	free(m);
}

void tk_mutex_lock(tk_mutex *m)
{
	if (tk_use_app)
		tk_ops.lock(m->app);
	else
		pthread_mutex_lock(&m->pm);
}

void tk_mutex_unlock(tk_mutex *m)
{
	if (tk_use_app)
		tk_ops.unlock(m->app);
	else
		pthread_mutex_unlock(&m->pm);
}
