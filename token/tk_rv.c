/*
 * tk_rv.c - the one place where PV_ERR_* codes become CK_RV.
 *
 * Contention: PV_ERR_BUSY (the token store stayed locked by another
 * process or thread for longer than the busy timeout) maps to
 * CKR_FUNCTION_FAILED; the operation had no effect and may be retried.
 * This is the only "contention code" the token layer returns.
 */
#include "gpu/core/pv_err.h"
#include "token/tk.h"

CK_RV tk_rv_from_pv(int err)
{
	if (err >= 0)
		return CKR_OK;
	switch (err) {
	case PV_ERR_GENERAL:     return CKR_GENERAL_ERROR;
	case PV_ERR_NOMEM:       return CKR_HOST_MEMORY;
	case PV_ERR_ARGS:        return CKR_ARGUMENTS_BAD;
	case PV_ERR_MECHANISM:   return CKR_MECHANISM_INVALID;
	case PV_ERR_MECH_PARAM:  return CKR_MECHANISM_PARAM_INVALID;
	case PV_ERR_KEY_SIZE:    return CKR_KEY_SIZE_RANGE;
	case PV_ERR_KEY_TYPE:    return CKR_KEY_TYPE_INCONSISTENT;
	case PV_ERR_DATA_LEN:    return CKR_DATA_LEN_RANGE;
	case PV_ERR_ENC_LEN:     return CKR_ENCRYPTED_DATA_LEN_RANGE;
	case PV_ERR_ENC_INVALID: return CKR_ENCRYPTED_DATA_INVALID;
	case PV_ERR_SIG_INVALID: return CKR_SIGNATURE_INVALID;
	case PV_ERR_SIG_LEN:     return CKR_SIGNATURE_LEN_RANGE;
	case PV_ERR_BUF_SMALL:   return CKR_BUFFER_TOO_SMALL;
	case PV_ERR_WRAPPED:     return CKR_WRAPPED_KEY_INVALID;
	case PV_ERR_SEALED:      return CKR_DEVICE_ERROR;
	case PV_ERR_DEVICE:      return CKR_DEVICE_ERROR;
	case PV_ERR_IO:          return CKR_DEVICE_ERROR;
	case PV_ERR_CONFIG:      return CKR_GENERAL_ERROR;
	case PV_ERR_PERM:        return CKR_FUNCTION_FAILED;
	case PV_ERR_BUSY:        return CKR_FUNCTION_FAILED;
	case PV_ERR_NOT_FOUND:   return CKR_OBJECT_HANDLE_INVALID;
	case PV_ERR_CORRUPT:     return CKR_DEVICE_ERROR;
	case PV_ERR_PUBKEY:      return CKR_PUBLIC_KEY_INVALID;
	case PV_ERR_DOMAIN:      return CKR_CURVE_NOT_SUPPORTED;
	case PV_ERR_RANDOM:      return CKR_DEVICE_ERROR;
	case PV_ERR_STATE:       return CKR_STATE_UNSAVEABLE;
	case PV_ERR_CANCELED:    return CKR_FUNCTION_CANCELED;
	case PV_ERR_REMOVED:     return CKR_DEVICE_REMOVED;
	case PV_ERR_PROTOCOL:    return CKR_DEVICE_ERROR;
	case PV_ERR_NOT_LOGGED_IN: return CKR_USER_NOT_LOGGED_IN;
	case PV_ERR_PIN_INCORRECT: return CKR_PIN_INCORRECT;
	case PV_ERR_FULL:        return CKR_DEVICE_MEMORY;
	case PV_ERR_LOCKED:      return CKR_PIN_LOCKED;
	case PV_ERR_INSECURE:    return CKR_DEVICE_ERROR;
	case PV_ERR_PASSPHRASE:  return CKR_DEVICE_ERROR;
	default:                 return CKR_GENERAL_ERROR;
	}
}

/* A PIN try that could not be counted was not checked either: the answer
 * says why, and never that the PIN was right or wrong.  Disk full:
 * CKR_DEVICE_MEMORY; store busy past its timeout: CKR_FUNCTION_FAILED
 * (retry, as everywhere); host memory: CKR_HOST_MEMORY; a store that
 * cannot be written (read-only file or directory, I/O error, damage):
 * CKR_DEVICE_ERROR. */
CK_RV tk_rv_pin_count(int err)
{
	switch (err) {
	case PV_ERR_FULL:    return CKR_DEVICE_MEMORY;
	case PV_ERR_BUSY:    return CKR_FUNCTION_FAILED;
	case PV_ERR_NOMEM:   return CKR_HOST_MEMORY;
	case PV_ERR_LOCKED:  return CKR_PIN_LOCKED;
	default:             return err >= 0 ? CKR_OK : CKR_DEVICE_ERROR;
	}
}
