/*
 * test_engine_arena.c - the producer's wipe of a slot's arena after a
 * request (gpu/client/pv_producer.c wipe_arena): a fake worker, run inline
 * by the producer, writes an output, scratch after it and a state; after
 * pvp_wait every byte the request used is zero except a successful
 * encryption's ciphertext (out_len bytes, public, already in the caller's
 * buffer).  A decryption, a failed encryption and an encryption with a
 * state output are checked too, with a 100-byte message and with one past
 * PV_BULK_MIN (the non-temporal copies and wipes of gpu/host/pv_bulk.c,
 * also checked alone at every alignment against memcpy).
 *
 * Staged requests (pv_producer.h stage, ve_ring.h staged_len / out_at):
 * a fake stage hook copies the inputs into a private "device" arena and
 * the fake worker then does what the CUDA kernel does - copies only the
 * inputs past staged_len, works on its own copy, writes the out span's
 * out_len bytes back at out_at.  While the worker runs no input is left in
 * the host arena but an encryption's plaintext (which its ciphertext then
 * overwrites); afterwards the same bytes are zero as unstaged, with the
 * ciphertext at out_at.  A failing hook leaves the request unstaged.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/client/pv_producer.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_bulk.h"
#include "tests/unit/support/tsupport.h"

#define NSLOTS 4u
#define SMALL 100u                        /* a message, in an arena of 4 KiB */
#define LARGE ((uint32_t)PV_BULK_MIN + 4099u)   /* one in an arena of 3 x that */

/* The arena's size for a message of len bytes (ve_ring.h: a multiple of
 * 64, so that every slot stays aligned). */
static uint32_t arena_for(uint32_t len)
{
	return len == SMALL ? 4096u : (3u * LARGE + 63u) & ~63u;
}

static int fake_status;

/* staging: the hook's result, its calls, the worker's private arenas */
static int stage_rc;
static unsigned stage_calls;
static uint32_t stage_bytes;
static uint8_t *dev_arena[NSLOTS];
static uint32_t dev_len;
static unsigned host_inputs_left;    /* input bytes the worker saw in the host arena */

static int fake_stage(void *ctx, uint32_t slot, uint32_t bytes)
{
	ve_slot *s = ve_ring_slot(ctx, NSLOTS, dev_len, slot);

	stage_calls++;
	stage_bytes = bytes;
	if (stage_rc != PV_OK)
		return stage_rc;
	CU_ASSERT_FATAL(slot < NSLOTS && bytes <= dev_len && bytes % 16u == 0);
	memcpy(dev_arena[slot], ve_slot_arena(s), bytes);
	return PV_OK;
}

/* The worker: out = in ^ 0xA5 (in.len bytes), 0xEE over the rest of the
 * out span, 0x77 over state_out; completes ticket t. */
static void fake_exec(void *ctx, void *slot, uint32_t t)
{
	ve_slot *s = (ve_slot *)slot;
	uint8_t *a = ve_slot_arena(s);
	const ve_desc *d = &s->desc;
	uint32_t i;

	(void)ctx;
	for (i = 0; i < d->out.len; i++)
		a[d->out.off + i] = i < d->in.len ? (uint8_t)(a[d->in.off + i] ^ 0xA5u) : 0xEEu;
	memset(a + d->state_out.off, 0x77, d->state_out.len);
	s->dev.res.status = fake_status;
	s->dev.res.out_len = d->in.len;
	s->dev.res.out2_len = 0;
	s->dev.res.state_len = d->state_out.len;
	__atomic_store_n(&s->dev.done_seq, t + 1u, __ATOMIC_RELEASE);
}

/* The CUDA kernel's part for a staged slot (vault_kernel.cu): inputs past
 * staged_len into the private copy, fake_exec there, the outputs' bytes
 * back (the out span's at out_at). */
