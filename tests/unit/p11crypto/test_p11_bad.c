/*
 * test_p11_bad.c - bad input and policy through the module: wrong key
 * types, bad IV/nonce/tag parameters, tag mismatch and bad padding (no
 * plaintext released), short buffers (size convention), usage flags,
 * CKA_ALLOWED_MECHANISMS, operation states, attribute rules of secret keys,
 * mechanism info and token flags, and a sealed vault (no master key).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "pc.h"
#include "tsupport.h"

static CK_OBJECT_HANDLE aes, gen, sm4, nouse;
static uint8_t kv[32];

static void t_keys(void)
{
	ts_rand(kv, sizeof kv);
	CU_ASSERT_FATAL(pc_key(CKK_AES, kv, 32, 0, &aes) == CKR_OK);
	CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, kv, 32, 0, &gen) == CKR_OK);
	CU_ASSERT_FATAL(pc_key(CKK_PV_SM4, kv, 16, 0, &sm4) == CKR_OK);
	CU_ASSERT_FATAL(pc_key(CKK_AES, kv, 16, PC_NO_USAGE, &nouse) == CKR_OK);
	/* bad lengths and types */
	CU_ASSERT(pc_key(CKK_AES, kv, 15, 0, &nouse + 0) == CKR_ATTRIBUTE_VALUE_INVALID ||
	          0);
	CU_ASSERT(pc_key(CKK_PV_SM4, kv, 32, 0, &nouse + 0) == CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pc_key(CKK_DES3, kv, 24, 0, &nouse + 0) == CKR_ATTRIBUTE_VALUE_INVALID);
}

static void t_key_type(void)
{
	uint8_t iv[16] = { 0 };
	CK_MECHANISM cbc = { CKM_AES_CBC, iv, 16 };
	CK_MECHANISM hm = { CKM_SHA256_HMAC, NULL, 0 };
	CK_MECHANISM ecb = { CKM_AES_ECB, NULL, 0 };
	CK_MECHANISM sm = { CKM_PV_SM4_ECB, NULL, 0 };

	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &cbc, gen) == CKR_KEY_TYPE_INCONSISTENT);
	CU_ASSERT(pkt_f->C_SignInit(pc_s, &hm, aes) == CKR_KEY_TYPE_INCONSISTENT);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, sm4) == CKR_KEY_TYPE_INCONSISTENT);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &sm, aes) == CKR_KEY_TYPE_INCONSISTENT);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, 0x12345) == CKR_KEY_HANDLE_INVALID);
	/* a digest mechanism is no cipher */
	hm.mechanism = CKM_SHA256;
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &hm, aes) == CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, aes) == CKR_OK);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, aes) == CKR_OPERATION_ACTIVE);
	/* the session's answers come first: active before a bad mechanism, an
	 * invalid handle before a bad pointer */
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &hm, aes) == CKR_OPERATION_ACTIVE);
	CU_ASSERT(pkt_f->C_EncryptInit(0x7ffff, NULL, aes) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_Encrypt(0x7ffff, NULL, 4, NULL, NULL) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_EncryptUpdate(0x7ffff, iv, 16, NULL, NULL) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_EncryptFinal(0x7ffff, NULL, NULL) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_EncryptFinal(pc_s, NULL, NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_DigestInit(pc_s, &hm) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestInit(pc_s, &ecb) == CKR_OPERATION_ACTIVE);
	CU_ASSERT(pkt_f->C_DigestInit(0x7ffff, NULL) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_Digest(0x7ffff, NULL, 4, NULL, NULL) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_DigestUpdate(0x7ffff, NULL, 4) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_DigestKey(0x7ffff, aes) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_DigestFinal(0x7ffff, NULL, NULL) == CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_Digest(pc_s, NULL, 4, NULL, &(CK_ULONG){ 0 }) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_DigestFinal(pc_s, NULL, &(CK_ULONG){ 0 }) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestFinal(pc_s, iv, &(CK_ULONG){ 16 }) == CKR_BUFFER_TOO_SMALL);
	CU_ASSERT(pkt_f->C_DigestFinal(pc_s, (uint8_t[32]){ 0 }, &(CK_ULONG){ 32 }) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestInit(pc_s, &ecb) == CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_EncryptFinal(pc_s, NULL, &(CK_ULONG){ 0 }) == CKR_OK);
	CU_ASSERT(pkt_f->C_EncryptFinal(pc_s, iv, &(CK_ULONG){ 16 }) == CKR_OK);
	CU_ASSERT(pkt_f->C_EncryptFinal(pc_s, iv, &(CK_ULONG){ 16 }) ==
	          CKR_OPERATION_NOT_INITIALIZED);
}

