/* pv_pid.c - the process id, cached in a page that fork wipes (pv_pid.h). */
#include "gpu/host/pv_pid.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static pthread_once_t pv_pid_once = PTHREAD_ONCE_INIT;
static pid_t *pv_pid_page;           /* NULL: no MADV_WIPEONFORK here */

static void pv_pid_setup(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t len = pg > 0 ? (size_t)pg : 4096u;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	if (madvise(p, len, MADV_WIPEONFORK) != 0) {
		(void)munmap(p, len);
		return;
	}
	pv_pid_page = (pid_t *)p;
}

pid_t pv_pid(void)
{
	pid_t id;

	(void)pthread_once(&pv_pid_once, pv_pid_setup);
	if (pv_pid_page == NULL)
		return getpid();
	id = __atomic_load_n(pv_pid_page, __ATOMIC_RELAXED);
	if (id == 0) {
		/* first call, or the first in a forked child: threads racing
		 * here store the same value */
		id = getpid();
		__atomic_store_n(pv_pid_page, id, __ATOMIC_RELAXED);
	}
	return id;
}
