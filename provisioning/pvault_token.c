/* pvault_token.c - pvault token init | list | info | set-login | delete,
 * and the token-layer helpers of pvault_tk.h. */
#include "provisioning/pvault.h"
#include "provisioning/pvault_tk.h"
#include "gpu/host/pv_conf.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_master.h"
#include "gpu/core/pv_err.h"
#include "gpu/core/kc_util.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers (pvault_tk.h) ---- */
const char *pvault_ckr(CK_RV rv)
{
	switch (rv) {
	case CKR_OK: return "ok";
	case CKR_PIN_INCORRECT: return "wrong PIN";
	case CKR_PIN_LOCKED: return "PIN locked after too many failed tries";
	case CKR_DEVICE_MEMORY: return "the token store's file system is full (free space, then try again)";
	case CKR_PIN_LEN_RANGE: return "PIN length out of range (4..255)";
	case CKR_DEVICE_ERROR: return "vault or store error (is the vault sealed? see pvault status)";
	case CKR_FUNCTION_FAILED: return "store busy or not writable";
	case CKR_ATTRIBUTE_VALUE_INVALID: return "attribute value invalid";
	case CKR_TEMPLATE_INCONSISTENT: return "template inconsistent";
	case CKR_TEMPLATE_INCOMPLETE: return "template incomplete";
	case CKR_KEY_SIZE_RANGE: return "key size out of range";
	case CKR_TOKEN_NOT_PRESENT: return "token not present";
	case CKR_SLOT_ID_INVALID: return "no such slot";
	case CKR_USER_NOT_LOGGED_IN: return "not logged in";
	case CKR_HOST_MEMORY: return "out of memory";
	default: return "PKCS#11 error";
	}
}

int pvault_token_dir(char *out, size_t cap)
{
	int rc = tk_admin_token_dir(out, cap);
	if (rc != PV_OK) {
		pvault_err("cannot use the configuration (%s): the line above names the problem",
		           pv_strerror(rc));
		return -1;
	}
	return 0;
}

int pvault_find_token(const char *name, tk_admin_token *t)
{
	char dir[PV_CONF_PATH_MAX];
	int rc;
	if (pvault_token_dir(dir, sizeof dir))
		return -1;
	rc = tk_admin_find(dir, name, t);
	if (rc == PV_ERR_NOT_FOUND)
		pvault_err("no token with serial or label '%s' in %s", name, dir);
	else if (rc == PV_ERR_ARGS)
		pvault_err("several tokens are labelled '%s': name one by its serial", name);
	else if (rc != PV_OK)
		pvault_err("cannot read token directory %s: %s", dir, pv_strerror(rc));
	return rc == PV_OK ? 0 : -1;
}

int pvault_tk_slot(const char *serial, CK_SLOT_ID *slot)
{
	CK_SLOT_ID ids[256];
	CK_ULONG n = 256, i;
	CK_TOKEN_INFO ti;
	CK_RV rv = tk_initialize(NULL, 0);

	if (rv != CKR_OK) {
		pvault_err("token layer: %s (0x%lx)", pvault_ckr(rv), (unsigned long)rv);
		return -1;
	}
	rv = tk_slot_list(CK_TRUE, ids, &n);
	for (i = 0; rv == CKR_OK && i < n; i++)
		if (tk_token_info(ids[i], &ti) == CKR_OK &&
		    (ti.flags & CKF_TOKEN_INITIALIZED) &&
		    !memcmp(ti.serialNumber, serial, strlen(serial) < 16 ? strlen(serial) : 16)) {
			*slot = ids[i];
			return 0;
		}
	pvault_err("token %s: no slot found", serial);
	tk_finalize();
	return -1;
}

int pvault_tk_login(CK_SLOT_ID slot, CK_USER_TYPE who, const char *pin,
                    CK_SESSION_HANDLE *s)
{
	CK_RV rv = tk_open_session(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, s);
	if (rv == CKR_OK)
		rv = tk_login(*s, who, (const CK_UTF8CHAR *)pin, (CK_ULONG)strlen(pin));
	if (rv == CKR_PIN_LOCKED && who == CKU_USER) {
		pvault_err("login as user: %s; %s", pvault_ckr(rv), TK_USER_UNLOCK);
		return -1;
	}
	if (rv == CKR_PIN_LOCKED) {
		pvault_err("login as SO: %s; %s", pvault_ckr(rv), TK_SO_LOCKED);
		return -1;
	}
	if (rv != CKR_OK) {
		pvault_err("login as %s: %s", who == CKU_SO ? "SO" : "user", pvault_ckr(rv));
		return -1;
	}
	return 0;
}

