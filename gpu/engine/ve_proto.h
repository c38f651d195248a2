/*
 * ve_proto.h - the vault request format (portable: host, CPU workers, GPU).
 *
 * Numbers here are the vault's own (gpu/ never includes PKCS#11 headers);
 * the token layer maps CKM_ / CKK_ / CKA_ values onto them.
 *
 * A request is a fixed-size descriptor (ve_desc) plus a data arena.  Every
 * variable-length field is a span {off, len} relative to the start of the
 * request's arena: no pointers, so the same bytes are valid in the host
 * process, in pvaultd and on the GPU.  The worker writes its results in a
 * separate ve_result (one writer per word: the producer writes ve_desc and
 * the arena inputs, the worker writes ve_result and the arena outputs).
 *
 * See docs/vault-engine.md for the per-op use of every field.
 */
#ifndef VE_PROTO_H
#define VE_PROTO_H

#include "gpu/core/kc_defs.h"

#define VE_DESC_VERSION 1u

/* ---- operations --------------------------------------------------------- */
#define PV_OP_NOP             0u   /* health check: status only             */
#define PV_OP_ENCRYPT         1u
#define PV_OP_DECRYPT         2u
#define PV_OP_SIGN            3u   /* MACs; RSA/ECDSA/EdDSA/SM2 (ve_pk*.c)   */
#define PV_OP_VERIFY          4u
#define PV_OP_DIGEST          5u
#define PV_OP_GENERATE_KEY    6u   /* secret key into a new blob             */
#define PV_OP_GENERATE_PAIR   7u   /* private blob + public part (ve_pk.c)   */
#define PV_OP_IMPORT_KEY      8u   /* plaintext key in, blob out             */
#define PV_OP_WRAP_KEY        9u
#define PV_OP_UNWRAP_KEY     10u
#define PV_OP_DERIVE_KEY     11u
#define PV_OP_RANDOM         12u
#define PV_OP_SEED           13u
/* login (ve_login.c; docs/token-store.md "Token key and PINs") */
#define PV_OP_LOGIN          14u   /* PIN record + PIN key in, ticket out    */
#define PV_OP_TOKEN_NEW      15u   /* a new token key, its SO record out     */
#define PV_OP_PIN_RECORD     16u   /* ticket + new PIN key in, record out    */
#define PV_OP_LOGOUT         17u   /* daemon: drop the connection's ticket  */
#define PV_OP_REPOLICY       18u   /* a secret key's blob, new usage/policy */
#define PV_OP_MAX            18u

/* ---- phases (multi-part) ------------------------------------------------ */
#define PV_PHASE_ONESHOT      0u
#define PV_PHASE_INIT         1u   /* key + params in, state out             */
#define PV_PHASE_UPDATE       2u   /* state + input in, output + state out   */
#define PV_PHASE_FINAL        3u   /* state (+ input) in, output out         */

/* ---- key types ---------------------------------------------------------- */
#define PV_KEY_GENERIC        1u   /* generic secret (HMAC, HKDF)            */
#define PV_KEY_AES            2u
#define PV_KEY_SM4            3u
/* reserved for the public-key engineers; blobs and requests already carry
 * them, the engine answers PV_ERR_MECHANISM until the ops are wired */
#define PV_KEY_RSA         0x10u
#define PV_KEY_EC_P256     0x11u
#define PV_KEY_EC_P384     0x12u
#define PV_KEY_ED25519     0x13u
#define PV_KEY_SM2         0x14u
/* a token's PIN record: the token key under a PIN, sealed under the KEK;
 * opened only by PV_OP_LOGIN */
#define PV_KEY_TOKEN_REC   0x20u

/* ---- who a PIN record / ticket is for ----------------------------------- */
#define PV_WHO_SO          0u
#define PV_WHO_USER        1u
#define PV_WHO_NOLOGIN     2u      /* the token's "no login" record: the
                                    * user's rights with an all-zero PIN key */

/* ---- key policy (bound into the blob header, checked on every use) ------ */
#define PV_POL_TOKEN       0x001u  /* sealed under the token key: usable
                                    * only with the user's login ticket    */
