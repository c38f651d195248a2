/*
 * test_oracle_modes.c - ECB, CBC, CBC-PAD, CTR and CFB128 of gpu/core/sym
 * against OpenSSL EVP (aes-128/192/256-*, sm4-*) on random keys, IVs and
 * lengths up to 4 KiB: in place and out of place, multi-part with random
 * chunkings equal to single-part.  CTR with counter_bits < 128 is checked
 * against a model built on OpenSSL ECB in this file.
 */
#include "tsym.h"
#include "tsupport.h"
#include <openssl/evp.h>

#define ITERS   1000    /* per cipher x mode */
#define MAXLEN  4096

enum { M_ECB, M_CBC, M_CBC_PAD, M_CTR, M_CFB };

typedef struct {
	const char *name;     /* label */
	uint32_t alg;
	size_t klen;
	const char *evp[5];   /* OpenSSL names per mode (NULL: not offered) */
} cipher_t;

static const cipher_t ciphers[] = {
	{ "aes-128", KC_BC_AES, 16, { "AES-128-ECB", "AES-128-CBC", "AES-128-CBC", "AES-128-CTR", "AES-128-CFB" } },
	{ "aes-192", KC_BC_AES, 24, { "AES-192-ECB", "AES-192-CBC", "AES-192-CBC", "AES-192-CTR", "AES-192-CFB" } },
	{ "aes-256", KC_BC_AES, 32, { "AES-256-ECB", "AES-256-CBC", "AES-256-CBC", "AES-256-CTR", "AES-256-CFB" } },
	{ "sm4",     KC_BC_SM4, 16, { "SM4-ECB", "SM4-CBC", "SM4-CBC", "SM4-CTR", "SM4-CFB" } },
};

/* OpenSSL one-shot; returns output length or -1 */
static int ossl(const char *name, int enc, int pad, const uint8_t *key, const uint8_t *iv,
                const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ok;

	ok = c && x && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) == 1 &&
	     EVP_CIPHER_CTX_set_padding(x, pad) == 1 &&
	     EVP_CipherUpdate(x, out, &l1, in, (int)len) == 1 &&
	     EVP_CipherFinal_ex(x, out + l1, &l2) == 1;
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(c);
	return ok ? l1 + l2 : -1;
}

/* Our implementation, multi-part over the given chunking (block modes cut at
 * block multiples).  Returns output length or -1. */
static long ours(const kc_bc *bc, int mode, int enc, const uint8_t *iv0,
                 const uint8_t *in, size_t len, uint8_t *out, const size_t *cuts, size_t nc)
{
	uint8_t iv[16], ks[16];
	uint32_t num = 0;
	size_t off = 0, k, ol;

	memcpy(iv, iv0, 16);
	if (mode == M_CBC_PAD) {
		/* chain whole blocks through kc_cbc_*, last part one-shot */
		size_t head = len >= 32 ? 16 * ts_rand_u32((uint32_t)(len / 16 - 1)) : 0;
		if (enc) {
			kc_cbc_encrypt(bc, iv, in, out, head / 16);
			if (kc_cbc_pad_encrypt(bc, iv, in + head, len - head, out + head, &ol) != PV_OK)
				return -1;
		} else {
			kc_cbc_decrypt(bc, iv, in, out, head / 16);
			if (kc_cbc_pad_decrypt(bc, iv, in + head, len - head, out + head, &ol) != PV_OK)
				return -1;
		}
		return (long)(head + ol);
	}
	for (k = 0; k < nc; k++) {
		size_t c = cuts[k];
		if (mode == M_ECB || mode == M_CBC) {
			c &= ~(size_t)15;
			if (k == nc - 1)
				c = len - off;
		}
		if (off + c > len)
			c = len - off;
		switch (mode) {
		case M_ECB:
			(enc ? kc_ecb_encrypt : kc_ecb_decrypt)(bc, in + off, out + off, c / 16);
			break;
		case M_CBC:
			(enc ? kc_cbc_encrypt : kc_cbc_decrypt)(bc, iv, in + off, out + off, c / 16);
			break;
		case M_CTR:
			kc_ctr_xcrypt(bc, iv, 128, ks, &num, in + off, out + off, c);
			break;
		case M_CFB:
			(enc ? kc_cfb128_encrypt : kc_cfb128_decrypt)(bc, iv, &num, in + off, out + off, c);
			break;
		}
		off += c;
	}
	return off == len ? (long)len : -1;
}

