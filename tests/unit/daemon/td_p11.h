/*
 * td_p11.h - the module as an application loads it, for the daemon suite's
 * PKCS#11 tests: PIXELVAULT_CONF = the test daemon's config (mode =
 * daemon), dlopen($PV_MODULE), C_GetFunctionList, C_Initialize(NULL).
 */
#ifndef TD_P11_H
#define TD_P11_H

#include <dlfcn.h>
#include <p11-kit/pkcs11.h>
#include <stdlib.h>

#include "td_common.h"

/* 0 on success; *lib stays open until the process exits. */
static inline int td_p11_load(const td_daemon *d, void **lib, CK_FUNCTION_LIST_PTR *f)
{
	CK_C_GetFunctionList gfl;
	const char *mod = getenv("PV_MODULE");

	if (mod == NULL)
		return -1;
	setenv("PIXELVAULT_CONF", d->conf, 1);
	*lib = dlopen(mod, RTLD_NOW | RTLD_LOCAL);
	if (*lib == NULL)
		return -1;
	gfl = (CK_C_GetFunctionList)dlsym(*lib, "C_GetFunctionList");
	if (gfl == NULL || gfl(f) != CKR_OK)
		return -1;
	return (*f)->C_Initialize(NULL) == CKR_OK ? 0 : -1;
}

#endif
