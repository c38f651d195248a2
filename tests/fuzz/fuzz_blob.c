/*
 * fuzz_blob.c - libFuzzer harness for the KeyStore blob parsers of the
 * engine (gpu/engine/ve_blob.c, the private-key payloads of ve_pk.c) and
 * for what the engine does with the key it opened.
 *
 * A blob that does not authenticate under the KEK stops at its GCM tag, so
 * random bytes only reach the header checks.  The harness therefore also
 * seals what the input spells out (header fields and payload, encrypted
 * under the vault's KEK with ve_blob_encrypt), so that the payload parsers
 * (vpk_unpack: the RSA widths, versions 1 and 2, EC and Ed25519 layouts)
 * and the operations behind them see arbitrary key material, as they would
 * of a key imported with inconsistent components.
 *
 * Input: byte 0 = flags
 *   bit 0  sealed: byte 2 = version, byte 3 = type (an index into
 *          fb_types, or when >= 0xf0 the 32-bit value in bytes 4..7),
 *          bytes 8, 9 = usage bits 0..7 and 24..31; bytes 10.. are the
 *          payload (bit 1: cut or zero-padded to the
 *          length the type's parser expects; for RSA that of the bit
 *          count in the payload's first 4 bytes, bit 6: of 4096 bits);
 *          without bit 0 the rest is the blob itself
 *   bit 2  the identity bound at opening differs from the sealed one
 *   bit 3  want_type = the type fb_types names in byte 1 instead of 0
 *   bit 4  use it: one request of the engine (ve_execute) with the blob
 *          as its key; byte 1 picks the operation from fb_ops (and the
 *          type of bit 3)
 *   bit 5  also rewrap it as a secret-key blob (ve_rewrap)
 * Every blob also goes through ve_blob_open and through the private-key
 * opener of a master-key rotation (ve_pk_rewrap to a second vault).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/engine/ve_pk.h"
#include "gpu/engine/ve_rewrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FB_ARENA (2u * PV_PKBLOB_MAX + 4096u)

static const uint32_t fb_types[] = {
	PV_KEY_AES, PV_KEY_SM4, PV_KEY_GENERIC, PV_KEY_RSA, PV_KEY_EC_P256, PV_KEY_EC_P384,
	PV_KEY_ED25519, PV_KEY_SM2, 0u,
};
#define FB_NTYPES (sizeof fb_types / sizeof fb_types[0])

/* One request per entry: op, mechanism, prf, flags. */
static const uint32_t fb_ops[][4] = {
	{ PV_OP_ENCRYPT, PV_MECH_AES_GCM, 0, 0 },
	{ PV_OP_DECRYPT, PV_MECH_AES_CBC_PAD, 0, 0 },
	{ PV_OP_SIGN, PV_MECH_AES_CMAC, 0, 0 },
	{ PV_OP_SIGN, PV_MECH_HMAC_SHA256, 0, 0 },
	{ PV_OP_ENCRYPT, PV_MECH_SM4_CTR, 0, 0 },
	{ PV_OP_SIGN, PV_MECH_RSA_PKCS, PV_MECH_SHA256, 0 },
	{ PV_OP_SIGN, PV_MECH_RSA_PKCS_PSS, PV_MECH_SHA256, 0 },
	{ PV_OP_DECRYPT, PV_MECH_RSA_X_509, 0, 0 },
	{ PV_OP_SIGN, PV_MECH_ECDSA, PV_MECH_SHA256, 0 },
	{ PV_OP_SIGN, PV_MECH_EDDSA, 0, 0 },
	{ PV_OP_SIGN, PV_MECH_SM2_SIGN, 0, 0 },
	{ PV_OP_DECRYPT, PV_MECH_SM2_ENCRYPT, 0, 0 },
	{ PV_OP_DERIVE_KEY, PV_MECH_ECDH1_DERIVE, 0, 0 },
	{ PV_OP_DERIVE_KEY, PV_MECH_HKDF, PV_MECH_SHA256, PV_F_DERIVE_DATA },
	{ PV_OP_WRAP_KEY, PV_MECH_AES_KEY_WRAP_KWP, 0, 0 },
	{ PV_OP_UNWRAP_KEY, PV_MECH_AES_KEY_WRAP, 0, 0 },
};
#define FB_NOPS (sizeof fb_ops / sizeof fb_ops[0])

static ve_vault fb_v, fb_v2;
static ve_worker fb_w;

static void fb_boot(void)
{
	static const uint8_t m1[VE_MASTER_LEN] = { 1, 2, 3 }, m2[VE_MASTER_LEN] = { 4, 5, 6 };
	static const uint8_t ent[48] = { 7, 8, 9 };

	if (ve_boot(&fb_v, m1, sizeof m1, ent, sizeof ent) != PV_OK ||
	    ve_boot(&fb_v2, m2, sizeof m2, ent, sizeof ent) != PV_OK ||
	    ve_worker_init(&fb_w, 0, ent, sizeof ent) != PV_OK)
		abort();
}

