/*
 * test_coredump.c - no key byte in a core dump of a busy process.
 *
 * A client process (this program again, "--busy") imports known keys - an
 * AES-256 key, a P-256 private key, an RSA-2048 private key - through the
 * module, wipes its own copies, and then encrypts and signs with them in
 * many threads (AES only, ECDSA only, or both with RSA now and then).  While it runs, gdb's gcore dumps it several times (the
 * module embedded, on the CPU backend), then pvaultd serving such a client
 * in daemon mode, and that client.  No dump may hold the AES key, the EC
 * scalar, RSA's d, p, q, dp, dq or qinv, the master key or the KEK derived
 * from it, in either byte order (td_core.h).  A finding names the mapping
 * and thread it lies in.
 */
#include "td_common.h"
#include "td_core.h"
#include "td_p11.h"
#include "../p11pk/pk_ossl.h"
#include "gpu/core/hash/kc_kdf.h"
#include "gpu/engine/ve_engine.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NTHREADS 8
#define NDUMPS 5
#define NKEYS 10                      /* aes, ec d, rsa n e d p q dp dq qinv */

static const uint8_t oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };

/* ---- the busy client (a process of its own: "--busy KEYFILE") ---- */

static CK_FUNCTION_LIST_PTR F;
static CK_SLOT_ID slot;
static CK_OBJECT_HANDLE h_aes, h_ec, h_rsa;
static _Atomic int started, quiet, quieted;
static uint8_t keybuf[4096];          /* the keys, wiped after the import */

static void die(const char *what, CK_RV rv)
{
	fprintf(stderr, "busy client: %s failed: rv 0x%lx\n", what, (unsigned long)rv);
	_exit(3);
}

static CK_RV import(CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *h, CK_SESSION_HANDLE s)
{
	return F->C_CreateObject(s, t, n, h);
}

/* Field i of the key file (be16 length + value). */
static uint8_t *field(int i, CK_ULONG *len)
{
	size_t o = 0;
	for (;;) {
		size_t l = ((size_t)keybuf[o] << 8) | keybuf[o + 1];
		if (i-- == 0) {
			*len = l;
			return keybuf + o + 2;
		}
		o += 2 + l;
	}
}

static void import_all(CK_SESSION_HANDLE s)
{
	static const CK_ATTRIBUTE_TYPE rf[8] = { CKA_MODULUS, CKA_PUBLIC_EXPONENT,
		CKA_PRIVATE_EXPONENT, CKA_PRIME_1, CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2,
		CKA_COEFFICIENT };
	CK_OBJECT_CLASS sec = CKO_SECRET_KEY, priv = CKO_PRIVATE_KEY;
	CK_KEY_TYPE kaes = CKK_AES, kec = CKK_EC, krsa = CKK_RSA;
	CK_BBOOL yes = CK_TRUE;
	CK_ATTRIBUTE a[16];
	CK_ULONG n = 0, l;
	CK_RV rv;
	int i;

	a[n++] = (CK_ATTRIBUTE){ CKA_CLASS, &sec, sizeof sec };
	a[n++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kaes, sizeof kaes };
	a[n++] = (CK_ATTRIBUTE){ CKA_TOKEN, &yes, sizeof yes };
	a[n++] = (CK_ATTRIBUTE){ CKA_ENCRYPT, &yes, sizeof yes };
	a[n] = (CK_ATTRIBUTE){ CKA_VALUE, NULL, 0 };
	a[n].pValue = field(0, &l);
	a[n++].ulValueLen = l;
	if ((rv = import(a, n, &h_aes, s)) != CKR_OK)
		die("the AES key's import", rv);

	n = 0;
	a[n++] = (CK_ATTRIBUTE){ CKA_CLASS, &priv, sizeof priv };
	a[n++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &kec, sizeof kec };
	a[n++] = (CK_ATTRIBUTE){ CKA_TOKEN, &yes, sizeof yes };
	a[n++] = (CK_ATTRIBUTE){ CKA_SIGN, &yes, sizeof yes };
	a[n++] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)oid_p256, sizeof oid_p256 };
	a[n] = (CK_ATTRIBUTE){ CKA_VALUE, NULL, 0 };
	a[n].pValue = field(1, &l);
	a[n++].ulValueLen = l;
	if ((rv = import(a, n, &h_ec, s)) != CKR_OK)
		die("the EC key's import", rv);

	n = 0;
	a[n++] = (CK_ATTRIBUTE){ CKA_CLASS, &priv, sizeof priv };
	a[n++] = (CK_ATTRIBUTE){ CKA_KEY_TYPE, &krsa, sizeof krsa };
	a[n++] = (CK_ATTRIBUTE){ CKA_TOKEN, &yes, sizeof yes };
	a[n++] = (CK_ATTRIBUTE){ CKA_SIGN, &yes, sizeof yes };
	for (i = 0; i < 8; i++) {
		a[n] = (CK_ATTRIBUTE){ rf[i], NULL, 0 };
		a[n].pValue = field(2 + i, &l);
		a[n++].ulValueLen = l;
	}
	if ((rv = import(a, n, &h_rsa, s)) != CKR_OK)
		die("the RSA key's import", rv);
}

