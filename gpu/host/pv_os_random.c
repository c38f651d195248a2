/* pv_os_random.c - getrandom(2) with EINTR handling. */
#include "pv_os_random.h"
#include "gpu/core/pv_err.h"

#include <errno.h>
#include <stdint.h>
#include <sys/random.h>

int pv_os_random(void *p, size_t n)
{
	uint8_t *b = (uint8_t *)p;
	size_t got = 0;

	if (p == NULL && n != 0)
		return PV_ERR_ARGS;
	while (got < n) {
		ssize_t r = getrandom(b + got, n - got, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return PV_ERR_RANDOM;
		}
		got += (size_t)r;
	}
	return PV_OK;
}
