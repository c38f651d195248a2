/*
 * vault.h - the one API the layers above gpu/ use to reach the vault.
 *
 * A vault executes requests {op, mechanism, key blob, params, input,
 * output capacity}.  Keys outside the vault exist only as blobs (AES-256-GCM
 * under a KEK derived from the master key, or for a token's private keys
 * from that token's key, which only a PIN opens: see LOGIN below); the
 * token layer stores blobs and passes them back with each request,
 * together with the 16-byte object identity that was bound into the blob
 * when it was made.
 *
 *   pv_vault *v;
 *   pv_vault_open(&conf, &v);                 // conf: backend, mode
 *   pv_req r;
 *   pv_req_init(&r, PV_OP_ENCRYPT, PV_MECH_AES_GCM);
 *   r.key = blob; r.key_len = blob_len; memcpy(r.key_id, id, 16);
 *   r.iv = iv; r.iv_len = 12; r.aad = aad; r.aad_len = n;
 *   r.in = pt; r.in_len = len;
 *   r.out = ct; r.out_cap = cap;
 *   rc = pv_vault_call(v, &r);                // r.out_len = bytes written
 *
 * Threads: every function may be called from many threads at once on the
 * same pv_vault; no lock is held while a request executes.  A pv_req
 * belongs to one thread between submit and wait.
 *
 * Buffers: the request's pointers are read during pv_vault_submit (inputs
 * are copied into the ring); the outputs and the pv_req result fields are
 * written when the request completes, by pv_vault_wait or by another
 * thread's submit (see below).  Inputs may be freed after submit; the
 * pv_req and its output buffers must stay valid until wait returns.
 *
 * Results: the function result is r->status: PV_OK or a PV_ERR_* code
 * (gpu/core/pv_err.h).  PV_ERR_BUF_SMALL: nothing was written, r->out_len
 * (or r->state_out_len) holds the size needed; passing out == NULL with
 * out_cap == 0 is the way to ask for a size.  A sealed vault (no master key)
 * answers PV_ERR_SEALED to everything except PV_OP_NOP.
 *
 * Per-op fields (all others must stay zero / NULL):
 *
 *  ENCRYPT/DECRYPT  mech ECB/CBC/CBC_PAD/CTR/CFB128/GCM over AES or SM4;
 *                   key (usage ENCRYPT/DECRYPT); iv (16 bytes; CTR: initial
 *                   counter block, ctr_bits = counter width, 0 = 128; GCM:
 *                   1..1024-byte nonce, aad, tag_len 4..16 (0 = 16)); in;
 *                   out.  GCM encrypt writes ct || tag; decrypt takes
 *                   ct || tag and writes plaintext only if the tag verifies.
 *  SIGN/VERIFY      mech HMAC_* (GENERIC key) or AES/SM4_CMAC; tag_len 0 =
 *                   full MAC, else truncated; in = data; SIGN: out = MAC;
 *                   VERIFY: in2 = MAC -> PV_OK / PV_ERR_SIG_INVALID /
 *                   PV_ERR_SIG_LEN.
 *  DIGEST           mech SHA-1, SHA-2, SHA-3 or SM3; in; out.  No key.
 *  GENERATE_KEY     mech AES_KEY_GEN (new_len 16/24/32), SM4_KEY_GEN,
 *                   GENERIC_KEY_GEN (new_len 1..512); new_usage, new_id;
 *                   out = new blob (PV_BLOB_OVERHEAD + new_len bytes).
 *  IMPORT_KEY       in = plaintext key (the one time plaintext crosses the
 *                   host; the client wipes its ring copy), new_type,
 *                   new_usage, new_id; out = blob.
 *  WRAP_KEY         mech AES_KEY_WRAP / _KWP; key = wrapping key (AES,
 *                   usage WRAP); key2 + key2_id = key to wrap (usage
 *                   EXTRACT); out = wrapped bytes.
 *  UNWRAP_KEY       mech AES_KEY_WRAP / _KWP; key (usage UNWRAP); in =
 *                   wrapped bytes; new_type, new_usage, new_id; out = blob.
 *  DERIVE_KEY       mech HKDF, prf = digest mech, key = GENERIC base (usage
 *                   DERIVE), salt, aad = info, new_len; out = blob of
 *                   new_type/new_usage/new_id, or with PV_F_DERIVE_DATA the
 *                   derived bytes themselves (base needs usage EXTRACT).
 *                   PV_F_HKDF_NO_EXTRACT / _NO_EXPAND select one half.
 *  RANDOM           out_cap bytes from the vault DRBG into out.
 *  SEED             in = seed material stirred into the DRBG.
 *  NOP              nothing (health check; works when sealed).
 *  LOGIN            key = PIN record, in = PIN key (PBKDF2 of the PIN,
 *                   PV_PIN_KEY_LEN), who, token_id; out = ticket
 *                   (PV_TICKET_LEN; in daemon mode pvaultd keeps it and
 *                   answers an empty one).  PV_ERR_PIN_INCORRECT.
 *  TOKEN_NEW        in = SO PIN key, who = SO, token_id; out = the SO record
 *                   of a new token key.
 *  PIN_RECORD       ticket, in = new PIN key, who; out = record (SO ticket:
 *                   SO or user; user ticket: user or "no login").
 *  LOGOUT           token_id: pvaultd drops the connection's ticket.
 *  REPOLICY         key = a secret key's blob, new_usage, new_policy; out =
 *                   the blob again with them (C_SetAttributeValue's rules:
 *                   EXTRACT only goes, SENSITIVE / WRAP_TRUSTED only come,
 *                   TRUSTED only from the SO; PV_ERR_PERM).
 *  Every request that uses or makes a token's private key carries its
 *  token_id and ticket; a key with an allowed-mechanism list needs that
 *  list in mechs; a new key's policy is new_policy + new_mechs (see
 *  gpu/engine/ve_login.c).
 *  Public key       RSA / EC / Ed25519 / SM2: GENERATE_PAIR, IMPORT_KEY of
 *                   private keys, SIGN/VERIFY, ENCRYPT/DECRYPT, DERIVE_KEY
 *                   (ECDH) -- conventions in gpu/engine/ve_proto.h after
 *                   PV_MECH_SM2_ENCRYPT and docs/vault-engine.md section 11;
 *                   private-key blobs are up to PV_PKBLOB_MAX bytes.
 *
 * Multi-part (phase INIT / UPDATE / FINAL) for ENCRYPT, DECRYPT, SIGN,
 * VERIFY and DIGEST: INIT takes the key and params and returns a state in
 * state_out; each UPDATE takes that state (state/state_len) plus in, and
 * returns output and the next state; FINAL takes the last state and returns
 * the final output (VERIFY: in2 = MAC).  States of keyed operations are
 * sealed (opaque, valid for this vault boot only, PV_ERR_STATE otherwise);
 * digest states are plain and may be saved/restored (C_GetOperationState).
 * A failed call (e.g. BUF_SMALL) does not consume the state: retry with the
 * same state.  GCM DECRYPT: UPDATE returns no output; the caller buffers the
 * ciphertext and passes all of it (ct || tag) to FINAL, which verifies the
 * tag before releasing plaintext.  Size state_out with PV_STATE_MAX.
 */
