/* pvault_status.c - pvault status: the vault and the token stores. */
#include "provisioning/pvault.h"
#include "provisioning/pvault_tk.h"
#include "gpu/vault.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_master.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mode = daemon: pvaultd's own counters (pv_vault_status). */
static void daemon_counters(const pv_conf *conf)
{
	pv_daemon_status st;
	uint32_t i;
	int rc;

	memset(&st, 0, sizeof st);
	rc = pv_vault_status(conf, &st);
	if (rc != PV_OK) {
		char why[1024];
		printf("pvaultd:      no status: %s\n",
		       pv_vault_explain(conf, rc, NULL, why, sizeof why));
		return;
	}
	printf("pvaultd:      pid %u, up %llu s, %u clients now (%llu since start)\n",
	       st.pid, (unsigned long long)st.uptime_s, st.clients,
	       (unsigned long long)st.clients_total);
	printf("requests:     %llu completed, %llu errors, queue depth %u\n",
	       (unsigned long long)st.completed, (unsigned long long)st.errors,
	       st.queue_depth);
	printf("refused:      %llu connections, %llu protocol errors\n",
	       (unsigned long long)st.refused, (unsigned long long)st.proto_errors);
	for (i = 0; i < st.nmech && i < PVP_STATUS_MECHS; i++)
		printf("  op %-3u mech 0x%08x  %llu ok, %llu errors\n", st.mech[i].op,
		       st.mech[i].mech, (unsigned long long)st.mech[i].ok,
		       (unsigned long long)st.mech[i].err);
}

static int status_run(int argc, char **argv)
{
	pv_conf conf;
	pv_vault *v = NULL;
	pv_vault_info info;
	char dir[PV_CONF_PATH_MAX], fpr[17], why_v[1024];
	const char *why;
	tk_admin_token *t = NULL;
	size_t n = 0, i;
	int rc, bad = 0;

	(void)argv;
	if (argc > 1) {
		pvault_err("status: no arguments expected");
		return PVAULT_EXIT_USAGE;
	}
	rc = pv_conf_load(&conf);
	if (rc != PV_OK) {
		pvault_err("status: the configuration cannot be used (the reason is above)");
		return 1;
	}
	printf("config:       %s\n", conf.path[0] ? conf.path : "(built-in defaults)");
	rc = pv_vault_open(&conf, &v);
	if (rc == PV_OK)
		rc = pv_vault_get_info(v, &info);
	if (rc != PV_OK) {
		printf("vault:        cannot open: %s\n",
		       pv_vault_explain(&conf, rc, NULL, why_v, sizeof why_v));
		bad = 1;
	} else {
		printf("backend:      %s%s\n", info.backend,
		       info.hw ? "" : " (CPU fallback: keys are unwrapped in host memory)");
		printf("device:       %s\n", info.device);
		printf("ring:         %u slots, %u bytes per request\n", info.nslots, info.max_data);
		printf("sealed:       %s%s\n", info.sealed ? "yes: " : "no",
		       pv_vault_explain(&conf, PV_OK, &info, why_v, sizeof why_v));
		if (strcmp(conf.mode, "daemon") == 0)
			daemon_counters(&conf);
		else
			printf("requests:     n/a (an embedded vault serves this process only)\n");
		pv_vault_close(v);
		if (info.sealed)
			bad = 1;
	}
	pvault_master_fpr(fpr, &why);
	printf("master key:   %s", conf.master_key[0] ? conf.master_key : "(not configured)");
	if (!fpr[0] && strcmp(conf.mode, "daemon") == 0)
		printf(" (not read here: pvaultd loads its own)\n");
	else if (fpr[0])
		printf(", fingerprint %s\n", fpr);
	else
		printf(" (%s)\n", why);
	rc = tk_admin_token_dir(dir, sizeof dir);
	if (rc == PV_OK)
		rc = tk_admin_list(dir, &t, &n);
	if (rc != PV_OK) {
		printf("tokens:       cannot read %s: %s\n", dir, pv_strerror(rc));
		return 1;
	}
	printf("token dir:    %s\ntokens:       %zu\n", dir, n);
	for (i = 0; i < n; i++) {
		const char *state;
		char mig[80];
		if (t[i].legacy) {
			snprintf(mig, sizeof mig, "NOT usable: an older format (`pvault token migrate %s`)",
			         t[i].serial);
			state = mig;
			bad = 1;
		} else if (!t[i].master_fpr[0])
			state = "master key not recorded";
		else if (!fpr[0])
			state = "needs master key";
		else if (!strcmp(t[i].master_fpr, fpr))
			state = "usable with the loaded master key";
		else {
			state = "NOT usable: wrapped under another master key";
			bad = 1;
		}
		printf("  slot %-3ld %-16s %-24s %4ld objects (%ld keys)  master %s: %s%s\n",
		       t[i].slot_no, t[i].serial, t[i].label, t[i].nobjects, t[i].nwrapped,
		       t[i].master_fpr[0] ? t[i].master_fpr : "-", state,
		       t[i].read_only ? "; store read-only for this user (no login possible)" : "");
	}
	free(t);
	return bad ? 1 : 0;
}

const pv_cmd pv_status_cmds[] = {
	{ NULL, "status", "show the vault, the master key and the tokens",
	  "pvault status\n\n"
	  "DESCRIPTION\n"
	  "  Opens the vault as pixelvault.conf describes it and reports: the\n"
	  "  backend (GPU model, or the CPU fallback) and device, whether the vault\n"
	  "  is sealed and why (no master key, corrupted file, wrong passphrase),\n"
	  "  the fingerprint of the configured master key, and for every token its\n"
	  "  slot, serial, label, object count and the fingerprint of the master key\n"
	  "  its keys are wrapped under - after an interrupted `pvault master rotate`\n"
	  "  this names the key the token needs.  With mode = daemon it also\n"
	  "  prints pvaultd's counters: clients, queue depth, completed and failed\n"
	  "  requests, and per (op, mechanism) counts.\n"
	  "\nENVIRONMENT\n"
	  "  PIXELVAULT_CONF               configuration file\n"
	  "  PIXELVAULT_MASTER_PASSPHRASE  passphrase of a protected master key file\n"
	  "\nEXIT STATUS\n"
	  "  0 the vault is unsealed and every token is usable with the loaded master\n"
	  "  key; 1 otherwise (sealed, a token wrapped under another key or of an\n"
	  "  older format, unreadable configuration); 2 bad command line.\n"
	  "\nEXAMPLE\n  PIXELVAULT_CONF=/etc/pixelvault.conf pvault status\n",
	  status_run },
	{ NULL, NULL, NULL, NULL, NULL }
};
