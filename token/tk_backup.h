/*
 * tk_backup.h - backups of a token store (pvault backup / restore).
 *
 * A backup holds the SQLite database of one token as made by SQLite's
 * online backup API (a consistent snapshot while the token is in use):
 * PIN verifiers, attributes and key blobs wrapped under the master key -
 * useless without that key.  File layout (big endian):
 *
 *    0  "PVBK"                  magic
 *    4  u32 version = 1
 *    8  serial[16]              token serial (ASCII hex)
 *   24  master_fpr[16]          fingerprint of the master key (ASCII hex,
 *                               zeros if the store recorded none)
 *   40  u64 created             unix time of the backup
 *   48  u64 len                 length of the database image
 *   56  image[len]
 *   56+len  SHA-256(bytes 0 .. 56+len)
 *
 * Restore checks everything (length, checksum, master key, SQLite
 * integrity, serial) before it touches the token directory, then installs
 * the image atomically: written to <token_dir>/.new-<serial>/, fsync'ed,
 * and swapped with the live directory by one renameat2(RENAME_EXCHANGE)
 * (or renamed into place when there is none).
 */
#ifndef TK_BACKUP_H
#define TK_BACKUP_H

#include <stddef.h>
#include <stdint.h>

#define TK_BACKUP_VERSION 1u
#define TK_BACKUP_HDR     56u

typedef struct tk_backup_info {
	uint32_t version;
	char serial[17];
	char master_fpr[17];
	int64_t created;
	uint64_t len;
} tk_backup_info;

/* Back up the store at dbpath to out (which must not exist; mode 0600).
 * why (cap bytes) gets a message on failure. */
int tk_backup_write(const char *dbpath, const char *out, tk_backup_info *info,
                    char *why, size_t cap);

/* Read and check a backup file (format, length, SHA-256) without
 * restoring it.  *image (malloc'd, may be NULL) receives the database. */
int tk_backup_check(const char *path, tk_backup_info *info, uint8_t **image,
                    char *why, size_t cap);

/* Check path, require info.master_fpr == expect_fpr (when expect_fpr is
 * not NULL), then install it as token <serial> in token_dir.  *replaced
 * = 1 if an existing token was replaced.  Nothing changes on failure. */
int tk_backup_restore(const char *path, const char *token_dir, const char *expect_fpr,
                      tk_backup_info *info, int *replaced, char *why, size_t cap);

#endif /* TK_BACKUP_H */