void pvault_master_fpr(char fpr[17], const char **why)
{
	static char msg[PV_MASTER_MSG_MAX];      /* *why may point here */
	pv_conf c;
	uint8_t key[PV_MASTER_KEY_LEN];
	int rc;

	fpr[0] = '\0';
	*why = "no configuration";
	if (pv_conf_load(&c) != PV_OK)
		return;
	rc = pv_master_load(c.master_key, key);     /* as the vault boots */
	if (rc == PV_OK)
		pv_master_fingerprint(key, fpr);
	else
		*why = pv_master_explain(c.master_key, rc, msg, sizeof msg);
	kc_wipe(key, sizeof key);
}

/* ---- token init ---- */
static int dir_writable(const char *dir)
{
	char parent[PV_CONF_PATH_MAX], *sl;
	if (access(dir, F_OK) == 0)
		return access(dir, W_OK | X_OK) == 0;
	snprintf(parent, sizeof parent, "%s", dir);
	sl = strrchr(parent, '/');
	if (sl == NULL)
		return access(".", W_OK) == 0;
	if (sl == parent)
		sl[1] = '\0';
	else
		*sl = '\0';
	return dir_writable(parent);
}

static int token_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "so-pin-env", required_argument, NULL, 's' },
		{ "pin-env", required_argument, NULL, 'p' },
		{ "owner", required_argument, NULL, 'o' },
		{ "group", required_argument, NULL, 'g' },
		{ "no-login", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 } };
	const char *label = NULL, *so_env = NULL, *pin_env = NULL, *owner = NULL, *group = NULL;
	char dir[PV_CONF_PATH_MAX], fpr[17], serial[17];
	const char *why;
	char *so = NULL, *pin = NULL;
	uid_t uid = (uid_t)-1;
	gid_t gid = (gid_t)-1;
	CK_SLOT_ID ids[256], slot = 0;
	CK_ULONG n = 256, i;
	CK_TOKEN_INFO ti;
	CK_SESSION_HANDLE s;
	CK_UTF8CHAR lab[32];
	tk_admin_token t;
	CK_RV rv;
	int c, found = 0, ret = PVAULT_EXIT_FAIL, made = 0, no_login = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "l:", opts, NULL)) != -1) {
		switch (c) {
		case 'l': label = optarg; break;
		case 's': so_env = optarg; break;
		case 'p': pin_env = optarg; break;
		case 'o': owner = optarg; break;
		case 'g': group = optarg; break;
		case 'n': no_login = 1; break;
		default: return PVAULT_EXIT_USAGE;
		}
	}
	if (!label || !*label || strlen(label) > 32) {
		pvault_err("token init: --label LABEL (1 to 32 bytes) is required");
		return PVAULT_EXIT_USAGE;
	}
	if (owner) {
		struct passwd *pw = getpwnam(owner);
		if (!pw) { pvault_err("token init: no such user '%s'", owner); return 1; }
		uid = pw->pw_uid;
	}
	if (group) {
		struct group *gr = getgrnam(group);
		if (!gr) { pvault_err("token init: no such group '%s'", group); return 1; }
		gid = gr->gr_gid;
	}
	if ((owner && uid != geteuid() && geteuid() != 0)) {
		pvault_err("token init: only root can give a token to another owner");
		return 1;
	}
	if (pvault_token_dir(dir, sizeof dir))
		return 1;
	if (!dir_writable(dir)) {
		pvault_err("token init: token directory %s is not writable by this user", dir);
		return 1;
	}
	if (tk_admin_find(dir, label, &t) != PV_ERR_NOT_FOUND) {
		pvault_err("token init: a token labelled '%s' already exists (serial %s)", label, t.serial);
		return 1;
	}
	pvault_master_fpr(fpr, &why);
	if (!fpr[0]) {
		pvault_err("token init: the vault has no usable master key: %s", why);
		return 1;
	}
	so = pvault_secret(so_env, "SO PIN: ", 1);
	if (!so) {
		pvault_err("token init: no SO PIN given (terminal or --so-pin-env VAR)");
		goto out;
	}
	pin = pvault_secret(pin_env, "User PIN: ", 1);
	if (!pin) {
		pvault_err("token init: no user PIN given (terminal or --pin-env VAR)");
		goto out;
	}
	if (strlen(so) < TK_PIN_MIN || strlen(so) > TK_PIN_MAX ||
	    strlen(pin) < TK_PIN_MIN || strlen(pin) > TK_PIN_MAX) {
		pvault_err("token init: PINs must be %d to %d bytes", TK_PIN_MIN, TK_PIN_MAX);
		goto out;
	}
	rv = tk_initialize(NULL, 0);
	if (rv == CKR_OK)
		rv = tk_slot_list(CK_TRUE, ids, &n);
	for (i = 0; rv == CKR_OK && i < n && !found; i++)
		if (tk_token_info(ids[i], &ti) == CKR_OK && !(ti.flags & CKF_TOKEN_INITIALIZED)) {
			slot = ids[i];
			found = 1;
		}
	if (rv != CKR_OK || !found) {
		pvault_err("token init: no free slot (%s)", pvault_ckr(rv));
		goto fin;
	}
	memset(lab, ' ', sizeof lab);
	memcpy(lab, label, strlen(label));
	rv = tk_init_token(slot, (const CK_UTF8CHAR *)so, (CK_ULONG)strlen(so), lab);
	if (rv != CKR_OK) {
		pvault_err("token init: %s", pvault_ckr(rv));
		goto fin;
	}
	made = 1;
	rv = tk_token_info(slot, &ti);
	memcpy(serial, ti.serialNumber, 16);
	serial[16] = '\0';
	if (rv != CKR_OK || pvault_tk_login(slot, CKU_SO, so, &s))
		goto fin;
	rv = tk_init_pin(s, (const CK_UTF8CHAR *)pin, (CK_ULONG)strlen(pin));
	if (rv == CKR_OK && no_login)
		rv = tk_set_no_login(s, 1);      /* the vault's "no login" record */
	tk_logout(s);
	tk_close_session(s);
	if (rv != CKR_OK) {
		pvault_err("token init: setting the user PIN: %s", pvault_ckr(rv));
		goto fin;
	}
	{
		char db[PV_CONF_PATH_MAX + 40];
		const char *k[3] = { "master_fpr", "owner", "group" };
		const char *v[3];
		size_t nk = 1;
		int rc;
		v[0] = fpr;
		if (owner) { k[nk] = "owner"; v[nk++] = owner; }
		if (group) { k[nk] = "group"; v[nk++] = group; }
		snprintf(db, sizeof db, "%s/%s/token.db", dir, serial);
		rc = tk_admin_meta_set(db, k, v, nk);
		if (rc != PV_OK) {
			pvault_err("token init: recording the master key fingerprint: %s", pv_strerror(rc));
			goto fin;
		}
		if (owner || group) {
			char d2[PV_CONF_PATH_MAX + 20], f[PV_CONF_PATH_MAX + 40];
			static const char *const files[] = { "token.db", "token.db-wal", "token.db-shm", NULL };
			const char *const *fp;
			snprintf(d2, sizeof d2, "%s/%s", dir, serial);
			if (chown(d2, uid, gid) != 0) {
				pvault_err("token init: chown %s: %s", d2, strerror(errno));
				goto fin;
			}
			for (fp = files; *fp; fp++) {
				snprintf(f, sizeof f, "%s/%s", d2, *fp);
				if (access(f, F_OK) == 0 && group)
					chmod(f, 0660);
				if (access(f, F_OK) == 0 && chown(f, uid, gid) != 0) {
					pvault_err("token init: chown %s: %s", f, strerror(errno));
					goto fin;
				}
			}
			if (group)
				chmod(d2, 02770);
		}
	}
	printf("token '%s' initialised: serial %s, slot %lu, master key %s%s\n", label, serial,
	       (unsigned long)slot, fpr, no_login ? "; no login required" : "");
	ret = 0;
	made = 0;
