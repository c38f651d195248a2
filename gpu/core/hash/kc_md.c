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

KC_PRIV void kc_md_compress(uint32_t md, void *h, const uint8_t *block)
{
	switch (md) {
	case KC_MD_SHA1: kc_sha1_compress((uint32_t *)h, block); break;
	case KC_MD_SHA256: kc_sha256_compress((uint32_t *)h, block); break;
	case KC_MD_SHA512: kc_sha512_compress((uint64_t *)h, block); break;
	default: kc_sm3_compress((uint32_t *)h, block); break;
	}
}

KC_API void kc_md_update(uint32_t md, void *h, uint8_t *buf, uint64_t *count,
                         const void *data, size_t len)
{
	const uint8_t *p = (const uint8_t *)data;
	const size_t bl = kc_md_block(md);
	size_t fill = (size_t)(*count & (bl - 1));

	*count += (uint64_t)len;
	if (fill) {
		size_t n = bl - fill;
		if (n > len)
			n = len;
		kc_memcpy(buf + fill, p, n);
		p += n;
		len -= n;
		fill += n;
		if (fill < bl)
			return;
		kc_md_compress(md, h, buf);
	}
	while (len >= bl) {
		kc_md_compress(md, h, p);
		p += bl;
		len -= bl;
	}
	kc_memcpy(buf, p, len);
}

KC_PRIV void kc_md_pad(uint32_t md, void *h, uint8_t *buf, uint64_t count)
{
	const size_t bl = kc_md_block(md), ll = md == KC_MD_SHA512 ? 16 : 8;
	size_t fill = (size_t)(count & (bl - 1));

	buf[fill++] = 0x80;
	if (fill > bl - ll) {
		kc_memset(buf + fill, 0, bl - fill);
		kc_md_compress(md, h, buf);
		fill = 0;
	}
	kc_memset(buf + fill, 0, bl - 8 - fill);
	if (ll == 16)
		kc_store_be64(buf + bl - 16, count >> 61);   /* the length's high word */
	kc_store_be64(buf + bl - 8, count << 3);
	kc_md_compress(md, h, buf);
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
