/*
 * test_engine_login.c - the vault's login and key policy through
 * gpu/vault.h (gpu/engine/ve_login.c): PIN records, tickets, token-bound
 * blobs, allowed-mechanism lists, TRUSTED / WRAP_TRUSTED, and master-key
 * rotation of records and bound blobs.  The attacker here holds the
 * vault and every blob, but no PIN.
 */
#include <string.h>

#include "te_common.h"
#include "gpu/client/pv_rewrap.h"

static uint8_t tid[PV_OBJ_ID_LEN], so_pk[32], user_pk[32];
static uint8_t so_rec[PV_RECORD_LEN], user_rec[PV_RECORD_LEN];
static uint8_t so_tix[PV_TICKET_LEN], user_tix[PV_TICKET_LEN];

static int setup(void)
{
	return te_open(2) == PV_OK ? 0 : 1;
}

static int teardown(void)
{
	te_close();
	return 0;
}

/* LOGIN with record rec and PIN key pk as who into tix (NULL: size only). */
static int login(const uint8_t *rec, const uint8_t *pk, uint32_t who, const uint8_t *id,
                 uint8_t *tix)
{
	pv_req r;
	uint8_t t[PV_TICKET_LEN];
	int rc;

	pv_req_init(&r, PV_OP_LOGIN, PV_MECH_NONE);
	r.key = rec; r.key_len = PV_RECORD_LEN;
	r.in = pk; r.in_len = 32;
	r.who = who;
	memcpy(r.token_id, id, PV_OBJ_ID_LEN);
	r.out = t; r.out_cap = sizeof t;
	rc = pv_vault_call(te_v, &r);
	if (rc == PV_OK) {
		CU_ASSERT_EQUAL(r.out_len, PV_TICKET_LEN);
		if (tix != NULL)
			memcpy(tix, t, sizeof t);
	}
	return rc;
}

static int pin_record(const uint8_t *tix, const uint8_t *pk, uint32_t who, uint8_t *rec)
{
	pv_req r;

	pv_req_init(&r, PV_OP_PIN_RECORD, PV_MECH_NONE);
	if (tix != NULL) {
		r.ticket = tix; r.ticket_len = PV_TICKET_LEN;
	}
	r.in = pk; r.in_len = 32;
	r.who = who;
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	r.out = rec; r.out_cap = PV_RECORD_LEN;
	return pv_vault_call(te_v, &r);
}

/* Generate an AES-256 key with policy pol, allowed list m (n entries), as
 * the holder of ticket tix (NULL: none). */
static int gen_aes(const uint8_t *tix, uint32_t pol, uint32_t usage, const uint32_t *m,
                   size_t n, te_key *k)
{
	uint8_t ml[4 * 8];
	pv_req r;
	size_t i;
	int rc;

	memset(k, 0, sizeof *k);
	ts_rand(k->id, sizeof k->id);
	for (i = 0; i < n; i++) {
		ml[4 * i] = (uint8_t)(m[i] >> 24); ml[4 * i + 1] = (uint8_t)(m[i] >> 16);
		ml[4 * i + 2] = (uint8_t)(m[i] >> 8); ml[4 * i + 3] = (uint8_t)m[i];
	}
	pv_req_init(&r, PV_OP_GENERATE_KEY, PV_MECH_AES_KEY_GEN);
	r.new_len = 32; r.new_usage = usage; r.new_policy = pol;
	r.new_mechs = n ? ml : NULL; r.new_mechs_len = 4 * n;
	memcpy(r.new_id, k->id, PV_OBJ_ID_LEN);
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	if (tix != NULL) {
		r.ticket = tix; r.ticket_len = PV_TICKET_LEN;
	}
	r.out = k->blob; r.out_cap = sizeof k->blob;
	rc = pv_vault_call(te_v, &r);
	k->len = r.out_len;
	k->type = PV_KEY_AES;
	return rc;
}

