/*
 * test_daemon_login.c - pvaultd keeps the login state (gpu/daemon/
 * pvd_login.h): a client's LOGIN answer is empty, its later requests get
 * the ticket from the daemon, another connection of the same uid without
 * a login cannot use the token's private keys, a ticket from another
 * vault boot opens nothing, and LOGOUT ends it.
 */
#include "td_common.h"

#include <signal.h>
#include <string.h>

static td_daemon D;
static pv_vault *a, *b;         /* two connections of one uid */
static uint8_t tid[PV_OBJ_ID_LEN], so_pk[32], user_pk[32];
static uint8_t so_rec[PV_RECORD_LEN], user_rec[PV_RECORD_LEN];

static int suite_init(void)
{
	if (td_setup(&D) != 0 || td_start(&D) != 0)
		return 1;
	return td_open(&D, &a) != PV_OK || td_open(&D, &b) != PV_OK;
}

static int suite_clean(void)
{
	pv_vault_close(a);
	pv_vault_close(b);
	td_stop(&D, SIGTERM);
	td_cleanup(&D);
	return 0;
}

static int call(pv_vault *v, uint32_t op, const uint8_t *key, size_t klen, const uint8_t *pk,
                uint32_t who, uint8_t *out, size_t cap, size_t *olen)
{
	pv_req r;
	int rc;

	pv_req_init(&r, op, PV_MECH_NONE);
	r.key = key; r.key_len = klen;
	r.in = pk; r.in_len = pk != NULL ? 32 : 0;
	r.who = who;
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	r.out = out; r.out_cap = cap;
	rc = pv_vault_call(v, &r);
	if (olen != NULL)
		*olen = r.out_len;
	return rc;
}

static int gen_bound(pv_vault *v, const uint8_t *tix, te_key *k)
{
	pv_req r;
	int rc;

	memset(k, 0, sizeof *k);
	ts_rand(k->id, sizeof k->id);
	pv_req_init(&r, PV_OP_GENERATE_KEY, PV_MECH_AES_KEY_GEN);
	r.new_len = 32; r.new_usage = PV_USE_ENCRYPT; r.new_policy = PV_POL_TOKEN;
	memcpy(r.new_id, k->id, PV_OBJ_ID_LEN);
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	if (tix != NULL) {
		r.ticket = tix; r.ticket_len = PV_TICKET_LEN;
	}
	r.out = k->blob; r.out_cap = sizeof k->blob;
	rc = pv_vault_call(v, &r);
	k->len = r.out_len;
	return rc;
}

static int enc(pv_vault *v, const te_key *k, const uint8_t *tix)
{
	uint8_t in[16] = { 0 }, out[16];
	pv_req r;

	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_ECB);
	te_use(&r, k);
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	if (tix != NULL) {
		r.ticket = tix; r.ticket_len = PV_TICKET_LEN;
	}
	r.in = in; r.in_len = 16; r.out = out; r.out_cap = 16;
	return pv_vault_call(v, &r);
}

static void t_daemon_login(void)
{
	uint8_t out[PV_TICKET_LEN], bad[32];
	size_t olen = 1;
	te_key k;
	pv_vault *e = NULL;

	ts_rand(tid, sizeof tid);
	ts_rand(so_pk, sizeof so_pk);
	ts_rand(user_pk, sizeof user_pk);
	CU_ASSERT_EQUAL_FATAL(call(a, PV_OP_TOKEN_NEW, NULL, 0, so_pk, PV_WHO_SO, so_rec,
	                           sizeof so_rec, NULL), PV_OK);
	/* the SO logs in on connection a: the ticket stays in pvaultd */
	memset(out, 0, sizeof out);
	CU_ASSERT_EQUAL_FATAL(call(a, PV_OP_LOGIN, so_rec, sizeof so_rec, so_pk, PV_WHO_SO, out,
	                           sizeof out, &olen), PV_OK);
	CU_ASSERT_EQUAL(olen, 0u);
	CU_ASSERT(ts_all_zero(out, sizeof out));
	CU_ASSERT_EQUAL_FATAL(call(a, PV_OP_PIN_RECORD, NULL, 0, user_pk, PV_WHO_USER, user_rec,
	                           sizeof user_rec, NULL), PV_OK);
	/* b has no login: no record for it */
	CU_ASSERT_EQUAL(call(b, PV_OP_PIN_RECORD, NULL, 0, user_pk, PV_WHO_USER, user_rec,
	                     sizeof user_rec, NULL), PV_ERR_NOT_LOGGED_IN);
	/* a wrong PIN is answered as such, and leaves no login behind */
	memcpy(bad, user_pk, 32);
	bad[0] ^= 1;
	CU_ASSERT_EQUAL(call(b, PV_OP_LOGIN, user_rec, sizeof user_rec, bad, PV_WHO_USER, out,
	                     sizeof out, NULL), PV_ERR_PIN_INCORRECT);
	/* a logs in as the user (replacing its SO login) and makes a key */
	CU_ASSERT_EQUAL_FATAL(call(a, PV_OP_LOGIN, user_rec, sizeof user_rec, user_pk, PV_WHO_USER,
	                           out, sizeof out, NULL), PV_OK);
	CU_ASSERT_EQUAL(gen_bound(b, NULL, &k), PV_ERR_NOT_LOGGED_IN);
	CU_ASSERT_EQUAL_FATAL(gen_bound(a, NULL, &k), PV_OK);
	CU_ASSERT_EQUAL(enc(a, &k, NULL), PV_OK);
	CU_ASSERT_EQUAL(enc(b, &k, NULL), PV_ERR_NOT_LOGGED_IN);
	/* a ticket b brings itself (a real one, from an embedded vault of the
	 * same master key: another boot) opens nothing in pvaultd; pvaultd
	 * replaces client tickets by its own in any case */
	CU_ASSERT_EQUAL_FATAL(te_open_other(te_master, 32, 1, 0, 0, &e), PV_OK);
	{
		pv_req r;
		uint8_t tix[PV_TICKET_LEN];
		pv_req_init(&r, PV_OP_LOGIN, PV_MECH_NONE);
		r.key = user_rec; r.key_len = sizeof user_rec;
		r.in = user_pk; r.in_len = 32; r.who = PV_WHO_USER;
		memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
		r.out = tix; r.out_cap = sizeof tix;
		CU_ASSERT_EQUAL_FATAL(pv_vault_call(e, &r), PV_OK);
		CU_ASSERT_EQUAL(enc(e, &k, tix), PV_OK);          /* embedded: the ticket works */
		CU_ASSERT_EQUAL(enc(b, &k, tix), PV_ERR_NOT_LOGGED_IN);
	}
	pv_vault_close(e);
	/* LOGOUT ends a's login */
	CU_ASSERT_EQUAL(call(a, PV_OP_LOGOUT, NULL, 0, NULL, 0, NULL, 0, NULL), PV_OK);
	CU_ASSERT_EQUAL(enc(a, &k, NULL), PV_ERR_NOT_LOGGED_IN);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("daemon_login", suite_init, suite_clean);
	CU_add_test(s, "pvaultd keeps tickets per connection; LOGOUT; client tickets ignored",
	            t_daemon_login);
	return ts_run();
}