#define PV_POL_SENSITIVE   0x002u
#define PV_POL_TRUSTED     0x004u  /* may wrap WRAP_TRUSTED keys (SO only) */
#define PV_POL_WRAP_TRUSTED 0x008u /* wrapped only by TRUSTED keys         */
#define PV_POL_ALL         0x00fu
/* Allowed mechanisms: a list of big-endian 32-bit entries, mech << 16 |
 * variant << 8 | prf & 0xff, variant = PV_MV_* of the request's flags;
 * prf 0 in an entry admits any.  The blob binds its SHA-256 (first 16
 * bytes) and the count; a request passes the list in `mechs`. */
#define PV_MV_HASH_DATA    0x01u
#define PV_MV_DERIVE_DATA  0x02u
#define PV_MECHS_MAX       64u
/* ---- usage flags (bound into the blob AAD) ------------------------------ */
#define PV_USE_ENCRYPT     0x001u
#define PV_USE_DECRYPT     0x002u
#define PV_USE_SIGN        0x004u
#define PV_USE_VERIFY      0x008u
#define PV_USE_WRAP        0x010u
#define PV_USE_UNWRAP      0x020u
#define PV_USE_DERIVE      0x040u
#define PV_USE_EXTRACT     0x080u  /* may leave the vault wrapped (WRAP_KEY) */
#define PV_USE_ALL         0x0ffu

