/*
 * p11bench.c - the PKCS#11 benchmark: drives pixelvault-pkcs11.so through the
 * PKCS#11 API with N threads (one session each, every operation a full
 * Init + single-part call) and OpenSSL 3 EVP with the same data in the same
 * run; per (implementation, mechanism, threads): ops/s, MB/s and latency
 * p50/p99/p99.9 (each operation timed with clock_gettime into a per-thread
 * array, merged after the run), and the process's CPU time (user + system,
 * the module's own threads included) and context switches per operation
 * (getrusage over the timed run: what each operation costs the host).  Every token (and OpenSSL) output of the
 * last operation of every thread is checked with OpenSSL, and the run fails
 * on a wrong answer.  With --async N each token thread keeps N PKCS#11 3.2
 * async sessions' calls pending instead (rows "async"), every session's
 * last output checked.  `p11bench --help` lists the options.
 */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "provisioning/p11bench/p11bench.h"

#ifndef P11B_MODULE_PATH
#define P11B_MODULE_PATH "pixelvault-pkcs11.so"
#endif
#define MAX_LIST 32
#define MAX_THREADS 4096

typedef struct tlist {
	int n, v[MAX_LIST];
} tlist;

typedef struct opts {
	const char *module, *csv;
	double seconds;
	tlist threads, ossl_threads;
	int ossl_given, mech[16], nmech;
	unsigned gpu_slots;
	unsigned gpu_bps;
	int async;                /* --async N: sessions per token thread */
} opts;

typedef struct worker {
	const p11b_state *st;
	int token, err;
	CK_RV rv;
	CK_SESSION_HANDLE s;
	p11b_out o;
	int nas;                  /* --async: its sessions, each with a call pending */
	CK_SESSION_HANDLE *as;
	p11b_out *ao;
	uint64_t *t_sub;          /* when each session's call started */
	uint8_t *busy, *done_any;
	uint64_t ns_sub, ns_done, ns_poll;   /* --async: time in the calls that */
	uint64_t n_sub, n_poll;              /* submit, complete, answer pending */
	uint32_t *lat;            /* ns per operation, saturating */
	size_t n, cap;
	double secs;
	pthread_t th;
} worker;

typedef struct row {
	long ops;
	double ops_s, mb_s, p50, p99, p999;
	double cpu_us, sys_us, csw;        /* per operation, whole process */
} row;

static volatile sig_atomic_t stop;     /* SIGINT / SIGTERM */
static volatile int halt;              /* a row could not start all threads */
static double run_secs;
static int async_n;                    /* --async */
static pthread_mutex_t go_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cv = PTHREAD_COND_INITIALIZER;
static int go;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int push_lat(worker *w, uint64_t ns)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 4096;
		uint32_t *p = realloc(w->lat, cap * sizeof *p);
		if (p == NULL)
			return -1;
		w->lat = p;
		w->cap = cap;
	}
	w->lat[w->n++] = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
	return 0;
}

/* --async: each of the thread's sessions keeps a call pending; a call's
 * latency runs from its C_Digest / C_Sign / C_Encrypt to the
 * C_AsyncComplete that answers it, and the next call of that session
 * starts at once.  Returns when the time is up and nothing is pending. */
static uint64_t async_loop(worker *w, uint64_t end)
{
	int i, live = 0, more = 1;
	uint64_t t = now_ns(), t0;
	CK_RV rv;

	while (more || live > 0) {
		more = !w->err && !stop && !halt && t < end;
		for (i = 0; i < w->nas; i++) {
			if (w->busy[i]) {
				t0 = now_ns();
				rv = p11b_token_complete(w->as[i], w->st, &w->ao[i]);
				t = now_ns();
				if (rv == CKR_PENDING) {
					w->ns_poll += t - t0;
					w->n_poll++;
					continue;
				}
				w->ns_done += t - t0;
				w->busy[i] = 0;
				live--;
				w->done_any[i] = 1;
				if (rv != CKR_OK || push_lat(w, t - w->t_sub[i]) != 0) {
					w->rv = rv;
					w->err = 1;
				}
			}
			if (!more || w->err)
				continue;
			w->t_sub[i] = t0 = now_ns();
			rv = p11b_token_op(w->as[i], w->st, &w->ao[i]);
			w->ns_sub += now_ns() - t0;
			w->n_sub++;
			if (rv == CKR_PENDING) {
				w->busy[i] = 1;
				live++;
			} else if (rv == CKR_OK) {
				w->done_any[i] = 1;
				if (push_lat(w, now_ns() - w->t_sub[i]) != 0)
					w->err = 1;
			} else {
				w->rv = rv;
				w->err = 1;
			}
		}
		t = now_ns();
	}
	return t;
}

