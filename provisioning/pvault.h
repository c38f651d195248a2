/* pvault.h - shared declarations of the pvault CLI's command files. */
#ifndef PVAULT_H
#define PVAULT_H

typedef struct pv_cmd {
	const char *group;      /* "master", "token", ... or NULL for top level */
	const char *name;
	const char *summary;
	const char *usage;      /* full --help text after the usage line */
	int (*run)(int argc, char **argv);
} pv_cmd;

extern const pv_cmd pv_master_cmds[];

/* Helpers shared by command files. */
int pvault_is_help(const char *arg);
void pvault_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Read a passphrase: from the environment variable named by env if set,
 * else from the terminal (twice when confirm).  Returns a malloc'd string
 * or NULL (no passphrase wanted / no terminal). */
char *pvault_passphrase(const char *env, int confirm);

#endif
