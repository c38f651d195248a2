/*
 * pvault_bench.c - pvault bench: measure the token on this host.
 *
 * One benchmark implementation: p11bench (provisioning/p11bench) is the
 * engine, installed with pvault to LIBEXECDIR/pixelvault; this command only
 * checks the option names and execs it with --module naming the PKCS#11
 * module.  From the build tree (pvault itself is the build tree's binary)
 * it runs the build tree's p11bench and module.  Otherwise the installed
 * ones: under the root pvault runs from (pvault at ROOT/BINDIR/pvault: ROOT
 * is "" for an installed pvault, DESTDIR for a staged one), else at their
 * configured absolute paths.
 */
#include "provisioning/pvault.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if !defined(PVAULT_BUILD_DIR) || !defined(PVAULT_BINDIR)
#error "PVAULT_BUILD_DIR, PVAULT_BINDIR, PVAULT_P11BENCH_* and PVAULT_MODULE_* come from provisioning/meson.build"
#endif

/* The directory of this process's executable into dir; 0 or -1. */
static int self_dir(char *dir, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", dir, cap - 1);
	char *slash;

	if (n <= 0)
		return -1;
	dir[n] = 0;
	slash = strrchr(dir, '/');
	if (slash == NULL)
		return -1;
	*slash = 0;
	return 0;
}

/* 1 when this process is the pvault of the build directory it was built in. */
static int from_build_tree(void)
{
	char self[PATH_MAX], dir[PATH_MAX];

	if (self_dir(self, sizeof self) != 0 || realpath(PVAULT_BUILD_DIR, dir) == NULL)
		return 0;
	return strcmp(self, dir) == 0;
}

/* The root this pvault is installed under: with pvault in ROOT/BINDIR,
 * ROOT ("" at the configured place, DESTDIR in a staging tree); -1 when
 * pvault is elsewhere. */
static int install_root(char *root, size_t cap)
{
	char self[PATH_MAX];
	size_t n, b = strlen(PVAULT_BINDIR);

	if (self_dir(self, sizeof self) != 0)
		return -1;
	n = strlen(self);
	if (n < b || strcmp(self + n - b, PVAULT_BINDIR) != 0 || n - b >= cap)
		return -1;
	memcpy(root, self, n - b);
	root[n - b] = 0;
	return 0;
}

/* The first that exists of: the build tree's path (when running from it),
 * ROOT + the installed path, the installed path; NULL if none does. */
static const char *pick(int build, const char *root, const char *in_build,
                        const char *installed, char *buf, size_t cap)
{
	if (build && access(in_build, F_OK) == 0)
		return in_build;
	if (root != NULL && root[0] != 0 &&
	    (size_t)snprintf(buf, cap, "%s%s", root, installed) < cap && access(buf, F_OK) == 0)
		return buf;
	if (access(installed, F_OK) == 0)
		return installed;
	return NULL;
}

static void not_found(const char *what, int build, const char *root, const char *in_build,
                      const char *installed)
{
	if (build)
		pvault_err("bench: %s not found: neither %s (build tree) nor %s (installed) "
		           "exists; build it with ninja", what, in_build, installed);
	else if (root != NULL && root[0] != 0)
		pvault_err("bench: %s not found: neither %s%s (beside this pvault) nor %s "
		           "(installed) exists; install PixelVault again (meson install)",
		           what, root, installed, installed);
	else
		pvault_err("bench: %s not found: %s (installed) does not exist; install "
		           "PixelVault again (meson install)", what, installed);
}

/* The options p11bench takes from an operator; 1: takes a value. */
static const struct {
	const char *name;
	int arg;
} bench_opts[] = {
	{ "--threads", 1 }, { "--seconds", 1 }, { "--mech", 1 }, { "--csv", 1 },
	{ "--openssl-threads", 1 }, { "--lone", 0 }, { "--quick", 0 }, { "--gpu-slots", 1 },
	{ "--gpu-blocks-per-sm", 1 }, { "--async", 1 },
};

/* Checks argv[1..] (names only: p11bench checks the values). */
static int check_opts(int argc, char **argv)
{
	int i;
	size_t k, len;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		for (k = 0; k < sizeof bench_opts / sizeof bench_opts[0]; k++)
			if (strlen(bench_opts[k].name) == len && !strncmp(a, bench_opts[k].name, len))
				break;
		if (k == sizeof bench_opts / sizeof bench_opts[0]) {
			pvault_err("bench: unknown option '%s' (see pvault bench --help)", a);
			return -1;
		}
		if (!bench_opts[k].arg && eq) {
			pvault_err("bench: %s takes no value", bench_opts[k].name);
			return -1;
		}
		if (bench_opts[k].arg && !eq && ++i == argc) {
			pvault_err("bench: %s needs a value", bench_opts[k].name);
			return -1;
		}
	}
	return 0;
}

