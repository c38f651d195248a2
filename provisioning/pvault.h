/* pvault.h - shared declarations of the pvault CLI's command files. */
#ifndef PVAULT_H
#define PVAULT_H

#include <stddef.h>

typedef struct pv_cmd {
	const char *group;      /* "master", "token", ... or NULL for top level */
	const char *name;
	const char *summary;
	const char *usage;      /* full --help text after the usage line */
	int (*run)(int argc, char **argv);
} pv_cmd;

extern const pv_cmd pv_master_cmds[];
extern const pv_cmd pv_rotate_cmds[];
extern const pv_cmd pv_token_cmds[];
extern const pv_cmd pv_migrate_cmds[];
extern const pv_cmd pv_key_cmds[];
extern const pv_cmd pv_status_cmds[];
extern const pv_cmd pv_backup_cmds[];
extern const pv_cmd pv_bench_cmds[];

/* Helpers shared by command files. */
int pvault_is_help(const char *arg);
void pvault_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Read a passphrase: from the environment variable named by env if set,
 * else from the terminal (twice when confirm).  Returns a malloc'd string
 * or NULL (no passphrase wanted / no terminal). */
char *pvault_passphrase(const char *env, int confirm);

/* Read a secret (PIN): from the environment variable env if given (an
 * unset or empty variable is an error: NULL), else from the terminal with
 * prompt (asked twice when confirm).  malloc'd; free with pvault_free_secret. */
char *pvault_secret(const char *env, const char *prompt, int confirm);
void pvault_free_secret(char *s);
/* 1 when stderr is a terminal: progress lines are shown only then. */
int pvault_tty(void);
/* Progress on a terminal: "\rwhat: done/total"; a final newline when done == total. */
void pvault_progress(const char *what, unsigned long done, unsigned long total);
/* Parse hex (even length) into a malloc'd buffer; NULL on error. */
unsigned char *pvault_unhex(const char *hex, size_t *len);

/* Exit statuses (documented in every --help). */
#define PVAULT_EXIT_OK     0
#define PVAULT_EXIT_FAIL   1   /* the operation failed; nothing was changed */
#define PVAULT_EXIT_USAGE  2   /* bad command line                          */

#endif