fin:
	tk_finalize();
	if (made && ret != 0)
		tk_admin_delete(dir, serial);   /* leave nothing half made */
out:
	pvault_free_secret(so);
	pvault_free_secret(pin);
	return ret;
}

/* ---- token list / info ---- */
static int token_list(int argc, char **argv)
{
	char dir[PV_CONF_PATH_MAX];
	tk_admin_token *v;
	size_t n, i;
	int rc;

	if (argc > 1) {
		pvault_err("token list: no arguments expected");
		return PVAULT_EXIT_USAGE;
	}
	if (pvault_token_dir(dir, sizeof dir))
		return 1;
	rc = tk_admin_list(dir, &v, &n);
	if (rc != PV_OK) {
		pvault_err("token list: cannot read %s: %s", dir, pv_strerror(rc));
		return 1;
	}
	printf("%-4s %-16s %-32s %7s  %s\n", "SLOT", "SERIAL", "LABEL", "OBJECTS", "MASTER KEY");
	for (i = 0; i < n; i++)
		printf("%-4ld %-16s %-32s %7ld  %s%s%s\n", v[i].slot_no, v[i].serial, v[i].label,
		       v[i].nobjects, v[i].master_fpr[0] ? v[i].master_fpr : "(not recorded)",
		       v[i].read_only ? "  (read-only for this user)" : "",
		       v[i].legacy ? "  (older format: pvault token migrate)" : "");
	free(v);
	return 0;
}

