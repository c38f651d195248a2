/*
 * test_daemon_proto.c - malformed messages over a real socket: truncated,
 * oversized, out-of-range, wrong-direction and replayed messages get an
 * ERROR{PV_ERR_PROTOCOL} answer and a dropped connection; hostile ring
 * contents (out-of-range spans, bad versions, garbage descriptors, a
 * client scribbling over its ring) get error results in their slots.
 * pvaultd never crashes and keeps serving a well-behaved client.
 */
#include "td_common.h"
#include "gpu/client/pv_dclient.h"
#include "gpu/engine/ve_ring.h"
#include "gpu/host/pv_futex.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static td_daemon D;

static int suite_init(void)
{
	return td_setup(&D) != 0 || td_start(&D) != 0;
}

static int suite_clean(void)
{
	td_stop(&D, SIGTERM);
	td_cleanup(&D);
	return 0;
}

static int raw_connect(void)
{
	struct sockaddr_un sa;
	struct timeval tv = { 3, 0 };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, D.sock, strlen(D.sock));
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	return fd;
}

/* Send n bytes; expect ERROR{PV_ERR_PROTOCOL}, then EOF. */
static int expect_drop(const void *m, size_t n)
{
	uint8_t buf[PVP_MSG_MAX];
	pvp_error e;
	uint32_t type;
	ssize_t k;
	int fd = raw_connect(), ok = 0;
	if (fd < 0)
		return 0;
	if (send(fd, m, n, MSG_NOSIGNAL) == (ssize_t)n) {
		k = recv(fd, buf, sizeof buf, 0);
		if (k > 0 && pvp_check(buf, (size_t)k, sizeof buf, &type) == PV_OK && type == PVP_ERROR) {
			memcpy(&e, buf, sizeof e);
			ok = e.code == PV_ERR_PROTOCOL && recv(fd, buf, sizeof buf, 0) == 0;
		}
	}
	close(fd);
	return ok;
}

static void hello(pvp_hello *h, uint32_t ns, uint32_t ar)
{
	memset(h, 0, sizeof *h);
	pvp_hdr_set(&h->h, PVP_HELLO, sizeof *h);
	h->nslots = ns;
	h->slot_arena = ar;
}

static int cases;

static void t_messages(void)
{
	pvp_hello h;
	uint8_t big[5000];
	pvp_hello_ok fake;

	hello(&h, 0, 0);
	CU_ASSERT(expect_drop(&h, 8));                    /* truncated header+ */
	CU_ASSERT(expect_drop(&h, sizeof h - 4));         /* truncated body    */
	memset(big, 0, sizeof big);
	memcpy(big, &h, sizeof h);
	CU_ASSERT(expect_drop(big, sizeof big));          /* oversized         */
	CU_ASSERT(expect_drop(big, sizeof h + 1));        /* one byte long     */
	hello(&h, 0, 0); h.h.magic ^= 1;
	CU_ASSERT(expect_drop(&h, sizeof h));             /* bad magic         */
	hello(&h, 0, 0); h.h.version = 2;
	CU_ASSERT(expect_drop(&h, sizeof h));             /* bad version       */
	hello(&h, 0, 0); h.h.type = 77;
	CU_ASSERT(expect_drop(&h, sizeof h));             /* unknown type      */
	hello(&h, 0, 0); h.h.len = 0xffffffffu;
	CU_ASSERT(expect_drop(&h, sizeof h));             /* len field         */
	hello(&h, 3, 0);
	CU_ASSERT(expect_drop(&h, sizeof h));             /* nslots not 2^k    */
	hello(&h, 1u << 20, 0);
	CU_ASSERT(expect_drop(&h, sizeof h));             /* nslots too large  */
	hello(&h, 0, 1);
	CU_ASSERT(expect_drop(&h, sizeof h));             /* arena too small   */
	hello(&h, 0, 0xfffffff0u);
	CU_ASSERT(expect_drop(&h, sizeof h));             /* arena too large   */
	hello(&h, 0, 0); h.rsv[3] = 1;
	CU_ASSERT(expect_drop(&h, sizeof h));             /* reserved non-zero */
	memset(&fake, 0, sizeof fake);
	pvp_hdr_set(&fake.h, PVP_HELLO_OK, sizeof fake);
	CU_ASSERT(expect_drop(&fake, sizeof fake));       /* wrong direction   */
	cases = 14;
}

