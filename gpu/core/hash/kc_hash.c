/* kc_hash.c - dispatch of kc_hash_* by algorithm number. */
#include "kc_hash.h"
#include "../kc_util.h"
#include "../pv_err.h"

KC_API size_t kc_hash_len(uint32_t alg)
{
	switch (alg) {
	case KC_HASH_SHA1: return KC_SHA1_LEN;
	case KC_HASH_SHA224: return KC_SHA224_LEN;
	case KC_HASH_SHA256: return KC_SHA256_LEN;
	case KC_HASH_SHA384: return KC_SHA384_LEN;
	case KC_HASH_SHA512: return KC_SHA512_LEN;
	case KC_HASH_SHA3_224: return KC_SHA3_224_LEN;
	case KC_HASH_SHA3_256: return KC_SHA3_256_LEN;
	case KC_HASH_SHA3_384: return KC_SHA3_384_LEN;
	case KC_HASH_SHA3_512: return KC_SHA3_512_LEN;
	case KC_HASH_SM3: return KC_SM3_LEN;
	default: return 0;   /* SHAKE and unknown */
	}
}

KC_API size_t kc_hash_block_len(uint32_t alg)
{
	switch (alg) {
	case KC_HASH_SHA1: return KC_SHA1_BLOCK;
	case KC_HASH_SHA224:
	case KC_HASH_SHA256: return KC_SHA256_BLOCK;
	case KC_HASH_SHA384:
	case KC_HASH_SHA512: return KC_SHA512_BLOCK;
	case KC_HASH_SHA3_224: return KC_SHA3_224_RATE;
	case KC_HASH_SHA3_256: return KC_SHA3_256_RATE;
	case KC_HASH_SHA3_384: return KC_SHA3_384_RATE;
	case KC_HASH_SHA3_512: return KC_SHA3_512_RATE;
	case KC_HASH_SM3: return KC_SM3_BLOCK;
	case KC_HASH_SHAKE128: return KC_SHAKE128_RATE;
	case KC_HASH_SHAKE256: return KC_SHAKE256_RATE;
	default: return 0;
	}
}

KC_API int kc_hash_init(kc_hash_ctx *c, uint32_t alg)
{
	c->alg = alg;
	c->pad_ = 0;
	switch (alg) {
	case KC_HASH_SHA1: kc_sha1_init(&c->u.sha1); break;
	case KC_HASH_SHA224: kc_sha224_init(&c->u.sha256); break;
	case KC_HASH_SHA256: kc_sha256_init(&c->u.sha256); break;
	case KC_HASH_SHA384: kc_sha384_init(&c->u.sha512); break;
	case KC_HASH_SHA512: kc_sha512_init(&c->u.sha512); break;
	case KC_HASH_SHA3_224:
	case KC_HASH_SHA3_256:
	case KC_HASH_SHA3_384:
	case KC_HASH_SHA3_512: kc_sha3_init(&c->u.sha3, kc_hash_len(alg)); break;
	case KC_HASH_SM3: kc_sm3_init(&c->u.sm3); break;
	case KC_HASH_SHAKE128: kc_shake_init(&c->u.sha3, 128); break;
	case KC_HASH_SHAKE256: kc_shake_init(&c->u.sha3, 256); break;
	default:
		kc_wipe(c, sizeof *c);
		return PV_ERR_MECHANISM;
	}
	return PV_OK;
}

KC_API void kc_hash_update(kc_hash_ctx *c, const void *data, size_t len)
{
	switch (c->alg) {
	case KC_HASH_SHA1: kc_sha1_update(&c->u.sha1, data, len); break;
	case KC_HASH_SHA224:
	case KC_HASH_SHA256: kc_sha256_update(&c->u.sha256, data, len); break;
	case KC_HASH_SHA384:
	case KC_HASH_SHA512: kc_sha512_update(&c->u.sha512, data, len); break;
	case KC_HASH_SHA3_224:
	case KC_HASH_SHA3_256:
	case KC_HASH_SHA3_384:
	case KC_HASH_SHA3_512:
	case KC_HASH_SHAKE128:
	case KC_HASH_SHAKE256: kc_sha3_update(&c->u.sha3, data, len); break;
	case KC_HASH_SM3: kc_sm3_update(&c->u.sm3, data, len); break;
	default: break;
	}
}

