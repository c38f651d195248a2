/*
 * pv_mklegacy.c - helpers of tests/e2e/pvault_migrate.sh.
 *
 *   pv_mklegacy legacify DB MASTER_KEY ITER SO_PIN USER_PIN [--no-user]
 *               [--no-login] SPEC...
 *     Turns the token store DB (made by today's pvault) into one of the
 *     format before token keys, as older PixelVault versions wrote it:
 *     schema version 1 (no pins.period, no pin_tries), PINs as
 *     PBKDF2-HMAC-SHA256(PIN, 16-byte salt, ITER) verifiers, no PIN
 *     records, and every key blob named by a SPEC replaced by a blob of
 *     the key in FILE under the master key alone:
 *       SPEC = IDHEX:FILE:VER[:MECH,MECH...]
 *     IDHEX the object's CKA_ID; FILE its key (raw bytes for a secret
 *     key, PEM for an EC P-256 / P-384 or RSA private key); VER the blob
 *     version: 1 or 2 (16-byte header, no policy; 2 = RSA with d last),
 *     3 or 4 (40-byte header, policy 0: what a master key rotation made of
 *     a legacy blob), with a "w" an RSA key's numbers in the widths of 4096
 *     bits (the first RSA layout), with a "p" the object made public
 *     (CKA_PRIVATE false, as older versions made secret keys by default);
 *     MECH... (hex CKM values) the CKA_ALLOWED_MECHANISMS
 *     the old store held.  --no-user drops the user PIN, --no-login adds
 *     the old "no login" row (pv_meta login = none).
 *     The blobs are made here with OpenSSL (HKDF-SHA256 of the master key,
 *     AES-256-GCM, AAD = header || identity: docs/vault-engine.md), not by
 *     the engine, so the migration is checked against an independent
 *     writer of the old format.
 *
 *   pv_mklegacy hold MODULE SECONDS
 *     Loads the PKCS#11 module, reads every token's info (so its store is
 *     open), prints "ready" and keeps it so for SECONDS.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <p11-kit/pkcs11.h>
#include <sqlite3.h>

#include "gpu/host/pv_master.h"

#define BLOB_TYPE   0xD056F001LL    /* TK_CKA_BLOB */
#define BLOB_ID     0xD056F002LL    /* TK_CKA_BLOB_ID */
#define BLOB_MECHS  0xD056F003LL    /* TK_CKA_BLOB_MECHS */

static void die(const char *what)
{
	fprintf(stderr, "pv_mklegacy: %s\n", what);
	exit(1);
}

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void kek_of(const char *path, uint8_t kek[32])
{
	uint8_t mk[PV_MASTER_KEY_LEN];
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
	size_t n = 32;
	static const char info[] = "PixelVault KEK v1";

	if (pv_master_read(path, NULL, mk) != 0)
		die("cannot read the master key");
	if (c == NULL || EVP_PKEY_derive_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_hkdf_md(c, EVP_sha256()) <= 0 ||
	    EVP_PKEY_CTX_set1_hkdf_key(c, mk, sizeof mk) <= 0 ||
	    EVP_PKEY_CTX_add1_hkdf_info(c, (const unsigned char *)info, sizeof info - 1) <= 0 ||
	    EVP_PKEY_derive(c, kek, &n) <= 0)
		die("HKDF");
	EVP_PKEY_CTX_free(c);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = malloc(65536);

	if (f == NULL || b == NULL)
		die("cannot read a key file");
	*len = fread(b, 1, 65536, f);
	fclose(f);
	return b;
}

static void bn_put(const EVP_PKEY *k, const char *name, uint8_t *out, size_t w)
{
	BIGNUM *bn = NULL;

	if (!EVP_PKEY_get_bn_param(k, name, &bn) || BN_bn2binpad(bn, out, (int)w) < 0)
		die("key number");
	BN_clear_free(bn);
}

/* The payload of a private key in PEM file path, blob version ver
 * (ve_pk.h); wide: an RSA key's numbers in the widths of 4096 bits (the
 * first layout). */
