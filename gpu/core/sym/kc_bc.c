/*
 * kc_bc.c - the block-cipher front end: key setup, single blocks, and the
 * multi-block path used by the modes (AES 2 blocks per pass, SM4 8).
 */
#include "gpu/core/sym/kc_sym_int.h"
#ifndef __CUDACC__
#include "gpu/core/cpu/kc_cpu.h"
#endif

/* An execution space may run ECB over many blocks cooperatively
 * (gpu/cuda/pvc_ctr_warp.cuh: the 32 lanes of a warp that run one request
 * with identical data, each en/decrypting its share of the blocks).
 * Returns 1 when it wrote out[0, 16 n); dec: 1 decrypt. */
#ifndef KC_ECB_COOP
#define KC_ECB_COOP(bc, dec, in, out, n) 0
#endif

/* The host's AES instructions (gpu/core/cpu/kc_cpu.h): INIT returns 1
 * when it scheduled the key for them (alg KC_BC_AES_HW), CRYPT when it
 * en/decrypted the blocks of such a key. */
#ifndef KC_CPU_AES_INIT
#define KC_CPU_AES_INIT(bc, key, keylen) 0
#define KC_CPU_AES_CRYPT(bc, dec, in, out, n) 0
#endif

KC_API int kc_bc_init(kc_bc *bc, uint32_t alg, const uint8_t *key, size_t keylen)
{
	int rc;

	kc_memset(bc, 0, sizeof *bc);
	if (alg == KC_BC_AES && KC_CPU_AES_INIT(bc, key, keylen))
		return PV_OK;
	if (alg == KC_BC_AES) {
		rc = kc_aes_ct_keysched(bc->rk, &bc->nr, key, keylen);
		if (rc != PV_OK) {
			kc_wipe(bc, sizeof *bc);
			return rc;
		}
	} else if (alg == KC_BC_SM4) {
		if (keylen != 16)
			return PV_ERR_KEY_SIZE;
		kc_sm4_keysched(bc->rk, key);
		bc->nr = 32;
	} else {
		return PV_ERR_MECHANISM;
	}
	bc->alg = alg;
	return PV_OK;
}

KC_API void kc_bc_clear(kc_bc *bc)
{
	kc_wipe(bc, sizeof *bc);
}

KC_API void kc_bc_encrypt_n(const kc_bc *bc, const uint8_t *in, uint8_t *out, size_t nblocks)
{
	size_t par = (bc->alg == KC_BC_AES) ? 2 : 8;

	if (KC_CPU_AES_CRYPT(bc, 0, in, out, nblocks))
		return;
	while (nblocks > 0) {
		size_t n = nblocks < par ? nblocks : par;
		if (bc->alg == KC_BC_AES)
			kc_aes_ct_encrypt(bc->rk, bc->nr, in, out, n);
		else
			kc_sm4_crypt(bc->rk, 0, in, out, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
}

KC_API void kc_bc_decrypt_n(const kc_bc *bc, const uint8_t *in, uint8_t *out, size_t nblocks)
{
	size_t par = (bc->alg == KC_BC_AES) ? 2 : 8;

	if (KC_CPU_AES_CRYPT(bc, 1, in, out, nblocks))
		return;
	while (nblocks > 0) {
		size_t n = nblocks < par ? nblocks : par;
		if (bc->alg == KC_BC_AES)
			kc_aes_ct_decrypt(bc->rk, bc->nr, in, out, n);
		else
			kc_sm4_crypt(bc->rk, 1, in, out, n);
		in += 16 * n;
		out += 16 * n;
		nblocks -= n;
	}
}

KC_API void kc_bc_encrypt(const kc_bc *bc, const uint8_t in[16], uint8_t out[16])
{
	kc_bc_encrypt_n(bc, in, out, 1);
}

KC_API void kc_bc_decrypt(const kc_bc *bc, const uint8_t in[16], uint8_t out[16])
{
	kc_bc_decrypt_n(bc, in, out, 1);
}

KC_API void kc_ecb_encrypt(const kc_bc *bc, const uint8_t *in, uint8_t *out, size_t nblocks)
{
	if (KC_ECB_COOP(bc, 0, in, out, nblocks))
		return;
	kc_bc_encrypt_n(bc, in, out, nblocks);
}

KC_API void kc_ecb_decrypt(const kc_bc *bc, const uint8_t *in, uint8_t *out, size_t nblocks)
{
	if (KC_ECB_COOP(bc, 1, in, out, nblocks))
		return;
	kc_bc_decrypt_n(bc, in, out, nblocks);
}
