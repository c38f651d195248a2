/*
 * gpu_ring.c - round trips through the CUDA vault (gpu/engine's request
 * format and ve_execute in the persistent kernel), each checked against
 * the CPU build of the engine (libpv_engine.a, ve_execute on the host with
 * the same master key): boot and staging wipe, digests, blobs made on one
 * side and used on the other (same KEK), AES modes, HMAC sign/verify,
 * errors (wrong identity, bad spans, small buffers), GPU key generation and
 * random, many threads over a wrapping ring, a sealed (keyless) vault,
 * reopen from a key file, and sealing on a GPU fault.
 *
 * Output: one line per test, then "gpu_ring: N passed, N failed".
 * Without a CUDA device: one line "SKIP: no CUDA device", exit 77.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "gpu/core/pv_err.h"
#include "gpu/engine/ve_engine.h"
#include "gpu/engine/ve_proto.h"
#include "gpu/cuda/pv_cuda.h"

int gpu_fault_prepare(void);
int gpu_fault_launch(void);

static int n_pass, n_fail, t_fail;
#define CHECK(c) do { if (c) { n_pass++; } else { n_fail++; t_fail++; \
	if (t_fail <= 6) printf("  FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)

static uint64_t rs = 0x243f6a8885a308d3ull;
static uint32_t rnd(void)
{
	rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
	return (uint32_t)(rs >> 16);
}
static void rbytes(uint8_t *p, size_t n) { for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd(); }

#define ARENA (64u << 10)

static uint8_t mk[32];
static char mk_path[64];
static pv_cuda *V;
static ve_vault HV;           /* host reference engine, same master key */
static ve_worker HW;

static double t_begin;

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Each check's name, and how long the previous one took (a GPU run that is
 * cut short still shows where the time went). */
static void begin(const char *name)
{
	double now = mono_s();
	if (t_begin != 0.0)
		printf("  (%.1f s)\n", now - t_begin);
	t_begin = now;
	t_fail = 0;
	printf("- %s\n", name);
	fflush(stdout);
}

/* A request: descriptor + arena laid out like gpu/client does. */
typedef struct rq {
	ve_desc d;
	uint32_t pos;
	uint8_t a[ARENA];
} rq;

static void rq_init(rq *q, uint32_t op, uint32_t mech)
{
	memset(&q->d, 0, sizeof q->d);
	q->d.version = VE_DESC_VERSION;
	q->d.op = op;
	q->d.mech = mech;
	q->pos = 0;
}
static ve_span rq_put(rq *q, const void *p, uint32_t n)
{
	ve_span s = { q->pos, n };
	if (n)
		memcpy(q->a + q->pos, p, n);
	q->pos += n;
	return s;
}
static ve_span rq_out(rq *q, uint32_t cap)
{
	ve_span s = { q->pos, cap };
	memset(q->a + q->pos, 0, cap);
	q->pos += cap;
	return s;
}

/* Run on the GPU: result + the arena after completion in out. */
static int gpu_run(pv_cuda *v, const rq *q, ve_result *res, uint8_t *out)
{
	uint32_t t;
	int rc = pv_cuda_submit(v, &q->d, q->a, q->pos, &t);
	if (rc != PV_OK) {
		memset(res, 0, sizeof *res);
		return res->status = rc;
	}
	return pv_cuda_wait(v, t, res, out, q->pos);
}

/* Run on the host reference engine. */
static int host_run(ve_worker *w, const rq *q, ve_result *res, uint8_t *out)
{
	memcpy(out, q->a, q->pos);
	memset(out + q->pos, 0, ARENA - q->pos);
	ve_execute(&HV, w, &q->d, out, ARENA, res);
	return res->status;
}