static size_t pk_payload(const char *path, uint32_t type, uint32_t ver, int wide, uint8_t *out)
{
	FILE *f = fopen(path, "r");
	EVP_PKEY *k = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
	size_t n = 0;

	if (f)
		fclose(f);
	if (k == NULL)
		die("cannot read a PEM private key");
	if (type == 0x11 || type == 0x12) {            /* EC P-256 / P-384: d | 04 X Y */
		size_t fl = type == 0x11 ? 32 : 48, pl = 0;
		bn_put(k, OSSL_PKEY_PARAM_PRIV_KEY, out, fl);
		if (!EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, out + fl,
		                                     1 + 2 * fl, &pl) || pl != 1 + 2 * fl)
			die("EC public key");
		n = fl + pl;
	} else if (type == 0x10) {                     /* RSA */
		uint32_t bits = (uint32_t)EVP_PKEY_get_bits(k);
		size_t nb = wide ? 512 : 4 * ((bits + 31) / 32), o = 8;
		size_t hb = wide ? 256 : 4 * (((bits + 1) / 2 + 31) / 32);
		const int dlast = ver == 2 || ver == 4;
		be32(out, bits);
		bn_put(k, OSSL_PKEY_PARAM_RSA_E, out + 4, 4);
		bn_put(k, OSSL_PKEY_PARAM_RSA_N, out + o, nb); o += nb;
		if (!dlast) { bn_put(k, OSSL_PKEY_PARAM_RSA_D, out + o, nb); o += nb; }
		bn_put(k, OSSL_PKEY_PARAM_RSA_FACTOR1, out + o, hb); o += hb;
		bn_put(k, OSSL_PKEY_PARAM_RSA_FACTOR2, out + o, hb); o += hb;
		bn_put(k, OSSL_PKEY_PARAM_RSA_EXPONENT1, out + o, hb); o += hb;
		bn_put(k, OSSL_PKEY_PARAM_RSA_EXPONENT2, out + o, hb); o += hb;
		bn_put(k, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, out + o, hb); o += hb;
		if (dlast) { bn_put(k, OSSL_PKEY_PARAM_RSA_D, out + o, nb); o += nb; }
		n = o;
	} else {
		die("key type not made here");
	}
	EVP_PKEY_free(k);
	return n;
}

/* A blob of version ver: header, nonce, AES-256-GCM(payload), tag. */
static size_t seal(const uint8_t kek[32], uint32_t ver, uint32_t type, uint32_t usage,
                   const uint8_t *pl, size_t len, const uint8_t id[16], uint8_t *out)
{
	size_t hl = ver <= 2 ? 16 : 40;
	uint8_t aad[56];
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n = 0;

	memset(out, 0, hl);
	memcpy(out, "PVK", 3);
	out[3] = (uint8_t)ver;
	be32(out + 4, type);
	be32(out + 8, usage);
	be32(out + 12, (uint32_t)len);               /* policy, list: 0 */
	RAND_bytes(out + hl, 12);
	memcpy(aad, out, hl);
	memcpy(aad + hl, id, 16);
	if (c == NULL || !EVP_EncryptInit_ex(c, EVP_aes_256_gcm(), NULL, kek, out + hl) ||
	    !EVP_EncryptUpdate(c, NULL, &n, aad, (int)(hl + 16)) ||
	    !EVP_EncryptUpdate(c, out + hl + 12, &n, pl, (int)len) ||
	    !EVP_EncryptFinal_ex(c, out + hl + 12 + len, &n) ||
	    !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, out + hl + 12 + len))
		die("GCM");
	EVP_CIPHER_CTX_free(c);
	return hl + 12 + len + 16;
}

static void exec_sql(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "pv_mklegacy: %s: %s\n", sql, err ? err : "?");
		exit(1);
	}
}

