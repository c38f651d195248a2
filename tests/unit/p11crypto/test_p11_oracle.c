/*
 * test_p11_oracle.c - OpenSSL as an independent oracle for every mechanism
 * through the real module: random keys and inputs (lengths 0..4 KiB),
 * single-part, multi-part in random chunkings, and in place; digests,
 * HMAC, CMAC, key wrap, HKDF, CKA_CHECK_VALUE, digest operation state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include "pc.h"
#include "tsupport.h"
#include "ts_ossl.h"

#define N_CIPHER 200          /* random messages per mode and key size */
#define N_HASH   300
#define N_MAC    150
#define MAXLEN   4096

typedef struct cmode {
	const char *name;         /* OpenSSL cipher name */
	CK_MECHANISM_TYPE m;
	CK_KEY_TYPE kt;
	size_t kl;
	int kind;                 /* 0 ECB, 1 IV16, 2 CTR, 3 GCM */
	int block, pad;
} cmode;

static const cmode modes[] = {
	{ "AES-128-ECB", CKM_AES_ECB, CKK_AES, 16, 0, 1, 0 },
	{ "AES-192-ECB", CKM_AES_ECB, CKK_AES, 24, 0, 1, 0 },
	{ "AES-256-ECB", CKM_AES_ECB, CKK_AES, 32, 0, 1, 0 },
	{ "AES-128-CBC", CKM_AES_CBC, CKK_AES, 16, 1, 1, 0 },
	{ "AES-192-CBC", CKM_AES_CBC, CKK_AES, 24, 1, 1, 0 },
	{ "AES-256-CBC", CKM_AES_CBC, CKK_AES, 32, 1, 1, 0 },
	{ "AES-128-CBC", CKM_AES_CBC_PAD, CKK_AES, 16, 1, 0, 1 },
	{ "AES-192-CBC", CKM_AES_CBC_PAD, CKK_AES, 24, 1, 0, 1 },
	{ "AES-256-CBC", CKM_AES_CBC_PAD, CKK_AES, 32, 1, 0, 1 },
	{ "AES-128-CTR", CKM_AES_CTR, CKK_AES, 16, 2, 0, 0 },
	{ "AES-192-CTR", CKM_AES_CTR, CKK_AES, 24, 2, 0, 0 },
	{ "AES-256-CTR", CKM_AES_CTR, CKK_AES, 32, 2, 0, 0 },
	{ "AES-128-CFB", CKM_AES_CFB128, CKK_AES, 16, 1, 0, 0 },
	{ "AES-192-CFB", CKM_AES_CFB128, CKK_AES, 24, 1, 0, 0 },
	{ "AES-256-CFB", CKM_AES_CFB128, CKK_AES, 32, 1, 0, 0 },
	{ "AES-128-GCM", CKM_AES_GCM, CKK_AES, 16, 3, 0, 0 },
	{ "AES-192-GCM", CKM_AES_GCM, CKK_AES, 24, 3, 0, 0 },
	{ "AES-256-GCM", CKM_AES_GCM, CKK_AES, 32, 3, 0, 0 },
	{ "SM4-ECB", CKM_PV_SM4_ECB, CKK_PV_SM4, 16, 0, 1, 0 },
	{ "SM4-CBC", CKM_PV_SM4_CBC, CKK_PV_SM4, 16, 1, 1, 0 },
	{ "SM4-CBC", CKM_PV_SM4_CBC_PAD, CKK_PV_SM4, 16, 1, 0, 1 },
	{ "SM4-CTR", CKM_PV_SM4_CTR, CKK_PV_SM4, 16, 2, 0, 0 },
};

