/*
 * fz_token.h - the harnesses' token: the PKCS#11 library linked into the
 * harness (C_GetFunctionList of pkcs11/, no dlopen), so that the fuzz
 * build's coverage counters of pkcs11/, token/ and the vault are the
 * fuzzer's to see.  One temporary directory per process (configuration,
 * master key, token store; removed at exit), the CPU backend running each
 * request in the calling thread, one token with its user PIN set.
 */
#ifndef FZ_TOKEN_H
#define FZ_TOKEN_H

#include "pkcs11/pk_pkcs11_3.h"
#include "include/pixelvault/pkcs11-vendor.h"

#define FZ_SO_PIN   "87654321"
#define FZ_USER_PIN "12345678"

/* C_Initialize'd on return; *slot: the token's slot, *rw: a read/write
 * session logged in as the user, *ro: a read-only one (NULL: not wanted).
 * Any failure ends the process: a harness without its token fuzzes
 * nothing. */
CK_FUNCTION_LIST *fz_token(CK_SLOT_ID *slot, CK_SESSION_HANDLE *rw, CK_SESSION_HANDLE *ro);

#endif
