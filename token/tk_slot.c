/*
 * tk_slot.c - slots and tokens.
 *
 * One slot per token directory <token_dir>/<serial>/token.db, plus one slot
 * holding an uninitialised token so C_InitToken can always make a new one.
 * A slot's ID is the slot number stored in its token at creation; new
 * tokens take (largest existing slot number + 1) under an flock on
 * <token_dir>/.lock, so IDs are stable across processes and ordered by
 * creation.  The uninitialised slot has the next free number.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/host/pv_log.h"
#include "token/tk_crypto.h"
#include "token/tk_auth.h"
#include "token/tk_int.h"

/* ---- connection pool ---- */
int tk_slot_db(tk_slot *s, tk_db **out)
{
	tk_db *d;

	tk_mutex_lock(s->pool_mu);
	d = s->pool;
	if (d != NULL)
		s->pool = tk_db_next(d);
	tk_mutex_unlock(s->pool_mu);
	if (d != NULL) {
		*out = d;
		return PV_OK;
	}
	return tk_store_open(s->dbpath, out);
}

void tk_slot_db_put(tk_slot *s, tk_db *d)
{
	tk_mutex_lock(s->pool_mu);
	tk_db_set_next(d, s->pool);
	s->pool = d;
	tk_mutex_unlock(s->pool_mu);
}

int tk_slot_store_info(tk_slot *s, tk_tokinfo *ti)
{
	tk_db *d;
	int rc = tk_slot_db(s, &d);

	if (rc < 0)
		return rc;
	rc = tk_store_info(d, ti);
	tk_slot_db_put(s, d);
	return rc;
}

/* ---- the slot table (all under tk_g.mu) ---- */
tk_slot *tk_slot_find(CK_SLOT_ID id)
{
	tk_slot *s;

	for (s = tk_g.slots; s != NULL; s = s->next)
		if (s->id == id)
			return s;
	return NULL;
}

static tk_slot *tk_slot_new(CK_SLOT_ID id)
{
	tk_slot *s = calloc(1, sizeof *s), **pp;

	if (s == NULL)
		return NULL;
	s->pool_mu = tk_mutex_new();
	if (s->pool_mu == NULL) {
		free(s);
		return NULL;
	}
	s->id = id;
	s->login = TK_NOBODY;
	for (pp = &tk_g.slots; *pp != NULL && (*pp)->id < id; pp = &(*pp)->next)
		;
	s->next = *pp;
	*pp = s;
	return s;
}

static void tk_slot_set_token(tk_slot *s, const char *serial)
{
	snprintf(s->serial, sizeof s->serial, "%s", serial);
	memset(s->tid, 0, sizeof s->tid);
	memcpy(s->tid, s->serial, strnlen(s->serial, sizeof s->tid));
	snprintf(s->dir, sizeof s->dir, "%s/%s", tk_g.token_dir, serial);
	snprintf(s->dbpath, sizeof s->dbpath, "%s/token.db", s->dir);
	s->read_only = !tk_store_writable(s->dbpath);
	s->initialized = 1;
}

int tk_slots_refresh(void)
{
	DIR *dir = opendir(tk_g.token_dir);
	struct dirent *e;
	tk_slot *s;
	CK_SLOT_ID next = 0;
	int have_uninit = 0;

	while (dir != NULL && (e = readdir(dir)) != NULL) {
		char path[4400], serial[17];
		CK_SLOT_ID no;
		int known = 0;

		if (e->d_name[0] == '.' || strlen(e->d_name) > 16)
			continue;
		for (s = tk_g.slots; s != NULL; s = s->next)
			if (s->initialized && strcmp(s->serial, e->d_name) == 0)
				known = 1;
		if (known)
			continue;
		snprintf(path, sizeof path, "%s/%s/token.db", tk_g.token_dir,
		         e->d_name);
		if (access(path, F_OK) != 0 ||
		    tk_store_peek_slot(path, &no, serial) < 0 ||
		    strcmp(serial, e->d_name) != 0)
			continue;
		s = tk_slot_find(no);
		if (s != NULL && s->initialized)
			continue;             /* two tokens claim one number */
		if (s == NULL)
			s = tk_slot_new(no);
		if (s == NULL)
			break;
		tk_slot_set_token(s, serial);
	}
	if (dir != NULL)
		closedir(dir);
	for (s = tk_g.slots; s != NULL; s = s->next) {
		if (s->id >= next)
			next = s->id + 1;
		if (!s->initialized)
			have_uninit = 1;
	}
	if (!have_uninit && tk_slot_new(next) == NULL)
		return PV_ERR_NOMEM;
	return PV_OK;
}