static int bench_run(int argc, char **argv)
{
	char root[PATH_MAX], exe_buf[PATH_MAX], module_buf[PATH_MAX];
	const char *exe, *module, *rootp = NULL;
	char **av;
	int build, i;

	if (check_opts(argc, argv) != 0)
		return PVAULT_EXIT_USAGE;
	build = from_build_tree();
	if (!build && install_root(root, sizeof root) == 0)
		rootp = root;
	exe = pick(build, rootp, PVAULT_P11BENCH_BUILD, PVAULT_P11BENCH_INSTALLED,
	           exe_buf, sizeof exe_buf);
	module = pick(build, rootp, PVAULT_MODULE_BUILD, PVAULT_MODULE_INSTALLED,
	              module_buf, sizeof module_buf);
	if (exe == NULL || module == NULL) {
		if (exe == NULL)
			not_found("p11bench", build, rootp, PVAULT_P11BENCH_BUILD,
			          PVAULT_P11BENCH_INSTALLED);
		else
			not_found("the PKCS#11 module", build, rootp, PVAULT_MODULE_BUILD,
			          PVAULT_MODULE_INSTALLED);
		return PVAULT_EXIT_FAIL;
	}
	av = calloc((size_t)argc + 3, sizeof *av);
	if (av == NULL) {
		pvault_err("bench: out of memory");
		return PVAULT_EXIT_FAIL;
	}
	av[0] = (char *)exe;
	av[1] = (char *)"--module";
	av[2] = (char *)module;
	for (i = 1; i < argc; i++)
		av[i + 2] = argv[i];
	fflush(NULL);
	execv(exe, av);
	pvault_err("bench: cannot run %s: %s", exe, strerror(errno));
	free(av);
	return PVAULT_EXIT_FAIL;
}

const pv_cmd pv_bench_cmds[] = {
	{ NULL, "bench", "measure the token (and OpenSSL) on this host",
	  "pvault bench [--threads LIST] [--seconds S] [--mech LIST] [--csv FILE]\n"
	  "                    [--openssl-threads LIST|none] [--lone] [--quick]\n"
	  "                    [--gpu-slots N] [--gpu-blocks-per-sm N] [--async N]\n\n"
	  "DESCRIPTION\n"
	  "  Measures the PixelVault PKCS#11 module on this host, and OpenSSL on the\n"
	  "  same data for comparison: for each mechanism and thread count, ops/s,\n"
	  "  throughput and latency p50/p99/p99.9, as a table on stdout.  Every\n"
	  "  output is checked with OpenSSL; a wrong answer fails the run.  The\n"
	  "  benchmark is p11bench (docs/benchmarks.md), run with the module this\n"
	  "  pvault belongs to: from the build tree the build tree's p11bench and\n"
	  "  module, else LIBEXECDIR/pixelvault/p11bench and the installed module\n"
	  "  (in the same installation tree as this pvault, e.g. under DESTDIR).\n\n"
	  "  It makes its own temporary token (a new directory under /tmp with its\n"
	  "  own master key and pixelvault.conf, removed at the end): it never\n"
	  "  touches your tokens, master key or pixelvault.conf.  That\n"
	  "  pixelvault.conf has no `backend =` line, so the backend is `auto` (the\n"
	  "  GPU when there is one) unless PIXELVAULT_BACKEND says otherwise; on\n"
	  "  some hosts the CPU backend beats the GPU backend, so compare both and\n"
	  "  set `backend =` in your pixelvault.conf to the faster one.  The table's\n"
	  "  first line names the backend that ran.  The default run (every\n"
	  "  mechanism, 1 to 64 threads, 3 s per row) takes several minutes.\n\n"
	  "OPTIONS\n"
	  "  --threads LIST           token thread counts (default 1,2,4,8,16,32,64)\n"
	  "  --openssl-threads LIST|none\n"
	  "                           OpenSSL thread counts (default: --threads capped\n"
	  "                           at the online CPUs); none: no OpenSSL rows\n"
	  "  --seconds S              seconds per row (default 3)\n"
	  "  --mech LIST              mechanisms, comma-separated (default all):\n"
	  "                           rsa2048-sign, p256-sign, sm2-sign, ed25519-sign,\n"
	  "                           sha3-256-4k, sm3-4k, sha256-4k, sha3-256-64,\n"
	  "                           aes256gcm-1m, aes256gcm-16k\n"
	  "  --csv FILE               also write one CSV row per (impl, mech, threads)\n"
	  "  --lone                   threads 1 only: the latency of a lone request\n"
	  "  --quick                  threads 1,2 and 0.25 s per row: a smoke test\n"
	  "  --gpu-slots N            the temporary token's gpu_slots (GPU requests in\n"
	  "                           flight, a power of two 16..4096; default 128):\n"
	  "                           with more threads than 128, say 1024\n"
	  "  --gpu-blocks-per-sm N    the temporary token's gpu_blocks_per_sm (1..32;\n"
	  "                           default: as many as fit): fewer can give more EC\n"
	  "                           signatures and fewer RSA ones\n"
	  "  --async N                each token thread keeps N PKCS#11 3.2 async\n"
	  "                           sessions' calls pending (rows \"async\"): what an\n"
	  "                           application gets from few threads\n"
	  "\nENVIRONMENT\n"
	  "  PIXELVAULT_BACKEND  auto (default), cpu or cuda: the backend measured\n"
	  "\nEXIT STATUS\n"
	  "  0 every row ran and every answer checked; 1 the benchmark failed (a\n"
	  "  message says why); 2 bad command line; 130 interrupted.\n"
	  "\nEXAMPLE\n"
	  "  PIXELVAULT_BACKEND=cpu pvault bench --mech sha256-4k,p256-sign --threads 1,8,32\n"
	  "  PIXELVAULT_BACKEND=cuda pvault bench --mech sha256-4k,p256-sign --threads 1,8,32\n"
	  "  pvault bench --lone --csv lone.csv\n",
	  bench_run },
	{ NULL, NULL, NULL, NULL, NULL }
};
