/*
 * ve_internal.h - shared between the engine's files (not for other layers).
 */
#ifndef VE_INTERNAL_H
#define VE_INTERNAL_H

#include "ve_engine.h"
#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/hash/kc_hmac.h"
#include "gpu/core/hash/kc_kdf.h"

/* One request being executed: validated copy of the descriptor + arena,
 * and what its login ticket gave (ve_login.c): who logged in, the token
 * key and the token's KEK; tk is NULL without a valid ticket. */
typedef struct ve_req {
	ve_desc d;
	uint8_t *arena;
	const ve_vault *v;
	ve_worker *w;
	ve_result *res;
	const ve_kek *tk;             /* &tkek when the ticket opened         */
	uint32_t who;                 /* the ticket's PV_WHO_SO / _USER        */
	uint32_t pad_;
	uint8_t tkey[PV_TOKEN_KEY_LEN];
	ve_kek tkek;
} ve_req;

/* A key unwrapped from its blob: lives in locals only, wiped after use. */
typedef struct ve_key {
	uint32_t type, usage, len, policy;
	uint8_t k[PV_SECRET_MAX];
} ve_key;

KC_PRIV const uint8_t *ve_ptr(const ve_req *r, ve_span s)
{
	return r->arena + s.off;
}
KC_PRIV uint8_t *ve_wptr(const ve_req *r, ve_span s)
{
	return r->arena + s.off;
}

/* Blob format (ve_blob.c).  Versions 1 and 2 (no policy) are legacy:
 * opened only to be sealed again in the current format (ve_rewrap,
 * gpu/client/pv_legacy.c). */
#define VE_BLOB_V1          1u
#define VE_BLOB_V1_RSA_DLAST 2u
#define VE_BLOB_VERSION     3u
#define VE_BLOB_V_RSA_DLAST 4u   /* an RSA payload with d last (ve_pk.c) */
#define VE_BLOB_HDR        40u
#define VE_BLOB_HDR_V1     16u
#define VE_BLOB_NONCE      12u
#define VE_BLOB_TAG        16u
/* A blob's public header. */
typedef struct ve_bhdr {
	uint32_t ver, type, usage, len;   /* len: payload bytes              */
	uint32_t policy, nmechs;          /* PV_POL_*, allowed-list entries  */
	uint32_t hlen;                    /* header bytes (the AAD's first)  */
	uint8_t mdig[16];                 /* SHA-256 of the allowed list     */
} ve_bhdr;
#define VE_BLOB_DLAST(ver) ((ver) == VE_BLOB_V_RSA_DLAST || (ver) == VE_BLOB_V1_RSA_DLAST)
/* Flags of ve_blob_parse. */
#define VE_BP_LEGACY 1u          /* accept versions 1 and 2               */
/* Parse blob's public header (magic, version - d-last only for RSA -, blen
 * at most max, payload length = blen - overhead, type = want_type unless
 * 0); PV_ERR_WRAPPED on any mismatch. */
KC_API int ve_blob_parse(const uint8_t *blob, uint32_t blen, uint32_t max,
                         uint32_t want_type, uint32_t flags, ve_bhdr *h);
/* Open a parsed blob under kek with identity id, the first plen (<=
 * h->len) payload bytes decrypted (all are authenticated): w holds
 * VE_BLOB_W(plen) bytes, and on PV_OK the plaintext is w[16, 16 + plen),
 * the rest of w zero; on PV_ERR_WRAPPED w is zero (kc_gcm_open_pw; the
 * callers wipe it after use). */
#define VE_BLOB_W(plen) KC_GCM_PW_W(plen)
KC_API int ve_blob_decrypt(const ve_kek *kek, const ve_bhdr *h, const uint8_t *blob,
                           const uint8_t id[PV_OBJ_ID_LEN], uint32_t plen, uint8_t *w);
/* Write the blob of h->len payload bytes pt to out (current format: h's
 * version, type, usage, policy, nmechs and mdig): header, a fresh nonce,
 * ciphertext, tag.  The caller checked the room (PV_BLOB_OVERHEAD + len). */
KC_API int ve_blob_encrypt(const ve_kek *kek, ve_worker *w, const ve_bhdr *h,
                           const uint8_t *pt, const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out);
/* Valid secret length for a key type: PV_OK / PV_ERR_KEY_SIZE /
 * PV_ERR_KEY_TYPE. */
KC_API int ve_key_len_ok(uint32_t type, uint32_t len);
/* Open a secret-key blob under kek with identity id; PV_ERR_WRAPPED on any
 * mismatch (format, version, length, tag, identity, expected type).  k's
 * policy is the header's. */
KC_API int ve_blob_open(const ve_kek *kek, const ve_bhdr *h, const uint8_t *blob,
                        const uint8_t id[PV_OBJ_ID_LEN], ve_key *k);
/* Seal k (type, usage, policy) into out (capacity cap) with allowed-list
 * digest mdig / nmechs; *outlen = PV_BLOB_OVERHEAD + k->len (also on
 * PV_ERR_BUF_SMALL). */
KC_API int ve_blob_seal(const ve_kek *kek, ve_worker *w, const ve_key *k, uint32_t nmechs,
                        const uint8_t mdig[16], const uint8_t id[PV_OBJ_ID_LEN],
                        uint8_t *out, uint32_t cap, uint32_t *outlen);