static void be32s(const uint32_t *m, size_t n, uint8_t *o)
{
	size_t i;
	for (i = 0; i < n; i++) {
		o[4 * i] = (uint8_t)(m[i] >> 24); o[4 * i + 1] = (uint8_t)(m[i] >> 16);
		o[4 * i + 2] = (uint8_t)(m[i] >> 8); o[4 * i + 3] = (uint8_t)m[i];
	}
}

/* Encrypt one block with mech under k, ticket tix, allowed list ml. */
static int enc(const te_key *k, uint32_t mech, const uint8_t *tix, const uint8_t *ml, size_t mlen)
{
	uint8_t in[16] = { 1 }, iv[16] = { 2 }, out[64];
	pv_req r;

	pv_req_init(&r, PV_OP_ENCRYPT, mech);
	te_use(&r, k);
	r.iv = iv; r.iv_len = mech == PV_MECH_AES_GCM ? 12 : mech == PV_MECH_AES_ECB ? 0 : 16;
	r.in = in; r.in_len = sizeof in;
	r.out = out; r.out_cap = sizeof out;
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	if (tix != NULL) {
		r.ticket = tix; r.ticket_len = PV_TICKET_LEN;
	}
	r.mechs = ml; r.mechs_len = mlen;
	return pv_vault_call(te_v, &r);
}

static void t_records(void)
{
	uint8_t bad[32], rec2[PV_RECORD_LEN], other[PV_OBJ_ID_LEN];
	pv_req r;

	ts_rand(tid, sizeof tid);
	ts_rand(so_pk, sizeof so_pk);
	ts_rand(user_pk, sizeof user_pk);
	pv_req_init(&r, PV_OP_TOKEN_NEW, PV_MECH_NONE);
	r.in = so_pk; r.in_len = 32; r.who = PV_WHO_SO;
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	r.out = so_rec; r.out_cap = 10;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_BUF_SMALL);
	CU_ASSERT_EQUAL(r.out_len, PV_RECORD_LEN);
	r.out_cap = sizeof so_rec;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(te_v, &r), PV_OK);
	CU_ASSERT_EQUAL(r.out_len, PV_RECORD_LEN);

	/* the SO's PIN opens it, as the SO only; nothing else does */
	CU_ASSERT_EQUAL_FATAL(login(so_rec, so_pk, PV_WHO_SO, tid, so_tix), PV_OK);
	memcpy(bad, so_pk, 32);
	bad[31] ^= 1;
	CU_ASSERT_EQUAL(login(so_rec, bad, PV_WHO_SO, tid, NULL), PV_ERR_PIN_INCORRECT);
	CU_ASSERT_EQUAL(login(so_rec, so_pk, PV_WHO_USER, tid, NULL), PV_ERR_PIN_INCORRECT);
	memcpy(other, tid, sizeof other);
	other[0] ^= 1;
	CU_ASSERT_EQUAL(login(so_rec, so_pk, PV_WHO_SO, other, NULL), PV_ERR_WRAPPED);
	memcpy(rec2, so_rec, sizeof rec2);
	rec2[PV_RECORD_LEN - 20] ^= 4;              /* the outer blob's ciphertext */
	CU_ASSERT_EQUAL(login(rec2, so_pk, PV_WHO_SO, tid, NULL), PV_ERR_WRAPPED);

	/* the SO makes the user's record (C_InitPIN); nobody without a ticket */
	CU_ASSERT_EQUAL(pin_record(NULL, user_pk, PV_WHO_USER, user_rec), PV_ERR_NOT_LOGGED_IN);
	CU_ASSERT_EQUAL(pin_record(so_tix, user_pk, 3, rec2), PV_ERR_PERM);
	CU_ASSERT_EQUAL_FATAL(pin_record(so_tix, user_pk, PV_WHO_USER, user_rec), PV_OK);
	CU_ASSERT_EQUAL_FATAL(login(user_rec, user_pk, PV_WHO_USER, tid, user_tix), PV_OK);
	CU_ASSERT_EQUAL(login(user_rec, so_pk, PV_WHO_USER, tid, NULL), PV_ERR_PIN_INCORRECT);
	/* the user may not make an SO record */
	CU_ASSERT_EQUAL(pin_record(user_tix, user_pk, PV_WHO_SO, rec2), PV_ERR_PERM);
	/* a record is not a key */
	{
		te_key k;
		memset(&k, 0, sizeof k);
		memcpy(k.blob, user_rec, PV_RECORD_LEN);
		k.len = PV_RECORD_LEN;
		memcpy(k.id, tid, PV_OBJ_ID_LEN);
		CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_ECB, user_tix, NULL, 0), PV_ERR_WRAPPED);
	}
}