/* --async: where the token threads' time went, per operation (stderr):
 * in the calls that submit, in the C_AsyncComplete calls that answer,
 * and in those that answer CKR_PENDING (how many per operation). */
static void async_split(const worker *w, int nt)
{
	uint64_t sub = 0, done = 0, poll = 0, ns = 0, np = 0;
	int i;

	for (i = 0; i < nt; i++) {
		sub += w[i].ns_sub;
		done += w[i].ns_done;
		poll += w[i].ns_poll;
		ns += w[i].n_sub;
		np += w[i].n_poll;
	}
	if (ns == 0)
		return;
	fprintf(stderr, "  async split: submit %.2f us, complete %.2f us, %.2f pending polls "
	        "per op at %.3f us each\n", sub / 1e3 / ns, done / 1e3 / ns, (double)np / ns,
	        np ? poll / 1e3 / np : 0.0);
}

static void *worker_main(void *arg)
{
	worker *w = arg;
	EVP_MD_CTX *c = w->token ? NULL : EVP_MD_CTX_new();
	EVP_CIPHER_CTX *cx = w->token ? NULL : EVP_CIPHER_CTX_new();
	uint64_t t0, t1, t2, end;

	pthread_mutex_lock(&go_mu);
	while (!go)
		pthread_cond_wait(&go_cv, &go_mu);
	pthread_mutex_unlock(&go_mu);
	t0 = t2 = now_ns();
	end = t0 + (uint64_t)(run_secs * 1e9);
	if (!w->token && (c == NULL || cx == NULL))
		w->err = 1;
	if (w->nas > 0)
		t2 = async_loop(w, end);
	while (w->nas == 0 && !w->err && !stop && !halt && t2 < end) {
		t1 = now_ns();
		if (w->token)
			w->rv = p11b_token_op(w->s, w->st, &w->o);
		else
			w->rv = p11b_ossl_op(c, cx, w->st, &w->o) == 0 ? CKR_OK : CKR_FUNCTION_FAILED;
		t2 = now_ns();
		if (w->rv != CKR_OK || push_lat(w, t2 - t1) != 0)
			w->err = 1;
	}
	w->secs = (double)(t2 - t0) / 1e9;
	EVP_MD_CTX_free(c);
	EVP_CIPHER_CTX_free(cx);
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of n sorted values, in microseconds. */
static double pct(const uint32_t *v, size_t n, double p)
{
	size_t i = (size_t)(p * (double)n + 0.999999);

	return n == 0 ? 0 : v[i == 0 ? 0 : i > n ? n - 1 : i - 1] / 1e3;
}

static double tv_us(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e6 + (double)(b->tv_usec - a->tv_usec);
}

static int summarize(worker *w, int nt, size_t len, const struct rusage *u0,
                     const struct rusage *u1, row *r)
{
	size_t total = 0, k = 0;
	uint32_t *all;
	int i;

	memset(r, 0, sizeof *r);
	for (i = 0; i < nt; i++) {
		total += w[i].n;
		if (w[i].secs > 0)
			r->ops_s += (double)w[i].n / w[i].secs;
	}
	if ((all = malloc((total ? total : 1) * sizeof *all)) == NULL)
		return -1;
	for (i = 0; i < nt; i++) {
		memcpy(all + k, w[i].lat, w[i].n * sizeof *all);
		k += w[i].n;
	}
	qsort(all, total, sizeof *all, cmp_u32);
	r->ops = (long)total;
	r->mb_s = r->ops_s * (double)len / 1e6;
	r->p50 = pct(all, total, 0.50);
	r->p99 = pct(all, total, 0.99);
	r->p999 = pct(all, total, 0.999);
	if (total > 0) {
		r->sys_us = tv_us(&u0->ru_stime, &u1->ru_stime) / (double)total;
		r->cpu_us = tv_us(&u0->ru_utime, &u1->ru_utime) / (double)total + r->sys_us;
		r->csw = (double)(u1->ru_nvcsw - u0->ru_nvcsw + u1->ru_nivcsw - u0->ru_nivcsw) /
		         (double)total;
	}
	free(all);
	return 0;
}

/* --async: n sessions for w, each with its own output buffer and IV. */
static int async_setup(worker *w, int n)
{
	int i;

	w->as = calloc((size_t)n, sizeof *w->as);
	w->ao = calloc((size_t)n, sizeof *w->ao);
	w->t_sub = calloc((size_t)n, sizeof *w->t_sub);
	w->busy = calloc((size_t)n, 1);
	w->done_any = calloc((size_t)n, 1);
	if (w->as == NULL || w->ao == NULL || w->t_sub == NULL || w->busy == NULL ||
	    w->done_any == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		w->ao[i].cap = w->o.cap;
		if ((w->ao[i].buf = malloc(w->ao[i].cap)) == NULL ||
		    RAND_bytes(w->ao[i].iv, sizeof w->ao[i].iv) != 1 ||
		    p11b_token_session(&w->as[i], 1) != 0)
			return -1;
		w->nas++;
	}
	return 0;
}

/* Every session's last output checked with OpenSSL (0: all right). */
static int async_check(const worker *w)
{
	int i;

	for (i = 0; i < w->nas; i++)
		if (w->done_any[i] && p11b_ossl_check(w->st, &w->ao[i], 1) != 0)
			return -1;
	return 0;
}

static void async_free(worker *w)
{
	int i;

	for (i = 0; w->ao != NULL && i < w->nas; i++) {
		p11b_token_end_session(w->as[i]);
		free(w->ao[i].buf);
	}
	free(w->as);
	free(w->ao);
	free(w->t_sub);
	free(w->busy);
	free(w->done_any);
}

/* Runs and checks one (impl, mech, threads) row; 0 or -1 (message printed). */
static int measure(const p11b_state *st, int token, int nt, row *r)
{
	const p11b_mech *m = st->m;
	worker *w = calloc((size_t)nt, sizeof *w);
	struct rusage u0, u1;
	int i, started = 0, rc = -1;

	if (w == NULL)
		return -1;
	go = 0;
	halt = 0;
	for (i = 0; i < nt; i++) {
		w[i].st = st;
		w[i].token = token;
		w[i].o.cap = m->kind == K_GCM ? m->len + 64 : 1024;
		w[i].o.buf = malloc(w[i].o.cap);
		if (w[i].o.buf == NULL || RAND_bytes(w[i].o.iv, sizeof w[i].o.iv) != 1 ||
		    (token && !async_n && p11b_token_session(&w[i].s, 0) != 0) ||
		    (token && async_n && async_setup(&w[i], async_n) != 0)) {
			fprintf(stderr, "p11bench: %s: cannot set up thread %d\n", m->name, i);
			goto out;
		}
	}
	for (started = 0; started < nt; started++)
		if (pthread_create(&w[started].th, NULL, worker_main, &w[started]) != 0) {
			fprintf(stderr, "p11bench: %s: cannot start thread %d\n", m->name, started);
			halt = 1;
			break;
		}
	(void)getrusage(RUSAGE_SELF, &u0);
	pthread_mutex_lock(&go_mu);
	go = 1;
	pthread_cond_broadcast(&go_cv);
	pthread_mutex_unlock(&go_mu);
	for (i = 0; i < started; i++)
		pthread_join(w[i].th, NULL);
	(void)getrusage(RUSAGE_SELF, &u1);
	if (started < nt || stop)
		goto out;
	for (i = 0; i < nt; i++) {
		if (w[i].err) {
			fprintf(stderr, "p11bench: %s %s T=%d: operation failed (CK_RV 0x%lx)\n",
			        token ? "token" : "openssl", m->name, nt, (unsigned long)w[i].rv);
			goto out;
		}
		if ((w[i].nas == 0 && w[i].n > 0 && p11b_ossl_check(st, &w[i].o, token) != 0) ||
		    async_check(&w[i]) != 0) {
			fprintf(stderr, "p11bench: %s %s T=%d: WRONG ANSWER (thread %d's output does "
			        "not verify with OpenSSL)\n", token ? "token" : "openssl", m->name, nt, i);
			goto out;
		}
	}
	rc = summarize(w, nt, m->len, &u0, &u1, r);
	if (token && async_n)
		async_split(w, nt);
out:
	for (i = 0; i < nt; i++) {
		if (token && w[i].s != CK_INVALID_HANDLE)
			p11b_token_end_session(w[i].s);
		async_free(&w[i]);
		free(w[i].o.buf);
		free(w[i].lat);
	}
	free(w);
	return rc;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: p11bench [--module PATH] [--threads LIST] [--openssl-threads LIST|none]\n"
	           "                [--seconds S] [--mech LIST] [--csv FILE] [--quick] [--lone]\n"
	           "                [--gpu-slots N] [--gpu-blocks-per-sm N] [--async N]\n"
	           "  --module PATH    the PKCS#11 module (default %s)\n"
	           "  --threads LIST   token thread counts (default 1,2,4,8,16,32,64)\n"
	           "  --openssl-threads LIST  OpenSSL thread counts (default: --threads\n"
	           "                   capped at the online CPUs); none: no OpenSSL rows\n"
	           "  --seconds S      seconds per row (default 3)\n"
	           "  --quick          threads 1,2 and 0.25 s per row (meson benchmark)\n"
	           "  --lone           threads 1 only: the lone-request latency\n"
	           "  --csv FILE       one row per (impl, mech, threads)\n"
	           "  --gpu-slots N    the token's gpu_slots (GPU requests in flight)\n"
	           "  --gpu-blocks-per-sm N  the token's gpu_blocks_per_sm (1..32)\n"
	           "  --async N        each token thread keeps N PKCS#11 3.2 async sessions'\n"
	           "                   calls pending (C_AsyncComplete; rows \"async\")\n"
	           "  --mech LIST      default all of:", P11B_MODULE_PATH);
	for (i = 0; i < p11b_nmechs; i++)
		fprintf(f, "%s%s", i ? "," : " ", p11b_mechs[i].name);
	fprintf(f, "\n");
}