static void t_ciphers(void)
{
	static uint8_t msg[MAXLEN], ref[MAXLEN + 64], out[MAXLEN + 64], buf[MAXLEN + 64];
	size_t i;
	int j, bad_total = 0;

	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		const cmode *md = &modes[i];
		const EVP_CIPHER *c = EVP_get_cipherbyname(md->name);
		int bad = 0;

		CU_ASSERT_FATAL(c != NULL);
		for (j = 0; j < N_CIPHER; j++) {
			uint8_t key[32], iv[64], aad[64];
			size_t n = ts_rand_u32(MAXLEN + 1), ivl = 16, al = 0, tl = 0, rl;
			CK_AES_CTR_PARAMS cp;
			CK_GCM_PARAMS gp;
			CK_MECHANISM m = { md->m, NULL, 0 };
			CK_OBJECT_HANDLE h;
			CK_ULONG ol;

			if (md->block)
				n &= ~(size_t)15;
			ts_rand(key, sizeof key);
			ts_rand(msg, n);
			ts_rand(iv, sizeof iv);
			if (md->kind == 1) {
				m.pParameter = iv;
				m.ulParameterLen = 16;
			} else if (md->kind == 2) {
				cp.ulCounterBits = 128;
				memcpy(cp.cb, iv, 16);
				m.pParameter = &cp;
				m.ulParameterLen = sizeof cp;
			} else if (md->kind == 3) {
				ivl = j % 4 ? 12 : 1 + ts_rand_u32(64);
				al = ts_rand_u32(65);
				ts_rand(aad, al);
				tl = j % 3 ? 16 : 12 + ts_rand_u32(5);
				gp.pIv = iv; gp.ulIvLen = ivl; gp.ulIvBits = ivl * 8;
				gp.pAAD = al ? aad : NULL; gp.ulAADLen = al;
				gp.ulTagBits = tl * 8;
				m.pParameter = &gp;
				m.ulParameterLen = sizeof gp;
			}
			if (pc_key(md->kt, key, md->kl, 0, &h) != CKR_OK) {
				bad++;
				continue;
			}
			if (!ts_ossl_crypt(c, 1, md->pad, key, iv, ivl, aad, al, tl, msg, n, ref, &rl)) {
				bad++;
				goto next;
			}
			/* single part */
			ol = sizeof out;
			if (pc_crypt(&m, h, 1, msg, n, out, &ol) != CKR_OK || ol != rl ||
			    memcmp(out, ref, rl) != 0)
				bad++;
			/* multi-part, random chunks */
			ol = sizeof out;
			if (pc_crypt_multi(&m, h, 1, msg, n, out, &ol) != CKR_OK || ol != rl ||
			    memcmp(out, ref, rl) != 0)
				bad++;
			/* decrypt: single in place, multi out of place */
			memcpy(buf, ref, rl);
			ol = sizeof buf;
			if (pc_crypt(&m, h, 0, buf, rl, buf, &ol) != CKR_OK || ol != n ||
			    memcmp(buf, msg, n) != 0)
				bad++;
			ol = sizeof out;
			if (pc_crypt_multi(&m, h, 0, ref, rl, out, &ol) != CKR_OK || ol != n ||
			    memcmp(out, msg, n) != 0)
				bad++;
			/* encrypt in place */
			memcpy(buf, msg, n);
			ol = sizeof buf;
			if (pc_crypt(&m, h, 1, buf, n, buf, &ol) != CKR_OK || ol != rl ||
			    memcmp(buf, ref, rl) != 0)
				bad++;
next:
			pkt_f->C_DestroyObject(pc_s, h);
		}
		if (bad)
			printf("\n  %s mech 0x%lx: %d mismatches", md->name,
			       (unsigned long)md->m, bad);
		bad_total += bad;
	}
	printf("\n  %zu modes x %d messages x 5 ways, %d mismatches\n",
	       sizeof modes / sizeof modes[0], N_CIPHER, bad_total);
	CU_ASSERT(bad_total == 0);
}

/* SM4-GCM: OpenSSL 3.0 has no SM4-GCM; the oracle is SM4-CTR + our own
 * GHASH-free check: decrypt(encrypt(m)) == m in every split, and the
 * ciphertext body equals SM4-CTR from counter J0+1 for a 12-byte IV. */
