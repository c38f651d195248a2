/*
 * pc.h - helpers of the p11crypto suite: the real module through dlopen
 * (pkt), a token directory with a master key (the vault is unsealed), one
 * R/W session with no login (session objects are public), and small
 * wrappers for keys and operations.
 */
#ifndef PC_H
#define PC_H

#include <stddef.h>
#include <stdint.h>

#include "pkt.h"
#include "include/pixelvault/pkcs11-vendor.h"

extern CK_SLOT_ID pc_slot;
extern CK_SESSION_HANDLE pc_s;

/* pkt_setup + a master key file + C_Initialize (before CUnit runs). */
void pc_setup(void);
/* main()'s frame: pc_setup and a CUnit registry with one suite, name
 * (exits on a CUnit error); pc_run runs it, tears the token down and
 * returns ts_run's status. */
CU_pSuite pc_suite(const char *name);
int pc_run(void);
/* The module's "PKCS 11" 3.2 function list (C_GetInterface; CUnit-fatal
 * without it). */
CK_FUNCTION_LIST_3_2 *pc_list32(void);
/* The first test of every program: a new token and an R/W session. */
void pc_token(void);
/* Or: a new token with a user PIN, an R/W session, the user logged in
 * (private objects usable). */
void pc_token_user(const char *label);
void pc_teardown(void);

/* Key attribute options. */
#define PC_EXTRACTABLE 0x1    /* CKA_SENSITIVE FALSE, CKA_EXTRACTABLE TRUE */
#define PC_NO_USAGE    0x2    /* every usage flag FALSE                    */

/* Create a public (CKA_PRIVATE FALSE: usable without login) session
 * secret key with every usage flag (CKR). */
CK_RV pc_key(CK_KEY_TYPE kt, const uint8_t *v, size_t n, int opts,
             CK_OBJECT_HANDLE *h);
/* Read a key's CKA_VALUE (must be extractable); returns its length or -1. */
long pc_value(CK_OBJECT_HANDLE k, uint8_t *out, size_t cap);

/* Single-part encrypt (enc=1) or decrypt; *outl in: capacity, out: len. */
CK_RV pc_crypt(CK_MECHANISM *m, CK_OBJECT_HANDLE k, int enc,
               const uint8_t *in, size_t n, uint8_t *out, CK_ULONG *outl);
/* The same in random chunks through Update/Final. */
CK_RV pc_crypt_multi(CK_MECHANISM *m, CK_OBJECT_HANDLE k, int enc,
                     const uint8_t *in, size_t n, uint8_t *out, CK_ULONG *outl);
/* Digest / MAC sign, single and multi-part (k ignored for digests). */
CK_RV pc_digest(CK_MECHANISM *m, const uint8_t *in, size_t n, int multi,
                uint8_t *out, CK_ULONG *outl);
CK_RV pc_sign(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const uint8_t *in, size_t n,
              int multi, uint8_t *out, CK_ULONG *outl);
CK_RV pc_verify(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const uint8_t *in,
                size_t n, int multi, const uint8_t *sig, size_t sl);

#endif
