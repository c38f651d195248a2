/*
 * pvaultd - the PixelVault daemon: one vault (backend + master key) shared
 * by many processes.  See docs/daemon.md.
 *
 *   pvaultd [-c CONF] [-s SOCKET] [-u UID]... [-g GID]... [-w N] [LIMITS] [-v]
 *   pvaultd --help | --version
 *
 * Reads pixelvault.conf (-c, else the usual lookup), opens the backend in
 * this process with the master key from the config, listens on the socket
 * (-s overrides `socket`; or the socket passed by systemd socket
 * activation, LISTEN_FDS=1), and serves each accepted peer whose
 * SO_PEERCRED passes the policy: uid 0, the daemon's own uid, any -u UID,
 * or a peer whose primary gid is one of -g GID, within the limits on
 * connections and memory (pvd_limits.c, pvd_gate.c).  SIGTERM/SIGINT: stop
 * accepting, let every client's in-flight requests finish, drop the
 * clients, close (wipe) the vault, remove the socket, exit 0.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gpu/daemon/pvd.h"
#include "gpu/host/pv_log.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int mkdir_parent(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *sl;
	struct stat st;

	snprintf(dir, sizeof dir, "%s", path);
	sl = strrchr(dir, '/');
	if (sl == NULL || sl == dir)
		return 0;
	*sl = '\0';
	if (stat(dir, &st) != 0) {
		if (mkdir(dir, 0700) != 0) {
			pv_log(PV_LOG_ERR, "pvaultd: cannot create %s: %s", dir, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		pv_log(PV_LOG_ERR, "pvaultd: %s is not a directory", dir);
		return -1;
	}
	if ((st.st_mode & 0002) && !(st.st_mode & S_ISVTX))
		pv_log(PV_LOG_WARN, "pvaultd: socket directory %s is world-writable", dir);
	return 0;
}

static int listen_on(const char *path)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof sa.sun_path || mkdir_parent(path) != 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path));
	if (lstat(path, &st) == 0) {
		int t;
		if (!S_ISSOCK(st.st_mode)) {
			pv_log(PV_LOG_ERR, "pvaultd: %s exists and is not a socket", path);
			return -1;
		}
		t = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (t >= 0 && connect(t, (struct sockaddr *)&sa, sizeof sa) == 0) {
			close(t);
			pv_log(PV_LOG_ERR, "pvaultd: another pvaultd serves %s", path);
			return -1;
		}
		if (t >= 0)
			close(t);
		unlink(path);             /* stale socket of a dead daemon */
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* bind to a temporary name, listen, then rename into place: a client
	 * never finds the path bound but not yet listening */
	{
		struct sockaddr_un tmp = sa;
		int n = snprintf(tmp.sun_path, sizeof tmp.sun_path, "%s.new", path);
		int direct = n < 0 || (size_t)n >= sizeof tmp.sun_path;
		if (direct)
			tmp = sa;
		else
			unlink(tmp.sun_path);
		if (bind(fd, (struct sockaddr *)&tmp, sizeof tmp) != 0 || listen(fd, 64) != 0 ||
		    chmod(tmp.sun_path, 0666) != 0 ||     /* access: directory + SO_PEERCRED */
		    (!direct && rename(tmp.sun_path, path) != 0)) {
			pv_log(PV_LOG_ERR, "pvaultd: cannot listen on %s: %s", path, strerror(errno));
			if (!direct)
				unlink(tmp.sun_path);
			close(fd);
			return -1;
		}
	}
	return fd;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: pvaultd [-c CONF] [-s SOCKET] [-u UID|USER]... [-g GID|GROUP]... "
	           "[-w N] [LIMITS] [-v]\n       pvaultd --help | --version\n");
}