/* Request-level key access (ve_login.c): the policy checks every use of a
 * blob goes through.  ve_req_blob parses the blob of span b and picks its
 * KEK: a PV_POL_TOKEN blob needs the user's ticket for the
 * request's token (PV_ERR_NOT_LOGGED_IN).  With primary set it is the
 * operation's key: its allowed list must hold the request's mechanism
 * (PV_ERR_PERM; the list comes in `mechs` and must match the blob's
 * digest).  want_type 0 = any; max = PV_BLOB_MAX or PV_PKBLOB_MAX. */
KC_API int ve_req_blob(const ve_req *r, ve_span b, uint32_t want_type, uint32_t max,
                       uint32_t primary, ve_bhdr *h, const ve_kek **kek);
/* The new blob's header fields from the request (new_policy, new_mechs)
 * and its KEK: PV_POL_TOKEN needs the user's ticket, PV_POL_TRUSTED the
 * SO's.  h's version, type, usage and len are left to the caller. */
KC_API int ve_req_new_blob(const ve_req *r, ve_bhdr *h, const ve_kek **kek);
/* Open the request's `key` blob (a secret key) and check usage and type. */
KC_API int ve_req_key(const ve_req *r, uint32_t usage, ve_key *k);
/* Seal k as the request's new blob (new_id, new_usage, new_policy) into
 * span out; res->out_len = the blob length. */
KC_API int ve_req_seal(ve_req *r, ve_key *k, ve_span out);
/* Open the request's ticket, if any, into r->tk / who / tkey (ve_execute
 * calls it first); a ticket that does not open is PV_ERR_NOT_LOGGED_IN. */
KC_API int ve_req_ticket(ve_req *r);
/* Set up kek from a 32-byte key. */
KC_API int ve_kek_init(ve_kek *kek, const uint8_t key[32]);

/* Mechanism helpers (ve_mech.c). */
KC_API uint32_t ve_mech_hash(uint32_t mech);       /* digest/HMAC -> KC_HASH_* or 0 */
KC_API uint32_t ve_mech_bc(uint32_t mech);         /* -> KC_BC_AES/SM4 or 0 */
KC_API uint32_t ve_mech_key_type(uint32_t mech);   /* key type it needs, 0 none */
KC_API uint32_t ve_mech_mode(uint32_t mech);       /* VE_MODE_* */
#define VE_MODE_NONE     0u
#define VE_MODE_ECB      1u
#define VE_MODE_CBC      2u
#define VE_MODE_CBC_PAD  3u
#define VE_MODE_CTR      4u
#define VE_MODE_CFB      5u
#define VE_MODE_GCM      6u
#define VE_MODE_KW       7u
#define VE_MODE_KWP      8u
#define VE_MODE_CMAC     9u
#define VE_MODE_HMAC    10u
#define VE_MODE_DIGEST  11u
#define VE_MODE_KEYGEN  12u
#define VE_MODE_HKDF    13u

/* Output helper: PV_ERR_BUF_SMALL (res->out_len = need) if the out span is
 * shorter than need. */
KC_PRIV int ve_out_room(const ve_req *r, uint32_t need)
{
	r->res->out_len = need;
	return r->d.out.len < need ? PV_ERR_BUF_SMALL : PV_OK;
}

/* Multi-part state (ve_state.c).  The plain struct; it leaves the vault
 * sealed (keyed ops) or as a checked digest state (DIGEST). */
typedef struct ve_mp {
	uint32_t magic;           /* VE_MP_MAGIC                               */
	uint32_t op, mech, mode;
	uint32_t tag_len, ctr_bits;
	uint32_t buf_len;         /* bytes pending in buf                      */
	uint32_t num;             /* CTR ks_used / CFB num                     */
	uint64_t total;           /* data bytes seen                           */
	uint8_t iv[16], ks[16], buf[16];
	union {
		kc_bc bc;
		kc_gcm gcm;
		kc_cmac cmac;
		kc_hmac_ctx hmac;
		kc_hash_ctx hash;
	} u;
} ve_mp;
#define VE_MP_MAGIC 0x50564d50u   /* "PVMP" */
KC_API int ve_state_seal(const ve_req *r, const ve_mp *mp);
/* Start a keyed state: open the request's key for usage (it must be of
 * the mechanism's key type: else PV_ERR_KEY_TYPE) and set mp's magic, op,
 * mech, mode and tag_len.  On an error k is wiped and mp left alone. */
KC_API int ve_state_key(const ve_req *r, uint32_t usage, uint32_t mode,
                        uint32_t tag_len, ve_mp *mp, ve_key *k);
KC_API int ve_state_open(const ve_req *r, ve_mp *mp);

/* Ops. */
KC_API int ve_op_cipher(ve_req *r);      /* ENCRYPT / DECRYPT, all phases */
KC_API int ve_op_mac(ve_req *r);         /* SIGN / VERIFY, all phases     */
KC_API int ve_op_digest(ve_req *r);      /* DIGEST, all phases            */
KC_API int ve_op_keygen(ve_req *r);
KC_API int ve_op_import(ve_req *r);
KC_API int ve_op_wrap(ve_req *r);
KC_API int ve_op_unwrap(ve_req *r);
KC_API int ve_op_derive(ve_req *r);
KC_API int ve_op_random(ve_req *r);
KC_API int ve_op_seed(ve_req *r);
KC_API int ve_op_login(ve_req *r);       /* LOGIN, TOKEN_NEW, PIN_RECORD, REPOLICY */

#endif /* VE_INTERNAL_H */
