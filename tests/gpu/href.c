/*
 * href.c - the host reference: kat_ops.h compiled against the CPU build of
 * the core (libpv_core.a).
 */
#include "tests/gpu/href.h"

#include "gpu/core/pv_err.h"
#include "gpu/core/kc_util.h"        /* kc_memset, kc_wipe, kc_memcpy (J_FILL) */
#include "gpu/core/hash/kc_hash.h"
#include "gpu/core/hash/kc_hmac.h"
#include "gpu/core/hash/kc_kdf.h"
#include "gpu/core/sym/kc_sym.h"
#include "gpu/core/ec/kc_ec.h"
#include "gpu/core/ec/ed25519/kc_ed25519.h"

#define KAT_FN
#define KAT_NAME href_run
#include "tests/gpu/kat_ops.h"