/* Same request on both sides: same status, lengths and output bytes. */
static int both(const rq *q, int want)
{
	static uint8_t g[ARENA], h[ARENA];
	ve_result rg, rh;
	gpu_run(V, q, &rg, g);
	host_run(&HW, q, &rh, h);
	if (rg.status != want || rh.status != want) {
		printf("  gpu %d, cpu %d, want %d (op %u mech 0x%x)\n", rg.status, rh.status, want, q->d.op, q->d.mech);
		return 0;
	}
	if (rg.out_len != rh.out_len || rg.out2_len != rh.out2_len || rg.state_len != rh.state_len)
		return 0;
	if (want != PV_OK)
		return 1;
	return memcmp(g + q->d.out.off, h + q->d.out.off, rg.out_len) == 0 &&
	       memcmp(g + q->d.state_out.off, h + q->d.state_out.off, rg.state_len) == 0;
}

static uint8_t id1[16] = "pv-gpu-test-id-1", id2[16] = "pv-gpu-test-id-2";

/* Import a plaintext key on the host engine or the GPU: blob into b. */
static int import_key(int on_gpu, uint32_t type, const uint8_t *key, uint32_t len, const uint8_t id[16],
                      uint8_t *b, uint32_t *blen)
{
	static rq q;
	static uint8_t o[ARENA];
	ve_result r;
	rq_init(&q, PV_OP_IMPORT_KEY, 0);
	q.d.new_type = type;
	q.d.new_usage = PV_USE_ALL;
	memcpy(q.d.new_id, id, 16);
	q.d.in = rq_put(&q, key, len);
	q.d.out = rq_out(&q, PV_BLOB_MAX);
	if (on_gpu)
		gpu_run(V, &q, &r, o);
	else
		host_run(&HW, &q, &r, o);
	if (r.status == PV_OK) {
		memcpy(b, o + q.d.out.off, r.out_len);
		*blen = r.out_len;
	}
	return r.status;
}

static void boot_host(void)
{
	uint8_t e[48];
	rbytes(e, sizeof e);
	ve_vault_clear(&HV);
	(void)ve_boot(&HV, mk, 32, e, sizeof e);
	rbytes(e, sizeof e);
	(void)ve_worker_init(&HW, 999999u, e, sizeof e);
}

static void t_open(void)
{
	char why[256];
	pv_cuda_params p;
	pv_cuda_info inf;
	FILE *f;
	int rc;

	begin("boot: key file, geometry, staging wiped");
	rbytes(mk, 32);
	boot_host();
	snprintf(mk_path, sizeof mk_path, "/tmp/pv-gpu-mk-%d", (int)getpid());
	f = fopen(mk_path, "wb");
	CHECK(f != NULL && fwrite(mk, 1, 32, f) == 32);
	if (f)
		fclose(f);
	memset(&p, 0, sizeof p);
	p.nslots = 100;                       /* not a power of 2 */
	CHECK(pv_cuda_open(&p, &V, why, sizeof why) == PV_ERR_ARGS && V == NULL);
	p.nslots = 64;
	p.slot_arena = ARENA;
	p.master_key_path = mk_path;
	rc = pv_cuda_open(&p, &V, why, sizeof why);
	CHECK(rc == PV_OK && V != NULL);
	if (rc != PV_OK) {
		printf("  open: %s\n", why);
		return;
	}
	CHECK(pv_cuda_info_get(V, &inf) == PV_OK);
	printf("  %s: (%d SMs - 1) x %d blocks = grid %u x %u threads; %d regs, %zu B local/thread, "
	       "%zu B smem/block; host native atomics %d\n", inf.device_name, inf.sm_count,
	       inf.blocks_per_sm, inf.grid, inf.block, inf.regs, inf.local_bytes, inf.smem_bytes,
	       inf.host_native_atomics);
	CHECK(inf.sealed == 0 && inf.seal_reason == 0);
	CHECK(inf.grid == (unsigned)((inf.sm_count - 1) * inf.blocks_per_sm));
	{       /* one vault per GPU and process: a second is refused at once */
		pv_cuda *w = NULL;
		double t0 = mono_s();
		CHECK(pv_cuda_open(&p, &w, why, sizeof why) == PV_ERR_BUSY && w == NULL);
		CHECK(mono_s() - t0 < 1.0);
	}
	CHECK(pv_cuda_debug_staging_wiped(V) == PV_OK);
}

