/*
 * test_engine_arena.c - the producer's wipe of a slot's arena after a
 * request (gpu/client/pv_producer.c wipe_arena): a fake worker, run inline
 * by the producer, writes an output, scratch after it and a state; after
 * pvp_wait every byte the request used is zero except a successful
 * encryption's ciphertext (out_len bytes, public, already in the caller's
 * buffer).  A decryption, a failed encryption and an encryption with a
 * state output are checked too.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/client/pv_producer.h"
#include "gpu/engine/ve_ring.h"
#include "tests/unit/support/tsupport.h"

#define NSLOTS 4u
#define ARENA 4096u

static int fake_status;

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

/* One request through a fresh ring; *arena gets a copy of the slot's
 * arena afterwards, *used the bytes the request laid out. */
static void run_one(uint32_t op, int status, size_t state_cap, uint8_t arena[ARENA],
                    uint32_t *used, ve_desc *desc)
{
	uint8_t *ring = calloc(1, (size_t)ve_ring_bytes(NSLOTS, ARENA));
	pv_producer p;
	uint8_t in[100], out[200], st[64];
	pv_req r;
	ve_slot *s;
	uint32_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ring);
	for (i = 0; i < NSLOTS; i++)
		ve_ring_slot(ring, NSLOTS, ARENA, i)->host.free_seq = i;
	memset(&p, 0, sizeof p);
	CU_ASSERT_EQUAL_FATAL(pvp_attach(&p, ring, NSLOTS, ARENA, 0), PV_OK);
	p.exec = fake_exec;
	fake_status = status;

	memset(in, 0x11, sizeof in);
	memset(&r, 0, sizeof r);
	r.op = op;
	r.mech = PV_MECH_AES_GCM;
	r.in = in;
	r.in_len = sizeof in;
	r.out = out;
	r.out_cap = sizeof out;
	r.state_out = st;
	r.state_out_cap = state_cap;
	CU_ASSERT_EQUAL(pvp_submit(&p, &r, 1, NULL, NULL), PV_OK);
	CU_ASSERT_EQUAL(pvp_wait(&p, &r, NULL, NULL), status);
	if (status == PV_OK) {
		CU_ASSERT_EQUAL(r.out_len, sizeof in);
		CU_ASSERT_EQUAL(out[0], 0x11 ^ 0xA5);
	}
	s = ve_ring_slot(ring, NSLOTS, ARENA, 0);
	*used = s->host.rsv[0];
	*desc = s->desc;
	memcpy(arena, ve_slot_arena(s), ARENA);
	pvp_release(&p);
	free(ring);
}

/* 1 if arena[from, to) is all zero */
static int zero(const uint8_t *a, uint32_t from, uint32_t to)
{
	for (; from < to; from++)
		if (a[from] != 0)
			return 0;
	return 1;
}

static void t_encrypt_keeps_only_ciphertext(void)
{
	uint8_t a[ARENA];
	uint32_t used, i;
	ve_desc d;

	run_one(PV_OP_ENCRYPT, PV_OK, 64, a, &used, &d);
	CU_ASSERT(used >= d.state_out.off + d.state_out.len);
	CU_ASSERT(zero(a, 0, d.out.off));                       /* the plaintext */
	for (i = 0; i < 100; i++)
		CU_ASSERT_EQUAL(a[d.out.off + i], 0x11 ^ 0xA5);       /* ciphertext */
	CU_ASSERT(zero(a, d.out.off + 100, used));               /* scratch, state */
}

/* op ending in status: every used byte of the arena is zero */
static void expect_all_wiped(uint32_t op, int status, size_t state_cap)
{
	uint8_t a[ARENA];
	uint32_t used;
	ve_desc d;

	run_one(op, status, state_cap, a, &used, &d);
	CU_ASSERT(used > d.out.off);
	CU_ASSERT(zero(a, 0, used));
}

static void t_decrypt_wipes_all(void)
{
	expect_all_wiped(PV_OP_DECRYPT, PV_OK, 64);
}

static void t_failed_encrypt_wipes_all(void)
{
	expect_all_wiped(PV_OP_ENCRYPT, PV_ERR_DATA_LEN, 0);
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
	return ts_run();
}