static void legacy_pin(sqlite3 *db, int who, const char *pin, int iter)
{
	uint8_t salt[16], v[32];
	sqlite3_stmt *st;

	RAND_bytes(salt, sizeof salt);
	if (!PKCS5_PBKDF2_HMAC(pin, (int)strlen(pin), salt, sizeof salt, iter, EVP_sha256(),
	                       sizeof v, v))
		die("PBKDF2");
	if (sqlite3_prepare_v2(db, "UPDATE pins SET alg = 'pbkdf2-hmac-sha256', iterations = ?1,"
	                       " salt = ?2, verifier = ?3, fails = 0 WHERE who = ?4", -1, &st,
	                       NULL) != SQLITE_OK)
		die("pins");
	sqlite3_bind_int(st, 1, iter);
	sqlite3_bind_blob(st, 2, salt, sizeof salt, SQLITE_TRANSIENT);
	sqlite3_bind_blob(st, 3, v, sizeof v, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 4, who);
	if (sqlite3_step(st) != SQLITE_DONE || sqlite3_changes(db) != 1)
		die("pins row");
	sqlite3_finalize(st);
}

/* One SPEC: the object with that CKA_ID and a blob gets the legacy blob. */
static void legacy_key(sqlite3 *db, const uint8_t kek[32], char *spec)
{
	char *idhex = strtok(spec, ":"), *file = strtok(NULL, ":"), *vers = strtok(NULL, ":");
	char *mechs = strtok(NULL, ":");
	uint8_t id[64], bid[16], pl[4096], blob[4400];
	size_t idl = strlen(idhex) / 2, i, len, bl;
	sqlite3_stmt *st;
	sqlite3_int64 oid;
	uint32_t type, usage, ver;

	if (file == NULL || vers == NULL || idl == 0 || idl > sizeof id)
		die("bad SPEC");
	ver = (uint32_t)atoi(vers);
	for (i = 0; i < idl; i++)
		sscanf(idhex + 2 * i, "%2hhx", &id[i]);
	if (sqlite3_prepare_v2(db, "SELECT a.oid, b.value, i.value FROM attributes a"
	                       " JOIN attributes b ON b.oid = a.oid AND b.type = ?2"
	                       " JOIN attributes i ON i.oid = a.oid AND i.type = ?3"
	                       " WHERE a.type = 258 AND a.value = ?1", -1, &st, NULL) != SQLITE_OK)
		die("select");
	sqlite3_bind_blob(st, 1, id, (int)idl, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, BLOB_TYPE);
	sqlite3_bind_int64(st, 3, BLOB_ID);
	if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_bytes(st, 2) != 16)
		die("no key object with that CKA_ID");
	oid = sqlite3_column_int64(st, 0);
	type = ld32((const uint8_t *)sqlite3_column_blob(st, 1) + 4);
	usage = ld32((const uint8_t *)sqlite3_column_blob(st, 1) + 8);
	memcpy(bid, sqlite3_column_blob(st, 2), 16);
	sqlite3_finalize(st);
	if (type < 0x10) {                     /* secret: the raw bytes */
		uint8_t *raw = slurp(file, &len);
		memcpy(pl, raw, len);
		free(raw);
	} else {
		len = pk_payload(file, type, ver, strchr(vers, 'w') != NULL, pl);
	}
	bl = seal(kek, ver, type, usage, pl, len, bid, blob);
	if (sqlite3_prepare_v2(db, "UPDATE attributes SET value = ?1 WHERE oid = ?2 AND type = ?3",
	                       -1, &st, NULL) != SQLITE_OK)
		die("update");
	sqlite3_bind_blob(st, 1, blob, (int)bl, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, oid);
	sqlite3_bind_int64(st, 3, BLOB_TYPE);
	if (sqlite3_step(st) != SQLITE_DONE)
		die("update blob");
	sqlite3_finalize(st);
	sqlite3_prepare_v2(db, "DELETE FROM attributes WHERE oid = ?1 AND type = ?2", -1, &st, NULL);
	sqlite3_bind_int64(st, 1, oid);
	sqlite3_bind_int64(st, 2, BLOB_MECHS);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (strchr(vers, 'p') != NULL) {       /* CKA_PRIVATE false */
		sqlite3_prepare_v2(db, "UPDATE attributes SET value = x'00' WHERE oid = ?1 AND type = 2",
		                   -1, &st, NULL);
		sqlite3_bind_int64(st, 1, oid);
		if (sqlite3_step(st) != SQLITE_DONE || sqlite3_changes(db) != 1)
			die("CKA_PRIVATE");
		sqlite3_finalize(st);
		sqlite3_prepare_v2(db, "UPDATE objects SET private = 0 WHERE oid = ?1", -1, &st, NULL);
		sqlite3_bind_int64(st, 1, oid);
		if (sqlite3_step(st) != SQLITE_DONE)
			die("objects.private");
		sqlite3_finalize(st);
	}
	if (mechs != NULL) {                   /* CK_ULONGs in host order */
		CK_ULONG m[64];
		size_t n = 0;
		char *t;
		for (t = strtok(mechs, ","); t != NULL && n < 64; t = strtok(NULL, ","))
			m[n++] = strtoul(t, NULL, 16);
		sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO attributes(oid, type, value)"
		                   " VALUES (?1, 0x40000600, ?2)", -1, &st, NULL);
		sqlite3_bind_int64(st, 1, oid);
		sqlite3_bind_blob(st, 2, m, (int)(n * sizeof m[0]), SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE)
			die("allowed mechanisms");
		sqlite3_finalize(st);
	}
}

