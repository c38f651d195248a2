/*
 * test_pk_general.c - the module's ABI: exported symbols, interfaces,
 * C_Initialize / C_Finalize variants, calls before C_Initialize, fork,
 * C_GetInfo, the not-yet-implemented families.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pkt.h"

/* ---- exports ---- */
static void t_exports(void)
{
	static const char *const hidden[] = {
		"C_Initialize", "C_Finalize", "C_GetInfo", "C_OpenSession",
		"C_Login", "C_CreateObject", "C_FindObjects", "C_LoginUser",
		"C_SessionCancel", "tk_initialize", "tk_rv_from_pv",
		"kc_pbkdf2_hmac", "sqlite3_open_v2",
	};
	size_t i;

	CU_ASSERT_PTR_NOT_NULL(dlsym(pkt_dl, "C_GetFunctionList"));
	CU_ASSERT_PTR_NOT_NULL(dlsym(pkt_dl, "C_GetInterface"));
	CU_ASSERT_PTR_NOT_NULL(dlsym(pkt_dl, "C_GetInterfaceList"));
	for (i = 0; i < sizeof hidden / sizeof hidden[0]; i++) {
		void *p = dlsym(pkt_dl, hidden[i]);
		/* sqlite3 may come from the system library: only our own
		 * definition must not be visible through the module handle */
		if (strcmp(hidden[i], "sqlite3_open_v2") == 0 && p != NULL) {
			Dl_info di;
			CU_ASSERT(dladdr(p, &di) != 0 &&
			          strstr(di.dli_fname, "pixelvault") == NULL);
			continue;
		}
		CU_ASSERT_PTR_NULL(p);
	}
}