static void t_bound(void)
{
	uint8_t forged[PV_TICKET_LEN], other_tix[PV_TICKET_LEN], rec[PV_RECORD_LEN];
	uint8_t zero[32];
	te_key k, t;

	/* a private key exists only for the user's ticket */
	CU_ASSERT_EQUAL(gen_aes(NULL, PV_POL_TOKEN, PV_USE_ENCRYPT, NULL, 0, &k),
	                PV_ERR_NOT_LOGGED_IN);
	CU_ASSERT_EQUAL(gen_aes(so_tix, PV_POL_TOKEN, PV_USE_ENCRYPT, NULL, 0, &k),
	                PV_ERR_NOT_LOGGED_IN);
	CU_ASSERT_EQUAL_FATAL(gen_aes(user_tix, PV_POL_TOKEN, PV_USE_ENCRYPT, NULL, 0, &k), PV_OK);
	CU_ASSERT_EQUAL(k.len, PV_BLOB_OVERHEAD + 32);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_CBC, user_tix, NULL, 0), PV_OK);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_CBC, NULL, NULL, 0), PV_ERR_NOT_LOGGED_IN);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_CBC, so_tix, NULL, 0), PV_ERR_NOT_LOGGED_IN);
	memcpy(forged, user_tix, sizeof forged);
	forged[40] ^= 1;
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_CBC, forged, NULL, 0), PV_ERR_NOT_LOGGED_IN);
	/* clearing the token bit in the header: the master KEK does not open it */
	t = k;
	t.blob[19] &= (uint8_t)~PV_POL_TOKEN;
	CU_ASSERT_EQUAL(enc(&t, PV_MECH_AES_CBC, user_tix, NULL, 0), PV_ERR_WRAPPED);
	CU_ASSERT_EQUAL(enc(&t, PV_MECH_AES_CBC, NULL, NULL, 0), PV_ERR_WRAPPED);

	/* another token's user: its own ticket does not open this token's keys */
	{
		uint8_t tid2[PV_OBJ_ID_LEN], so2[PV_RECORD_LEN], u2[PV_RECORD_LEN], t2[PV_TICKET_LEN];
		uint8_t keep[PV_OBJ_ID_LEN];
		pv_req r;
		memcpy(keep, tid, sizeof keep);
		ts_rand(tid2, sizeof tid2);
		memcpy(tid, tid2, sizeof tid);
		pv_req_init(&r, PV_OP_TOKEN_NEW, PV_MECH_NONE);
		r.in = so_pk; r.in_len = 32; r.who = PV_WHO_SO;
		memcpy(r.token_id, tid2, PV_OBJ_ID_LEN);
		r.out = so2; r.out_cap = sizeof so2;
		CU_ASSERT_EQUAL_FATAL(pv_vault_call(te_v, &r), PV_OK);
		CU_ASSERT_EQUAL_FATAL(login(so2, so_pk, PV_WHO_SO, tid2, t2), PV_OK);
		CU_ASSERT_EQUAL_FATAL(pin_record(t2, user_pk, PV_WHO_USER, u2), PV_OK);
		CU_ASSERT_EQUAL_FATAL(login(u2, user_pk, PV_WHO_USER, tid2, other_tix), PV_OK);
		memcpy(tid, keep, sizeof tid);
		/* under this token's id the other ticket does not open; under the
		 * other token's id the key's KEK is the wrong one */
		CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_CBC, other_tix, NULL, 0), PV_ERR_NOT_LOGGED_IN);
		memcpy(tid, tid2, sizeof tid);
		CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_CBC, other_tix, NULL, 0), PV_ERR_WRAPPED);
		memcpy(tid, keep, sizeof tid);
	}

	/* "no login": made with the user's ticket only, then a login with an
	 * all-zero PIN key gives the user's rights */
	memset(zero, 0, sizeof zero);
	CU_ASSERT_EQUAL(pin_record(NULL, zero, PV_WHO_NOLOGIN, rec), PV_ERR_NOT_LOGGED_IN);
	CU_ASSERT_EQUAL_FATAL(pin_record(user_tix, zero, PV_WHO_NOLOGIN, rec), PV_OK);
	CU_ASSERT_EQUAL(login(rec, zero, PV_WHO_USER, tid, NULL), PV_ERR_PIN_INCORRECT);
	CU_ASSERT_EQUAL_FATAL(login(rec, zero, PV_WHO_NOLOGIN, tid, other_tix), PV_OK);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_CBC, other_tix, NULL, 0), PV_OK);
	/* a user record does not pass as the "no login" one */
	CU_ASSERT_EQUAL(login(user_rec, user_pk, PV_WHO_NOLOGIN, tid, NULL), PV_ERR_PIN_INCORRECT);
}

