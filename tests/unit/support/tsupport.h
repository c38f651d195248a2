/*
 * tsupport.h - shared helpers for the CUnit suites: hex, random bytes from
 * OpenSSL, and a Wycheproof JSON walker (json-c).
 */
#ifndef TSUPPORT_H
#define TSUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

/* Directory holding tests/vectors (set by meson as PV_VECTORS_DIR). */
const char *ts_vectors_dir(void);

/* Decode hex into a malloc'd buffer; *len receives the byte count.
 * Returns NULL on bad hex.  An empty string yields a non-NULL 1-byte buffer
 * and *len == 0. */
uint8_t *ts_unhex(const char *hex, size_t *len);
/* Print a buffer as hex into a static buffer (for messages). */
const char *ts_hex(const uint8_t *p, size_t n);

/* Run the registered CUnit suites (verbose), print the summary, clean up;
 * 1 if any assertion, test or suite set-up failed. */
int ts_run(void);

/* Entries of a directory other than "." and "..", -1 if it cannot be read
 * (e.g. /proc/self/task: the process's threads; /proc/PID/fd: its fds). */
int ts_dir_entries(const char *path);

/* Random bytes / integers from OpenSSL's RAND (the oracle's RNG). */
void ts_rand(void *p, size_t n);
uint32_t ts_rand_u32(uint32_t bound);   /* uniform in [0, bound) */

/* 1 if the n bytes at p are all zero (a wiped secret). */
int ts_all_zero(const void *p, size_t n);

/* Wycheproof ------------------------------------------------------------- */
typedef struct ts_wp_case {
	int tc_id;
	const char *comment;
	const char *result;        /* "valid", "invalid", "acceptable" */
	json_object *test;         /* the test object: ts_wp_hex(tc, "key") ... */
	json_object *group;        /* its testGroup */
} ts_wp_case;

/* Called for each case; return 0 if the case behaved as expected, non-zero
 * otherwise (the walker counts failures and prints the tcId). */
typedef int (*ts_wp_fn)(const ts_wp_case *tc, void *arg);

typedef struct ts_wp_stats {
	int total, valid, invalid, acceptable, failed, skipped;
} ts_wp_stats;

/* Load tests/vectors/wycheproof/<file> and run fn over every case.
 * fn may return TS_WP_SKIP for a case it deliberately does not cover
 * (counted in skipped, and printed). Returns 0 if the file loaded. */
#define TS_WP_SKIP 2
int ts_wp_run(const char *file, ts_wp_fn fn, void *arg, ts_wp_stats *st);

/* Field accessors on the test (falls back to the group for keys such as
 * "keySize"). Hex fields are decoded into a malloc'd buffer. */
uint8_t *ts_wp_hex(const ts_wp_case *tc, const char *field, size_t *len);
const char *ts_wp_str(const ts_wp_case *tc, const char *field);
int ts_wp_int(const ts_wp_case *tc, const char *field);
int ts_wp_valid(const ts_wp_case *tc);        /* result == "valid" */
int ts_wp_invalid(const ts_wp_case *tc);      /* result == "invalid" */
int ts_wp_has_flag(const ts_wp_case *tc, const char *flag);

#endif
