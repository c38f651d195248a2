/*
 * tk_migrate_int.h - what tk_migrate.c (the token directory: lock, states,
 * PINs, the swap) and tk_migrate_build.c (the new store) share.  Internal
 * to token/.
 */
#ifndef TK_MIGRATE_INT_H
#define TK_MIGRATE_INT_H

#include <stdint.h>

#include <sqlite3.h>

#include "token/tk_int.h"
#include "token/tk_migrate.h"

#define TK_MIG_PATH 4400
#define TK_MIG_KEY_MAX 4096        /* an RSA-4096 key in IMPORT_KEY's form */

typedef struct tk_mig_pin {
	int set, ok;                  /* a row; checked by tk_mig_pin_check */
	uint32_t iterations;
	uint8_t salt[TK_PIN_SALT_LEN];
	uint8_t verifier[TK_PIN_VERIFIER_LEN];
} tk_mig_pin;

struct tk_mig {
	int lockfd;                   /* <token_dir>/.lock, flock'ed */
	int state;                    /* TK_MIG_* */
	char dir[4096], serial[17];
	char live[TK_MIG_PATH];       /* <token_dir>/<serial> */
	char work[TK_MIG_PATH];       /* <token_dir>/.mig-<serial> */
	sqlite3 *old;                 /* the legacy store, held exclusively */
	tk_mig_pin pin[2];            /* CKU_SO, CKU_USER */
	char why[512];
};

/* m->why from fmt; returns rc. */
int tk_mig_fail(tk_mig *m, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An SQLite result code as PV_OK / PV_ERR_*. */
int tk_mig_sqerr(int rc);
void tk_mig_fsync_dir(const char *path);

/* Build the new store at m->work from the old one (everything but the
 * swap): a copy, the vault's new token key and PIN records, every key
 * sealed again, fsync'ed, the old store's owner and modes.  On error
 * m->why says why; the caller removes m->work. */
int tk_mig_build(tk_mig *m, const CK_UTF8CHAR *so, CK_ULONG so_len, const CK_UTF8CHAR *user,
                 CK_ULONG user_len, const tk_mig_cb *cb, tk_mig_info *info);

#endif /* TK_MIGRATE_INT_H */
