/*
 * tk_migrate_build.c - the new store of a token migration
 * (tk_migrate_int.h, tk_mig_build).
 *
 * A page-for-page copy of the old store (the SQLite backup API), brought
 * to today's schema, in which one transaction replaces the PIN rows by
 * the vault's records of a new token key and every key blob by the same
 * key sealed again for the token.  The key of each blob leaves the
 * caller's opener (gpu/client/pv_legacy.h) into locked memory of this
 * process and goes to the vault as the one import of a key made with the
 * object's attributes; it is wiped as the vault answers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_secmem.h"
#include "token/tk_auth.h"
#include "token/tk_key.h"
#include "token/tk_migrate_int.h"
/* after pkcs11.h: its compat macros (iv_len, aad_len) rename pv_req
 * fields consistently in this file */
#include "gpu/vault.h"

/* The vault's side: the new token key's records and the logins that
 * seal keys for it. */
typedef struct mig_auth {
	tk_pinrec so, user;           /* stored                               */
	tk_auth a_so, a_user;         /* tickets: SO (TRUSTED keys), user     */
	uint8_t tmp[32];              /* a throwaway user PIN (see mig_auth_make) */
} mig_auth;

static void mig_auth_clear(mig_auth *x)
{
	kc_wipe(x, sizeof *x);
}

/* A new token key with the SO's record under so; the SO's login; the
 * user's record under user (when set); then a throwaway user record and
 * its login, whose ticket seals the token's private keys (the user's PIN
 * is not needed for that, and a store without one is migrated the same
 * way).  The SO's ticket seals CKA_TRUSTED keys (only the SO may make
 * them); it is used first, since in daemon mode pvaultd keeps one login
 * per token and connection, the last. */
static int mig_auth_so(tk_mig *m, mig_auth *x, const CK_UTF8CHAR *so, CK_ULONG so_len,
                       const CK_UTF8CHAR *user, CK_ULONG user_len)
{
	uint8_t tid[TK_TOKEN_ID_LEN];
	int rc;

	memcpy(tid, m->serial, sizeof tid);
	memset(x, 0, sizeof *x);
	memcpy(x->a_so.tid, tid, sizeof tid);
	memcpy(x->a_user.tid, tid, sizeof tid);
	rc = tk_auth_token_new(tid, so, so_len, &x->so);
	if (rc == PV_OK)
		rc = tk_auth_login(tid, CKU_SO, &x->so, so, so_len, x->a_so.ticket,
		                   &x->a_so.ticket_len);
	if (rc == PV_OK && user != NULL)
		rc = tk_auth_pin_record(&x->a_so, CKU_USER, user, user_len, &x->user);
	return rc;
}

static int mig_auth_user(mig_auth *x)
{
	tk_pinrec tmp;
	int rc = tk_random(x->tmp, sizeof x->tmp);

	if (rc == PV_OK)
		rc = tk_auth_pin_record_iter(&x->a_so, CKU_USER, x->tmp, sizeof x->tmp, 1u, &tmp);
	if (rc == PV_OK)
		rc = tk_auth_login(x->a_user.tid, CKU_USER, &tmp, x->tmp, sizeof x->tmp,
		                   x->a_user.ticket, &x->a_user.ticket_len);
	kc_wipe(&tmp, sizeof tmp);
	return rc;
}

/* Object oid of the new store, every attribute. */
static int mig_obj_load(sqlite3 *db, int64_t oid, tk_obj **out)
{
	sqlite3_stmt *st = NULL;
	tk_obj *o = tk_obj_new();
	int rc;

	*out = NULL;
	if (o == NULL)
		return PV_ERR_NOMEM;
	rc = sqlite3_prepare_v2(db, "SELECT type, value FROM attributes WHERE oid = ?1", -1,
	                        &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, oid);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			if (tk_obj_set(o, (CK_ATTRIBUTE_TYPE)sqlite3_column_int64(st, 0),
			               sqlite3_column_blob(st, 1),
			               (CK_ULONG)sqlite3_column_bytes(st, 1)) < 0) {
				rc = SQLITE_NOMEM;
				break;
			}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		tk_obj_free(o);
		return tk_mig_sqerr(rc);
	}
	*out = o;
	return PV_OK;
}