static uint32_t clients_now(pv_daemon_status *st)
{
	pv_conf c;
	td_conf(&D, &c);
	if (pv_vault_status(&c, st) != PV_OK)
		return 9999;
	return st->clients;
}

/* The daemon drops a connection's ring in its own time: poll STATUS until
 * it reports want clients (5 s at most); returns the last count seen. */
static uint32_t wait_clients(uint32_t want, pv_daemon_status *st)
{
	uint32_t n = clients_now(st);
	int i;
	for (i = 0; i < 500 && n != want; i++) {
		usleep(10000);
		n = clients_now(st);
	}
	return n;
}

static void t_replay(void)
{
	pvp_hello h;
	pvp_hello_ok ok;
	pv_daemon_status st;
	uint8_t *ring, buf[PVP_MSG_MAX];
	uint32_t type;
	ssize_t k;
	int fd;

	CU_ASSERT_EQUAL_FATAL(pv_dc_connect(D.sock, -1, 4, 8192, &fd, &ring, &ok), PV_OK);
	CU_ASSERT_EQUAL(ok.nslots, 4);
	CU_ASSERT_EQUAL(ok.slot_arena, 8192);
	/* counted before HELLO_OK is sent: no wait needed (nor allowed) here */
	CU_ASSERT_EQUAL(clients_now(&st), 1);
	hello(&h, 4, 8192);
	CU_ASSERT_EQUAL(send(fd, &h, sizeof h, MSG_NOSIGNAL), (ssize_t)sizeof h);   /* replay */
	k = recv(fd, buf, sizeof buf, 0);
	CU_ASSERT(k > 0 && pvp_check(buf, (size_t)k, sizeof buf, &type) == PV_OK && type == PVP_ERROR);
	CU_ASSERT_EQUAL(recv(fd, buf, sizeof buf, 0), 0);
	close(fd);
	munmap(ring, (size_t)ok.ring_bytes);
	CU_ASSERT_EQUAL(wait_clients(0, &st), 0);
	CU_ASSERT(st.proto_errors >= (uint64_t)cases + 1);
	cases++;
}

/* Publish ticket t as naming slot si on a raw ring. */
static void ring_pub(uint8_t *ring, const pvp_hello_ok *ok, uint32_t t, uint32_t si)
{
	ve_tix *e = ve_ring_tix(ring, ok->nslots, t);
	e->slot = si;
	pv_store_rel(&e->ready_seq, t + 1u);
	pv_futex_wake(&e->ready_seq, PV_FUTEX_SHARED);
}

/* Publish desc (and arena bytes) as ticket t in slot t mod nslots on a raw
 * ring; wait result. */
static int ring_req(uint8_t *ring, const pvp_hello_ok *ok, uint32_t t, const ve_desc *d,
                    ve_result *res)
{
	ve_slot *s = ve_ring_slot(ring, ok->nslots, ok->slot_arena, t);
	int i;
	memcpy(&s->desc, d, sizeof *d);
	ring_pub(ring, ok, t, t & (ok->nslots - 1u));
	for (i = 0; i < 500 && pv_load_acq(&s->dev.done_seq) != t + 1u; i++)
		pv_futex_wait_counted(&s->dev.done_seq, pv_load_acq(&s->dev.done_seq), 10, PV_FUTEX_SHARED,
		                      &s->host.sleepers);
	if (pv_load_acq(&s->dev.done_seq) != t + 1u)
		return -1;
	*res = s->dev.res;
	return 0;
}

