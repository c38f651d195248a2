/*
 * pk_random.c - random numbers.  The token has no RNG (no CKF_RNG) until
 * the vault's DRBG is wired (issue 3).
 */
#include "pkcs11/pk_int.h"

CK_RV C_SeedRandom(CK_SESSION_HANDLE h, CK_BYTE_PTR seed, CK_ULONG len)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(seed != NULL || len == 0);
	return CKR_RANDOM_SEED_NOT_SUPPORTED;
}

CK_RV C_GenerateRandom(CK_SESSION_HANDLE h, CK_BYTE_PTR out, CK_ULONG len)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(out != NULL || len == 0);
	return CKR_RANDOM_NO_RNG;
}