static void t_function_list(void)
{
	CK_C_GetFunctionList gfl = (CK_C_GetFunctionList)dlsym(pkt_dl,
	                                                       "C_GetFunctionList");
	CK_FUNCTION_LIST *f = NULL;
	void **fp;
	size_t i, n;

	CU_ASSERT(gfl(NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(gfl(&f) == CKR_OK);
	CU_ASSERT_PTR_EQUAL(f, pkt_f);
	CU_ASSERT(f->version.major == 2 && f->version.minor == 40);
	/* every entry is set */
	fp = (void **)&f->C_Initialize;
	n = (sizeof *f - offsetof(CK_FUNCTION_LIST, C_Initialize)) / sizeof(void *);
	CU_ASSERT(n == 68);
	for (i = 0; i < n; i++)
		CU_ASSERT_PTR_NOT_NULL(fp[i]);
	fp = (void **)&pkt_f3->C_Initialize;
	n = (sizeof *pkt_f3 - offsetof(CK_FUNCTION_LIST_3_0, C_Initialize)) /
	    sizeof(void *);
	CU_ASSERT(n == 92);
	for (i = 0; i < n; i++)
		CU_ASSERT_PTR_NOT_NULL(fp[i]);
	CU_ASSERT(pkt_f3->version.major == 3 && pkt_f3->version.minor == 0);
	/* the 3.2 list: the 3.0 functions, then 3.2's twelve */
	{
		CK_C_GetInterface gi = (CK_C_GetInterface)dlsym(pkt_dl, "C_GetInterface");
		CK_VERSION v32 = { 3, 2 };
		CK_INTERFACE *ip = NULL;
		CK_FUNCTION_LIST_3_2 *f32;

		CU_ASSERT_FATAL(gi((CK_UTF8CHAR_PTR)"PKCS 11", &v32, &ip, 0) == CKR_OK);
		f32 = ip->pFunctionList;
		CU_ASSERT(f32->v30.version.major == 3 && f32->v30.version.minor == 2);
		fp = (void **)&f32->v30.C_Initialize;
		n = (sizeof *f32 - offsetof(CK_FUNCTION_LIST_3_0, C_Initialize)) / sizeof(void *);
		CU_ASSERT(n == 104);
		for (i = 0; i < n; i++)
			CU_ASSERT_PTR_NOT_NULL(fp[i]);
		/* the 3.0 part is the 3.0 list's */
		CU_ASSERT_PTR_EQUAL(f32->v30.C_Digest, pkt_f3->C_Digest);
		CU_ASSERT_PTR_EQUAL(f32->v30.C_MessageVerifyFinal, pkt_f3->C_MessageVerifyFinal);
	}
}

static void t_interfaces(void)
{
	CK_C_GetInterfaceList gil = (CK_C_GetInterfaceList)dlsym(pkt_dl,
	                                                        "C_GetInterfaceList");
	CK_C_GetInterface gi = (CK_C_GetInterface)dlsym(pkt_dl, "C_GetInterface");
	CK_INTERFACE list[4], *ip = NULL;
	CK_ULONG n = 0, i;
	CK_VERSION v240 = { 2, 40 }, v30 = { 3, 0 }, v31 = { 3, 1 };
	int seen240 = 0, seen30 = 0, seen32 = 0;

	CU_ASSERT(gil(NULL, NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(gil(NULL, &n) == CKR_OK);
	CU_ASSERT(n == 3);
	n = 2;
	CU_ASSERT(gil(list, &n) == CKR_BUFFER_TOO_SMALL);
	CU_ASSERT(n == 3);
	n = 4;
	CU_ASSERT(gil(list, &n) == CKR_OK);
	CU_ASSERT(n == 3);
	for (i = 0; i < n; i++) {
		CK_VERSION *v = list[i].pFunctionList;
		CU_ASSERT_STRING_EQUAL((char *)list[i].pInterfaceName, "PKCS 11");
		CU_ASSERT(list[i].flags == 0);     /* never FORK_SAFE */
		if (v->major == 2 && v->minor == 40)
			seen240 = 1;
		if (v->major == 3 && v->minor == 0)
			seen30 = 1;
		if (v->major == 3 && v->minor == 2)
			seen32 = 1;
	}
	CU_ASSERT(seen240 && seen30 && seen32);

	CU_ASSERT(gi(NULL, NULL, NULL, 0) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(gi(NULL, NULL, &ip, 0) == CKR_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ip);
	CU_ASSERT_PTR_NOT_NULL(ip->pFunctionList);
	CU_ASSERT(((CK_VERSION *)ip->pFunctionList)->major == 3);
	CU_ASSERT_PTR_EQUAL(ip->pFunctionList, pkt_f3);    /* 3.0 is the default */
	ip = NULL;
	CU_ASSERT(gi((CK_UTF8CHAR_PTR)"PKCS 11", &v240, &ip, 0) == CKR_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ip);
	CU_ASSERT_PTR_EQUAL(ip->pFunctionList, pkt_f);
	ip = NULL;
	CU_ASSERT(gi((CK_UTF8CHAR_PTR)"PKCS 11", &v30, &ip, 0) == CKR_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ip);
	CU_ASSERT_PTR_EQUAL(ip->pFunctionList, pkt_f3);
	ip = NULL;
	CU_ASSERT(gi((CK_UTF8CHAR_PTR)"PKCS 11", &v31, &ip, 0) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(gi((CK_UTF8CHAR_PTR)"Vendor", NULL, &ip, 0) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(gi(NULL, NULL, &ip, CKF_INTERFACE_FORK_SAFE) == CKR_ARGUMENTS_BAD);
	CU_ASSERT_PTR_NULL(ip);
}

/* ---- before C_Initialize ---- */
static void t_before_init(void)
{
	CK_INFO info;
	CK_SLOT_ID slots[4];
	CK_ULONG n = 4;
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE o;
	CK_ATTRIBUTE a = { CKA_LABEL, NULL, 0 };
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	CK_BYTE buf[8];
	CK_UTF8CHAR lb[32];

	pkt_label(lb, "x");
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_GetInfo(&info) == CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, slots, &n) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_InitToken(0, (CK_UTF8CHAR_PTR)"1234", 4, lb) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_OpenSession(0, CKF_SERIAL_SESSION, NULL, NULL, &h) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_CloseAllSessions(0) == CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_Login(1, CKU_USER, (CK_UTF8CHAR_PTR)"1234", 4) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_CreateObject(1, &a, 1, &o) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_FindObjectsInit(1, NULL, 0) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_DigestInit(1, &m) == CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_GenerateRandom(1, buf, sizeof buf) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_WaitForSlotEvent(CKF_DONT_BLOCK, slots, NULL) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f3->C_LoginUser(1, CKU_USER, (CK_UTF8CHAR_PTR)"1234", 4,
	                              NULL, 0) == CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f3->C_SessionCancel(1, CKF_FIND_OBJECTS) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
	CU_ASSERT(pkt_f3->C_MessageEncryptInit(1, &m, 1) ==
	          CKR_CRYPTOKI_NOT_INITIALIZED);
}

/* ---- C_Initialize variants ---- */
static int app_mutex_calls;
static pthread_mutex_t app_mutex_mu = PTHREAD_MUTEX_INITIALIZER;

static CK_RV app_create(void **m)
{
	pthread_mutex_t *p = malloc(sizeof *p);
	if (p == NULL)
		return CKR_HOST_MEMORY;
	pthread_mutex_init(p, NULL);
	*m = p;
	pthread_mutex_lock(&app_mutex_mu);
	app_mutex_calls++;
	pthread_mutex_unlock(&app_mutex_mu);
	return CKR_OK;
}
static CK_RV app_destroy(void *m)
{
	pthread_mutex_destroy(m);
	free(m);
	return CKR_OK;
}
static CK_RV app_lock(void *m)
{
	pthread_mutex_lock(m);
	pthread_mutex_lock(&app_mutex_mu);
	app_mutex_calls++;
	pthread_mutex_unlock(&app_mutex_mu);
	return CKR_OK;
}
static CK_RV app_unlock(void *m)
{
	pthread_mutex_unlock(m);
	return CKR_OK;
}

static void t_init_variants(void)
{
	CK_C_INITIALIZE_ARGS a;
	CK_SLOT_ID slots[8];
	CK_ULONG n;
	int before;

	/* NULL */
	CU_ASSERT(pkt_f->C_Initialize(NULL) == CKR_OK);
	CU_ASSERT(pkt_f->C_Initialize(NULL) == CKR_CRYPTOKI_ALREADY_INITIALIZED);
	CU_ASSERT(pkt_f->C_Finalize((void *)1) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_CRYPTOKI_NOT_INITIALIZED);

	/* CKF_OS_LOCKING_OK without callbacks */
	memset(&a, 0, sizeof a);
	a.flags = CKF_OS_LOCKING_OK;
	CU_ASSERT(pkt_f->C_Initialize(&a) == CKR_OK);
	CU_ASSERT(pkt_f->C_Initialize(&a) == CKR_CRYPTOKI_ALREADY_INITIALIZED);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);

	/* NSS: OS locking plus CKF_LIBRARY_CANT_CREATE_OS_THREADS */
	a.flags = CKF_OS_LOCKING_OK | CKF_LIBRARY_CANT_CREATE_OS_THREADS;
	CU_ASSERT(pkt_f->C_Initialize(&a) == CKR_OK);
	n = 8;
	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, slots, &n) == CKR_OK);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);

	/* pReserved must be NULL */
	a.flags = 0;
	a.pReserved = &a;
	CU_ASSERT(pkt_f->C_Initialize(&a) == CKR_ARGUMENTS_BAD);
	a.pReserved = NULL;

	/* some but not all callbacks */
	a.CreateMutex = app_create;
	CU_ASSERT(pkt_f->C_Initialize(&a) == CKR_ARGUMENTS_BAD);
	a.DestroyMutex = app_destroy;
	a.LockMutex = app_lock;
	CU_ASSERT(pkt_f->C_Initialize(&a) == CKR_ARGUMENTS_BAD);
	a.UnlockMutex = app_unlock;

	/* callbacks without OS locking: the module uses the callbacks */
	before = app_mutex_calls;
	CU_ASSERT(pkt_f->C_Initialize(&a) == CKR_OK);
	n = 8;
	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, slots, &n) == CKR_OK);
	CU_ASSERT(app_mutex_calls > before);
	CU_ASSERT(pkt_f->C_Initialize(&a) == CKR_CRYPTOKI_ALREADY_INITIALIZED);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);

	/* callbacks with OS locking: either is allowed; it must work */
	a.flags = CKF_OS_LOCKING_OK;
	CU_ASSERT(pkt_f->C_Initialize(&a) == CKR_OK);
	n = 8;
	CU_ASSERT(pkt_f->C_GetSlotList(CK_FALSE, slots, &n) == CKR_OK);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
}

