/* pvault_master.c - pvault master new | check. */
#include "provisioning/pvault.h"
#include "gpu/host/pv_master.h"
#include "gpu/core/pv_err.h"
#include "gpu/core/kc_util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* After reading or writing the key: its fingerprint into fpr when rc is
 * PV_OK; the key wiped, the passphrase (if any) wiped and freed. */
static void master_done(int rc, uint8_t key[PV_MASTER_KEY_LEN],
                        char fpr[PV_MASTER_FPR_LEN], char *pass)
{
	if (rc == PV_OK)
		pv_master_fingerprint(key, fpr);
	kc_wipe(key, PV_MASTER_KEY_LEN);
	if (pass) {
		kc_wipe(pass, strlen(pass));
		free(pass);
	}
}

/* Report a failed rc for file under cmd: 1; PV_OK: 0.  A file open to
 * others gets the vault's own message (pv_master_explain), the one the
 * module and pvaultd log when they refuse it. */
static int master_failed(const char *cmd, const char *file, int rc)
{
	char msg[PV_MASTER_MSG_MAX];

	if (rc == PV_ERR_INSECURE) {
		pvault_err("%s: %s", cmd, pv_master_explain(file, rc, msg, sizeof msg));
		return 1;
	}
	if (rc == PV_ERR_PERM || rc == PV_ERR_IO) {
		pvault_err("%s: %s: %s", cmd, file, strerror(errno));
		return 1;
	}
	if (rc != PV_OK) {
		pvault_err("%s: %s: %s", cmd, file, pv_master_strerror(rc));
		return 1;
	}
	return 0;
}

static int master_new(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "passphrase", no_argument, NULL, 'p' },
		{ "passphrase-env", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 } };
	const char *out = NULL, *env = NULL;
	int want_pass = 0, c, rc;
	uint8_t key[PV_MASTER_KEY_LEN];
	char fpr[PV_MASTER_FPR_LEN];
	char *pass = NULL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		if (c == 'o') out = optarg;
		else if (c == 'p') want_pass = 1;
		else if (c == 'e') { env = optarg; want_pass = 1; }
		else return 2;
	}
	if (!out) {
		pvault_err("master new: --out FILE is required");
		return 2;
	}
	if (want_pass) {
		pass = pvault_passphrase(env, 1);
		if (!pass) {
			pvault_err("master new: no passphrase given");
			return 1;
		}
	}
	rc = pv_master_generate(key);
	if (rc == PV_OK)
		rc = pv_master_write(out, key, pass);
	master_done(rc, key, fpr, pass);
	if (master_failed("master new", out, rc))
		return 1;
	printf("master key written to %s (mode 0400%s), fingerprint %s\n", out,
	       want_pass ? ", passphrase-protected" : "", fpr);
	printf("keep it on removable media; without it the token store cannot be opened\n");
	return 0;
}

static int master_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "passphrase-env", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 } };
	const char *env = NULL, *file;
	uint8_t key[PV_MASTER_KEY_LEN];
	char fpr[PV_MASTER_FPR_LEN];
	char *pass = NULL;
	int c, rc, had_pass;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'e') env = optarg;
		else return 2;
	}
	if (optind != argc - 1) {
		pvault_err("master check: exactly one FILE expected");
		return 2;
	}
	file = argv[optind];
	rc = pv_master_needs_passphrase(file);
	if (rc == 1) {
		pass = pvault_passphrase(env, 0);
		rc = pv_master_read(file, pass, key);
	} else if (rc == 0) {
		rc = pv_master_read(file, NULL, key);
	}
	had_pass = pass != NULL;
	master_done(rc, key, fpr, pass);
	if (rc == PV_ERR_PASSPHRASE && !had_pass) {
		pvault_err("master check: %s is passphrase-protected: give it on a terminal or with --passphrase-env VAR", file);
		return 1;
	}
	if (master_failed("master check", file, rc))
		return 1;
	printf("%s: valid master key, fingerprint %s\n", file, fpr);
	return 0;
}

const pv_cmd pv_master_cmds[] = {
	{ "master", "new", "generate a new 256-bit master key file",
	  "pvault master new --out FILE [--passphrase | --passphrase-env VAR]\n\n"
	  "DESCRIPTION\n"
	  "  Writes a new random 256-bit master key to FILE (which must not exist)\n"
	  "  with mode 0400, in a versioned format with a checksum, and prints its\n"
	  "  fingerprint (what `pvault status` and `pvault token list` show).  Keep it\n"
	  "  on removable media, with a second copy stored apart from the backups.\n\n"
	  "OPTIONS\n"
	  "  --out FILE            the new key file\n"
	  "  --passphrase          protect the key with a passphrase asked twice on the\n"
	  "                        terminal: AES-256-GCM under PBKDF2-HMAC-SHA256\n"
	  "                        (600,000 iterations); the vault then needs\n"
	  "                        PIXELVAULT_MASTER_PASSPHRASE\n"
	  "  --passphrase-env VAR  the same, passphrase read from environment variable VAR\n"
	  "\nEXIT STATUS\n  0 success; 1 failure (nothing written); 2 bad command line.\n"
	  "\nEXAMPLE\n  pvault master new --out /media/vaultkey/master.key --passphrase\n",
	  master_new },
	{ "master", "check", "verify a master key file and print its fingerprint",
	  "pvault master check [--passphrase-env VAR] FILE\n\n"
	  "DESCRIPTION\n"
	  "  Checks the format and checksum of FILE and, for a protected file, the\n"
	  "  passphrase, then prints the key's fingerprint.  Tells a corrupted file\n"
	  "  from a wrong passphrase.  Refuses, as the vault does, a file that group\n"
	  "  or others may access or that belongs to another user than the caller\n"
	  "  and root, and says the command that fixes it.\n\n"
	  "OPTIONS\n"
	  "  --passphrase-env VAR  read the passphrase from VAR (default: terminal)\n"
	  "\nEXIT STATUS\n  0 valid; 1 unreadable, open to other users, corrupted or wrong\n"
	  "  passphrase (one message says which); 2 bad command line.\n"
	  "\nEXAMPLE\n  pvault master check /media/vaultkey/master.key\n",
	  master_check },
	{ NULL, NULL, NULL, NULL, NULL }
};
