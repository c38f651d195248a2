/* pv_conf.c - pixelvault.conf parser (see pv_conf.h). */
#include "gpu/host/pv_conf.h"
#include "gpu/core/pv_err.h"

#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void set_str(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src);
}

/* base dir from an XDG variable or $HOME/<fallback> */
static void xdg_dir(char *out, size_t cap, const char *var, const char *fallback)
{
	const char *v = getenv(var);
	const char *home = getenv("HOME");
	if (v && *v == '/')
		snprintf(out, cap, "%s/pixelvault", v);
	else
		snprintf(out, cap, "%s/%s/pixelvault", home && *home ? home : "/tmp", fallback);
}

void pv_conf_defaults(pv_conf *c)
{
	char cfg[PV_CONF_PATH_MAX - 64], data[PV_CONF_PATH_MAX - 64];
	const char *rt = getenv("XDG_RUNTIME_DIR");

	memset(c, 0, sizeof *c);
	xdg_dir(cfg, sizeof cfg, "XDG_CONFIG_HOME", ".config");
	xdg_dir(data, sizeof data, "XDG_DATA_HOME", ".local/share");
	snprintf(c->token_dir, sizeof c->token_dir, "%s/tokens", data);
	snprintf(c->master_key, sizeof c->master_key, "%s/master.key", cfg);
	set_str(c->backend, sizeof c->backend, "auto");
	set_str(c->mode, sizeof c->mode, "embedded");
	if (rt && *rt == '/')
		snprintf(c->socket, sizeof c->socket, "%s/pixelvault/pvaultd.sock", rt);
	else
		snprintf(c->socket, sizeof c->socket, "/run/pixelvault/pvaultd.sock");
	set_str(c->cpu_exec, sizeof c->cpu_exec, "caller");
	c->workers = 0;
	c->gpu_device = 0;
	c->gpu_slots = 0;
	c->gpu_blocks_per_sm = 0;
	c->daemon_uid = -1;
	c->daemon.max_conn = 256;
	c->daemon.max_conn_uid = 64;
	c->daemon.workers_per_client = 4;
	c->daemon.hello_timeout_s = 5;
	c->daemon.log_interval_s = 10;
	c->daemon.client_mib = 64;
	c->daemon.uid_mib = 256;
	c->daemon.total_mib = 1024;
}

int pv_conf_cpu_inline(const pv_conf *c)
{
	return c->no_threads != 0 || strcmp(c->cpu_exec, "caller") == 0;
}

static char *trim(char *s)
{
	char *e;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* Resolve value against the directory of the conf file when relative. */
static int set_path(char *dst, size_t cap, const char *dir, const char *val)
{
	int n;
	if (val[0] == '/' || dir[0] == 0)
		n = snprintf(dst, cap, "%s", val);
	else
		n = snprintf(dst, cap, "%s/%s", dir, val);
	return n < 0 || (size_t)n >= cap ? PV_ERR_CONFIG : PV_OK;
}

static int parse_u32(const char *v, uint32_t *out)
{
	char *end;
	unsigned long x;
	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno || *v == 0 || *end != 0 || x > 1u << 20)
		return PV_ERR_CONFIG;
	*out = (uint32_t)x;
	return PV_OK;
}

/* Sets key = val.  *want: what the key takes (for the error message),
 * NULL when the key is unknown. */
