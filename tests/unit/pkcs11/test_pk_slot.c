/*
 * test_pk_slot.c - slot and token functions: C_GetSlotList, C_GetSlotInfo,
 * C_GetTokenInfo, C_WaitForSlotEvent, C_GetMechanismList/Info,
 * C_InitToken, C_InitPIN, C_SetPIN.
 */
#include <string.h>

#include "pkt.h"

#define PIN(s) (CK_UTF8CHAR_PTR)(s), (CK_ULONG)strlen(s)

static CK_SLOT_ID tok;       /* initialised token with a user PIN */

static int setup(void)
{
	return pkt_f->C_Initialize(NULL) == CKR_OK ? 0 : 1;
}
static int teardown(void)
{
	return pkt_f->C_Finalize(NULL) == CKR_OK ? 0 : 1;
}

static void t_slot_list_fresh(void)
{
	CK_SLOT_ID slots[8];
	CK_ULONG n = 0;
	CK_TOKEN_INFO ti;
	CK_SLOT_INFO si;

	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, NULL, NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, NULL, &n) == CKR_OK);
	CU_ASSERT(n == 1);                 /* only the "new token" slot */
	n = 8;
	CU_ASSERT(pkt_f->C_GetSlotList(CK_TRUE, slots, &n) == CKR_OK);
	CU_ASSERT_FATAL(n == 1);
	CU_ASSERT(pkt_f->C_GetSlotInfo(slots[0], &si) == CKR_OK);
	CU_ASSERT(si.flags & CKF_TOKEN_PRESENT);
	CU_ASSERT(memcmp(si.manufacturerID, "PixelVault ", 11) == 0);
	CU_ASSERT(pkt_f->C_GetTokenInfo(slots[0], &ti) == CKR_OK);
	CU_ASSERT(!(ti.flags & CKF_TOKEN_INITIALIZED));
	CU_ASSERT(memcmp(ti.model, "PixelVault ", 11) == 0);
	CU_ASSERT(pkt_f->C_GetSlotInfo(slots[0], NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetTokenInfo(slots[0], NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetSlotInfo(777, &si) == CKR_SLOT_ID_INVALID);
	CU_ASSERT(pkt_f->C_GetTokenInfo(777, &ti) == CKR_SLOT_ID_INVALID);
}

static void t_init_token(void)
{
	CK_SLOT_ID slots[8], first;
	CK_ULONG n;
	CK_TOKEN_INFO ti;
	CK_UTF8CHAR lb[32];
	CK_SESSION_HANDLE h;

	first = pkt_uninit_slot();
	pkt_label(lb, "alpha");
	CU_ASSERT(pkt_f->C_InitToken(first, NULL, 4, lb) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_InitToken(first, PIN("87654321"), NULL) ==
	          CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_InitToken(first, PIN("123"), lb) == CKR_PIN_LEN_RANGE);
	CU_ASSERT(pkt_f->C_InitToken(777, PIN("87654321"), lb) ==
	          CKR_SLOT_ID_INVALID);
	CU_ASSERT_FATAL(pkt_f->C_InitToken(first, PIN(PKT_SO_PIN), lb) == CKR_OK);
	tok = first;
	CU_ASSERT(pkt_f->C_GetTokenInfo(first, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_TOKEN_INITIALIZED);
	CU_ASSERT(ti.flags & CKF_LOGIN_REQUIRED);
	CU_ASSERT(!(ti.flags & CKF_USER_PIN_INITIALIZED));
	CU_ASSERT(memcmp(ti.label, lb, 32) == 0);
	CU_ASSERT(memcmp(ti.manufacturerID, "PixelVault ", 11) == 0);
	CU_ASSERT(ti.ulMinPinLen == 4 && ti.ulMaxPinLen == 255);
	/* a new uninitialised slot is offered */
	n = 8;
	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, slots, &n) == CKR_OK);
	CU_ASSERT(n == 2);
	CU_ASSERT(pkt_uninit_slot() != first);
	/* re-initialising with a session open: CKR_SESSION_EXISTS */
	h = pkt_open(first, 0);
	CU_ASSERT(pkt_f->C_InitToken(first, PIN(PKT_SO_PIN), lb) ==
	          CKR_SESSION_EXISTS);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

static void t_serials_unique_and_ids_stable(void)
{
	CK_SLOT_ID b = pkt_new_token("beta", 0), slots[8], slots2[8];
	CK_TOKEN_INFO ta, tb;
	CK_ULONG n = 8, n2 = 8, i;

	CU_ASSERT(b != tok);
	CU_ASSERT(pkt_f->C_GetTokenInfo(tok, &ta) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetTokenInfo(b, &tb) == CKR_OK);
	CU_ASSERT(memcmp(ta.serialNumber, tb.serialNumber, 16) != 0);
	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, slots, &n) == CKR_OK);
	/* IDs survive C_Finalize / C_Initialize (as they do across processes) */
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
	CU_ASSERT(pkt_f->C_Initialize(NULL) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, slots2, &n2) == CKR_OK);
	CU_ASSERT_FATAL(n == n2);
	for (i = 0; i < n; i++)
		CU_ASSERT(slots[i] == slots2[i]);
	CU_ASSERT(pkt_f->C_GetTokenInfo(b, &tb) == CKR_OK);
	CU_ASSERT(memcmp(tb.label, "beta ", 5) == 0);
	/* short buffer: CKR_BUFFER_TOO_SMALL with the needed count */
	n2 = 1;
	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, slots2, &n2) == CKR_BUFFER_TOO_SMALL);
	CU_ASSERT(n2 == n);
}