static int parse_list(const char *s, tlist *l)
{
	char *end;
	long v;

	l->n = 0;
	if (!strcmp(s, "none"))
		return 0;
	for (;;) {
		v = strtol(s, &end, 10);
		if (end == s || v < 1 || v > MAX_THREADS || l->n == MAX_LIST ||
		    (*end != ',' && *end != 0))
			return -1;
		l->v[l->n++] = (int)v;
		if (*end == 0)
			return 0;
		s = end + 1;
	}
}

static int parse_mechs(const char *s, opts *o)
{
	char buf[512], *tok, *save = NULL;
	size_t i;

	snprintf(buf, sizeof buf, "%s", s);
	o->nmech = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < p11b_nmechs && strcmp(tok, p11b_mechs[i].name); i++)
			;
		if (i == p11b_nmechs || o->nmech == 16) {
			fprintf(stderr, "p11bench: unknown mechanism %s\n", tok);
			return -1;
		}
		o->mech[o->nmech++] = (int)i;
	}
	return o->nmech > 0 ? 0 : -1;
}

static int parse_opts(int argc, char **argv, opts *o)
{
	static const struct option lo[] = {
		{ "module", 1, NULL, 'm' }, { "threads", 1, NULL, 't' },
		{ "openssl-threads", 1, NULL, 'o' }, { "seconds", 1, NULL, 's' },
		{ "mech", 1, NULL, 'M' }, { "csv", 1, NULL, 'c' }, { "quick", 0, NULL, 'q' },
		{ "lone", 0, NULL, 'l' }, { "gpu-slots", 1, NULL, 'g' }, { "help", 0, NULL, 'h' },
		{ "gpu-blocks-per-sm", 1, NULL, 'B' }, { "async", 1, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	int c, threads_given = 0, secs_given = 0, quick = 0, lone = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char *end;

	memset(o, 0, sizeof *o);
	o->module = P11B_MODULE_PATH;
	o->seconds = 3;
	parse_list("1,2,4,8,16,32,64", &o->threads);
	for (c = 0; c < (int)p11b_nmechs; c++)
		o->mech[o->nmech++] = c;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'm': o->module = optarg; break;
		case 'c': o->csv = optarg; break;
		case 'q': quick = 1; break;
		case 'l': lone = 1; break;
		case 't':
			threads_given = 1;
			if (parse_list(optarg, &o->threads) || o->threads.n == 0)
				return -1;
			break;
		case 'o':
			o->ossl_given = 1;
			if (parse_list(optarg, &o->ossl_threads))
				return -1;
			break;
		case 's':
			secs_given = 1;
			o->seconds = strtod(optarg, &end);
			if (*end != 0 || !(o->seconds > 0 && o->seconds <= 3600))
				return -1;
			break;
		case 'M':
			if (parse_mechs(optarg, o))
				return -1;
			break;
		case 'g':
			o->gpu_slots = (unsigned)strtoul(optarg, &end, 10);
			if (*end != 0 || o->gpu_slots == 0)
				return -1;
			break;
		case 'B':
			o->gpu_bps = (unsigned)strtoul(optarg, &end, 10);
			if (*end != 0 || o->gpu_bps == 0 || o->gpu_bps > 32)
				return -1;
			break;
		case 'A':
			o->async = (int)strtol(optarg, &end, 10);
			if (*end != 0 || o->async < 1 || o->async > 1024)
				return -1;
			break;
		case 'h': usage(stdout); exit(0);
		default: return -1;
		}
	}
	if (optind != argc)
		return -1;
	if ((quick || lone) && !threads_given)
		parse_list(lone ? "1" : "1,2", &o->threads);
	if (quick && !secs_given)
		o->seconds = 0.25;
	if (!o->ossl_given) {
		for (c = 0; c < o->threads.n; c++)
			if (o->threads.v[c] <= ncpu)
				o->ossl_threads.v[o->ossl_threads.n++] = o->threads.v[c];
		if (o->ossl_threads.n == 0)
			o->ossl_threads.v[o->ossl_threads.n++] = (int)(ncpu > 0 ? ncpu : 1);
	}
	return 0;
}

