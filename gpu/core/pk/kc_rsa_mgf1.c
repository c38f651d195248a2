/* kc_rsa_mgf1.c - MGF1 (RFC 8017 B.2.1), XORed into a buffer in place. */
#include "kc_rsa.h"
#include "../hash/kc_hash.h"
#include "../kc_util.h"
#include "../pv_err.h"

KC_API int kc_rsa_mgf1_xor(uint32_t alg, const uint8_t *seed, size_t slen,
                           uint8_t *out, size_t olen)
{
	kc_hash_ctx c;
	uint8_t h[KC_HASH_MAX_LEN], cnt[4];
	size_t hl = kc_hash_len(alg), off = 0, i, n;
	uint32_t ctr = 0;

	if (hl == 0)
		return PV_ERR_MECHANISM;
	while (off < olen) {
		kc_hash_init(&c, alg);
		kc_hash_update(&c, seed, slen);
		kc_store_be32(cnt, ctr);
		kc_hash_update(&c, cnt, 4);
		kc_hash_final(&c, h);
		n = olen - off < hl ? olen - off : hl;
		for (i = 0; i < n; i++)
			out[off + i] ^= h[i];
		off += n;
		ctr++;
	}
	kc_wipe(h, sizeof h);
	kc_wipe(&c, sizeof c);
	return PV_OK;
}