static void t_allowed(void)
{
	const uint32_t gcm = PV_MECH_AES_GCM << 16, cbc = PV_MECH_AES_CBC << 16;
	uint32_t l1[1] = { gcm }, l2[2] = { gcm, cbc };
	uint8_t m1[4], m2[8];
	te_key k;

	be32s(l1, 1, m1);
	be32s(l2, 2, m2);
	CU_ASSERT_EQUAL_FATAL(gen_aes(user_tix, PV_POL_TOKEN, PV_USE_ENCRYPT, l1, 1, &k), PV_OK);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_GCM, user_tix, m1, 4), PV_OK);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_CBC, user_tix, m1, 4), PV_ERR_PERM);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_GCM, user_tix, NULL, 0), PV_ERR_PERM);
	/* a longer list than the one bound into the blob */
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_CBC, user_tix, m2, 8), PV_ERR_PERM);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_GCM, user_tix, m2, 8), PV_ERR_PERM);
	/* not a list */
	CU_ASSERT_EQUAL(gen_aes(user_tix, 0, PV_USE_ENCRYPT, l1, 1, &k), PV_OK);
	{
		pv_req r;
		uint8_t three[3] = { 0 }, out[PV_BLOB_MAX];
		pv_req_init(&r, PV_OP_GENERATE_KEY, PV_MECH_AES_KEY_GEN);
		r.new_len = 32; r.new_usage = PV_USE_ENCRYPT;
		r.new_mechs = three; r.new_mechs_len = 3;
		r.out = out; r.out_cap = sizeof out;
		CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_ARGS);
	}
	/* an unbound key (CKA_PRIVATE false) with a list: no ticket needed */
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_GCM, NULL, m1, 4), PV_OK);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_ECB, NULL, m1, 4), PV_ERR_PERM);
	/* editing the count or the digest: refused before the blob is opened
	 * (no list matches it), and the blob does not open either */
	k.blob[23] ^= 3;
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_GCM, NULL, m2, 8), PV_ERR_PERM);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_GCM, NULL, m1, 4), PV_ERR_PERM);
	k.blob[23] ^= 3;
	k.blob[30] ^= 1;
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_GCM, NULL, m1, 4), PV_ERR_PERM);
}