/* ---- mechanisms --------------------------------------------------------- */
#define PV_MECH_NONE             0x0000u
/* AES */
#define PV_MECH_AES_ECB          0x0101u
#define PV_MECH_AES_CBC          0x0102u
#define PV_MECH_AES_CBC_PAD      0x0103u
#define PV_MECH_AES_CTR          0x0104u
#define PV_MECH_AES_CFB128       0x0105u
#define PV_MECH_AES_GCM          0x0106u
#define PV_MECH_AES_KEY_WRAP     0x0107u  /* RFC 3394, default IV          */
#define PV_MECH_AES_KEY_WRAP_KWP 0x0108u  /* RFC 5649                      */
#define PV_MECH_AES_CMAC         0x0109u
#define PV_MECH_AES_KEY_GEN      0x010au
/* SM4 */
#define PV_MECH_SM4_ECB          0x0201u
#define PV_MECH_SM4_CBC          0x0202u
#define PV_MECH_SM4_CBC_PAD      0x0203u
#define PV_MECH_SM4_CTR          0x0204u
#define PV_MECH_SM4_CFB128       0x0205u
#define PV_MECH_SM4_GCM          0x0206u
#define PV_MECH_SM4_CMAC         0x0209u
#define PV_MECH_SM4_KEY_GEN      0x020au
/* digests: 0x0300 + KC_HASH_* */
#define PV_MECH_SHA1             0x0301u
#define PV_MECH_SHA224           0x0302u
#define PV_MECH_SHA256           0x0303u
#define PV_MECH_SHA384           0x0304u
#define PV_MECH_SHA512           0x0305u
#define PV_MECH_SHA3_224         0x0306u
#define PV_MECH_SHA3_256         0x0307u
#define PV_MECH_SHA3_384         0x0308u
#define PV_MECH_SHA3_512         0x0309u
#define PV_MECH_SM3              0x030au
/* HMAC: 0x0400 + KC_HASH_* (GENERIC keys; AES/SM4 keys are accepted too) */
#define PV_MECH_HMAC_SHA1        0x0401u
#define PV_MECH_HMAC_SHA224      0x0402u
#define PV_MECH_HMAC_SHA256      0x0403u
#define PV_MECH_HMAC_SHA384      0x0404u
#define PV_MECH_HMAC_SHA512      0x0405u
#define PV_MECH_HMAC_SHA3_224    0x0406u
#define PV_MECH_HMAC_SHA3_256    0x0407u
#define PV_MECH_HMAC_SHA3_384    0x0408u
#define PV_MECH_HMAC_SHA3_512    0x0409u
#define PV_MECH_HMAC_SM3         0x040au
/* key derivation / generation / random */
#define PV_MECH_HKDF             0x0500u  /* prf = a digest mech            */
#define PV_MECH_GENERIC_KEY_GEN  0x0600u
#define PV_MECH_RANDOM           0x0700u
/* public key (gpu/engine/ve_pk.c) */
#define PV_MECH_RSA_KEY_PAIR_GEN 0x1000u
#define PV_MECH_RSA_PKCS         0x1001u
#define PV_MECH_RSA_PKCS_PSS     0x1002u  /* prf = hash, salt len in ctr_bits */
#define PV_MECH_RSA_PKCS_OAEP    0x1003u  /* prf = hash, label in aad       */
#define PV_MECH_RSA_X_509        0x1004u
#define PV_MECH_EC_KEY_PAIR_GEN  0x1100u
#define PV_MECH_ECDSA            0x1101u  /* prf = hash (0: input is a hash) */
#define PV_MECH_ECDH1_DERIVE     0x1102u  /* peer point in in2             */
#define PV_MECH_EDDSA_KEY_PAIR_GEN 0x1200u
#define PV_MECH_EDDSA            0x1201u
#define PV_MECH_SM2_KEY_PAIR_GEN 0x1300u
#define PV_MECH_SM2_SIGN         0x1301u
#define PV_MECH_SM2_ENCRYPT      0x1302u
/* Public-key request conventions (wire4; docs/vault-engine.md "Public key"):
 *  SIGN/VERIFY  prf = digest mech; with PV_F_HASH_DATA the vault hashes `in`
 *               (one-shot or INIT/UPDATE/FINAL), else `in` is the digest
 *               (RSA_PKCS with prf 0: raw data, CKM_RSA_PKCS).  PSS: tag_len
 *               = MGF1 digest mech (0 = prf), ctr_bits = salt length.
 *               SM2_SIGN: with PV_F_HASH_DATA aad = signer ID (empty =
 *               default), in = message, Z and SM3 done in the vault;
 *               without it in = e = SM3(Z||M) (32 bytes).  EDDSA: aad = context, flags
 *               PV_F_EDDSA_CTX / _PH; one-shot only.
 *  VERIFY / ENCRYPT take the public key itself in `key` (key_type set):
 *               RSA n (k bytes, no leading zero) || e (4 bytes BE); EC/SM2
 *               04||X||Y (02/03||X accepted); Ed25519 32 bytes.
 *  OAEP         prf = digest mech, tag_len = MGF1 digest mech (0 = prf),
 *               aad = label.
 *  GENERATE_PAIR  RSA: new_len = bits, in = public exponent (BE, empty =
 *               65537); EC: new_type P256/P384/SM2; out = private blob,
 *               out2 = public encoding (as above; optional, skipped when
 *               out2 has no capacity).
 *  IMPORT_KEY   new_type RSA: in = 8 fields (n e d p q dp dq qinv), each
 *               be16 length || big-endian bytes; EC/SM2: scalar d; Ed25519:
 *               32-byte seed.  out = blob, out2 = public encoding.
 *  DERIVE_KEY   ECDH1_DERIVE: key = EC/SM2 private blob (usage DERIVE),
 *               in2 = peer point raw or DER OCTET STRING; new_len 0 = the
 *               whole secret, else its trailing new_len bytes. */
#define PV_F_HASH_DATA     0x008u
#define PV_F_EDDSA_CTX     0x010u
#define PV_F_EDDSA_PH      0x020u
#define PV_PK_PRIV_MAX    2312u    /* largest private-key blob payload     */
#define PV_PKBLOB_MAX    (PV_PK_PRIV_MAX + PV_BLOB_OVERHEAD)
#define PV_PK_PUB_MAX     516u     /* largest public encoding (RSA-4096)   */

/* ---- request flags ------------------------------------------------------ */
/* DERIVE_KEY: write the derived bytes to `out` instead of a new blob
 * (HKDF_DATA; the base key must carry PV_USE_DERIVE and PV_USE_EXTRACT). */