/* "object N 'label'" for messages (label printable ASCII, cut). */
static const char *mig_name(const tk_obj *o, int64_t oid, char *buf, size_t cap)
{
	const tk_attr *l = tk_obj_attr(o, CKA_LABEL);
	char lab[40];
	size_t i, n = 0;

	for (i = 0; l != NULL && i < l->len && n < sizeof lab - 1; i++)
		lab[n++] = l->val[i] >= 0x20 && l->val[i] < 0x7f ? (char)l->val[i] : '?';
	lab[n] = '\0';
	snprintf(buf, cap, "object %lld '%s'", (long long)oid, lab);
	return buf;
}

static int mig_set_attr(sqlite3 *db, int64_t oid, CK_ATTRIBUTE_TYPE t, const void *v, size_t len)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (v != NULL)
		rc = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO attributes(oid, type, value) "
		                        "VALUES (?1, ?2, ?3)", -1, &st, NULL);
	else
		rc = sqlite3_prepare_v2(db, "DELETE FROM attributes WHERE oid = ?1 AND type = ?2",
		                        -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, oid);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)t);
		if (v != NULL)
			sqlite3_bind_blob(st, 3, v, (int)len, SQLITE_STATIC);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? PV_OK : tk_mig_sqerr(rc);
}

/* The attribute of each PV_USE_* bit (secret and private keys alike: a
 * private key's usage has no ENCRYPT, VERIFY or WRAP bit). */
static const struct { uint32_t use; CK_ATTRIBUTE_TYPE a; } mig_use_attr[] = {
	{ PV_USE_ENCRYPT, CKA_ENCRYPT }, { PV_USE_DECRYPT, CKA_DECRYPT },
	{ PV_USE_SIGN, CKA_SIGN }, { PV_USE_VERIFY, CKA_VERIFY },
	{ PV_USE_WRAP, CKA_WRAP }, { PV_USE_UNWRAP, CKA_UNWRAP },
	{ PV_USE_DERIVE, CKA_DERIVE }, { PV_USE_EXTRACT, CKA_EXTRACTABLE },
};

/* The legacy store's attributes are not authenticated; the old blob's
 * header is, and the old vault enforced it.  So the new blob gets no more
 * than the old one allowed: usage is the attributes' AND the old blob's,
 * SENSITIVE and WRAP_WITH_TRUSTED stay set (sticky, as PV_OP_REPOLICY
 * keeps them) and TRUSTED is kept only where the old blob had it.  The
 * attributes that said more are brought down to the new blob's, so the
 * module and the vault agree. */
static int mig_bound(sqlite3 *db, int64_t oid, uint32_t *usage, uint32_t *policy,
                     uint32_t old_usage, uint32_t old_policy)
{
	static const CK_BBOOL f = CK_FALSE, t = CK_TRUE;
	const uint32_t sticky = PV_POL_SENSITIVE | PV_POL_WRAP_TRUSTED;
	uint32_t cut = *usage & ~old_usage, add = 0, drop = 0;
	size_t i;
	int rc = PV_OK;

	*usage &= old_usage;
	if (old_policy != TK_MIG_NO_POLICY) {
		add = old_policy & sticky & ~*policy;
		drop = *policy & PV_POL_TRUSTED & ~old_policy;
		*policy = (*policy | add) & ~drop;
	}
	for (i = 0; i < sizeof mig_use_attr / sizeof mig_use_attr[0] && rc == PV_OK; i++)
		if (cut & mig_use_attr[i].use)
			rc = mig_set_attr(db, oid, mig_use_attr[i].a, &f, sizeof f);
	if (rc == PV_OK && (add & PV_POL_SENSITIVE))
		rc = mig_set_attr(db, oid, CKA_SENSITIVE, &t, sizeof t);
	if (rc == PV_OK && (add & PV_POL_WRAP_TRUSTED))
		rc = mig_set_attr(db, oid, CKA_WRAP_WITH_TRUSTED, &t, sizeof t);
	if (rc == PV_OK && drop)
		rc = mig_set_attr(db, oid, CKA_TRUSTED, &f, sizeof f);
	return rc;
}

/* An allowed list the old blob bound (formats 3 and 4) was enforced by
 * the old vault: the list the attribute gives now must be that one, or
 * the attribute was edited and the key is refused (a list no request
 * matched stays so: its digest is the one sealed). */
