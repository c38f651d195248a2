/*
 * tk_pin.c - PIN checks: the length rule, and the check of a counted try,
 * which is the vault's (tk_auth_login: the PIN's PBKDF2 opens the token
 * key's record, or not).
 */
#include "gpu/core/pv_err.h"
#include "token/tk_auth.h"
#include "token/tk_int.h"

CK_RV tk_pin_len_check(const CK_UTF8CHAR *pin, CK_ULONG len)
{
	if (pin == NULL)
		return CKR_ARGUMENTS_BAD;  /* no protected authentication path */
	if (len < TK_PIN_MIN || len > TK_PIN_MAX)
		return CKR_PIN_LEN_RANGE;
	return CKR_OK;
}

int tk_pin_try_check(tk_slot *s, const tk_pintry *t, const CK_UTF8CHAR *pin,
                     CK_ULONG len, uint8_t ticket[TK_TICKET_LEN], size_t *tlen)
{
	int rc = tk_auth_login(s->tid, t->who, &t->rec, pin, len, ticket, tlen);

	if (rc == PV_OK)
		return 1;
	return rc == PV_ERR_PIN_INCORRECT ? 0 : rc;
}