static int token_info(int argc, char **argv)
{
	tk_admin_token t;
	char when[64];
	struct tm tm;
	time_t ct;

	if (argc != 2) {
		pvault_err("token info: exactly one TOKEN (serial or label) expected");
		return PVAULT_EXIT_USAGE;
	}
	if (pvault_find_token(argv[1], &t))
		return 1;
	ct = (time_t)t.created;
	gmtime_r(&ct, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("label:        %s\nserial:       %s\nslot:         %ld\ndirectory:    %s%s\n"
	       "created:      %s\nchanges:      %lld\n", t.label, t.serial, t.slot_no, t.dir,
	       t.read_only ? " (read-only for this user: no login possible)" : "",
	       when, (long long)t.changes);
	if (t.legacy)
		printf("format:       older (PIN verifiers, keys under the master key alone): the "
		       "module refuses it; `pvault token migrate %s` converts it\n", t.serial);
	if (t.user_pin_set && t.user_fails >= TK_PIN_MAX_FAILS)
		printf("user PIN:     set, locked (%d failed tries): %s\n", t.user_fails,
		       TK_USER_UNLOCK);
	else
		printf("user PIN:     %s (failed tries %d)\n",
		       t.user_pin_set ? "set" : "not set", t.user_fails);
	if (t.so_fails >= TK_PIN_MAX_FAILS)
		printf("SO PIN:       locked (%d failed tries): %s\n", t.so_fails,
		       TK_SO_LOCKED);
	else
		printf("SO PIN:       failed tries %d\n", t.so_fails);
	printf("login:        %s\n", t.no_login ?
	       "not required (--no-login: private keys usable without the user PIN)" : "required");
	printf("owner/group:  %s/%s\n", t.owner[0] ? t.owner : "-", t.group[0] ? t.group : "-");
	printf("master key:   %s\n", t.master_fpr[0] ? t.master_fpr : "(not recorded)");
	printf("objects:      %ld (secret keys %ld, private keys %ld, public keys %ld, "
	       "certificates %ld, data %ld; %ld wrapped blobs)\n", t.nobjects, t.nsecret,
	       t.nprivate, t.npublic, t.ncert, t.ndata, t.nwrapped);
	return 0;
}

/* Log in to token t as the SO (PIN from the terminal or environment VAR
 * so_env; a wrong PIN counts towards the SO lockout) into *s; -1 with a
 * message if that fails (the token layer then finalized). */
static int so_login(const tk_admin_token *t, const char *so_env, const char *cmd,
                    CK_SESSION_HANDLE *s)
{
	char *so = pvault_secret(so_env, "SO PIN: ", 0);
	CK_SLOT_ID slot;
	int rc;

	if (!so) {
		pvault_err("%s: no SO PIN given (terminal or --so-pin-env VAR)", cmd);
		return -1;
	}
	rc = pvault_tk_slot(t->serial, &slot) ? -1 : pvault_tk_login(slot, CKU_SO, so, s);
	pvault_free_secret(so);
	if (rc != 0)
		tk_finalize();
	return rc != 0 ? -1 : 0;
}

/* The SO PIN of token t, checked through the token layer. */
static int so_check(const tk_admin_token *t, const char *so_env, const char *cmd)
{
	CK_SESSION_HANDLE s;

	if (so_login(t, so_env, cmd, &s))
		return -1;
	tk_finalize();
	return 0;
}

/* ---- token set-login ---- */
/* As the SO, have the vault make or drop token t's "no login" record
 * (tk_set_no_login). */
static int so_set_no_login(const tk_admin_token *t, const char *so_env, int on,
                           const char *cmd)
{
	CK_SESSION_HANDLE s;
	CK_RV rv;

	if (so_login(t, so_env, cmd, &s))
		return -1;
	rv = tk_set_no_login(s, on);
	tk_logout(s);
	tk_close_session(s);
	tk_finalize();
	if (rv != CKR_OK) {
		pvault_err("%s: %s: %s", cmd, t->dbpath, pvault_ckr(rv));
		return -1;
	}
	return 0;
}

static int token_set_login(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "serial", required_argument, NULL, 'S' },
		{ "label", required_argument, NULL, 'l' },
		{ "so-pin-env", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 } };
	const char *serial = NULL, *label = NULL, *so_env = NULL;
	char dir[PV_CONF_PATH_MAX];
	tk_admin_token t;
	int c, none;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'S') serial = optarg;
		else if (c == 'l') label = optarg;
		else if (c == 's') so_env = optarg;
		else return PVAULT_EXIT_USAGE;
	}
	if (!serial == !label || optind != argc - 1 ||
	    (strcmp(argv[optind], "required") && strcmp(argv[optind], "none"))) {
		pvault_err("token set-login: --serial SERIAL or --label LABEL, then required or none");
		return PVAULT_EXIT_USAGE;
	}
	none = strcmp(argv[optind], "none") == 0;
	if (pvault_token_dir(dir, sizeof dir) || pvault_find_token(serial ? serial : label, &t))
		return 1;
	if (serial ? strcmp(t.serial, serial) != 0 : strcmp(t.label, label) != 0) {
		pvault_err("token set-login: no token with %s '%s' in %s", serial ? "serial" : "label",
		           serial ? serial : label, dir);
		return 1;
	}
	if (!dir_writable(t.dir)) {
		pvault_err("token set-login: token directory %s is not writable by this user", t.dir);
		return 1;
	}
	if (so_set_no_login(&t, so_env, none, "token set-login"))
		return 1;
	printf("token '%s' (serial %s): %s\n", t.label, t.serial,
	       none ? "no login required (private keys usable without the user PIN)" : "login required");
	return 0;
}

