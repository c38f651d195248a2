/* pv_master.c - the master key file (format in pv_master.h). */
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_secstack.h"
#include "gpu/core/pv_err.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/hash/kc_kdf.h"
#include "gpu/core/sym/kc_sym.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define HDR_LEN     8
#define PLAIN_LEN   56
#define PASS_LEN    104
#define CHECK_LEN   16
#define FLAG_PASS   0x01

static const char check_label[] = "PixelVault master key file v1";
static const char fpr_label[] = "PixelVault master key id";

static int os_random(void *p, size_t n)
{
	uint8_t *b = p;
	while (n) {
		ssize_t r = getrandom(b, n, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return PV_ERR_RANDOM;
		}
		b += r;
		n -= (size_t)r;
	}
	return PV_OK;
}

static void checksum(const uint8_t *buf, size_t len, uint8_t out[CHECK_LEN])
{
	kc_hash_ctx h;
	uint8_t d[32];
	kc_hash_init(&h, KC_HASH_SHA256);
	kc_hash_update(&h, check_label, sizeof check_label - 1);
	kc_hash_update(&h, buf, len);
	kc_hash_final(&h, d);
	memcpy(out, d, CHECK_LEN);
}

/* AES-256-GCM under PBKDF2(passphrase); enc = 1 encrypts in place. */
static int pass_gcm(int enc, const char *pass, const uint8_t *salt, uint32_t iters,
                    const uint8_t *nonce, const uint8_t *hdr, uint8_t *data,
                    uint8_t *tag)
{
	uint8_t kek[32];
	kc_bc bc;
	kc_gcm g;
	int rc;

	rc = kc_pbkdf2_hmac(KC_HASH_SHA256, (const uint8_t *)pass, strlen(pass),
	                    salt, 16, iters, kek, sizeof kek);
	if (rc == PV_OK)
		rc = kc_bc_init(&bc, KC_BC_AES, kek, sizeof kek);
	if (rc == PV_OK)
		rc = kc_gcm_init(&g, &bc, nonce, 12);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, hdr, HDR_LEN);
	if (rc == PV_OK) {
		if (enc) {
			rc = kc_gcm_encrypt(&g, data, data, PV_MASTER_KEY_LEN);
			kc_gcm_tag(&g, tag);
		} else {
			/* tag first: a wrong passphrase leaves data (the
			 * ciphertext) as it was; a tag mismatch is the only
			 * error kc_gcm_open can give here */
			rc = kc_gcm_open(&g, data, PV_MASTER_KEY_LEN, tag, 16, data);
			if (rc == PV_ERR_ENC_INVALID)
				rc = PV_ERR_WRAPPED;
		}
	}
	kc_gcm_clear(&g);
	kc_bc_clear(&bc);
	kc_wipe(kek, sizeof kek);
	return rc;
}

int pv_master_generate(uint8_t key[PV_MASTER_KEY_LEN])
{
	return os_random(key, PV_MASTER_KEY_LEN);
}

int pv_master_write(const char *path, const uint8_t key[PV_MASTER_KEY_LEN],
                    const char *passphrase)
{
	uint8_t buf[PASS_LEN];
	size_t len;
	int fd, rc = PV_OK;
	ssize_t w;

	memset(buf, 0, sizeof buf);
	memcpy(buf, "PVMK", 4);
	buf[4] = 1;
	if (passphrase && *passphrase) {
		buf[5] = FLAG_PASS;
		rc = os_random(buf + 8, 16);                 /* salt */
		kc_store_be32(buf + 24, PV_MASTER_PBKDF2_ITERS);
		if (rc == PV_OK)
			rc = os_random(buf + 28, 12);        /* nonce */
		memcpy(buf + 40, key, PV_MASTER_KEY_LEN);
		if (rc == PV_OK)
			rc = pass_gcm(1, passphrase, buf + 8, PV_MASTER_PBKDF2_ITERS,
			              buf + 28, buf, buf + 40, buf + 72);
		len = PASS_LEN;
	} else {
		memcpy(buf + 8, key, PV_MASTER_KEY_LEN);
		len = PLAIN_LEN;
	}
	if (rc != PV_OK)
		goto out;
	checksum(buf, len - CHECK_LEN, buf + len - CHECK_LEN);

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
	if (fd < 0) {
		rc = errno == EACCES || errno == EEXIST ? PV_ERR_PERM : PV_ERR_IO;
		goto out;
	}
	w = write(fd, buf, len);
	if (w != (ssize_t)len || fsync(fd) != 0) {
		rc = PV_ERR_IO;
		close(fd);
		unlink(path);
		goto out;
	}
	if (close(fd) != 0)
		rc = PV_ERR_IO;
out:
	kc_wipe(buf, sizeof buf);
	return rc;
}