static int mig_list_bound(tk_mig *m, const tk_mig_cb *cb, const uint8_t *blob, size_t len,
                          const tk_auth *a, tk_obj *o, int64_t oid)
{
	uint8_t dig[16], full[32];
	uint32_t n = 0;
	char nm[80];
	int rc;

	if (cb->mechs == NULL)
		return PV_OK;
	rc = cb->mechs(blob, len, &n, dig);
	if (rc != PV_OK || n == 0)
		return rc;
	rc = kc_hash(KC_HASH_SHA256, a->new_mechs, a->new_mechs_len, full);
	if (rc == PV_OK && (a->new_mechs_len != 4u * n || !kc_ct_eq(full, dig, 16)))
		rc = tk_mig_fail(m, PV_ERR_PERM, "%s: its CKA_ALLOWED_MECHANISMS is not the list "
		                 "its key was sealed with (the store was edited); restore the store "
		                 "from a backup, then run the command again",
		                 mig_name(o, oid, nm, sizeof nm));
	return rc;
}

/* One key object: its key out of the legacy blob, into the vault, sealed
 * for the token with the policy and usage its attributes give (what
 * tk_key_import / tk_pk_import give a key made with them), never more
 * than the old blob allowed (mig_bound), and the new blob and allowed
 * list stored. */
static int mig_key(tk_mig *m, sqlite3 *db, int64_t oid, tk_obj *o, const tk_auth *who,
                   const tk_mig_cb *cb, uint8_t *key, uint8_t *nblob, long *npublic)
{
	CK_OBJECT_CLASS cls = tk_obj_ulong(o, CKA_CLASS, (CK_ULONG)-1);
	const tk_attr *b = tk_obj_attr(o, TK_CKA_BLOB), *id = tk_obj_attr(o, TK_CKA_BLOB_ID);
	const tk_attr *am;
	char nm[80];
	tk_auth a;
	uint32_t type = 0, pk, usage, old_usage = 0, old_policy = 0;
	size_t klen = 0;
	pv_req r;
	CK_RV rv;
	int rc;

	if (b == NULL || id == NULL || id->len != PV_OBJ_ID_LEN ||
	    (cls != CKO_SECRET_KEY && cls != CKO_PRIVATE_KEY))
		return tk_mig_fail(m, PV_ERR_CORRUPT, "%s holds a key blob but is no key: the store "
		                "was edited or damaged; restore it from a backup, or delete that "
		                "object with the older PixelVault", mig_name(o, oid, nm, sizeof nm));
	a = *who;                         /* the ticket's copy: wiped on every path below */
	rv = tk_auth_new(&a, o);          /* policy; TK_CKA_BLOB_MECHS into o */
	am = tk_obj_attr(o, CKA_ALLOWED_MECHANISMS);
	if (rv == CKR_ATTRIBUTE_VALUE_INVALID && am != NULL &&
	    am->len % sizeof(CK_MECHANISM_TYPE) != 0) {
		/* a list cut short allowed nothing: a list no request matches */
		static const uint8_t none[4] = { 0xff, 0xff, 0, 0 };
		memcpy(a.new_mechs, none, sizeof none);
		a.new_mechs_len = sizeof none;
		rv = tk_obj_set(o, TK_CKA_BLOB_MECHS, none, sizeof none) < 0 ? CKR_HOST_MEMORY : CKR_OK;
	}
	if (rv != CKR_OK) {
		tk_auth_clear(&a);
		if (rv == CKR_HOST_MEMORY)
			return PV_ERR_NOMEM;
		return tk_mig_fail(m, PV_ERR_ARGS, "%s: its CKA_ALLOWED_MECHANISMS names more than %d "
		                "mechanisms; shorten the list with the older PixelVault, then run "
		                "the command again", mig_name(o, oid, nm, sizeof nm), TK_MECHS_MAX);
	}
	/* o's attribute array may have moved (TK_CKA_BLOB_MECHS was added) */
	b = tk_obj_attr(o, TK_CKA_BLOB);
	id = tk_obj_attr(o, TK_CKA_BLOB_ID);
	if ((a.new_policy & PV_POL_TOKEN) && (a.new_policy & PV_POL_TRUSTED)) {
		tk_auth_clear(&a);
		return tk_mig_fail(m, PV_ERR_ARGS, "%s is both CKA_PRIVATE and CKA_TRUSTED, which a "
		                "token cannot hold (a trusted key is the SO's, a private one the "
		                "user's); clear one of the two with the older PixelVault, then run "
		                "the command again", mig_name(o, oid, nm, sizeof nm));
	}
	rc = cb->key(cb->arg, b->val, b->len, id->val, key, TK_MIG_KEY_MAX, &klen, &type,
	             &old_usage, &old_policy);
	if (rc != PV_OK) {
		tk_auth_clear(&a);
		return tk_mig_fail(m, rc, "%s: its key blob does not open under master key %s (%s)",
		                mig_name(o, oid, nm, sizeof nm), cb->master_fpr, pv_strerror(rc));
	}
	pk = type == PV_KEY_RSA || type == PV_KEY_EC_P256 || type == PV_KEY_EC_P384 ||
	     type == PV_KEY_ED25519 || type == PV_KEY_SM2;
	if (pk != (cls == CKO_PRIVATE_KEY)) {
		kc_wipe(key, TK_MIG_KEY_MAX);
		tk_auth_clear(&a);
		return tk_mig_fail(m, PV_ERR_CORRUPT, "%s: its blob holds a key of another class",
		                mig_name(o, oid, nm, sizeof nm));
	}
	usage = pk ? tk_pk_usage(o) : tk_key_usage(o);
	rc = mig_list_bound(m, cb, b->val, b->len, &a, o, oid);
	if (rc == PV_OK)
		rc = mig_bound(db, oid, &usage, &a.new_policy, old_usage, old_policy);
	if (rc != PV_OK) {
		kc_wipe(key, TK_MIG_KEY_MAX);
		tk_auth_clear(&a);
		return rc;
	}
	pv_req_init(&r, PV_OP_IMPORT_KEY, PV_MECH_NONE);
	tk_auth_req(&a, &r);
	r.in = key; r.in_len = klen;
	r.new_type = type;
	r.new_usage = usage;
	memcpy(r.new_id, id->val, PV_OBJ_ID_LEN);
	r.out = nblob; r.out_cap = PV_PKBLOB_MAX;
	rc = tk_vault_call(&r);
	kc_wipe(key, TK_MIG_KEY_MAX);
	if (rc != PV_OK) {
		tk_auth_clear(&a);
		return tk_mig_fail(m, rc, "%s: the vault did not seal its key again (%s)",
		                mig_name(o, oid, nm, sizeof nm), pv_strerror(rc));
	}
	if (!(a.new_policy & PV_POL_TOKEN))
		(*npublic)++;
	rc = mig_set_attr(db, oid, TK_CKA_BLOB, nblob, r.out_len);
	if (rc == PV_OK)
		rc = mig_set_attr(db, oid, TK_CKA_BLOB_MECHS, a.new_mechs_len ? a.new_mechs : NULL,
		                  a.new_mechs_len);
	tk_auth_clear(&a);
	return rc;
}

