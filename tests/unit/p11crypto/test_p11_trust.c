/*
 * test_p11_trust.c - who may mark a key trusted and what that buys, and
 * the CKA_PRIVATE default of secret keys, through the real module: only
 * the SO sets CKA_TRUSTED to TRUE (the user is CKR_ATTRIBUTE_READ_ONLY
 * wherever a key is made or changed); a CKA_WRAP_WITH_TRUSTED key is
 * wrapped by the SO's trusted key and by no other (CKR_KEY_NOT_WRAPPABLE),
 * and stays so (the attribute cannot go back to FALSE, a copy keeps it);
 * a secret key made without CKA_PRIVATE is private: after C_Logout it is
 * neither found nor usable.  A key template that names usages gets those
 * and no other; one that names none gets the class's default usages.
 */
#include <string.h>

#include "pc.h"
#include "tsupport.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static CK_BBOOL T = CK_TRUE, FA = CK_FALSE;
static CK_OBJECT_CLASS SK = CKO_SECRET_KEY;
static CK_KEY_TYPE AES = CKK_AES, GEN = CKK_GENERIC_SECRET;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static CK_OBJECT_HANDLE kek, trusted, ec_pub, ec_prv;

static CK_RV login(CK_USER_TYPE who)
{
	const char *pin = who == CKU_SO ? PKT_SO_PIN : PKT_USER_PIN;

	return pkt_f->C_Login(pc_s, who, (CK_UTF8CHAR_PTR)pin, strlen(pin));
}

/* An AES-128 key from a template: the class, type and value, then the
 * n attributes of x. */
static CK_RV aes(const CK_ATTRIBUTE *x, size_t n, CK_OBJECT_HANDLE *h)
{
	uint8_t v[16];
	CK_ATTRIBUTE t[16] = { { CKA_CLASS, &SK, sizeof SK }, { CKA_KEY_TYPE, &AES, sizeof AES },
	                       { CKA_VALUE, v, sizeof v } };

	ts_rand(v, sizeof v);
	if (n > 0)
		memcpy(t + 3, x, n * sizeof *x);
	return pkt_f->C_CreateObject(pc_s, t, 3 + n, h);
}

static CK_BBOOL get_bool(CK_OBJECT_HANDLE h, CK_ATTRIBUTE_TYPE type)
{
	CK_BBOOL b = 0xff;
	CK_ATTRIBUTE a = { type, &b, sizeof b };

	CU_ASSERT(pkt_f->C_GetAttributeValue(pc_s, h, &a, 1) == CKR_OK);
	return b;
}

/* The handles of the objects labelled label that this session sees. */
static CK_ULONG find(const char *label, CK_OBJECT_HANDLE *out, CK_ULONG max)
{
	CK_ATTRIBUTE t = { CKA_LABEL, (void *)label, strlen(label) };
	CK_ULONG n = 0;

	CU_ASSERT_FATAL(pkt_f->C_FindObjectsInit(pc_s, &t, 1) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjects(pc_s, out, max, &n) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(pc_s) == CKR_OK);
	return n;
}

static void t_setup(void)
{
	CK_MECHANISM g = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 } };
	CK_ATTRIBUTE st[] = { { CKA_DERIVE, &T, 1 } };
	CK_ATTRIBUTE w[] = { { CKA_WRAP, &T, 1 }, { CKA_UNWRAP, &T, 1 } };

	pc_token_user("trust");
	CU_ASSERT_FATAL(aes(w, N(w), &kek) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &g, pt, 1, st, 1, &ec_pub, &ec_prv) == CKR_OK);
}

/* CKA_TRUSTED TRUE: refused to the user wherever a key is made or
 * changed; the SO makes a trusted wrapping key (a public token object:
 * the SO cannot make private ones), which the user then finds. */
