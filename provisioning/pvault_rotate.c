/* pvault_rotate.c - pvault master rotate: every key blob of every token
 * re-sealed under a new master key, inside a vault holding both keys
 * (gpu/client/pv_rewrap.h), one SQLite transaction per token store
 * (tk_admin_rewrap), so a crash leaves each store wholly under one key. */
#include "provisioning/pvault.h"
#include "provisioning/pvault_tk.h"
#include "gpu/client/pv_rewrap.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_master.h"
#include "gpu/host/pv_conf.h"
#include "gpu/core/pv_err.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct rot_ctx {
	pv_rewrap *rw;
	const char *label;
	unsigned delay_us;        /* test hook: PVAULT_TEST_ROTATE_DELAY_US */
	unsigned long keys;
} rot_ctx;

static int rot_fn(void *arg, const uint8_t *blob, size_t len, const uint8_t id[16],
                  uint8_t *out, size_t cap, size_t *out_len)
{
	rot_ctx *c = (rot_ctx *)arg;
	int rc = pv_rewrap_blob(c->rw, blob, len, id, out, cap, out_len);
	if (rc == PV_OK)
		c->keys++;
	if (c->delay_us)
		usleep(c->delay_us);
	return rc;
}

static void rot_progress(void *arg, unsigned long done, unsigned long total)
{
	rot_ctx *c = (rot_ctx *)arg;
	char what[80];
	snprintf(what, sizeof what, "re-wrapping token '%s'", c->label);
	pvault_progress(what, done, total);
}

static int master_rotate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "old", required_argument, NULL, 'o' },
		{ "new", required_argument, NULL, 'n' },
		{ "old-passphrase-env", required_argument, NULL, 'O' },
		{ "new-passphrase-env", required_argument, NULL, 'N' },
		{ "token", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 } };
	const char *oldf = NULL, *newf = NULL, *oenv = NULL, *nenv = NULL, *only = NULL;
	char *opass = NULL, *npass = NULL, ofpr[17], nfpr[17], dir[PV_CONF_PATH_MAX];
	tk_admin_token *v = NULL;
	size_t n = 0, i, done = 0, skipped = 0;
	rot_ctx ctx;
	int c, rc, which, ret = 1;
	const char *d;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'o': oldf = optarg; break;
		case 'n': newf = optarg; break;
		case 'O': oenv = optarg; break;
		case 'N': nenv = optarg; break;
		case 't': only = optarg; break;
		default: return PVAULT_EXIT_USAGE;
		}
	}
	if (!oldf || !newf || optind != argc) {
		pvault_err("master rotate: --old FILE and --new FILE are required");
		return PVAULT_EXIT_USAGE;
	}
	memset(&ctx, 0, sizeof ctx);
	if ((d = getenv("PVAULT_TEST_ROTATE_DELAY_US")) != NULL)
		ctx.delay_us = (unsigned)strtoul(d, NULL, 10);
	if (pv_master_needs_passphrase(oldf) == 1 &&
	    !(opass = pvault_passphrase(oenv, 0))) {
		pvault_err("master rotate: %s is passphrase-protected: give it on a terminal or with --old-passphrase-env VAR", oldf);
		return 1;
	}
	if (pv_master_needs_passphrase(newf) == 1 &&
	    !(npass = pvault_passphrase(nenv, 0))) {
		pvault_err("master rotate: %s is passphrase-protected: give it on a terminal or with --new-passphrase-env VAR", newf);
		pvault_free_secret(opass);
		return 1;
	}
	rc = pv_rewrap_open(oldf, opass, newf, npass, &ctx.rw, &which);
	pvault_free_secret(opass);
	pvault_free_secret(npass);
	if (rc != PV_OK) {
		const char *f = which == 1 ? newf : oldf;
		char msg[PV_MASTER_MSG_MAX];
		if (rc == PV_ERR_IO)
			pvault_err("master rotate: %s: %s", f, strerror(errno));
		else if (rc == PV_ERR_INSECURE)
			pvault_err("master rotate: %s", pv_master_explain(f, rc, msg, sizeof msg));
		else
			pvault_err("master rotate: %s: %s", f, pv_master_strerror(rc));
		return 1;
	}
	pv_rewrap_fprs(ctx.rw, ofpr, nfpr);
	if (!strcmp(ofpr, nfpr)) {
		pvault_err("master rotate: --old and --new are the same key (%s)", ofpr);
		goto out;
	}
	if (pvault_token_dir(dir, sizeof dir))
		goto out;
	rc = tk_admin_list(dir, &v, &n);
	if (rc != PV_OK) {
		pvault_err("master rotate: cannot read %s: %s", dir, pv_strerror(rc));
		goto out;
	}
	/* check everything before changing anything */
	for (i = 0; i < n; i++) {
		if (only && strcmp(only, v[i].serial) && strcmp(only, v[i].label))
			continue;
		if (v[i].master_fpr[0] && strcmp(v[i].master_fpr, ofpr) && strcmp(v[i].master_fpr, nfpr)) {
			pvault_err("master rotate: token '%s' is wrapped under master key %s, neither --old (%s) nor --new (%s)",
			           v[i].label, v[i].master_fpr, ofpr, nfpr);
			goto out;
		}
		if (access(v[i].dir, W_OK | X_OK) != 0) {
			pvault_err("master rotate: token directory %s is not writable by this user", v[i].dir);
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		if (only && strcmp(only, v[i].serial) && strcmp(only, v[i].label))
			continue;
		ctx.label = v[i].label;
		rc = tk_admin_rewrap(v[i].dbpath, ofpr, nfpr, rot_fn, &ctx, rot_progress);
		if (rc == 1) {
			skipped++;
			continue;
		}
		if (rc != PV_OK) {
			pvault_err("master rotate: token '%s': %s; it stays under master key %s (%zu token(s) already rotated)",
			           v[i].label, rc == PV_ERR_WRAPPED ? "a key blob does not open under --old" :
			           rc == PV_ERR_BUSY ? "the store is busy" : rc == PV_ERR_PERM ?
			           "the store is not writable" : "store error", ofpr, done);
			goto out;
		}
		done++;
	}
	printf("rotated %zu token(s), %lu key(s) from master key %s to %s", done, ctx.keys, ofpr, nfpr);
	if (skipped)
		printf(" (%zu already under the new key)", skipped);
	printf("\nnow set master_key = %s in pixelvault.conf and restart the vault\n", newf);
	ret = 0;
out:
	free(v);
	pv_rewrap_close(ctx.rw);
	return ret;
}

