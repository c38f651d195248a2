/*
 * pv_os_random.h - entropy from the operating system (getrandom(2)).
 * Used to seed the vault DRBG; blocks until the kernel pool is initialised.
 */
#ifndef PV_OS_RANDOM_H
#define PV_OS_RANDOM_H

#include <stddef.h>

/* Fill p with n bytes.  PV_OK, or PV_ERR_RANDOM (nothing usable written). */
int pv_os_random(void *p, size_t n);

#endif
