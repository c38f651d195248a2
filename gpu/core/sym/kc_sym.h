/*
 * kc_sym.h - symmetric ciphers of the portable core: AES-128/192/256 and SM4
 * block ciphers, ECB/CBC/CTR/CFB128 modes, PKCS#7 padding, GCM, CMAC and
 * AES key wrap (RFC 3394 / RFC 5649).
 *
 * Constant time: no table is ever indexed by secret data.  Both ciphers use
 * one bitsliced S-box engine (kc_sbox_ct.c): 32 bytes at a time as eight
 * 32-bit bit-planes, the GF(2^8) inverse computed in a GF((2^4)^2) tower
 * field between the linear maps of each cipher (generated and checked by
 * gen_sbox_tower.py).  AES keeps its state bitsliced (2 blocks per pass);
 * SM4 bitslices the S-box layer of each round (up to 8 blocks per pass).
 * GHASH multiplies with integer multiplications of bit-spread operands
 * (no tables; integer multiply assumed constant time, as on the GPU and
 * current 64-bit CPUs).
 *
 * All structs are fixed-size and pointer-free: they may be copied, sealed
 * and carried across multi-part calls, and copied to the GPU.  Every
 * *_clear wipes.  Outputs may alias inputs exactly (out == in) everywhere;
 * partial overlaps are not supported.
 */
#ifndef KC_SYM_H
#define KC_SYM_H

#include "gpu/core/kc_defs.h"
#include "gpu/core/pv_err.h"

#define KC_BC_AES 1
#define KC_BC_SM4 2
/* kc_bc.alg of an AES key that kc_bc_init scheduled for the host's AES
 * instructions (gpu/core/cpu/kc_cpu.h; never on the GPU): AES to every
 * mode, as KC_BC_IS_AES says */
#define KC_BC_AES_HW 3
#ifdef __CUDA_ARCH__     /* no KC_BC_AES_HW there: the kernel's code as before */
#define KC_BC_IS_AES(bc) ((bc)->alg == KC_BC_AES)
#else
#define KC_BC_IS_AES(bc) ((bc)->alg == KC_BC_AES || (bc)->alg == KC_BC_AES_HW)
#endif

#define KC_BLOCK 16

/* Expanded key.  AES: rk holds (nr+1) round keys, each as 8 bitsliced words
 * (nr = 10/12/14); KC_BC_AES_HW: the (nr+1) encryption round keys, then
 * the (nr+1) decryption ones, 4 words each.  SM4: rk[0..31] are the 32
 * round keys, nr = 32. */
typedef struct kc_bc {
	uint32_t alg;
	uint32_t nr;
	uint32_t rk[120];
} kc_bc;

/* AES: keylen 16/24/32; SM4: keylen 16.  PV_ERR_KEY_SIZE otherwise,
 * PV_ERR_MECHANISM for an unknown alg. */
KC_API int  kc_bc_init(kc_bc *bc, uint32_t alg, const uint8_t *key, size_t keylen);
KC_API void kc_bc_clear(kc_bc *bc);
KC_API void kc_bc_encrypt(const kc_bc *bc, const uint8_t in[16], uint8_t out[16]);
KC_API void kc_bc_decrypt(const kc_bc *bc, const uint8_t in[16], uint8_t out[16]);

/* ECB / CBC over whole blocks.  The bulk helpers process several blocks per
 * pass (AES 2, SM4 8). */
KC_API void kc_ecb_encrypt(const kc_bc *bc, const uint8_t *in, uint8_t *out, size_t nblocks);
KC_API void kc_ecb_decrypt(const kc_bc *bc, const uint8_t *in, uint8_t *out, size_t nblocks);
/* iv is updated to the last ciphertext block: consecutive calls chain. */
KC_API void kc_cbc_encrypt(const kc_bc *bc, uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t nblocks);
KC_API void kc_cbc_decrypt(const kc_bc *bc, uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t nblocks);

/* CTR.  ctr is the 128-bit big-endian counter block of the next keystream
 * block; it is incremented as a big-endian integer in its low counter_bits
 * bits (1..128; 0 means 128), the higher bits never change (as PKCS#11
 * CK_AES_CTR_PARAMS).  Streaming state: ks holds the current keystream
 * block, *ks_used (0..15) the number of its bytes already used; start with
 * *ks_used = 0 (0 means "no buffered keystream", as OpenSSL's num).  Any len;
 * consecutive calls continue the stream. */
KC_API void kc_ctr_xcrypt(const kc_bc *bc, uint8_t ctr[16], uint32_t counter_bits,
	uint8_t ks[16], uint32_t *ks_used, const uint8_t *in, uint8_t *out, size_t len);

/* CFB128, streaming as OpenSSL: *num (0..15) is the position in iv; start
 * with *num = 0. */
KC_API void kc_cfb128_encrypt(const kc_bc *bc, uint8_t iv[16], uint32_t *num, const uint8_t *in, uint8_t *out, size_t len);
KC_API void kc_cfb128_decrypt(const kc_bc *bc, uint8_t iv[16], uint32_t *num, const uint8_t *in, uint8_t *out, size_t len);

