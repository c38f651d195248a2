/* pv_log.c - stderr/syslog logger with a level filter. */
#include "pv_log.h"
#include "gpu/core/pv_err.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static int log_level = PV_LOG_WARN;
static int log_syslog;

static void log_init(void)
{
	const char *l = getenv("PIXELVAULT_LOG_LEVEL");
	const char *d = getenv("PIXELVAULT_LOG");

	if (l != NULL) {
		if (strcmp(l, "err") == 0) log_level = PV_LOG_ERR;
		else if (strcmp(l, "warn") == 0) log_level = PV_LOG_WARN;
		else if (strcmp(l, "info") == 0) log_level = PV_LOG_INFO;
		else if (strcmp(l, "debug") == 0) log_level = PV_LOG_DEBUG;
	}
	if (d != NULL && strcmp(d, "syslog") == 0)
		log_syslog = 1;
}

void pv_log_setup(int level, int use_syslog)
{
	pthread_once(&log_once, log_init);
	log_level = level;
	log_syslog = use_syslog;
}

void pv_log(int level, const char *fmt, ...)
{
	static const char *const names[] = { "error", "warning", "info", "debug" };
	static const int prio[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };
	char msg[512];
	va_list ap;

	pthread_once(&log_once, log_init);
	if (level < PV_LOG_ERR || level > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (log_syslog)
		syslog(LOG_USER | prio[level], "pixelvault: %s", msg);
	else
		fprintf(stderr, "pixelvault: %s: %s\n", names[level], msg);
}

const char *pv_strerror(int err)
{
	switch (err) {
	case PV_OK:                return "no error";
	case PV_ERR_GENERAL:       return "internal error";
	case PV_ERR_NOMEM:         return "out of memory";
	case PV_ERR_ARGS:          return "bad argument";
	case PV_ERR_MECHANISM:     return "mechanism not supported";
	case PV_ERR_MECH_PARAM:    return "bad mechanism parameter";
	case PV_ERR_KEY_SIZE:      return "key size out of range";
	case PV_ERR_KEY_TYPE:      return "key type does not fit the mechanism";
	case PV_ERR_DATA_LEN:      return "input length invalid";
	case PV_ERR_ENC_LEN:       return "ciphertext length invalid";
	case PV_ERR_ENC_INVALID:   return "ciphertext, padding or tag invalid";
	case PV_ERR_SIG_INVALID:   return "signature does not verify";
	case PV_ERR_SIG_LEN:       return "signature length invalid";
	case PV_ERR_BUF_SMALL:     return "output buffer too small";
	case PV_ERR_WRAPPED:       return "wrapped key invalid, or wrapped under another key";
	case PV_ERR_SEALED:        return "the vault is sealed (no master key)";
	case PV_ERR_DEVICE:        return "device failure";
	case PV_ERR_IO:            return "input/output error";
	case PV_ERR_CONFIG:        return "invalid configuration";
	case PV_ERR_PERM:          return "permission denied";
	case PV_ERR_BUSY:          return "busy, try again";
	case PV_ERR_NOT_FOUND:     return "not found";
	case PV_ERR_CORRUPT:       return "stored data failed its integrity check";
	case PV_ERR_PUBKEY:        return "public key invalid";
	case PV_ERR_DOMAIN:        return "curve or parameter set not supported";
	case PV_ERR_RANDOM:        return "random generator failure";
	case PV_ERR_STATE:         return "operation state invalid";
	case PV_ERR_CANCELED:      return "cancelled";
	case PV_ERR_REMOVED:       return "pvaultd is not reachable";
	case PV_ERR_PROTOCOL:      return "malformed message";
	case PV_ERR_NOT_LOGGED_IN: return "the key needs the user's login";
	case PV_ERR_PIN_INCORRECT: return "PIN incorrect";
	case PV_ERR_FULL:          return "storage full";
	case PV_ERR_LOCKED:        return "PIN locked after too many failed tries";
	case PV_ERR_INSECURE:      return "a secret file is open to other users";
	case PV_ERR_PASSPHRASE:    return "a passphrase is needed and none was given";
	default:                   return "unknown error";
	}
}