static void print_list(const char *name, const tlist *l)
{
	int i;

	printf("%s ", name);
	for (i = 0; i < l->n; i++)
		printf("%s%d", i ? "," : "", l->v[i]);
	if (l->n == 0)
		printf("none");
}

static void print_row(FILE *csv, const char *backend, const p11b_mech *m, int token,
                      int nt, const row *r)
{
	char tp[32];

	if (r->mb_s >= 1000)
		snprintf(tp, sizeof tp, "%.2f GB/s", r->mb_s / 1e3);
	else
		snprintf(tp, sizeof tp, "%.1f MB/s", r->mb_s);
	const char *impl = !token ? "openssl" : async_n ? "async" : "token";

	printf("| %-13s | %-7s | %4d | %11.0f | %13s | %9.1f | %9.1f | %9.1f | %9.1f | %9.1f | %6.2f |\n",
	       m->name, impl, nt, r->ops_s, tp, r->p50, r->p99, r->p999,
	       r->cpu_us, r->sys_us, r->csw);
	fflush(stdout);
	if (csv != NULL)
		fprintf(csv, "%s,%s,%s,%d,%ld,%.1f,%.3f,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f\n",
		        impl, token ? backend : "host", m->name, nt, r->ops,
		        r->ops_s, r->mb_s, r->p50, r->p99, r->p999, r->cpu_us, r->sys_us, r->csw);
}