static void t_digest(void)
{
	static const uint32_t mechs[] = { PV_MECH_SHA1, PV_MECH_SHA224, PV_MECH_SHA256, PV_MECH_SHA384,
		PV_MECH_SHA512, PV_MECH_SHA3_224, PV_MECH_SHA3_256, PV_MECH_SHA3_384, PV_MECH_SHA3_512, PV_MECH_SM3 };
	static rq q;
	static uint8_t m[20000];
	begin("NOP; DIGEST: 10 mechanisms x 12 lengths, GPU vs CPU engine");
	rq_init(&q, PV_OP_NOP, 0);
	CHECK(both(&q, PV_OK));
	for (unsigned a = 0; a < sizeof mechs / sizeof mechs[0]; a++)
		for (int i = 0; i < 12; i++) {
			uint32_t len = i == 0 ? 0 : rnd() % 20000;
			rbytes(m, len);
			rq_init(&q, PV_OP_DIGEST, mechs[a]);
			q.d.in = rq_put(&q, m, len);
			q.d.out = rq_out(&q, 64);
			CHECK(both(&q, PV_OK));
		}
}

static void t_cipher(void)
{
	static const uint32_t mechs[] = { PV_MECH_AES_GCM, PV_MECH_AES_CBC_PAD, PV_MECH_AES_CTR,
		PV_MECH_AES_ECB, PV_MECH_AES_CBC, PV_MECH_AES_CFB128 };
	static rq q;
	static uint8_t k[32], b[PV_BLOB_MAX], bg[PV_BLOB_MAX], m[8192], iv[16], aad[40];
	static uint8_t g[ARENA];
	uint32_t bl = 0, bgl = 0;
	ve_result r;
	begin("blobs both ways (same KEK); AES modes GPU vs CPU engine; GCM round trip");
	rbytes(k, sizeof k);
	CHECK(import_key(0, PV_KEY_AES, k, 32, id1, b, &bl) == PV_OK);
	CHECK(import_key(1, PV_KEY_AES, k, 32, id1, bg, &bgl) == PV_OK && bgl == bl);
	CHECK(bgl != bl || memcmp(b, bg, bl) != 0);   /* fresh nonce on each side */
	for (unsigned mi = 0; mi < sizeof mechs / sizeof mechs[0]; mi++)
		for (int i = 0; i < 8; i++) {
			uint32_t len = 16 + rnd() % 4000, al = rnd() % 40;
			const uint8_t *blob = (i & 1) ? bg : b;
			if (mechs[mi] == PV_MECH_AES_ECB || mechs[mi] == PV_MECH_AES_CBC)
				len &= ~15u;
			rbytes(m, len);
			rbytes(iv, 16);
			rbytes(aad, al);
			rq_init(&q, PV_OP_ENCRYPT, mechs[mi]);
			memcpy(q.d.key_id, id1, 16);
			q.d.key = rq_put(&q, blob, bl);
			if (mechs[mi] != PV_MECH_AES_ECB)
				q.d.iv = rq_put(&q, iv, mechs[mi] == PV_MECH_AES_GCM ? 12 : 16);
			if (mechs[mi] == PV_MECH_AES_GCM)
				q.d.aad = rq_put(&q, aad, al);
			q.d.in = rq_put(&q, m, len);
			q.d.out = rq_out(&q, len + 32);
			CHECK(both(&q, PV_OK));
			if (mechs[mi] == PV_MECH_AES_GCM) {
				/* decrypt the GPU's ciphertext on the GPU (tampered every 3rd) */
				uint32_t cl;
				static rq q2;
				CHECK(gpu_run(V, &q, &r, g) == PV_OK && r.out_len == len + 16);
				cl = r.out_len;
				if (i % 3 == 2)
					g[q.d.out.off + rnd() % cl] ^= 0x80;
				rq_init(&q2, PV_OP_DECRYPT, PV_MECH_AES_GCM);
				memcpy(q2.d.key_id, id1, 16);
				q2.d.key = rq_put(&q2, blob, bl);
				q2.d.iv = rq_put(&q2, iv, 12);
				q2.d.aad = rq_put(&q2, aad, al);
				q2.d.in = rq_put(&q2, g + q.d.out.off, cl);
				q2.d.out = rq_out(&q2, len);
				if (i % 3 == 2) {
					CHECK(gpu_run(V, &q2, &r, g) == PV_ERR_ENC_INVALID && r.out_len == 0);
				} else {
					CHECK(gpu_run(V, &q2, &r, g) == PV_OK && r.out_len == len &&
					      memcmp(g + q2.d.out.off, m, len) == 0);
				}
			}
		}
}