static void t_sm4_gcm(void)
{
	static uint8_t msg[MAXLEN], out[MAXLEN + 16], dec[MAXLEN + 16], ref[MAXLEN];
	const EVP_CIPHER *ctr = EVP_get_cipherbyname("SM4-CTR");
	int j, bad = 0;

	CU_ASSERT_FATAL(ctr != NULL);
	for (j = 0; j < N_CIPHER; j++) {
		uint8_t key[16], iv[16];
		size_t n = ts_rand_u32(MAXLEN + 1), rl;
		CK_GCM_PARAMS gp = { iv, 12, 96, NULL, 0, 128 };
		CK_MECHANISM m = { CKM_PV_SM4_GCM, &gp, sizeof gp };
		CK_OBJECT_HANDLE h;
		CK_ULONG ol, dl;

		ts_rand(key, sizeof key);
		ts_rand(iv, sizeof iv);
		ts_rand(msg, n);
		CU_ASSERT_FATAL(pc_key(CKK_PV_SM4, key, 16, 0, &h) == CKR_OK);
		ol = sizeof out;
		if (pc_crypt_multi(&m, h, 1, msg, n, out, &ol) != CKR_OK || ol != n + 16)
			bad++;
		dl = sizeof dec;
		if (pc_crypt(&m, h, 0, out, ol, dec, &dl) != CKR_OK || dl != n ||
		    memcmp(dec, msg, n) != 0)
			bad++;
		iv[12] = iv[13] = iv[14] = 0;
		iv[15] = 2;
		if (!ts_ossl_crypt(ctr, 1, 0, key, iv, 16, NULL, 0, 0, msg, n, ref, &rl) ||
		    memcmp(ref, out, n) != 0)
			bad++;
		pkt_f->C_DestroyObject(pc_s, h);
	}
	printf("\n  SM4-GCM: %d messages, %d mismatches\n", N_CIPHER, bad);
	CU_ASSERT(bad == 0);
}

typedef struct hdef {
	const char *name;
	CK_MECHANISM_TYPE dig, hmac;
} hdef;

static const hdef hashes[] = {
	{ "SHA1", CKM_SHA_1, CKM_SHA_1_HMAC },
	{ "SHA224", CKM_SHA224, CKM_SHA224_HMAC },
	{ "SHA256", CKM_SHA256, CKM_SHA256_HMAC },
	{ "SHA384", CKM_SHA384, CKM_SHA384_HMAC },
	{ "SHA512", CKM_SHA512, CKM_SHA512_HMAC },
	{ "SHA3-224", CKM_SHA3_224, CKM_SHA3_224_HMAC },
	{ "SHA3-256", CKM_SHA3_256, CKM_SHA3_256_HMAC },
	{ "SHA3-384", CKM_SHA3_384, CKM_SHA3_384_HMAC },
	{ "SHA3-512", CKM_SHA3_512, CKM_SHA3_512_HMAC },
	{ "SM3", CKM_PV_SM3, CKM_PV_SM3_HMAC },
};

static void t_digests(void)
{
	static uint8_t msg[MAXLEN];
	uint8_t ref[64], out[64];
	size_t i;
	int j, bad = 0;

	for (i = 0; i < sizeof hashes / sizeof hashes[0]; i++) {
		const EVP_MD *md = EVP_get_digestbyname(hashes[i].name);
		CK_MECHANISM m = { hashes[i].dig, NULL, 0 };

		CU_ASSERT_FATAL(md != NULL);
		for (j = 0; j < N_HASH; j++) {
			size_t n = ts_rand_u32(MAXLEN + 1);
			unsigned rl;
			CK_ULONG ol;
			ts_rand(msg, n);
			EVP_Digest(msg, n, ref, &rl, md, NULL);
			ol = sizeof out;
			if (pc_digest(&m, msg, n, j & 1, out, &ol) != CKR_OK || ol != rl ||
			    memcmp(out, ref, rl) != 0)
				bad++;
		}
	}
	printf("\n  10 digests x %d messages, %d mismatches\n", N_HASH, bad);
	CU_ASSERT(bad == 0);
}

