/* pvault_migrate.c - pvault token migrate: a token store of the format
 * before token keys (PIN verifiers, key blobs under the master key alone)
 * made into today's (token/tk_migrate.h), its keys opened with the
 * configured master key file (gpu/client/pv_legacy.h) and sealed again
 * for the token by the vault. */
#include "provisioning/pvault.h"
#include "provisioning/pvault_tk.h"
#include "gpu/client/pv_legacy.h"
#include "gpu/host/pv_conf.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_master.h"
#include "gpu/core/pv_err.h"
#include "token/tk_crypto.h"
#include "token/tk_migrate.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mig_ctx {
	pv_legacy *lg;
	const char *label;
} mig_ctx;

static int mig_key(void *arg, const uint8_t *blob, size_t len, const uint8_t id[16],
                   uint8_t *key, size_t cap, size_t *klen, uint32_t *type, uint32_t *usage,
                   uint32_t *policy)
{
	mig_ctx *c = (mig_ctx *)arg;
	int rc = pv_legacy_key(c->lg, blob, len, id, key, cap, klen, type, usage, policy);

	if (*policy == PV_LEGACY_NO_POLICY)
		*policy = TK_MIG_NO_POLICY;
	return rc;
}

static void mig_progress(void *arg, unsigned long done, unsigned long total)
{
	mig_ctx *c = (mig_ctx *)arg;
	char what[80];
	snprintf(what, sizeof what, "sealing the keys of token '%s' again", c->label);
	pvault_progress(what, done, total);
}

/* The configured master key, opened to read the old blobs; NULL with a
 * message if it cannot be. */
static pv_legacy *mig_master(char fpr[17])
{
	char msg[PV_MASTER_MSG_MAX], *pass = NULL;
	pv_legacy *lg = NULL;
	pv_conf c;
	int rc;

	if (pv_conf_load(&c) != PV_OK) {
		pvault_err("token migrate: cannot use the configuration: the line above names the problem");
		return NULL;
	}
	if (c.master_key[0] == '\0') {
		pvault_err("token migrate: %s", pv_master_explain("", PV_ERR_NOT_FOUND, msg, sizeof msg));
		return NULL;
	}
	if (pv_master_needs_passphrase(c.master_key) == 1) {
		const char *e = getenv("PIXELVAULT_MASTER_PASSPHRASE");
		pass = e && *e ? strdup(e) : pvault_passphrase(NULL, 0);
	}
	rc = pv_legacy_open(c.master_key, pass, &lg);
	pvault_free_secret(pass);
	if (rc != PV_OK) {
		pvault_err("token migrate: the master key must be readable here to open the old "
		           "key blobs: %s", pv_master_explain(c.master_key, rc, msg, sizeof msg));
		return NULL;
	}
	pv_legacy_fpr(lg, fpr);
	return lg;
}

/* Read who's PIN (env or terminal) and check it against the old store. */
static int mig_pin(tk_mig *m, CK_USER_TYPE who, const char *env, char **out)
{
	const char *name = who == CKU_SO ? "SO" : "user";
	char *pin = pvault_secret(env, who == CKU_SO ? "SO PIN: " : "User PIN: ", 0);
	int rc;

	*out = NULL;
	if (pin == NULL) {
		pvault_err("token migrate: no %s PIN given (terminal or %s VAR)", name,
		           who == CKU_SO ? "--so-pin-env" : "--pin-env");
		return -1;
	}
	rc = tk_mig_pin_check(m, who, (const CK_UTF8CHAR *)pin, (CK_ULONG)strlen(pin));
	if (rc != PV_OK) {
		pvault_err("token migrate: %s; nothing was changed", rc == PV_ERR_PIN_INCORRECT ?
		           (who == CKU_SO ? "wrong SO PIN" : "wrong user PIN") : pv_strerror(rc));
		pvault_free_secret(pin);
		return -1;
	}
	*out = pin;
	return 0;
}

static void mig_kept(const tk_mig_info *i)
{
	printf("the old store is kept at %s: it still holds the old PIN verifiers, which "
	       "can be guessed offline without the master key; once the token works, "
	       "delete it (rm -r %s)\n", i->legacy_dir, i->legacy_dir);
}