static void run_mode(int mode, const char *mname)
{
	size_t ci;
	uint8_t *pt = malloc(MAXLEN + 32), *ct = malloc(MAXLEN + 32), *ref = malloc(MAXLEN + 32);
	uint8_t *buf = malloc(MAXLEN + 32);
	size_t cuts[256];

	CU_ASSERT_FATAL(pt && ct && ref && buf);
	for (ci = 0; ci < sizeof ciphers / sizeof ciphers[0]; ci++) {
		const cipher_t *cp = &ciphers[ci];
		int it, bad = 0, n = 0;
		for (it = 0; it < ITERS; it++) {
			uint8_t key[32], iv[16];
			kc_bc bc;
			size_t len = tsym_len(MAXLEN), nc;
			int rl, inplace = (int)ts_rand_u32(2);
			long ol;

			if (mode == M_ECB || mode == M_CBC)
				len &= ~(size_t)15;
			ts_rand(key, cp->klen);
			ts_rand(iv, 16);
			ts_rand(pt, len);
			CU_ASSERT_FATAL(kc_bc_init(&bc, cp->alg, key, cp->klen) == PV_OK);
			rl = ossl(cp->evp[mode], 1, mode == M_CBC_PAD, key, mode == M_ECB ? NULL : iv, pt, len, ref);
			CU_ASSERT_FATAL(rl >= 0);
			/* encrypt: single part out of place, or chunked (in place) */
			nc = it & 1 ? tsym_chunks(len, cuts, 256) : (cuts[0] = len, 1);
			if (inplace) {
				memcpy(ct, pt, len);
				ol = ours(&bc, mode, 1, iv, ct, len, ct, cuts, nc);
			} else {
				ol = ours(&bc, mode, 1, iv, pt, len, ct, cuts, nc);
			}
			if (ol != rl || memcmp(ct, ref, (size_t)rl) != 0) {
				bad++;
				if (bad < 4)
					fprintf(stderr, "%s %s enc len %zu chunks %zu inplace %d mismatch\n", cp->name, mname, len, nc, inplace);
			}
			/* decrypt OpenSSL's ciphertext */
			nc = it & 2 ? tsym_chunks((size_t)rl, cuts, 256) : (cuts[0] = (size_t)rl, 1);
			if (inplace) {
				memcpy(buf, ref, (size_t)rl);
				ol = ours(&bc, mode, 0, iv, buf, (size_t)rl, buf, cuts, nc);
			} else {
				ol = ours(&bc, mode, 0, iv, ref, (size_t)rl, buf, cuts, nc);
			}
			if (ol != (long)len || memcmp(buf, pt, len) != 0) {
				bad++;
				if (bad < 4)
					fprintf(stderr, "%s %s dec len %zu chunks %zu mismatch\n", cp->name, mname, len, nc);
			}
			kc_bc_clear(&bc);
			n++;
		}
		printf("\n    %s-%s: %d random cases vs OpenSSL %s, %d mismatches ", cp->name, mname, n, cp->evp[mode], bad);
		CU_ASSERT_EQUAL(bad, 0);
	}
	free(pt); free(ct); free(ref); free(buf);
}

static void test_ecb(void) { run_mode(M_ECB, "ecb"); }
static void test_cbc(void) { run_mode(M_CBC, "cbc"); }
static void test_cbc_pad(void) { run_mode(M_CBC_PAD, "cbc-pad"); }
static void test_ctr(void) { run_mode(M_CTR, "ctr"); }
static void test_cfb(void) { run_mode(M_CFB, "cfb128"); }

/* CTR with a short counter: model = OpenSSL ECB of counter blocks whose low
 * cb bits are incremented modulo 2^cb.  Counters start close to the wrap. */
static void model_inc(uint8_t c[16], unsigned cb)
{
	unsigned bit;
	for (bit = 0; bit < cb; bit++) {           /* add 1, bit by bit */
		unsigned byte = 15 - bit / 8, sh = bit % 8;
		c[byte] ^= (uint8_t)(1u << sh);
		if (c[byte] & (1u << sh))
			break;                            /* no carry */
	}
}

static void test_ctr_counter_bits(void)
{
	static const unsigned cbs[] = { 1, 2, 7, 8, 9, 16, 31, 32, 33, 64, 100, 127, 128 };
	size_t i;
	int it, bad = 0, n = 0;

	for (i = 0; i < sizeof cbs / sizeof cbs[0]; i++) {
		for (it = 0; it < 30; it++) {
			uint8_t key[32], ctr[16], c0[16], ks[16], blocks[40 * 16], ksref[40 * 16];
			uint8_t pt[40 * 16], out[40 * 16];
			uint32_t used = 0;
			size_t len = ts_rand_u32(40 * 16 + 1), nb = (len + 15) / 16, b, off, c;
			unsigned cb = cbs[i], k;
			uint32_t alg = it & 1 ? KC_BC_SM4 : KC_BC_AES;
			kc_bc bc;

			ts_rand(key, 16);
			ts_rand(ctr, 16);
			ts_rand(pt, len);
			/* low cb bits all ones except a few: wrap soon */
			for (k = 0; k < cb && k < 128; k++)
				if (k >= 3)
					ctr[15 - k / 8] |= (uint8_t)(1u << (k % 8));
			memcpy(c0, ctr, 16);
			for (b = 0; b < nb; b++) {
				memcpy(blocks + 16 * b, c0, 16);
				model_inc(c0, cb);
			}
			CU_ASSERT_FATAL(ossl(alg == KC_BC_AES ? "AES-128-ECB" : "SM4-ECB", 1, 0, key, NULL,
			                     blocks, 16 * nb, ksref) == (int)(16 * nb));
			CU_ASSERT_FATAL(kc_bc_init(&bc, alg, key, 16) == PV_OK);
			for (off = 0; off < len; off += c) {
				c = ts_rand_u32(50);
				if (c > len - off)
					c = len - off;
				kc_ctr_xcrypt(&bc, ctr, cb, ks, &used, pt + off, out + off, c);
			}
			for (b = 0; b < len; b++)
				if ((out[b] ^ pt[b]) != ksref[b])
					break;
			if (b != len || (len % 16 == 0 && memcmp(ctr, c0, 16) != 0))
				bad++;
			n++;
		}
	}
	printf("\n    ctr counter_bits 1..128 near wrap: %d cases, %d mismatches ", n, bad);
	CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("sym_oracle_modes", NULL, NULL);
	if (!s)
		return 2;
	TSYM_ADD(s, test_ecb);
	TSYM_ADD(s, test_cbc);
	TSYM_ADD(s, test_cbc_pad);
	TSYM_ADD(s, test_ctr);
	TSYM_ADD(s, test_cfb);
	TSYM_ADD(s, test_ctr_counter_bits);
	return ts_run();
}
