/* kc_sha3.c - Keccak-f[1600], SHA-3 and SHAKE (FIPS 202). */
#include "kc_sha3.h"
#include "../kc_util.h"

/* Keccak-f[1600]'s round constants (iota).  A function's static, so that
 * the GPU's build places it in device memory like the other tables. */
KC_PRIV const uint64_t *kc_keccak_rc(void)
{
	static const uint64_t RC[24] = {
		0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
		0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
		0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
		0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
		0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
		0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL
	};
	return RC;
}

/* An execution space may run the permutation, and the absorb of whole
 * blocks, on several cooperating threads that hold the same state
 * (gpu/cuda/pvc_keccak_warp.cuh: the 32 lanes of a warp that run one
 * request with identical data), with the round constants rc.  Each
 * returns 1 when it did the work. */
#ifndef KC_KECCAK_COOP
#define KC_KECCAK_COOP(st, rc) 0
#define KC_SHA3_ABSORB_COOP(st, p, nb, rate, rc) 0
#endif

KC_API void kc_keccak_f1600(uint64_t st[25])
{
	const uint64_t *RC = kc_keccak_rc();
	/* rho offsets and pi lane order, walked along the (1,0) orbit */
	static const uint8_t ROT[24] = {
		1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44
	};
	static const uint8_t PI[24] = {
		10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1
	};
	/* the lanes in a local copy, every index below constant once the
	 * inner loops are unrolled: registers on the GPU */
	uint64_t a[25], bc[5], t;
	unsigned r, i, j;

	if (KC_KECCAK_COOP(st, RC))
		return;
	KC_UNROLL
	for (i = 0; i < 25; i++)
		a[i] = st[i];
	for (r = 0; r < 24; r++) {
		/* theta */
		KC_UNROLL
		for (i = 0; i < 5; i++)
			bc[i] = a[i] ^ a[i + 5] ^ a[i + 10] ^ a[i + 15] ^ a[i + 20];
		KC_UNROLL
		for (i = 0; i < 5; i++) {
			t = bc[(i + 4) % 5] ^ kc_rotl64(bc[(i + 1) % 5], 1);
			KC_UNROLL
			for (j = 0; j < 25; j += 5)
				a[j + i] ^= t;
		}
		/* rho and pi */
		t = a[1];
		KC_UNROLL
		for (i = 0; i < 24; i++) {
			j = PI[i];
			bc[0] = a[j];
			a[j] = kc_rotl64(t, ROT[i]);
			t = bc[0];
		}
		/* chi */
		KC_UNROLL
		for (j = 0; j < 25; j += 5) {
			KC_UNROLL
			for (i = 0; i < 5; i++)
				bc[i] = a[j + i];
			KC_UNROLL
			for (i = 0; i < 5; i++)
				a[j + i] ^= (~bc[(i + 1) % 5]) & bc[(i + 2) % 5];
		}
		/* iota */
		a[0] ^= RC[r];
	}
	KC_UNROLL
	for (i = 0; i < 25; i++)
		st[i] = a[i];
	KC_WIPE_REGS(a, sizeof a);
	KC_WIPE_REGS(bc, sizeof bc);
}

KC_PRIV void kc_sha3_setup(kc_sha3_state *s, unsigned rate, uint8_t ds, uint8_t mdlen)
{
	kc_memset(s->a, 0, sizeof s->a);
	s->pos = 0;
	s->rate = (uint16_t)rate;
	s->dsbyte = ds;
	s->mdlen = mdlen;
}

KC_API void kc_sha3_init(kc_sha3_state *s, size_t mdlen)
{
	if (mdlen != 28 && mdlen != 32 && mdlen != 48 && mdlen != 64)
		mdlen = 32;
	kc_sha3_setup(s, 200u - 2u * (unsigned)mdlen, 0x06, (uint8_t)mdlen);
}

KC_API void kc_shake_init(kc_sha3_state *s, unsigned bits)
{
	kc_sha3_setup(s, bits == 128 ? KC_SHAKE128_RATE : KC_SHAKE256_RATE, 0x1f, 0);
}

KC_API void kc_sha3_update(kc_sha3_state *s, const void *data, size_t len)
{
	const uint8_t *p = (const uint8_t *)data;
	size_t pos = s->pos, rate = s->rate;

	while (len > 0) {
		if (pos == 0 && len >= rate && KC_SHA3_ABSORB_COOP(s->a, p, len / rate, (uint32_t)rate, kc_keccak_rc())) {
			const size_t n = len - len % rate;
			p += n;
			len -= n;
			continue;
		}
		if ((pos & 7) == 0 && len >= 8) {
			/* whole lanes up to the end of the block */
			while (len >= 8 && pos < rate) {
				s->a[pos >> 3] ^= kc_load_le64(p);
				p += 8;
				len -= 8;
				pos += 8;
			}
		} else {
			s->a[pos >> 3] ^= (uint64_t)(*p) << (8 * (pos & 7));
			p++;
			len--;
			pos++;
		}
		if (pos == rate) {
			kc_keccak_f1600(s->a);
			pos = 0;
		}
	}
	s->pos = (uint32_t)pos;
}

KC_PRIV void kc_sha3_pad(kc_sha3_state *s)
{
	size_t pos = s->pos, last = (size_t)s->rate - 1;
	s->a[pos >> 3] ^= (uint64_t)s->dsbyte << (8 * (pos & 7));
	s->a[last >> 3] ^= (uint64_t)0x80 << (8 * (last & 7));
	kc_keccak_f1600(s->a);
}

KC_PRIV void kc_sha3_squeeze(kc_sha3_state *s, uint8_t *out, size_t len)
{
	size_t pos = 0, rate = s->rate, i;
	for (i = 0; i < len; i++) {
		if (pos == rate) {
			kc_keccak_f1600(s->a);
			pos = 0;
		}
		out[i] = (uint8_t)(s->a[pos >> 3] >> (8 * (pos & 7)));
		pos++;
	}
}

KC_API void kc_sha3_final(kc_sha3_state *s, uint8_t *out)
{
	kc_sha3_pad(s);
	kc_sha3_squeeze(s, out, s->mdlen);
	kc_wipe(s, sizeof *s);
}

KC_API void kc_shake_final(kc_sha3_state *s, uint8_t *out, size_t len)
{
	kc_sha3_pad(s);
	kc_sha3_squeeze(s, out, len);
	kc_wipe(s, sizeof *s);
}