static void t_params(void)
{
	uint8_t iv[16] = { 0 }, buf[64];
	CK_MECHANISM m = { CKM_AES_CBC, iv, 15 };
	CK_AES_CTR_PARAMS cp = { 0, { 0 } };
	CK_GCM_PARAMS gp = { iv, 0, 0, NULL, 0, 128 };
	CK_ULONG l;

	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	m.pParameter = NULL; m.ulParameterLen = 0;
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	m.mechanism = CKM_AES_ECB; m.pParameter = iv; m.ulParameterLen = 16;
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	m.mechanism = CKM_AES_CTR; m.pParameter = &cp; m.ulParameterLen = sizeof cp;
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	cp.ulCounterBits = 129;
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	m.mechanism = CKM_AES_GCM; m.pParameter = &gp; m.ulParameterLen = sizeof gp;
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	gp.ulIvLen = 12; gp.ulTagBits = 100;
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	gp.ulTagBits = 24;
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	gp.ulTagBits = 136;
	CU_ASSERT(pkt_f->C_DecryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	m.ulParameterLen = 7;
	gp.ulTagBits = 128;
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	/* MAC_GENERAL length beyond the MAC */
	l = 33;
	m.mechanism = CKM_SHA256_HMAC_GENERAL; m.pParameter = &l; m.ulParameterLen = sizeof l;
	CU_ASSERT(pkt_f->C_SignInit(pc_s, &m, gen) == CKR_MECHANISM_PARAM_INVALID);
	l = 17;
	m.mechanism = CKM_AES_CMAC_GENERAL;
	CU_ASSERT(pkt_f->C_SignInit(pc_s, &m, aes) == CKR_MECHANISM_PARAM_INVALID);
	/* data length: ECB needs whole blocks */
	m.mechanism = CKM_AES_ECB; m.pParameter = NULL; m.ulParameterLen = 0;
	l = sizeof buf;
	CU_ASSERT(pc_crypt(&m, aes, 1, buf, 15, buf, &l) == CKR_DATA_LEN_RANGE);
	l = sizeof buf;
	CU_ASSERT(pc_crypt(&m, aes, 0, buf, 15, buf, &l) == CKR_ENCRYPTED_DATA_LEN_RANGE);
	CU_ASSERT(pkt_f->C_Decrypt(pc_s, buf, 16, buf, &l) == CKR_OPERATION_NOT_INITIALIZED);
}

static void t_tag_and_padding(void)
{
	uint8_t iv[16], msg[100], ct[200], out[200];
	CK_GCM_PARAMS gp = { iv, 12, 96, NULL, 0, 128 };
	CK_MECHANISM m = { CKM_AES_GCM, &gp, sizeof gp };
	CK_ULONG l = sizeof ct, ol;
	size_t i;
	int same = 1;

	ts_rand(iv, sizeof iv);
	ts_rand(msg, sizeof msg);
	CU_ASSERT_FATAL(pc_crypt(&m, aes, 1, msg, sizeof msg, ct, &l) == CKR_OK);
	CU_ASSERT(l == sizeof msg + 16);
	ct[l - 1] ^= 1;
	memset(out, 0x5a, sizeof out);
	ol = sizeof out;
	CU_ASSERT(pc_crypt(&m, aes, 0, ct, l, out, &ol) == CKR_ENCRYPTED_DATA_INVALID);
	ol = sizeof out;
	CU_ASSERT(pc_crypt_multi(&m, aes, 0, ct, l, out, &ol) == CKR_ENCRYPTED_DATA_INVALID);
	for (i = 0; i < sizeof out; i++)
		if (out[i] != 0x5a)
			same = 0;
	CU_ASSERT(same);     /* no plaintext released */
	CU_ASSERT(pkt_f->C_DecryptFinal(pc_s, out, &ol) == CKR_OPERATION_NOT_INITIALIZED);
	/* shorter than a tag */
	ol = sizeof out;
	CU_ASSERT(pc_crypt(&m, aes, 0, ct, 15, out, &ol) == CKR_ENCRYPTED_DATA_LEN_RANGE);

	/* CBC_PAD: a last block whose padding is wrong */
	{
		CK_MECHANISM cbc = { CKM_AES_CBC, iv, 16 }, pad = { CKM_AES_CBC_PAD, iv, 16 };
		uint8_t blk[32];
		memset(msg, 0x11, 32);
		msg[31] = 0x00;                  /* pad byte 0: invalid */
		l = sizeof blk;
		CU_ASSERT(pc_crypt(&cbc, aes, 1, msg, 32, blk, &l) == CKR_OK);
		ol = sizeof out;
		CU_ASSERT(pc_crypt(&pad, aes, 0, blk, 32, out, &ol) == CKR_ENCRYPTED_DATA_INVALID);
		msg[31] = 0x11;                  /* 17 > 16: invalid */
		l = sizeof blk;
		CU_ASSERT(pc_crypt(&cbc, aes, 1, msg, 32, blk, &l) == CKR_OK);
		ol = sizeof out;
		CU_ASSERT(pc_crypt_multi(&pad, aes, 0, blk, 32, out, &ol) == CKR_ENCRYPTED_DATA_INVALID);
		ol = sizeof out;
		CU_ASSERT(pc_crypt(&pad, aes, 0, blk, 31, out, &ol) == CKR_ENCRYPTED_DATA_LEN_RANGE);
	}
}

static void t_short_buffers(void)
{
	uint8_t iv[16] = { 0 }, msg[48], out[64], mac[32];
	CK_MECHANISM m = { CKM_AES_CBC_PAD, iv, 16 };
	CK_MECHANISM hm = { CKM_SHA256_HMAC, NULL, 0 };
	CK_MECHANISM d = { CKM_SHA512, NULL, 0 };
	CK_ULONG l;

	ts_rand(msg, sizeof msg);
	CU_ASSERT_FATAL(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_OK);
	l = 0;
	CU_ASSERT(pkt_f->C_Encrypt(pc_s, msg, 48, NULL, &l) == CKR_OK);
	CU_ASSERT(l == 64);
	l = 63;
	CU_ASSERT(pkt_f->C_Encrypt(pc_s, msg, 48, out, &l) == CKR_BUFFER_TOO_SMALL);
	CU_ASSERT(l == 64);
	CU_ASSERT(pkt_f->C_Encrypt(pc_s, msg, 48, out, &l) == CKR_OK);   /* still active */
	CU_ASSERT(l == 64);
	/* multi-part update: size query and too small */
	CU_ASSERT_FATAL(pkt_f->C_EncryptInit(pc_s, &m, aes) == CKR_OK);
	l = 0;
	CU_ASSERT(pkt_f->C_EncryptUpdate(pc_s, msg, 40, NULL, &l) == CKR_OK);
	CU_ASSERT(l == 32);
	l = 16;
	CU_ASSERT(pkt_f->C_EncryptUpdate(pc_s, msg, 40, out, &l) == CKR_BUFFER_TOO_SMALL);
	CU_ASSERT(l == 32);
	l = sizeof out;
	CU_ASSERT(pkt_f->C_EncryptUpdate(pc_s, msg, 40, out, &l) == CKR_OK && l == 32);
	l = 0;
	CU_ASSERT(pkt_f->C_EncryptFinal(pc_s, NULL, &l) == CKR_OK && l == 16);
	l = 15;
	CU_ASSERT(pkt_f->C_EncryptFinal(pc_s, out, &l) == CKR_BUFFER_TOO_SMALL && l == 16);
	CU_ASSERT(pkt_f->C_EncryptFinal(pc_s, out, &l) == CKR_OK && l == 16);
	/* sign and digest */
	CU_ASSERT_FATAL(pkt_f->C_SignInit(pc_s, &hm, gen) == CKR_OK);
	l = 0;
	CU_ASSERT(pkt_f->C_Sign(pc_s, msg, 10, NULL, &l) == CKR_OK && l == 32);
	l = 31;
	CU_ASSERT(pkt_f->C_Sign(pc_s, msg, 10, mac, &l) == CKR_BUFFER_TOO_SMALL && l == 32);
	CU_ASSERT(pkt_f->C_Sign(pc_s, msg, 10, mac, &l) == CKR_OK && l == 32);
	CU_ASSERT_FATAL(pkt_f->C_DigestInit(pc_s, &d) == CKR_OK);
	CU_ASSERT(pkt_f->C_DigestUpdate(pc_s, msg, 10) == CKR_OK);
	l = 0;
	CU_ASSERT(pkt_f->C_DigestFinal(pc_s, NULL, &l) == CKR_OK && l == 64);
	l = 32;
	CU_ASSERT(pkt_f->C_DigestFinal(pc_s, out, &l) == CKR_BUFFER_TOO_SMALL && l == 64);
	l = 64;
	CU_ASSERT(pkt_f->C_DigestFinal(pc_s, out, &l) == CKR_OK && l == 64);
	/* verify: wrong MAC, wrong length */
	CU_ASSERT(pc_verify(&hm, gen, msg, 10, 0, mac, 32) == CKR_OK);
	mac[0] ^= 1;
	CU_ASSERT(pc_verify(&hm, gen, msg, 10, 0, mac, 32) == CKR_SIGNATURE_INVALID);
	CU_ASSERT(pc_verify(&hm, gen, msg, 10, 1, mac, 32) == CKR_SIGNATURE_INVALID);
	CU_ASSERT(pc_verify(&hm, gen, msg, 10, 0, mac, 31) == CKR_SIGNATURE_LEN_RANGE);
}

static void t_usage_and_allowed(void)
{
	uint8_t iv[16] = { 0 };
	CK_MECHANISM ecb = { CKM_AES_ECB, NULL, 0 }, cbc = { CKM_AES_CBC, iv, 16 };
	CK_MECHANISM cm = { CKM_AES_CMAC, NULL, 0 }, kw = { CKM_AES_KEY_WRAP, NULL, 0 };
	CK_MECHANISM_TYPE allowed[] = { CKM_AES_CBC, CKM_AES_CMAC };
	CK_OBJECT_CLASS c = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_AES;
	CK_BBOOL f = CK_FALSE;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt },
		{ CKA_VALUE, kv, 16 }, { CKA_ALLOWED_MECHANISMS, allowed, sizeof allowed },
		{ CKA_PRIVATE, &f, 1 },
	};
	CK_ATTRIBUTE noenc = { CKA_ENCRYPT, &f, 1 };
	CK_OBJECT_HANDLE h;
	uint8_t out[64];
	CK_ULONG l = sizeof out;

	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, nouse) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT(pkt_f->C_DecryptInit(pc_s, &ecb, nouse) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT(pkt_f->C_SignInit(pc_s, &cm, nouse) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT(pkt_f->C_VerifyInit(pc_s, &cm, nouse) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT(pkt_f->C_WrapKey(pc_s, &kw, nouse, aes, out, &l) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT(pkt_f->C_UnwrapKey(pc_s, &kw, nouse, out, 24, NULL, 0, &h) ==
	          CKR_KEY_FUNCTION_NOT_PERMITTED);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, t, 5, &h) == CKR_OK);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, h) == CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_SignInit(pc_s, &cm, h) == CKR_OK);
	CU_ASSERT(pkt_f->C_Sign(pc_s, kv, 16, out, &l) == CKR_OK);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &cbc, h) == CKR_OK);
	l = sizeof out;
	CU_ASSERT(pkt_f->C_Encrypt(pc_s, kv, 16, out, &l) == CKR_OK);
	/* a usage flag cleared later is enforced at the next init */
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, h, &noenc, 1) == CKR_OK);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &cbc, h) == CKR_KEY_FUNCTION_NOT_PERMITTED);
	pkt_f->C_DestroyObject(pc_s, h);
}

