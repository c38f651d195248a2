/* tk_backup.c - token store backup and restore (tk_backup.h). */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/core/hash/kc_sha2.h"
#include "gpu/host/pv_log.h"
#include "token/tk_admin.h"
#include "token/tk_backup.h"
#include "token/tk_int.h"

/* how long a restore waits for the token directory's lock */
#define BK_LOCK_WAIT_MS 15000

static int bk_fail(char *why, size_t cap, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
	return rc;
}

static void be64(uint8_t *p, uint64_t v)
{
	int i;
	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t ld64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;
	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void fsync_dir(const char *path)
{
	char d[4400];
	int fd;

	tk_dirname(path, d, sizeof d);
	fd = open(d, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static uint8_t *read_file(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *b;
	size_t got = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	b = (uint8_t *)malloc((size_t)st.st_size + 1);
	while (b && got < (size_t)st.st_size) {
		ssize_t r = read(fd, b + got, (size_t)st.st_size - got);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		got += (size_t)r;
	}
	close(fd);
	*len = got;
	return b;
}

int tk_backup_write(const char *dbpath, const char *out, tk_backup_info *info,
                    char *why, size_t cap)
{
	tk_admin_token t;
	sqlite3 *src = NULL, *dst = NULL;
	sqlite3_backup *bk;
	char tmpdb[4400], tmp[4400];
	uint8_t hdr[TK_BACKUP_HDR], sum[32], *img = NULL;
	size_t ilen = 0;
	kc_sha256_state h;
	int rc, fd = -1;

	memset(info, 0, sizeof *info);
	if (access(out, F_OK) == 0)
		return bk_fail(why, cap, PV_ERR_ARGS, "%s already exists", out);
	rc = tk_admin_get(dbpath, &t);
	if (rc != PV_OK)
		return bk_fail(why, cap, rc, "cannot read token store %s (%s)", dbpath, pv_strerror(rc));
	snprintf(tmpdb, sizeof tmpdb, "%s.tmp-db", out);
	snprintf(tmp, sizeof tmp, "%s.tmp", out);
	unlink(tmpdb);
	if (sqlite3_open_v2(dbpath, &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_open_v2(tmpdb, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		rc = bk_fail(why, cap, PV_ERR_IO, "cannot open %s or %s", dbpath, tmpdb);
		goto out;
	}
	sqlite3_busy_timeout(src, 15000);
	bk = sqlite3_backup_init(dst, "main", src, "main");
	if (bk == NULL) {
		rc = bk_fail(why, cap, PV_ERR_IO, "backup: %s", sqlite3_errmsg(dst));
		goto out;
	}
	do {
		rc = sqlite3_backup_step(bk, -1);
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
			sqlite3_sleep(50);
	} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
	sqlite3_backup_finish(bk);
	if (rc != SQLITE_DONE) {
		rc = bk_fail(why, cap, PV_ERR_IO, "backup: %s", sqlite3_errstr(rc));
		goto out;
	}
	/* the image is self-contained: fold any WAL of the copy into it */
	sqlite3_exec(dst, "PRAGMA journal_mode=DELETE;", NULL, NULL, NULL);
	sqlite3_close(dst);
	dst = NULL;
	img = read_file(tmpdb, &ilen);
	if (img == NULL) {
		rc = bk_fail(why, cap, PV_ERR_IO, "%s: %s", tmpdb, strerror(errno));
		goto out;
	}
	/* restore expects WAL like every store: set the header bytes back
	 * (file format write/read version 2 = WAL) */
	if (ilen >= 100) {
		img[18] = 2;
		img[19] = 2;
	}
	memset(hdr, 0, sizeof hdr);
	memcpy(hdr, "PVBK", 4);
	kc_store_be32(hdr + 4, TK_BACKUP_VERSION);
	memcpy(hdr + 8, t.serial, 16);
	if (t.master_fpr[0])
		memcpy(hdr + 24, t.master_fpr, 16);
	be64(hdr + 40, (uint64_t)time(NULL));
	be64(hdr + 48, (uint64_t)ilen);
	kc_sha256_init(&h);
	kc_sha256_update(&h, hdr, sizeof hdr);
	kc_sha256_update(&h, img, ilen);
	kc_sha256_final(&h, sum);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || write_all(fd, hdr, sizeof hdr) || write_all(fd, img, ilen) ||
	    write_all(fd, sum, sizeof sum) || fsync(fd) != 0) {
		rc = bk_fail(why, cap, PV_ERR_IO, "writing %s: %s", tmp, strerror(errno));
		goto out;
	}
	close(fd);
	fd = -1;
	if (link(tmp, out) != 0) {            /* never replaces an existing file */
		rc = bk_fail(why, cap, PV_ERR_IO, "%s: %s", out, strerror(errno));
		goto out;
	}
	fsync_dir(out);
	info->version = TK_BACKUP_VERSION;
	memcpy(info->serial, t.serial, 17);
	memcpy(info->master_fpr, t.master_fpr, 17);
	info->created = (int64_t)time(NULL);
	info->len = ilen;
	rc = PV_OK;
out:
	if (fd >= 0)
		close(fd);
	if (dst)
		sqlite3_close(dst);
	if (src)
		sqlite3_close(src);
	unlink(tmp);
	unlink(tmpdb);
	if (img) {
		kc_wipe(img, ilen);
		free(img);
	}
	return rc;
}

int tk_backup_check(const char *path, tk_backup_info *info, uint8_t **image,
                    char *why, size_t cap)
{
	uint8_t *b, sum[32];
	size_t n = 0;
	uint64_t len;
	kc_sha256_state h;

	memset(info, 0, sizeof *info);
	if (image)
		*image = NULL;
	b = read_file(path, &n);
	if (b == NULL)
		return bk_fail(why, cap, PV_ERR_IO, "%s: %s", path, strerror(errno));
	if (n < 4 || memcmp(b, "PVBK", 4) != 0) {
		free(b);
		return bk_fail(why, cap, PV_ERR_CORRUPT, "%s is not a PixelVault backup", path);
	}
	if (n < TK_BACKUP_HDR + 32) {
		free(b);
		return bk_fail(why, cap, PV_ERR_CORRUPT, "%s is truncated (%zu bytes)", path, n);
	}
	info->version = kc_load_be32(b + 4);
	if (info->version != TK_BACKUP_VERSION) {
		free(b);
		return bk_fail(why, cap, PV_ERR_CORRUPT, "%s: backup format version %u is not supported",
		               path, info->version);
	}
	len = ld64(b + 48);
	if (len > n || n - TK_BACKUP_HDR - 32 < len) {
		free(b);
		return bk_fail(why, cap, PV_ERR_CORRUPT, "%s is truncated (%zu of %llu bytes)", path, n,
		               (unsigned long long)(len + TK_BACKUP_HDR + 32));
	}
	if (n - TK_BACKUP_HDR - 32 != len) {
		free(b);
		return bk_fail(why, cap, PV_ERR_CORRUPT, "%s has %zu unexpected trailing bytes", path,
		               (size_t)(n - TK_BACKUP_HDR - 32 - len));
	}
	kc_sha256_init(&h);
	kc_sha256_update(&h, b, TK_BACKUP_HDR + (size_t)len);
	kc_sha256_final(&h, sum);
	if (!kc_ct_eq(sum, b + TK_BACKUP_HDR + len, 32)) {
		free(b);
		return bk_fail(why, cap, PV_ERR_CORRUPT, "%s: SHA-256 check failed (corrupted backup)", path);
	}
	memcpy(info->serial, b + 8, 16);
	info->serial[16] = '\0';
	memcpy(info->master_fpr, b + 24, 16);
	info->master_fpr[16] = '\0';
	info->created = (int64_t)ld64(b + 40);
	info->len = len;
	if (image) {
		memmove(b, b + TK_BACKUP_HDR, (size_t)len);
		*image = b;
	} else {
		free(b);
	}
	return PV_OK;
}

static void rm_dir(const char *d)
{
	char f[4700];
	DIR *dd = opendir(d);
	struct dirent *e;
	if (dd) {
		while ((e = readdir(dd)) != NULL) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(f, sizeof f, "%s/%s", d, e->d_name);
			unlink(f);
		}
		closedir(dd);
	}
	rmdir(d);
}

int tk_backup_restore(const char *path, const char *token_dir, const char *expect_fpr,
                      tk_backup_info *info, int *replaced, char *why, size_t cap)
{
	uint8_t *img = NULL;
	char nd[4400], ndb[4500], live[4400];
	tk_admin_token t;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc, fd = -1, ok = 0, lock = -1;
	size_t i;

	*replaced = 0;
	rc = tk_backup_check(path, info, &img, why, cap);
	if (rc != PV_OK)
		return rc;
	for (i = 0; i < 16; i++)
		if (!((info->serial[i] >= '0' && info->serial[i] <= '9') ||
		      (info->serial[i] >= 'A' && info->serial[i] <= 'F'))) {
			rc = bk_fail(why, cap, PV_ERR_CORRUPT, "%s: invalid token serial", path);
			goto out;
		}
	if (expect_fpr && strcmp(info->master_fpr, expect_fpr) != 0) {
		rc = bk_fail(why, cap, PV_ERR_WRAPPED,
		             "%s was made under master key %s, not the loaded master key %s "
		             "(a backup of another vault?)", path,
		             info->master_fpr[0] ? info->master_fpr : "(unrecorded)", expect_fpr);
		goto out;
	}
	if (mkdir(token_dir, 0700) != 0 && errno != EEXIST) {
		rc = bk_fail(why, cap, PV_ERR_PERM, "cannot create %s: %s", token_dir, strerror(errno));
		goto out;
	}
	if (access(token_dir, W_OK | X_OK) != 0) {
		rc = bk_fail(why, cap, PV_ERR_PERM, "token directory %s is not writable by this user",
		             token_dir);
		goto out;
	}
	/* the directory's lock: no token made, deleted or migrated meanwhile */
	rc = tk_dir_lock(token_dir, BK_LOCK_WAIT_MS, &lock);
	if (rc != PV_OK) {
		rc = bk_fail(why, cap, rc, rc == PV_ERR_BUSY ?
		             "another program holds %s/.lock (a token being made, deleted or "
		             "migrated); try again when it is done" :
		             "cannot open %s/.lock to lock the token directory", token_dir);
		goto out;
	}
	snprintf(nd, sizeof nd, "%s/.new-%s", token_dir, info->serial);
	snprintf(ndb, sizeof ndb, "%s/token.db", nd);
	snprintf(live, sizeof live, "%s/%s", token_dir, info->serial);
	rm_dir(nd);                          /* a leftover of an interrupted restore */
	if (mkdir(nd, 0700) != 0) {
		rc = bk_fail(why, cap, PV_ERR_IO, "%s: %s", nd, strerror(errno));
		goto out;
	}
	fd = open(ndb, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || write_all(fd, img, (size_t)info->len) || fsync(fd) != 0) {
		rc = bk_fail(why, cap, PV_ERR_IO, "writing %s: %s", ndb, strerror(errno));
		goto fail;
	}
	close(fd);
	fd = -1;
	/* SQLite's own check, and the serial inside must be the header's */
	if (sqlite3_open_v2(ndb, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
	    !strcmp((const char *)sqlite3_column_text(st, 0), "ok"))
		ok = 1;
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (!ok || tk_admin_get(ndb, &t) != PV_OK || strcmp(t.serial, info->serial) != 0) {
		rc = bk_fail(why, cap, PV_ERR_CORRUPT, "%s: the database inside fails its integrity check", path);
		goto fail;
	}
	{
		char f[4600];
		snprintf(f, sizeof f, "%s-wal", ndb); unlink(f);
		snprintf(f, sizeof f, "%s-shm", ndb); unlink(f);
	}
	fsync_dir(ndb);
	fsync_dir(nd);
	if (access(live, F_OK) == 0) {
		if (renameat2(AT_FDCWD, nd, AT_FDCWD, live, RENAME_EXCHANGE) != 0) {
			rc = bk_fail(why, cap, PV_ERR_IO, "swapping in %s: %s", live, strerror(errno));
			goto fail;
		}
		*replaced = 1;
		fsync_dir(live);
		rm_dir(nd);                  /* the replaced store */
	} else if (rename(nd, live) != 0) {
		rc = bk_fail(why, cap, PV_ERR_IO, "%s: %s", live, strerror(errno));
		goto fail;
	}
	fsync_dir(live);
	rc = PV_OK;
	goto out;
fail:
	if (fd >= 0)
		close(fd);
	rm_dir(nd);
out:
	tk_dir_unlock(lock);
	if (img) {
		kc_wipe(img, (size_t)info->len);
		free(img);
	}
	return rc;
}