/* The payload length the type's parser takes (vpk_len_ok, ve_key_len_ok). */
static uint32_t fb_want_len(uint32_t type, const uint8_t *p, size_t n, int max)
{
	uint32_t bits, nb, hb;

	switch (type) {
	case PV_KEY_AES: case PV_KEY_SM4: return 16u;
	case PV_KEY_GENERIC: return 32u;
	case PV_KEY_EC_P256: case PV_KEY_SM2: return 97u;
	case PV_KEY_EC_P384: return 145u;
	case PV_KEY_ED25519: return 64u;
	case PV_KEY_RSA:
		if (max || n < 4)
			return 8u + 2u * KC_RSA_MAX_BYTES + 5u * KC_RSA_MAX_HBYTES;
		bits = ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
		if (bits < KC_RSA_MIN_BITS || bits > KC_RSA_MAX_BITS)
			bits = KC_RSA_MAX_BITS;       /* refused by its size anyway */
		nb = 4u * ((bits + 31u) / 32u);
		hb = 4u * (((bits + 1u) / 2u + 31u) / 32u);
		return 8u + 2u * nb + 5u * hb;
	default: return (uint32_t)n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t arena[FB_ARENA] __attribute__((aligned(16)));
	static const uint8_t id[PV_OBJ_ID_LEN] = { 'f', 'u', 'z', 'z' };
	uint8_t pay[PV_PK_PRIV_MAX], other[PV_OBJ_ID_LEN] = { 'o', 't', 'h' };
	uint8_t *blob = arena, *out = arena + PV_PKBLOB_MAX;
	uint32_t blen, olen, want = 0;
	uint8_t flags, sel;
	const uint8_t *d_id;
	static int booted;
	ve_key k;

	if (!booted) {
		fb_boot();
		booted = 1;
	}
	if (size < 2)
		return 0;
	flags = data[0];
	sel = data[1];
	d_id = (flags & 4u) ? other : id;
	if (flags & 8u)
		want = fb_types[sel % FB_NTYPES];
	if (flags & 1u) {
		uint32_t ver, type, usage, plen;
		if (size < 10)
			return 0;
		ver = data[2];
		type = data[3] >= 0xf0u ? ((uint32_t)data[4] << 24 | (uint32_t)data[5] << 16 |
		                           (uint32_t)data[6] << 8 | data[7])
		                        : fb_types[data[3] % FB_NTYPES];
		usage = (uint32_t)data[8] | ((uint32_t)data[9] << 24);
		data += 10;
		size -= 10;
		plen = size < sizeof pay ? (uint32_t)size : (uint32_t)sizeof pay;
		if (flags & 2u) {
			const uint32_t w = fb_want_len(type, data, size, flags & 64u);
			plen = w < plen ? w : plen;
			memset(pay, 0, sizeof pay);
			memcpy(pay, data, plen);
			plen = w <= sizeof pay ? w : (uint32_t)sizeof pay;
		} else {
			memcpy(pay, data, plen);
		}
		blen = PV_BLOB_OVERHEAD + plen;
		{
			/* the header as the input spells it (the policy: its high
			 * usage byte) */
			ve_bhdr h;
			memset(&h, 0, sizeof h);
			h.ver = ver; h.type = type; h.usage = usage; h.len = plen;
			h.policy = (usage >> 24) & PV_POL_ALL & ~PV_POL_TOKEN;
			if (ve_blob_encrypt(&fb_v.kek, &fb_w, &h, pay, id, blob) != PV_OK)
				abort();
		}
	} else {
		blen = (uint32_t)(size - 2 < PV_PKBLOB_MAX ? size - 2 : PV_PKBLOB_MAX);
		memcpy(blob, data + 2, blen);
	}

	{
		ve_bhdr h;
		if (ve_blob_parse(blob, blen, PV_BLOB_MAX, want, 0u, &h) == PV_OK &&
		    ve_blob_open(&fb_v.kek, &h, blob, d_id, &k) == PV_OK)
			kc_wipe(&k, sizeof k);
	}
	{
		ve_result res;
		ve_desc d;
		memset(&d, 0, sizeof d);
		d.version = VE_DESC_VERSION;
		d.op = PV_OP_NOP;
		memcpy(d.key_id, d_id, PV_OBJ_ID_LEN);
		d.key_type = want;
		d.key.off = 0;
		d.key.len = blen;
		if (flags & 16u) {
			const uint32_t *o = fb_ops[sel % FB_NOPS];
			uint8_t *in = out + PV_PKBLOB_MAX;
			d.op = o[0];
			d.mech = o[1];
			d.prf = o[2];
			d.flags = o[3];
			d.new_type = PV_KEY_GENERIC;
			d.new_usage = PV_USE_ALL;
			d.new_len = 32;
			memset(in, 0x5a, 1024);
			in[0] = 0;                        /* below an RSA modulus */
			d.in.off = (uint32_t)(in - arena);
			d.in.len = o[1] == PV_MECH_RSA_X_509 ? (blen > 300 ? 256u : 128u) : 32u;
			d.iv.off = d.in.off;
			d.iv.len = o[1] == PV_MECH_AES_GCM ? 12u : (o[1] == PV_MECH_ECDH1_DERIVE ? 0u : 16u);
			d.in2.off = d.in.off;
			d.in2.len = o[1] == PV_MECH_ECDH1_DERIVE ? 65u : 0u;
			d.key2 = d.key;                   /* WRAP_KEY: the key wraps itself */
			memcpy(d.key2_id, d.key_id, PV_OBJ_ID_LEN);
			d.out.off = (uint32_t)(out - arena);
			d.out.len = PV_PKBLOB_MAX;
			d.out2.off = d.in.off + 1024u;
			d.out2.len = 1024u;
			ve_execute(&fb_v, &fb_w, &d, arena, FB_ARENA, &res);
		}
	}
	/* the private-key opener (vpk_open_raw, the whole payload), legacy
	 * versions included */
	{
		ve_bhdr h;
		if (ve_blob_parse(blob, blen, PV_PKBLOB_MAX, 0u, VE_BP_LEGACY, &h) == PV_OK &&
		    ve_pk_is_type(h.type))
			(void)ve_pk_rewrap(&fb_v.kek, &fb_v2.kek, &fb_w, &h, blob, d_id, out,
			                   PV_PKBLOB_MAX, &olen);
	}
	if (flags & 32u)
		(void)ve_rewrap(&fb_v, &fb_v2, &fb_w, blob, blen, d_id, out, PV_PKBLOB_MAX, &olen);
	return 0;
}
