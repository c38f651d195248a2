/* kc_drbg.c - HMAC_DRBG with SHA-256 (NIST SP 800-90A Rev. 1, 10.1.2). */
#include "kc_drbg.h"
#include "kc_hmac.h"
#include "../kc_util.h"
#include "../pv_err.h"

/* HMAC_DRBG_Update (10.1.2.2) with provided_data = a || b || c (any of them
 * may be empty).  key: an HMAC already keyed with the current K, or NULL.
 * The HMAC is keyed once per value of K (each keying costs two
 * compressions): the V step's key serves the next round's K step.  The
 * keys keep chaining values only (kc_hmac_key): a MAC copies 32 bytes of
 * one, not a whole HMAC context. */
KC_PRIV void kc_drbg_update_keyed(kc_drbg *d, const kc_hmac_key *key,
                                  const uint8_t *a, size_t alen,
                                  const uint8_t *b, size_t blen,
                                  const uint8_t *c, size_t clen)
{
	kc_hmac_key k;
	kc_hmac_md h;
	uint8_t sep = 0x00;
	int round;

	if (key != NULL)
		k = *key;
	else
		kc_hmac_key_init(&k, KC_HASH_SHA256, d->K, 32);
	for (round = 0; round < 2; round++) {
		/* K = HMAC(K, V || sep || provided_data); V = HMAC(K, V) */
		kc_hmac_md_start(&k, &h);
		kc_hmac_md_add(&k, &h, d->V, 32);
		kc_hmac_md_add(&k, &h, &sep, 1);
		kc_hmac_md_add(&k, &h, a, alen);
		kc_hmac_md_add(&k, &h, b, blen);
		kc_hmac_md_add(&k, &h, c, clen);
		kc_hmac_md_end(&k, &h, d->K);
		kc_hmac_key_init(&k, KC_HASH_SHA256, d->K, 32);
		kc_hmac_md_start(&k, &h);
		kc_hmac_md_add(&k, &h, d->V, 32);
		kc_hmac_md_end(&k, &h, d->V);
		if (alen + blen + clen == 0)
			break;
		sep = 0x01;
	}
	kc_hmac_key_clear(&k);
}

KC_PRIV void kc_drbg_update(kc_drbg *d, const uint8_t *a, size_t alen,
                            const uint8_t *b, size_t blen,
                            const uint8_t *c, size_t clen)
{
	kc_drbg_update_keyed(d, (const kc_hmac_key *)0, a, alen, b, blen, c, clen);
}

KC_API int kc_drbg_init(kc_drbg *d, const uint8_t *entropy, size_t elen,
                        const uint8_t *nonce, size_t nlen,
                        const uint8_t *pers, size_t plen)
{
	if ((!entropy && elen) || (!nonce && nlen) || (!pers && plen))
		return PV_ERR_ARGS;
	kc_wipe(d, sizeof *d);
	if (elen < KC_DRBG_MIN_ENTROPY)
		return PV_ERR_RANDOM;
	kc_memset(d->K, 0x00, 32);
	kc_memset(d->V, 0x01, 32);
	kc_drbg_update(d, entropy, elen, nonce, nlen, pers, plen);
	d->reseed_counter = 1;
	d->seeded = 1;
	return PV_OK;
}

KC_API int kc_drbg_reseed(kc_drbg *d, const uint8_t *entropy, size_t elen,
                          const uint8_t *add, size_t alen)
{
	if ((!entropy && elen) || (!add && alen))
		return PV_ERR_ARGS;
	if (d->seeded != 1 || elen < KC_DRBG_MIN_ENTROPY)
		return PV_ERR_RANDOM;
	kc_wipe(d->ahead, sizeof d->ahead);
	d->nahead = 0;
	kc_drbg_update(d, entropy, elen, add, alen, (const uint8_t *)0, 0);
	d->reseed_counter = 1;
	return PV_OK;
}

/* One request of at most KC_DRBG_MAX_REQUEST bytes (10.1.2.5, steps 2-8). */
KC_PRIV void kc_drbg_gen_one(kc_drbg *d, uint8_t *out, size_t outlen,
                             const uint8_t *add, size_t alen)
{
	kc_hmac_key base;
	kc_hmac_md h;
	size_t done = 0;

	if (alen)
		kc_drbg_update(d, add, alen, (const uint8_t *)0, 0, (const uint8_t *)0, 0);
	/* K is fixed during the loop: key the HMAC once. */
	kc_hmac_key_init(&base, KC_HASH_SHA256, d->K, 32);
	while (done < outlen) {
		size_t take = outlen - done < 32 ? outlen - done : 32;
		kc_hmac_md_start(&base, &h);
		kc_hmac_md_add(&base, &h, d->V, 32);
		kc_hmac_md_end(&base, &h, d->V);
		kc_memcpy(out + done, d->V, take);
		done += take;
	}
	kc_drbg_update_keyed(d, &base, add, alen, (const uint8_t *)0, 0, (const uint8_t *)0, 0);
	kc_hmac_key_clear(&base);
	d->reseed_counter++;
}

KC_API int kc_drbg_generate(kc_drbg *d, uint8_t *out, size_t outlen,
                            const uint8_t *add, size_t alen)
{
	size_t done = 0;

	if ((!out && outlen) || (!add && alen))
		return PV_ERR_ARGS;
	if (d->seeded != 1)
		return PV_ERR_RANDOM;
	/* Whole request refused up front if any chunk would need a reseed. */
	{
		uint64_t chunks = outlen == 0 ? 1 : (uint64_t)((outlen - 1) / KC_DRBG_MAX_REQUEST + 1);
		if (d->reseed_counter > KC_DRBG_RESEED_INTERVAL ||
		    chunks - 1 > KC_DRBG_RESEED_INTERVAL - d->reseed_counter)
			return PV_ERR_RANDOM;
	}
	if (alen == 0 && outlen > 0 && outlen <= d->nahead) {
		d->nahead -= (uint32_t)outlen;
		kc_memcpy(out, d->ahead + d->nahead, outlen);
		kc_wipe(d->ahead + d->nahead, outlen);
		return PV_OK;
	}
	if (alen > 0) {         /* input stirred in: nothing drawn before it */
		kc_wipe(d->ahead, sizeof d->ahead);
		d->nahead = 0;
	}
	do {
		size_t take = outlen - done < KC_DRBG_MAX_REQUEST ? outlen - done : KC_DRBG_MAX_REQUEST;
		kc_drbg_gen_one(d, out + done, take, add, alen);
		done += take;
	} while (done < outlen);
	return PV_OK;
}

KC_API int kc_drbg_fill_wanted(const kc_drbg *d)
{
	return d->seeded == 1 && d->nahead < KC_DRBG_AHEAD / 2u;
}

KC_API int kc_drbg_fill(kc_drbg *d)
{
	int rc;

	kc_wipe(d->ahead, sizeof d->ahead);
	d->nahead = 0;        /* so that the generate below draws fresh bytes */
	rc = kc_drbg_generate(d, d->ahead, sizeof d->ahead, (const uint8_t *)0, 0);
	if (rc == PV_OK)
		d->nahead = KC_DRBG_AHEAD;
	return rc;
}

KC_API void kc_drbg_clear(kc_drbg *d)
{
	kc_wipe(d, sizeof *d);
}