/* What a busy thread does: AES only, ECDSA only, or AES, ECDSA and now
 * and then RSA (whose time would otherwise keep every thread inside the
 * engine, where no stale register can be caught). */
enum { ROLE_AES, ROLE_EC, ROLE_MIX };

static void op_aes(CK_SESSION_HANDLE s, const uint8_t *msg, size_t n)
{
	uint8_t iv[16] = { 1 }, gcm_iv[12] = { 2 }, out[1024];
	CK_GCM_PARAMS gp = { gcm_iv, sizeof gcm_iv, 96, NULL, 0, 128 };
	CK_MECHANISM cbc = { CKM_AES_CBC_PAD, iv, sizeof iv };
	CK_MECHANISM gcm = { CKM_AES_GCM, &gp, sizeof gp };
	CK_ULONG ol = sizeof out;
	CK_RV rv;

	if ((rv = F->C_EncryptInit(s, &cbc, h_aes)) != CKR_OK ||
	    (rv = F->C_Encrypt(s, (CK_BYTE_PTR)msg, n, out, &ol)) != CKR_OK)
		die("AES-CBC", rv);
	ol = sizeof out;
	if ((rv = F->C_EncryptInit(s, &gcm, h_aes)) != CKR_OK ||
	    (rv = F->C_Encrypt(s, (CK_BYTE_PTR)msg, n, out, &ol)) != CKR_OK)
		die("AES-GCM", rv);
	/* multi-part: the key schedule travels in the sealed state */
	ol = sizeof out;
	if ((rv = F->C_EncryptInit(s, &cbc, h_aes)) != CKR_OK ||
	    (rv = F->C_EncryptUpdate(s, (CK_BYTE_PTR)msg, n / 2, out, &ol)) != CKR_OK)
		die("AES-CBC multi-part", rv);
	ol = sizeof out;
	if ((rv = F->C_EncryptUpdate(s, (CK_BYTE_PTR)msg + n / 2, n - n / 2, out, &ol)) != CKR_OK)
		die("AES-CBC multi-part", rv);
	ol = sizeof out;
	if ((rv = F->C_EncryptFinal(s, out, &ol)) != CKR_OK)
		die("AES-CBC multi-part", rv);
}

static void op_sign(CK_SESSION_HANDLE s, CK_MECHANISM_TYPE m, CK_OBJECT_HANDLE k,
                    const uint8_t *in, size_t n)
{
	CK_MECHANISM mech = { m, NULL, 0 };
	uint8_t out[512];
	CK_ULONG ol = sizeof out;
	CK_RV rv;

	if ((rv = F->C_SignInit(s, &mech, k)) != CKR_OK ||
	    (rv = F->C_Sign(s, (CK_BYTE_PTR)in, n, out, &ol)) != CKR_OK)
		die(m == CKM_ECDSA ? "ECDSA" : "RSA", rv);
}