static void t_trusted_by_so(void)
{
	uint8_t point[67];
	CK_ATTRIBUTE pa = { CKA_EC_POINT, point, sizeof point };
	CK_ECDH1_DERIVE_PARAMS ep = { CKD_NULL, 0, NULL, 0, point };
	CK_MECHANISM ecdh = { CKM_ECDH1_DERIVE, &ep, sizeof ep };
	CK_MECHANISM kg = { CKM_AES_KEY_GEN, NULL, 0 }, pg = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ULONG len = 16;
	CK_ATTRIBUTE tr = { CKA_TRUSTED, &T, 1 }, un = { CKA_TRUSTED, &FA, 1 };
	CK_ATTRIBUTE gt[] = { { CKA_VALUE_LEN, &len, sizeof len }, tr };
	CK_ATTRIBUTE dt[] = { { CKA_CLASS, &SK, sizeof SK }, { CKA_KEY_TYPE, &GEN, sizeof GEN }, tr };
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 }, tr };
	CK_ATTRIBUTE st[] = { { CKA_SIGN, &T, 1 } };
	CK_ATTRIBUTE so[] = { { CKA_TOKEN, &T, 1 }, { CKA_PRIVATE, &FA, 1 }, { CKA_WRAP, &T, 1 },
	                      { CKA_UNWRAP, &T, 1 }, tr, { CKA_LABEL, "trusted-kek", 11 } };
	CK_OBJECT_HANDLE h, pub, prv, found[4];

	CU_ASSERT_FATAL(pkt_f->C_GetAttributeValue(pc_s, ec_pub, &pa, 1) == CKR_OK);
	ep.ulPublicDataLen = pa.ulValueLen;
	CU_ASSERT(aes(&tr, 1, &h) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_GenerateKey(pc_s, &kg, gt, N(gt), &h) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_DeriveKey(pc_s, &ecdh, ec_prv, dt, N(dt), &h) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_GenerateKeyPair(pc_s, &pg, pt, N(pt), st, 1, &pub, &prv) ==
	          CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, kek, &tr, 1) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_CopyObject(pc_s, kek, &tr, 1, &h) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(get_bool(kek, CKA_TRUSTED) == CK_FALSE);
	/* FALSE is anybody's */
	CU_ASSERT_FATAL(aes(&un, 1, &h) == CKR_OK);
	CU_ASSERT(pkt_f->C_DestroyObject(pc_s, h) == CKR_OK);
	/* the SO's */
	CU_ASSERT_FATAL(pkt_f->C_Logout(pc_s) == CKR_OK);
	CU_ASSERT_FATAL(login(CKU_SO) == CKR_OK);
	CU_ASSERT(aes(&tr, 1, &h) == CKR_USER_NOT_LOGGED_IN);      /* private by default */
	CU_ASSERT_FATAL(aes(so, N(so), &trusted) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_Logout(pc_s) == CKR_OK);
	CU_ASSERT_FATAL(login(CKU_USER) == CKR_OK);
	CU_ASSERT_FATAL(find("trusted-kek", found, N(found)) == 1 && found[0] == trusted);
	CU_ASSERT(get_bool(trusted, CKA_TRUSTED) == CK_TRUE);
}

/* The same block under two AES keys: 1 if equal. */
static int same_key(CK_OBJECT_HANDLE a, CK_OBJECT_HANDLE b)
{
	CK_MECHANISM ecb = { CKM_AES_ECB, NULL, 0 };
	uint8_t in[16] = { 1, 2, 3 }, x[16], y[16];
	CK_ULONG xl = sizeof x, yl = sizeof y;

	return pc_crypt(&ecb, a, 1, in, 16, x, &xl) == CKR_OK &&
	       pc_crypt(&ecb, b, 1, in, 16, y, &yl) == CKR_OK && memcmp(x, y, 16) == 0;
}

