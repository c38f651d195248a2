/* pvault_tk.h - helpers of the command files that use the token layer. */
#ifndef PVAULT_TK_H
#define PVAULT_TK_H

#include "token/tk.h"
#include "token/tk_admin.h"

/* The configured token directory; prints the error itself. */
int pvault_token_dir(char *out, size_t cap);
/* Find token NAME (serial or label) in the token directory; prints the
 * error itself.  0 or -1. */
int pvault_find_token(const char *name, tk_admin_token *t);
/* tk_initialize and the slot of the token with this serial; prints the
 * error itself.  0 or -1 (tk_finalize already done on failure). */
int pvault_tk_slot(const char *serial, CK_SLOT_ID *slot);
/* A read/write session logged in as who (CKU_USER / CKU_SO) with pin. */
int pvault_tk_login(CK_SLOT_ID slot, CK_USER_TYPE who, const char *pin,
                    CK_SESSION_HANDLE *s);
/* The fingerprint of the configured master key ("" when none is
 * readable; why in *why). */
void pvault_master_fpr(char fpr[17], const char **why);
/* A short text for a CK_RV. */
const char *pvault_ckr(CK_RV rv);

#endif