static void *busy_thread(void *arg)
{
	const unsigned i = (unsigned)(uintptr_t)arg;
	const int role = i % 4 == 0 ? ROLE_AES : i % 4 == 1 ? ROLE_EC : ROLE_MIX;
	uint8_t msg[512], dig[32];
	CK_SESSION_HANDLE s;
	unsigned long round;
	CK_RV rv;

	memset(msg, (int)i, sizeof msg);
	memset(dig, 0x5a, sizeof dig);
	if ((rv = F->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &s)) != CKR_OK)
		die("C_OpenSession", rv);
	for (round = 0;; round++) {
		if (role != ROLE_EC)
			op_aes(s, msg, sizeof msg);
		if (role != ROLE_AES)
			op_sign(s, CKM_ECDSA, h_ec, dig, sizeof dig);
		if (role == ROLE_MIX && round % 16 == i % 16)
			op_sign(s, CKM_SHA256_RSA_PKCS, h_rsa, msg, 64);
		if (round == 4)
			atomic_fetch_add(&started, 1);
		if (atomic_load(&quiet))
			break;
	}
	/* the quiet phase: one last call with each key, then this thread
	 * sleeps with whatever its registers held when the module returned */
	op_aes(s, msg, sizeof msg);
	op_sign(s, CKM_ECDSA, h_ec, dig, sizeof dig);
	op_sign(s, CKM_SHA256_RSA_PKCS, h_rsa, msg, 64);
	atomic_fetch_add(&quieted, 1);
	for (;;)
		pause();
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
	atomic_store(&quiet, 1);
}

static int busy_main(const char *keyfile)
{
	CK_SLOT_ID slots[8];
	CK_ULONG n = 8;
	CK_UTF8CHAR label[32];
	CK_SESSION_HANDLE s;
	td_daemon none;
	pthread_t th;
	void *lib;
	FILE *f;
	size_t got;
	CK_RV rv;
	long i;

	signal(SIGUSR1, on_usr1);
	/* gcore runs as a sibling: let it attach where Yama restricts ptrace */
	(void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	memset(&none, 0, sizeof none);
	snprintf(none.conf, sizeof none.conf, "%s", getenv("PIXELVAULT_CONF"));
	if (td_p11_load(&none, &lib, &F) != 0)
		die("loading the module", CKR_GENERAL_ERROR);
	if ((rv = F->C_GetSlotList(CK_FALSE, slots, &n)) != CKR_OK || n < 1)
		die("C_GetSlotList", rv);
	slot = slots[0];
	memset(label, ' ', sizeof label);
	memcpy(label, "coredump", 8);
	if ((rv = F->C_InitToken(slot, (CK_UTF8CHAR_PTR)"87654321", 8, label)) != CKR_OK ||
	    (rv = F->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, &s)) != CKR_OK ||
	    (rv = F->C_Login(s, CKU_SO, (CK_UTF8CHAR_PTR)"87654321", 8)) != CKR_OK ||
	    (rv = F->C_InitPIN(s, (CK_UTF8CHAR_PTR)"12345678", 8)) != CKR_OK ||
	    (rv = F->C_Logout(s)) != CKR_OK ||
	    (rv = F->C_Login(s, CKU_USER, (CK_UTF8CHAR_PTR)"12345678", 8)) != CKR_OK)
		die("the token's set-up", rv);

	/* the keys: read straight into keybuf (no stdio buffer), imported,
	 * wiped; from here on only the module may hold them */
	f = fopen(keyfile, "rb");
	if (f == NULL)
		die("opening the key file", CKR_GENERAL_ERROR);
	setvbuf(f, NULL, _IONBF, 0);
	got = fread(keybuf, 1, sizeof keybuf, f);
	fclose(f);
	if (got < 64)
		die("reading the key file", CKR_GENERAL_ERROR);
	import_all(s);
	explicit_bzero(keybuf, sizeof keybuf);

	for (i = 0; i < NTHREADS; i++)
		if (pthread_create(&th, NULL, busy_thread, (void *)(uintptr_t)i) != 0)
			die("pthread_create", CKR_GENERAL_ERROR);
	while (atomic_load(&started) < NTHREADS)
		usleep(10000);
	if (write(1, "R", 1) != 1)
		die("telling the test", CKR_GENERAL_ERROR);
	while (atomic_load(&quieted) < NTHREADS)
		usleep(10000);
	if (write(1, "Q", 1) != 1)
		die("telling the test", CKR_GENERAL_ERROR);
	for (;;)
		pause();
	return 0;
}

/* ---- the test ---- */

static td_daemon D;
static uint8_t keyfile_buf[4096];
static size_t keyfile_len;
static uint8_t aes[32], ecd[32], kek[32];
static uint8_t rsa[8][520];
static size_t rsal[8];
static td_secret S[NKEYS];
static size_t nsec;
static char core_dir[300];