/* ---- token delete ---- */
static int token_delete(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "so-pin-env", required_argument, NULL, 's' },
		{ "yes", no_argument, NULL, 'y' },
		{ NULL, 0, NULL, 0 } };
	const char *so_env = NULL;
	char dir[PV_CONF_PATH_MAX];
	tk_admin_token t;
	int c, yes = 0, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "y", opts, NULL)) != -1) {
		if (c == 's') so_env = optarg;
		else if (c == 'y') yes = 1;
		else return PVAULT_EXIT_USAGE;
	}
	if (optind != argc - 1) {
		pvault_err("token delete: exactly one TOKEN (serial or label) expected");
		return PVAULT_EXIT_USAGE;
	}
	if (!yes) {
		pvault_err("token delete: this destroys every key of the token; add --yes to confirm");
		return PVAULT_EXIT_USAGE;
	}
	if (pvault_token_dir(dir, sizeof dir) || pvault_find_token(argv[optind], &t))
		return 1;
	if (!dir_writable(dir)) {
		pvault_err("token delete: token directory %s is not writable by this user", dir);
		return 1;
	}
	if (so_check(&t, so_env, "token delete"))
		return 1;
	rc = tk_admin_delete(dir, t.serial);
	if (rc != PV_OK) {
		pvault_err("token delete: %s: %s", t.dir, pv_strerror(rc));
		return 1;
	}
	printf("token '%s' (serial %s) deleted\n", t.label, t.serial);
	return 0;
}

#define EXIT_TEXT "\nEXIT STATUS\n  0 success; 1 the operation failed (a message says why; nothing was\n" \
                  "  changed); 2 bad command line.\n"