static void t_mac(void)
{
	static rq q;
	static uint8_t k[64], b[PV_BLOB_MAX], m[3000], g[ARENA];
	uint32_t bl = 0;
	ve_result r;
	begin("HMAC-SHA256/SM3 sign GPU vs CPU engine; verify; tampered MAC rejected");
	rbytes(k, sizeof k);
	CHECK(import_key(0, PV_KEY_GENERIC, k, 64, id2, b, &bl) == PV_OK);
	for (int i = 0; i < 16; i++) {
		uint32_t len = rnd() % 3000, mech = (i & 1) ? PV_MECH_HMAC_SM3 : PV_MECH_HMAC_SHA256;
		rbytes(m, len);
		rq_init(&q, PV_OP_SIGN, mech);
		memcpy(q.d.key_id, id2, 16);
		q.d.key = rq_put(&q, b, bl);
		q.d.in = rq_put(&q, m, len);
		q.d.out = rq_out(&q, 64);
		CHECK(both(&q, PV_OK));
		CHECK(gpu_run(V, &q, &r, g) == PV_OK && r.out_len == 32);
		{
			static rq q2;
			static uint8_t g2[ARENA];
			uint8_t mac[32];
			memcpy(mac, g + q.d.out.off, 32);
			if (i & 2)
				mac[rnd() % 32] ^= 1;
			rq_init(&q2, PV_OP_VERIFY, mech);
			memcpy(q2.d.key_id, id2, 16);
			q2.d.key = rq_put(&q2, b, bl);
			q2.d.in = rq_put(&q2, m, len);
			q2.d.in2 = rq_put(&q2, mac, 32);
			CHECK(gpu_run(V, &q2, &r, g2) == ((i & 2) ? PV_ERR_SIG_INVALID : PV_OK));
		}
	}
}

static void t_errors(void)
{
	static rq q;
	static uint8_t k[16], b[PV_BLOB_MAX], m[100], g[ARENA];
	uint32_t bl = 0;
	ve_result r;
	begin("errors: wrong identity, spans outside the arena, bad version, small output");
	rbytes(k, sizeof k);
	rbytes(m, sizeof m);
	CHECK(import_key(1, PV_KEY_AES, k, 16, id1, b, &bl) == PV_OK);
	rq_init(&q, PV_OP_ENCRYPT, PV_MECH_AES_ECB);
	memcpy(q.d.key_id, id2, 16);                 /* not the blob's identity */
	q.d.key = rq_put(&q, b, bl);
	q.d.in = rq_put(&q, m, 32);
	q.d.out = rq_out(&q, 32);
	CHECK(both(&q, PV_ERR_WRAPPED));
	memcpy(q.d.key_id, id1, 16);
	CHECK(both(&q, PV_OK));
	q.d.in.off = ARENA - 8;                      /* outside the arena */
	CHECK(gpu_run(V, &q, &r, g) == PV_ERR_PROTOCOL && r.out_len == 0);
	q.d.in.off = 0;
	q.d.in.len = 0xffffff00u;                    /* off + len overflows 32 bits */
	CHECK(gpu_run(V, &q, &r, g) == PV_ERR_PROTOCOL);
	q.d.in.len = 32;
	q.d.out.off = q.d.key.off;                   /* output over an input */
	CHECK(gpu_run(V, &q, &r, g) == PV_ERR_PROTOCOL);
	rq_init(&q, PV_OP_DIGEST, PV_MECH_SHA512);
	q.d.version = 7;
	q.d.in = rq_put(&q, m, 10);
	q.d.out = rq_out(&q, 64);
	CHECK(gpu_run(V, &q, &r, g) == PV_ERR_PROTOCOL);
	q.d.version = VE_DESC_VERSION;
	q.d.out.len = 10;
	CHECK(gpu_run(V, &q, &r, g) == PV_ERR_BUF_SMALL && r.out_len == 64);
	CHECK(both(&q, PV_ERR_BUF_SMALL));
}