static void t_attributes(void)
{
	CK_BBOOL t = CK_TRUE, f = CK_FALSE, b;
	CK_ATTRIBUTE a;
	uint8_t v[64];
	CK_ULONG len = 32;
	CK_MECHANISM kg = { CKM_AES_KEY_GEN, NULL, 0 }, kw = { CKM_AES_KEY_WRAP_PAD, NULL, 0 };
	CK_ATTRIBUTE gt[] = { { CKA_VALUE_LEN, &len, sizeof len }, { CKA_PRIVATE, &f, 1 } };
	CK_OBJECT_HANDLE g, x;
	CK_ULONG l = sizeof v;
	uint8_t junk[40];

	/* a sensitive value is never returned */
	a.type = CKA_VALUE; a.pValue = v; a.ulValueLen = sizeof v;
	CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, aes, &a, 1) == CKR_ATTRIBUTE_SENSITIVE);
	CU_ASSERT(a.ulValueLen == CK_UNAVAILABLE_INFORMATION);
	/* imported: not always sensitive, not never extractable */
	a.type = CKA_ALWAYS_SENSITIVE; a.pValue = &b; a.ulValueLen = 1;
	CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, aes, &a, 1) == CKR_OK && b == CK_FALSE);
	a.type = CKA_VALUE_LEN; a.pValue = &l; a.ulValueLen = sizeof l;
	CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, aes, &a, 1) == CKR_OK && l == 32);
	/* transitions */
	a.type = CKA_SENSITIVE; a.pValue = &f; a.ulValueLen = 1;
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, aes, &a, 1) == CKR_ATTRIBUTE_READ_ONLY);
	a.type = CKA_EXTRACTABLE; a.pValue = &t;
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, aes, &a, 1) == CKR_ATTRIBUTE_READ_ONLY);
	a.type = CKA_ALWAYS_SENSITIVE;
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, aes, &a, 1) == CKR_ATTRIBUTE_READ_ONLY);
	a.type = CKA_VALUE; a.pValue = kv; a.ulValueLen = 32;
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, aes, &a, 1) == CKR_ATTRIBUTE_READ_ONLY);
	/* generated: always sensitive, never extractable (defaults) */
	CU_ASSERT_FATAL(pkt_f->C_GenerateKey(pc_s, &kg, gt, 2, &g) == CKR_OK);
	a.type = CKA_ALWAYS_SENSITIVE; a.pValue = &b; a.ulValueLen = 1;
	CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, g, &a, 1) == CKR_OK && b == CK_TRUE);
	a.type = CKA_NEVER_EXTRACTABLE;
	CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, g, &a, 1) == CKR_OK && b == CK_TRUE);
	a.type = CKA_LOCAL;
	CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, g, &a, 1) == CKR_OK && b == CK_TRUE);
	/* not extractable: no wrap */
	l = sizeof v;
	CU_ASSERT(pkt_f->C_WrapKey(pc_s, &kw, aes, g, v, &l) == CKR_KEY_UNEXTRACTABLE);
	/* extractable but sensitive: wraps (size query first), value still hidden */
	CU_ASSERT_FATAL(pc_key(CKK_AES, kv, 16, 0, &x) == CKR_OK);
	a.type = CKA_EXTRACTABLE; a.pValue = &t; a.ulValueLen = 1;
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, x, &a, 1) == CKR_ATTRIBUTE_READ_ONLY);
	pkt_f->C_DestroyObject(pc_s, x);
	/* unwrap of garbage */
	ts_rand(junk, sizeof junk);
	{
		CK_OBJECT_CLASS c = CKO_SECRET_KEY;
		CK_KEY_TYPE kt = CKK_AES;
		CK_ATTRIBUTE ut[] = { { CKA_CLASS, &c, sizeof c }, { CKA_KEY_TYPE, &kt, sizeof kt } };
		CU_ASSERT(pkt_f->C_UnwrapKey(pc_s, &kw, aes, junk, 40, ut, 2, &x) ==
		          CKR_WRAPPED_KEY_INVALID);
		kw.mechanism = CKM_AES_KEY_WRAP;
		CU_ASSERT(pkt_f->C_UnwrapKey(pc_s, &kw, aes, junk, 40, ut, 2, &x) ==
		          CKR_WRAPPED_KEY_INVALID);
		CU_ASSERT(pkt_f->C_UnwrapKey(pc_s, &kw, aes, junk, 20, ut, 2, &x) ==
		          CKR_WRAPPED_KEY_INVALID);
	}
	pkt_f->C_DestroyObject(pc_s, g);
}