static int apply(pv_conf *c, const char *dir, const char *key, const char *val, const char **want)
{
	*want = NULL;
	if (!strcmp(key, "token_dir") || !strcmp(key, "master_key") || !strcmp(key, "socket")) {
		*want = "a path";
		if (!strcmp(key, "token_dir"))
			return set_path(c->token_dir, sizeof c->token_dir, dir, val);
		if (!strcmp(key, "master_key"))
			return set_path(c->master_key, sizeof c->master_key, dir, val);
		return set_path(c->socket, sizeof c->socket, dir, val);
	}
	if (!strcmp(key, "backend")) {
		*want = "auto, cpu or cuda";
		if (strcmp(val, "auto") && strcmp(val, "cpu") && strcmp(val, "cuda"))
			return PV_ERR_CONFIG;
		set_str(c->backend, sizeof c->backend, val);
		return PV_OK;
	}
	if (!strcmp(key, "mode")) {
		*want = "embedded or daemon";
		if (strcmp(val, "embedded") && strcmp(val, "daemon"))
			return PV_ERR_CONFIG;
		set_str(c->mode, sizeof c->mode, val);
		return PV_OK;
	}
	if (!strcmp(key, "cpu_exec")) {
		*want = "caller or workers";
		if (strcmp(val, "caller") && strcmp(val, "workers"))
			return PV_ERR_CONFIG;
		set_str(c->cpu_exec, sizeof c->cpu_exec, val);
		return PV_OK;
	}
	if (!strcmp(key, "workers") || !strcmp(key, "gpu_device")) {
		*want = "a number";
		return parse_u32(val, !strcmp(key, "workers") ? &c->workers : &c->gpu_device);
	}
	if (!strcmp(key, "gpu_slots")) {
		uint32_t n;
		*want = "a power of two from 16 to 4096";
		if (parse_u32(val, &n) != PV_OK || n < 16u || n > 4096u || (n & (n - 1u)) != 0)
			return PV_ERR_CONFIG;
		c->gpu_slots = n;
		return PV_OK;
	}
	if (!strcmp(key, "daemon_uid")) {
		struct passwd pw, *pp = NULL;
		char buf[1024], *end;
		unsigned long n;
		*want = "a uid or a user name";
		errno = 0;
		n = strtoul(val, &end, 10);
		if (isdigit((unsigned char)*val) && *end == 0) {
			if (errno || n >= 0xffffffffUL)
				return PV_ERR_CONFIG;
			c->daemon_uid = (int64_t)n;
			return PV_OK;
		}
		if (getpwnam_r(val, &pw, buf, sizeof buf, &pp) != 0 || pp == NULL)
			return PV_ERR_CONFIG;
		c->daemon_uid = pp->pw_uid;
		return PV_OK;
	}
	{
		/* pvaultd's limits: key, field, lowest, highest, as the error says it */
		static const struct {
			const char *key; size_t off; uint32_t lo, hi; const char *want;
		} lim[] = {
			{ "daemon_max_connections", offsetof(pv_conf, daemon.max_conn), 1, 65536,
			  "a number from 1 to 65536" },
			{ "daemon_max_connections_per_uid", offsetof(pv_conf, daemon.max_conn_uid), 1, 65536,
			  "a number from 1 to 65536" },
			{ "daemon_workers_per_client", offsetof(pv_conf, daemon.workers_per_client), 1, 64,
			  "a number from 1 to 64" },
			{ "daemon_hello_timeout", offsetof(pv_conf, daemon.hello_timeout_s), 1, 3600,
			  "seconds, from 1 to 3600" },
			{ "daemon_log_interval", offsetof(pv_conf, daemon.log_interval_s), 1, 3600,
			  "seconds, from 1 to 3600" },
			{ "daemon_client_memory", offsetof(pv_conf, daemon.client_mib), 1, 65536,
			  "MiB, from 1 to 65536" },
			{ "daemon_memory_per_uid", offsetof(pv_conf, daemon.uid_mib), 1, 1u << 20,
			  "MiB, from 1 to 1048576" },
			{ "daemon_memory", offsetof(pv_conf, daemon.total_mib), 1, 1u << 20,
			  "MiB, from 1 to 1048576" },
		};
		size_t i;
		for (i = 0; i < sizeof lim / sizeof lim[0]; i++) {
			uint32_t n;
			if (strcmp(key, lim[i].key) != 0)
				continue;
			*want = lim[i].want;
			if (parse_u32(val, &n) != PV_OK || n < lim[i].lo || n > lim[i].hi)
				return PV_ERR_CONFIG;
			memcpy((char *)c + lim[i].off, &n, sizeof n);
			return PV_OK;
		}
	}
	if (!strcmp(key, "gpu_blocks_per_sm")) {
		uint32_t n;
		*want = "a number from 0 (as many as fit) to 32";
		if (parse_u32(val, &n) != PV_OK || n > 32u)
			return PV_ERR_CONFIG;
		c->gpu_blocks_per_sm = n;
		return PV_OK;
	}
	return PV_ERR_CONFIG;
}

/* $PIXELVAULT_BACKEND overrides the file's backend (operators and tests
 * pick cpu or cuda without editing the config). */
static int env_overrides(pv_conf *c)
{
	const char *b = getenv("PIXELVAULT_BACKEND"), *want;

	if (b == NULL || *b == '\0')
		return PV_OK;
	if (apply(c, "", "backend", b, &want) != PV_OK) {
		fprintf(stderr, "pixelvault: PIXELVAULT_BACKEND=%s: expected %s\n", b, want);
		return PV_ERR_CONFIG;
	}
	return PV_OK;
}

int pv_conf_load_file(pv_conf *c, const char *path)
{
	char line[PV_CONF_PATH_MAX + 64], dir[PV_CONF_PATH_MAX];
	char *slash;
	FILE *f;
	int lineno = 0, rc = PV_OK;

	pv_conf_defaults(c);
	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "pixelvault: cannot read config %s: %s\n", path, strerror(errno));
		return PV_ERR_IO;
	}
	set_str(c->path, sizeof c->path, path);
	set_str(dir, sizeof dir, path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else if (!getcwd(dir, sizeof dir))
		dir[0] = 0;

	while (fgets(line, sizeof line, f)) {
		char *s, *eq, *hash, *key, *val;
		const char *want;
		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		s = trim(line);
		if (*s == 0)
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			fprintf(stderr, "pixelvault: %s:%d: not a 'key = value' line\n", path, lineno);
			rc = PV_ERR_CONFIG;
			break;
		}
		*eq = 0;
		key = trim(s);
		val = trim(eq + 1);
		rc = apply(c, dir, key, val, &want);
		if (rc != PV_OK) {
			if (want != NULL)
				fprintf(stderr, "pixelvault: %s:%d: invalid setting '%s = %s' (%s)\n",
				        path, lineno, key, val, want);
			else
				fprintf(stderr, "pixelvault: %s:%d: unknown setting '%s'\n", path, lineno, key);
			break;
		}
	}
	fclose(f);
	return rc != PV_OK ? rc : env_overrides(c);
}

int pv_conf_load(pv_conf *c)
{
	const char *env = getenv("PIXELVAULT_CONF");
	char cfg[PV_CONF_PATH_MAX - 64], file[PV_CONF_PATH_MAX];

	if (env && *env)
		return pv_conf_load_file(c, env);
	xdg_dir(cfg, sizeof cfg, "XDG_CONFIG_HOME", ".config");
	snprintf(file, sizeof file, "%s/pixelvault.conf", cfg);
	if (access(file, R_OK) == 0)
		return pv_conf_load_file(c, file);
	pv_conf_defaults(c);
	return env_overrides(c);
}
