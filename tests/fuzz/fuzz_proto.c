/*
 * fuzz_proto.c - libFuzzer harness for pvaultd's message parser and
 * request-descriptor validation (gpu/client/pv_proto.c), plus execution of
 * every descriptor that passes validation on an embedded CPU vault, the
 * way pvaultd's workers do it (copy, validate, execute from a private
 * buffer).
 *
 * Input: byte 0 selects the target; the rest is the message (target 0) or
 * a ve_desc followed by arena bytes (target 1).
 *
 *   fuzz build (docs/testing.md): build-fuzz/tests/fuzz/fuzz_proto
 *   any build: fuzz_replay replays the corpus (test daemon_fuzz_replay).
 */
#include "gpu/client/pv_proto.h"
#include "gpu/vault.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FZ_ARENA 8192u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pv_vault *fz_vault(void)
{
	static pv_vault *v;
	static const uint8_t master[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	if (v == NULL && pv_vault_open_key(master, 32, 1, 2, 3u * FZ_ARENA, &v) != PV_OK)
		abort();
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t type;
	if (size < 1)
		return 0;
	if ((data[0] & 1) == 0) {
		/* the first message of a connection, as recv(MSG_TRUNC) gives it */
		uint8_t buf[PVP_MSG_MAX];
		size_t n = size - 1;
		size_t c = n < sizeof buf ? n : sizeof buf;
		memcpy(buf, data + 1, c);
		(void)pvp_check(buf, n, sizeof buf, &type);
		return 0;
	}
	{
		ve_desc d;
		uint8_t *arena;
		pv_req r;
		size_t an;
		if (size < 1 + sizeof d)
			return 0;
		memcpy(&d, data + 1, sizeof d);
		an = size - 1 - sizeof d;
		arena = (uint8_t *)calloc(1, FZ_ARENA);
		if (arena == NULL)
			return 0;
		memcpy(arena, data + 1 + sizeof d, an < FZ_ARENA ? an : FZ_ARENA);
		/* every span a valid request names lies inside the arena; an
		 * RSA key pair generation is validated but not run: its prime
		 * search takes seconds under the sanitizers, by design, and
		 * would only stall the fuzzer (fuzz_blob and the unit suites
		 * run the RSA code) */
		if (pvp_desc_to_req(&d, arena, FZ_ARENA, &r) == PV_OK &&
		    !(d.op == PV_OP_GENERATE_PAIR && d.mech == PV_MECH_RSA_KEY_PAIR_GEN))
			(void)pv_vault_call(fz_vault(), &r);
		free(arena);
	}
	return 0;
}