void tk_slots_free(void)
{
	tk_slot *s = tk_g.slots, *n;

	for (; s != NULL; s = n) {
		tk_db *d, *dn;
		tk_obj *o, *on;
		n = s->next;
		for (d = s->pool; d != NULL; d = dn) {
			dn = tk_db_next(d);
			tk_store_close(d);
		}
		for (o = s->sobjs; o != NULL; o = on) {
			on = o->next;
			tk_obj_free(o);
		}
		tk_mutex_free(s->pool_mu);
		free(s);
	}
	tk_g.slots = NULL;
}

/* ---- C_GetSlotList / SlotInfo / TokenInfo ---- */
static void tk_pad(CK_UTF8CHAR *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	memset(dst, ' ', cap);
	memcpy(dst, src, n < cap ? n : cap);
}

CK_RV tk_slot_list(CK_BBOOL present, CK_SLOT_ID *list, CK_ULONG *count)
{
	tk_slot *s;
	CK_ULONG n = 0, i = 0;
	CK_RV rv = CKR_OK;

	(void)present;                   /* every slot has a token present */
	tk_mutex_lock(tk_g.mu);
	(void)tk_slots_refresh();
	for (s = tk_g.slots; s != NULL; s = s->next)
		n++;
	if (list != NULL) {
		if (*count < n) {
			rv = CKR_BUFFER_TOO_SMALL;
		} else {
			for (s = tk_g.slots; s != NULL; s = s->next)
				list[i++] = s->id;
		}
	}
	*count = n;
	tk_mutex_unlock(tk_g.mu);
	return rv;
}

CK_RV tk_slot_check(CK_SLOT_ID id)
{
	CK_RV rv;

	tk_mutex_lock(tk_g.mu);
	if (tk_slot_find(id) == NULL)
		(void)tk_slots_refresh();
	rv = tk_slot_find(id) != NULL ? CKR_OK : CKR_SLOT_ID_INVALID;
	tk_mutex_unlock(tk_g.mu);
	return rv;
}

CK_RV tk_slot_info(CK_SLOT_ID id, CK_SLOT_INFO *info)
{
	static const char *const state[] = {
		[TK_VAULT_READY] = "",
		[TK_VAULT_SEALED] = " (vault sealed: see pvault status)",
		[TK_VAULT_NONE] = " (no vault: see pvault status)",
	};
	char desc[65], why[8];
	const char *note;
	tk_slot *s;
	int ro;

	tk_mutex_lock(tk_g.mu);
	if ((s = tk_slot_find(id)) == NULL) {
		(void)tk_slots_refresh();
		s = tk_slot_find(id);
	}
	ro = s != NULL && s->initialized && s->read_only;
	tk_mutex_unlock(tk_g.mu);
	if (s == NULL)
		return CKR_SLOT_ID_INVALID;
	memset(info, 0, sizeof *info);
	/* what pkcs11-tool -L shows of a slot whether or not its token is
	 * initialized: a sealed vault, or a store this user cannot write */
	note = state[tk_vault_why(why, sizeof why)];
	if (note[0] == '\0' && ro)
		note = " (token store read-only for this user)";
	snprintf(desc, sizeof desc, "PixelVault slot %lu%s", (unsigned long)id, note);
	tk_pad(info->slotDescription, sizeof info->slotDescription, desc);
	tk_pad(info->manufacturerID, sizeof info->manufacturerID, "PixelVault");
	info->flags = CKF_TOKEN_PRESENT;
	info->hardwareVersion.major = 0;
	info->hardwareVersion.minor = 1;
	info->firmwareVersion.major = 0;
	info->firmwareVersion.minor = 1;
	return CKR_OK;
}

static CK_FLAGS tk_pin_flags(int fails, CK_FLAGS low, CK_FLAGS final,
                             CK_FLAGS locked)
{
	if (fails >= TK_PIN_MAX_FAILS)
		return locked;
	if (fails == TK_PIN_MAX_FAILS - 1)
		return low | final;
	if (fails > 0)
		return low;
	return 0;
}