/* Every key object, oldest first: the CKA_TRUSTED ones with the SO's
 * ticket (pass 0), then the user's login (made between) and the rest. */
static int mig_keys(tk_mig *m, sqlite3 *db, mig_auth *x, const tk_mig_cb *cb, long total,
                    long *npublic)
{
	sqlite3_stmt *st = NULL;
	uint8_t *key = (uint8_t *)pv_secmem_alloc(TK_MIG_KEY_MAX);
	uint8_t *nblob = (uint8_t *)malloc(PV_PKBLOB_MAX);
	int64_t *oids = NULL;
	long n = 0, i, done = 0;
	int rc, pass;

	if (key == NULL || nblob == NULL || total < 0 ||
	    (oids = (int64_t *)calloc((size_t)total + 1, sizeof *oids)) == NULL) {
		rc = PV_ERR_NOMEM;
		goto out;
	}
	rc = sqlite3_prepare_v2(db, "SELECT oid FROM attributes WHERE type = ?1 ORDER BY oid",
	                        -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)TK_CKA_BLOB);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < total)
			oids[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		rc = tk_mig_sqerr(rc);
		goto out;
	}
	rc = PV_OK;
	for (pass = 0; pass < 2 && rc == PV_OK; pass++) {
		if (pass == 1 && (rc = mig_auth_user(x)) != PV_OK) {
			tk_mig_fail(m, rc, "the vault did not log in to the new token key (%s)",
			         pv_strerror(rc));
			break;
		}
		for (i = 0; i < n && rc == PV_OK; i++) {
			tk_obj *o = NULL;
			int trusted;
			if ((rc = mig_obj_load(db, oids[i], &o)) != PV_OK)
				break;
			trusted = (tk_auth_policy(o) & PV_POL_TRUSTED) != 0;
			if (trusted == (pass == 0)) {
				rc = mig_key(m, db, oids[i], o, pass == 0 ? &x->a_so : &x->a_user, cb,
				             key, nblob, npublic);
				done++;
				if (rc == PV_OK && cb->progress)
					cb->progress(cb->arg, (unsigned long)done, (unsigned long)n);
				if (rc == PV_OK && cb->delay_us)
					usleep(cb->delay_us);
			}
			tk_obj_free(o);
		}
	}