static void help(void)
{
	printf("pvaultd - the PixelVault vault daemon: one vault (backend and master key)\n"
	       "shared by many processes over a Unix socket; the PKCS#11 module uses it\n"
	       "when pixelvault.conf says mode = daemon.  Full description: docs/daemon.md.\n\n");
	usage(stdout);
	printf("\n"
	       "  -c, --config FILE           pixelvault.conf (default: $PIXELVAULT_CONF, then\n"
	       "                              $XDG_CONFIG_HOME/pixelvault/pixelvault.conf)\n"
	       "  -s, --socket PATH           listen on PATH instead of the config's socket\n"
	       "  -u, --allow-uid UID|USER    also serve this uid (root and the daemon's own\n"
	       "                              uid always are); repeatable\n"
	       "  -g, --allow-gid GID|GROUP   also serve peers whose primary gid is this one\n"
	       "  -v, --verbose               log at info level\n"
	       "  -h, --help                  this text\n"
	       "  -V, --version               the version\n"
	       "\n"
	       "Limits (each also a pixelvault.conf key; the flag wins):\n"
	       "  -w, --workers-per-client N  threads serving one client's ring, 1..64\n"
	       "                              (daemon_workers_per_client, default 4)\n"
	       "      --max-connections N     connections at once, all peers\n"
	       "                              (daemon_max_connections, default 256)\n"
	       "      --max-connections-per-uid N\n"
	       "                              connections at once of one uid\n"
	       "                              (daemon_max_connections_per_uid, default 64)\n"
	       "      --hello-timeout S       a new connection that says nothing for S s is\n"
	       "                              dropped (daemon_hello_timeout, default 5)\n"
	       "      --client-memory MIB     ring and worker buffers of one client\n"
	       "                              (daemon_client_memory, default 64)\n"
	       "      --memory-per-uid MIB    the same for all clients of one uid\n"
	       "                              (daemon_memory_per_uid, default 256)\n"
	       "      --memory MIB            the same for all clients together\n"
	       "                              (daemon_memory, default 1024)\n"
	       "      --log-interval S        refused connections: one line per uid and\n"
	       "                              reason, then a count every S s\n"
	       "                              (daemon_log_interval, default 10)\n"
	       "\n"
	       "Threads: at most 1 + max-connections x (1 + workers-per-client), besides\n"
	       "the backend's.  SIGTERM / SIGINT: finish the requests in flight, wipe the\n"
	       "keys, remove the socket, exit 0.\n");
}

enum { O_MAXCONN = 256, O_MAXUID, O_HELLO, O_CMEM, O_UMEM, O_MEM, O_LOGIV };

