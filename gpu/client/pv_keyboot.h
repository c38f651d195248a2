/*
 * pv_keyboot.h - boot an engine state of this process from a master key
 * file, for the host-side tools that open old blobs (pv_rewrap: master
 * key rotation; pv_legacy: migration of older token stores).
 *
 * The key file is read into locked, non-dumpable memory, the engine boots
 * on the caller's secure stack (pv_secstack.h) and the key is wiped
 * before the call returns; only the booted state keeps it.
 */
#ifndef PV_KEYBOOT_H
#define PV_KEYBOOT_H

#include "gpu/engine/ve_internal.h"
#include "gpu/host/pv_secstack.h"

/* Boot v (pv_secmem memory) from the key file at path (pass: its
 * passphrase, or NULL) on stack st; its fingerprint into fpr.  Errors as
 * pv_master_read, PV_ERR_RANDOM, PV_ERR_NOMEM, PV_ERR_SEALED. */
int pv_keyboot(pv_secstack *st, const char *path, const char *pass, ve_vault *v,
               char fpr[17]);

#endif