out:
	pv_secmem_free(key);
	free(nblob);
	free(oids);
	return rc;
}

static int mig_pin_row(sqlite3 *db, CK_USER_TYPE who, const tk_pinrec *p)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "INSERT INTO pins(who, alg, iterations, salt, verifier, "
	                            "fails, period) VALUES (?1, 'pbkdf2-vault-record', ?2, ?3, "
	                            "?4, 0, 0)", -1, &st, NULL);

	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)who);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)p->iterations);
		sqlite3_bind_blob(st, 3, p->salt, TK_PIN_SALT_LEN, SQLITE_STATIC);
		sqlite3_bind_blob(st, 4, p->verifier, TK_PIN_RECORD_LEN, SQLITE_STATIC);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? PV_OK : tk_mig_sqerr(rc);
}

/* In the new store's one transaction: the PIN rows (counters cleared, no
 * try in flight), the master key's fingerprint, no "no login" claim. */
static int mig_meta(sqlite3 *db, const mig_auth *x, int user, const char *fpr)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_exec(db, "DELETE FROM pins; DELETE FROM pin_tries;"
	                  " CREATE TABLE IF NOT EXISTS pv_meta(key TEXT PRIMARY KEY,"
	                  " value TEXT NOT NULL);"
	                  " DELETE FROM pv_meta WHERE key IN ('login', 'login_record');"
	                  " UPDATE token_info SET changes = changes + 1 WHERE id = 1;",
	                  NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return tk_mig_sqerr(rc);
	if ((rc = mig_pin_row(db, CKU_SO, &x->so)) != PV_OK ||
	    (user && (rc = mig_pin_row(db, CKU_USER, &x->user)) != PV_OK))
		return rc;
	rc = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO pv_meta(key, value) "
	                        "VALUES ('master_fpr', ?1)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, fpr, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? PV_OK : tk_mig_sqerr(rc);
}

/* The old store, page for page, into work/token.db (rollback journal
 * while it is built). */