static void t_keygen(void)
{
	static rq q, q2;
	static uint8_t g[ARENA], b[PV_BLOB_MAX], m[64];
	ve_result r, rh;
	uint32_t bl;
	begin("GENERATE_KEY and RANDOM on the GPU; the CPU engine uses the GPU's blob");
	rq_init(&q, PV_OP_GENERATE_KEY, PV_MECH_AES_KEY_GEN);
	q.d.new_len = 32;
	q.d.new_usage = PV_USE_ALL;
	memcpy(q.d.new_id, id2, 16);
	q.d.out = rq_out(&q, PV_BLOB_MAX);
	CHECK(gpu_run(V, &q, &r, g) == PV_OK && r.out_len == PV_BLOB_OVERHEAD + 32);
	bl = r.out_len;
	memcpy(b, g + q.d.out.off, bl);
	rbytes(m, sizeof m);
	rq_init(&q2, PV_OP_ENCRYPT, PV_MECH_AES_ECB);
	memcpy(q2.d.key_id, id2, 16);
	q2.d.key = rq_put(&q2, b, bl);
	q2.d.in = rq_put(&q2, m, 64);
	q2.d.out = rq_out(&q2, 64);
	CHECK(both(&q2, PV_OK));
	{
		static uint8_t h[ARENA];
		CHECK(host_run(&HW, &q2, &rh, h) == PV_OK && rh.out_len == 64);
	}
	rq_init(&q, PV_OP_RANDOM, PV_MECH_RANDOM);
	q.d.out = rq_out(&q, 64);
	{
		uint8_t a1[64], z[64];
		memset(z, 0, sizeof z);
		CHECK(gpu_run(V, &q, &r, g) == PV_OK && r.out_len == 64);
		memcpy(a1, g + q.d.out.off, 64);
		CHECK(memcmp(a1, z, 64) != 0);
		CHECK(gpu_run(V, &q, &r, g) == PV_OK && memcmp(a1, g + q.d.out.off, 64) != 0);
	}
}

#define NTHR 8
#define PER_THR 1500
#define DEPTH 4
static int thr_bad[NTHR];
static void *thr_main(void *arg)
{
	int id = (int)(intptr_t)arg;
	uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(id + 1);
	ve_worker w;
	uint8_t e[48];
	typedef struct { rq q; uint32_t t; ve_result exp; uint8_t h[1024]; } ent;
	ent *q = (ent *)calloc(DEPTH, sizeof(ent));
	static uint8_t dummy;
	uint8_t *g = (uint8_t *)malloc(ARENA), *h = (uint8_t *)malloc(ARENA);
	int head = 0, n = 0, done = 0;
	(void)dummy;
	for (int i = 0; i < 48; i++)
		e[i] = (uint8_t)(s >> (i % 50));
	ve_worker_init(&w, 1000u + (uint32_t)id, e, sizeof e);
	while (done < PER_THR) {
		while (n < DEPTH && done + n < PER_THR) {
			ent *x = &q[(head + n) % DEPTH];
			int rc;
			uint8_t m[600];
			uint32_t len;
			s ^= s << 13; s ^= s >> 7; s ^= s << 17;
			len = (uint32_t)(s >> 40) % 600;
			for (uint32_t i = 0; i < len; i++)
				m[i] = (uint8_t)(s >> (i % 56));
			rq_init(&x->q, PV_OP_DIGEST, (s & 1) ? PV_MECH_SHA256 : PV_MECH_SHA3_256);
			x->q.d.in = rq_put(&x->q, m, len);
			x->q.d.out = rq_out(&x->q, 32);
			host_run(&w, &x->q, &x->exp, h);
			memcpy(x->h, h + x->q.d.out.off, 32);
			rc = n == 0 ? pv_cuda_submit(V, &x->q.d, x->q.a, x->q.pos, &x->t)
			            : pv_cuda_try_submit(V, &x->q.d, x->q.a, x->q.pos, &x->t);
			if (rc == PV_ERR_BUSY)
				break;          /* wait for one of ours first */
			if (rc != PV_OK) {
				thr_bad[id]++;
				goto out;
			}
			n++;
		}
		{
			ent *x = &q[head];
			ve_result r;
			int rc = pv_cuda_wait(V, x->t, &r, g, x->q.pos);
			if (rc != PV_OK || r.out_len != 32 || memcmp(g + x->q.d.out.off, x->h, 32) != 0)
				thr_bad[id]++;
			head = (head + 1) % DEPTH;
			n--;
			done++;
		}
	}
out:
	ve_worker_clear(&w);
	free(q);
	free(g);
	free(h);
	return NULL;
}

