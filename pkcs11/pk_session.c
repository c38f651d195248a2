/*
 * pk_session.c - session management and login: C_OpenSession,
 * C_CloseSession, C_CloseAllSessions, C_GetSessionInfo, C_Login,
 * C_Logout, C_LoginUser (3.0), C_SessionCancel (3.0),
 * C_GetOperationState, C_SetOperationState.
 */
#include "pkcs11/pk_int.h"
#include "pkcs11/pk_mech.h"

CK_RV C_OpenSession(CK_SLOT_ID slot, CK_FLAGS flags, CK_VOID_PTR app,
                    CK_NOTIFY notify, CK_SESSION_HANDLE_PTR out)
{
	PK_CHECK_INIT();
	PK_CHECK_ARG(out != NULL);
	(void)app;
	(void)notify;                  /* no callbacks are ever made */
	if (!(flags & CKF_SERIAL_SESSION))
		return CKR_SESSION_PARALLEL_NOT_SUPPORTED;
	return tk_open_session(slot, flags, out);
}

CK_RV C_CloseSession(CK_SESSION_HANDLE h)
{
	PK_CHECK_INIT();
	return tk_close_session(h);
}

CK_RV C_CloseAllSessions(CK_SLOT_ID slot)
{
	PK_CHECK_INIT();
	return tk_close_all_sessions(slot);
}

CK_RV C_GetSessionInfo(CK_SESSION_HANDLE h, CK_SESSION_INFO_PTR info)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(info != NULL);
	return tk_session_info(h, info);
}

CK_RV C_Login(CK_SESSION_HANDLE h, CK_USER_TYPE who, CK_UTF8CHAR_PTR pin,
              CK_ULONG pin_len)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(pin != NULL);
	return tk_login(h, who, pin, pin_len);
}

CK_RV C_LoginUser(CK_SESSION_HANDLE h, CK_USER_TYPE who, CK_UTF8CHAR_PTR pin,
                  CK_ULONG pin_len, CK_UTF8CHAR_PTR user, CK_ULONG user_len)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(pin != NULL);
	PK_CHECK_ARG(user != NULL || user_len == 0);
	/* one user per token: the user name does not select anything */
	(void)user_len;
	return tk_login(h, who, pin, pin_len);
}

CK_RV C_Logout(CK_SESSION_HANDLE h)
{
	PK_CHECK_INIT();
	return tk_logout(h);
}

CK_RV C_SessionCancel(CK_SESSION_HANDLE h, CK_FLAGS flags)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	/* only object search can be active until the crypto families land */
	return tk_session_cancel(h, (flags & CKF_FIND_OBJECTS) != 0);
}

CK_RV C_GetOperationState(CK_SESSION_HANDLE h, CK_BYTE_PTR state,
                          CK_ULONG_PTR len)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(len != NULL);
	return pk_op_state_get(h, state, len);      /* pk_digest.c */
}

CK_RV C_SetOperationState(CK_SESSION_HANDLE h, CK_BYTE_PTR state,
                          CK_ULONG len, CK_OBJECT_HANDLE enc_key,
                          CK_OBJECT_HANDLE auth_key)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(state != NULL || len == 0);
	return pk_op_state_set(h, state, len, enc_key, auth_key);
}