static void fake_exec_staged(void *ctx, void *slot, uint32_t t)
{
	ve_slot *s = (ve_slot *)slot;
	uint8_t *a = ve_slot_arena(s);
	const ve_desc *d = &s->desc;
	const uint32_t si = (uint32_t)(((uint8_t *)s - (uint8_t *)ctx - ve_ring_slots_off(NSLOTS)) /
	                               (VE_SLOT_HDR + dev_len));
	const uint32_t in_end = d->state.off + d->state.len > d->in.off + d->in.len ?
	                        d->state.off + d->state.len : d->in.off + d->in.len;
	uint8_t *dv = dev_arena[si];
	uint32_t i;

	host_inputs_left = 0;
	for (i = 0; i < in_end; i++)
		if (a[i] != 0 && !(s->host.out_at == d->in.off && i >= d->in.off &&
		                   i < d->in.off + d->in.len))
			host_inputs_left++;
	if (s->host.out_at == d->in.off)
		for (i = 0; i < d->in.len; i++)
			host_inputs_left += a[d->in.off + i] != 0x11;   /* the plaintext is there */
	memcpy(dv + s->host.staged_len, a + s->host.staged_len, dev_len - s->host.staged_len);
	memcpy(&s->desc, d, sizeof *d);
	{
		/* fake_exec on the private copy: a slot header over dv */
		static uint8_t shadow[VE_SLOT_HDR + 2u * (3u * (PV_BULK_MIN + 4099u) + 64u)];
		ve_slot *w = (ve_slot *)shadow;
		CU_ASSERT_FATAL(VE_SLOT_HDR + dev_len <= sizeof shadow);
		memcpy(w, s, VE_SLOT_HDR);
		memcpy(ve_slot_arena(w), dv, dev_len);
		fake_exec(NULL, w, t);   /* completes w, not s */
		memcpy(dv, ve_slot_arena(w), dev_len);
		s->dev.res = w->dev.res;
	}
	if (s->dev.res.status == PV_OK) {
		memcpy(a + s->host.out_at, dv + d->out.off, s->dev.res.out_len);
		memcpy(a + d->state_out.off, dv + d->state_out.off, s->dev.res.state_len);
	}
	memset(dv, 0, dev_len);
	__atomic_store_n(&s->dev.done_seq, t + 1u, __ATOMIC_RELEASE);
}

/* One len-byte request through a fresh ring; returns a copy of the
 * slot's arena afterwards (arena_for(len) bytes, to free), *used the
 * bytes the request laid out.  staged: through fake_stage and
 * fake_exec_staged (stage_rc is the hook's answer). */
static uint8_t *run_one_as(int staged, uint32_t op, int status, size_t state_cap, uint32_t len,
                           uint32_t *used, ve_desc *desc, ve_slot_host *host)
{
	const uint32_t asz = arena_for(len);
	uint8_t *ring = calloc(1, (size_t)ve_ring_bytes(NSLOTS, asz));
	uint8_t *in = malloc(len), *out = malloc((size_t)len + 100u), *copy = malloc(asz);
	pv_producer p;
	uint8_t st[64];
	pv_req r;
	ve_slot *s;

	CU_ASSERT_FATAL(ring != NULL && in != NULL && out != NULL && copy != NULL);
	ve_ring_init(ring, NSLOTS, asz);
	memset(&p, 0, sizeof p);
	CU_ASSERT_EQUAL(pvp_attach(&p, ring, NSLOTS, asz + 4u, 0, PV_FUTEX_PRIVATE), PV_ERR_ARGS);
	CU_ASSERT_EQUAL(pvp_attach(&p, ring, NSLOTS - 1u, asz, 0, PV_FUTEX_PRIVATE), PV_ERR_ARGS);
	CU_ASSERT_EQUAL_FATAL(pvp_attach(&p, ring, NSLOTS, asz, 0, PV_FUTEX_PRIVATE), PV_OK);
	p.exec = staged ? fake_exec_staged : fake_exec;
	p.exec_ctx = ring;
	if (staged) {
		for (unsigned k = 0; k < NSLOTS; k++)
			CU_ASSERT_FATAL((dev_arena[k] = calloc(1, asz)) != NULL);
		dev_len = asz;
		p.stage = fake_stage;
		p.stage_ctx = ring;
		p.stage_min = 1;
		stage_calls = 0;
	}
	fake_status = status;

	memset(in, 0x11, len);
	memset(&r, 0, sizeof r);
	r.op = op;
	r.mech = PV_MECH_AES_GCM;
	r.in = in;
	r.in_len = len;
	r.out = out;
	r.out_cap = (size_t)len + 100u;
	r.state_out = st;
	r.state_out_cap = state_cap;
	CU_ASSERT_EQUAL_FATAL(pvp_submit(&p, &r, 1, NULL, NULL), PV_OK);
	s = (ve_slot *)r.slot_;          /* the thread's slot (pv_slots.h) */
	CU_ASSERT_FATAL(s != NULL);
	CU_ASSERT_EQUAL(pvp_wait(&p, &r, NULL, NULL), status);
	if (status == PV_OK) {
		CU_ASSERT_EQUAL(r.out_len, len);
		CU_ASSERT_EQUAL(out[0], 0x11 ^ 0xA5);
		CU_ASSERT_EQUAL(out[len - 1], 0x11 ^ 0xA5);
	}
	*used = s->host.wipe_len;
	*desc = s->desc;
	if (host != NULL)
		*host = s->host;
	memcpy(copy, ve_slot_arena(s), asz);
	pvp_release(&p);
	if (staged) {
		CU_ASSERT_EQUAL(stage_calls, 1);
		for (unsigned k = 0; k < NSLOTS; k++) {
			free(dev_arena[k]);
			dev_arena[k] = NULL;
		}
	}
	free(ring);
	free(in);
	free(out);
	return copy;
}

