/* tsupport.c - shared helpers for the CUnit suites. */
#include <CUnit/Basic.h>
#include "tsupport.h"

#include <dirent.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PV_VECTORS_DIR
#define PV_VECTORS_DIR "tests/vectors"
#endif

const char *ts_vectors_dir(void)
{
	const char *e = getenv("PV_VECTORS_DIR");
	return e && *e ? e : PV_VECTORS_DIR;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

uint8_t *ts_unhex(const char *hex, size_t *len)
{
	size_t n = strlen(hex), i;
	uint8_t *out;
	if (n % 2)
		return NULL;
	out = malloc(n / 2 + 1);
	if (!out)
		return NULL;
	for (i = 0; i < n / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			free(out);
			return NULL;
		}
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return out;
}

const char *ts_hex(const uint8_t *p, size_t n)
{
	static __thread char buf[2 * 512 + 4];
	size_t i, m = n > 512 ? 512 : n;
	for (i = 0; i < m; i++)
		sprintf(buf + 2 * i, "%02x", p[i]);
	if (m < n)
		strcpy(buf + 2 * m, "...");
	else
		buf[2 * m] = 0;
	return buf;
}

void ts_rand(void *p, size_t n)
{
	if (n && RAND_bytes(p, (int)n) != 1) {
		fprintf(stderr, "RAND_bytes failed\n");
		exit(1);
	}
}

int ts_all_zero(const void *p, size_t n)
{
	const uint8_t *b = (const uint8_t *)p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

uint32_t ts_rand_u32(uint32_t bound)
{
	uint32_t r, lim;
	if (bound == 0)
		return 0;
	lim = UINT32_MAX - UINT32_MAX % bound;
	do
		ts_rand(&r, sizeof r);
	while (r >= lim);
	return r % bound;
}

int ts_wp_run(const char *file, ts_wp_fn fn, void *arg, ts_wp_stats *st)
{
	char path[1024];
	json_object *root, *groups;
	size_t g, t;

	memset(st, 0, sizeof *st);
	snprintf(path, sizeof path, "%s/wycheproof/%s", ts_vectors_dir(), file);
	root = json_object_from_file(path);
	if (!root) {
		fprintf(stderr, "cannot load %s\n", path);
		return -1;
	}
	if (!json_object_object_get_ex(root, "testGroups", &groups)) {
		json_object_put(root);
		return -1;
	}
	for (g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g), *tests;
		if (!json_object_object_get_ex(grp, "tests", &tests))
			continue;
		for (t = 0; t < json_object_array_length(tests); t++) {
			json_object *tj = json_object_array_get_idx(tests, t), *v;
			ts_wp_case tc = { 0 };
			int rc;
			tc.test = tj;
			tc.group = grp;
			if (json_object_object_get_ex(tj, "tcId", &v))
				tc.tc_id = json_object_get_int(v);
			tc.comment = ts_wp_str(&tc, "comment");
			tc.result = ts_wp_str(&tc, "result");
			st->total++;
			if (ts_wp_valid(&tc)) st->valid++;
			else if (ts_wp_invalid(&tc)) st->invalid++;
			else st->acceptable++;
			rc = fn(&tc, arg);
			if (rc == TS_WP_SKIP) {
				st->skipped++;
			} else if (rc != 0) {
				st->failed++;
				fprintf(stderr, "%s: tcId %d (%s, %s) FAILED\n", file,
				        tc.tc_id, tc.result ? tc.result : "?",
				        tc.comment ? tc.comment : "");
			}
		}
	}
	fprintf(stderr, "%s: %d cases (%d valid, %d invalid, %d acceptable), %d failed, %d skipped\n",
	        file, st->total, st->valid, st->invalid, st->acceptable, st->failed, st->skipped);
	json_object_put(root);
	return 0;
}

static json_object *wp_field(const ts_wp_case *tc, const char *field)
{
	json_object *v;
	if (json_object_object_get_ex(tc->test, field, &v))
		return v;
	if (json_object_object_get_ex(tc->group, field, &v))
		return v;
	return NULL;
}

uint8_t *ts_wp_hex(const ts_wp_case *tc, const char *field, size_t *len)
{
	json_object *v = wp_field(tc, field);
	*len = 0;
	if (!v || !json_object_is_type(v, json_type_string))
		return NULL;
	return ts_unhex(json_object_get_string(v), len);
}

const char *ts_wp_str(const ts_wp_case *tc, const char *field)
{
	json_object *v = wp_field(tc, field);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

int ts_wp_int(const ts_wp_case *tc, const char *field)
{
	json_object *v = wp_field(tc, field);
	return v ? json_object_get_int(v) : -1;
}

int ts_wp_valid(const ts_wp_case *tc) { return tc->result && !strcmp(tc->result, "valid"); }
int ts_wp_invalid(const ts_wp_case *tc) { return tc->result && !strcmp(tc->result, "invalid"); }

int ts_wp_has_flag(const ts_wp_case *tc, const char *flag)
{
	json_object *v;
	size_t i;
	if (!json_object_object_get_ex(tc->test, "flags", &v))
		return 0;
	for (i = 0; i < json_object_array_length(v); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(v, i)), flag))
			return 1;
	return 0;
}

int ts_dir_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

int ts_run(void)
{
	unsigned fails;

	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures() + CU_get_number_of_tests_failed() +
	        CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return fails ? 1 : 0;
}
