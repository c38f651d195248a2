/* pvault_backup.c - pvault backup | restore (token/tk_backup.h). */
#include "provisioning/pvault.h"
#include "provisioning/pvault_tk.h"
#include "token/tk_backup.h"
#include "gpu/host/pv_conf.h"
#include "gpu/core/pv_err.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int backup_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "token", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 } };
	const char *out = NULL, *token = NULL;
	char dir[PV_CONF_PATH_MAX], why[512];
	tk_admin_token t, *v = NULL;
	tk_backup_info info;
	size_t n = 0;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:t:", opts, NULL)) != -1) {
		if (c == 'o') out = optarg;
		else if (c == 't') token = optarg;
		else return PVAULT_EXIT_USAGE;
	}
	if (!out || optind != argc) {
		pvault_err("backup: --out FILE is required");
		return PVAULT_EXIT_USAGE;
	}
	if (token) {
		if (pvault_find_token(token, &t))
			return 1;
	} else {
		if (pvault_token_dir(dir, sizeof dir))
			return 1;
		rc = tk_admin_list(dir, &v, &n);
		if (rc != PV_OK || n != 1) {
			pvault_err("backup: %s: name the token with --token (%zu tokens)", dir, n);
			free(v);
			return rc != PV_OK ? 1 : PVAULT_EXIT_USAGE;
		}
		t = v[0];
		free(v);
	}
	pvault_progress("backup", 0, 1);
	rc = tk_backup_write(t.dbpath, out, &info, why, sizeof why);
	if (rc != PV_OK) {
		if (pvault_tty())
			fputc('\n', stderr);
		pvault_err("backup: %s", why);
		return 1;
	}
	pvault_progress("backup", 1, 1);
	printf("token '%s' (serial %s, master key %s) backed up to %s (%llu bytes of store)\n",
	       t.label, t.serial, info.master_fpr[0] ? info.master_fpr : "-", out,
	       (unsigned long long)info.len);
	return 0;
}

static int restore_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 } };
	char dir[PV_CONF_PATH_MAX], why[600], fpr[17], when[64];
	const char *mwhy;
	tk_backup_info info;
	struct tm tm;
	time_t ct;
	int c, rc, check = 0, replaced = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'c') check = 1;
		else return PVAULT_EXIT_USAGE;
	}
	if (optind != argc - 1) {
		pvault_err("restore: exactly one backup FILE expected");
		return PVAULT_EXIT_USAGE;
	}
	if (check) {
		rc = tk_backup_check(argv[optind], &info, NULL, why, sizeof why);
		if (rc != PV_OK) {
			pvault_err("restore: %s", why);
			return 1;
		}
		ct = (time_t)info.created;
		gmtime_r(&ct, &tm);
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
		printf("%s: valid backup of token %s, master key %s, made %s, %llu bytes\n",
		       argv[optind], info.serial, info.master_fpr[0] ? info.master_fpr : "-", when,
		       (unsigned long long)info.len);
		return 0;
	}
	if (pvault_token_dir(dir, sizeof dir))
		return 1;
	pvault_master_fpr(fpr, &mwhy);
	if (!fpr[0]) {
		pvault_err("restore: the configured master key cannot be read (%s): a backup is "
		           "only restored under the master key it was made with", mwhy);
		return 1;
	}
	pvault_progress("restore: checking and installing", 0, 2);
	rc = tk_backup_restore(argv[optind], dir, fpr, &info, &replaced, why, sizeof why);
	if (rc != PV_OK) {
		if (pvault_tty())
			fputc('\n', stderr);
		pvault_err("restore: %s", why);
		return 1;
	}
	pvault_progress("restore: checking and installing", 2, 2);
	printf("token %s restored from %s%s\n", info.serial, argv[optind],
	       replaced ? " (the existing token was replaced)" : "");
	return 0;
}

const pv_cmd pv_backup_cmds[] = {
	{ NULL, "backup", "write a backup of a token store",
	  "pvault backup --out FILE [--token TOKEN]\n\n"
	  "DESCRIPTION\n"
	  "  Writes a consistent snapshot of the token's SQLite store (SQLite's online\n"
	  "  backup API: services may keep using the token) to FILE, which must not\n"
	  "  exist (mode 0600).  The file holds PIN verifiers, attributes and key\n"
	  "  blobs wrapped under the master key: it is useless without that key,\n"
	  "  whose fingerprint it records, together with the token serial, a format\n"
	  "  version and a SHA-256 over everything.  Keep the master key and the\n"
	  "  backups apart.\n\n"
	  "OPTIONS\n"
	  "  --out FILE     the backup file\n"
	  "  --token TOKEN  serial or label (optional when there is one token)\n"
	  "\nEXIT STATUS\n  0 success; 1 failure (nothing written); 2 bad command line.\n"
	  "\nEXAMPLE\n  pvault backup --token web --out /srv/backup/web-$(date +%F).pvbk\n",
	  backup_run },
	{ NULL, "restore", "restore a token store from a backup",
	  "pvault restore [--check] FILE\n\n"
	  "DESCRIPTION\n"
	  "  Checks FILE completely before anything is replaced: format version,\n"
	  "  length (a truncated file is refused), SHA-256, that it was made under the\n"
	  "  configured master key (a backup of another vault is refused), SQLite's\n"
	  "  integrity check and the serial inside.  Then writes the store beside the\n"
	  "  token directory, fsyncs it and swaps it in with one atomic rename: the\n"
	  "  token with that serial is replaced (or created).  Stop services using\n"
	  "  the token first: open sessions keep seeing the replaced store.  Objects\n"
	  "  and PIN changes made after the backup are lost.\n\n"
	  "OPTIONS\n"
	  "  --check  only verify FILE (no master key needed) and describe it\n"
	  "\nEXIT STATUS\n  0 success; 1 failure (a message says why; nothing was changed);\n"
	  "  2 bad command line.\n"
	  "\nEXAMPLE\n  pvault restore --check web.pvbk && pvault restore web.pvbk\n",
	  restore_run },
	{ NULL, NULL, NULL, NULL, NULL }
};