/* The file's mode and owner (pv_master_perm_check); msg may be NULL. */
static int perm_ok(const struct stat *st, const char *path, char *msg, size_t cap)
{
	uid_t me = geteuid();

	if (st->st_uid != me && st->st_uid != 0) {
		if (msg != NULL && me == 0)
			snprintf(msg, cap, "'%s' is owned by uid %u: a master key file read "
			         "by root must belong to root; fix it with: chown 0 %s",
			         path, (unsigned)st->st_uid, path);
		else if (msg != NULL)
			snprintf(msg, cap, "'%s' is owned by uid %u: a master key file must "
			         "belong to the user reading it (uid %u) or to root; fix it "
			         "as root with: chown %u %s", path, (unsigned)st->st_uid,
			         (unsigned)me, (unsigned)me, path);
		return PV_ERR_INSECURE;
	}
	if ((st->st_mode & 077) != 0) {
		if (msg != NULL)
			snprintf(msg, cap, "permissions %04o for '%s' are too open: a master "
			         "key file must not be accessible by group or others; fix "
			         "it with: chmod 600 %s", (unsigned)(st->st_mode & 07777),
			         path, path);
		return PV_ERR_INSECURE;
	}
	return PV_OK;
}

int pv_master_perm_check(const char *path, char *msg, size_t cap)
{
	struct stat st;

	if (msg != NULL && cap > 0)
		msg[0] = '\0';
	if (stat(path, &st) != 0)
		return PV_ERR_IO;
	return perm_ok(&st, path, msg, cap);
}

/* The key file's bytes, once the open file has passed perm_ok. */
static int read_file(const char *path, uint8_t *buf, size_t cap, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t r;
	if (fd < 0)
		return errno == EACCES ? PV_ERR_PERM : PV_ERR_IO;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return PV_ERR_IO;
	}
	if (perm_ok(&st, path, NULL, 0) != PV_OK) {
		close(fd);
		return PV_ERR_INSECURE;
	}
	r = read(fd, buf, cap);
	close(fd);
	if (r < 0)
		return PV_ERR_IO;
	*len = (size_t)r;
	return PV_OK;
}

static int parse_header(const uint8_t *buf, size_t len)
{
	uint8_t check[CHECK_LEN];
	size_t want;
	if (len < HDR_LEN || memcmp(buf, "PVMK", 4) != 0 || buf[4] != 1 ||
	    (buf[5] & ~FLAG_PASS) != 0 || buf[6] || buf[7])
		return PV_ERR_CORRUPT;
	want = buf[5] & FLAG_PASS ? PASS_LEN : PLAIN_LEN;
	if (len != want)
		return PV_ERR_CORRUPT;
	checksum(buf, len - CHECK_LEN, check);
	if (!kc_ct_eq(check, buf + len - CHECK_LEN, CHECK_LEN))
		return PV_ERR_CORRUPT;
	return buf[5] & FLAG_PASS ? 1 : 0;
}

int pv_master_needs_passphrase(const char *path)
{
	uint8_t buf[PASS_LEN + 1];
	size_t len;
	int rc = read_file(path, buf, sizeof buf, &len);
	if (rc == PV_OK)
		rc = parse_header(buf, len);
	kc_wipe(buf, sizeof buf);
	return rc;
}

static int master_read(const char *path, const char *passphrase,
                       uint8_t key[PV_MASTER_KEY_LEN])
{
	uint8_t buf[PASS_LEN + 1];
	size_t len;
	int rc = read_file(path, buf, sizeof buf, &len);

	if (rc == PV_OK)
		rc = parse_header(buf, len);
	if (rc == 0) {
		memcpy(key, buf + 8, PV_MASTER_KEY_LEN);
	} else if (rc == 1) {
		uint32_t iters = kc_load_be32(buf + 24);
		if (!passphrase || !*passphrase)
			rc = PV_ERR_PASSPHRASE;
		else if (iters < 1000)
			rc = PV_ERR_CORRUPT;
		else
			rc = pass_gcm(0, passphrase, buf + 8, iters, buf + 28, buf,
			              buf + 40, buf + 72);
		if (rc == PV_OK)
			memcpy(key, buf + 40, PV_MASTER_KEY_LEN);
	}
	if (rc != PV_OK)
		kc_wipe(key, PV_MASTER_KEY_LEN);
	kc_wipe(buf, sizeof buf);
	return rc;
}

typedef struct master_read_job {
	const char *path, *passphrase;
	uint8_t *key;
	int rc;
} master_read_job;

static void master_read_on_stack(void *arg)
{
	master_read_job *j = (master_read_job *)arg;
	j->rc = master_read(j->path, j->passphrase, j->key);
}

/* On a stack of its own (pv_secstack.h): the file's bytes, the
 * passphrase's key and the GCM state never touch the caller's stack. */
