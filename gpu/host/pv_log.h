/*
 * pv_log.h - logging for the host side of the vault.
 *
 * Messages go to stderr (default) or syslog (PIXELVAULT_LOG=syslog), with a
 * level filter (PIXELVAULT_LOG_LEVEL=err|warn|info|debug, default warn).
 * Rule: never pass a secret, PIN, key byte or plaintext to pv_log; log
 * lengths, ids and error codes only.
 */
#ifndef PV_LOG_H
#define PV_LOG_H

#define PV_LOG_ERR   0
#define PV_LOG_WARN  1
#define PV_LOG_INFO  2
#define PV_LOG_DEBUG 3

void pv_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Override the environment: level and destination (0 stderr, 1 syslog). */
void pv_log_setup(int level, int use_syslog);

/* A short phrase for a PV_ERR_* code, for messages a person reads (never
 * the raw number alone). */
const char *pv_strerror(int err);

#endif