static int legacify(int argc, char **argv)
{
	uint8_t kek[32];
	sqlite3 *db;
	int i, no_user = 0, no_login = 0, iter;

	if (argc < 7)
		die("usage: legacify DB MASTER_KEY ITER SO_PIN USER_PIN [--no-user] [--no-login] SPEC...");
	kek_of(argv[3], kek);
	iter = atoi(argv[4]);
	if (sqlite3_open(argv[2], &db) != SQLITE_OK)
		die("open");
	exec_sql(db, "BEGIN IMMEDIATE");
	legacy_pin(db, 0, argv[5], iter);
	for (i = 7; i < argc; i++) {
		if (!strcmp(argv[i], "--no-user"))
			no_user = 1;
		else if (!strcmp(argv[i], "--no-login"))
			no_login = 1;
		else
			legacy_key(db, kek, argv[i]);
	}
	if (no_user)
		exec_sql(db, "DELETE FROM pins WHERE who = 1");
	else
		legacy_pin(db, 1, argv[6], iter);
	exec_sql(db, "DROP TABLE pin_tries; ALTER TABLE pins DROP COLUMN period;"
	         " DELETE FROM pv_meta WHERE key = 'login_record'; PRAGMA user_version = 1");
	if (no_login)
		exec_sql(db, "INSERT INTO pv_meta(key, value) VALUES ('login', 'none')");
	exec_sql(db, "COMMIT");
	sqlite3_close(db);
	return 0;
}

static int hold(int argc, char **argv)
{
	CK_FUNCTION_LIST_PTR f;
	CK_RV (*gfl)(CK_FUNCTION_LIST_PTR_PTR);
	CK_SLOT_ID slots[64];
	CK_ULONG n = 64, i;
	CK_TOKEN_INFO ti;
	void *h;

	if (argc != 4)
		die("usage: hold MODULE SECONDS");
	h = dlopen(argv[2], RTLD_NOW);
	if (h == NULL || (gfl = (CK_RV (*)(CK_FUNCTION_LIST_PTR_PTR))dlsym(h, "C_GetFunctionList")) == NULL ||
	    gfl(&f) != CKR_OK || f->C_Initialize(NULL) != CKR_OK ||
	    f->C_GetSlotList(CK_TRUE, slots, &n) != CKR_OK)
		die("module");
	for (i = 0; i < n; i++)
		(void)f->C_GetTokenInfo(slots[i], &ti);
	printf("ready\n");
	fflush(stdout);
	sleep((unsigned)atoi(argv[3]));
	f->C_Finalize(NULL);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "legacify"))
		return legacify(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "hold"))
		return hold(argc, argv);
	die("usage: pv_mklegacy legacify ... | hold MODULE SECONDS");
	return 2;
}
