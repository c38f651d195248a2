/*
 * ve_pk.h - public-key keys and operations of the engine (internal; the
 * request-level contract is in gpu/vault.h and docs/vault-engine.md,
 * section "Public key").
 *
 * Private keys live in blobs with the same outer format as secret keys
 * (ve_blob.c: "PVK" header with the key's policy, AES-256-GCM under the
 * master or the token KEK, AAD = header || object identity) but their own payload and size limit (PV_PKBLOB_MAX);
 * ve_blob_open refuses them (its ve_key_len_ok does not know the types), so
 * a private key can never reach a symmetric op.  Payload (big-endian):
 *
 *   RSA       bits (4) | e (4) | n d (nb each) | p q dp dq qinv (hb each),
 *             nb = 4 ceil(bits / 32), hb = 4 ceil(ceil(bits / 2) / 32) (the
 *             core's limb counts): 1,160 bytes at 2048 bits, 1,736 at 3072,
 *             2,312 (VE_PK_RSA_LEN) at 4096; numbers big-endian, right-
 *             aligned.  A payload of VE_PK_RSA_LEN bytes has every number
 *             in the widths of 4096 bits whatever the size: the original
 *             layout, still opened, and what a key whose
 *             numbers do not fit its size's widths is sealed in.
 *   P-256/SM2 d (32) | public 04||X||Y (65)             =  97 bytes
 *   P-384     d (48) | public 04||X||Y (97)             = 145 bytes
 *   Ed25519   seed (32) | public (32)                   =  64 bytes
 *
 * The public part is authenticated together with the private part (the
 * Ed25519 and SM2 signers use it without re-deriving it).
 *
 * Workspace per request (stack of the executing thread): one ve_pkey
 * (~2.35 KiB) plus the core's deepest call: kc_rsa_private ~10 KiB at 4096
 * bits, kc_ecdsa_sign / kc_sm2_encrypt ~3.5 KiB, Ed25519 < 2 KiB; plus one
 * 512-byte block buffer.  Bounded: about 13 KiB in total.
 */
#ifndef VE_PK_H
#define VE_PK_H

#include "ve_internal.h"
#include "gpu/core/pk/kc_rsa.h"
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/ed25519/kc_ed25519.h"

#define VE_PK_RSA_LEN   (8u + 2u * KC_RSA_MAX_BYTES + 5u * KC_RSA_MAX_HBYTES)

/* A private key opened from its blob: locals only, wiped after use.  The
 * RSA part comes last: keys of the other types use, zero and wipe only the
 * ~0.2 KiB before it (ve_pk_zero, ve_pk_wipe). */
typedef struct ve_pkey {
	uint32_t type, usage, len, policy;
	uint8_t d[KC_EC_MAX_FLEN];    /* EC / SM2 scalar; Ed25519 seed        */
	uint8_t pub[KC_EC_MAX_PUBLEN];/* EC 04||X||Y; Ed25519 32 bytes        */
	uint32_t flen, publen;
	kc_rsa_priv rsa KC_ALIGN16;   /* PV_KEY_RSA; its byte fields sit at
	                                 the offsets (mod 16) they have in
	                                 the payload buffers (KC_ALIGN16) */
} ve_pkey;

/* k := zero in every byte a key of this type uses, k->type = type. */
KC_API void ve_pk_zero(ve_pkey *k, uint32_t type);
/* Wipe every byte k's type uses (k was set by ve_pk_zero or ve_pk_open). */
KC_API void ve_pk_wipe(ve_pkey *k);

/* 1 if the request belongs to the public-key engine. */
KC_API uint32_t ve_pk_claims(const ve_desc *d);
/* Run it (every op/phase). */
KC_API int ve_op_pk(ve_req *r);

/* ve_pk.c */
KC_API int ve_pk_is_type(uint32_t type);
KC_API int ve_pk_curve(uint32_t type);            /* KC_EC_* or 0 */
KC_API int ve_pk_open(const ve_req *r, uint32_t usage, ve_pkey *k);
/* Seal k as the request's new blob (new_id, new_usage, new_policy). */
KC_API int ve_pk_seal(ve_req *r, ve_pkey *k, ve_span out);
KC_API int ve_pk_pub_out(ve_req *r, const ve_pkey *k);
/* Master-key rotation of a private-key blob (same contract as ve_rewrap,
 * gpu/engine/ve_rewrap.h); ve_pk_blob_is_pk tells which one to call. */
KC_API int ve_pk_blob_is_pk(const uint8_t *blob, uint32_t blen);
KC_API int ve_pk_rewrap(const ve_kek *from, const ve_kek *to, ve_worker *w,
                        const ve_bhdr *h, const uint8_t *blob,
                        const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out,
                        uint32_t cap, uint32_t *outlen);
/* Decode the RSA public encoding n || e(4) into pk. */
KC_API int ve_pk_rsa_pub(const uint8_t *in, uint32_t len, kc_rsa_pub *pk);
/* Hash alg of a digest mech (prf), 0 if none. */
KC_API uint32_t ve_pk_hash(uint32_t prf);

/* ve_pk_rsa.c */
KC_API int ve_pk_rsa_sign(ve_req *r, const uint8_t *in, uint32_t inlen, uint32_t hashed);
KC_API int ve_pk_rsa_verify(ve_req *r, const uint8_t *in, uint32_t inlen, uint32_t hashed);
KC_API int ve_pk_rsa_crypt(ve_req *r);

/* ve_pk_ec.c */
KC_API int ve_pk_ec_sign(ve_req *r, const uint8_t *hash, uint32_t hlen);
KC_API int ve_pk_ec_verify(ve_req *r, const uint8_t *hash, uint32_t hlen);
KC_API int ve_pk_eddsa(ve_req *r);
KC_API int ve_pk_sm2_crypt(ve_req *r);
KC_API int ve_pk_ecdh(ve_req *r);
KC_API int ve_pk_sm2_z(ve_req *r, uint8_t z[32]);

#endif /* VE_PK_H */
