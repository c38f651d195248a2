/*
 * tk_pin.c - PIN checks: the vault's (a counted try's check, through
 * tk_auth_login), and the legacy verifiers of stores made before the
 * vault's records (PBKDF2-HMAC-SHA256 with the stored salt and count,
 * compared in constant time), which only `pvault token migrate` checks.
 */
#include <string.h>

#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/hash/kc_kdf.h"
#include "gpu/core/kc_util.h"
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

static int tk_pin_derive(const CK_UTF8CHAR *pin, CK_ULONG len,
                         const uint8_t *salt, uint32_t iter,
                         uint8_t out[TK_PIN_VERIFIER_LEN])
{
	return kc_pbkdf2_hmac(KC_HASH_SHA256, (const uint8_t *)pin, (size_t)len,
	                      salt, TK_PIN_SALT_LEN, iter, out,
	                      TK_PIN_VERIFIER_LEN);
}

int tk_pin_check(const CK_UTF8CHAR *pin, CK_ULONG len, const tk_pinrec *rec)
{
	uint8_t v[TK_PIN_VERIFIER_LEN];
	int rc;

	if (len > TK_PIN_MAX)
		return 0;
	rc = tk_pin_derive(pin, len, rec->salt, rec->iterations, v);
	if (rc < 0) {
		kc_wipe(v, sizeof v);
		return rc;
	}
	rc = kc_ct_eq(v, rec->verifier, sizeof v) ? 1 : 0;
	kc_wipe(v, sizeof v);
	return rc;
}

int tk_pin_try_check(tk_slot *s, const tk_pintry *t, const CK_UTF8CHAR *pin,
                     CK_ULONG len, uint8_t ticket[TK_TICKET_LEN], size_t *tlen)
{
	int rc = tk_auth_login(s->tid, t->who, &t->rec, pin, len, ticket, tlen);

	if (rc == PV_OK)
		return 1;
	return rc == PV_ERR_PIN_INCORRECT ? 0 : rc;
}