CK_RV tk_token_info(CK_SLOT_ID id, CK_TOKEN_INFO *info)
{
	tk_slot *s;
	tk_slot copy;
	tk_tokinfo ti;
	int rc;

	tk_mutex_lock(tk_g.mu);
	s = tk_slot_find(id);
	if (s == NULL) {
		(void)tk_slots_refresh();
		s = tk_slot_find(id);
	}
	if (s != NULL) {
		copy.initialized = s->initialized;
		copy.read_only = s->read_only;
		copy.nsess = s->nsess;
		copy.nrw = s->nrw;
	}
	tk_mutex_unlock(tk_g.mu);
	if (s == NULL)
		return CKR_SLOT_ID_INVALID;

	memset(info, 0, sizeof *info);
	tk_pad(info->manufacturerID, sizeof info->manufacturerID, "PixelVault");
	tk_pad(info->model, sizeof info->model, tk_model());
	tk_pad(info->label, sizeof info->label, "");
	tk_pad(info->serialNumber, sizeof info->serialNumber, "");
	memset(info->utcTime, ' ', sizeof info->utcTime);
	info->ulMaxSessionCount = TK_MAX_SESSIONS;
	info->ulMaxRwSessionCount = TK_MAX_SESSIONS;
	info->ulSessionCount = copy.nsess;
	info->ulRwSessionCount = copy.nrw;
	info->ulMaxPinLen = TK_PIN_MAX;
	info->ulMinPinLen = TK_PIN_MIN;
	info->ulTotalPublicMemory = CK_UNAVAILABLE_INFORMATION;
	info->ulFreePublicMemory = CK_UNAVAILABLE_INFORMATION;
	info->ulTotalPrivateMemory = CK_UNAVAILABLE_INFORMATION;
	info->ulFreePrivateMemory = CK_UNAVAILABLE_INFORMATION;
	info->hardwareVersion.minor = 1;
	info->firmwareVersion.minor = 1;
	if (!copy.initialized)
		return CKR_OK;             /* the "new token" slot */

	rc = tk_slot_store_info(s, &ti);
	if (rc < 0)
		return tk_rv_from_pv(rc);
	memcpy(info->label, ti.label, sizeof info->label);
	tk_pad(info->serialNumber, sizeof info->serialNumber, ti.serial);
	info->flags = CKF_TOKEN_INITIALIZED | CKF_ASYNC_SESSION_SUPPORTED;
	if (copy.read_only)
		info->flags |= CKF_WRITE_PROTECTED;
	/* "no login" only where the vault opens the token's record */
	if (ti.no_login && tk_nologin_ticket(s, ti.nologin_rec) != PV_OK)
		ti.no_login = 0;
	if (!ti.no_login)
		info->flags |= CKF_LOGIN_REQUIRED;
	kc_wipe(ti.nologin_rec, sizeof ti.nologin_rec);
	if (tk_vault_ready())
		info->flags |= CKF_RNG;
	if (ti.user_pin_set)
		info->flags |= CKF_USER_PIN_INITIALIZED;
	info->flags |= tk_pin_flags(ti.user_fails, CKF_USER_PIN_COUNT_LOW,
	                            CKF_USER_PIN_FINAL_TRY, CKF_USER_PIN_LOCKED);
	info->flags |= tk_pin_flags(ti.so_fails, CKF_SO_PIN_COUNT_LOW,
	                            CKF_SO_PIN_FINAL_TRY, CKF_SO_PIN_LOCKED);
	return CKR_OK;
}

/* ---- C_InitToken ---- */
static int tk_mkdirs(const char *path)
{
	char tmp[4096];
	size_t i, n = strlen(path);

	if (n == 0 || n >= sizeof tmp)
		return PV_ERR_CONFIG;
	memcpy(tmp, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (tmp[i] == '/' || tmp[i] == '\0') {
			char c = tmp[i];
			tmp[i] = '\0';
			if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
				return errno == EACCES ? PV_ERR_PERM : PV_ERR_IO;
			tmp[i] = c;
		}
	}
	return PV_OK;
}

static void tk_fsync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Make a new token for slot number no, its token key made in the vault
 * with the SO's record under pin; called with the directory flock. */
static int tk_token_create(CK_SLOT_ID no, const uint8_t label[32],
                           const CK_UTF8CHAR *pin, CK_ULONG len)
{
	uint8_t rnd[8], tid[TK_TOKEN_ID_LEN];
	char serial[17], tmp[4200], dbp[4300], fin[4200], fpr[TK_FPR_LEN];
	tk_pinrec rec, *so = &rec;
	int i, rc;

	rc = tk_random(rnd, sizeof rnd);
	if (rc < 0)
		return rc;
	for (i = 0; i < 8; i++)
		snprintf(serial + 2 * i, 3, "%02X", rnd[i]);
	memcpy(tid, serial, sizeof tid);
	rc = tk_auth_token_new(tid, pin, len, &rec);
	if (rc < 0)
		return rc;
	snprintf(tmp, sizeof tmp, "%s/.new-%s", tk_g.token_dir, serial);
	snprintf(fin, sizeof fin, "%s/%s", tk_g.token_dir, serial);
	snprintf(dbp, sizeof dbp, "%s/token.db", tmp);
	if (mkdir(tmp, 0700) != 0) {
		kc_wipe(&rec, sizeof rec);
		return PV_ERR_IO;
	}
	rc = tk_store_create(dbp, no, serial, label, so);
	kc_wipe(&rec, sizeof rec);
	if (rc == PV_OK && tk_vault_master_fpr(fpr)[0] != '\0') {
		tk_db *d;
		if ((rc = tk_store_open(dbp, &d)) == PV_OK) {
			rc = tk_store_fpr_reset(d, fpr);
			tk_store_close(d);
		}
	}
	if (rc == PV_OK) {
		tk_fsync_dir(tmp);
		if (rename(tmp, fin) != 0)
			rc = PV_ERR_IO;
	}
	if (rc < 0) {
		char w[4400];
		snprintf(w, sizeof w, "%s-wal", dbp);
		unlink(w);
		snprintf(w, sizeof w, "%s-shm", dbp);
		unlink(w);
		unlink(dbp);
		rmdir(tmp);
		return rc;
	}
	tk_fsync_dir(tk_g.token_dir);
	return PV_OK;
}

