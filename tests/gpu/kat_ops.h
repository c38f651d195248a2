/*
 * kat_ops.h - one known-answer job, written once and compiled twice: into
 * the GPU test kernel (gpu_kat.cu, where the core is #included as
 * __host__ __device__ static inline code) and into the host reference
 * (href.c, linked against the CPU build libpv_core.a).  KAT_FN sets the
 * execution space; KAT_NAME the function's name.
 *
 * Job input layout: key[klen] || iv[ivlen] || aad[aadlen] || data[inlen].
 */
#ifndef KAT_OPS_H
#define KAT_OPS_H

#include <stdint.h>

enum {
	J_HASH = 1,      /* alg=KC_HASH_*, data; outlen = digest (64 for SHAKE) */
	J_HMAC,          /* alg, key, data                                     */
	J_HKDF,          /* alg, ikm=key, salt=iv, info=aad, outlen             */
	J_ECB_ENC,       /* alg=KC_BC_*, key, data (whole blocks)               */
	J_CBC_PAD_ENC,   /* alg, key, iv[16], data                              */
	J_CBC_PAD_DEC,   /* alg, key, iv[16], data=ct                           */
	J_CTR,           /* alg, key, iv=counter[16], data                      */
	J_GCM_SEAL,      /* alg, key, iv, aad, data -> ct||tag[16]              */
	J_GCM_OPEN,      /* alg, key, iv, aad, data=ct||tag -> pt, rc           */
	J_CMAC,          /* alg, key, data -> 16                                */
	J_KW_WRAP,       /* key, data                                           */
	J_KWP_WRAP,      /* key, data                                           */
	J_ED_PUB,        /* key=seed[32] -> 32                                  */
	J_ED_SIGN,       /* key=seed[32], data -> 64                            */
	J_EC_PUB,        /* alg=curve, key=priv -> 1+2flen                      */
	J_ECDH,          /* alg=curve, key=priv, iv=peer -> flen                */
	J_ECDSA_SIGN,    /* alg=curve, key=priv, data=hash -> 2flen (RFC 6979)  */
	J_ECDSA_VERIFY,  /* alg=curve, key=pub, iv=sig, data=hash -> rc         */
	J_FILL,          /* alg 0 kc_memset, 1 kc_wipe, 2 kc_memcpy; iv[4] =
	                    offset, length (2 bytes), value (2: source offset);
	                    data -> data with the span filled (2: with
	                    data[source offset ..] copied into it) */
	J_MAX
};

typedef struct kat_job {
	uint32_t type, alg;
	uint32_t klen, ivlen, aadlen, inlen;
	uint32_t outlen;          /* expected output length (capacity)          */
	uint32_t in_off, out_off; /* into the input / output pools             */
} kat_job;

#endif /* KAT_OPS_H */

#ifdef KAT_FN
/* The job runner: needs the core headers (included by the includer).
 * Each family is its own non-inlined function (KAT_NOINLINE), which keeps
 * the GPU kernel's functions small enough to compile in reasonable time. */
#ifndef KAT_NOINLINE
#define KAT_NOINLINE
#endif
#define KAT_CAT2(a, b) a##_##b
#define KAT_CAT(a, b) KAT_CAT2(a, b)
#define KAT_SUB(n) KAT_CAT(KAT_NAME, n)

KAT_FN KAT_NOINLINE int KAT_SUB(hash)(const kat_job *j, const uint8_t *key, const uint8_t *iv,
	const uint8_t *aad, const uint8_t *data, uint8_t *out, size_t *ol)
{
	int rc;
	switch (j->type) {
	case J_HASH:
		if (j->alg == KC_HASH_SHAKE128 || j->alg == KC_HASH_SHAKE256)
			rc = kc_shake(j->alg, data, j->inlen, out, j->outlen);
		else
			rc = kc_hash(j->alg, data, j->inlen, out);
		*ol = j->outlen;
		return rc;
	case J_HMAC:
		rc = kc_hmac(j->alg, key, j->klen, data, j->inlen, out);
		*ol = kc_hash_len(j->alg);
		return rc;
	default:
		rc = kc_hkdf(j->alg, iv, j->ivlen, key, j->klen, aad, j->aadlen, out, j->outlen);
		*ol = j->outlen;
		return rc;
	}
}