static void t_info_state_random(void)
{
	CK_MECHANISM_INFO mi;
	CK_TOKEN_INFO ti;
	CK_MECHANISM_TYPE list[128];
	CK_ULONG n = 128, l;
	CK_MECHANISM ecb = { CKM_AES_ECB, NULL, 0 }, d = { CKM_SHA256, NULL, 0 };
	uint8_t r1[64], r2[64], st[2048];
	int gpu;

	CU_ASSERT(pkt_f->C_GetMechanismList(pc_slot, list, &n) == CKR_OK && n > 40);
	CU_ASSERT(pkt_f->C_GetMechanismInfo(pc_slot, CKM_AES_GCM, &mi) == CKR_OK);
	CU_ASSERT((mi.flags & (CKF_ENCRYPT | CKF_DECRYPT)) == (CKF_ENCRYPT | CKF_DECRYPT));
	/* CKF_HW and the model say which backend serves ($PIXELVAULT_BACKEND
	 * = cuda where the suite runs on a GPU) */
	gpu = getenv("PIXELVAULT_BACKEND") != NULL && strcmp(getenv("PIXELVAULT_BACKEND"), "cuda") == 0;
	CU_ASSERT(((mi.flags & CKF_HW) != 0) == gpu);
	CU_ASSERT(mi.ulMinKeySize == 16 && mi.ulMaxKeySize == 32);
	CU_ASSERT(pkt_f->C_GetMechanismInfo(pc_slot, 0xFFFFF007UL, &mi) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetMechanismInfo(pc_slot, CKM_DES3_CBC, &mi) == CKR_MECHANISM_INVALID);
	CU_ASSERT(pkt_f->C_GetTokenInfo(pc_slot, &ti) == CKR_OK);
	CU_ASSERT(ti.flags & CKF_RNG);
	CU_ASSERT(memcmp(ti.model, gpu ? "PixelVault GPU  " : "PixelVault CPU  ", 16) == 0);
	CU_ASSERT(pkt_f->C_GenerateRandom(pc_s, r1, sizeof r1) == CKR_OK);
	CU_ASSERT(pkt_f->C_SeedRandom(pc_s, r1, 32) == CKR_OK);
	CU_ASSERT(pkt_f->C_GenerateRandom(pc_s, r2, sizeof r2) == CKR_OK);
	CU_ASSERT(memcmp(r1, r2, sizeof r1) != 0);
	/* state: unsaveable while a keyed operation is active */
	CU_ASSERT(pkt_f->C_DigestInit(pc_s, &d) == CKR_OK);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, aes) == CKR_OK);
	l = sizeof st;
	CU_ASSERT(pkt_f->C_GetOperationState(pc_s, st, &l) == CKR_STATE_UNSAVEABLE);
	/* a sensitive key cannot be digested; the digest goes on */
	CU_ASSERT(pkt_f->C_DigestKey(pc_s, aes) == CKR_KEY_INDIGESTIBLE);
	l = sizeof st;
	CU_ASSERT(pkt_f->C_EncryptFinal(pc_s, st, &l) == CKR_OK);
	{
		/* a non-sensitive extractable key is: SHA-256("ab" || key || "c") */
		CK_OBJECT_HANDLE x;
		uint8_t ref[32], buf[40];
		unsigned rl;
		CU_ASSERT_FATAL(pc_key(CKK_GENERIC_SECRET, kv, 32, PC_EXTRACTABLE, &x) == CKR_OK);
		CU_ASSERT(pkt_f->C_DigestUpdate(pc_s, (CK_BYTE_PTR)"ab", 2) == CKR_OK);
		CU_ASSERT(pkt_f->C_DigestKey(pc_s, x) == CKR_OK);
		CU_ASSERT(pkt_f->C_DigestUpdate(pc_s, (CK_BYTE_PTR)"c", 1) == CKR_OK);
		l = sizeof st;
		CU_ASSERT(pkt_f->C_DigestFinal(pc_s, st, &l) == CKR_OK && l == 32);
		memcpy(buf, "ab", 2);
		memcpy(buf + 2, kv, 32);
		buf[34] = 'c';
		EVP_Digest(buf, 35, ref, &rl, EVP_sha256(), NULL);
		CU_ASSERT(memcmp(st, ref, 32) == 0);
		pkt_f->C_DestroyObject(pc_s, x);
	}
}

