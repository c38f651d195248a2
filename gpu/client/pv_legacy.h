/*
 * pv_legacy.h - the keys of blobs sealed under the master key alone, in
 * the form PV_OP_IMPORT_KEY takes, for `pvault token migrate`.
 *
 *   pv_legacy *l;
 *   pv_legacy_open("master.key", NULL, &l);
 *   pv_legacy_key(l, blob, len, id, key, cap, &klen, &type);  // per key
 *   pv_legacy_close(l);                                       // wipes
 *
 * A store made before token keys keeps every key under the master KEK
 * (blob versions 1 and 2, or 3 and 4 without PV_POL_TOKEN after a master
 * key rotation), with no policy bound in.  The vault seals a key for a
 * token, with its policy, only when the key is made or imported, so the
 * migration opens each such blob here and has the token's vault import
 * the key.  The master key is read from its file into a vault state of
 * this process (locked, non-dumpable memory), as pv_rewrap does; every
 * engine call and every copy of key bytes runs on a stack of its own
 * (pv_secstack.h); the key leaves only into the caller's buffer, which
 * should come from pv_secmem and be wiped after the import.  Host code
 * over the CPU backend's engine; nothing here runs on a GPU.
 */
#ifndef PV_LEGACY_H
#define PV_LEGACY_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/engine/ve_proto.h"

typedef struct pv_legacy pv_legacy;

/* Room for any key pv_legacy_key gives (an RSA-4096 key's 8 numbers). */
#define PV_LEGACY_KEY_MAX 4096u

/* Errors as pv_master_read (PV_ERR_IO, _CORRUPT, _PERM, _WRAPPED,
 * _INSECURE), PV_ERR_NOMEM. */
int pv_legacy_open(const char *path, const char *pass, pv_legacy **out);
/* The master key's fingerprint (pv_master_fingerprint). */
void pv_legacy_fpr(const pv_legacy *l, char fpr[17]);
/* The key of blob (identity id) into out (cap bytes, *out_len used) and
 * its PV_KEY_* type into *type: a secret key's value; RSA: n e d p q dp
 * dq qinv, each a big-endian 16-bit length and the number; EC and SM2:
 * the private scalar; Ed25519: the seed.  PV_ERR_WRAPPED if the blob does
 * not open under the master key with that identity, is bound to a token
 * (PV_POL_TOKEN: already migrated), is a PIN record or holds a payload
 * the format does not describe; PV_ERR_BUF_SMALL.  What the blob's
 * authenticated header binds, which the old vault enforced: its PV_USE_*
 * usage into *usage, its PV_POL_* policy into *policy (versions 3 and 4;
 * PV_LEGACY_NO_POLICY for versions 1 and 2, which bound none).  A key
 * sealed again must not be given more than these. */
#define PV_LEGACY_NO_POLICY 0xffffffffu
int pv_legacy_key(pv_legacy *l, const uint8_t *blob, size_t len,
                  const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out, size_t cap,
                  size_t *out_len, uint32_t *type, uint32_t *usage, uint32_t *policy);
/* The allowed-mechanism list a blob binds: its entry count into *n (0:
 * none, and always for versions 1 and 2) and the first 16 bytes of the
 * list's SHA-256 into dig, as the vault checks them on use.  Authentic
 * once pv_legacy_key has opened the same blob (the header is in the
 * tag).  PV_ERR_WRAPPED if blob does not parse. */
int pv_legacy_mechs(const uint8_t *blob, size_t len, uint32_t *n, uint8_t dig[16]);
void pv_legacy_close(pv_legacy *l);

#endif /* PV_LEGACY_H */
