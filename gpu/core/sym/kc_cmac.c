/*
 * kc_cmac.c - CMAC (SP 800-38B) over AES or SM4, streaming.
 */
#include "gpu/core/sym/kc_sym_int.h"

/* d = s << 1 ^ (0x87 if msb(s)), constant time */
KC_PRIV void kc_cmac_dbl(uint8_t d[16], const uint8_t s[16])
{
	uint32_t m = (uint32_t)0 - ((uint32_t)s[0] >> 7);
	int i;

	for (i = 0; i < 15; i++)
		d[i] = (uint8_t)((s[i] << 1) | (s[i + 1] >> 7));
	d[15] = (uint8_t)((s[15] << 1) ^ (m & 0x87u));
}

KC_API int kc_cmac_init(kc_cmac *c, const kc_bc *bc)
{
	uint8_t L[16];

	if (!KC_BC_IS_AES(bc) && bc->alg != KC_BC_SM4)
		return PV_ERR_ARGS;
	kc_memset(c, 0, sizeof *c);
	kc_memcpy(&c->bc, bc, sizeof *bc);
	kc_memset(L, 0, 16);
	kc_bc_encrypt_n(&c->bc, L, L, 1);
	kc_cmac_dbl(c->K1, L);
	kc_cmac_dbl(c->K2, c->K1);
	kc_wipe(L, sizeof L);
	return PV_OK;
}

KC_PRIV void kc_cmac_block(kc_cmac *c, const uint8_t *p)
{
	int i;
	for (i = 0; i < 16; i++)
		c->X[i] ^= p[i];
	kc_bc_encrypt_n(&c->bc, c->X, c->X, 1);
}

/* The last block is held back in buf until final. */
KC_API void kc_cmac_update(kc_cmac *c, const uint8_t *in, size_t len)
{
	while (len > 0) {
		if (c->buf_len == 16) {
			kc_cmac_block(c, c->buf);
			c->buf_len = 0;
		}
		if (c->buf_len == 0 && len > 16) {
			kc_cmac_block(c, in);
			in += 16;
			len -= 16;
			continue;
		}
		c->buf[c->buf_len++] = *in++;
		len--;
	}
}

KC_API void kc_cmac_final(kc_cmac *c, uint8_t mac[16])
{
	uint32_t i;

	if (c->buf_len == 16) {
		for (i = 0; i < 16; i++)
			c->buf[i] ^= c->K1[i];
	} else {
		c->buf[c->buf_len] = 0x80;
		for (i = c->buf_len + 1; i < 16; i++)
			c->buf[i] = 0;
		for (i = 0; i < 16; i++)
			c->buf[i] ^= c->K2[i];
	}
	kc_cmac_block(c, c->buf);
	kc_memcpy(mac, c->X, 16);
	kc_wipe(c, sizeof *c);
}

KC_API void kc_cmac_clear(kc_cmac *c)
{
	kc_wipe(c, sizeof *c);
}