static void put(const uint8_t *p, size_t n)
{
	keyfile_buf[keyfile_len++] = (uint8_t)(n >> 8);
	keyfile_buf[keyfile_len++] = (uint8_t)n;
	memcpy(keyfile_buf + keyfile_len, p, n);
	keyfile_len += n;
}

static void secret(const char *name, const uint8_t *p, size_t n)
{
	S[nsec++] = (td_secret){ name, p, n };
}

static int make_keys(void)
{
	static const char *rn[8] = { "RSA n", "RSA e", "RSA d", "RSA p", "RSA q",
	                             "RSA dp", "RSA dq", "RSA qinv" };
	static const char label[] = VE_KEK_LABEL;
	EVP_PKEY *ec = po_ec_gen("P-256"), *r = po_rsa_gen(2048);
	char path[400];
	FILE *f;
	int i;

	if (ec == NULL || r == NULL || po_ec_priv(ec, ecd, 32) != 32)
		return -1;
	ts_rand(aes, sizeof aes);
	for (i = 0; i < 8; i++)
		if ((rsal[i] = po_rsa_comp(r, i, rsa[i], sizeof rsa[i])) == 0)
			return -1;
	EVP_PKEY_free(ec);
	EVP_PKEY_free(r);
	if (kc_hkdf(KC_HASH_SHA256, NULL, 0, te_master, sizeof te_master,
	            (const uint8_t *)label, sizeof label - 1u, kek, sizeof kek) != PV_OK)
		return -1;
	put(aes, 32);
	put(ecd, 32);
	for (i = 0; i < 8; i++)
		put(rsa[i], rsal[i]);
	secret("the AES-256 key", aes, 32);
	secret("the P-256 private key", ecd, 32);
	for (i = 2; i < 8; i++)
		secret(rn[i], rsa[i], rsal[i]);
	secret("the master key", te_master, 32);
	secret("the KEK", kek, 32);

	snprintf(path, sizeof path, "%s/keys.bin", D.dir);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(keyfile_buf, 1, keyfile_len, f) != keyfile_len)
		return -1;
	fclose(f);
	snprintf(core_dir, sizeof core_dir, "%s/cores", D.dir);
	return mkdir(core_dir, 0700);
}

/* Wait for the byte want from the busy client (60 s at most). */
static int busy_wait(int fd, char want)
{
	struct pollfd pf;
	char c;

	pf.fd = fd;
	pf.events = POLLIN;
	return poll(&pf, 1, 60000) == 1 && read(fd, &c, 1) == 1 && c == want ? 0 : -1;
}

/* Start "--busy" with conf; 0 once all its threads run, its pid in *pid
 * and the end of its pipe in *fd. */
static int busy_start(const char *conf, pid_t *pid, int *fd)
{
	char keys[400];
	int p[2];

	snprintf(keys, sizeof keys, "%s/keys.bin", D.dir);
	if (pipe(p) != 0)
		return -1;
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (*pid == 0) {
		close(p[0]);
		dup2(p[1], 1);
		setenv("PIXELVAULT_CONF", conf, 1);
		/* glibc's per-thread heaps reserve 64 MiB each, which gcore
		 * writes out as zeros: two keep the dumps small */
		setenv("MALLOC_ARENA_MAX", "2", 1);
		execl("/proc/self/exe", "test_coredump", "--busy", keys, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	*fd = p[0];
	return busy_wait(p[0], 'R');
}

/* The quiet phase: every thread made its last call and sleeps. */
static int busy_quiet(pid_t pid, int fd)
{
	kill(pid, SIGUSR1);
	if (busy_wait(fd, 'Q') != 0)
		return -1;
	usleep(300000);               /* the vault's workers finish idle work */
	return 0;
}

static void busy_stop(pid_t pid, int fd)
{
	int st;
	CU_ASSERT_EQUAL(waitpid(pid, &st, WNOHANG), 0);     /* no operation failed */
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(fd);
}

static int copy_file(const char *from, const char *to)
{
	char buf[8192];
	FILE *a = fopen(from, "r"), *b = fopen(to, "w");
	size_t n;
	int rc = a && b ? 0 : -1;
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, a)) > 0)
		if (fwrite(buf, 1, n, b) != n)
			rc = -1;
	if (a)
		fclose(a);
	if (b)
		fclose(b);
	return rc;
}

/* gcore pid, then search the dump.  Returns the windows found, -1 if no
 * dump was made. */
