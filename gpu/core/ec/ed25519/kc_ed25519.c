/*
 * kc_ed25519.c - Ed25519 key derivation, signing and verification
 * (RFC 8032 sections 5.1.5 - 5.1.7), and the Ed25519ctx / Ed25519ph
 * variants (dom2 prefix, RFC 8032 5.1).  See kc_ed25519.h.
 */
#include "kc_ed25519.h"
#include "kc_ge25519.h"
#include "kc_sc25519.h"
#include "../../kc_util.h"
#include "../../pv_err.h"
#include "../../hash/kc_hash.h"

/* h = SHA-512(seed); clamp the low half into the secret scalar. */
KC_PRIV void ed25519_expand(uint8_t h[64], const uint8_t seed[32])
{
	kc_hash(KC_HASH_SHA512, seed, 32, h);
	h[0] &= 248;
	h[31] &= 127;
	h[31] |= 64;
}

KC_API int kc_ed25519_pubkey(const uint8_t seed[32], uint8_t pub[32])
{
	uint8_t h[64];
	kc_ge25519_p3 A;

	if (!seed || !pub)
		return PV_ERR_ARGS;
	ed25519_expand(h, seed);
	kc_ge25519_scalarmult_base(&A, h);
	kc_ge25519_p3_tobytes(pub, &A);
	kc_wipe(h, sizeof h);
	kc_wipe(&A, sizeof A);
	return 0;
}

KC_API int kc_ed25519_keygen(kc_drbg *d, uint8_t seed[32], uint8_t pub[32])
{
	int rc;

	if (!d || !seed || !pub)
		return PV_ERR_ARGS;
	rc = kc_drbg_generate(d, seed, 32, (const uint8_t *)0, 0);
	if (rc == 0)
		rc = kc_ed25519_pubkey(seed, pub);
	if (rc != 0) {
		kc_wipe(seed, 32);
		kc_wipe(pub, 32);
	}
	return rc;
}

/*
 * dom2(F, C) of RFC 8032 5.1: "SigEd25519 no Ed25519 collisions" || F ||
 * OLEN(C) || C, absorbed in front of both hashes of Ed25519ctx/Ed25519ph;
 * pure Ed25519 has no prefix (dom == NULL).
 */
typedef struct ed25519_dom {
	uint32_t flag;                       /* F: 0 ctx, 1 ph */
	const uint8_t *ctx;
	size_t ctxlen;                       /* <= 255 */
} ed25519_dom;

KC_PRIV void ed25519_hash_dom(kc_hash_ctx *hc, const ed25519_dom *dom)
{
	static const uint8_t tag[32] = {
		'S', 'i', 'g', 'E', 'd', '2', '5', '5', '1', '9', ' ', 'n', 'o', ' ',
		'E', 'd', '2', '5', '5', '1', '9', ' ', 'c', 'o', 'l', 'l', 'i', 's',
		'i', 'o', 'n', 's'
	};
	uint8_t fo[2];

	kc_hash_init(hc, KC_HASH_SHA512);
	if (!dom)
		return;
	fo[0] = (uint8_t)dom->flag;
	fo[1] = (uint8_t)dom->ctxlen;
	kc_hash_update(hc, tag, sizeof tag);
	kc_hash_update(hc, fo, 2);
	kc_hash_update(hc, dom->ctx, dom->ctxlen);
}

/* RFC 8032 5.1.6 with an optional dom2 prefix; msg is M (or PH(M)). */
KC_PRIV void ed25519_sign_dom(const uint8_t seed[32], const uint8_t pub[32],
                              const ed25519_dom *dom, const uint8_t *msg,
                              size_t len, uint8_t sig[64])
{
	uint8_t h[64], r64[64], r[32], k64[64], k[32], A[32];
	kc_hash_ctx hc;
	kc_ge25519_p3 R;

	ed25519_expand(h, seed);             /* h[0..31] = s, h[32..63] = prefix */
	if (pub) {
		kc_memcpy(A, pub, 32);
	} else {
		kc_ge25519_scalarmult_base(&R, h);
		kc_ge25519_p3_tobytes(A, &R);
	}

	/* r = SHA-512(dom2 || prefix || M) mod L; R = [r]B */
	ed25519_hash_dom(&hc, dom);
	kc_hash_update(&hc, h + 32, 32);
	kc_hash_update(&hc, msg, len);
	kc_hash_final(&hc, r64);
	kc_sc25519_reduce(r, r64);
	kc_ge25519_scalarmult_base(&R, r);
	kc_ge25519_p3_tobytes(sig, &R);      /* R is public from here on */

	/* k = SHA-512(dom2 || R || A || M) mod L; S = (r + k s) mod L */
	ed25519_hash_dom(&hc, dom);
	kc_hash_update(&hc, sig, 32);
	kc_hash_update(&hc, A, 32);
	kc_hash_update(&hc, msg, len);
	kc_hash_final(&hc, k64);
	kc_sc25519_reduce(k, k64);
	kc_sc25519_muladd(sig + 32, k, h, r);

	kc_wipe(h, sizeof h);
	kc_wipe(r64, sizeof r64);
	kc_wipe(r, sizeof r);
	kc_wipe(&R, sizeof R);
	kc_wipe(&hc, sizeof hc);
}