static void t_threads(void)
{
	pthread_t th[NTHR];
	int bad = 0;
	begin("8 threads x 1500 digests, 4 in flight each (ring of 64 wraps ~190 times)");
	for (int i = 0; i < NTHR; i++)
		pthread_create(&th[i], NULL, thr_main, (void *)(intptr_t)i);
	for (int i = 0; i < NTHR; i++) {
		pthread_join(th[i], NULL);
		bad += thr_bad[i];
	}
	CHECK(bad == 0);
	if (bad) {
		pv_cuda_info ci;
		printf("  %d bad\n", bad);
		if (pv_cuda_info_get(V, &ci) == PV_OK)
			printf("  vault: sealed %d, why: %s\n", ci.sealed, ci.why);
	}
}

static void t_sealed_and_reopen(void)
{
	char why[256];
	pv_cuda_params p;
	pv_cuda_info inf;
	static rq q;
	static uint8_t g[ARENA], k[32], b[PV_BLOB_MAX], m[48];
	uint32_t bl;
	ve_result r;
	begin("keyless vault runs sealed; reopen from the key file: CPU blob works on GPU");
	CHECK(pv_cuda_close(V) == PV_OK);
	V = NULL;
	memset(&p, 0, sizeof p);
	p.nslots = 16;
	p.slot_arena = ARENA;
	p.master_key_path = "/nonexistent/pv-master.key";
	CHECK(pv_cuda_open(&p, &V, why, sizeof why) == PV_OK);
	if (V == NULL) {
		printf("  open: %s\n", why);
		return;
	}
	CHECK(pv_cuda_sealed(V) == 1 && pv_cuda_seal_reason(V) == PV_ERR_NOT_FOUND);
	rq_init(&q, PV_OP_NOP, 0);
	CHECK(gpu_run(V, &q, &r, g) == PV_OK);
	rq_init(&q, PV_OP_DIGEST, PV_MECH_SHA256);
	q.d.in = rq_put(&q, m, 10);
	q.d.out = rq_out(&q, 32);
	CHECK(gpu_run(V, &q, &r, g) == PV_ERR_SEALED);
	CHECK(pv_cuda_close(V) == PV_OK);
	V = NULL;
	p.master_key_path = mk_path;
	p.nslots = 32;
	CHECK(pv_cuda_open(&p, &V, why, sizeof why) == PV_OK);
	if (V == NULL)
		return;
	CHECK(pv_cuda_info_get(V, &inf) == PV_OK && inf.sealed == 0);
	rbytes(k, sizeof k);
	rbytes(m, sizeof m);
	CHECK(import_key(0, PV_KEY_AES, k, 32, id1, b, &bl) == PV_OK);
	rq_init(&q, PV_OP_ENCRYPT, PV_MECH_AES_CBC);
	memcpy(q.d.key_id, id1, 16);
	q.d.key = rq_put(&q, b, bl);
	q.d.iv = rq_put(&q, k, 16);
	q.d.in = rq_put(&q, m, 48);
	q.d.out = rq_out(&q, 48);
	CHECK(both(&q, PV_OK));
}