static int token_migrate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "so-pin-env", required_argument, NULL, 's' },
		{ "pin-env", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 } };
	const char *so_env = NULL, *pin_env = NULL, *d;
	char dir[PV_CONF_PATH_MAX], fpr[17], *so = NULL, *pin = NULL;
	tk_admin_token t;
	tk_mig_info info;
	tk_mig *m = NULL;
	tk_mig_cb cb;
	mig_ctx ctx;
	int c, rc, ret = PVAULT_EXIT_FAIL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 's') so_env = optarg;
		else if (c == 'p') pin_env = optarg;
		else return PVAULT_EXIT_USAGE;
	}
	if (optind != argc - 1) {
		pvault_err("token migrate: exactly one TOKEN (serial or label) expected");
		return PVAULT_EXIT_USAGE;
	}
	if (pvault_token_dir(dir, sizeof dir) || pvault_find_token(argv[optind], &t))
		return 1;
	memset(&ctx, 0, sizeof ctx);
	ctx.label = t.label;
	rc = tk_mig_begin(dir, t.serial, &m, &info);
	if (rc != PV_OK) {
		pvault_err("token migrate: token '%s': %s; nothing was changed", t.label,
		           m != NULL && tk_mig_why(m)[0] ? tk_mig_why(m) : pv_strerror(rc));
		goto out;
	}
	if (info.state == TK_MIG_FINISHED) {
		printf("token '%s' (serial %s): its migration had been interrupted after the "
		       "new store was in place; now finished\n", t.label, t.serial);
		mig_kept(&info);
		ret = 0;
		goto out;
	}
	if (info.state == TK_MIG_CURRENT) {
		pvault_err("token migrate: token '%s' (serial %s) is already in the current format",
		           t.label, t.serial);
		goto out;
	}
	if ((ctx.lg = mig_master(fpr)) == NULL)
		goto out;
	if (mig_pin(m, CKU_SO, so_env, &so) || (info.user_pin_set && mig_pin(m, CKU_USER, pin_env, &pin)))
		goto out;
	memset(&cb, 0, sizeof cb);
	cb.key = mig_key;
	cb.mechs = pv_legacy_mechs;
	cb.arg = &ctx;
	cb.master_fpr = fpr;
	cb.progress = mig_progress;
	if ((d = getenv("PVAULT_TEST_MIGRATE_DELAY_US")) != NULL)
		cb.delay_us = (unsigned)strtoul(d, NULL, 10);
	rc = tk_mig_run(m, (const CK_UTF8CHAR *)so, (CK_ULONG)strlen(so),
	                (const CK_UTF8CHAR *)pin, pin ? (CK_ULONG)strlen(pin) : 0, &cb, &info);
	if (rc != PV_OK) {
		pvault_err("token migrate: token '%s': %s; nothing was changed", t.label,
		           tk_mig_why(m)[0] ? tk_mig_why(m) : pv_strerror(rc));
		goto out;
	}
	printf("token '%s' (serial %s) migrated: new token key and PIN records, %ld key(s) "
	       "sealed again for it under master key %s; same PINs, slot, objects and handles\n",
	       t.label, t.serial, info.nkeys, fpr);
	mig_kept(&info);
	if (info.npublic > 0)
		printf("note: %ld of the keys are not CKA_PRIVATE: any process that opens the token "
		       "may use them without a login, as before\n", info.npublic);
	if (info.had_no_login)
		printf("note: the old store said the token needs no login; nothing authenticated "
		       "that, so it is not carried over: if it is wanted, run `pvault token "
		       "set-login --serial %s none`\n", t.serial);
	ret = 0;
out:
	tk_mig_end(m);
	pv_legacy_close(ctx.lg);
	pvault_free_secret(so);
	pvault_free_secret(pin);
	tk_vault_close();
	return ret;
}

const pv_cmd pv_migrate_cmds[] = {
	{ "token", "migrate", "bring a token made by an older PixelVault to the current format",
	  "pvault token migrate TOKEN [--so-pin-env VAR] [--pin-env VAR]\n\n"
	  "DESCRIPTION\n"
	  "  TOKEN (serial or label) is a store of the format before token keys:\n"
	  "  PINs kept as PBKDF2 verifiers, keys sealed under the master key alone.\n"
	  "  The module refuses such a store.  This command checks the SO PIN (and\n"
	  "  the user PIN, if one is set) against the old verifiers, then builds the\n"
	  "  new store beside the token: a new token key made by the vault, PIN\n"
	  "  records for the same PINs (failure counters cleared), and every key\n"
	  "  opened with the master key file and sealed again for the token with the\n"
	  "  policy its attributes give (CKA_PRIVATE, usage flags, CKA_SENSITIVE,\n"
	  "  CKA_EXTRACTABLE, CKA_TRUSTED, CKA_WRAP_WITH_TRUSTED,\n"
	  "  CKA_ALLOWED_MECHANISMS).  Serial, slot, label, objects and their\n"
	  "  handles stay.  One atomic rename puts the new store in place; until\n"
	  "  then the old one is untouched, and if the command is interrupted (even\n"
	  "  by SIGKILL or a power cut), running it again finishes or restarts it.\n"
	  "  The old store is kept in <token_dir>/.legacy-SERIAL/ (the command says\n"
	  "  where): delete it once the token works, it holds the old verifiers.\n\n"
	  "  Needs the configured master key file, readable by this user\n"
	  "  (PIXELVAULT_MASTER_PASSPHRASE, or the terminal, for a protected one),\n"
	  "  and a vault under that key.  Refused while a process has the token open.\n"
	  "  A wrong PIN changes nothing and is not counted.  A \"no login\" setting\n"
	  "  of the old store is not carried over (`pvault token set-login`).\n\n"
	  "OPTIONS\n"
	  "  --so-pin-env VAR  read the SO PIN from VAR (default: terminal)\n"
	  "  --pin-env VAR     read the user PIN from VAR (default: terminal)\n"
	  "\nEXIT STATUS\n  0 the token is in the current format (migrated now, or an interrupted\n"
	  "  migration finished); 1 failure (a message says why; nothing was changed),\n"
	  "  a token already in the current format included; 2 bad command line.\n"
	  "\nEXAMPLE\n  SO=87654321 PIN=12345678 pvault token migrate web --so-pin-env SO --pin-env PIN\n",
	  token_migrate },
	{ NULL, NULL, NULL, NULL, NULL }
};
