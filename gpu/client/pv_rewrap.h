/*
 * pv_rewrap.h - a vault that holds two master keys for the duration of a
 * master key rotation (pvault master rotate).
 *
 *   pv_rewrap *r;
 *   pv_rewrap_open("old.key", NULL, "new.key", NULL, &r);
 *   pv_rewrap_blob(r, blob, len, id, out, cap, &out_len);   // per key
 *   pv_rewrap_close(r);                                     // wipes both
 *
 * The master keys are read from their files here and go straight into the
 * two vault states (locked, non-dumpable memory), as pv_vault_open does;
 * the caller never sees them.  Embedded CPU backend: the keys are opened in
 * host memory (the CUDA backend's ring has no rotation request).
 */
#ifndef PV_REWRAP_H
#define PV_REWRAP_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/engine/ve_proto.h"

typedef struct pv_rewrap pv_rewrap;

/* Errors as pv_master_read (PV_ERR_IO, _CORRUPT, _PERM, _WRAPPED);
 * *which = 0 for the old file, 1 for the new one, when one fails. */
int pv_rewrap_open(const char *old_path, const char *old_pass,
                   const char *new_path, const char *new_pass,
                   pv_rewrap **out, int *which);
/* Fingerprints (pv_master_fingerprint) of the two keys. */
void pv_rewrap_fprs(const pv_rewrap *r, char old_fpr[17], char new_fpr[17]);
int pv_rewrap_blob(pv_rewrap *r, const uint8_t *blob, size_t len,
                   const uint8_t id[PV_OBJ_ID_LEN], uint8_t *out, size_t cap,
                   size_t *out_len);
void pv_rewrap_close(pv_rewrap *r);

#endif /* PV_REWRAP_H */