/* RFC 8032 5.1.7 (cofactorless, see kc_ed25519.h) with an optional dom2. */
KC_PRIV int ed25519_verify_dom(const uint8_t pub[32], const ed25519_dom *dom,
                               const uint8_t *msg, size_t len, const uint8_t *sig)
{
	uint8_t k64[64], k[32], rcheck[32];
	kc_hash_ctx hc;
	kc_ge25519_p3 A;
	kc_ge25519_p2 R;

	if (kc_ge25519_frombytes(&A, pub) != 0)
		return PV_ERR_PUBKEY;
	if (!kc_sc25519_is_canonical(sig + 32))
		return PV_ERR_SIG_INVALID;

	ed25519_hash_dom(&hc, dom);
	kc_hash_update(&hc, sig, 32);
	kc_hash_update(&hc, pub, 32);
	kc_hash_update(&hc, msg, len);
	kc_hash_final(&hc, k64);
	kc_sc25519_reduce(k, k64);

	/* R' = [S]B - [k]A = [k](-A) + [S]B */
	kc_ge25519_p3_neg(&A, &A);
	kc_ge25519_double_scalarmult_vartime(&R, k, &A, sig + 32);
	kc_ge25519_p2_tobytes(rcheck, &R);
	if (!kc_ct_eq(rcheck, sig, 32))
		return PV_ERR_SIG_INVALID;
	return 0;
}

KC_API int kc_ed25519_sign(const uint8_t seed[32], const uint8_t pub[32],
                           const uint8_t *msg, size_t len, uint8_t sig[64])
{
	if (!seed || !sig || (!msg && len))
		return PV_ERR_ARGS;
	ed25519_sign_dom(seed, pub, (const ed25519_dom *)0, msg, len, sig);
	return 0;
}

KC_API int kc_ed25519_verify(const uint8_t pub[32], const uint8_t *msg, size_t len,
                             const uint8_t *sig, size_t siglen)
{
	if (!pub || !sig || (!msg && len))
		return PV_ERR_ARGS;
	if (siglen != 64)
		return PV_ERR_SIG_LEN;
	return ed25519_verify_dom(pub, (const ed25519_dom *)0, msg, len, sig);
}

/* Check the variant arguments and build dom2; for Ed25519ph, ph receives
 * PH(M) = SHA-512(M) and (msg, len) are redirected to it. */
KC_PRIV int ed25519_variant(ed25519_dom *dom, uint32_t mode, const uint8_t *ctx,
                            size_t ctxlen, const uint8_t **msg, size_t *len,
                            uint8_t ph[64])
{
	if ((!ctx && ctxlen) || (!*msg && *len))
		return PV_ERR_ARGS;
	if (ctxlen > 255 || mode > KC_ED25519_PH_DIGEST)
		return PV_ERR_MECH_PARAM;
	if (mode == KC_ED25519_PH_DIGEST && *len != 64)
		return PV_ERR_DATA_LEN;
	dom->flag = mode == KC_ED25519_CTX ? 0u : 1u;
	dom->ctx = ctx;
	dom->ctxlen = ctxlen;
	if (mode == KC_ED25519_PH) {
		kc_hash(KC_HASH_SHA512, *msg, *len, ph);
		*msg = ph;
		*len = 64;
	}
	return 0;
}

KC_API int kc_ed25519_sign_ex(const uint8_t seed[32], const uint8_t pub[32],
                              uint32_t mode, const uint8_t *ctx, size_t ctxlen,
                              const uint8_t *msg, size_t len, uint8_t sig[64])
{
	ed25519_dom dom;
	uint8_t ph[64];
	int rc;

	if (!seed || !sig)
		return PV_ERR_ARGS;
	rc = ed25519_variant(&dom, mode, ctx, ctxlen, &msg, &len, ph);
	if (rc != 0)
		return rc;
	ed25519_sign_dom(seed, pub, &dom, msg, len, sig);
	return 0;
}

KC_API int kc_ed25519_verify_ex(const uint8_t pub[32], uint32_t mode,
                                const uint8_t *ctx, size_t ctxlen,
                                const uint8_t *msg, size_t len,
                                const uint8_t *sig, size_t siglen)
{
	ed25519_dom dom;
	uint8_t ph[64];
	int rc;

	if (!pub || !sig)
		return PV_ERR_ARGS;
	rc = ed25519_variant(&dom, mode, ctx, ctxlen, &msg, &len, ph);
	if (rc != 0)
		return rc;
	if (siglen != 64)
		return PV_ERR_SIG_LEN;
	return ed25519_verify_dom(pub, &dom, msg, len, sig);
}