static void t_trusted(void)
{
	uint8_t out[PV_BLOB_MAX];
	te_key target, plain, trusted;
	pv_req r;

	CU_ASSERT_EQUAL_FATAL(gen_aes(user_tix, PV_POL_TOKEN | PV_POL_WRAP_TRUSTED,
	                              PV_USE_ENCRYPT | PV_USE_EXTRACT, NULL, 0, &target), PV_OK);
	CU_ASSERT_EQUAL_FATAL(gen_aes(user_tix, PV_POL_TOKEN, PV_USE_WRAP, NULL, 0, &plain), PV_OK);
	/* TRUSTED is the SO's to give */
	CU_ASSERT_EQUAL(gen_aes(user_tix, PV_POL_TRUSTED, PV_USE_WRAP, NULL, 0, &trusted),
	                PV_ERR_PERM);
	CU_ASSERT_EQUAL(gen_aes(NULL, PV_POL_TRUSTED, PV_USE_WRAP, NULL, 0, &trusted), PV_ERR_PERM);
	CU_ASSERT_EQUAL_FATAL(gen_aes(so_tix, PV_POL_TRUSTED, PV_USE_WRAP, NULL, 0, &trusted), PV_OK);

	pv_req_init(&r, PV_OP_WRAP_KEY, PV_MECH_AES_KEY_WRAP_KWP);
	te_use(&r, &plain);
	r.key2 = target.blob; r.key2_len = target.len;
	memcpy(r.key2_id, target.id, PV_OBJ_ID_LEN);
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	r.ticket = user_tix; r.ticket_len = PV_TICKET_LEN;
	r.out = out; r.out_cap = sizeof out;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_PERM);
	te_use(&r, &trusted);
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
	CU_ASSERT_EQUAL(r.out_len, 40u);
	/* and without the user's login the bound target does not open */
	r.ticket = NULL; r.ticket_len = 0;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_NOT_LOGGED_IN);
}

/* REPOLICY: C_SetAttributeValue's rules, kept by the vault. */
static int repolicy(const te_key *k, const uint8_t *tix, uint32_t usage, uint32_t pol,
                    te_key *out)
{
	pv_req r;
	int rc;

	*out = *k;
	pv_req_init(&r, PV_OP_REPOLICY, PV_MECH_NONE);
	te_use(&r, k);
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	if (tix != NULL) {
		r.ticket = tix; r.ticket_len = PV_TICKET_LEN;
	}
	r.new_usage = usage;
	r.new_policy = pol;
	r.out = out->blob; r.out_cap = sizeof out->blob;
	rc = pv_vault_call(te_v, &r);
	out->len = r.out_len;
	return rc;
}

static void t_repolicy(void)
{
	const uint32_t tok = PV_POL_TOKEN, ue = PV_USE_ENCRYPT, ux = PV_USE_EXTRACT;
	te_key k, n;

	CU_ASSERT_EQUAL_FATAL(gen_aes(user_tix, tok, PV_USE_DECRYPT | ux, NULL, 0, &k), PV_OK);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_ECB, user_tix, NULL, 0), PV_ERR_PERM);
	/* usage comes and goes, with the user's ticket */
	CU_ASSERT_EQUAL(repolicy(&k, NULL, ue | ux, tok, &n), PV_ERR_NOT_LOGGED_IN);
	CU_ASSERT_EQUAL_FATAL(repolicy(&k, user_tix, ue | ux, tok, &n), PV_OK);
	CU_ASSERT_EQUAL(enc(&n, PV_MECH_AES_ECB, user_tix, NULL, 0), PV_OK);
	/* EXTRACT goes and does not come back; SENSITIVE comes and stays */
	CU_ASSERT_EQUAL_FATAL(repolicy(&n, user_tix, ue, tok | PV_POL_SENSITIVE, &k), PV_OK);
	CU_ASSERT_EQUAL(repolicy(&k, user_tix, ue | ux, tok | PV_POL_SENSITIVE, &n), PV_ERR_PERM);
	CU_ASSERT_EQUAL(repolicy(&k, user_tix, ue, tok, &n), PV_ERR_PERM);
	/* the token bit stays; TRUSTED is the SO's */
	CU_ASSERT_EQUAL(repolicy(&k, user_tix, ue, PV_POL_SENSITIVE, &n), PV_ERR_PERM);
	CU_ASSERT_EQUAL(repolicy(&k, user_tix, ue, tok | PV_POL_SENSITIVE | PV_POL_TRUSTED, &n),
	                PV_ERR_PERM);
	CU_ASSERT_EQUAL(enc(&k, PV_MECH_AES_ECB, user_tix, NULL, 0), PV_OK);
}

