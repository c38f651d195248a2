/*
 * pk_slot.c - slot and token management: C_GetSlotList, C_GetSlotInfo,
 * C_GetTokenInfo, C_WaitForSlotEvent, C_GetMechanismList,
 * C_GetMechanismInfo, C_InitToken, C_InitPIN, C_SetPIN.
 */
#include "pkcs11/pk_int.h"
#include "pkcs11/pk_mech.h"

/* The mechanism table lives in pk_mech.c. */

CK_RV C_GetSlotList(CK_BBOOL present, CK_SLOT_ID_PTR list, CK_ULONG_PTR count)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG(count != NULL);
	return tk_slot_list(present, list, count);
}

CK_RV C_GetSlotInfo(CK_SLOT_ID slot, CK_SLOT_INFO_PTR info)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG(info != NULL);
	return tk_slot_info(slot, info);
}

CK_RV C_GetTokenInfo(CK_SLOT_ID slot, CK_TOKEN_INFO_PTR info)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG(info != NULL);
	return tk_token_info(slot, info);
}

CK_RV C_WaitForSlotEvent(CK_FLAGS flags, CK_SLOT_ID_PTR slot, CK_VOID_PTR rsvd)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG(slot != NULL && rsvd == NULL);
	/* tokens are virtual: no insertion or removal events ever happen */
	if (flags & CKF_DONT_BLOCK)
		return CKR_NO_EVENT;
	return CKR_FUNCTION_NOT_SUPPORTED;
}

CK_RV C_GetMechanismList(CK_SLOT_ID slot, CK_MECHANISM_TYPE_PTR list,
                         CK_ULONG_PTR count)
{
	CK_RV rv;

	PK_CHECK_INIT();
	PK_CHECK_ARG(count != NULL);
	rv = tk_slot_check(slot);
	if (rv != CKR_OK)
		return rv;
	return pk_mech_list(list, count);
}

CK_RV C_GetMechanismInfo(CK_SLOT_ID slot, CK_MECHANISM_TYPE type,
                         CK_MECHANISM_INFO_PTR info)
{
	CK_RV rv;

	PK_CHECK_INIT();
	PK_CHECK_ARG(info != NULL);
	rv = tk_slot_check(slot);
	if (rv != CKR_OK)
		return rv;
	return pk_mech_info(type, info);
}

CK_RV C_InitToken(CK_SLOT_ID slot, CK_UTF8CHAR_PTR pin, CK_ULONG pin_len,
                  CK_UTF8CHAR_PTR label)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG(pin != NULL && label != NULL);
	return tk_init_token(slot, pin, pin_len, label);
}

CK_RV C_InitPIN(CK_SESSION_HANDLE h, CK_UTF8CHAR_PTR pin, CK_ULONG pin_len)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(pin != NULL);
	return tk_init_pin(h, pin, pin_len);
}

CK_RV C_SetPIN(CK_SESSION_HANDLE h, CK_UTF8CHAR_PTR old, CK_ULONG old_len,
               CK_UTF8CHAR_PTR new_pin, CK_ULONG new_len)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(old != NULL && new_pin != NULL);
	return tk_set_pin(h, old, old_len, new_pin, new_len);
}