static void t_ring(void)
{
	pvp_hello_ok ok;
	uint8_t *ring;
	ve_desc d;
	ve_result res;
	uint32_t t = 0;
	int fd, i;

	CU_ASSERT_EQUAL_FATAL(pv_dc_connect(D.sock, -1, 4, 8192, &fd, &ring, &ok), PV_OK);
	/* memfd is sealed: the client cannot shrink it under the daemon */
	/* (checked indirectly: the daemon survives everything below) */

	/* a good digest first */
	memset(&d, 0, sizeof d);
	d.version = VE_DESC_VERSION; d.op = PV_OP_DIGEST; d.mech = PV_MECH_SHA256;
	d.in.off = 0; d.in.len = 3; d.out.off = 64; d.out.len = 32;
	memcpy(ve_slot_arena(ve_ring_slot(ring, ok.nslots, ok.slot_arena, t)), "abc", 3);
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_OK);
	CU_ASSERT_EQUAL(res.out_len, 32);
	/* out of range spans */
	d.in.off = 8192 - 2; d.in.len = 3;
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_ERR_DATA_LEN);
	d.in.off = 0xffffffffu; d.in.len = 0xffffffffu;
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_ERR_DATA_LEN);
	d.in.off = 0; d.in.len = 3; d.out.off = 8190; d.out.len = 32;
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_ERR_DATA_LEN);
	/* bad version, op, phase, reserved words */
	d.out.off = 64;
	d.version = 7;
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_ERR_ARGS);
	d.version = VE_DESC_VERSION; d.op = 200;
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_ERR_ARGS);
	d.op = PV_OP_DIGEST; d.phase = 9;
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_ERR_ARGS);
	d.phase = 0; d.rsv1[5] = 5;
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_ERR_ARGS);
	d.rsv1[5] = 0;
	/* replayed ticket (ready_seq written again for a finished ticket):
	 * ignored; the next ticket is served normally */
	pv_store_rel(&ve_ring_tix(ring, ok.nslots, t - 1)->ready_seq, t);
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_OK);
	/* a ticket naming a slot that does not exist: dropped (the daemon
	 * marks it taken), and the next ticket is served normally */
	ring_pub(ring, &ok, t, ok.nslots + 7u);
	for (i = 0; i < 500 && pv_load_acq(ve_ring_taken(ring, ok.nslots, t)) != t + 1u; i++)
		usleep(1000);
	CU_ASSERT_EQUAL(pv_load_acq(ve_ring_taken(ring, ok.nslots, t)), t + 1u);
	t++;
	CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	CU_ASSERT_EQUAL(res.status, PV_OK);
	/* 400 garbage descriptors over garbage arenas */
	for (i = 0; i < 400; i++) {
		ve_slot *s = ve_ring_slot(ring, ok.nslots, ok.slot_arena, t);
		ts_rand((uint8_t *)&d, sizeof d);
		if (i % 2) { d.version = VE_DESC_VERSION; memset(d.rsv1, 0, sizeof d.rsv1);
		             d.op %= PV_OP_MAX + 1; d.phase %= 4; d.in.off %= 8192; d.in.len %= 8192;
		             d.out.off %= 8192; d.out.len %= 4096; d.key.len %= 600; d.key.off %= 8192; }
		ts_rand(ve_slot_arena(s), 512);
		CU_ASSERT_EQUAL_FATAL(ring_req(ring, &ok, t++, &d, &res), 0);
	}
	/* scribbling over the whole ring (headers included) while requests run */
	ts_rand(ring + VE_RING_HDR, 4 * (VE_SLOT_HDR + 1024));
	usleep(100000);
	close(fd);
	munmap(ring, (size_t)ok.ring_bytes);
	CU_ASSERT(kill(D.pid, 0) == 0);
	/* a well-behaved client still works */
	{
		pv_vault *v;
		uint8_t out[32];
		pv_req r;
		CU_ASSERT_EQUAL_FATAL(td_open(&D, &v), PV_OK);
		pv_req_init(&r, PV_OP_DIGEST, PV_MECH_SHA256);
		r.in = (const uint8_t *)"abc"; r.in_len = 3; r.out = out; r.out_cap = 32;
		CU_ASSERT_EQUAL(pv_vault_call(v, &r), PV_OK);
		CU_ASSERT_EQUAL(out[0], 0xba);        /* SHA-256("abc") = ba7816bf... (FIPS 180-2) */
		CU_ASSERT_EQUAL(out[31], 0xad);
		pv_vault_close(v);
	}
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_proto", suite_init, suite_clean);
	CU_add_test(s, "14 malformed first messages: ERROR + drop", t_messages);
	CU_add_test(s, "replayed HELLO: ERROR + drop, ring freed", t_replay);
	CU_add_test(s, "hostile ring: bad spans/versions, replayed ticket, garbage, scribbling", t_ring);
	return ts_run();
}