/* A sealed vault: a forked child re-initialises with a configuration
 * without master key. */
static void t_sealed(void)
{
	pid_t pid;
	int st;

	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		char conf[300];
		FILE *fp;
		CK_SESSION_HANDLE s;
		CK_OBJECT_HANDLE h;
		CK_TOKEN_INFO ti;
		CK_MECHANISM d = { CKM_SHA256, NULL, 0 };
		uint8_t out[32];
		CK_ULONG l = sizeof out;
		int bad = 0;

		snprintf(conf, sizeof conf, "%s/sealed.conf", pkt_dir);
		fp = fopen(conf, "w");
		if (fp == NULL)
			_exit(2);
		fprintf(fp, "token_dir = %s/tokens\nbackend = cpu\nmaster_key = %s/nothere\n",
		        pkt_dir, pkt_dir);
		fclose(fp);
		setenv("PIXELVAULT_CONF", conf, 1);
		if (pkt_f->C_Initialize(NULL) != CKR_OK)
			_exit(3);
		if (pkt_f->C_OpenSession(pc_slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
		                         NULL, NULL, &s) != CKR_OK)
			_exit(4);
		pc_s = s;
		bad += pc_key(CKK_AES, kv, 16, 0, &h) != CKR_DEVICE_ERROR;
		bad += pkt_f->C_DigestInit(s, &d) != CKR_OK;
		bad += pkt_f->C_Digest(s, kv, 16, out, &l) != CKR_DEVICE_ERROR;
		bad += pkt_f->C_GenerateRandom(s, out, 8) != CKR_RANDOM_NO_RNG;
		bad += pkt_f->C_GetTokenInfo(pc_slot, &ti) != CKR_OK || (ti.flags & CKF_RNG);
		pkt_f->C_Finalize(NULL);
		_exit(bad ? 10 + bad : 0);
	}
	CU_ASSERT(waitpid(pid, &st, 0) == pid);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		printf("\n  sealed child: status %d\n", WEXITSTATUS(st));
}

int main(void)
{
	CU_pSuite s = pc_suite("p11crypto_bad");

	CU_add_test(s, "setup: token and session", pc_token);
	CU_add_test(s, "keys: lengths and types", t_keys);
	CU_add_test(s, "wrong key type, unknown key, operation active", t_key_type);
	CU_add_test(s, "bad IV / nonce / tag / counter / MAC length parameters", t_params);
	CU_add_test(s, "GCM tag mismatch and CBC_PAD bad padding", t_tag_and_padding);
	CU_add_test(s, "short buffers (size convention), wrong MACs", t_short_buffers);
	CU_add_test(s, "usage flags and CKA_ALLOWED_MECHANISMS", t_usage_and_allowed);
	CU_add_test(s, "secret key attribute rules, unwrap of garbage", t_attributes);
	CU_add_test(s, "mechanism info, token flags, random, op state", t_info_state_random);
	CU_add_test(s, "sealed vault: CKR_DEVICE_ERROR", t_sealed);
	return pc_run();
}
