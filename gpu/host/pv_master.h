/*
 * pv_master.h - the master key file.
 *
 * A 256-bit key in a small versioned file with a checksum, optionally
 * protected by a passphrase (PBKDF2-HMAC-SHA256, 600,000 iterations, then
 * AES-256-GCM).  Written with mode 0400 and O_EXCL; read only if no one
 * but its owner may access it and that owner is the reading user or root
 * (pv_master_perm_check).  Layout (big endian):
 *
 *   0  "PVMK"                magic
 *   4  u8 version = 1
 *   5  u8 flags              bit 0: passphrase-protected
 *   6  u16 reserved = 0
 *   plain (flags = 0):       8 key[32]  40 check[16]                 = 56 bytes
 *   passphrase (flags = 1):  8 salt[16] 24 u32 iterations 28 nonce[12]
 *                            40 ct[32]  72 tag[16]  88 check[16]      = 104 bytes
 *
 * check = SHA-256("PixelVault master key file v1" || all preceding bytes)
 * truncated to 16 bytes: it tells a corrupted file from a wrong passphrase
 * (the GCM tag, AAD = the 8-byte header) before any key is used.
 *
 * The fingerprint (first 8 bytes of SHA-256("PixelVault master key id" ||
 * key), hex) names a master key without revealing it: the vault records it
 * so `pvault status` can say which master key a token store needs.
 */
#ifndef PV_MASTER_H
#define PV_MASTER_H

#include <stddef.h>
#include <stdint.h>

#define PV_MASTER_KEY_LEN      32
#define PV_MASTER_PBKDF2_ITERS 600000u
#define PV_MASTER_FPR_LEN      17        /* 16 hex digits + NUL */
#define PV_MASTER_MSG_MAX      8448      /* pv_master_perm_check's message:
                                            a path (< 4096) twice, a sentence */

/* New random key from the OS. */
int pv_master_generate(uint8_t key[PV_MASTER_KEY_LEN]);

/* Write key to path (must not exist; mode 0400).  passphrase NULL or ""
 * writes the plain format.  PV_ERR_IO / PV_ERR_PERM on failure (errno kept). */
int pv_master_write(const char *path, const uint8_t key[PV_MASTER_KEY_LEN],
                    const char *passphrase);

/* Read and check.  PV_ERR_PERM (this user may not read it), PV_ERR_IO
 * (unreadable), PV_ERR_INSECURE (the file's mode or owner, checked on the
 * open file before it is read), PV_ERR_CORRUPT (bad magic, version,
 * length or checksum), PV_ERR_PASSPHRASE (passphrase needed but none
 * given), PV_ERR_WRAPPED (wrong passphrase),
 * PV_ERR_NOMEM.  key is wiped on error.  The work runs on a pv_secstack
 * (nothing of the key file on the caller's stack). */
int pv_master_read(const char *path, const char *passphrase,
                   uint8_t key[PV_MASTER_KEY_LEN]);

/* The backends' boot step: read the configured master key file (path ""
 * or absent: PV_ERR_NOT_FOUND; passphrase from
 * $PIXELVAULT_MASTER_PASSPHRASE).  The vault boots sealed when this
 * fails, and its info carries the code: whoever reports the state to a
 * person says why (pv_master_explain); here it is logged at info level
 * only.  key is wiped on error. */
int pv_master_load(const char *path, uint8_t key[PV_MASTER_KEY_LEN]);

/* 1 if the file at path is passphrase-protected, 0 if not, <0 on error. */
int pv_master_needs_passphrase(const char *path);

/* The rule OpenSSH applies to private keys: a master key file that group
 * or others may access (any of mode 077), or that belongs to a user other
 * than the one reading it and root (who could replace the key), is not
 * used.  PV_OK, PV_ERR_INSECURE with a one-line message in msg (cap
 * bytes, may be NULL) saying what is wrong and the command that fixes
 * it, or PV_ERR_IO if path cannot be examined. */
int pv_master_perm_check(const char *path, char *msg, size_t cap);

void pv_master_fingerprint(const uint8_t key[PV_MASTER_KEY_LEN],
                           char out[PV_MASTER_FPR_LEN]);

/* A one-line message for a pv_master_* error code. */
const char *pv_master_strerror(int err);
/* For a person: what is wrong with the master key file at path (err from
 * reading it) and what to do next, one sentence in buf (PV_ERR_INSECURE:
 * pv_master_perm_check's message).  Returns buf (a constant string when
 * cap is 0). */
const char *pv_master_explain(const char *path, int err, char *buf, size_t cap);

#endif