KAT_FN KAT_NOINLINE int KAT_SUB(sym)(const kat_job *j, const uint8_t *key, const uint8_t *iv,
	const uint8_t *data, uint8_t *out, size_t *ol)
{
	kc_bc bc;
	uint8_t ivc[16], ks[16];
	uint32_t used = 0;
	int rc = kc_bc_init(&bc, j->type == J_KW_WRAP || j->type == J_KWP_WRAP ? KC_BC_AES : j->alg,
	                    key, j->klen);
	if (rc != PV_OK)
		return rc;
	for (int i = 0; i < 16; i++)
		ivc[i] = j->ivlen >= 16 ? iv[i] : 0;
	if (j->type == J_ECB_ENC) {
		kc_ecb_encrypt(&bc, data, out, j->inlen / 16);
		*ol = j->inlen / 16 * 16;
	} else if (j->type == J_CBC_PAD_ENC) {
		rc = kc_cbc_pad_encrypt(&bc, ivc, data, j->inlen, out, ol);
	} else if (j->type == J_CBC_PAD_DEC) {
		rc = kc_cbc_pad_decrypt(&bc, ivc, data, j->inlen, out, ol);
	} else if (j->type == J_CTR) {
		kc_ctr_xcrypt(&bc, ivc, 128, ks, &used, data, out, j->inlen);
		*ol = j->inlen;
	} else if (j->type == J_CMAC) {
		kc_cmac cm;
		rc = kc_cmac_init(&cm, &bc);
		if (rc == PV_OK) {
			kc_cmac_update(&cm, data, j->inlen);
			kc_cmac_final(&cm, out);
			*ol = 16;
		}
	} else if (j->type == J_KW_WRAP) {
		rc = kc_kw_wrap(&bc, data, j->inlen, out);
		*ol = j->inlen + 8;
	} else {
		rc = kc_kwp_wrap(&bc, data, j->inlen, out, ol);
	}
	kc_bc_clear(&bc);
	return rc;
}

KAT_FN KAT_NOINLINE int KAT_SUB(gcm)(const kat_job *j, const uint8_t *key, const uint8_t *iv,
	const uint8_t *aad, const uint8_t *data, uint8_t *out, size_t *ol)
{
	kc_bc bc;
	kc_gcm g;
	uint32_t dl = j->inlen;
	int rc = kc_bc_init(&bc, j->alg, key, j->klen);
	if (rc == PV_OK)
		rc = kc_gcm_init(&g, &bc, iv, j->ivlen);
	kc_bc_clear(&bc);
	if (rc == PV_OK)
		rc = kc_gcm_aad(&g, aad, j->aadlen);
	if (rc != PV_OK)
		return rc;
	if (j->type == J_GCM_SEAL) {
		rc = kc_gcm_encrypt(&g, data, out, dl);
		if (rc == PV_OK) {
			kc_gcm_tag(&g, out + dl);
			*ol = dl + 16;
		}
	} else if (dl < 16) {
		rc = PV_ERR_ENC_LEN;
	} else {
		dl -= 16;
		rc = kc_gcm_decrypt(&g, data, out, dl);
		if (rc == PV_OK)
			rc = kc_gcm_check_tag(&g, data + dl, 16);
		*ol = rc == PV_OK ? dl : 0;
	}
	kc_gcm_clear(&g);
	return rc;
}

