/* kc_md.c - Merkle-Damgard framing for SHA-1, SHA-2 and SM3 (kc_md.h). */
#include "kc_md.h"
#include "kc_sha1.h"
#include "kc_sha2.h"
#include "kc_sm3.h"
#include "../kc_util.h"

KC_PRIV size_t kc_md_block(uint32_t md)
{
	return md == KC_MD_SHA512 ? KC_SHA512_BLOCK : KC_SHA256_BLOCK;
}

/* n blocks into h: the algorithm is chosen once per call, each loop calls
 * its compression directly (on the GPU a choice per block costs a 4 KiB
 * digest ~4 % more time) */
KC_PRIV void kc_md_blocks(uint32_t md, void *h, const uint8_t *p, size_t n)
{
	size_t i;

	switch (md) {
	case KC_MD_SHA1:
		for (i = 0; i < n; i++)
			kc_sha1_compress((uint32_t *)h, p + i * KC_SHA1_BLOCK);
		break;
	case KC_MD_SHA256:
		for (i = 0; i < n; i++)
			kc_sha256_compress((uint32_t *)h, p + i * KC_SHA256_BLOCK);
		break;
	case KC_MD_SHA512:
		for (i = 0; i < n; i++)
			kc_sha512_compress((uint64_t *)h, p + i * KC_SHA512_BLOCK);
		break;
	default:
		for (i = 0; i < n; i++)
			kc_sm3_compress((uint32_t *)h, p + i * KC_SM3_BLOCK);
		break;
	}
}

KC_API void kc_md_update(uint32_t md, void *h, uint8_t *buf, uint64_t *count,
                         const void *data, size_t len)
{
	const uint8_t *p = (const uint8_t *)data;
	const size_t bl = kc_md_block(md);
	size_t fill = (size_t)(*count & (bl - 1)), n;

	*count += (uint64_t)len;
	if (len == 0u)          /* data may be NULL then: no arithmetic on it */
		return;
	if (fill) {
		size_t take = bl - fill;
		if (take > len)
			take = len;
		kc_memcpy(buf + fill, p, take);
		p += take;
		len -= take;
		fill += take;
		if (fill < bl)
			return;
		kc_md_blocks(md, h, buf, 1);
	}
	n = md == KC_MD_SHA512 ? len >> 7 : len >> 6;
	kc_md_blocks(md, h, p, n);
	p += n * bl;
	kc_memcpy(buf, p, len - n * bl);
}

KC_PRIV void kc_md_pad(uint32_t md, void *h, uint8_t *buf, uint64_t count)
{
	const size_t bl = kc_md_block(md), ll = md == KC_MD_SHA512 ? 16 : 8;
	size_t fill = (size_t)(count & (bl - 1));

	buf[fill++] = 0x80;
	if (fill > bl - ll) {
		kc_memset(buf + fill, 0, bl - fill);
		kc_md_blocks(md, h, buf, 1);
		fill = 0;
	}
	kc_memset(buf + fill, 0, bl - 8 - fill);
	if (ll == 16)
		kc_store_be64(buf + bl - 16, count >> 61);   /* the length's high word */
	kc_store_be64(buf + bl - 8, count << 3);
	kc_md_blocks(md, h, buf, 1);
}

KC_API void kc_md_final(uint32_t md, void *h, uint8_t *buf, uint64_t count,
                        uint8_t *out, size_t outlen)
{
	const size_t words = md == KC_MD_SHA1 ? 5 : 8;
	uint8_t tmp[64];
	size_t i, len;

	kc_md_pad(md, h, buf, count);
	for (i = 0; i < words; i++) {
		if (md == KC_MD_SHA512)
			kc_store_be64(tmp + 8 * i, ((const uint64_t *)h)[i]);
		else
			kc_store_be32(tmp + 4 * i, ((const uint32_t *)h)[i]);
	}
	len = words * (md == KC_MD_SHA512 ? 8 : 4);
	kc_memcpy(out, tmp, outlen < len ? outlen : len);
	kc_wipe(tmp, sizeof tmp);
}
