/*
 * test_pk_session.c - sessions and login: C_OpenSession, C_CloseSession,
 * C_CloseAllSessions, C_GetSessionInfo, C_Login, C_Logout, C_LoginUser,
 * C_SessionCancel; PIN counters and lockout.
 */
#include <string.h>

#include "pkt.h"

#define PIN(s) (CK_UTF8CHAR_PTR)(s), (CK_ULONG)strlen(s)

static CK_SLOT_ID tok, uninit;

static int setup(void)
{
	return pkt_f->C_Initialize(NULL) == CKR_OK ? 0 : 1;
}
static int teardown(void)
{
	return pkt_f->C_Finalize(NULL) == CKR_OK ? 0 : 1;
}

static CK_STATE state(CK_SESSION_HANDLE h)
{
	CK_SESSION_INFO si;

	memset(&si, 0xff, sizeof si);
	CU_ASSERT(pkt_f->C_GetSessionInfo(h, &si) == CKR_OK);
	return si.state;
}

static void t_make_token(void)
{
	tok = pkt_new_token("sess", 1);
	uninit = pkt_uninit_slot();
}

static void t_open_close(void)
{
	CK_SESSION_HANDLE h = 0, h2;
	CK_SESSION_INFO si;
	CK_TOKEN_INFO ti;

	CU_ASSERT(pkt_f->C_OpenSession(tok, CKF_SERIAL_SESSION, NULL, NULL, NULL) ==
	          CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_OpenSession(tok, 0, NULL, NULL, &h) ==
	          CKR_SESSION_PARALLEL_NOT_SUPPORTED);
	CU_ASSERT(pkt_f->C_OpenSession(777, CKF_SERIAL_SESSION, NULL, NULL, &h) ==
	          CKR_SLOT_ID_INVALID);
	CU_ASSERT(pkt_f->C_OpenSession(uninit, CKF_SERIAL_SESSION, NULL, NULL, &h)
	          == CKR_TOKEN_NOT_RECOGNIZED);
	h = pkt_open(tok, 0);
	h2 = pkt_open(tok, 1);
	CU_ASSERT(h != h2 && h != CK_INVALID_HANDLE);
	CU_ASSERT(pkt_f->C_GetSessionInfo(h, NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetSessionInfo(h, &si) == CKR_OK);
	CU_ASSERT(si.slotID == tok);
	CU_ASSERT(si.flags == CKF_SERIAL_SESSION);
	CU_ASSERT(si.state == CKS_RO_PUBLIC_SESSION);
	CU_ASSERT(state(h2) == CKS_RW_PUBLIC_SESSION);
	CU_ASSERT(pkt_f->C_GetTokenInfo(tok, &ti) == CKR_OK);
	CU_ASSERT(ti.ulSessionCount == 2 && ti.ulRwSessionCount == 1);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_GetSessionInfo(h, &si) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_CloseSession(0) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_CloseSession(123456) == CKR_SESSION_HANDLE_INVALID);
	/* close all */
	h = pkt_open(tok, 0);
	CU_ASSERT(pkt_f->C_CloseAllSessions(777) == CKR_SLOT_ID_INVALID);
	CU_ASSERT(pkt_f->C_CloseAllSessions(tok) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetSessionInfo(h, &si) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_GetSessionInfo(h2, &si) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_GetTokenInfo(tok, &ti) == CKR_OK);
	CU_ASSERT(ti.ulSessionCount == 0);
}