static void t_hmac(void)
{
	static uint8_t msg[MAXLEN];
	uint8_t key[200], ref[64], out[64];
	size_t i;
	int j, bad = 0;

	for (i = 0; i < sizeof hashes / sizeof hashes[0]; i++) {
		const EVP_MD *md = EVP_get_digestbyname(hashes[i].name);
		CK_MECHANISM m = { hashes[i].hmac, NULL, 0 };

		for (j = 0; j < N_MAC; j++) {
			size_t n = ts_rand_u32(MAXLEN + 1), kl = 1 + ts_rand_u32(sizeof key);
			unsigned rl;
			CK_ULONG ol;
			CK_OBJECT_HANDLE h;
			ts_rand(msg, n);
			ts_rand(key, kl);
			HMAC(md, key, (int)kl, msg, n, ref, &rl);
			CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, key, kl, 0, &h) == CKR_OK);
			ol = sizeof out;
			if (pc_sign(&m, h, msg, n, j & 1, out, &ol) != CKR_OK || ol != rl ||
			    memcmp(out, ref, rl) != 0)
				bad++;
			if (pc_verify(&m, h, msg, n, !(j & 1), ref, rl) != CKR_OK)
				bad++;
			pkt_f->C_DestroyObject(pc_s, h);
		}
	}
	printf("\n  10 HMACs x %d messages, %d mismatches\n", N_MAC, bad);
	CU_ASSERT(bad == 0);
}

static void t_cmac(void)
{
	static uint8_t msg[MAXLEN];
	static const char *ciph[] = { "AES-128-CBC", "AES-192-CBC", "AES-256-CBC" };
	uint8_t key[32], ref[16], out[16];
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
	int j, bad = 0;

	CU_ASSERT_FATAL(mac != NULL);
	for (j = 0; j < 3 * N_MAC; j++) {
		size_t n = ts_rand_u32(MAXLEN + 1), kl = 16 + 8 * (j % 3), rl;
		CK_ULONG gl = 1 + ts_rand_u32(16), ol;
		CK_MECHANISM m = { CKM_AES_CMAC, NULL, 0 };
		CK_MECHANISM mg = { CKM_AES_CMAC_GENERAL, &gl, sizeof gl };
		CK_OBJECT_HANDLE h;
		OSSL_PARAM p[2];
		EVP_MAC_CTX *x = EVP_MAC_CTX_new(mac);

		ts_rand(msg, n);
		ts_rand(key, kl);
		p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER,
		                                        (char *)ciph[j % 3], 0);
		p[1] = OSSL_PARAM_construct_end();
		EVP_MAC_init(x, key, kl, p);
		EVP_MAC_update(x, msg, n);
		EVP_MAC_final(x, ref, &rl, sizeof ref);
		EVP_MAC_CTX_free(x);
		CU_ASSERT_FATAL(pc_key(CKK_AES, key, kl, 0, &h) == CKR_OK);
		ol = sizeof out;
		if (pc_sign(&m, h, msg, n, j & 1, out, &ol) != CKR_OK || ol != 16 ||
		    memcmp(out, ref, 16) != 0)
			bad++;
		ol = sizeof out;
		if (pc_sign(&mg, h, msg, n, !(j & 1), out, &ol) != CKR_OK || ol != gl ||
		    memcmp(out, ref, gl) != 0)
			bad++;
		if (pc_verify(&mg, h, msg, n, j & 1, ref, gl) != CKR_OK)
			bad++;
		pkt_f->C_DestroyObject(pc_s, h);
	}
	EVP_MAC_free(mac);
	printf("\n  AES-CMAC: %d messages, %d mismatches\n", 3 * N_MAC, bad);
	CU_ASSERT(bad == 0);
}