static int mig_copy(tk_mig *m, const char *dbp)
{
	sqlite3 *dst = NULL;
	sqlite3_backup *bk;
	int rc;

	if (mkdir(m->work, 0700) != 0)
		return tk_mig_fail(m, errno == EACCES ? PV_ERR_PERM : PV_ERR_IO, "cannot make %s: %s",
		                m->work, strerror(errno));
	rc = sqlite3_open_v2(dbp, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc == SQLITE_OK) {
		bk = sqlite3_backup_init(dst, "main", m->old, "main");
		if (bk == NULL) {
			rc = sqlite3_errcode(dst);
		} else {
			rc = sqlite3_backup_step(bk, -1);
			sqlite3_backup_finish(bk);
			rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		}
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(dst, "PRAGMA journal_mode = DELETE;", NULL, NULL, NULL);
	sqlite3_close(dst);
	if (rc != SQLITE_OK)
		return tk_mig_fail(m, tk_mig_sqerr(rc), "copying %s: %s", m->live, sqlite3_errstr(rc));
	/* today's schema (tk_store_open upgrades it in one transaction) */
	{
		tk_db *d = NULL;
		rc = tk_store_open(dbp, &d);
		tk_store_close(d);
		if (rc != PV_OK)
			return tk_mig_fail(m, rc, "upgrading the copy's schema: %s", pv_strerror(rc));
	}
	return PV_OK;
}

/* The new store's directory and file get the old ones' owner and mode
 * (pvault token init --owner / --group set them). */
static int mig_owner(tk_mig *m, const char *dbp)
{
	char old[TK_MIG_PATH + 16];
	struct stat sd, sf, nd, nf;

	snprintf(old, sizeof old, "%s/token.db", m->live);
	if (stat(m->live, &sd) != 0 || stat(old, &sf) != 0 || stat(m->work, &nd) != 0 ||
	    stat(dbp, &nf) != 0)
		return PV_ERR_IO;
	if ((nd.st_uid != sd.st_uid || nd.st_gid != sd.st_gid) &&
	    chown(m->work, sd.st_uid, sd.st_gid) != 0)
		return tk_mig_fail(m, PV_ERR_PERM, "cannot give %s to uid %u gid %u as the old store: %s",
		                m->work, (unsigned)sd.st_uid, (unsigned)sd.st_gid, strerror(errno));
	if ((nf.st_uid != sf.st_uid || nf.st_gid != sf.st_gid) &&
	    chown(dbp, sf.st_uid, sf.st_gid) != 0)
		return tk_mig_fail(m, PV_ERR_PERM, "cannot give %s to uid %u gid %u as the old store: %s",
		                dbp, (unsigned)sf.st_uid, (unsigned)sf.st_gid, strerror(errno));
	if (chmod(m->work, sd.st_mode & 07777) != 0 || chmod(dbp, sf.st_mode & 0777) != 0)
		return PV_ERR_IO;
	return PV_OK;
}

static int mig_fsync_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;

	if (fd >= 0) {
		rc = fsync(fd);
		close(fd);
	}
	return rc == 0 ? PV_OK : PV_ERR_IO;
}

int tk_mig_build(tk_mig *m, const CK_UTF8CHAR *so, CK_ULONG so_len,
                     const CK_UTF8CHAR *user, CK_ULONG user_len, const tk_mig_cb *cb,
                     tk_mig_info *info)
{
	char dbp[TK_MIG_PATH + 16], meta[8];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	mig_auth x;
	int rc;

	snprintf(dbp, sizeof dbp, "%s/token.db", m->work);
	if ((rc = mig_copy(m, dbp)) != PV_OK)
		return rc;
	memset(&x, 0, sizeof x);
	rc = mig_auth_so(m, &x, so, so_len, user, user_len);
	if (rc != PV_OK) {
		tk_auth_logout(x.a_so.tid);
		mig_auth_clear(&x);
		return tk_mig_fail(m, rc, "the vault did not make the new token key (%s)",
		                pv_strerror(rc));
	}
	rc = sqlite3_open_v2(dbp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "PRAGMA synchronous = FULL; BEGIN IMMEDIATE;", NULL, NULL, NULL);
	rc = tk_mig_sqerr(rc);
	meta[0] = '\0';
	if (rc == PV_OK && sqlite3_prepare_v2(db, "SELECT value FROM pv_meta WHERE key = 'login'",
	                                      -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		snprintf(meta, sizeof meta, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	info->had_no_login = !strcmp(meta, "none");
	if (rc == PV_OK)
		rc = mig_keys(m, db, &x, cb, info->nkeys, &info->npublic);
	if (rc == PV_OK)
		rc = mig_meta(db, &x, user != NULL, cb->master_fpr);
	if (rc == PV_OK)
		rc = tk_mig_sqerr(sqlite3_exec(db, "COMMIT;", NULL, NULL, NULL));
	/* like every store: WAL (the switch is durable before it returns) */
	if (rc == PV_OK)
		rc = tk_mig_sqerr(sqlite3_exec(db, "PRAGMA journal_mode = WAL;", NULL, NULL, NULL));
	if (rc != PV_OK && m->why[0] == '\0')
		tk_mig_fail(m, rc, "writing %s: %s", dbp, db ? sqlite3_errmsg(db) : pv_strerror(rc));
	sqlite3_close(db);
	tk_auth_logout(x.a_so.tid);
	mig_auth_clear(&x);
	if (rc == PV_OK)
		rc = mig_owner(m, dbp);
	if (rc == PV_OK)
		rc = mig_fsync_file(dbp);
	if (rc == PV_OK)
		tk_mig_fsync_dir(m->work);
	return rc;
}