static void t_mechanisms_and_events(void)
{
	CK_ULONG n = 5, n2, i;
	CK_MECHANISM_TYPE m[256];
	CK_MECHANISM_INFO mi;
	CK_SLOT_ID s = 99;
	CK_MECHANISM_TYPE bogus = CKM_VENDOR_DEFINED | 0x7ff1234UL;

	CU_ASSERT(pkt_f->C_GetMechanismList(tok, NULL, NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetMechanismList(tok, NULL, &n) == CKR_OK);
	CU_ASSERT_FATAL(n <= 256);
	n2 = 256;
	CU_ASSERT(pkt_f->C_GetMechanismList(tok, m, &n2) == CKR_OK);
	CU_ASSERT(n2 == n);
	for (i = 0; i < n2; i++)        /* only what works: each has info */
		CU_ASSERT(pkt_f->C_GetMechanismInfo(tok, m[i], &mi) == CKR_OK);
	if (n > 0) {                    /* short buffer: the needed count */
		n2 = n - 1;
		CU_ASSERT(pkt_f->C_GetMechanismList(tok, m, &n2) ==
		          CKR_BUFFER_TOO_SMALL);
		CU_ASSERT(n2 == n);
	}
	CU_ASSERT(pkt_f->C_GetMechanismList(777, m, &n) == CKR_SLOT_ID_INVALID);
	CU_ASSERT(pkt_f->C_GetMechanismInfo(tok, bogus, &mi) ==
	          CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_GetMechanismInfo(tok, bogus, NULL) ==
	          CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetMechanismInfo(777, bogus, &mi) ==
	          CKR_SLOT_ID_INVALID);
	CU_ASSERT(pkt_f->C_WaitForSlotEvent(CKF_DONT_BLOCK, &s, NULL) ==
	          CKR_NO_EVENT);
	CU_ASSERT(pkt_f->C_WaitForSlotEvent(CKF_DONT_BLOCK, NULL, NULL) ==
	          CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_WaitForSlotEvent(CKF_DONT_BLOCK, &s, &s) ==
	          CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_WaitForSlotEvent(0, &s, NULL) ==
	          CKR_FUNCTION_NOT_SUPPORTED);
}

static void t_init_pin(void)
{
	CK_SESSION_HANDLE ro = pkt_open(tok, 0), rw = pkt_open(tok, 1);
	CK_TOKEN_INFO ti;

	/* not logged in as SO */
	CU_ASSERT(pkt_f->C_InitPIN(rw, PIN(PKT_USER_PIN)) == CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT(pkt_f->C_InitPIN(ro, PIN(PKT_USER_PIN)) == CKR_SESSION_READ_ONLY);
	CU_ASSERT(pkt_f->C_InitPIN(999, PIN(PKT_USER_PIN)) ==
	          CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_InitPIN(rw, NULL, 4) == CKR_ARGUMENTS_BAD);
	/* user PIN not initialised yet */
	CU_ASSERT(pkt_f->C_Login(rw, CKU_USER, PIN(PKT_USER_PIN)) ==
	          CKR_USER_PIN_NOT_INITIALIZED);
	/* SO login needs every session to be RW */
	CU_ASSERT(pkt_f->C_Login(rw, CKU_SO, PIN(PKT_SO_PIN)) ==
	          CKR_SESSION_READ_ONLY_EXISTS);
	CU_ASSERT(pkt_f->C_CloseSession(ro) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_Login(rw, CKU_SO, PIN(PKT_SO_PIN)) == CKR_OK);
	CU_ASSERT(pkt_f->C_InitPIN(rw, PIN("12")) == CKR_PIN_LEN_RANGE);
	CU_ASSERT(pkt_f->C_InitPIN(rw, PIN(PKT_USER_PIN)) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetTokenInfo(tok, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_USER_PIN_INITIALIZED);
	CU_ASSERT(pkt_f->C_Logout(rw) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(rw) == CKR_OK);
}

static void t_set_pin(void)
{
	CK_SESSION_HANDLE ro = pkt_open(tok, 0), rw = pkt_open(tok, 1);
	CK_TOKEN_INFO ti;

	CU_ASSERT(pkt_f->C_SetPIN(ro, PIN(PKT_USER_PIN), PIN("22223333")) ==
	          CKR_SESSION_READ_ONLY);
	CU_ASSERT(pkt_f->C_SetPIN(rw, NULL, 4, PIN("22223333")) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_SetPIN(rw, PIN(PKT_USER_PIN), NULL, 4) ==
	          CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_SetPIN(rw, PIN(PKT_USER_PIN), PIN("1")) ==
	          CKR_PIN_LEN_RANGE);
	/* wrong old PIN counts as a failure */
	CU_ASSERT(pkt_f->C_SetPIN(rw, PIN("00000000"), PIN("22223333")) ==
	          CKR_PIN_INCORRECT);
	CU_ASSERT(pkt_f->C_GetTokenInfo(tok, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_USER_PIN_COUNT_LOW);
	/* public session: changes the user PIN */
	CU_ASSERT(pkt_f->C_SetPIN(rw, PIN(PKT_USER_PIN), PIN("22223333")) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetTokenInfo(tok, &ti) == CKR_OK);
	CU_ASSERT(!(ti.flags & CKF_USER_PIN_COUNT_LOW));
	CU_ASSERT(pkt_f->C_Login(ro, CKU_USER, PIN(PKT_USER_PIN)) ==
	          CKR_PIN_INCORRECT);
	CU_ASSERT(pkt_f->C_Login(ro, CKU_USER, PIN("22223333")) == CKR_OK);
	/* logged in user: changes it back */
	CU_ASSERT(pkt_f->C_SetPIN(rw, PIN("22223333"), PIN(PKT_USER_PIN)) == CKR_OK);
	CU_ASSERT(pkt_f->C_Logout(ro) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(ro) == CKR_OK);
	/* SO changes the SO PIN */
	CU_ASSERT_FATAL(pkt_f->C_Login(rw, CKU_SO, PIN(PKT_SO_PIN)) == CKR_OK);
	CU_ASSERT(pkt_f->C_SetPIN(rw, PIN(PKT_SO_PIN), PIN("99998888")) == CKR_OK);
	CU_ASSERT(pkt_f->C_Logout(rw) == CKR_OK);
	CU_ASSERT(pkt_f->C_Login(rw, CKU_SO, PIN("99998888")) == CKR_OK);
	CU_ASSERT(pkt_f->C_SetPIN(rw, PIN("99998888"), PIN(PKT_SO_PIN)) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(rw) == CKR_OK);
	CU_ASSERT(pkt_f->C_SetPIN(rw, PIN(PKT_SO_PIN), PIN("99998888")) ==
	          CKR_SESSION_HANDLE_INVALID);
}

static void t_reinit_token(void)
{
	CK_SESSION_HANDLE h = pkt_open(tok, 1);
	CK_OBJECT_CLASS cls = CKO_DATA;
	CK_BBOOL tru = CK_TRUE;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof cls }, { CKA_TOKEN, &tru, 1 },
	};
	CK_OBJECT_HANDLE o, found[2];
	CK_ULONG n = 9;
	CK_UTF8CHAR lb[32];
	CK_TOKEN_INFO ti;

	CU_ASSERT_FATAL(pkt_f->C_CreateObject(h, t, 2, &o) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
	pkt_label(lb, "alpha2");
	CU_ASSERT(pkt_f->C_InitToken(tok, PIN("00000000"), lb) == CKR_PIN_INCORRECT);
	CU_ASSERT(pkt_f->C_GetTokenInfo(tok, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_SO_PIN_COUNT_LOW);
	CU_ASSERT(pkt_f->C_InitToken(tok, PIN(PKT_SO_PIN), lb) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetTokenInfo(tok, &ti) == CKR_OK);
	CU_ASSERT(memcmp(ti.label, lb, 32) == 0);
	CU_ASSERT(!(ti.flags & CKF_USER_PIN_INITIALIZED));
	CU_ASSERT(!(ti.flags & CKF_SO_PIN_COUNT_LOW));
	/* every object is gone */
	h = pkt_open(tok, 0);
	CU_ASSERT(pkt_f->C_FindObjectsInit(h, NULL, 0) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjects(h, found, 2, &n) == CKR_OK);
	CU_ASSERT(n == 0);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(h) == CKR_OK);
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
}

int main(void)
{
	CU_pSuite s;

	pkt_setup();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("pk_slot", setup, teardown);
	CU_add_test(s, "slot list on an empty token dir", t_slot_list_fresh);
	CU_add_test(s, "C_InitToken", t_init_token);
	CU_add_test(s, "serials unique, slot IDs stable", t_serials_unique_and_ids_stable);
	CU_add_test(s, "mechanisms and slot events", t_mechanisms_and_events);
	CU_add_test(s, "C_InitPIN", t_init_pin);
	CU_add_test(s, "C_SetPIN", t_set_pin);
	CU_add_test(s, "C_InitToken on an existing token", t_reinit_token);
	return ts_run();
}
