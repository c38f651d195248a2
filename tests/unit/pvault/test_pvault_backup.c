/* test_pvault_backup.c - the backup file format checks of token/tk_backup.
 *
 * Backups are built here by hand from the documented layout, with
 * OpenSSL's SHA-256 (the independent oracle); tk_backup_check must accept
 * exactly those and refuse every truncation, extension, flipped bit and
 * unknown version.  tk_backup_restore must refuse, before touching the
 * token directory, a backup of another master key and an image that is
 * not a token store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <CUnit/Basic.h>
#include <openssl/sha.h>

#include "tsupport.h"
#include "gpu/core/pv_err.h"
#include "token/tk_backup.h"

static char dir[64];

static int setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/pv-bk.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* header || image || SHA-256; returns the total length */
static size_t build(uint8_t *out, uint32_t version, const char *serial, const char *fpr,
                    const uint8_t *img, size_t ilen)
{
	size_t i;
	memcpy(out, "PVBK", 4);
	out[4] = (uint8_t)(version >> 24); out[5] = (uint8_t)(version >> 16);
	out[6] = (uint8_t)(version >> 8); out[7] = (uint8_t)version;
	memcpy(out + 8, serial, 16);
	memcpy(out + 24, fpr, 16);
	for (i = 0; i < 8; i++)
		out[40 + i] = (uint8_t)(1700000000ull >> (56 - 8 * i));
	for (i = 0; i < 8; i++)
		out[48 + i] = (uint8_t)((uint64_t)ilen >> (56 - 8 * i));
	memcpy(out + 56, img, ilen);
	SHA256(out, 56 + ilen, out + 56 + ilen);
	return 56 + ilen + 32;
}

static void put(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fwrite(b, 1, n, f) == n);
	fclose(f);
}

static int check(const char *path, tk_backup_info *info)
{
	char why[512];
	int rc = tk_backup_check(path, info, NULL, why, sizeof why);
	if (rc != PV_OK)
		CU_ASSERT(why[0] != '\0');      /* a message for every refusal */
	return rc;
}

static void test_format(void)
{
	static uint8_t img[3000], b[3200], c[3200];
	char path[128];
	tk_backup_info info;
	size_t n, cut;
	int i, bad = 0;

	ts_rand(img, sizeof img);
	n = build(b, 1, "0123456789ABCDEF", "00112233aabbccdd", img, sizeof img);
	snprintf(path, sizeof path, "%s/b.pvbk", dir);
	put(path, b, n);
	CU_ASSERT_EQUAL(check(path, &info), PV_OK);
	CU_ASSERT_STRING_EQUAL(info.serial, "0123456789ABCDEF");
	CU_ASSERT_STRING_EQUAL(info.master_fpr, "00112233aabbccdd");
	CU_ASSERT_EQUAL(info.len, sizeof img);
	CU_ASSERT_EQUAL(info.created, 1700000000);
	/* every truncation */
	for (cut = 0; cut < n; cut += (cut < 100 || cut > n - 100) ? 1 : 97) {
		put(path, b, cut);
		if (check(path, &info) != PV_ERR_CORRUPT)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* one byte more */
	memcpy(c, b, n);
	c[n] = 0;
	put(path, c, n + 1);
	CU_ASSERT_EQUAL(check(path, &info), PV_ERR_CORRUPT);
	/* 200 random single-bit flips anywhere */
	for (i = 0, bad = 0; i < 200; i++) {
		size_t pos = ts_rand_u32((uint32_t)n);
		memcpy(c, b, n);
		c[pos] ^= (uint8_t)(1u << ts_rand_u32(8));
		put(path, c, n);
		if (check(path, &info) != PV_ERR_CORRUPT)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* version 2, with a correct hash */
	n = build(c, 2, "0123456789ABCDEF", "00112233aabbccdd", img, sizeof img);
	put(path, c, n);
	CU_ASSERT_EQUAL(check(path, &info), PV_ERR_CORRUPT);
	/* length field larger than the file, with a hash over what is there */
	n = build(c, 1, "0123456789ABCDEF", "00112233aabbccdd", img, sizeof img);
	c[48] = 0x7f;
	put(path, c, n);
	CU_ASSERT_EQUAL(check(path, &info), PV_ERR_CORRUPT);
	CU_ASSERT_EQUAL(tk_backup_check("/nonexistent/x.pvbk", &info, NULL, (char[64]){0}, 64), PV_ERR_IO);
}

/* What a restore left in the token directory: every entry but the
 * directory's lock file (which C_InitToken, delete, restore and migrate
 * all take, and which holds no token). */
static int left_in(const char *tokens)
{
	char lk[160];
	struct stat st;

	snprintf(lk, sizeof lk, "%s/.lock", tokens);
	return ts_dir_entries(tokens) - (stat(lk, &st) == 0 ? 1 : 0);
}

static void test_restore_refusals(void)
{
	static uint8_t img[4096], b[4300];
	char path[128], tokens[128], why[600];
	tk_backup_info info;
	size_t n;
	int replaced = 0;

	snprintf(tokens, sizeof tokens, "%s/tokens", dir);
	mkdir(tokens, 0700);
	snprintf(path, sizeof path, "%s/r.pvbk", dir);
	ts_rand(img, sizeof img);
	n = build(b, 1, "0123456789ABCDEF", "00112233aabbccdd", img, sizeof img);
	put(path, b, n);
	/* another vault's master key */
	CU_ASSERT_EQUAL(tk_backup_restore(path, tokens, "ffffffffffffffff", &info, &replaced,
	                                  why, sizeof why), PV_ERR_WRAPPED);
	CU_ASSERT(strstr(why, "00112233aabbccdd") != NULL);
	CU_ASSERT_EQUAL(left_in(tokens), 0);
	/* the right key, but the image is not a token store */
	CU_ASSERT_EQUAL(tk_backup_restore(path, tokens, "00112233aabbccdd", &info, &replaced,
	                                  why, sizeof why), PV_ERR_CORRUPT);
	CU_ASSERT_EQUAL(left_in(tokens), 0);     /* .new-<serial> removed too */
	CU_ASSERT_EQUAL(replaced, 0);
	/* a serial that could escape the directory */
	n = build(b, 1, "../../../etc/xx", "00112233aabbccdd", img, sizeof img);
	put(path, b, n);
	CU_ASSERT_EQUAL(tk_backup_restore(path, tokens, "00112233aabbccdd", &info, &replaced,
	                                  why, sizeof why), PV_ERR_CORRUPT);
	CU_ASSERT_EQUAL(left_in(tokens), 0);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("pvault_backup", setup, teardown);
	CU_add_test(s, "format: valid accepted; truncations, extension, bit flips, version refused", test_format);
	CU_add_test(s, "restore: another master key, not a store, bad serial: nothing installed", test_restore_refusals);
	return ts_run();
}
