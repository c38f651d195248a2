/*
 * test_p11_keyperm.c - a master key file that other users may read or
 * replace is not used.
 *
 * The module (embedded vault, CPU backend) with the configured key file
 * at mode 0644 and 0640: the vault boots sealed (a secret key import
 * answers CKR_DEVICE_ERROR) and the log names the file, its mode and the
 * command that fixes it; at 0600 and 0400 the vault is unsealed.  Run as
 * root, also a file owned by another user (nobody).  pvaultd logs the
 * same sentence and serves sealed; `pvault master check` prints it (exact
 * text) and exits 1, and `pvault status` reports the sealed vault with it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/host/pv_master.h"
#include "pc.h"
#include "tsupport.h"

static char mk[300];

/* The text of what cmd writes on stdout and stderr, and its exit status. */
static int run_cmd(const char *cmd, char *out, size_t cap)
{
	char full[1200];
	FILE *p;
	size_t n;
	int st;

	snprintf(full, sizeof full, "%s 2>&1", cmd);
	p = popen(full, "r");
	CU_ASSERT_FATAL(p != NULL);
	n = fread(out, 1, cap - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The module started again with the key file at mode: the CK_RV of a
 * secret key import (the vault opens at its first use) and what the
 * module logged meanwhile. */
static CK_RV module_with(mode_t mode, char *log, size_t cap)
{
	char lp[320];
	uint8_t kv[16] = { 1 };
	CK_OBJECT_HANDLE h;
	CK_RV rv;
	FILE *f;
	size_t n;
	int fd, saved;

	pkt_f->C_Finalize(NULL);
	CU_ASSERT_FATAL(chmod(mk, mode) == 0);
	snprintf(lp, sizeof lp, "%s/module.log", pkt_dir);
	fflush(stderr);
	saved = dup(2);
	fd = open(lp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(saved >= 0 && fd >= 0 && dup2(fd, 2) == 2);
	close(fd);
	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	pc_s = pkt_open(pc_slot, 1);
	rv = pc_key(CKK_AES, kv, sizeof kv, 0, &h);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fopen(lp, "r");
	CU_ASSERT_FATAL(f != NULL);
	n = fread(log, 1, cap - 1, f);
	log[n] = '\0';
	fclose(f);
	return rv;
}

static void t_setup(void)
{
	snprintf(mk, sizeof mk, "%s/master.key", pkt_dir);
	pc_token();
}

static void t_module(void)
{
	static const mode_t open_modes[] = { 0644, 0640 }, closed_modes[] = { 0600, 0400 };
	char log[4096], want[1024];
	size_t i;

	for (i = 0; i < 2; i++) {
		CU_ASSERT(module_with(open_modes[i], log, sizeof log) == CKR_DEVICE_ERROR);
		snprintf(want, sizeof want, "pixelvault: warning: vault sealed: permissions %04o"
		         " for '%s' are too open: a master key file must not be accessible by"
		         " group or others; fix it with: chmod 600 %s\n", (unsigned)open_modes[i],
		         mk, mk);
		if (strstr(log, want) == NULL)
			printf("\n  mode %04o, the module logged: %s", (unsigned)open_modes[i], log);
		CU_ASSERT(strstr(log, want) != NULL);
	}
	for (i = 0; i < 2; i++) {
		CU_ASSERT(module_with(closed_modes[i], log, sizeof log) == CKR_OK);
		CU_ASSERT(strstr(log, "sealed") == NULL);
	}
}

/* Root only (chown): a file of another user's, mode 0400. */
static void t_owner(void)
{
	char log[4096], want[1024];

	if (geteuid() != 0) {
		printf("\n  (not root: the owner check needs chown; skipped)\n");
		return;
	}
	CU_ASSERT_FATAL(chown(mk, 65534, (gid_t)-1) == 0);
	CU_ASSERT(module_with(0400, log, sizeof log) == CKR_DEVICE_ERROR);
	snprintf(want, sizeof want, "pixelvault: warning: vault sealed: '%s' is owned by"
	         " uid 65534: a master key file read by root must belong to root; fix it"
	         " with: chown 0 %s\n", mk, mk);
	if (strstr(log, want) == NULL)
		printf("\n  the module logged: %s", log);
	CU_ASSERT(strstr(log, want) != NULL);
	CU_ASSERT_FATAL(chown(mk, 0, (gid_t)-1) == 0);
	CU_ASSERT(module_with(0400, log, sizeof log) == CKR_OK);
}

static void t_pvault(void)
{
	static const mode_t modes[] = { 0644, 0640 };
	char cmd[700], out[4096], want[1024];
	size_t i;

	for (i = 0; i < 2; i++) {
		CU_ASSERT_FATAL(chmod(mk, modes[i]) == 0);
		snprintf(cmd, sizeof cmd, "'%s' master check '%s'", PVAULT_PATH, mk);
		CU_ASSERT(run_cmd(cmd, out, sizeof out) == 1);
		snprintf(want, sizeof want, "pvault: master check: permissions %04o for '%s' are"
		         " too open: a master key file must not be accessible by group or others;"
		         " fix it with: chmod 600 %s\n", (unsigned)modes[i], mk, mk);
		if (strcmp(out, want) != 0)
			printf("\n  mode %04o: pvault master check said: %s", (unsigned)modes[i], out);
		CU_ASSERT(strcmp(out, want) == 0);
		/* pvault status: sealed, and the same sentence on the key's line */
		snprintf(cmd, sizeof cmd, "'%s' status", PVAULT_PATH);
		CU_ASSERT(run_cmd(cmd, out, sizeof out) == 1);
		snprintf(want, sizeof want, "sealed:       yes: permissions %04o for '%s' are too open",
		         (unsigned)modes[i], mk);
		CU_ASSERT(strstr(out, want) != NULL);
		snprintf(want, sizeof want, "master key:   %s (permissions %04o for '%s' are too open",
		         mk, (unsigned)modes[i], mk);
		if (strstr(out, want) == NULL)
			printf("\n  mode %04o: pvault status said: %s", (unsigned)modes[i], out);
		CU_ASSERT(strstr(out, want) != NULL);
	}
	CU_ASSERT_FATAL(chmod(mk, 0600) == 0);
	snprintf(cmd, sizeof cmd, "'%s' master check '%s'", PVAULT_PATH, mk);
	CU_ASSERT(run_cmd(cmd, out, sizeof out) == 0);
	CU_ASSERT(strstr(out, "valid master key, fingerprint") != NULL);
}

/* pvaultd with the key file at 0640, for two seconds: sealed, and why. */
static void t_pvaultd(void)
{
	char cmd[1200], out[4096], want[1024];

	CU_ASSERT_FATAL(chmod(mk, 0640) == 0);
	snprintf(cmd, sizeof cmd, "timeout 2 '%s' -c '%s' -s '%s/pvaultd.sock'", PVAULTD_PATH,
	         getenv("PIXELVAULT_CONF"), pkt_dir);
	(void)run_cmd(cmd, out, sizeof out);
	snprintf(want, sizeof want, "pixelvault: warning: vault sealed: permissions 0640 for"
	         " '%s' are too open: a master key file must not be accessible by group or"
	         " others; fix it with: chmod 600 %s\n", mk, mk);
	if (strstr(out, want) == NULL)
		printf("\n  pvaultd said: %s", out);
	CU_ASSERT(strstr(out, want) != NULL);
	CU_ASSERT(strstr(out, ", sealed)") != NULL);    /* backend cpu or cuda */
	CU_ASSERT_FATAL(chmod(mk, 0600) == 0);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11_keyperm");

	CU_add_test(s, "setup: token", t_setup);
	CU_add_test(s, "module: key file at 0644 / 0640 sealed, 0600 / 0400 used", t_module);
	CU_add_test(s, "module: key file of another user sealed (root only)", t_owner);
	CU_add_test(s, "pvaultd: key file at 0640 sealed, the log says why", t_pvaultd);
	CU_add_test(s, "pvault master check and status say the same", t_pvault);
	return pc_run();
}