static uint8_t *run_one(uint32_t op, int status, size_t state_cap, uint32_t len, uint32_t *used,
                        ve_desc *desc)
{
	return run_one_as(0, op, status, state_cap, len, used, desc, NULL);
}

static void encrypt_keeps_only_ciphertext(uint32_t len)
{
	uint32_t used, i, bad = 0;
	ve_desc d;
	uint8_t *a = run_one(PV_OP_ENCRYPT, PV_OK, 64, len, &used, &d);

	CU_ASSERT_FATAL(used >= d.state_out.off + d.state_out.len);   /* past the ciphertext */
	CU_ASSERT(ts_all_zero(a, d.out.off));                    /* the plaintext */
	for (i = 0; i < len; i++)
		bad |= a[d.out.off + i] ^ (0x11 ^ 0xA5);            /* ciphertext */
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(ts_all_zero(a + d.out.off + len, used - d.out.off - len));   /* scratch, state */
	free(a);
}

/* op ending in status: every used byte of the arena is zero */
static void expect_all_wiped(uint32_t op, int status, size_t state_cap, uint32_t len)
{
	uint32_t used;
	ve_desc d;
	uint8_t *a = run_one(op, status, state_cap, len, &used, &d);

	CU_ASSERT(used > d.out.off);
	CU_ASSERT(ts_all_zero(a, used));
	free(a);
}

static void t_encrypt_keeps_only_ciphertext(void)
{
	encrypt_keeps_only_ciphertext(SMALL);
	encrypt_keeps_only_ciphertext(LARGE);
}

static void t_decrypt_wipes_all(void)
{
	expect_all_wiped(PV_OP_DECRYPT, PV_OK, 64, SMALL);
	expect_all_wiped(PV_OP_DECRYPT, PV_OK, 64, LARGE);
}

static void t_failed_encrypt_wipes_all(void)
{
	expect_all_wiped(PV_OP_ENCRYPT, PV_ERR_DATA_LEN, 0, SMALL);
	expect_all_wiped(PV_OP_ENCRYPT, PV_ERR_DATA_LEN, 0, LARGE);
}

/* pv_bulk_copy and pv_bulk_wipe at sizes around PV_BULK_MIN, at every
 * alignment of the destination mod 16 and three of the source: the copy
 * equals memcpy's, the wipe zeroes exactly its n bytes, and neither
 * touches the 64 guard bytes on either side. */
static void t_bulk_copy_wipe(void)
{
	const size_t sizes[] = { PV_BULK_MIN - 1u, PV_BULK_MIN, PV_BULK_MIN + 1u, PV_BULK_MIN + 63u,
	                         ((size_t)1 << 20) + 17u };
	const size_t big = ((size_t)1 << 20) + 17u + 256u;
	uint8_t *src = malloc(big), *dst = malloc(big);
	size_t si, i;
	unsigned da, sa, fails = 0;

	CU_ASSERT_FATAL(src != NULL && dst != NULL);
	ts_rand(src, big);
	for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
		for (da = 0; da < 16; da++)
			for (sa = 0; sa < 16; sa += 7) {
				const size_t n = sizes[si];
				uint8_t *d = dst + 64 + da;
				memset(dst, 0xC3, big);
				pv_bulk_copy(d, src + 64 + sa, n);
				fails += memcmp(d, src + 64 + sa, n) != 0;
				for (i = 0; i < 64 + da; i++)
					fails += dst[i] != 0xC3;
				for (i = 64 + da + n; i < 128 + da + n; i++)
					fails += dst[i] != 0xC3;
				pv_bulk_wipe(d, n);
				fails += !ts_all_zero(d, n);
				for (i = 0; i < 64 + da; i++)
					fails += dst[i] != 0xC3;
				for (i = 64 + da + n; i < 128 + da + n; i++)
					fails += dst[i] != 0xC3;
			}
	CU_ASSERT_EQUAL(fails, 0);
	free(src);
	free(dst);
}

