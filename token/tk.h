/*
 * tk.h - the token layer: slots, tokens, PINs, login, sessions, objects,
 * attribute policy, the SQLite token store.
 *
 * The PKCS#11 shell (pkcs11/) checks pointer arguments and the
 * initialisation state, then calls these functions.  Every function returns
 * a CK_RV; PV_ERR_* codes from lower layers become CK_RV only through
 * tk_rv_from_pv() (tk_rv.c).  All functions are thread-safe.
 *
 * Nothing here includes pkcs11/: the 3.0 C_LoginUser is tk_login with a
 * user name, C_SessionCancel is tk_session_cancel.
 */
#ifndef TK_H
#define TK_H

#include <stdint.h>

#include <p11-kit/pkcs11.h>

/* PKCS#11 3.2's asynchronous sessions (OASIS pkcs11t.h values; p11-kit's
 * header is 2.40): the token layer keeps them; pkcs11/pk_pkcs11_3.h,
 * the shell's 3.x header, takes them from here. */
#ifndef CKF_ASYNC_SESSION
#define CKF_ASYNC_SESSION               0x00000008UL
#endif
#ifndef CKF_ASYNC_SESSION_SUPPORTED
#define CKF_ASYNC_SESSION_SUPPORTED     0x04000000UL
#endif
#ifndef CKR_PENDING
#define CKR_PENDING                     0x00000204UL
#endif
/* 3.0's answer of an Init without a mechanism that cannot end the
 * operation (tk_op_cancel) */
#ifndef CKR_OPERATION_CANCEL_FAILED
#define CKR_OPERATION_CANCEL_FAILED     0x00000202UL
#endif
/* PKCS#11 3.0 mechanisms of the mechanism table (tk_mechtab.c) */
#ifndef CKM_SHA3_256
#define CKM_SHA3_256              0x000002b0UL
#define CKM_SHA3_256_HMAC         0x000002b1UL
#define CKM_SHA3_256_HMAC_GENERAL 0x000002b2UL
#define CKM_SHA3_224              0x000002b5UL
#define CKM_SHA3_224_HMAC         0x000002b6UL
#define CKM_SHA3_224_HMAC_GENERAL 0x000002b7UL
#define CKM_SHA3_384              0x000002c0UL
#define CKM_SHA3_384_HMAC         0x000002c1UL
#define CKM_SHA3_384_HMAC_GENERAL 0x000002c2UL
#define CKM_SHA3_512              0x000002d0UL
#define CKM_SHA3_512_HMAC         0x000002d1UL
#define CKM_SHA3_512_HMAC_GENERAL 0x000002d2UL
#endif
#ifndef CKM_AES_KEY_WRAP_KWP
#define CKM_AES_KEY_WRAP_KWP      0x0000210bUL
#endif
#ifndef CKM_HKDF_DERIVE
#define CKM_HKDF_DERIVE           0x0000402aUL
#define CKM_HKDF_DATA             0x0000402bUL
#define CKM_HKDF_KEY_GEN          0x0000402cUL
#endif

/* ---- limits and policy (docs/token-store.md) ---- */
#define TK_PIN_MIN            4
#define TK_PIN_MAX            255
#define TK_PIN_MAX_FAILS      10       /* locked after this many failures  */
/* How a locked PIN is unlocked (docs/token-store.md, "Lockout policy"):
 * what the module logs and pvault prints. */
#define TK_USER_UNLOCK \
	"the SO unlocks it by setting a new user PIN (C_InitPIN), e.g. " \
	"`pkcs11-tool --module pixelvault-pkcs11.so --token-label LABEL " \
	"--login --login-type so --init-pin`"
#define TK_SO_LOCKED \
	"a locked SO PIN cannot be reset: restore a backup of the token " \
	"(pvault restore FILE) or re-create it (its keys are lost)"
#define TK_PIN_TRY_STALE_S    300      /* a try in flight longer: finished
                                        * wrong (crashed process)         */
#define TK_PBKDF2_ITERATIONS  600000u  /* PBKDF2-HMAC-SHA256               */
#define TK_PIN_SALT_LEN       16
#define TK_PIN_VERIFIER_LEN   32     /* legacy stores: PBKDF2 of the PIN  */
#define TK_PIN_RECORD_LEN    128     /* the vault's PIN record (PV_RECORD_LEN) */
#define TK_TICKET_LEN         96     /* the vault's login ticket (PV_TICKET_LEN) */
#define TK_TOKEN_ID_LEN       16     /* the vault's token id: the serial     */
#define TK_UID_LEN            16       /* random object identity           */
#define TK_MAX_SESSIONS       4096     /* per token, per process           */
/* Bytes of one attribute value in a template (1 MiB: a certificate chain
 * fits many times over).  A longer one is CKR_ATTRIBUTE_VALUE_INVALID,
 * refused before its buffer is read; in a search template it matches
 * nothing.  Also what keeps every value within SQLite's int lengths. */
#define TK_ATTR_VALUE_MAX     (1UL << 20)