/* Keys, data and a first checked token operation for one mechanism. */
static int prepare(p11b_state *st)
{
	CK_SESSION_HANDLE s;
	p11b_out o = { NULL, 0, 0, { 0 } };
	int rc = -1;

	st->in = malloc(st->m->len);
	o.cap = st->m->len + 1024;
	o.buf = malloc(o.cap);
	if (st->in == NULL || o.buf == NULL || RAND_bytes(st->in, (int)st->m->len) != 1 ||
	    p11b_ossl_keys(st) != 0 || p11b_token_keys(st) != 0) {
		fprintf(stderr, "p11bench: %s: cannot make the keys\n", st->m->name);
	} else if (p11b_token_session(&s, 0) == 0) {
		CK_RV rv = p11b_token_op(s, st, &o);

		rc = rv == CKR_OK && p11b_ossl_check(st, &o, 1) == 0 ? 0 : -1;
		p11b_token_end_session(s);
		if (rv != CKR_OK)
			fprintf(stderr, "p11bench: %s: the token refused (CK_RV 0x%lx)\n",
			        st->m->name, (unsigned long)rv);
		else if (rc != 0)
			fprintf(stderr, "p11bench: %s: WRONG ANSWER (the token's output does not "
			        "verify with OpenSSL)\n", st->m->name);
	}
	free(o.buf);
	return rc;
}