int pv_master_read(const char *path, const char *passphrase,
                   uint8_t key[PV_MASTER_KEY_LEN])
{
	pv_secstack *st = pv_secstack_new(64u << 10);
	master_read_job j;

	if (st == NULL) {
		kc_wipe(key, PV_MASTER_KEY_LEN);
		return PV_ERR_NOMEM;
	}
	j.path = path;
	j.passphrase = passphrase;
	j.key = key;
	j.rc = PV_ERR_GENERAL;
	pv_secstack_call(st, master_read_on_stack, &j);
	pv_secstack_free(st);
	return j.rc;
}

void pv_master_fingerprint(const uint8_t key[PV_MASTER_KEY_LEN], char out[PV_MASTER_FPR_LEN])
{
	static const char hx[] = "0123456789abcdef";
	kc_hash_ctx h;
	uint8_t d[32];
	int i;
	kc_hash_init(&h, KC_HASH_SHA256);
	kc_hash_update(&h, fpr_label, sizeof fpr_label - 1);
	kc_hash_update(&h, key, PV_MASTER_KEY_LEN);
	kc_hash_final(&h, d);
	for (i = 0; i < 8; i++) {
		out[2 * i] = hx[d[i] >> 4];
		out[2 * i + 1] = hx[d[i] & 15];
	}
	out[16] = 0;
}

const char *pv_master_strerror(int err)
{
	switch (err) {
	case PV_OK: return "ok";
	case PV_ERR_NOT_FOUND: return "the master key file does not exist";
	case PV_ERR_IO: return "cannot read or write the master key file";
	case PV_ERR_PERM: return "permission denied";
	case PV_ERR_PASSPHRASE: return "the master key file is passphrase-protected and no passphrase was given";
	case PV_ERR_CORRUPT: return "the master key file is corrupted (bad format or checksum)";
	case PV_ERR_WRAPPED: return "wrong passphrase for the master key file";
	case PV_ERR_RANDOM: return "the OS random generator failed";
	case PV_ERR_INSECURE: return "the master key file may be read or replaced by other users";
	default: return "master key error";
	}
}

const char *pv_master_explain(const char *path, int err, char *buf, size_t cap)
{
	const char *p = path != NULL ? path : "";

	if (cap == 0)
		return pv_master_strerror(err);
	switch (err) {
	case PV_ERR_NOT_FOUND:
		if (p[0] == '\0')
			snprintf(buf, cap, "no master key is configured: name its file in "
			         "pixelvault.conf (master_key = FILE), or make a first one with "
			         "`pvault master new --out FILE`");
		else
			snprintf(buf, cap, "the master key file %s does not exist: attach the "
			         "medium that holds it, or make a first key with `pvault master "
			         "new --out %s` (a new key cannot open tokens made under another)",
			         p, p);
		break;
	case PV_ERR_PERM:
		snprintf(buf, cap, "this user (uid %u) may not read the master key file %s: run "
		         "as the user who owns it, or let pvaultd hold the key for every "
		         "user (mode = daemon in pixelvault.conf)", (unsigned)geteuid(), p);
		break;
	case PV_ERR_PASSPHRASE:
		snprintf(buf, cap, "the master key file %s is passphrase-protected and no "
		         "passphrase was given: set PIXELVAULT_MASTER_PASSPHRASE for the "
		         "program that opens the vault", p);
		break;
	case PV_ERR_WRAPPED:
		snprintf(buf, cap, "wrong passphrase for the master key file %s "
		         "(PIXELVAULT_MASTER_PASSPHRASE): `pvault master check %s` tries one "
		         "typed on a terminal", p, p);
		break;
	case PV_ERR_CORRUPT:
		snprintf(buf, cap, "the master key file %s is corrupted (bad format or "
		         "checksum): put back its backup copy; `pvault master check FILE` "
		         "verifies a copy", p);
		break;
	case PV_ERR_IO:
		snprintf(buf, cap, "cannot read the master key file %s: check that its "
		         "medium is attached and readable", p);
		break;
	case PV_ERR_INSECURE:
		/* the file may have been fixed since: then the general text */
		if (pv_master_perm_check(p, buf, cap) == PV_ERR_INSECURE)
			break;
		/* fall through */
	default:
		snprintf(buf, cap, "the master key file %s cannot be used: %s", p,
		         pv_master_strerror(err));
		break;
	}
	return buf;
}

int pv_master_load(const char *path, uint8_t key[PV_MASTER_KEY_LEN])
{
	int rc;

	if (path == NULL || path[0] == '\0' ||
	    (access(path, F_OK) != 0 && (errno == ENOENT || errno == ENOTDIR)))
		rc = PV_ERR_NOT_FOUND;
	else
		rc = pv_master_read(path, getenv("PIXELVAULT_MASTER_PASSPHRASE"), key);
	if (rc != PV_OK) {
		char msg[PV_MASTER_MSG_MAX];
		kc_wipe(key, PV_MASTER_KEY_LEN);
		pv_log(PV_LOG_INFO, "vault sealed: %s", pv_master_explain(path, rc, msg, sizeof msg));
	}
	return rc;
}