static long dump_scan(pid_t pid, const char *what, int k)
{
	char prefix[400], core[420], maps[420], log[420], proc[64];
	struct stat st;
	pid_t g;
	int status;
	long hits;

	snprintf(prefix, sizeof prefix, "%s/core", core_dir);
	snprintf(core, sizeof core, "%s.%d", prefix, (int)pid);
	snprintf(maps, sizeof maps, "%s/smaps", core_dir);
	snprintf(log, sizeof log, "%s/gcore.log", core_dir);
	g = fork();
	if (g < 0)
		return -1;
	if (g == 0) {
		char ps[16];
		FILE *l = freopen(log, "w", stdout);
		(void)l;
		dup2(1, 2);
		snprintf(ps, sizeof ps, "%d", (int)pid);
		execlp("gcore", "gcore", "-o", prefix, ps, (char *)NULL);
		_exit(127);
	}
	waitpid(g, &status, 0);
	snprintf(proc, sizeof proc, "/proc/%d/smaps", (int)pid);
	if (copy_file(proc, maps) != 0 || stat(core, &st) != 0) {
		fprintf(stderr, "  %s: gcore made no dump (exit %d); its log %s:\n", what,
		        WIFEXITED(status) ? WEXITSTATUS(status) : -1, log);
		copy_file(log, "/dev/stderr");
		return -1;
	}
	hits = td_core_scan(core, maps, pid, S, nsec);
	printf("  %s, dump %d (%lld MB): %ld windows of key bytes\n", what, k,
	       (long long)st.st_size >> 20, hits);
	fflush(stdout);
	unlink(core);
	return hits;
}

static long dumps(pid_t pid, const char *what, int n)
{
	long all = 0, h;
	int k;
	for (k = 1; k <= n; k++) {
		h = dump_scan(pid, what, k);
		CU_ASSERT(h >= 0);
		all += h > 0 ? h : 0;
		usleep(200000);
	}
	return all;
}

static void t_embedded(void)
{
	char conf[400];
	pid_t pid;
	FILE *f;
	int fd;

	snprintf(conf, sizeof conf, "%s/embedded.conf", D.dir);
	f = fopen(conf, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "token_dir = %s/tokens-embedded\nmaster_key = %s\nbackend = cpu\n", D.dir, D.key);
	fclose(f);
	CU_ASSERT_FATAL(busy_start(conf, &pid, &fd) == 0);
	CU_ASSERT_EQUAL(dumps(pid, "client, vault embedded", NDUMPS), 0);
	CU_ASSERT_FATAL(busy_quiet(pid, fd) == 0);
	CU_ASSERT_EQUAL(dumps(pid, "client, vault embedded, idle", 2), 0);
	busy_stop(pid, fd);
}

static void t_daemon(void)
{
	pid_t pid;
	int fd;

	CU_ASSERT_FATAL(td_start(&D) == 0);
	CU_ASSERT_FATAL(busy_start(D.conf, &pid, &fd) == 0);
	CU_ASSERT_EQUAL(dumps(D.pid, "pvaultd", NDUMPS), 0);
	CU_ASSERT_EQUAL(dumps(pid, "client of pvaultd", 1), 0);
	CU_ASSERT_FATAL(busy_quiet(pid, fd) == 0);
	CU_ASSERT_EQUAL(dumps(D.pid, "pvaultd, idle", 2), 0);
	busy_stop(pid, fd);
	CU_ASSERT_EQUAL(td_stop(&D, SIGTERM), 0);
}

int main(int argc, char **argv)
{
	CU_pSuite s;
	int rc;

	if (argc == 3 && strcmp(argv[1], "--busy") == 0)
		return busy_main(argv[2]);
	if (system("command -v gcore >/dev/null 2>&1") != 0) {
		fprintf(stderr, "gdb's gcore is not installed (./run test installs gdb): skipped\n");
		return 77;
	}
	if (td_setup(&D) != 0 || make_keys() != 0) {
		fprintf(stderr, "test_coredump: set-up failed\n");
		return 1;
	}
	if (CU_initialize_registry() != CUE_SUCCESS ||
	    (s = CU_add_suite("coredump", NULL, NULL)) == NULL ||
	    CU_add_test(s, "client with the vault embedded", t_embedded) == NULL ||
	    CU_add_test(s, "pvaultd and its client", t_daemon) == NULL)
		return 1;
	rc = ts_run();
	td_cleanup(&D);
	return rc;
}
