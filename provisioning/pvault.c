/* pvault.c - the operator's CLI: dispatch and shared helpers. */
#include "provisioning/pvault.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static const pv_cmd *const tables[] = { pv_status_cmds, pv_master_cmds, pv_rotate_cmds,
					  pv_token_cmds, pv_migrate_cmds,
					  pv_key_cmds, pv_backup_cmds, pv_bench_cmds, NULL };

void pvault_err(const char *fmt, ...)
{
	va_list ap;
	fputs("pvault: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int pvault_is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h") || !strcmp(arg, "help");
}

static char *read_tty(const char *prompt)
{
	struct termios old, quiet;
	char buf[512];
	FILE *tty = fopen("/dev/tty", "r+");
	char *res = NULL;
	if (!tty)
		return NULL;
	fputs(prompt, tty);
	fflush(tty);
	if (tcgetattr(fileno(tty), &old) == 0) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		tcsetattr(fileno(tty), TCSAFLUSH, &quiet);
	}
	if (fgets(buf, sizeof buf, tty)) {
		buf[strcspn(buf, "\r\n")] = 0;
		res = strdup(buf);
	}
	tcsetattr(fileno(tty), TCSAFLUSH, &old);
	fputc('\n', tty);
	fclose(tty);
	memset(buf, 0, sizeof buf);
	return res;
}

char *pvault_passphrase(const char *env, int confirm)
{
	char *a, *b;
	if (env) {
		const char *v = getenv(env);
		return v && *v ? strdup(v) : NULL;
	}
	a = read_tty("Master key passphrase: ");
	if (!a || !*a || !confirm)
		return a;
	b = read_tty("Repeat passphrase: ");
	if (!b || strcmp(a, b) != 0) {
		pvault_err("passphrases do not match");
		free(a);
		a = NULL;
	}
	free(b);
	return a;
}

char *pvault_secret(const char *env, const char *prompt, int confirm)
{
	char *a, *b, rep[160];
	if (env) {
		const char *v = getenv(env);
		return v && *v ? strdup(v) : NULL;
	}
	a = read_tty(prompt);
	if (!a || !*a || !confirm)
		return a;
	snprintf(rep, sizeof rep, "Repeat %s", prompt);
	b = read_tty(rep);
	if (!b || strcmp(a, b) != 0) {
		pvault_err("the two entries do not match");
		pvault_free_secret(a);
		a = NULL;
	}
	pvault_free_secret(b);
	return a;
}

void pvault_free_secret(char *s)
{
	if (s) {
		volatile char *p = s;
		while (*p)
			*p++ = 0;
		free(s);
	}
}

int pvault_tty(void)
{
	return isatty(STDERR_FILENO);
}

void pvault_progress(const char *what, unsigned long done, unsigned long total)
{
	if (!pvault_tty())
		return;
	fprintf(stderr, "\r%s: %lu/%lu", what, done, total);
	if (done >= total)
		fputc('\n', stderr);
	fflush(stderr);
}

unsigned char *pvault_unhex(const char *hex, size_t *len)
{
	size_t n = strlen(hex), i;
	unsigned char *b;
	if (n == 0 || n % 2)
		return NULL;
	b = malloc(n / 2);
	if (!b)
		return NULL;
	for (i = 0; i < n / 2; i++) {
		unsigned v = 0;
		int k;
		for (k = 0; k < 2; k++) {
			char c = hex[2 * i + k];
			v <<= 4;
			if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
			else { free(b); return NULL; }
		}
		b[i] = (unsigned char)v;
	}
	*len = n / 2;
	return b;
}

static void usage(FILE *f)
{
	const pv_cmd *const *t;
	const pv_cmd *c;
	fprintf(f, "usage: pvault COMMAND [SUBCOMMAND] [OPTIONS]\n\n"
	           "DESCRIPTION\n"
	           "  Provision and operate a PixelVault token store: master key, tokens,\n"
	           "  keys, master key rotation, backup and restore, status; measure the\n"
	           "  token on this host (bench).\n"
	           "  docs/operations.md walks through a whole installation.\n\n"
	           "COMMANDS\n");
	for (t = tables; *t; t++)
		for (c = *t; c->name; c++)
			fprintf(f, "  %-7s %-8s %s\n", c->group ? c->group : "", c->name, c->summary);
	fprintf(f, "\n  `pvault COMMAND [SUBCOMMAND] --help` describes each command.\n\n"
	           "ENVIRONMENT\n"
	           "  PIXELVAULT_CONF               configuration file (default\n"
	           "                                ~/.config/pixelvault/pixelvault.conf)\n"
	           "  PIXELVAULT_MASTER_PASSPHRASE  passphrase of a protected master key file\n\n"
	           "EXIT STATUS\n"
	           "  0 success; 1 the operation failed (one message on stderr says why, and\n"
	           "  nothing on disk was changed); 2 bad command line.\n\n"
	           "EXAMPLE\n"
	           "  pvault master new --out /media/vaultkey/master.key\n"
	           "  pvault token init --label web\n"
	           "  pvault key import --token web --type aes --in aes.key --label k1 --id 01\n"
	           "  pvault status\n");
}

int main(int argc, char **argv)
{
	const pv_cmd *const *t;
	const pv_cmd *c;
	int i;

	if (argc < 2 || pvault_is_help(argv[1])) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("pvault (PixelVault) %s\n", PV_VERSION);
		return 0;
	}
	for (t = tables; *t; t++)
		for (c = *t; c->name; c++) {
			int shift;
			if (c->group) {
				if (strcmp(argv[1], c->group) || argc < 3 || strcmp(argv[2], c->name))
					continue;
				shift = 2;
			} else {
				if (strcmp(argv[1], c->name))
					continue;
				shift = 1;
			}
			for (i = shift + 1; i < argc; i++)
				if (pvault_is_help(argv[i])) {
					printf("usage: %s\n", c->usage);
					return 0;
				}
			return c->run(argc - shift, argv + shift);
		}
	/* group given without a known subcommand: list the group */
	i = 0;
	for (t = tables; *t; t++)
		for (c = *t; c->name; c++)
			if (c->group && !strcmp(argv[1], c->group)) {
				if (i++ == 0)
					fprintf(stderr, "usage: pvault %s SUBCOMMAND [OPTIONS]\n", c->group);
				fprintf(stderr, "  %-8s %s\n", c->name, c->summary);
			}
	if (i) {
		if (argc >= 3 && !pvault_is_help(argv[2]))
			pvault_err("unknown subcommand '%s %s'", argv[1], argv[2]);
		return 2;
	}
	pvault_err("unknown command '%s' (see pvault --help)", argv[1]);
	return 2;
}