/* Session-object handles carry this bit; token-object handles carry the
 * slot ID in bits 40..55 and the store's row id below. */
#define TK_HANDLE_SESSION_BIT ((CK_OBJECT_HANDLE)1 << 62)

/* ---- mutex operations: app callbacks (C_Initialize) or pthreads ---- */
typedef struct tk_mutex_ops {
	CK_CREATEMUTEX create;
	CK_DESTROYMUTEX destroy;
	CK_LOCKMUTEX lock;
	CK_UNLOCKMUTEX unlock;
} tk_mutex_ops;

/* ---- general ---- */
/* ops NULL: the module's own pthread mutexes.  CKR_CRYPTOKI_ALREADY_INITIALIZED
 * on a second call in the same process; in a forked child the parent's
 * state is dropped (never touched) and a fresh one is made.  no_threads:
 * the application forbids library threads (the embedded vault then runs
 * each request in the calling thread). */
CK_RV tk_initialize(const tk_mutex_ops *ops, int no_threads);
/* Waits for the calls in flight (tk_enter) to leave, then frees
 * everything.  CKR_FUNCTION_FAILED from a thread that is itself inside a
 * call or in tk_initialize (an application callback calling back in). */
CK_RV tk_finalize(void);
/* Every call's way in: 1 if initialised in this process (0 in a forked
 * child, and once tk_finalize has begun), and then the call is in flight
 * until its tk_leave; 0: not initialised, nothing to leave. */
int tk_enter(void);
void tk_leave(void);

/* The token model string (backend name), in one place. */
const char *tk_model(void);

/* ---- slots and tokens ---- */
CK_RV tk_slot_list(CK_BBOOL token_present, CK_SLOT_ID *list, CK_ULONG *count);
CK_RV tk_slot_info(CK_SLOT_ID slot, CK_SLOT_INFO *info);
CK_RV tk_token_info(CK_SLOT_ID slot, CK_TOKEN_INFO *info);
CK_RV tk_slot_check(CK_SLOT_ID slot);
/* label: 32 bytes, blank padded. */
CK_RV tk_init_token(CK_SLOT_ID slot, const CK_UTF8CHAR *pin, CK_ULONG pin_len,
                    const CK_UTF8CHAR *label);
CK_RV tk_init_pin(CK_SESSION_HANDLE s, const CK_UTF8CHAR *pin, CK_ULONG len);
/* Make the session's token need no login (on) or a login again (off):
 * the vault makes the "no login" record from the session's login (SO or
 * user); CKR_USER_NOT_LOGGED_IN without one. */
CK_RV tk_set_no_login(CK_SESSION_HANDLE s, int on);
CK_RV tk_set_pin(CK_SESSION_HANDLE s, const CK_UTF8CHAR *old, CK_ULONG old_len,
                 const CK_UTF8CHAR *new_pin, CK_ULONG new_len);

/* ---- sessions and login ---- */
CK_RV tk_open_session(CK_SLOT_ID slot, CK_FLAGS flags, CK_SESSION_HANDLE *out);
CK_RV tk_close_session(CK_SESSION_HANDLE s);
CK_RV tk_close_all_sessions(CK_SLOT_ID slot);
CK_RV tk_session_info(CK_SESSION_HANDLE s, CK_SESSION_INFO *info);
CK_RV tk_session_check(CK_SESSION_HANDLE s);
/* C_Login / C_LoginUser (the user name is checked by pkcs11/ and not
 * used: one user per token). */
CK_RV tk_login(CK_SESSION_HANDLE s, CK_USER_TYPE who, const CK_UTF8CHAR *pin,
               CK_ULONG len);
CK_RV tk_logout(CK_SESSION_HANDLE s);
/* C_SessionCancel: ends the session's find operation if find_objects. */
CK_RV tk_session_cancel(CK_SESSION_HANDLE s, int find_objects);

/* ---- objects ---- */
CK_RV tk_create_object(CK_SESSION_HANDLE s, const CK_ATTRIBUTE *t, CK_ULONG n,
                       CK_OBJECT_HANDLE *out);
CK_RV tk_copy_object(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o,
                     const CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out);
CK_RV tk_destroy_object(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o);
CK_RV tk_object_size(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o, CK_ULONG *size);
CK_RV tk_get_attributes(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o,
                        CK_ATTRIBUTE *t, CK_ULONG n);
CK_RV tk_set_attributes(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o,
                        const CK_ATTRIBUTE *t, CK_ULONG n);
CK_RV tk_find_init(CK_SESSION_HANDLE s, const CK_ATTRIBUTE *t, CK_ULONG n);
CK_RV tk_find(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE *out, CK_ULONG max,
              CK_ULONG *count);
CK_RV tk_find_final(CK_SESSION_HANDLE s);

/* ---- errors ---- */
/* The one mapping of PV_ERR_* codes (gpu/core/pv_err.h) to CK_RV. */
CK_RV tk_rv_from_pv(int err);
/* The same for the error of counting a PIN try (tk_rv.c says which). */
CK_RV tk_rv_pin_count(int err);

#endif /* TK_H */