KAT_FN KAT_NOINLINE int KAT_SUB(ed)(const kat_job *j, const uint8_t *key, const uint8_t *data,
	uint8_t *out, size_t *ol)
{
	if (j->type == J_ED_PUB) {
		*ol = 32;
		return kc_ed25519_pubkey(key, out);
	}
	*ol = 64;
	return kc_ed25519_sign(key, (const uint8_t *)0, data, j->inlen, out);
}

KAT_FN KAT_NOINLINE int KAT_SUB(ec)(const kat_job *j, const uint8_t *key, const uint8_t *iv,
	const uint8_t *data, uint8_t *out, size_t *ol)
{
	switch (j->type) {
	case J_EC_PUB:
		*ol = 1 + 2 * kc_ec_flen((int)j->alg);
		return kc_ec_pubkey((int)j->alg, key, out);
	case J_ECDH:
		*ol = kc_ec_flen((int)j->alg);
		return kc_ecdh((int)j->alg, key, iv, j->ivlen, out);
	case J_ECDSA_SIGN:
		*ol = 2 * kc_ec_flen((int)j->alg);
		return kc_ecdsa_sign((int)j->alg, key, data, j->inlen, (kc_drbg *)0, out);
	default:
		*ol = 0;
		return kc_ecdsa_verify((int)j->alg, key, j->klen, data, j->inlen, iv, j->ivlen);
	}
}

/* J_FILL: the byte helpers at every alignment and length (the GPU's
 * 16-byte stores against the host's 8-byte ones; kc_memcpy's byte heads
 * and tails around its 8-byte words). */
KAT_FN KAT_NOINLINE int KAT_SUB(fill)(const kat_job *j, const uint8_t *iv, const uint8_t *data,
	uint8_t *out, size_t *ol)
{
	uint32_t off, len, i;
	if (j->ivlen != 4u)
		return PV_ERR_ARGS;
	for (i = 0; i < j->inlen; i++)
		out[i] = data[i];
	off = iv[0] % (j->inlen + 1u);
	len = ((uint32_t)iv[1] << 8 | iv[2]) % (j->inlen - off + 1u);
	if (j->alg == 0u)
		kc_memset(out + off, iv[3], len);
	else if (j->alg == 1u)
		kc_wipe(out + off, len);
	else
		kc_memcpy(out + off, data + iv[3] % (j->inlen - len + 1u), len);
	*ol = j->inlen;
	return PV_OK;
}

KAT_FN int KAT_NAME(const kat_job *j, const uint8_t *in, uint8_t *out, uint32_t *outlen)
{
	const uint8_t *key = in, *iv = in + j->klen, *aad = iv + j->ivlen;
	const uint8_t *data = aad + j->aadlen;
	size_t ol = 0;
	int rc;
	*outlen = 0;
	switch (j->type) {
	case J_HASH: case J_HMAC: case J_HKDF:
		rc = KAT_SUB(hash)(j, key, iv, aad, data, out, &ol);
		break;
	case J_ECB_ENC: case J_CBC_PAD_ENC: case J_CBC_PAD_DEC: case J_CTR:
	case J_CMAC: case J_KW_WRAP: case J_KWP_WRAP:
		rc = KAT_SUB(sym)(j, key, iv, data, out, &ol);
		break;
	case J_GCM_SEAL: case J_GCM_OPEN:
		rc = KAT_SUB(gcm)(j, key, iv, aad, data, out, &ol);
		break;
	case J_ED_PUB: case J_ED_SIGN:
		rc = KAT_SUB(ed)(j, key, data, out, &ol);
		break;
	case J_EC_PUB: case J_ECDH: case J_ECDSA_SIGN: case J_ECDSA_VERIFY:
		rc = KAT_SUB(ec)(j, key, iv, data, out, &ol);
		break;
	case J_FILL:
		rc = KAT_SUB(fill)(j, iv, data, out, &ol);
		break;
	default:
		rc = PV_ERR_MECHANISM;
	}
	if (rc != PV_OK)
		ol = 0;
	*outlen = (uint32_t)ol;
	return rc;
}
#endif /* KAT_FN */