static int ossl_wrap(int pad, const uint8_t *kek, size_t kl, const uint8_t *in,
                     size_t n, uint8_t *out, size_t *ol)
{
	static const char *kw[] = { "id-aes128-wrap", "id-aes192-wrap", "id-aes256-wrap" };
	static const char *kwp[] = { "id-aes128-wrap-pad", "id-aes192-wrap-pad",
	                             "id-aes256-wrap-pad" };
	const EVP_CIPHER *c = EVP_get_cipherbyname((pad ? kwp : kw)[(kl - 16) / 8]);
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ok;

	EVP_CIPHER_CTX_set_flags(x, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	ok = c != NULL && EVP_EncryptInit_ex(x, c, NULL, kek, NULL) &&
	     EVP_EncryptUpdate(x, out, &l1, in, (int)n) &&
	     EVP_EncryptFinal_ex(x, out + l1, &l2);
	*ol = (size_t)(l1 + l2);
	EVP_CIPHER_CTX_free(x);
	return ok;
}

static void t_wrap(void)
{
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE gen = CKK_GENERIC_SECRET;
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_ATTRIBUTE ut[] = {
		{ CKA_CLASS, &cls, sizeof cls }, { CKA_KEY_TYPE, &gen, sizeof gen },
		{ CKA_SENSITIVE, &f, 1 }, { CKA_EXTRACTABLE, &t, 1 },
		{ CKA_PRIVATE, &f, 1 },
	};
	int j, bad = 0;

	for (j = 0; j < 200; j++) {
		int pad = j & 1;
		size_t kl = 16 + 8 * (j % 3);
		size_t n = pad ? 1 + ts_rand_u32(100) : 16 + 8 * ts_rand_u32(12), rl;
		uint8_t kek[32], key[128], ref[160], out[160], val[160];
		CK_MECHANISM m = { pad ? CKM_AES_KEY_WRAP_PAD : CKM_AES_KEY_WRAP, NULL, 0 };
		CK_OBJECT_HANDLE hk, hv, hu = 0;
		CK_ULONG ol = sizeof out;

		ts_rand(kek, kl);
		ts_rand(key, n);
		CU_ASSERT_FATAL(ossl_wrap(pad, kek, kl, key, n, ref, &rl));
		CU_ASSERT_FATAL(pc_key(CKK_AES, kek, kl, 0, &hk) == CKR_OK);
		CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, key, n, PC_EXTRACTABLE, &hv) == CKR_OK);
		if (pkt_f->C_WrapKey(pc_s, &m, hk, hv, out, &ol) != CKR_OK || ol != rl ||
		    memcmp(out, ref, rl) != 0)
			bad++;
		if (pkt_f->C_UnwrapKey(pc_s, &m, hk, ref, rl, ut, 5, &hu) != CKR_OK ||
		    pc_value(hu, val, sizeof val) != (long)n || memcmp(val, key, n) != 0)
			bad++;
		pkt_f->C_DestroyObject(pc_s, hk);
		pkt_f->C_DestroyObject(pc_s, hv);
		if (hu)
			pkt_f->C_DestroyObject(pc_s, hu);
	}
	printf("\n  KW/KWP: 200 keys, %d mismatches\n", bad);
	CU_ASSERT(bad == 0);
}

static void t_hkdf(void)
{
	static const struct { const char *n; CK_MECHANISM_TYPE m; } pr[] = {
		{ "SHA1", CKM_SHA_1 }, { "SHA256", CKM_SHA256 }, { "SHA384", CKM_SHA384 },
		{ "SHA512", CKM_SHA512 }, { "SHA3-256", CKM_SHA3_256 },
	};
	int j, bad = 0;

	for (j = 0; j < 150; j++) {
		uint8_t ikm[64], salt[64], info[64], ref[512], val[512];
		size_t il = 1 + ts_rand_u32(64), sl = ts_rand_u32(65), nl = ts_rand_u32(65);
		CK_ULONG size = 1 + ts_rand_u32(200);
		int pi = j % 5;
		CK_HKDF_PARAMS p = { CK_TRUE, CK_TRUE, pr[pi].m,
		                     sl ? CKF_HKDF_SALT_DATA : CKF_HKDF_SALT_NULL,
		                     sl ? salt : NULL, sl, 0, nl ? info : NULL, nl };
		CK_MECHANISM m = { CKM_HKDF_DERIVE, &p, sizeof p };
		CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
		CK_KEY_TYPE gen = CKK_GENERIC_SECRET;
		CK_BBOOL t = CK_TRUE, f = CK_FALSE;
		CK_ATTRIBUTE dt[] = {
			{ CKA_CLASS, &cls, sizeof cls }, { CKA_KEY_TYPE, &gen, sizeof gen },
			{ CKA_VALUE_LEN, &size, sizeof size },
			{ CKA_SENSITIVE, &f, 1 }, { CKA_EXTRACTABLE, &t, 1 },
			{ CKA_PRIVATE, &f, 1 },
		};
		CK_OBJECT_HANDLE h, dh = 0;
		EVP_PKEY_CTX *x = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
		size_t rl = size;

		ts_rand(ikm, il);
		ts_rand(salt, sl);
		ts_rand(info, nl);
		EVP_PKEY_derive_init(x);
		EVP_PKEY_CTX_set_hkdf_md(x, EVP_get_digestbyname(pr[pi].n));
		if (sl)
			EVP_PKEY_CTX_set1_hkdf_salt(x, salt, (int)sl);
		EVP_PKEY_CTX_set1_hkdf_key(x, ikm, (int)il);
		if (nl)
			EVP_PKEY_CTX_add1_hkdf_info(x, info, (int)nl);
		CU_ASSERT_FATAL(EVP_PKEY_derive(x, ref, &rl) == 1);
		EVP_PKEY_CTX_free(x);
		CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, ikm, il, 0, &h) == CKR_OK);
		if (pkt_f->C_DeriveKey(pc_s, &m, h, dt, 6, &dh) != CKR_OK ||
		    pc_value(dh, val, sizeof val) != (long)size || memcmp(val, ref, size) != 0)
			bad++;
		pkt_f->C_DestroyObject(pc_s, h);
		if (dh)
			pkt_f->C_DestroyObject(pc_s, dh);
	}
	printf("\n  HKDF: 150 derivations, %d mismatches\n", bad);
	CU_ASSERT(bad == 0);
}

