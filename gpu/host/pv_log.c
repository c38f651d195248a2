/* pv_log.c - stderr/syslog logger with a level filter. */
#include "pv_log.h"

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