/* A flag's number in [lo, hi]; 0 and a message if it is not one. */
static int num(const char *name, const char *v, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end;
	unsigned long x;
	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno || *v < '0' || *v > '9' || *end != 0 || x < lo || x > hi) {
		fprintf(stderr, "pvaultd: %s %s: expected a number from %u to %u\n", name, v, lo, hi);
		return 0;
	}
	*out = (uint32_t)x;
	return 1;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "socket", required_argument, NULL, 's' },
		{ "allow-uid", required_argument, NULL, 'u' },
		{ "allow-gid", required_argument, NULL, 'g' },
		{ "workers-per-client", required_argument, NULL, 'w' },
		{ "max-connections", required_argument, NULL, O_MAXCONN },
		{ "max-connections-per-uid", required_argument, NULL, O_MAXUID },
		{ "hello-timeout", required_argument, NULL, O_HELLO },
		{ "client-memory", required_argument, NULL, O_CMEM },
		{ "memory-per-uid", required_argument, NULL, O_UMEM },
		{ "memory", required_argument, NULL, O_MEM },
		{ "log-interval", required_argument, NULL, O_LOGIV },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static pvd d;
	pv_conf conf, bconf;
	const char *cfile = NULL, *sock = NULL;
	/* flags given (0: take the config's) */
	uint32_t f_w = 0, f_conn = 0, f_uid = 0, f_hello = 0, f_cmem = 0, f_umem = 0, f_mem = 0, f_logiv = 0;
	sigset_t ss;
	struct timespec ts;
	int opt, lfd = -1, sfd, rc, activated = 0, verbose = 0;

	memset(&d, 0, sizeof d);
	d.owner_uid = geteuid();
	while ((opt = getopt_long(argc, argv, "c:s:u:g:w:vhV", lopts, NULL)) != -1) {
		int ok = 1;
		switch (opt) {
		case 'c': cfile = optarg; break;
		case 's': sock = optarg; break;
		case 'u': {
			struct passwd *pw = getpwnam(optarg);
			if (d.nallow_uid >= PVD_MAX_ALLOW) { usage(stderr); return 2; }
			d.allow_uid[d.nallow_uid++] = pw ? pw->pw_uid : (uid_t)strtoul(optarg, NULL, 10);
			break;
		}
		case 'g': {
			struct group *gr = getgrnam(optarg);
			if (d.nallow_gid >= PVD_MAX_ALLOW) { usage(stderr); return 2; }
			d.allow_gid[d.nallow_gid++] = gr ? gr->gr_gid : (gid_t)strtoul(optarg, NULL, 10);
			break;
		}
		case 'w': ok = num("-w", optarg, 1, 64, &f_w); break;
		case O_MAXCONN: ok = num("--max-connections", optarg, 1, 65536, &f_conn); break;
		case O_MAXUID: ok = num("--max-connections-per-uid", optarg, 1, 65536, &f_uid); break;
		case O_HELLO: ok = num("--hello-timeout", optarg, 1, 3600, &f_hello); break;
		case O_CMEM: ok = num("--client-memory", optarg, 1, 65536, &f_cmem); break;
		case O_UMEM: ok = num("--memory-per-uid", optarg, 1, 1u << 20, &f_umem); break;
		case O_MEM: ok = num("--memory", optarg, 1, 1u << 20, &f_mem); break;
		case O_LOGIV: ok = num("--log-interval", optarg, 1, 3600, &f_logiv); break;
		case 'v': verbose = 1; break;
		case 'h': help(); return 0;
		case 'V': printf("pvaultd (PixelVault) %s\n", PV_VERSION); return 0;
		default: usage(stderr); return 2;
		}
		if (!ok) {
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pvaultd: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	pv_log_setup(verbose ? PV_LOG_INFO : PV_LOG_WARN, 0);
	rc = cfile ? pv_conf_load_file(&conf, cfile) : pv_conf_load(&conf);
	if (rc != PV_OK) {
		fprintf(stderr, "pvaultd: cannot load the configuration (%s): the line "
		        "above names the problem\n", pv_strerror(rc));
		return 1;
	}
	if (sock != NULL)
		snprintf(conf.socket, sizeof conf.socket, "%s", sock);
	d.workers_per_client = f_w ? f_w : conf.daemon.workers_per_client;
	d.max_conn = f_conn ? f_conn : conf.daemon.max_conn;
	d.max_conn_uid = f_uid ? f_uid : conf.daemon.max_conn_uid;
	d.hello_timeout_s = f_hello ? f_hello : conf.daemon.hello_timeout_s;
	d.client_mem = (uint64_t)(f_cmem ? f_cmem : conf.daemon.client_mib) << 20;
	d.uid_mem = (uint64_t)(f_umem ? f_umem : conf.daemon.uid_mib) << 20;
	d.total_mem = (uint64_t)(f_mem ? f_mem : conf.daemon.total_mib) << 20;
	d.log_interval_s = f_logiv ? f_logiv : conf.daemon.log_interval_s;
	pvd_fd_budget(&d);
	d.uids = (pvd_uid_ent *)calloc(d.max_conn, sizeof *d.uids);
	if (d.uids == NULL) {
		fprintf(stderr, "pvaultd: no memory\n");
		return 1;
	}

	/* signals: handled synchronously through a signalfd */
	sigemptyset(&ss);
	sigaddset(&ss, SIGTERM);
	sigaddset(&ss, SIGINT);
	pthread_sigmask(SIG_BLOCK, &ss, NULL);
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &ss, SFD_CLOEXEC);

	bconf = conf;
	snprintf(bconf.mode, sizeof bconf.mode, "embedded");
	/* clients' requests are executed by the backend's workers, never by
	 * the daemon threads that move them (one slow request must not hold
	 * up a client's ring) */
	snprintf(bconf.cpu_exec, sizeof bconf.cpu_exec, "workers");
	rc = pv_vault_open(&bconf, &d.backend);
	if (rc != PV_OK) {
		char why[1024];
		fprintf(stderr, "pvaultd: cannot open the backend: %s\n",
		        pv_vault_explain(&bconf, rc, NULL, why, sizeof why));
		return 1;
	}
	pv_vault_get_info(d.backend, &d.binfo);
	if (d.binfo.sealed) {
		/* served anyway: clients learn it and say so; the operator
		 * learns it here */
		char why[1024];
		pv_log(PV_LOG_WARN, "vault sealed: %s",
		       pv_vault_explain(&bconf, PV_OK, &d.binfo, why, sizeof why));
	}
	pthread_mutex_init(&d.mu, NULL);
	pthread_mutex_init(&d.note_mu, NULL);
	pthread_cond_init(&d.cv, NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	d.t0 = (uint64_t)ts.tv_sec;

	{
		const char *lp = getenv("LISTEN_PID"), *lf = getenv("LISTEN_FDS");
		if (lp && lf && (pid_t)strtol(lp, NULL, 10) == getpid() && atoi(lf) == 1) {
			lfd = 3;
			activated = 1;
		}
	}
	if (lfd < 0)
		lfd = listen_on(conf.socket);
	if (lfd < 0) {
		pv_vault_close(d.backend);
		return 1;
	}
	pv_log(PV_LOG_INFO, "pvaultd: serving %s (backend %s, %s); at most %u connections, "
	       "%u per uid, %u workers per client, %llu MiB for clients",
	       conf.socket, d.binfo.backend, d.binfo.sealed ? "sealed" : "unsealed",
	       d.max_conn, d.max_conn_uid, d.workers_per_client,
	       (unsigned long long)(d.total_mem >> 20));
	fprintf(stderr, "pvaultd: ready on %s (backend %s, %s)\n", activated ? "activated socket" : conf.socket,
	        d.binfo.backend, d.binfo.sealed ? "sealed" : "unsealed");

	pvd_gate_run(&d, lfd, sfd);

	/* drain: no new clients; every client's workers finish the requests
	 * already published, then the connections drop */
	close(lfd);
	if (!activated)
		unlink(conf.socket);
	{
		int i;
		for (i = 0; i < 300; i++) {          /* 30 s at most */
			uint32_t n;
			pvd_drain_all(&d);
			pthread_mutex_lock(&d.mu);
			n = d.nconn;
			if (n > 0) {
				clock_gettime(CLOCK_REALTIME, &ts);
				ts.tv_nsec += 100000000L;
				if (ts.tv_nsec >= 1000000000L) {
					ts.tv_sec++;
					ts.tv_nsec -= 1000000000L;
				}
				pthread_cond_timedwait(&d.cv, &d.mu, &ts);
				n = d.nconn;
			}
			pthread_mutex_unlock(&d.mu);
			if (n == 0)
				break;
		}
		if (d.nconn > 0) {
			fprintf(stderr, "pvaultd: clients did not drain in 30 s; exiting\n");
			_exit(1);
		}
	}
	pv_vault_close(d.backend);      /* stops the workers, wipes the keys */
	fprintf(stderr, "pvaultd: stopped (%llu requests completed, %llu errors)\n",
	        (unsigned long long)d.completed, (unsigned long long)d.errors);
	return 0;
}