const pv_cmd pv_token_cmds[] = {
	{ "token", "init", "create a token with a label, SO PIN and user PIN",
	  "pvault token init --label LABEL [--so-pin-env VAR] [--pin-env VAR]\n"
	  "                         [--owner USER] [--group GROUP] [--no-login]\n\n"
	  "DESCRIPTION\n"
	  "  Creates a new token in the configured token directory (token_dir of\n"
	  "  pixelvault.conf), sets its SO PIN and user PIN, and records the\n"
	  "  fingerprint of the configured master key in the token store: keys of\n"
	  "  this token are wrapped under that key.  The master key must be readable\n"
	  "  (PIXELVAULT_MASTER_PASSPHRASE for a protected file).  Nothing is left\n"
	  "  behind when a step fails.\n\n"
	  "OPTIONS\n"
	  "  --label LABEL     token label, 1 to 32 bytes, unique in the directory\n"
	  "  --so-pin-env VAR  read the SO PIN from environment variable VAR\n"
	  "                    (default: asked twice on the terminal)\n"
	  "  --pin-env VAR     read the user PIN from VAR (default: terminal)\n"
	  "  --owner USER      give the token directory to USER (root only); recorded\n"
	  "  --group GROUP     give it to GROUP, mode 2770, so the group's services\n"
	  "                    can use the token; recorded\n"
	  "  --no-login        the token needs no login: it does not announce\n"
	  "                    CKF_LOGIN_REQUIRED and its private objects are usable\n"
	  "                    by anyone who can open the token directory, without\n"
	  "                    the user PIN (services without a PIN prompt; see\n"
	  "                    docs/threat-model.md).  Off by default; `pvault token\n"
	  "                    set-login` or C_InitToken on the token turns it off\n"
	  EXIT_TEXT
	  "\nEXAMPLE\n  SO=87654321 PIN=12345678 pvault token init --label web \\\n"
	  "      --so-pin-env SO --pin-env PIN --group www-data\n",
	  token_init },
	{ "token", "list", "list the tokens of the token directory",
	  "pvault token list\n\n"
	  "DESCRIPTION\n"
	  "  One line per token: slot number, serial, label, number of objects and\n"
	  "  the fingerprint of the master key its keys are wrapped under.\n"
	  EXIT_TEXT "\nEXAMPLE\n  pvault token list\n",
	  token_list },
	{ "token", "info", "show one token in detail",
	  "pvault token info TOKEN\n\n"
	  "DESCRIPTION\n"
	  "  TOKEN is a serial number or a label.  Shows label, serial, slot,\n"
	  "  directory, creation time, PIN state (set, failed tries, locked after\n"
	  "  10 and how to unlock), whether a login\n"
	  "  is required, owner and group,\n"
	  "  master key fingerprint and the object counts per class.  Needs no PIN\n"
	  "  and does not open the vault.\n"
	  EXIT_TEXT "\nEXAMPLE\n  pvault token info web\n",
	  token_info },
	{ "token", "set-login", "switch a token between login required and no login",
	  "pvault token set-login (--serial SERIAL | --label LABEL) [--so-pin-env VAR]\n"
	  "                         required|none\n\n"
	  "DESCRIPTION\n"
	  "  Checks the SO PIN, then records in the token store, in one transaction,\n"
	  "  whether the token needs a login: `required` (the default of token init)\n"
	  "  or `none` (as token init --no-login: no CKF_LOGIN_REQUIRED, private keys\n"
	  "  usable without the user PIN by anyone who can open the token directory;\n"
	  "  read docs/threat-model.md first).  PINs and keys are not touched.  A\n"
	  "  process using the token sees the change at its next C_OpenSession or\n"
	  "  C_GetTokenInfo.  A wrong SO PIN changes nothing but counts towards the\n"
	  "  SO PIN lockout, as every failed SO login does.\n\n"
	  "OPTIONS\n"
	  "  --serial SERIAL   the token, by serial number\n"
	  "  --label LABEL     the token, by label (must name exactly one)\n"
	  "  --so-pin-env VAR  read the SO PIN from VAR (default: terminal)\n"
	  EXIT_TEXT "\nEXAMPLE\n  pvault token set-login --label web none\n",
	  token_set_login },
	{ "token", "delete", "delete a token and every key in it",
	  "pvault token delete --yes [--so-pin-env VAR] TOKEN\n\n"
	  "DESCRIPTION\n"
	  "  Checks the SO PIN, then removes the token's directory (renamed away\n"
	  "  first, so the token disappears at once).  Its keys are lost unless a\n"
	  "  backup exists.\n\n"
	  "OPTIONS\n"
	  "  --yes             required: confirms the deletion\n"
	  "  --so-pin-env VAR  read the SO PIN from VAR (default: terminal)\n"
	  EXIT_TEXT "\nEXAMPLE\n  pvault token delete --yes web\n",
	  token_delete },
	{ NULL, NULL, NULL, NULL, NULL }
};
