/*
 * ct_canary.c - the control for the ct harness: a deliberately leaky lookup
 * (a branch and a table index on a secret byte).  Registered with
 * should_fail: valgrind must report it, or the harness proves nothing.
 */
#include "ct.h"
#include <stdint.h>
#include <string.h>

static const uint8_t table[256] = { 1, 2, 3 };

int main(void)
{
	uint8_t secret[16];
	volatile uint32_t acc = 0;
	unsigned i;

	memset(secret, 0x5a, sizeof secret);
	CT_SECRET(secret, sizeof secret);
	for (i = 0; i < sizeof secret; i++) {
		if (secret[i] & 1)          /* secret-dependent branch */
			acc += 1;
		acc += table[secret[i]];     /* secret-dependent index */
	}
	CT_PUBLIC(secret, sizeof secret);
	CT_REPORT("canary (must be flagged)");
	return (int)(acc & 0);
}