/* A second C_Initialize from another thread while initialised: no
 * deadlock, CKR_CRYPTOKI_ALREADY_INITIALIZED. */
static void *second_init(void *arg)
{
	CK_RV *rv = arg;
	*rv = pkt_f->C_Initialize(NULL);
	return NULL;
}

static void t_second_init_thread(void)
{
	pthread_t th;
	CK_RV rv = 0;

	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	CU_ASSERT(pthread_create(&th, NULL, second_init, &rv) == 0);
	pthread_join(th, NULL);
	CU_ASSERT(rv == CKR_CRYPTOKI_ALREADY_INITIALIZED);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
}

static void t_get_info(void)
{
	CK_INFO info;

	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetInfo(NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetInfo(&info) == CKR_OK);
	CU_ASSERT(info.cryptokiVersion.major == 2 &&
	          info.cryptokiVersion.minor == 40);
	CU_ASSERT(memcmp(info.manufacturerID, "PixelVault ", 11) == 0);
	CU_ASSERT(info.flags == 0);
	CU_ASSERT(pkt_f3->C_GetInfo(&info) == CKR_OK);
	CU_ASSERT(info.cryptokiVersion.major == 3 &&
	          info.cryptokiVersion.minor == 0);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
}

/* ---- fork ---- */
static void t_fork(void)
{
	CK_SLOT_ID slot;
	CK_SESSION_HANDLE h;
	pid_t pid;
	int st = -1;
	CK_BYTE v[] = "shared";
	CK_OBJECT_CLASS cls = CKO_DATA;
	CK_BBOOL tru = CK_TRUE;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof cls },
		{ CKA_TOKEN, &tru, sizeof tru },
		{ CKA_LABEL, "forked", 6 },
		{ CKA_VALUE, v, sizeof v },
	};
	CK_OBJECT_HANDLE o;

	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	slot = pkt_new_token("fork", 0);
	h = pkt_open(slot, 1);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(h, t, 4, &o) == CKR_OK);

	pid = fork();
	if (pid == 0) {
		/* child: the parent's initialisation does not count here */
		CK_INFO info;
		CK_SESSION_HANDLE ch;
		CK_SESSION_INFO si;
		CK_OBJECT_HANDLE found[4];
		CK_ULONG n = 0;
		int bad = 0;
		if (pkt_f->C_GetInfo(&info) != CKR_CRYPTOKI_NOT_INITIALIZED) bad |= 1;
		if (pkt_f->C_GetSessionInfo(h, &si) != CKR_CRYPTOKI_NOT_INITIALIZED)
			bad |= 2;
		if (pkt_f->C_Finalize(NULL) != CKR_CRYPTOKI_NOT_INITIALIZED) bad |= 4;
		if (pkt_f->C_Initialize(NULL) != CKR_OK) bad |= 8;
		if (pkt_f->C_Initialize(NULL) != CKR_CRYPTOKI_ALREADY_INITIALIZED)
			bad |= 16;
		if (pkt_f->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &ch)
		    != CKR_OK)
			bad |= 32;
		else if (pkt_f->C_FindObjectsInit(ch, &t[2], 1) != CKR_OK ||
		         pkt_f->C_FindObjects(ch, found, 4, &n) != CKR_OK || n != 1 ||
		         pkt_f->C_FindObjectsFinal(ch) != CKR_OK)
			bad |= 64;
		if (pkt_f->C_Finalize(NULL) != CKR_OK) bad |= 128;
		_exit(bad);
	}
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT(waitpid(pid, &st, 0) == pid);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* the parent is untouched by the child */
	{
		CK_SESSION_INFO si;
		CU_ASSERT(pkt_f->C_GetSessionInfo(h, &si) == CKR_OK);
		CU_ASSERT(pkt_f->C_DestroyObject(h, o) == CKR_OK);
	}
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
}

