/*
 * pkt.h - helpers for the tests that drive pixelvault-pkcs11.so through
 * its real ABI (dlopen + C_GetFunctionList / C_GetInterface), the way an
 * application does.  Each test process gets its own temporary token
 * directory through its own PIXELVAULT_CONF.
 */
#ifndef PKT_H
#define PKT_H

#include <CUnit/Basic.h>

#include "pkcs11/pk_pkcs11_3.h"
#include "tsupport.h"

#define PKT_SO_PIN   "87654321"
#define PKT_USER_PIN "12345678"

extern CK_FUNCTION_LIST *pkt_f;          /* the 2.40 list */
extern CK_FUNCTION_LIST_3_0 *pkt_f3;     /* the 3.0 list  */
extern void *pkt_dl;
extern char pkt_dir[256];                /* temp dir (conf + tokens) */

/* Make a temp dir with a pixelvault.conf (token_dir = <dir>/tokens), set
 * PIXELVAULT_CONF, dlopen the module and fetch both function lists. */
void pkt_setup(void);
/* Remove the temp dir (called at exit). */
void pkt_cleanup(void);

/* After C_Initialize: the uninitialised slot's ID. */
CK_SLOT_ID pkt_uninit_slot(void);
/* C_InitToken on the uninitialised slot with PKT_SO_PIN and label; if
 * user_pin, also log in as SO and C_InitPIN(PKT_USER_PIN).  Returns the
 * slot ID of the new token (CUnit assertion on failure). */
CK_SLOT_ID pkt_new_token(const char *label, int user_pin);
/* Open a session, RW or RO. */
CK_SESSION_HANDLE pkt_open(CK_SLOT_ID slot, int rw);
/* Blank-padded label. */
void pkt_label(CK_UTF8CHAR out[32], const char *s);

#endif