static void t_wrap_with_trusted(void)
{
	CK_MECHANISM kw = { CKM_AES_KEY_WRAP_PAD, NULL, 0 };
	CK_ATTRIBUTE wt[] = { { CKA_EXTRACTABLE, &T, 1 }, { CKA_WRAP_WITH_TRUSTED, &T, 1 } };
	CK_ATTRIBUTE off = { CKA_WRAP_WITH_TRUSTED, &FA, 1 }, on = { CKA_WRAP_WITH_TRUSTED, &T, 1 };
	CK_ATTRIBUTE ut[] = { { CKA_CLASS, &SK, sizeof SK }, { CKA_KEY_TYPE, &AES, sizeof AES } };
	CK_OBJECT_HANDLE tgt, plain, copy, un;
	uint8_t out[64];
	CK_ULONG ol = sizeof out;

	CU_ASSERT_FATAL(aes(wt, N(wt), &tgt) == CKR_OK);
	CU_ASSERT_FATAL(aes(wt, 1, &plain) == CKR_OK);
	/* an ordinary wrapping key: refused, the size query too */
	CU_ASSERT(pkt_f->C_WrapKey(pc_s, &kw, kek, tgt, out, &ol) == CKR_KEY_NOT_WRAPPABLE);
	CU_ASSERT(pkt_f->C_WrapKey(pc_s, &kw, kek, tgt, NULL, &ol) == CKR_KEY_NOT_WRAPPABLE);
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_WrapKey(pc_s, &kw, kek, plain, out, &ol) == CKR_OK);
	/* the SO's trusted key: wraps, and the key comes back */
	ol = sizeof out;
	CU_ASSERT_FATAL(pkt_f->C_WrapKey(pc_s, &kw, trusted, tgt, out, &ol) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_UnwrapKey(pc_s, &kw, trusted, out, ol, ut, N(ut), &un) == CKR_OK);
	CU_ASSERT(same_key(tgt, un));
	pkt_f->C_DestroyObject(pc_s, un);
	/* once TRUE, always TRUE: not cleared, not by a copy either */
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, tgt, &off, 1) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_CopyObject(pc_s, tgt, &off, 1, &copy) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT_FATAL(pkt_f->C_CopyObject(pc_s, tgt, NULL, 0, &copy) == CKR_OK);
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_WrapKey(pc_s, &kw, kek, copy, out, &ol) == CKR_KEY_NOT_WRAPPABLE);
	CU_ASSERT(get_bool(tgt, CKA_WRAP_WITH_TRUSTED) == CK_TRUE);
	/* FALSE -> TRUE is allowed, and binds at once */
	CU_ASSERT(pkt_f->C_SetAttributeValue(pc_s, plain, &on, 1) == CKR_OK);
	ol = sizeof out;
	CU_ASSERT(pkt_f->C_WrapKey(pc_s, &kw, kek, plain, out, &ol) == CKR_KEY_NOT_WRAPPABLE);
	pkt_f->C_DestroyObject(pc_s, copy);
	pkt_f->C_DestroyObject(pc_s, plain);
	pkt_f->C_DestroyObject(pc_s, tgt);
	CU_ASSERT(pkt_f->C_DestroyObject(pc_s, trusted) == CKR_OK);
}

/* Secret keys made without CKA_PRIVATE, every way: private, and after
 * C_Logout not found, not usable; a public one must be asked for. */
