/*
 * pk_random.c - random numbers from the vault's DRBG (CKF_RNG is set once
 * the vault is open and unsealed).
 */
#include "pkcs11/pk_mech.h"

CK_RV C_SeedRandom(CK_SESSION_HANDLE h, CK_BYTE_PTR seed, CK_ULONG len)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(seed != NULL || len == 0);
	return tk_seed_random(h, seed, len);
}

CK_RV C_GenerateRandom(CK_SESSION_HANDLE h, CK_BYTE_PTR out, CK_ULONG len)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(out != NULL || len == 0);
	return tk_generate_random(h, out, len);
}
