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
	if (rc == PV_OK)
		pv_master_fingerprint(key, fpr);
	kc_wipe(key, sizeof key);
	if (pass) {
		kc_wipe(pass, strlen(pass));
		free(pass);
	}
	if (rc == PV_ERR_PERM || rc == PV_ERR_IO) {
		pvault_err("master new: %s: %s", out, strerror(errno));
		return 1;
	}
	if (rc != PV_OK) {
		pvault_err("master new: %s: %s", out, pv_master_strerror(rc));
		return 1;
	}
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
	int c, rc;

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
	if (rc == PV_OK)
		pv_master_fingerprint(key, fpr);
	kc_wipe(key, sizeof key);
	if (pass) {
		kc_wipe(pass, strlen(pass));
		free(pass);
	}
	if (rc == PV_ERR_PERM && pass == NULL) {
		pvault_err("master check: %s is passphrase-protected: give it on a terminal or with --passphrase-env VAR", file);
		return 1;
	}
	if (rc == PV_ERR_IO || rc == PV_ERR_PERM) {
		pvault_err("master check: %s: %s", file, strerror(errno));
		return 1;
	}
	if (rc != PV_OK) {
		pvault_err("master check: %s: %s", file, pv_master_strerror(rc));
		return 1;
	}
	printf("%s: valid master key, fingerprint %s\n", file, fpr);
	return 0;
}

const pv_cmd pv_master_cmds[] = {
	{ "master", "new", "generate a new 256-bit master key file",
	  "pvault master new --out FILE [--passphrase | --passphrase-env VAR]\n\n"
	  "Writes a new random master key to FILE (which must not exist) with mode 0400.\n"
	  "The file is versioned and checksummed.  With --passphrase (asked on the\n"
	  "terminal) or --passphrase-env VAR (read from the environment), the key is\n"
	  "encrypted with AES-256-GCM under PBKDF2-HMAC-SHA256 (600,000 iterations).\n"
	  "Prints the key's fingerprint, which `pvault status` shows for the running vault.\n",
	  master_new },
	{ "master", "check", "verify a master key file and print its fingerprint",
	  "pvault master check [--passphrase-env VAR] FILE\n\n"
	  "Checks the format and checksum of FILE and, for a protected file, the\n"
	  "passphrase (asked on the terminal or read from VAR).  Exit status 0 when valid.\n",
	  master_check },
	{ NULL, NULL, NULL, NULL, NULL }
};
