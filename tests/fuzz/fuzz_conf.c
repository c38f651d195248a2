/*
 * fuzz_conf.c - libFuzzer harness for the configuration parser
 * (gpu/host/pv_conf.c: pixelvault.conf, read by the module, pvaultd and
 * pvault) and the master key file's reader (gpu/host/pv_master.c).
 *
 * Input: byte 0 bit 0 clear: the rest is a pixelvault.conf; set: the rest
 * is a master key file (read without a passphrase, and with one when
 * byte 0 bit 1 is set).  Besides the sanitizers' reports, a loaded
 * configuration whose strings are not terminated within their fields, or
 * whose numbers are beyond the parser's bound, fails the run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpu/core/pv_err.h"
#include "gpu/host/pv_conf.h"
#include "gpu/host/pv_master.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fc_fd = -1;
static char fc_path[64];

static void fc_str(const char *what, const char *s, size_t cap)
{
	if (memchr(s, 0, cap) == NULL) {
		fprintf(stderr, "fuzz_conf: %s is not terminated\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static pv_conf c;

	if (fc_fd < 0) {
		/* the parsers take a path: a memory file, rewritten per input;
		 * PIXELVAULT_BACKEND would override what the file says */
		unsetenv("PIXELVAULT_BACKEND");
		fc_fd = memfd_create("fuzz_conf", 0);
		if (fc_fd < 0)
			abort();
		snprintf(fc_path, sizeof fc_path, "/proc/self/fd/%d", fc_fd);
	}
	if (size < 1)
		return 0;
	if (ftruncate(fc_fd, 0) != 0 ||
	    pwrite(fc_fd, data + 1, size - 1, 0) != (ssize_t)(size - 1))
		abort();
	if (data[0] & 1u) {
		uint8_t key[PV_MASTER_KEY_LEN];
		(void)pv_master_needs_passphrase(fc_path);
		(void)pv_master_read(fc_path, (data[0] & 2u) ? "fuzz" : NULL, key);
		return 0;
	}
	if (pv_conf_load_file(&c, fc_path) == PV_OK) {
		fc_str("path", c.path, sizeof c.path);
		fc_str("token_dir", c.token_dir, sizeof c.token_dir);
		fc_str("master_key", c.master_key, sizeof c.master_key);
		fc_str("backend", c.backend, sizeof c.backend);
		fc_str("mode", c.mode, sizeof c.mode);
		fc_str("socket", c.socket, sizeof c.socket);
		fc_str("cpu_exec", c.cpu_exec, sizeof c.cpu_exec);
		if (c.workers > (1u << 20) || c.gpu_device > (1u << 20) || c.gpu_slots > (1u << 20) ||
		    c.gpu_blocks_per_sm > (1u << 20)) {
			fprintf(stderr, "fuzz_conf: a number beyond the parser's bound\n");
			abort();
		}
		(void)pv_conf_cpu_inline(&c);
	}
	return 0;
}