const pv_cmd pv_rotate_cmds[] = {
	{ "master", "rotate", "re-wrap every token key under a new master key",
	  "pvault master rotate --old FILE --new FILE [--token TOKEN]\n"
	  "                            [--old-passphrase-env VAR] [--new-passphrase-env VAR]\n\n"
	  "DESCRIPTION\n"
	  "  Loads both master keys into a vault that holds them for the duration\n"
	  "  of the command, and re-seals every key blob of every token (or of TOKEN)\n"
	  "  from the old key to the new one inside that vault: no key is written\n"
	  "  or shown in plaintext.  Each token store changes in ONE transaction that\n"
	  "  also records the new key's fingerprint, so if the command is interrupted\n"
	  "  (even by SIGKILL or a power cut) every token is wholly under one of the\n"
	  "  two keys; `pvault status` and `pvault token list` say which, and running\n"
	  "  the command again finishes the rest (tokens already under --new are\n"
	  "  skipped).  Before anything changes, every token is checked to be under\n"
	  "  --old or --new and writable.  Afterwards point master_key in\n"
	  "  pixelvault.conf at the new file; keep the old one until you have checked\n"
	  "  the tokens, then destroy it (and backups made under it need it).\n"
	  "  Progress is shown on a terminal.\n\n"
	  "OPTIONS\n"
	  "  --old FILE                 the master key the tokens are under now\n"
	  "  --new FILE                 the new master key (pvault master new)\n"
	  "  --token TOKEN              rotate only this token (serial or label)\n"
	  "  --old-passphrase-env VAR   passphrase of a protected --old file\n"
	  "  --new-passphrase-env VAR   passphrase of a protected --new file\n"
	  "                             (default for both: asked on the terminal)\n"
	  "\nEXIT STATUS\n  0 every token is under the new key; 1 failure (a message says which\n"
	  "  tokens are under which key; nothing else changed); 2 bad command line.\n"
	  "\nEXAMPLE\n  pvault master new --out /media/key/master-2027.key\n"
	  "  pvault master rotate --old /media/key/master.key --new /media/key/master-2027.key\n",
	  master_rotate },
	{ NULL, NULL, NULL, NULL, NULL }
};