/* A staged encryption with no other output: the hook copies every input
 * (16-byte rounded), the worker sees only the plaintext left in the host
 * arena, and its ciphertext replaces it there (out_at = in.off); nothing
 * else of the used arena is non-zero.  With a state output the
 * ciphertext goes to its own span and no input is left at all. */
static void t_staged_encrypt(void)
{
	const uint32_t lens[] = { SMALL, LARGE };
	for (unsigned k = 0; k < 2; k++)
		for (size_t state_cap = 0; state_cap <= 64; state_cap += 64) {
			const uint32_t len = lens[k];
			uint32_t used, i, bad = 0, at;
			ve_slot_host h;
			ve_desc d;
			uint8_t *a;

			stage_rc = PV_OK;
			a = run_one_as(1, PV_OP_ENCRYPT, PV_OK, state_cap, len, &used, &d, &h);
			CU_ASSERT_EQUAL(host_inputs_left, 0);
			CU_ASSERT_EQUAL(stage_bytes, (d.in.off + len + 15u) & ~15u);
			CU_ASSERT_EQUAL(h.staged_len, stage_bytes);
			at = state_cap == 0 ? d.in.off : d.out.off;
			CU_ASSERT_EQUAL(h.out_at, at);
			CU_ASSERT(ts_all_zero(a, at));
			for (i = 0; i < len; i++)
				bad |= a[at + i] ^ (0x11 ^ 0xA5);
			CU_ASSERT_EQUAL(bad, 0);
			CU_ASSERT(ts_all_zero(a + at + len, used - at - len));
			free(a);
		}
}

/* Staged decryption, failed encryption (its plaintext then wiped at the
 * end), and a hook that fails (the request goes unstaged): every used
 * byte zero afterwards. */
static void t_staged_wipes_all(void)
{
	const uint32_t lens[] = { SMALL, LARGE };
	for (unsigned k = 0; k < 2; k++) {
		uint32_t used;
		ve_slot_host h;
		ve_desc d;
		uint8_t *a;

		stage_rc = PV_OK;
		a = run_one_as(1, PV_OP_DECRYPT, PV_OK, 64, lens[k], &used, &d, &h);
		CU_ASSERT_EQUAL(host_inputs_left, 0);
		CU_ASSERT(h.staged_len != 0 && h.out_at == d.out.off);
		CU_ASSERT(ts_all_zero(a, used));
		free(a);

		a = run_one_as(1, PV_OP_ENCRYPT, PV_ERR_DATA_LEN, 0, lens[k], &used, &d, &h);
		CU_ASSERT_EQUAL(host_inputs_left, 0);
		CU_ASSERT(h.staged_len != 0 && h.out_at == d.in.off);
		CU_ASSERT(ts_all_zero(a, used));
		free(a);

		stage_rc = PV_ERR_DEVICE;
		a = run_one_as(1, PV_OP_ENCRYPT, PV_OK, 0, lens[k], &used, &d, &h);
		CU_ASSERT(h.staged_len == 0 && h.out_at == d.out.off);
		CU_ASSERT(ts_all_zero(a, d.out.off));               /* unstaged: as fake_exec */
		CU_ASSERT(ts_all_zero(a + d.out.off + lens[k], used - d.out.off - lens[k]));
		free(a);
		stage_rc = PV_OK;
	}
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("arena", NULL, NULL);
	CU_add_test(s, "encryption: only the ciphertext stays", t_encrypt_keeps_only_ciphertext);
	CU_add_test(s, "decryption: everything wiped", t_decrypt_wipes_all);
	CU_add_test(s, "failed encryption: everything wiped", t_failed_encrypt_wipes_all);
	CU_add_test(s, "bulk copy and wipe: exact bytes, every alignment", t_bulk_copy_wipe);
	CU_add_test(s, "staged encryption: ciphertext over the plaintext", t_staged_encrypt);
	CU_add_test(s, "staged decryption, failure, failed stage: everything wiped", t_staged_wipes_all);
	return ts_run();
}
