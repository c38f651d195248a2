/*
 * kc_drbg.h - HMAC_DRBG with SHA-256 (NIST SP 800-90A Rev. 1, 10.1.2),
 * security strength 256, no prediction resistance (the caller reseeds).
 *
 * The state is plain (K, V, counter): it may live in GPU memory.  All
 * functions are constant time in K, V and the input strings (they branch on
 * lengths, the reseed counter and `seeded` only).
 */
#ifndef KC_DRBG_H
#define KC_DRBG_H

#include "../kc_defs.h"

/* reseed_interval of SP 800-90A (the maximum it allows: 2^48). */
#ifndef KC_DRBG_RESEED_INTERVAL
#define KC_DRBG_RESEED_INTERVAL (((uint64_t)1) << 48)
#endif
/* max_number_of_bits_per_request = 2^19: larger requests are split into
 * successive generate calls of this many bytes (each with the same
 * additional input, as OpenSSL's RAND layer does). */
#define KC_DRBG_MAX_REQUEST 65536u
#define KC_DRBG_MIN_ENTROPY 32u      /* bytes: security strength 256 */
/* Output drawn ahead (kc_drbg_fill): one HMAC block. */
#define KC_DRBG_AHEAD 32u

typedef struct kc_drbg {
	uint8_t K[32], V[32];
	uint64_t reseed_counter;
	uint32_t seeded;     /* 1 once instantiated */
	uint32_t nahead;     /* bytes of ahead[] not handed out yet: ahead[0, nahead) */
	uint8_t ahead[KC_DRBG_AHEAD];
} kc_drbg;

/* Instantiate.  PV_ERR_RANDOM if elen < KC_DRBG_MIN_ENTROPY; PV_ERR_ARGS
 * for a NULL pointer with a non-zero length. */
KC_API int kc_drbg_init(kc_drbg *d, const uint8_t *entropy, size_t elen,
                        const uint8_t *nonce, size_t nlen,
                        const uint8_t *pers, size_t plen);
/* Reseed (discards the output drawn ahead).  PV_ERR_RANDOM if unseeded or
 * elen < KC_DRBG_MIN_ENTROPY. */
KC_API int kc_drbg_reseed(kc_drbg *d, const uint8_t *entropy, size_t elen,
                          const uint8_t *add, size_t alen);
/* Generate outlen bytes (any length).  PV_ERR_RANDOM if unseeded or a
 * reseed is due (reseed_counter > KC_DRBG_RESEED_INTERVAL); nothing is
 * written then.  A request without additional input of at most nahead
 * bytes is served from the output drawn ahead (its last outlen bytes,
 * wiped there), without touching K and V; one with additional input
 * discards the output drawn ahead. */
KC_API int kc_drbg_generate(kc_drbg *d, uint8_t *out, size_t outlen,
                            const uint8_t *add, size_t alen);
/* Output ahead: when fewer than KC_DRBG_AHEAD / 2 bytes are left
 * (kc_drbg_fill_wanted), kc_drbg_fill draws a fresh KC_DRBG_AHEAD bytes by
 * one generate (what is left is wiped first), so that the next small
 * request - RSA's 16 blinding bytes, a 12-byte nonce - costs a copy.  A
 * worker calls it while it has nothing else to do (ve_idle).  The bytes
 * are DRBG output like any other, handed out once; a reseed or a request
 * with additional input discards them, so nothing drawn before input is
 * stirred in is returned after it.  kc_drbg_fill:
 * PV_OK, or what kc_drbg_generate returned (nothing ahead then). */
KC_API int kc_drbg_fill_wanted(const kc_drbg *d);
KC_API int kc_drbg_fill(kc_drbg *d);
/* Uninstantiate: wipes the state. */
KC_API void kc_drbg_clear(kc_drbg *d);

#endif /* KC_DRBG_H */
