/*
 * pv_conf.h - pixelvault.conf.
 *
 * Lookup order: $PIXELVAULT_CONF, else $XDG_CONFIG_HOME/pixelvault/
 * pixelvault.conf (~/.config/... when XDG_CONFIG_HOME is unset) if it exists,
 * else built-in defaults.  Format: "key = value" lines, '#' comments.
 * Relative paths in the file are resolved against the file's directory.
 *
 *   token_dir  = DIR        root of token directories (DIR/<serial>/token.db)
 *   master_key = FILE       master key file (on removable media in production)
 *   backend    = auto|cpu|cuda
 *   mode       = embedded|daemon
 *   socket     = PATH       pvaultd socket (daemon mode)
 *   cpu_exec   = caller|workers  embedded CPU backend: run each request in
 *                           the calling thread (default: no hand-off, the
 *                           lowest latency) or hand it to worker threads
 *                           (pvaultd always uses workers)
 *   workers    = N          CPU backend engine states / worker threads
 *                           (0 = one per core; with cpu_exec = caller,
 *                           one per ring slot, 128)
 *   gpu_device = N          CUDA device ordinal
 *   gpu_slots  = N          CUDA backend: requests in flight on the GPU
 *                           (ring slots; a power of two, 16..4096, default
 *                           128).  Each holds 2 MiB + 64 KiB of pinned host
 *                           memory and as much device memory; the kernel
 *                           serves up to one request per resident block
 *                           (about a thousand on a 132-SM sm_90 GPU), so a
 *                           host with that many concurrent callers wants
 *                           1024 or 2048.
 *   gpu_blocks_per_sm = N   CUDA backend: at most N vault blocks per
 *                           multiprocessor (0..32; 0, the default, = as
 *                           many as fit, 8 on sm_90).  Fewer may help EC
 *                           signing and cost RSA, which uses every block
 *                           (measure: pvault bench --gpu-blocks-per-sm N).
 *   daemon_uid = UID|USER   daemon mode: the uid pvaultd runs as.  The
 *                           module talks only to a daemon whose socket
 *                           credentials (SO_PEERCRED) are root's or this
 *                           uid's; unset: root or the process's own uid.
 *
 * pvaultd's limits (docs/daemon.md, "Limits"; its flags override them):
 *   daemon_max_connections = N          all peers at once (default 256)
 *   daemon_max_connections_per_uid = N  one uid at once (default 64)
 *   daemon_workers_per_client = N       threads serving one ring (1..64, 4)
 *   daemon_hello_timeout = S            first message within S s (1..3600, 5)
 *   daemon_client_memory = MIB          ring + worker buffers of one client
 *                                       (1..65536, default 64)
 *   daemon_memory_per_uid = MIB         the same for all clients of one uid
 *                                       (default 256)
 *   daemon_memory = MIB                 the same for all clients (default 1024)
 *   daemon_log_interval = S             refused connections: one line per uid
 *                                       and reason, then one summary per S s
 *                                       (1..3600, default 10)
 *
 * $PIXELVAULT_BACKEND (auto|cpu|cuda), when set, overrides `backend`.
 */
#ifndef PV_CONF_H
#define PV_CONF_H

#include <stdint.h>

#define PV_CONF_PATH_MAX 4096

typedef struct pv_conf {
	char path[PV_CONF_PATH_MAX];        /* file it came from, "" if defaults */
	char token_dir[PV_CONF_PATH_MAX];
	char master_key[PV_CONF_PATH_MAX];
	char backend[16];
	char mode[16];
	char socket[108];                   /* sun_path size */
	char cpu_exec[16];                  /* "caller" or "workers" */
	uint32_t workers;
	uint32_t gpu_device;
	uint32_t gpu_slots;                 /* 0: the default (128) */
	uint32_t gpu_blocks_per_sm;         /* 0: as many as fit */
	int64_t daemon_uid;                 /* -1: root or our own uid */
	struct {                            /* pvaultd only */
		uint32_t max_conn, max_conn_uid, workers_per_client;
		uint32_t hello_timeout_s, log_interval_s;
		uint32_t client_mib, uid_mib, total_mib;
	} daemon;
	/* not from the file: set by the PKCS#11 module when the application
	 * passed CKF_LIBRARY_CANT_CREATE_OS_THREADS (embedded vault: CPU
	 * backend, each request runs in the calling thread) */
	uint32_t no_threads;
} pv_conf;

/* 1 when the CPU backend runs each request in the calling thread (no
 * worker threads): cpu_exec = caller, or the application forbids threads. */
int pv_conf_cpu_inline(const pv_conf *c);

/* Fill with built-in defaults (per-user paths). */
void pv_conf_defaults(pv_conf *c);
/* Defaults, then the file found by the lookup order above. */
int pv_conf_load(pv_conf *c);
/* Defaults, then the given file.  PV_ERR_IO if unreadable, PV_ERR_CONFIG
 * with a message on stderr naming the line if malformed. */
int pv_conf_load_file(pv_conf *c, const char *path);

#endif