/* PKCS#7.  kc_pad_pkcs7: block_tail holds tail_len (0..15) data bytes and
 * has room for 16; pads in place and returns 16 (0 if tail_len > 15).
 * kc_unpad_pkcs7_ct: checks the last decrypted block in constant time
 * (1 <= pad <= 16, all pad bytes equal); *pad_len receives the pad length
 * (0 on error); PV_ERR_ENC_INVALID if bad. */
KC_API size_t kc_pad_pkcs7(uint8_t *block_tail, size_t tail_len);
KC_API int  kc_unpad_pkcs7_ct(const uint8_t last[16], size_t *pad_len);

/* CBC with PKCS#7 padding, one shot.  Encrypt: out needs
 * (inlen/16 + 1) * 16 bytes.  Decrypt: inlen a non-zero multiple of 16
 * (PV_ERR_ENC_LEN), out needs inlen bytes, *outlen = inlen - pad;
 * PV_ERR_ENC_INVALID on bad padding (out wiped).  iv is updated. */
KC_API int  kc_cbc_pad_encrypt(const kc_bc *bc, uint8_t iv[16], const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen);
KC_API int  kc_cbc_pad_decrypt(const kc_bc *bc, uint8_t iv[16], const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen);

/* GHASH (constant time): y = (y ^ X_i) * h over the blocks of data; a
 * partial last block is zero-padded. */
KC_API void kc_ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *data, size_t len);
/* GHASH split over lanes (the warp's cooperative GHASH, testable on the
 * host): lane L of nlanes (1..255) hashes the full blocks L, L + nlanes, ...
 * of data (n blocks); XOR-ing the parts of lanes 0..nlanes-1 into a zero
 * block (kc_ghash_combine) gives the y that kc_ghash(y, h, data, 16 n)
 * leaves. */
KC_API void kc_ghash_part(uint8_t part[16], const uint8_t y[16], const uint8_t h[16],
	const uint8_t *data, size_t n, uint32_t lane, uint32_t nlanes);
KC_API void kc_ghash_combine(uint8_t y[16], const uint8_t part[16]);
/* GHASH with the powers of its hash key: pow[k] = H^(k + 1) for k <
 * KC_GHASH_POW_N (kc_ghash_powers; the vault keeps its KEK's), and
 * kc_ghash_pw gives the y that kc_ghash(y, H, data, 16 n) leaves for n <=
 * KC_GHASH_POW_N full blocks (n = 0: y unchanged; more: kc_ghash), each
 * block's product independent of the others (on the GPU one block a lane). */
#define KC_GHASH_POW_N 32u
KC_API void kc_ghash_powers(uint8_t pow[KC_GHASH_POW_N][16], const uint8_t h[16]);
KC_API void kc_ghash_pw(uint8_t y[16], const uint8_t pow[KC_GHASH_POW_N][16],
	const uint8_t *data, size_t n);

/* GCM (SP 800-38D) over AES or SM4: any IV length >= 1 byte (12 is the fast
 * path), tags 4..16 bytes; streaming: init, aad* (before any data),
 * encrypt* or decrypt*, then tag / check_tag.  Errors: PV_ERR_MECH_PARAM (IV
 * length 0, tag length), PV_ERR_STATE (AAD after data, data after tag),
 * PV_ERR_DATA_LEN (over 2^36 - 32 bytes of data), PV_ERR_ENC_INVALID (tag
 * mismatch), PV_ERR_ARGS (bc not initialized).  decrypt returns
 * unauthenticated plaintext: the caller must keep it until check_tag
 * succeeds.  kc_gcm_open checks the tag first; every GCM decryption in the
 * vault and the host (engine, KeyStore blobs, sealed states, the master
 * key file) uses it, and kc_gcm_decrypt is left to the tests. */
typedef struct kc_gcm {
	kc_bc bc;
	uint8_t H[16], J0[16], ctr[16], Y[16], ks[16];
	uint8_t buf[16];          /* pending partial block of AAD or ciphertext */
	uint64_t aad_len, ct_len; /* bytes */
	uint32_t ks_used;
	uint32_t buf_len;
	uint32_t state;           /* 0 AAD, 1 data, 2 finished */
	uint32_t pad_;
} kc_gcm;
KC_API int  kc_gcm_init(kc_gcm *g, const kc_bc *bc, const uint8_t *iv, size_t ivlen);
/* The same with the hash key H = E(0^128) of bc given (kc_gcm_hkey), for
 * a key that seals many messages: the vault's KEK and state key keep
 * theirs (ve_vault), which saves a block encryption per blob. */
KC_API void kc_gcm_hkey(const kc_bc *bc, uint8_t h[16]);
KC_API int  kc_gcm_init_h(kc_gcm *g, const kc_bc *bc, const uint8_t h[16], const uint8_t *iv,
                          size_t ivlen);