/* ---- the crypto families: behaviour matches what the token advertises.
 * A mechanism the token never lists must be refused by every Init; no
 * operation is active without an Init; C_GenerateRandom follows CKF_RNG.
 * It holds for any mechanism list, an empty one included; what each listed
 * mechanism does is tested in p11crypto and p11pk. ---- */
static void t_stubs(void)
{
	CK_SLOT_ID slot;
	CK_SESSION_HANDLE h;
	CK_MECHANISM m = { CKM_VENDOR_DEFINED | 0x7ff1234UL, NULL, 0 };
	CK_BYTE buf[32];
	CK_ULONG len = sizeof buf, cnt = 0, i, n2;
	CK_OBJECT_HANDLE k1, k2;
	CK_MECHANISM_INFO mi;
	CK_MECHANISM_TYPE *list;
	CK_TOKEN_INFO ti;
	CK_RV rv;

	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	slot = pkt_new_token("stubs", 0);
	h = pkt_open(slot, 1);
	/* the mechanism list is self-consistent */
	CU_ASSERT_FATAL(pkt_f->C_GetMechanismList(slot, NULL, &cnt) == CKR_OK);
	list = calloc(cnt + 1, sizeof *list);
	CU_ASSERT_FATAL(list != NULL);
	n2 = cnt;
	CU_ASSERT(pkt_f->C_GetMechanismList(slot, list, &n2) == CKR_OK);
	CU_ASSERT(n2 == cnt);
	for (i = 0; i < cnt; i++) {
		CU_ASSERT(pkt_f->C_GetMechanismInfo(slot, list[i], &mi) == CKR_OK);
		CU_ASSERT(list[i] != m.mechanism);
	}
	if (cnt > 0) {
		n2 = cnt - 1;
		CU_ASSERT(pkt_f->C_GetMechanismList(slot, list, &n2) ==
		          CKR_BUFFER_TOO_SMALL);
		CU_ASSERT(n2 == cnt);
	}
	free(list);
	CU_ASSERT(pkt_f->C_GetMechanismInfo(slot, m.mechanism, &mi) ==
	          CKR_MECHANISM_INVALID);
	/* an unlisted mechanism: every Init refuses it */
	CU_ASSERT(pkt_f->C_EncryptInit(h, &m, 1) == CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_EncryptInit(h, NULL, 1) == CKR_OK);      /* 3.0: ends none */
	CU_ASSERT(pkt_f->C_EncryptInit(999, &m, 1) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_DecryptInit(h, &m, 1) == CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_DigestInit(h, &m) == CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_SignInit(h, &m, 1) == CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_VerifyInit(h, &m, 1) == CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_GenerateKey(h, &m, NULL, 0, &k1) ==
	          CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_GenerateKeyPair(h, &m, NULL, 0, NULL, 0, &k1, &k2) ==
	          CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_GenerateKeyPair(h, &m, NULL, 0, NULL, 0, NULL, &k2) ==
	          CKR_ARGUMENTS_BAD);
	/* no operation is active without its Init */
	CU_ASSERT(pkt_f->C_Encrypt(h, buf, 16, buf, &len) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_DecryptFinal(h, buf, &len) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_DigestUpdate(h, buf, 4) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_Sign(h, buf, 4, buf, &len) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_VerifyFinal(h, buf, 4) == CKR_OPERATION_NOT_INITIALIZED);
	/* random numbers follow CKF_RNG */
	CU_ASSERT_FATAL(pkt_f->C_GetTokenInfo(slot, &ti) == CKR_OK);
	rv = pkt_f->C_GenerateRandom(h, buf, 8);
	CU_ASSERT(rv == ((ti.flags & CKF_RNG) ? CKR_OK : CKR_RANDOM_NO_RNG));
	rv = pkt_f->C_SeedRandom(h, buf, 8);
	CU_ASSERT(rv == CKR_RANDOM_SEED_NOT_SUPPORTED || rv == CKR_RANDOM_NO_RNG ||
	          ((ti.flags & CKF_RNG) && rv == CKR_OK));
	CU_ASSERT(pkt_f->C_GenerateRandom(h, NULL, 8) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetFunctionStatus(h) == CKR_FUNCTION_NOT_PARALLEL);
	CU_ASSERT(pkt_f->C_CancelFunction(h) == CKR_FUNCTION_NOT_PARALLEL);
	/* no operation to save: a clean failure */
	len = sizeof buf;
	rv = pkt_f->C_GetOperationState(h, buf, &len);
	CU_ASSERT(rv == CKR_FUNCTION_NOT_SUPPORTED ||
	          rv == CKR_OPERATION_NOT_INITIALIZED || rv == CKR_STATE_UNSAVEABLE);
	CU_ASSERT(pkt_f->C_GetOperationState(h, buf, NULL) == CKR_ARGUMENTS_BAD);
	/* 3.0 message functions: not supported, or the mechanism is refused */
	rv = pkt_f3->C_MessageEncryptInit(h, &m, 1);
	CU_ASSERT(rv == CKR_FUNCTION_NOT_SUPPORTED || rv == CKR_MECHANISM_INVALID);
	rv = pkt_f3->C_MessageSignInit(h, &m, 1);
	CU_ASSERT(rv == CKR_FUNCTION_NOT_SUPPORTED || rv == CKR_MECHANISM_INVALID);
	rv = pkt_f3->C_EncryptMessage(h, NULL, 0, NULL, 0, buf, 4, buf, &len);
	CU_ASSERT(rv == CKR_FUNCTION_NOT_SUPPORTED ||
	          rv == CKR_OPERATION_NOT_INITIALIZED);
	rv = pkt_f3->C_SignMessage(h, NULL, 0, buf, 4, buf, &len);
	CU_ASSERT(rv == CKR_FUNCTION_NOT_SUPPORTED ||
	          rv == CKR_OPERATION_NOT_INITIALIZED);
	rv = pkt_f3->C_MessageDecryptFinal(h);
	CU_ASSERT(rv == CKR_FUNCTION_NOT_SUPPORTED ||
	          rv == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f3->C_MessageVerifyFinal(999) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
}

int main(void)
{
	CU_pSuite s;

	pkt_setup();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("pk_general", NULL, NULL);
	CU_add_test(s, "exports only the three entry points", t_exports);
	CU_add_test(s, "function lists complete", t_function_list);
	CU_add_test(s, "C_GetInterfaceList / C_GetInterface", t_interfaces);
	CU_add_test(s, "calls before C_Initialize", t_before_init);
	CU_add_test(s, "C_Initialize variants", t_init_variants);
	CU_add_test(s, "second C_Initialize from a thread", t_second_init_thread);
	CU_add_test(s, "C_GetInfo 2.40 and 3.0", t_get_info);
	CU_add_test(s, "fork: child needs its own C_Initialize", t_fork);
	CU_add_test(s, "crypto families follow the advertised mechanisms", t_stubs);
	return ts_run();
}