static void t_private_default(void)
{
	CK_MECHANISM kg = { CKM_AES_KEY_GEN, NULL, 0 }, kw = { CKM_AES_KEY_WRAP_PAD, NULL, 0 };
	CK_HKDF_PARAMS hp = { CK_TRUE, CK_TRUE, CKM_SHA256, CKF_HKDF_SALT_NULL, NULL, 0, 0, NULL, 0 };
	CK_MECHANISM hk = { CKM_HKDF_DERIVE, &hp, sizeof hp };
	CK_MECHANISM ecb = { CKM_AES_ECB, NULL, 0 };
	CK_ULONG len = 32;
	CK_ATTRIBUTE gt[] = { { CKA_VALUE_LEN, &len, sizeof len }, { CKA_TOKEN, &T, 1 },
	                      { CKA_LABEL, "dflt", 4 } };
	CK_ATTRIBUTE pub[] = { { CKA_VALUE_LEN, &len, sizeof len }, { CKA_PRIVATE, &FA, 1 } };
	CK_ATTRIBUTE ex = { CKA_EXTRACTABLE, &T, 1 };
	CK_ATTRIBUTE ut[] = { { CKA_CLASS, &SK, sizeof SK }, { CKA_KEY_TYPE, &AES, sizeof AES } };
	CK_ATTRIBUTE dt[] = { { CKA_CLASS, &SK, sizeof SK }, { CKA_KEY_TYPE, &GEN, sizeof GEN },
	                      { CKA_VALUE_LEN, &len, sizeof len } };
	CK_OBJECT_HANDLE gen, imp, src, unw, der, h, found[4];
	uint8_t out[64], blk[16] = { 0 };
	CK_ULONG ol = sizeof out;

	CU_ASSERT_FATAL(pkt_f->C_GenerateKey(pc_s, &kg, gt, N(gt), &gen) == CKR_OK);
	CU_ASSERT_FATAL(aes(NULL, 0, &imp) == CKR_OK);
	CU_ASSERT_FATAL(aes(&ex, 1, &src) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_WrapKey(pc_s, &kw, kek, src, out, &ol) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_UnwrapKey(pc_s, &kw, kek, out, ol, ut, N(ut), &unw) == CKR_OK);
	{
		uint8_t v[32];
		CK_ATTRIBUTE t[] = { { CKA_CLASS, &SK, sizeof SK }, { CKA_KEY_TYPE, &GEN, sizeof GEN },
		                     { CKA_VALUE, v, sizeof v }, { CKA_DERIVE, &T, 1 } };
		ts_rand(v, sizeof v);
		CU_ASSERT_FATAL(pkt_f->C_CreateObject(pc_s, t, N(t), &h) == CKR_OK);
		CU_ASSERT_FATAL(pkt_f->C_DeriveKey(pc_s, &hk, h, dt, N(dt), &der) == CKR_OK);
		CU_ASSERT(get_bool(h, CKA_PRIVATE) == CK_TRUE);
		pkt_f->C_DestroyObject(pc_s, h);
	}
	CU_ASSERT(get_bool(gen, CKA_PRIVATE) == CK_TRUE);
	CU_ASSERT(get_bool(imp, CKA_PRIVATE) == CK_TRUE);
	CU_ASSERT(get_bool(unw, CKA_PRIVATE) == CK_TRUE);
	CU_ASSERT(get_bool(der, CKA_PRIVATE) == CK_TRUE);
	CU_ASSERT(find("dflt", found, N(found)) == 1);
	ol = sizeof out;
	CU_ASSERT(pc_crypt(&ecb, gen, 1, blk, 16, out, &ol) == CKR_OK);
	/* logged out: gone from view, unusable, none made */
	CU_ASSERT_FATAL(pkt_f->C_Logout(pc_s) == CKR_OK);
	CU_ASSERT(find("dflt", found, N(found)) == 0);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, gen) == CKR_KEY_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, imp) == CKR_KEY_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_EncryptInit(pc_s, &ecb, unw) == CKR_KEY_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_SignInit(pc_s, &(CK_MECHANISM){ CKM_SHA256_HMAC, NULL, 0 }, der) ==
	          CKR_KEY_HANDLE_INVALID);
	CU_ASSERT(aes(NULL, 0, &h) == CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT(pkt_f->C_GenerateKey(pc_s, &kg, gt, 1, &h) == CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT_FATAL(pkt_f->C_GenerateKey(pc_s, &kg, pub, N(pub), &h) == CKR_OK);
	ol = sizeof out;
	CU_ASSERT(pc_crypt(&ecb, h, 1, blk, 16, out, &ol) == CKR_OK);
	pkt_f->C_DestroyObject(pc_s, h);
	/* and back */
	CU_ASSERT_FATAL(login(CKU_USER) == CKR_OK);
	CU_ASSERT(find("dflt", found, N(found)) == 1 && found[0] == gen);
	ol = sizeof out;
	CU_ASSERT(pc_crypt(&ecb, gen, 1, blk, 16, out, &ol) == CKR_OK);
	pkt_f->C_DestroyObject(pc_s, gen);
	pkt_f->C_DestroyObject(pc_s, imp);
	pkt_f->C_DestroyObject(pc_s, src);
	pkt_f->C_DestroyObject(pc_s, unw);
	pkt_f->C_DestroyObject(pc_s, der);
}

/* The usage flags of key h: ENCRYPT DECRYPT SIGN VERIFY WRAP UNWRAP
 * DERIVE as a string of 0/1 ('?': not an attribute of its class). */
static const char *usage(CK_OBJECT_HANDLE h)
{
	static const CK_ATTRIBUTE_TYPE u[] = { CKA_ENCRYPT, CKA_DECRYPT, CKA_SIGN, CKA_VERIFY,
	                                       CKA_WRAP, CKA_UNWRAP, CKA_DERIVE };
	static char s[N(u) + 1];
	size_t i;

	for (i = 0; i < N(u); i++) {
		CK_BBOOL b = 0xff;
		CK_ATTRIBUTE a = { u[i], &b, sizeof b };
		s[i] = pkt_f->C_GetAttributeValue(pc_s, h, &a, 1) != CKR_OK ? '?' : b ? '1' : '0';
	}
	s[i] = 0;
	return s;
}

static void t_usage_defaults(void)
{
	CK_ULONG len = 32;
	CK_MECHANISM kg = { CKM_AES_KEY_GEN, NULL, 0 }, g = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE dec[] = { { CKA_DECRYPT, &T, 1 } };
	CK_ATTRIBUTE gt[] = { { CKA_VALUE_LEN, &len, sizeof len }, { CKA_ENCRYPT, &T, 1 },
	                      { CKA_DECRYPT, &T, 1 } };
	CK_ATTRIBUTE hm[] = { { CKA_SIGN, &T, 1 }, { CKA_VERIFY, &FA, 1 } };
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)p256, sizeof p256 }, { CKA_VERIFY, &T, 1 } };
	CK_ATTRIBUTE st[] = { { CKA_SIGN, &T, 1 } };
	CK_OBJECT_HANDLE h[6], pub, prv;
	size_t i;

	/* secret keys: none named - every usage but DERIVE; some named - those */
	CU_ASSERT_FATAL(aes(NULL, 0, &h[0]) == CKR_OK);
	CU_ASSERT_STRING_EQUAL(usage(h[0]), "1111110");
	CU_ASSERT_FATAL(aes(dec, N(dec), &h[1]) == CKR_OK);
	CU_ASSERT_STRING_EQUAL(usage(h[1]), "0100000");
	CU_ASSERT_FATAL(aes(hm, N(hm), &h[2]) == CKR_OK);         /* a FALSE names one too */
	CU_ASSERT_STRING_EQUAL(usage(h[2]), "0010000");
	CU_ASSERT_FATAL(pkt_f->C_GenerateKey(pc_s, &kg, gt, N(gt), &h[3]) == CKR_OK);
	CU_ASSERT_STRING_EQUAL(usage(h[3]), "1100000");
	/* EC pairs: by default sign / verify and derive (private), verify
	 * (public); a template naming usages, only those */
	CU_ASSERT_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &g, pt, 1, NULL, 0, &h[4], &h[5]) == CKR_OK);
	CU_ASSERT_STRING_EQUAL(usage(h[5]), "?01??01");
	CU_ASSERT_STRING_EQUAL(usage(h[4]), "0??10?0");
	CU_ASSERT_FATAL(pkt_f->C_GenerateKeyPair(pc_s, &g, pt, N(pt), st, N(st), &pub, &prv) == CKR_OK);
	CU_ASSERT_STRING_EQUAL(usage(prv), "?01??00");
	CU_ASSERT_STRING_EQUAL(usage(pub), "0??10?0");
	for (i = 0; i < N(h); i++)
		pkt_f->C_DestroyObject(pc_s, h[i]);
	pkt_f->C_DestroyObject(pc_s, pub);
	pkt_f->C_DestroyObject(pc_s, prv);
}

int main(void)
{
	CU_pSuite s = pc_suite("p11_trust");

	CU_add_test(s, "setup: token, user login, a wrapping key", t_setup);
	CU_add_test(s, "CKA_TRUSTED TRUE by the SO only", t_trusted_by_so);
	CU_add_test(s, "CKA_WRAP_WITH_TRUSTED: only a trusted key wraps it, for good",
	            t_wrap_with_trusted);
	CU_add_test(s, "secret keys are private by default: not found, not usable logged out",
	            t_private_default);
	CU_add_test(s, "a template that names usages gets those and no other", t_usage_defaults);
	return pc_run();
}