/* C_InitToken of an existing token: the SO's PIN is checked by the vault
 * (counted as a login), then a new token key and SO record replace the
 * old ones and every object goes. */
static CK_RV tk_reinit(tk_slot *s, const CK_UTF8CHAR *pin, CK_ULONG len,
                       const uint8_t label[32])
{
	uint8_t ticket[TK_TICKET_LEN];
	size_t tlen = 0;
	tk_db *d;
	tk_pinrec rec;
	char fpr[TK_FPR_LEN];
	int rc;
	CK_RV rv;

	rv = tk_pin_verify(s, CKU_SO, pin, len, ticket, &tlen);
	kc_wipe(ticket, sizeof ticket);
	if (rv != CKR_OK)
		return rv;
	rc = tk_auth_token_new(s->tid, pin, len, &rec);
	if (rc < 0)
		return tk_rv_from_pv(rc);
	rc = tk_slot_db(s, &d);
	if (rc == PV_OK) {
		rc = tk_store_reinit(d, label, &rec);
		if (rc == PV_OK)      /* no objects left: the store's blobs follow this vault */
			rc = tk_store_fpr_reset(d, tk_vault_master_fpr(fpr));
		tk_slot_db_put(s, d);
	}
	kc_wipe(&rec, sizeof rec);
	return tk_rv_from_pv(rc);
}

CK_RV tk_init_token(CK_SLOT_ID id, const CK_UTF8CHAR *pin, CK_ULONG len,
                    const CK_UTF8CHAR *label)
{
	tk_slot *s;
	int fd = -1, rc, initialized;
	CK_RV rv;

	rv = tk_pin_len_check(pin, len);
	if (rv == CKR_ARGUMENTS_BAD)
		return rv;
	tk_mutex_lock(tk_g.mu);
	if ((s = tk_slot_find(id)) == NULL) {
		(void)tk_slots_refresh();
		s = tk_slot_find(id);
	}
	if (s != NULL && s->nsess > 0) {
		tk_mutex_unlock(tk_g.mu);
		return CKR_SESSION_EXISTS;
	}
	initialized = s != NULL && s->initialized;
	tk_mutex_unlock(tk_g.mu);
	if (s == NULL)
		return CKR_SLOT_ID_INVALID;
	if (initialized)
		return tk_reinit(s, pin, len, label);
	if (rv != CKR_OK)
		return rv;
	/* a token made without a master key could never hold a key: refuse
	 * before anything is written (the module logged why, once) */
	{
		char why[8];
		if (tk_vault_why(why, sizeof why) != TK_VAULT_READY)
			return CKR_DEVICE_ERROR;
	}

	rc = tk_mkdirs(tk_g.token_dir);
	if (rc == PV_OK)
		rc = tk_dir_lock(tk_g.token_dir, TK_DIR_LOCK_BLOCK, &fd);
	if (rc == PV_ERR_PERM || (rc == PV_OK && access(tk_g.token_dir, W_OK | X_OK) != 0)) {
		/* nobody else would say why the new token cannot be made */
		pv_log(PV_LOG_WARN, "cannot make a token in %s: this user (uid %u) may not "
		       "write there; run as the directory's owner, or set token_dir in "
		       "pixelvault.conf to a directory of this user's (`pvault status` "
		       "shows it)", tk_g.token_dir, (unsigned)geteuid());
		rc = PV_ERR_PERM;
	}
	if (rc == PV_OK) {
		tk_mutex_lock(tk_g.mu);
		(void)tk_slots_refresh();
		initialized = s->initialized;     /* another process made it? */
		tk_mutex_unlock(tk_g.mu);
		if (!initialized)
			rc = tk_token_create(s->id, label, pin, len);
	}
	tk_dir_unlock(fd);
	if (rc < 0)
		return tk_rv_from_pv(rc);
	if (initialized)
		return tk_reinit(s, pin, len, label);
	tk_mutex_lock(tk_g.mu);
	(void)tk_slots_refresh();
	tk_mutex_unlock(tk_g.mu);
	return CKR_OK;
}