KC_API void kc_hash_final(kc_hash_ctx *c, uint8_t *out)
{
	switch (c->alg) {
	case KC_HASH_SHA1: kc_sha1_final(&c->u.sha1, out); break;
	case KC_HASH_SHA224: kc_sha224_final(&c->u.sha256, out); break;
	case KC_HASH_SHA256: kc_sha256_final(&c->u.sha256, out); break;
	case KC_HASH_SHA384: kc_sha384_final(&c->u.sha512, out); break;
	case KC_HASH_SHA512: kc_sha512_final(&c->u.sha512, out); break;
	case KC_HASH_SHA3_224:
	case KC_HASH_SHA3_256:
	case KC_HASH_SHA3_384:
	case KC_HASH_SHA3_512: kc_sha3_final(&c->u.sha3, out); break;
	case KC_HASH_SM3: kc_sm3_final(&c->u.sm3, out); break;
	default: break;      /* SHAKE: no fixed output (kc_hash_xof) */
	}
	kc_wipe(c, sizeof *c);
}

KC_API int kc_hash_xof(kc_hash_ctx *c, uint8_t *out, size_t len)
{
	if (c->alg != KC_HASH_SHAKE128 && c->alg != KC_HASH_SHAKE256)
		return PV_ERR_MECHANISM;
	kc_shake_final(&c->u.sha3, out, len);
	kc_wipe(c, sizeof *c);
	return PV_OK;
}

KC_API int kc_hash(uint32_t alg, const void *data, size_t len, uint8_t *out)
{
	kc_hash_ctx c;
	if (kc_hash_len(alg) == 0)
		return PV_ERR_MECHANISM;
	kc_hash_init(&c, alg);
	kc_hash_update(&c, data, len);
	kc_hash_final(&c, out);
	return PV_OK;
}

KC_API int kc_shake(uint32_t alg, const void *data, size_t len, uint8_t *out, size_t outlen)
{
	kc_hash_ctx c;
	if (alg != KC_HASH_SHAKE128 && alg != KC_HASH_SHAKE256)
		return PV_ERR_MECHANISM;
	kc_hash_init(&c, alg);
	kc_hash_update(&c, data, len);
	return kc_hash_xof(&c, out, outlen);
}

KC_API int kc_hash_check(const kc_hash_ctx *c)
{
	const kc_sha3_state *s;
	size_t rate;

	if (c->pad_ != 0)
		return PV_ERR_STATE;
	switch (c->alg) {
	case KC_HASH_SHA1:
		return c->u.sha1.pad_ == 0 ? PV_OK : PV_ERR_STATE;
	case KC_HASH_SHA224:
	case KC_HASH_SHA256:
	case KC_HASH_SHA384:
	case KC_HASH_SHA512:
	case KC_HASH_SM3:
		return PV_OK;    /* the buffer index is count mod block: always in range */
	case KC_HASH_SHA3_224:
	case KC_HASH_SHA3_256:
	case KC_HASH_SHA3_384:
	case KC_HASH_SHA3_512:
	case KC_HASH_SHAKE128:
	case KC_HASH_SHAKE256:
		s = &c->u.sha3;
		rate = kc_hash_block_len(c->alg);
		if (s->rate != rate || s->pos >= rate || s->mdlen != kc_hash_len(c->alg))
			return PV_ERR_STATE;
		if (s->dsbyte != (c->alg >= KC_HASH_SHAKE128 ? 0x1f : 0x06))
			return PV_ERR_STATE;
		return PV_OK;
	default:
		return PV_ERR_STATE;
	}
}

KC_API void kc_hash_clear(kc_hash_ctx *c)
{
	kc_wipe(c, sizeof *c);
}