static void t_login_user(void)
{
	CK_SESSION_HANDLE ro = pkt_open(tok, 0), rw = pkt_open(tok, 1);

	CU_ASSERT(pkt_f->C_Login(ro, CKU_USER, NULL, 4) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_Login(ro, 7, PIN(PKT_USER_PIN)) == CKR_USER_TYPE_INVALID);
	CU_ASSERT(pkt_f->C_Login(999, CKU_USER, PIN(PKT_USER_PIN)) ==
	          CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_Logout(ro) == CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT(pkt_f->C_Login(ro, CKU_CONTEXT_SPECIFIC, PIN(PKT_USER_PIN)) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT_FATAL(pkt_f->C_Login(ro, CKU_USER, PIN(PKT_USER_PIN)) == CKR_OK);
	/* login state is shared by every session of the application */
	CU_ASSERT(state(ro) == CKS_RO_USER_FUNCTIONS);
	CU_ASSERT(state(rw) == CKS_RW_USER_FUNCTIONS);
	CU_ASSERT(pkt_f->C_Login(rw, CKU_USER, PIN(PKT_USER_PIN)) ==
	          CKR_USER_ALREADY_LOGGED_IN);
	CU_ASSERT(pkt_f->C_Login(rw, CKU_SO, PIN(PKT_SO_PIN)) ==
	          CKR_USER_ANOTHER_ALREADY_LOGGED_IN);
	CU_ASSERT(pkt_f->C_Logout(999) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_Logout(rw) == CKR_OK);
	CU_ASSERT(state(ro) == CKS_RO_PUBLIC_SESSION);
	CU_ASSERT(pkt_f->C_Logout(rw) == CKR_USER_NOT_LOGGED_IN);
	/* closing the last session logs out */
	CU_ASSERT(pkt_f->C_Login(ro, CKU_USER, PIN(PKT_USER_PIN)) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(ro) == CKR_OK);
	CU_ASSERT(state(rw) == CKS_RW_USER_FUNCTIONS);
	CU_ASSERT(pkt_f->C_CloseSession(rw) == CKR_OK);
	rw = pkt_open(tok, 1);
	CU_ASSERT(state(rw) == CKS_RW_PUBLIC_SESSION);
	CU_ASSERT(pkt_f->C_CloseSession(rw) == CKR_OK);
}

static void t_login_so(void)
{
	CK_SESSION_HANDLE ro = pkt_open(tok, 0), rw = pkt_open(tok, 1), h;

	CU_ASSERT(pkt_f->C_Login(rw, CKU_SO, PIN(PKT_SO_PIN)) ==
	          CKR_SESSION_READ_ONLY_EXISTS);
	CU_ASSERT(pkt_f->C_CloseSession(ro) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_Login(rw, CKU_SO, PIN(PKT_SO_PIN)) == CKR_OK);
	CU_ASSERT(state(rw) == CKS_RW_SO_FUNCTIONS);
	CU_ASSERT(pkt_f->C_OpenSession(tok, CKF_SERIAL_SESSION, NULL, NULL, &h) ==
	          CKR_SESSION_READ_WRITE_SO_EXISTS);
	h = pkt_open(tok, 1);
	CU_ASSERT(state(h) == CKS_RW_SO_FUNCTIONS);
	CU_ASSERT(pkt_f->C_Login(h, CKU_USER, PIN(PKT_USER_PIN)) ==
	          CKR_USER_ANOTHER_ALREADY_LOGGED_IN);
	CU_ASSERT(pkt_f->C_Logout(h) == CKR_OK);
	CU_ASSERT(state(rw) == CKS_RW_PUBLIC_SESSION);
	CU_ASSERT(pkt_f->C_CloseAllSessions(tok) == CKR_OK);
}

static void t_login_user_30(void)
{
	CK_SESSION_HANDLE h = pkt_open(tok, 0);

	CU_ASSERT(pkt_f3->C_LoginUser(h, CKU_USER, PIN(PKT_USER_PIN), NULL, 3) ==
	          CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f3->C_LoginUser(h, CKU_USER, NULL, 4,
	                              (CK_UTF8CHAR_PTR)"me", 2) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f3->C_LoginUser(h, CKU_USER, PIN(PKT_USER_PIN),
	                              (CK_UTF8CHAR_PTR)"anyone", 6) == CKR_OK);
	CU_ASSERT(state(h) == CKS_RO_USER_FUNCTIONS);
	CU_ASSERT(pkt_f3->C_LoginUser(h, CKU_USER, PIN(PKT_USER_PIN), NULL, 0) ==
	          CKR_USER_ALREADY_LOGGED_IN);
	CU_ASSERT(pkt_f3->C_Logout(h) == CKR_OK);
	/* C_SessionCancel ends an active search */
	CU_ASSERT(pkt_f->C_FindObjectsInit(h, NULL, 0) == CKR_OK);
	CU_ASSERT(pkt_f3->C_SessionCancel(h, CKF_FIND_OBJECTS) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(h) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f3->C_SessionCancel(h, CKF_ENCRYPT) == CKR_OK);
	CU_ASSERT(pkt_f3->C_SessionCancel(999, CKF_FIND_OBJECTS) ==
	          CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

/* Wrong PINs: COUNT_LOW, FINAL_TRY, LOCKED after 10; a good PIN resets. */
static void t_pin_counter_and_lockout(void)
{
	CK_SLOT_ID lk = pkt_new_token("lockout", 1);
	CK_SESSION_HANDLE h = pkt_open(lk, 1);
	CK_TOKEN_INFO ti;
	int i;

	CU_ASSERT(pkt_f->C_Login(h, CKU_USER, PIN("00000000")) == CKR_PIN_INCORRECT);
	CU_ASSERT(pkt_f->C_GetTokenInfo(lk, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_USER_PIN_COUNT_LOW);
	CU_ASSERT(!(ti.flags & CKF_USER_PIN_FINAL_TRY));
	/* a good login resets the counter */
	CU_ASSERT(pkt_f->C_Login(h, CKU_USER, PIN(PKT_USER_PIN)) == CKR_OK);
	CU_ASSERT(pkt_f->C_Logout(h) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetTokenInfo(lk, &ti) == CKR_OK);
	CU_ASSERT(!(ti.flags & CKF_USER_PIN_COUNT_LOW));
	/* a PIN of a length the token never accepts is wrong, and spends no
	 * try */
	CU_ASSERT(pkt_f->C_Login(h, CKU_USER, PIN("1")) == CKR_PIN_INCORRECT);
	CU_ASSERT(pkt_f->C_GetTokenInfo(lk, &ti) == CKR_OK);
	CU_ASSERT(!(ti.flags & CKF_USER_PIN_COUNT_LOW));
	for (i = 0; i < 9; i++)
		CU_ASSERT(pkt_f->C_Login(h, CKU_USER, PIN("00000000")) ==
		          CKR_PIN_INCORRECT);
	CU_ASSERT(pkt_f->C_GetTokenInfo(lk, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_USER_PIN_FINAL_TRY);
	CU_ASSERT(!(ti.flags & CKF_USER_PIN_LOCKED));
	CU_ASSERT(pkt_f->C_Login(h, CKU_USER, PIN("00000000")) == CKR_PIN_INCORRECT);
	CU_ASSERT(pkt_f->C_GetTokenInfo(lk, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_USER_PIN_LOCKED);
	/* locked: even the right PIN is refused, without a PBKDF2 */
	CU_ASSERT(pkt_f->C_Login(h, CKU_USER, PIN(PKT_USER_PIN)) == CKR_PIN_LOCKED);
	CU_ASSERT(pkt_f->C_SetPIN(h, PIN(PKT_USER_PIN), PIN("44445555")) ==
	          CKR_PIN_LOCKED);
	/* the counter is in the store: a fresh initialisation sees it */
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetTokenInfo(lk, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_USER_PIN_LOCKED);
	/* the SO unlocks by setting a new user PIN */
	h = pkt_open(lk, 1);
	CU_ASSERT(pkt_f->C_Login(h, CKU_SO, PIN(PKT_SO_PIN)) == CKR_OK);
	CU_ASSERT(pkt_f->C_InitPIN(h, PIN("44445555")) == CKR_OK);
	CU_ASSERT(pkt_f->C_Logout(h) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetTokenInfo(lk, &ti) == CKR_OK);
	CU_ASSERT(!(ti.flags & (CKF_USER_PIN_LOCKED | CKF_USER_PIN_COUNT_LOW)));
	CU_ASSERT(pkt_f->C_Login(h, CKU_USER, PIN("44445555")) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

int main(void)
{
	CU_pSuite s;

	pkt_setup();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("pk_session", setup, teardown);
	CU_add_test(s, "make a token", t_make_token);
	CU_add_test(s, "open, close, close all, info", t_open_close);
	CU_add_test(s, "user login and logout", t_login_user);
	CU_add_test(s, "SO login", t_login_so);
	CU_add_test(s, "C_LoginUser and C_SessionCancel", t_login_user_30);
	CU_add_test(s, "PIN counter and lockout", t_pin_counter_and_lockout);
	return ts_run();
}
