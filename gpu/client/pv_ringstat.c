/* pv_ringstat.c - request timing by stage (pv_ringstat.h). */
#include "gpu/client/pv_ringstat.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PVRS_MAX (1u << 20)          /* samples kept (32 MiB); later ones dropped */

typedef struct { uint64_t pub, claim, done, take; } pvrs_sample;

struct pv_ringstat {
	_Atomic uint32_t n;
	pvrs_sample *s;
};

pv_ringstat *pvrs_open(void)
{
	const char *e = getenv("PIXELVAULT_RING_STATS");
	pv_ringstat *s;

	if (e == NULL || *e == '\0' || strcmp(e, "0") == 0)
		return NULL;
	s = calloc(1, sizeof *s);
	if (s != NULL && (s->s = calloc(PVRS_MAX, sizeof *s->s)) == NULL) {
		free(s);
		s = NULL;
	}
	return s;
}

uint64_t pvrs_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pvrs_add(pv_ringstat *s, uint64_t pub, uint64_t claim, uint64_t done, uint64_t take)
{
	uint32_t i = atomic_fetch_add_explicit(&s->n, 1u, memory_order_relaxed);

	if (i < PVRS_MAX) {
		pvrs_sample x = { pub, claim, done, take };
		s->s[i] = x;
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void line(const char *what, int64_t *v, uint32_t n)
{
	qsort(v, n, sizeof *v, cmp_i64);
	fprintf(stderr, "  %-8s p50 %9.1f  p90 %9.1f  p99 %9.1f  max %9.1f us\n", what,
	        v[n / 2] / 1e3, v[(uint64_t)n * 9 / 10] / 1e3, v[(uint64_t)n * 99 / 100] / 1e3,
	        v[n - 1] / 1e3);
}

void pvrs_close(pv_ringstat *s, const char *label)
{
	uint32_t n, m = 0, i;
	int64_t off = INT64_MAX, *v;

	if (s == NULL)
		return;
	n = atomic_load(&s->n);
	if (n > PVRS_MAX)
		n = PVRS_MAX;
	v = n ? malloc((size_t)n * sizeof *v) : NULL;
	fprintf(stderr, "pixelvault ring stats (%s): %u requests\n", label, n);
	if (v != NULL) {
		for (i = 0; i < n; i++)
			v[i] = (int64_t)(s->s[i].take - s->s[i].pub);
		line("total", v, n);
		for (i = 0; i < n; i++)
			if (s->s[i].claim != 0 && s->s[i].done >= s->s[i].claim) {
				int64_t d = (int64_t)(s->s[i].claim - s->s[i].pub);
				if (d < off)
					off = d;
				s->s[m++] = s->s[i];
			}
		if (m > 0) {
			for (i = 0; i < m; i++)
				v[i] = (int64_t)(s->s[i].claim - s->s[i].pub) - off;
			line("queue", v, m);
			for (i = 0; i < m; i++)
				v[i] = (int64_t)(s->s[i].done - s->s[i].claim);
			line("execute", v, m);
			for (i = 0; i < m; i++)
				v[i] = (int64_t)(s->s[i].take - s->s[i].done) + off;
			line("notify", v, m);
		}
	}
	free(v);
	free(s->s);
	free(s);
}
