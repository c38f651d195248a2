/*
 * tk_lock.c - mutexes: the application's callbacks from C_Initialize, or
 * pthreads (CKF_OS_LOCKING_OK, NULL arguments, or no callbacks).
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
	} else if (pthread_mutex_init(&m->pm, NULL) != 0) {
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