#ifndef PV_VAULT_H
#define PV_VAULT_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/core/pv_err.h"
#include "gpu/engine/ve_proto.h"
#include "gpu/host/pv_conf.h"
#include "gpu/client/pv_proto.h"

typedef struct pv_vault pv_vault;

typedef struct pv_vault_info {
	char backend[16];      /* "cpu" or "cuda"                             */
	char device[64];       /* e.g. "host CPU, 8 worker threads"           */
	int sealed;            /* 1: no master key loaded                     */
	int seal_reason;       /* PV_ERR_* why sealed (NOT_FOUND, CORRUPT...) */
	int hw;                /* 1: requests execute on a GPU (CKF_HW)       */
	uint32_t workers;      /* worker threads / GPU workers                */
	uint32_t nslots;       /* ring slots: max requests in flight          */
	uint32_t max_data;     /* max bytes of one request's inputs+outputs   */
	/* fingerprint of the loaded master key (16 hex digits, gpu/host/
	 * pv_master.h), "" when sealed -- and in daemon mode, where pvaultd's
	 * hello answer does not carry it (the token layer then cannot check
	 * a store's recorded master_fpr and skips the check). */
	char master_fpr[17];
} pv_vault_info;

typedef struct pv_req {
	uint32_t op, phase, mech, flags;
	uint32_t prf;              /* HKDF hash (a PV_MECH_SHA* digest mech)   */
	uint32_t tag_len;          /* GCM tag / MAC truncation, 0 = default    */
	uint32_t ctr_bits;         /* CTR counter width, 0 = 128               */
	uint32_t key_type;         /* expected type of key, 0 = any            */
	/* inputs (copied at submit) */
	const uint8_t *key;  size_t key_len;  uint8_t key_id[PV_OBJ_ID_LEN];
	const uint8_t *key2; size_t key2_len; uint8_t key2_id[PV_OBJ_ID_LEN];
	const uint8_t *iv;   size_t iv_len;
	const uint8_t *aad;  size_t aad_len;
	const uint8_t *salt; size_t salt_len;
	const uint8_t *in;   size_t in_len;
	const uint8_t *in2;  size_t in2_len;
	const uint8_t *state; size_t state_len;
	uint32_t new_type, new_usage, new_len;
	uint8_t new_id[PV_OBJ_ID_LEN];
	/* login and key policy (docs/token-store.md "Token key and PINs") */
	uint8_t token_id[PV_OBJ_ID_LEN];      /* the token the request acts for */
	const uint8_t *ticket; size_t ticket_len;  /* LOGIN's answer            */
	const uint8_t *mechs; size_t mechs_len;    /* allowed list of `key`     */
	const uint8_t *new_mechs; size_t new_mechs_len;
	uint32_t new_policy, who;
	/* outputs (written at wait) */
	uint8_t *out;       size_t out_cap;       size_t out_len;
	uint8_t *out2;      size_t out2_cap;      size_t out2_len;
	uint8_t *state_out; size_t state_out_cap; size_t state_out_len;
	int status;
	/* private to the client */
	uint32_t ticket_, inflight_;
	void *slot_;
	uint64_t t_pub_;             /* pv_ringstat.h, when it is on */
} pv_req;