/* CKA_CHECK_VALUE = E_K(0^128)[0..2]; generated keys encrypt like OpenSSL
 * with their (non-sensitive) value. */
static void t_check_value_and_keygen(void)
{
	static const uint8_t zero[16];
	uint8_t key[32], kcv[3], ref[32], ct[32], msg[32];
	CK_ATTRIBUTE a = { CKA_CHECK_VALUE, kcv, 3 };
	CK_OBJECT_HANDLE h;
	CK_ULONG len = 32, ol;
	CK_BBOOL t = CK_TRUE, f = CK_FALSE;
	CK_ATTRIBUTE gt[] = {
		{ CKA_VALUE_LEN, &len, sizeof len },
		{ CKA_SENSITIVE, &f, 1 }, { CKA_EXTRACTABLE, &t, 1 },
		{ CKA_PRIVATE, &f, 1 },
	};
	CK_MECHANISM kg = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_MECHANISM ecb = { CKM_AES_ECB, NULL, 0 };
	size_t rl;

	ts_rand(key, 32);
	CU_ASSERT_FATAL(pc_key(CKK_AES, key, 32, 0, &h) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, h, &a, 1) == CKR_OK);
	CU_ASSERT(ts_ossl_crypt(EVP_get_cipherbyname("AES-256-ECB"), 1, 0, key, NULL, 0,
	                     NULL, 0, 0, zero, 16, ref, &rl));
	CU_ASSERT(a.ulValueLen == 3 && memcmp(kcv, ref, 3) == 0);
	pkt_f->C_DestroyObject(pc_s, h);

	CU_ASSERT_FATAL(pkt_f->C_GenerateKey(pc_s, &kg, gt, 4, &h) == CKR_OK);
	CU_ASSERT(pc_value(h, key, sizeof key) == 32);
	ts_rand(msg, 32);
	ol = sizeof ct;
	CU_ASSERT(pc_crypt(&ecb, h, 1, msg, 32, ct, &ol) == CKR_OK);
	CU_ASSERT(ts_ossl_crypt(EVP_get_cipherbyname("AES-256-ECB"), 1, 0, key, NULL, 0,
	                     NULL, 0, 0, msg, 32, ref, &rl));
	CU_ASSERT(ol == 32 && memcmp(ct, ref, 32) == 0);
	pkt_f->C_DestroyObject(pc_s, h);
}

