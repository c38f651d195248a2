/*
 * pv_explain.c - why a vault cannot serve keys, in one sentence for a
 * person, with the next step.  The module logs it once per process,
 * `pvault status` prints it: both say the same thing.
 */
#include "gpu/vault.h"
#include "gpu/host/pv_log.h"
#include "gpu/host/pv_master.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int daemon_mode(const pv_conf *c)
{
	return strcmp(c->mode, "daemon") == 0;
}

static void open_failed(const pv_conf *c, int rc, char *buf, size_t cap)
{
	switch (rc) {
	case PV_ERR_REMOVED:
		snprintf(buf, cap, "pvaultd is not running (nothing answers at %s): start "
		         "it (pvaultd, or its service), then check with `pvault status`",
		         c->socket);
		break;
	case PV_ERR_PERM:
		if (daemon_mode(c))
			snprintf(buf, cap, "pvaultd at %s refused this user (uid %u), or is served "
			         "by an unexpected user: the line above says which; pvaultd's "
			         "allowed users are set with its -u and -g options",
			         c->socket, (unsigned)geteuid());
		else
			snprintf(buf, cap, "permission denied opening the vault: `pvault status` "
			         "names the file");
		break;
	case PV_ERR_BUSY:
		snprintf(buf, cap, "pvaultd at %s is at its connection or memory limits: "
		         "retry later, or raise its limits (pvaultd --help)", c->socket);
		break;
	case PV_ERR_CONFIG:
		snprintf(buf, cap, "the configuration %s cannot be used (backend = %s, "
		         "mode = %s): `pvault status` names the problem",
		         c->path[0] ? c->path : "(built-in defaults)", c->backend, c->mode);
		break;
	case PV_ERR_DEVICE:
		snprintf(buf, cap, "the GPU backend did not start (backend = %s): "
		         "`pvault status` and the system log say why; backend = auto falls "
		         "back to the CPU", c->backend);
		break;
	default:
		snprintf(buf, cap, "the vault cannot be opened (%s): `pvault status` says more",
		         pv_strerror(rc));
		break;
	}
}

static void sealed(const pv_conf *c, int reason, char *buf, size_t cap)
{
	char why[PV_MASTER_MSG_MAX];

	if (daemon_mode(c)) {
		/* the daemon's own master key file, not ours: its name is in
		 * pvaultd's configuration and log */
		snprintf(buf, cap, "pvaultd's vault is sealed (%s): fix its master key "
		         "where pvaultd runs (its log and `pvault status` there say how), "
		         "then restart pvaultd",
		         reason == PV_ERR_DEVICE ? "device failure" : pv_master_strerror(reason));
		return;
	}
	if (reason == PV_ERR_DEVICE) {
		snprintf(buf, cap, "the GPU failed and the vault sealed itself: restart "
		         "the application; `pvault status` and the system log say more");
		return;
	}
	snprintf(buf, cap, "%s", pv_master_explain(c->master_key, reason, why, sizeof why));
}

const char *pv_vault_explain(const pv_conf *conf, int open_rc, const pv_vault_info *info,
                             char *buf, size_t cap)
{
	if (cap == 0)
		return "";
	buf[0] = '\0';
	if (open_rc != PV_OK)
		open_failed(conf, open_rc, buf, cap);
	else if (info != NULL && info->sealed)
		sealed(conf, info->seal_reason, buf, cap);
	return buf;
}