KC_API int  kc_gcm_aad(kc_gcm *g, const uint8_t *aad, size_t len);
KC_API int  kc_gcm_encrypt(kc_gcm *g, const uint8_t *in, uint8_t *out, size_t len);
KC_API int  kc_gcm_decrypt(kc_gcm *g, const uint8_t *in, uint8_t *out, size_t len);
/* Decrypt's authentication alone: hashes ciphertext as kc_gcm_decrypt
 * does, without the CTR pass and without output (a tag check before any
 * plaintext is written; the context's counter is left behind). */
KC_API int  kc_gcm_hash_ct(kc_gcm *g, const uint8_t *in, size_t len);
/* Decrypt the rest of the stream, len bytes of ciphertext, and check its
 * tag (taglen 4..16) before any plaintext is written: GHASH over in
 * (kc_gcm_hash_ct), the tag, then the CTR pass into out - each byte
 * hashed once.  PV_ERR_ENC_INVALID (out untouched) for a wrong tag;
 * finishes the stream. */
KC_API int  kc_gcm_open(kc_gcm *g, const uint8_t *in, size_t len, const uint8_t *tag,
                        size_t taglen, uint8_t *out);
/* One-shot open of a message under a key whose hash-key powers are known
 * (kc_ghash_powers), with a 12-byte IV and a 16-byte tag: the AAD, the
 * ciphertext and the lengths are hashed in kc_ghash_pw passes of up to
 * KC_GHASH_POW_N blocks; C is authenticated whole, its first plen (<= len)
 * bytes decrypted into w, a work buffer of KC_GCM_PW_W(plen) bytes apart
 * from ct.  ct[-16, 0) and ct[len, len + 16) must be readable (a key
 * blob's nonce and tag; they are read, never trusted): the CTR pass runs
 * over whole blocks from ct - 16.  On PV_OK the plaintext is w[16, 16 + plen) and the rest of w
 * zero; PV_ERR_ENC_INVALID for a wrong tag, w zero; PV_ERR_DATA_LEN over
 * 2^36 - 32 bytes of data, PV_ERR_ARGS for plen > len (nothing done). */
#define KC_GCM_PW_W(plen) (16u + (((size_t)(plen) + 15u) & ~(size_t)15u))
KC_API int  kc_gcm_open_pw(const kc_bc *bc, const uint8_t pow[KC_GHASH_POW_N][16],
                           const uint8_t iv[12], const uint8_t *aad, size_t alen,
                           const uint8_t *ct, size_t len, const uint8_t tag[16], size_t plen,
                           uint8_t *w);
/* Full 16-byte tag (truncate as needed); finishes the stream. */
KC_API void kc_gcm_tag(kc_gcm *g, uint8_t tag[16]);
/* Constant-time compare of the first taglen (4..16) bytes of the tag. */
KC_API int  kc_gcm_check_tag(kc_gcm *g, const uint8_t *tag, size_t taglen);
KC_API void kc_gcm_clear(kc_gcm *g);

/* CMAC (SP 800-38B), streaming; AES or SM4 (PV_ERR_ARGS if bc is not
 * initialized). */
typedef struct kc_cmac {
	kc_bc bc;
	uint8_t K1[16], K2[16], X[16], buf[16];
	uint32_t buf_len;
	uint32_t pad_;
} kc_cmac;
KC_API int  kc_cmac_init(kc_cmac *c, const kc_bc *bc);
KC_API void kc_cmac_update(kc_cmac *c, const uint8_t *in, size_t len);
/* Writes the full 16-byte MAC and wipes the context. */
KC_API void kc_cmac_final(kc_cmac *c, uint8_t mac[16]);
KC_API void kc_cmac_clear(kc_cmac *c);

/* Key wrap, AES only (PV_ERR_KEY_TYPE for SM4).
 * kc_kw_wrap: inlen a multiple of 8, >= 16 (PV_ERR_DATA_LEN); out gets
 *   inlen + 8 bytes.
 * kc_kw_unwrap: inlen a multiple of 8, >= 24 (PV_ERR_ENC_LEN); out gets
 *   inlen - 8 bytes; constant-time ICV check, PV_ERR_WRAPPED (out wiped).
 * kc_kwp_wrap: inlen >= 1 (PV_ERR_DATA_LEN); *outlen = 8*ceil(inlen/8) + 8.
 * kc_kwp_unwrap: inlen a multiple of 8, >= 16 (PV_ERR_ENC_LEN); out needs
 *   inlen - 8 bytes; *outlen = the message length; constant-time check of
 *   ICV, length and zero padding, PV_ERR_WRAPPED (out wiped).
 * out may equal in (it needs room for the larger of the two lengths). */
KC_API int kc_kw_wrap(const kc_bc *bc, const uint8_t *in, size_t inlen, uint8_t *out);
KC_API int kc_kw_unwrap(const kc_bc *bc, const uint8_t *in, size_t inlen, uint8_t *out);
KC_API int kc_kwp_wrap(const kc_bc *bc, const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen);
KC_API int kc_kwp_unwrap(const kc_bc *bc, const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen);

#endif /* KC_SYM_H */