/* An EC private key bound to the token: signs with the user's ticket only. */
static void t_bound_pk(void)
{
	uint8_t blob[PV_PKBLOB_MAX], pub[PV_PK_PUB_MAX], id[PV_OBJ_ID_LEN], h[32], sig[128];
	pv_req r;
	size_t blen;

	ts_rand(id, sizeof id);
	pv_req_init(&r, PV_OP_GENERATE_PAIR, PV_MECH_EC_KEY_PAIR_GEN);
	r.new_type = PV_KEY_EC_P256; r.new_usage = PV_USE_SIGN; r.new_policy = PV_POL_TOKEN;
	memcpy(r.new_id, id, PV_OBJ_ID_LEN);
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	r.ticket = user_tix; r.ticket_len = PV_TICKET_LEN;
	r.out = blob; r.out_cap = sizeof blob;
	r.out2 = pub; r.out2_cap = sizeof pub;
	CU_ASSERT_EQUAL_FATAL(pv_vault_call(te_v, &r), PV_OK);
	blen = r.out_len;
	ts_rand(h, sizeof h);
	pv_req_init(&r, PV_OP_SIGN, PV_MECH_ECDSA);
	r.key = blob; r.key_len = blen; memcpy(r.key_id, id, PV_OBJ_ID_LEN);
	r.key_type = PV_KEY_EC_P256;
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	r.in = h; r.in_len = sizeof h;
	r.out = sig; r.out_cap = sizeof sig;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_NOT_LOGGED_IN);
	r.ticket = so_tix; r.ticket_len = PV_TICKET_LEN;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_ERR_NOT_LOGGED_IN);
	r.ticket = user_tix;
	CU_ASSERT_EQUAL(pv_vault_call(te_v, &r), PV_OK);
	CU_ASSERT_EQUAL(r.out_len, 64u);
}

/* A ticket is valid for one vault boot: another vault under the same
 * master key opens the record, not the ticket. */
static void t_other_boot(void)
{
	pv_vault *v2 = NULL;
	uint8_t in[16] = { 0 }, out[16];
	te_key k;
	pv_req r;

	CU_ASSERT_EQUAL_FATAL(gen_aes(user_tix, PV_POL_TOKEN, PV_USE_ENCRYPT, NULL, 0, &k), PV_OK);
	CU_ASSERT_EQUAL_FATAL(te_open_other(te_master, 32, 1, 0, 0, &v2), PV_OK);
	pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_ECB);
	te_use(&r, &k);
	memcpy(r.token_id, tid, PV_OBJ_ID_LEN);
	r.ticket = user_tix; r.ticket_len = PV_TICKET_LEN;
	r.in = in; r.in_len = 16; r.out = out; r.out_cap = 16;
	CU_ASSERT_EQUAL(pv_vault_call(v2, &r), PV_ERR_NOT_LOGGED_IN);
	pv_vault_close(v2);
}

int main(void)
{
	CU_pSuite s;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("engine_login", setup, teardown);
	CU_add_test(s, "PIN records: SO, user, wrong PIN, other token, tampering", t_records);
	CU_add_test(s, "token-bound keys need the user's ticket; \"no login\" record", t_bound);
	CU_add_test(s, "allowed-mechanism lists bound and checked", t_allowed);
	CU_add_test(s, "TRUSTED only from the SO; WRAP_TRUSTED targets", t_trusted);
	CU_add_test(s, "a token-bound EC key signs for the user only", t_bound_pk);
	CU_add_test(s, "REPOLICY: usage changes, EXTRACT/SENSITIVE/TRUSTED rules", t_repolicy);
	CU_add_test(s, "a ticket does not outlive its vault boot", t_other_boot);
	return ts_run();
}