static void t_seal(void)
{
	char why[256];
	pv_cuda_params p;
	pv_cuda_info inf;
	static rq q;
	static uint8_t g[ARENA], m[16];
	ve_result r;
	int rc = PV_OK, i;
	double t0;
	struct timespec ts = { 0, 1000000 };
	begin("GPU fault seals the vault; requests fail cleanly; a reopen in-process works or is refused");
	CHECK(gpu_fault_launch() == 0);
	rq_init(&q, PV_OP_DIGEST, PV_MECH_SHA256);
	q.d.in = rq_put(&q, m, 16);
	q.d.out = rq_out(&q, 32);
	/* the fault kernel runs beside the vault's (one SM is left free);
	 * the watchdog notices the sticky error within a few ms */
	for (i = 0, t0 = mono_s(); mono_s() - t0 < 10.0 && rc == PV_OK; i++) {
		rc = gpu_run(V, &q, &r, g);
		nanosleep(&ts, NULL);
	}
	CHECK(rc == PV_ERR_DEVICE || rc == PV_ERR_SEALED);
	CHECK(pv_cuda_info_get(V, &inf) == PV_OK && inf.sealed == 1 && inf.seal_reason == PV_ERR_DEVICE &&
	      inf.why[0] != 0);
	printf("  sealed after %d requests (rc %d): %s\n", i, rc, inf.why);
	CHECK(gpu_run(V, &q, &r, g) == PV_ERR_SEALED);
	CHECK(pv_cuda_close(V) == PV_ERR_DEVICE);
	V = NULL;
	memset(&p, 0, sizeof p);
	p.master = mk;
	p.master_len = 32;
	p.nslots = 16;
	p.slot_arena = ARENA;
	/* CUDA documents a launch failure as lasting until the process ends
	 * ("the process must be terminated and relaunched"; the H200's
	 * driver refuses the device, run 19): recovery is a restart of the
	 * process (pvaultd's unit restarts it).  In-process, a reopen must
	 * either work or fail at once with a reason - never hang or crash. */
	why[0] = 0;
	rc = pv_cuda_open(&p, &V, why, sizeof why);
	if (rc == PV_OK) {
		CHECK(V != NULL && both(&q, PV_OK));
		CHECK(pv_cuda_close(V) == PV_OK);
		V = NULL;
		printf("  reopen in the same process: works\n");
	} else {
		CHECK(V == NULL && rc == PV_ERR_DEVICE && why[0] != 0);
		printf("  reopen in the same process: refused (%s)\n", why);
	}
}

int main(void)
{
	char why[256];
	setvbuf(stdout, NULL, _IOLBF, 0);   /* a run cut short keeps its lines */
	if (pv_cuda_probe(0, why, sizeof why) != PV_OK) {
		printf("SKIP: no CUDA device\n");
		return 77;
	}
	if (getrandom(&rs, sizeof rs, 0) != sizeof rs || rs == 0)
		rs = 0x243f6a8885a308d3ull;
	printf("gpu_ring: %s, seed 0x%llx\n", why, (unsigned long long)rs);
	/* the fault kernel must be loaded before the vault's kernel runs */
	if (gpu_fault_prepare() != 0)
		printf("gpu_ring: cannot load the fault kernel\n");
	t_open();
	if (V != NULL && getenv("GPU_RING_ONLY") != NULL &&
	    strcmp(getenv("GPU_RING_ONLY"), "threads") == 0) {
		t_threads();          /* the concurrency check alone */
		printf("gpu_ring: %d passed, %d failed\n", n_pass, n_fail);
		return n_fail ? 1 : 0;
	}
	if (V != NULL) {
		t_digest();
		t_cipher();
		t_mac();
		t_errors();
		t_keygen();
		t_threads();
		t_sealed_and_reopen();
	}
	if (V != NULL)
		t_seal();
	unlink(mk_path);
	ve_vault_clear(&HV);
	ve_worker_clear(&HW);
	printf("  (%.1f s)\n", mono_s() - t_begin);
	printf("gpu_ring: %d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