#define PV_F_DERIVE_DATA   0x001u
/* HKDF: skip extract (key is the PRK) / skip expand (out = PRK). */
#define PV_F_HKDF_NO_EXTRACT 0x002u
#define PV_F_HKDF_NO_EXPAND  0x004u

/* ---- limits ------------------------------------------------------------- */
#define PV_OBJ_ID_LEN      16u     /* object identity bound into a blob     */
#define PV_SECRET_MAX     512u     /* largest secret key (bytes)            */
#define PV_BLOB_OVERHEAD   68u     /* header 40 + nonce 12 + tag 16         */
#define PV_TOKEN_KEY_LEN   32u
#define PV_PIN_KEY_LEN     32u     /* the host's PBKDF2 of a PIN            */
#define PV_TICKET_LEN      96u     /* nonce 12 + who, T, KEK (68) + tag 16   */
#define PV_RECORD_LEN    (PV_BLOB_OVERHEAD + 60u)
#define PV_BLOB_MAX      (PV_SECRET_MAX + PV_BLOB_OVERHEAD)
#define PV_STATE_MAX     1024u     /* largest serialized multi-part state   */
#define PV_IV_MAX        1024u     /* largest IV / nonce accepted (GCM)     */

/* A region of the request's arena. */
typedef struct ve_span {
	uint32_t off, len;             /* for outputs: len = capacity */
} ve_span;

/* Request descriptor: written by the producer only (256 bytes). */
typedef struct ve_desc {
	uint32_t version;              /* VE_DESC_VERSION                       */
	uint32_t op, phase, mech;
	uint32_t flags;                /* PV_F_*                                */
	uint32_t prf;                  /* HKDF hash (a digest mech)             */
	uint32_t tag_len;              /* GCM tag / truncated MAC bytes, 0=full */
	uint32_t ctr_bits;             /* CTR counter width, 0 = 128            */
	uint32_t new_type;             /* GENERATE/IMPORT/UNWRAP/DERIVE result  */
	uint32_t new_usage;
	uint32_t new_len;              /* bytes of the new secret               */
	uint32_t key_type;             /* expected type of `key`, 0 = any      */
	uint8_t key_id[PV_OBJ_ID_LEN];  /* identity of the `key` blob           */
	uint8_t key2_id[PV_OBJ_ID_LEN]; /* identity of the `key2` blob          */
	uint8_t new_id[PV_OBJ_ID_LEN];  /* identity for the new blob            */
	/* inputs */
	ve_span key;                   /* blob of the operation key             */
	ve_span key2;                  /* WRAP_KEY: blob of the key to wrap     */
	ve_span iv;                    /* IV / nonce / initial counter block    */
	ve_span aad;                   /* GCM AAD; HKDF info                    */
	ve_span salt;                  /* HKDF salt                             */
	ve_span in;                    /* data / plaintext key / wrapped key    */
	ve_span in2;                   /* VERIFY: the MAC/signature             */
	ve_span state;                 /* UPDATE/FINAL: state from the last call*/
	/* outputs (len = capacity) */
	ve_span out;
	ve_span out2;                  /* reserved: public part of a key pair   */
	ve_span state_out;             /* INIT/UPDATE: the next state           */
	/* login and policy (ve_login.c) */
	uint8_t token_id[PV_OBJ_ID_LEN]; /* the token the request acts for     */
	ve_span ticket;                /* login ticket of token_id (input)      */
	ve_span mechs;                 /* allowed-mechanism list of `key`       */
	ve_span new_mechs;             /* allowed-mechanism list of a new blob  */
	uint32_t new_policy;           /* PV_POL_* of a new blob                */
	uint32_t who;                  /* PV_WHO_* (LOGIN, PIN_RECORD)          */
	uint32_t rsv1[6];              /* zero; pads the descriptor to 256 B  */
} ve_desc;

/* Completion: written by the worker only. */
typedef struct ve_result {
	int32_t status;                /* PV_OK or PV_ERR_*                     */
	uint32_t out_len;              /* bytes written, or needed (BUF_SMALL)  */
	uint32_t out2_len;
	uint32_t state_len;
} ve_result;

#endif /* VE_PROTO_H */