/* Open the vault described by conf.  Mode "embedded" (or ""): the vault
 * runs in this process on backend "cuda" (the persistent kernel on GPU
 * conf->gpu_device), "cpu" (host threads), or "auto" (CUDA when a GPU
 * vault boots here, else the CPU: one GPU holds one process's vault);
 * "cuda" without a usable GPU is PV_ERR_DEVICE.  Mode "daemon": a thin
 * client of pvaultd at conf->socket, whose backend serves it (see
 * docs/daemon.md); PV_ERR_REMOVED if no daemon answers, PV_ERR_PERM if its
 * policy refuses this uid or if the socket's listener is neither root nor
 * conf->daemon_uid (default: our own uid), PV_ERR_BUSY if its limits
 * refuse one more connection; after the daemon goes away calls answer
 * PV_ERR_REMOVED and a later call with nothing in flight reconnects).
 * A missing or invalid master key still opens: sealed.  PV_ERR_CONFIG for
 * an unknown backend or mode, and for "cuda" when conf->no_threads (the
 * CUDA backend needs a thread of its own). */
int pv_vault_open(const pv_conf *conf, pv_vault **out);
/* For a person: why the vault conf describes cannot serve keys, and what
 * to do next, one sentence in buf (cap bytes; 512 is enough).  open_rc is
 * pv_vault_open's answer; info the open vault's (NULL if it did not
 * open).  "" when the vault serves keys.  Returns buf. */
const char *pv_vault_explain(const pv_conf *conf, int open_rc, const pv_vault_info *info,
                             char *buf, size_t cap);
/* Test/tool variant: explicit master key (NULL: sealed), workers (0 =
 * cores), ring slots and per-slot data size (0 = defaults). */
int pv_vault_open_key(const uint8_t *master, size_t master_len, uint32_t workers,
                      uint32_t nslots, uint32_t max_data, pv_vault **out);
/* Requests must all have been waited for. */
void pv_vault_close(pv_vault *v);
int pv_vault_get_info(pv_vault *v, pv_vault_info *info);
/* info.max_data without a lock, for every request's sizing: the current
 * ring's (pvaultd's may change at a reconnect). */
uint32_t pv_vault_max_data(pv_vault *v);

/* pvaultd's status (for `pvault status`): backend, sealed, clients, queue
 * depth, completed/failed requests per (op, mech), errors.  Opens its own
 * short connection to conf->socket (no pv_vault needed).  PV_ERR_REMOVED if
 * no daemon answers, PV_ERR_PERM if refused or not served by root or
 * conf->daemon_uid.  Fields: gpu/client/pv_proto.h
 * (pvp_status_ok). */
typedef pvp_status_ok pv_daemon_status;
int pv_vault_status(const pv_conf *conf, pv_daemon_status *st);

/* Zero r and set op / mech. */
void pv_req_init(pv_req *r, uint32_t op, uint32_t mech);

/* Queue r; blocks while the ring is full.  A submitter that finds the
 * slot it needs held by a finished request completes that request on its
 * owner's behalf (copies its outputs, frees the slot), so threads holding
 * unwaited requests cannot deadlock each other.  PV_ERR_DATA_LEN if the
 * inputs + output capacities exceed max_data; PV_ERR_REMOVED in a forked
 * child (re-open there). */
int pv_vault_submit(pv_vault *v, pv_req *r);
/* Like submit, PV_ERR_BUSY instead of blocking when the ring is full. */
int pv_vault_try_submit(pv_vault *v, pv_req *r);
/* 1 if a submitted r has completed (wait will not block), else 0. */
int pv_vault_done(pv_vault *v, const pv_req *r);
/* Block until r completes, copy the outputs, free its slot; returns
 * r->status. */
int pv_vault_wait(pv_vault *v, pv_req *r);
/* submit + wait. */
int pv_vault_call(pv_vault *v, pv_req *r);

#endif /* PV_VAULT_H */