static int bench_mech(const opts *o, const p11b_mech *m, const char *backend, FILE *csv)
{
	p11b_state st;
	row r;
	int i, rc = 0;

	memset(&st, 0, sizeof st);
	st.m = m;
	if (prepare(&st) != 0)
		rc = -1;
	for (i = 0; rc == 0 && i < o->threads.n; i++)
		if ((rc = measure(&st, 1, o->threads.v[i], &r)) == 0)
			print_row(csv, backend, m, 1, o->threads.v[i], &r);
	for (i = 0; rc == 0 && i < o->ossl_threads.n; i++)
		if ((rc = measure(&st, 0, o->ossl_threads.v[i], &r)) == 0)
			print_row(csv, backend, m, 0, o->ossl_threads.v[i], &r);
	p11b_ossl_free(&st);
	return rc;
}

int main(int argc, char **argv)
{
	char model[160];
	const char *backend;
	FILE *csv = NULL;
	opts o;
	int i, rc = 0;

	if (parse_opts(argc, argv, &o) != 0) {
		usage(stderr);
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	run_secs = o.seconds;
	async_n = o.async;
	if (o.csv != NULL && (csv = fopen(o.csv, "w")) == NULL) {
		perror(o.csv);
		return 1;
	}
	if (p11b_token_open(o.module, o.gpu_slots, o.gpu_bps, model, sizeof model) != 0) {
		p11b_token_close();
		return 1;
	}
	backend = strstr(model, "GPU") != NULL ? "gpu" : "cpu";
	printf("p11bench: token %s (backend %s); %s; %ld CPUs online; %.2f s per row; ",
	       model, backend, OpenSSL_version(OPENSSL_VERSION), sysconf(_SC_NPROCESSORS_ONLN),
	       o.seconds);
	print_list("threads", &o.threads);
	if (o.async)
		printf(" x %d async sessions", o.async);
	print_list("; openssl threads", &o.ossl_threads);
	printf("\n\n| %-13s | %-7s | %4s | %11s | %13s | %9s | %9s | %9s | %9s | %9s | %6s |\n",
	       "mechanism", "impl", "T", "ops/s", "throughput", "p50 us", "p99 us", "p99.9 us",
	       "CPU us/op", "sys us/op", "csw/op");
	printf("|---------------|---------|------|-------------|---------------|-----------|"
	       "-----------|-----------|-----------|-----------|--------|\n");
	if (csv != NULL)
		fprintf(csv, "impl,backend,mech,threads,ops,ops_s,mb_s,p50_us,p99_us,p999_us,"
		        "cpu_us_op,sys_us_op,csw_op\n");
	for (i = 0; i < o.nmech && rc == 0 && !stop; i++)
		rc = bench_mech(&o, &p11b_mechs[o.mech[i]], backend, csv);
	if (csv != NULL && fclose(csv) != 0)
		rc = -1;
	p11b_token_close();
	if (stop) {
		fprintf(stderr, "p11bench: interrupted\n");
		return 130;
	}
	return rc == 0 ? 0 : 1;
}
