/*
 * test_engine_ringstat.c - PIXELVAULT_RING_STATS (gpu/client/pv_ringstat.h): off
 * unless set; the stage percentiles from synthetic stamps whose GPU clock
 * runs 5,000 s ahead of the host's (queue measured from the fastest claim,
 * execute on the GPU's clock, notify corrected by the same offset), and
 * requests without GPU stamps (CPU backend) counted in total only.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/client/pv_ringstat.h"
#include "tests/unit/support/tsupport.h"

static void t_off_unless_set(void)
{
	unsetenv("PIXELVAULT_RING_STATS");
	CU_ASSERT_PTR_NULL(pvrs_open());
	setenv("PIXELVAULT_RING_STATS", "0", 1);
	CU_ASSERT_PTR_NULL(pvrs_open());
	setenv("PIXELVAULT_RING_STATS", "", 1);
	CU_ASSERT_PTR_NULL(pvrs_open());
	unsetenv("PIXELVAULT_RING_STATS");
}

/* The p50 of line `what` in the summary text, in us; -1 if absent. */
static double p50_of(const char *text, const char *what)
{
	char key[32];
	const char *l;
	double v;

	snprintf(key, sizeof key, "  %s", what);
	l = strstr(text, key);
	if (l == NULL || sscanf(l + strlen(key), " p50 %lf", &v) != 1)
		return -1.0;
	return v;
}

static void t_stages(void)
{
	const uint64_t off = 5000ull * 1000000000ull;   /* GPU clock - host clock */
	char text[4096], path[] = "/tmp/ringstat.XXXXXX";
	pv_ringstat *s;
	size_t n;
	FILE *f;
	int fd, saved, i;

	setenv("PIXELVAULT_RING_STATS", "1", 1);
	s = pvrs_open();
	unsetenv("PIXELVAULT_RING_STATS");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (i = 0; i < 1000; i++) {
		uint64_t pub = 1000000000ull + (uint64_t)i * 1000000u;
		uint64_t q = 10000u + (uint64_t)(i % 10) * 1000u;      /* 10-19 us */
		uint64_t claim = pub + off + q;
		uint64_t done = claim + 100000u + (uint64_t)i;        /* 100 us + i ns */
		uint64_t take = done - off + 5000u;                   /* 5 us after */
		pvrs_add(s, pub, claim, done, take);
	}
	for (i = 0; i < 10; i++)                                /* CPU backend */
		pvrs_add(s, 1u, 0, 0, 1u + 200000u);

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	CU_ASSERT_FATAL(saved >= 0 && dup2(fd, STDERR_FILENO) >= 0);
	pvrs_close(s, "test");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	f = fdopen(fd, "r");
	CU_ASSERT_FATAL(f != NULL);
	rewind(f);
	n = fread(text, 1, sizeof text - 1, f);
	text[n] = 0;
	fclose(f);
	unlink(path);

	CU_ASSERT_PTR_NOT_NULL(strstr(text, "pixelvault ring stats (test): 1010 requests"));
	/* queue: 0-9 us above the fastest claim, 100 of each: p50 = 5 us */
	CU_ASSERT_DOUBLE_EQUAL(p50_of(text, "queue"), 5.0, 0.05);
	/* execute: 100 us + i ns, p50 = the 506th of 1000 (the 10 CPU ones
	 * are not in it) = 100.5 us */
	CU_ASSERT_DOUBLE_EQUAL(p50_of(text, "execute"), 100.5, 0.05);
	/* notify: 5 us + the fastest claim's 10 us */
	CU_ASSERT_DOUBLE_EQUAL(p50_of(text, "notify"), 15.0, 0.05);
	CU_ASSERT(p50_of(text, "total") > 100.0);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("ringstat", NULL, NULL);
	CU_add_test(s, "off unless PIXELVAULT_RING_STATS is set (not 0)", t_off_unless_set);
	CU_add_test(s, "stage percentiles across the GPU/host clock offset", t_stages);
	return ts_run();
}