/* Digest state saved in the middle, restored in another session. */
static void t_op_state(void)
{
	static uint8_t msg[3000];
	uint8_t st[2048], out[64], ref[64];
	CK_ULONG sl = sizeof st, ol = sizeof out;
	CK_MECHANISM m = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE s2 = pkt_open(pc_slot, 0);
	unsigned rl;

	ts_rand(msg, sizeof msg);
	EVP_Digest(msg, sizeof msg, ref, &rl, EVP_sha256(), NULL);
	CU_ASSERT_FATAL(pkt_f->C_DigestInit(pc_s, &m) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestUpdate(pc_s, msg, 1000) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetOperationState(pc_s, NULL, &sl) == CKR_OK);
	CU_ASSERT(sl > 16 && sl <= sizeof st);
	CU_ASSERT(pkt_f->C_GetOperationState(pc_s, st, &sl) == CKR_OK);
	CU_ASSERT(pkt_f->C_SetOperationState(s2, st, sl, 0, 0) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestUpdate(s2, msg + 1000, 2000) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestFinal(s2, out, &ol) == CKR_OK);
	CU_ASSERT(ol == 32 && memcmp(out, ref, 32) == 0);
	/* the original goes on too */
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_DigestUpdate(pc_s, msg + 1000, 2000) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestFinal(pc_s, out, &ol) == CKR_OK);
	CU_ASSERT(ol == 32 && memcmp(out, ref, 32) == 0);
	/* a damaged state is refused */
	st[sl - 1] ^= 1;
	st[20] ^= 0x40;
	CU_ASSERT(pkt_f->C_SetOperationState(s2, st, sl, 0, 0) ==
	          CKR_SAVED_STATE_INVALID);
	st[0] ^= 1;
	CU_ASSERT(pkt_f->C_SetOperationState(s2, st, sl, 0, 0) ==
	          CKR_SAVED_STATE_INVALID);
	pkt_f->C_CloseSession(s2);
}

/* Large single-part inputs (split inside the token) equal OpenSSL. */
static void t_large(void)
{
	size_t n = (3u << 20) + 5;
	uint8_t *msg = malloc(n), *out = malloc(n + 64), *ref = malloc(n + 64);
	uint8_t key[32], iv[16], d1[32], d2[32];
	CK_MECHANISM m = { CKM_AES_CBC_PAD, iv, 16 };
	CK_MECHANISM sh = { CKM_SHA256, NULL, 0 };
	CK_OBJECT_HANDLE h;
	CK_ULONG ol = n + 64;
	size_t rl;
	unsigned dl;

	ts_rand(msg, n);
	ts_rand(key, 32);
	ts_rand(iv, 16);
	CU_ASSERT_FATAL(pc_key(CKK_AES, key, 32, 0, &h) == CKR_OK);
	CU_ASSERT(ts_ossl_crypt(EVP_get_cipherbyname("AES-256-CBC"), 1, 1, key, iv, 16,
	                     NULL, 0, 0, msg, n, ref, &rl));
	CU_ASSERT(pc_crypt(&m, h, 1, msg, n, out, &ol) == CKR_OK);
	CU_ASSERT(ol == rl && memcmp(out, ref, rl) == 0);
	EVP_Digest(msg, n, d1, &dl, EVP_sha256(), NULL);
	ol = 32;
	CU_ASSERT(pc_digest(&sh, msg, n, 0, d2, &ol) == CKR_OK);
	CU_ASSERT(ol == 32 && memcmp(d1, d2, 32) == 0);
	pkt_f->C_DestroyObject(pc_s, h);
	free(msg); free(out); free(ref);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11crypto_oracle");

	CU_add_test(s, "setup: token and session", pc_token);
	CU_add_test(s, "AES/SM4 modes vs OpenSSL (single, multi, in place)", t_ciphers);
	CU_add_test(s, "SM4-GCM round trip and CTR body vs OpenSSL", t_sm4_gcm);
	CU_add_test(s, "digests vs OpenSSL", t_digests);
	CU_add_test(s, "HMAC vs OpenSSL", t_hmac);
	CU_add_test(s, "AES-CMAC (and _GENERAL) vs OpenSSL", t_cmac);
	CU_add_test(s, "KW/KWP wrap/unwrap vs OpenSSL", t_wrap);
	CU_add_test(s, "HKDF vs OpenSSL", t_hkdf);
	CU_add_test(s, "CKA_CHECK_VALUE, generated key vs OpenSSL", t_check_value_and_keygen);
	CU_add_test(s, "digest operation state save/restore", t_op_state);
	CU_add_test(s, "3 MiB single-part CBC_PAD and SHA-256", t_large);
	return pc_run();
}
