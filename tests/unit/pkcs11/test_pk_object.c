/*
 * test_pk_object.c - objects: C_CreateObject (data, X.509 certificate,
 * RSA/EC public keys), C_CopyObject, C_DestroyObject, C_GetObjectSize,
 * C_GetAttributeValue, C_SetAttributeValue, C_FindObjects*; template
 * errors, token vs session objects, private objects and login,
 * CKA_MODIFIABLE / DESTROYABLE / COPYABLE, read-only sessions.
 */
#include <stdlib.h>
#include <string.h>

#include "pkt.h"

#define PIN(s) (CK_UTF8CHAR_PTR)(s), (CK_ULONG)strlen(s)
#define NA(t) (sizeof(t) / sizeof((t)[0]))

static CK_SLOT_ID tok;
static CK_SESSION_HANDLE rw, ro;
static CK_BBOOL T = CK_TRUE, F = CK_FALSE;
static CK_OBJECT_CLASS c_data = CKO_DATA, c_cert = CKO_CERTIFICATE,
	c_pub = CKO_PUBLIC_KEY;
static CK_CERTIFICATE_TYPE x509 = CKC_X_509;
static CK_KEY_TYPE k_rsa = CKK_RSA, k_ec = CKK_EC, k_aes = CKK_AES;

static int setup(void)
{
	return pkt_f->C_Initialize(NULL) == CKR_OK ? 0 : 1;
}
static int teardown(void)
{
	return pkt_f->C_Finalize(NULL) == CKR_OK ? 0 : 1;
}

static void t_make_token(void)
{
	tok = pkt_new_token("objects", 1);
	rw = pkt_open(tok, 1);
	ro = pkt_open(tok, 0);
}

/* Number of objects a search finds. */
static CK_ULONG count(CK_SESSION_HANDLE h, CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_OBJECT_HANDLE buf[64];
	CK_ULONG got = 0, total = 0;

	CU_ASSERT_FATAL(pkt_f->C_FindObjectsInit(h, t, n) == CKR_OK);
	do {
		CU_ASSERT_FATAL(pkt_f->C_FindObjects(h, buf, 64, &got) == CKR_OK);
		total += got;
	} while (got > 0);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(h) == CKR_OK);
	return total;
}

static void t_data_objects(void)
{
	CK_BYTE val[] = { 1, 2, 3, 4, 5 };
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_TOKEN, &T, 1 },
		{ CKA_LABEL, "greeting", 8 },
		{ CKA_APPLICATION, "demo", 4 },
		{ CKA_VALUE, val, sizeof val },
	};
	CK_OBJECT_HANDLE o = 0;
	CK_BYTE buf[16];
	CK_BBOOL b = 9;
	CK_OBJECT_CLASS cls = 0;
	char uid[64];
	CK_ATTRIBUTE g[] = {
		{ CKA_CLASS, &cls, sizeof cls },
		{ CKA_VALUE, buf, sizeof buf },
		{ CKA_PRIVATE, &b, 1 },
		{ CKA_UNIQUE_ID, uid, sizeof uid },
	};
	CK_ULONG size = 0;

	CU_ASSERT(pkt_f->C_CreateObject(rw, t, NA(t), NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_CreateObject(rw, NULL, 3, &o) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_CreateObject(999, t, NA(t), &o) ==
	          CKR_SESSION_HANDLE_INVALID);
	/* token object in a read-only session */
	CU_ASSERT(pkt_f->C_CreateObject(ro, t, NA(t), &o) == CKR_SESSION_READ_ONLY);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, t, NA(t), &o) == CKR_OK);
	CU_ASSERT(o != CK_INVALID_HANDLE);
	CU_ASSERT(pkt_f->C_GetAttributeValue(ro, o, g, NA(g)) == CKR_OK);
	CU_ASSERT(cls == CKO_DATA);
	CU_ASSERT(g[1].ulValueLen == sizeof val && memcmp(buf, val, sizeof val) == 0);
	CU_ASSERT(b == CK_FALSE);                  /* default: public */
	CU_ASSERT(g[3].ulValueLen == 32);          /* hex of 16 random bytes */
	CU_ASSERT(pkt_f->C_GetObjectSize(ro, o, &size) == CKR_OK);
	CU_ASSERT(size >= sizeof val + 8 + 4);
	CU_ASSERT(pkt_f->C_GetObjectSize(ro, o, NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetObjectSize(ro, 12345, &size) ==
	          CKR_OBJECT_HANDLE_INVALID);
	/* a session object in a read-only session is fine */
	t[1].pValue = &F;
	CU_ASSERT(pkt_f->C_CreateObject(ro, t, NA(t), &o) == CKR_OK);
	CU_ASSERT(pkt_f->C_DestroyObject(ro, o) == CKR_OK);
}

static void t_get_attribute_conventions(void)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_LABEL, "conv", 4 },
		{ CKA_VALUE, "0123456789", 10 },
	};
	CK_OBJECT_HANDLE o;
	CK_BYTE small[4], big[32];
	CK_ATTRIBUTE q[3];

	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, t, NA(t), &o) == CKR_OK);
	/* size query */
	q[0].type = CKA_VALUE; q[0].pValue = NULL; q[0].ulValueLen = 0;
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, o, q, 1) == CKR_OK);
	CU_ASSERT(q[0].ulValueLen == 10);
	/* short buffer */
	q[0].pValue = small; q[0].ulValueLen = sizeof small;
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, o, q, 1) == CKR_BUFFER_TOO_SMALL);
	CU_ASSERT(q[0].ulValueLen == CK_UNAVAILABLE_INFORMATION);
	/* unknown attribute among good ones: the good ones are still filled */
	q[0].type = CKA_MODULUS; q[0].pValue = big; q[0].ulValueLen = sizeof big;
	q[1].type = CKA_VALUE; q[1].pValue = big; q[1].ulValueLen = sizeof big;
	q[2].type = CKA_LABEL; q[2].pValue = NULL; q[2].ulValueLen = 0;
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, o, q, 3) ==
	          CKR_ATTRIBUTE_TYPE_INVALID);
	CU_ASSERT(q[0].ulValueLen == CK_UNAVAILABLE_INFORMATION);
	CU_ASSERT(q[1].ulValueLen == 10 && memcmp(big, "0123456789", 10) == 0);
	CU_ASSERT(q[2].ulValueLen == 4);
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, o, NULL, 1) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, 0, q, 1) ==
	          CKR_OBJECT_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_GetAttributeValue(999, o, q, 1) ==
	          CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_DestroyObject(rw, o) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, o, q, 1) ==
	          CKR_OBJECT_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_DestroyObject(rw, o) == CKR_OBJECT_HANDLE_INVALID);
}

static void t_template_errors(void)
{
	CK_OBJECT_HANDLE o;
	CK_ULONG bad_len_class = 1;
	CK_BYTE two = 2;
	CK_ATTRIBUTE no_class[] = { { CKA_LABEL, "x", 1 } };
	CK_ATTRIBUTE unknown[] = {
		{ CKA_CLASS, &c_data, sizeof c_data }, { 0x7fff1234UL, "x", 1 },
	};
	CK_ATTRIBUTE wrong_for_class[] = {
		{ CKA_CLASS, &c_data, sizeof c_data }, { CKA_MODULUS, "x", 1 },
	};
	CK_ATTRIBUTE dup[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_LABEL, "a", 1 }, { CKA_LABEL, "b", 1 },
	};
	CK_ATTRIBUTE bool_len[] = {
		{ CKA_CLASS, &c_data, sizeof c_data }, { CKA_TOKEN, &bad_len_class, 4 },
	};
	CK_ATTRIBUTE bool_val[] = {
		{ CKA_CLASS, &c_data, sizeof c_data }, { CKA_PRIVATE, &two, 1 },
	};
	CK_ATTRIBUTE class_len[] = { { CKA_CLASS, &c_data, 2 } };
	CK_ATTRIBUTE cert_no_subject[] = {
		{ CKA_CLASS, &c_cert, sizeof c_cert },
		{ CKA_CERTIFICATE_TYPE, &x509, sizeof x509 },
		{ CKA_VALUE, "der", 3 },
	};
	CK_CERTIFICATE_TYPE wtls = CKC_WTLS;
	CK_ATTRIBUTE cert_wtls[] = {
		{ CKA_CLASS, &c_cert, sizeof c_cert },
		{ CKA_CERTIFICATE_TYPE, &wtls, sizeof wtls },
		{ CKA_SUBJECT, "s", 1 }, { CKA_VALUE, "der", 3 },
	};
	CK_OBJECT_CLASS c_mech = CKO_MECHANISM, c_hw = CKO_HW_FEATURE,
		c_vendor = CKO_VENDOR_DEFINED | 0x1234UL;
	CK_ATTRIBUTE cls_mech[] = { { CKA_CLASS, &c_mech, sizeof c_mech } };
	CK_ATTRIBUTE cls_hw[] = { { CKA_CLASS, &c_hw, sizeof c_hw } };
	CK_ATTRIBUTE cls_vendor[] = { { CKA_CLASS, &c_vendor, sizeof c_vendor } };
	CK_ATTRIBUTE pub_aes[] = {
		{ CKA_CLASS, &c_pub, sizeof c_pub },
		{ CKA_KEY_TYPE, &k_aes, sizeof k_aes },
	};
	CK_ATTRIBUTE pub_no_type[] = { { CKA_CLASS, &c_pub, sizeof c_pub } };
	CK_ATTRIBUTE rsa_no_exp[] = {
		{ CKA_CLASS, &c_pub, sizeof c_pub },
		{ CKA_KEY_TYPE, &k_rsa, sizeof k_rsa }, { CKA_MODULUS, "\xc1\x01", 2 },
	};
	CK_ULONG bits = 2048;
	CK_ATTRIBUTE rsa_ro[] = {
		{ CKA_CLASS, &c_pub, sizeof c_pub },
		{ CKA_KEY_TYPE, &k_rsa, sizeof k_rsa }, { CKA_MODULUS, "\xc1\x01", 2 },
		{ CKA_PUBLIC_EXPONENT, "\x01\x00\x01", 3 },
		{ CKA_MODULUS_BITS, &bits, sizeof bits },
	};
	CK_ATTRIBUTE local_ro[] = {
		{ CKA_CLASS, &c_pub, sizeof c_pub },
		{ CKA_KEY_TYPE, &k_ec, sizeof k_ec }, { CKA_EC_PARAMS, "p", 1 },
		{ CKA_EC_POINT, "q", 1 }, { CKA_LOCAL, &T, 1 },
	};
	CK_ATTRIBUTE null_value[] = {
		{ CKA_CLASS, &c_data, sizeof c_data }, { CKA_VALUE, NULL, 5 },
	};
	CK_ATTRIBUTE trusted[] = {
		{ CKA_CLASS, &c_cert, sizeof c_cert },
		{ CKA_CERTIFICATE_TYPE, &x509, sizeof x509 },
		{ CKA_SUBJECT, "s", 1 }, { CKA_VALUE, "der", 3 }, { CKA_TRUSTED, &T, 1 },
	};

	CU_ASSERT(pkt_f->C_CreateObject(rw, no_class, 1, &o) ==
	          CKR_TEMPLATE_INCOMPLETE);
	CU_ASSERT(pkt_f->C_CreateObject(rw, unknown, 2, &o) ==
	          CKR_ATTRIBUTE_TYPE_INVALID);
	CU_ASSERT(pkt_f->C_CreateObject(rw, wrong_for_class, 2, &o) ==
	          CKR_ATTRIBUTE_TYPE_INVALID);
	CU_ASSERT(pkt_f->C_CreateObject(rw, dup, 3, &o) ==
	          CKR_TEMPLATE_INCONSISTENT);
	CU_ASSERT(pkt_f->C_CreateObject(rw, bool_len, 2, &o) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_CreateObject(rw, bool_val, 2, &o) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_CreateObject(rw, class_len, 1, &o) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_CreateObject(rw, cert_no_subject, 3, &o) ==
	          CKR_TEMPLATE_INCOMPLETE);
	CU_ASSERT(pkt_f->C_CreateObject(rw, cert_wtls, 4, &o) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	/* classes the token does not store: refused on CKA_CLASS (secret and
	 * private keys are the vault's, tested by its suite) */
	CU_ASSERT(pkt_f->C_CreateObject(rw, cls_mech, 1, &o) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_CreateObject(rw, cls_hw, 1, &o) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_CreateObject(rw, cls_vendor, 1, &o) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	/* a public key of a type the token does not know */
	CU_ASSERT(pkt_f->C_CreateObject(rw, pub_aes, 2, &o) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	CU_ASSERT(pkt_f->C_CreateObject(rw, pub_no_type, 1, &o) ==
	          CKR_TEMPLATE_INCOMPLETE);
	CU_ASSERT(pkt_f->C_CreateObject(rw, rsa_no_exp, 3, &o) ==
	          CKR_TEMPLATE_INCOMPLETE);
	CU_ASSERT(pkt_f->C_CreateObject(rw, rsa_ro, 5, &o) ==
	          CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_CreateObject(rw, local_ro, 5, &o) ==
	          CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_CreateObject(rw, null_value, 2, &o) ==
	          CKR_ATTRIBUTE_VALUE_INVALID);
	/* CKA_TRUSTED = TRUE only by the SO */
	CU_ASSERT(pkt_f->C_CreateObject(rw, trusted, 5, &o) ==
	          CKR_ATTRIBUTE_READ_ONLY);
	/* nothing was created by any of these */
	CU_ASSERT(count(rw, NULL, 0) == 1);        /* the "greeting" object */
}

static void t_cert_and_keys(void)
{
	CK_BYTE der[300];
	CK_ATTRIBUTE cert[] = {
		{ CKA_CLASS, &c_cert, sizeof c_cert },
		{ CKA_CERTIFICATE_TYPE, &x509, sizeof x509 },
		{ CKA_TOKEN, &T, 1 },
		{ CKA_ID, "\x0a\x0b", 2 },
		{ CKA_LABEL, "cert1", 5 },
		{ CKA_SUBJECT, "subject-der", 11 },
		{ CKA_ISSUER, "issuer-der", 10 },
		{ CKA_SERIAL_NUMBER, "\x02\x01\x05", 3 },
		{ CKA_VALUE, der, sizeof der },
	};
	CK_BYTE mod[256];
	CK_ATTRIBUTE rsa[] = {
		{ CKA_CLASS, &c_pub, sizeof c_pub },
		{ CKA_KEY_TYPE, &k_rsa, sizeof k_rsa },
		{ CKA_TOKEN, &T, 1 },
		{ CKA_ID, "\x0a\x0b", 2 },
		{ CKA_LABEL, "rsa1", 4 },
		{ CKA_MODULUS, mod, sizeof mod },
		{ CKA_PUBLIC_EXPONENT, "\x01\x00\x01", 3 },
	};
	/* DER of the P-256 OID and an uncompressed point in an OCTET STRING */
	CK_BYTE params[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	CK_BYTE point[67];
	CK_ATTRIBUTE ec[] = {
		{ CKA_CLASS, &c_pub, sizeof c_pub },
		{ CKA_KEY_TYPE, &k_ec, sizeof k_ec },
		{ CKA_TOKEN, &T, 1 },
		{ CKA_ID, "\x0c", 1 },
		{ CKA_EC_PARAMS, params, sizeof params },
		{ CKA_EC_POINT, point, sizeof point },
		{ CKA_VERIFY, &T, 1 },
	};
	CK_OBJECT_HANDLE hc, hr, he;
	CK_ULONG bits = 0, cat = 99;
	CK_BBOOL local = 9, enc = 9, trusted = 9;
	CK_MECHANISM_TYPE kgm = 0;
	CK_BYTE got[300];
	CK_ATTRIBUTE q[] = {
		{ CKA_MODULUS_BITS, &bits, sizeof bits },
		{ CKA_LOCAL, &local, 1 },
		{ CKA_KEY_GEN_MECHANISM, &kgm, sizeof kgm },
		{ CKA_ENCRYPT, &enc, 1 },
	};
	CK_ATTRIBUTE qc[] = {
		{ CKA_VALUE, got, sizeof got },
		{ CKA_CERTIFICATE_CATEGORY, &cat, sizeof cat },
		{ CKA_TRUSTED, &trusted, 1 },
	};
	CK_ATTRIBUTE by_id[] = { { CKA_ID, "\x0a\x0b", 2 } };
	CK_ATTRIBUTE by_id_cls[] = {
		{ CKA_ID, "\x0a\x0b", 2 }, { CKA_CLASS, &c_cert, sizeof c_cert },
	};
	CK_ATTRIBUTE by_verify[] = { { CKA_VERIFY, &T, 1 } };
	size_t i;

	for (i = 0; i < sizeof der; i++)
		der[i] = (CK_BYTE)(i * 7);
	memset(mod, 0x5a, sizeof mod);
	mod[0] = 0x01;                 /* 2041-bit modulus */
	point[0] = 0x04; point[1] = 65; point[2] = 0x04;
	memset(point + 3, 0x33, 64);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, cert, NA(cert), &hc) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, rsa, NA(rsa), &hr) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, ec, NA(ec), &he) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, hr, q, NA(q)) == CKR_OK);
	CU_ASSERT(bits == 2041);
	CU_ASSERT(local == CK_FALSE);
	CU_ASSERT(kgm == CK_UNAVAILABLE_INFORMATION);
	CU_ASSERT(enc == CK_TRUE);
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, hc, qc, NA(qc)) == CKR_OK);
	CU_ASSERT(qc[0].ulValueLen == sizeof der &&
	          memcmp(got, der, sizeof der) == 0);
	CU_ASSERT(cat == 0 && trusted == CK_FALSE);
	/* a modulus attribute is not a certificate attribute */
	q[0].type = CKA_MODULUS;
	q[0].pValue = NULL;
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, hc, q, 1) ==
	          CKR_ATTRIBUTE_TYPE_INVALID);
	CU_ASSERT(count(ro, by_id, 1) == 2);
	CU_ASSERT(count(ro, by_id_cls, 2) == 1);
	CU_ASSERT(count(ro, by_verify, 1) == 2);   /* rsa (default) and ec */
}

static void t_private_objects(void)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_TOKEN, &T, 1 },
		{ CKA_PRIVATE, &T, 1 },
		{ CKA_LABEL, "secret-note", 11 },
		{ CKA_VALUE, "hush", 4 },
	};
	CK_ATTRIBUTE by_label[] = { { CKA_LABEL, "secret-note", 11 } };
	CK_OBJECT_HANDLE o, so;
	CK_BYTE buf[8];
	CK_ATTRIBUTE q[] = { { CKA_VALUE, buf, sizeof buf } };

	CU_ASSERT(pkt_f->C_CreateObject(rw, t, NA(t), &o) == CKR_USER_NOT_LOGGED_IN);
	CU_ASSERT_FATAL(pkt_f->C_Login(ro, CKU_USER, PIN(PKT_USER_PIN)) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, t, NA(t), &o) == CKR_OK);
	t[1].pValue = &F;                 /* and a private session object */
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(ro, t, NA(t), &so) == CKR_OK);
	CU_ASSERT(count(ro, by_label, 1) == 2);
	CU_ASSERT(pkt_f->C_GetAttributeValue(ro, o, q, 1) == CKR_OK);
	CU_ASSERT(q[0].ulValueLen == 4 && memcmp(buf, "hush", 4) == 0);
	CU_ASSERT(pkt_f->C_Logout(ro) == CKR_OK);
	/* hidden after logout: not found, handles invalid */
	CU_ASSERT(count(ro, by_label, 1) == 0);
	CU_ASSERT(count(ro, NULL, 0) == 4);    /* greeting, cert1, rsa1, ec */
	q[0].ulValueLen = sizeof buf;
	CU_ASSERT(pkt_f->C_GetAttributeValue(ro, o, q, 1) ==
	          CKR_OBJECT_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_GetAttributeValue(ro, so, q, 1) ==
	          CKR_OBJECT_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_DestroyObject(rw, o) == CKR_OBJECT_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_Login(ro, CKU_USER, PIN(PKT_USER_PIN)) == CKR_OK);
	CU_ASSERT(pkt_f->C_DestroyObject(rw, o) == CKR_OK);
	CU_ASSERT(pkt_f->C_DestroyObject(rw, so) == CKR_OK);
	CU_ASSERT(count(ro, by_label, 1) == 0);
	/* stay logged in for the tests below */
}

static void t_flags_policy(void)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_TOKEN, &T, 1 },
		{ CKA_LABEL, "fixed", 5 },
		{ CKA_MODIFIABLE, &F, 1 },
		{ CKA_DESTROYABLE, &F, 1 },
		{ CKA_COPYABLE, &F, 1 },
	};
	CK_ATTRIBUTE setl[] = { { CKA_LABEL, "other", 5 } };
	CK_ATTRIBUTE setc[] = { { CKA_COPYABLE, &T, 1 } };
	CK_OBJECT_HANDLE o, c;

	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, t, NA(t), &o) == CKR_OK);
	CU_ASSERT(pkt_f->C_SetAttributeValue(rw, o, setl, 1) ==
	          CKR_ACTION_PROHIBITED);
	CU_ASSERT(pkt_f->C_DestroyObject(rw, o) == CKR_ACTION_PROHIBITED);
	CU_ASSERT(pkt_f->C_CopyObject(rw, o, NULL, 0, &c) == CKR_ACTION_PROHIBITED);
	/* a modifiable, destroyable but uncopyable object */
	t[2].pValue = "fixed2";
	t[2].ulValueLen = 6;
	t[3].pValue = &T;
	t[4].pValue = &T;
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, t, NA(t), &o) == CKR_OK);
	CU_ASSERT(pkt_f->C_SetAttributeValue(rw, o, setc, 1) ==
	          CKR_ATTRIBUTE_READ_ONLY);       /* FALSE -> TRUE never */
	CU_ASSERT(pkt_f->C_CopyObject(rw, o, NULL, 0, &c) == CKR_ACTION_PROHIBITED);
	CU_ASSERT(pkt_f->C_DestroyObject(ro, o) == CKR_SESSION_READ_ONLY);
	CU_ASSERT(pkt_f->C_DestroyObject(rw, o) == CKR_OK);
}

static void t_set_attribute(void)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_TOKEN, &T, 1 },
		{ CKA_LABEL, "before", 6 },
		{ CKA_VALUE, "v1", 2 },
	};
	CK_ATTRIBUTE set[] = {
		{ CKA_LABEL, "after", 5 }, { CKA_VALUE, "value-two", 9 },
	};
	CK_ATTRIBUTE set_class[] = { { CKA_CLASS, &c_cert, sizeof c_cert } };
	CK_ATTRIBUTE set_token[] = { { CKA_TOKEN, &F, 1 } };
	CK_ATTRIBUTE set_unknown[] = { { CKA_MODULUS, "x", 1 } };
	CK_ATTRIBUTE set_mixed[] = {
		{ CKA_LABEL, "never", 5 }, { CKA_PRIVATE, &T, 1 },
	};
	CK_ATTRIBUTE by_after[] = { { CKA_LABEL, "after", 5 } };
	CK_ATTRIBUTE by_before[] = { { CKA_LABEL, "before", 6 } };
	CK_ATTRIBUTE by_never[] = { { CKA_LABEL, "never", 5 } };
	CK_OBJECT_HANDLE o, so;
	CK_BYTE buf[16];
	CK_ATTRIBUTE q[] = { { CKA_VALUE, buf, sizeof buf } };

	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, t, NA(t), &o) == CKR_OK);
	CU_ASSERT(pkt_f->C_SetAttributeValue(ro, o, set, 2) == CKR_SESSION_READ_ONLY);
	CU_ASSERT(pkt_f->C_SetAttributeValue(rw, o, NULL, 2) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_SetAttributeValue(rw, 777, set, 2) ==
	          CKR_OBJECT_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_SetAttributeValue(rw, o, set_class, 1) ==
	          CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_SetAttributeValue(rw, o, set_token, 1) ==
	          CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_SetAttributeValue(rw, o, set_unknown, 1) ==
	          CKR_ATTRIBUTE_TYPE_INVALID);
	/* all or nothing */
	CU_ASSERT(pkt_f->C_SetAttributeValue(rw, o, set_mixed, 2) ==
	          CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(count(rw, by_never, 1) == 0);
	CU_ASSERT(pkt_f->C_SetAttributeValue(rw, o, set, 2) == CKR_OK);
	CU_ASSERT(count(rw, by_after, 1) == 1);
	CU_ASSERT(count(rw, by_before, 1) == 0);
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, o, q, 1) == CKR_OK);
	CU_ASSERT(q[0].ulValueLen == 9 && memcmp(buf, "value-two", 9) == 0);
	CU_ASSERT(pkt_f->C_DestroyObject(rw, o) == CKR_OK);
	/* session objects too, also in a read-only session */
	t[1].pValue = &F;
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(ro, t, NA(t), &so) == CKR_OK);
	CU_ASSERT(pkt_f->C_SetAttributeValue(ro, so, set, 2) == CKR_OK);
	CU_ASSERT(count(ro, by_after, 1) == 1);
	CU_ASSERT(pkt_f->C_DestroyObject(ro, so) == CKR_OK);
}

static void t_copy(void)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_LABEL, "orig", 4 },
		{ CKA_VALUE, "payload", 7 },
	};
	CK_ATTRIBUTE ct[] = { { CKA_TOKEN, &T, 1 }, { CKA_LABEL, "copy", 4 } };
	CK_ATTRIBUTE bad[] = { { CKA_CLASS, &c_cert, sizeof c_cert } };
	CK_ATTRIBUTE by_copy[] = { { CKA_LABEL, "copy", 4 } };
	CK_OBJECT_HANDLE o, c;
	CK_BYTE buf[16];
	char u1[32], u2[32];
	CK_ATTRIBUTE q[] = { { CKA_VALUE, buf, sizeof buf }, { CKA_UNIQUE_ID, u2, 32 } };
	CK_ATTRIBUTE qu[] = { { CKA_UNIQUE_ID, u1, 32 } };

	CU_ASSERT_FATAL(pkt_f->C_CreateObject(ro, t, NA(t), &o) == CKR_OK);
	CU_ASSERT(pkt_f->C_CopyObject(ro, o, ct, 2, &c) == CKR_SESSION_READ_ONLY);
	CU_ASSERT(pkt_f->C_CopyObject(rw, o, bad, 1, &c) == CKR_ATTRIBUTE_READ_ONLY);
	CU_ASSERT(pkt_f->C_CopyObject(rw, o, ct, 2, NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_CopyObject(rw, 4242, ct, 2, &c) ==
	          CKR_OBJECT_HANDLE_INVALID);
	CU_ASSERT_FATAL(pkt_f->C_CopyObject(rw, o, ct, 2, &c) == CKR_OK);
	CU_ASSERT(c != o);
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, c, q, 2) == CKR_OK);
	CU_ASSERT(q[0].ulValueLen == 7 && memcmp(buf, "payload", 7) == 0);
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, o, qu, 1) == CKR_OK);
	CU_ASSERT(memcmp(u1, u2, 32) != 0);       /* a new identity */
	CU_ASSERT(count(rw, by_copy, 1) == 1);
	/* the session object dies with its session; the token copy stays */
	CU_ASSERT(pkt_f->C_CloseSession(ro) == CKR_OK);
	CU_ASSERT(pkt_f->C_GetAttributeValue(rw, o, q, 1) ==
	          CKR_OBJECT_HANDLE_INVALID);
	ro = pkt_open(tok, 0);
	CU_ASSERT(count(ro, by_copy, 1) == 1);
	CU_ASSERT(pkt_f->C_DestroyObject(rw, c) == CKR_OK);
}

static void t_find(void)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_TOKEN, &T, 1 },
		{ CKA_LABEL, NULL, 0 },
		{ CKA_APPLICATION, "findapp", 7 },
	};
	char labels[40][16];
	CK_OBJECT_HANDLE o, buf[64];
	CK_ULONG got, total = 0;
	CK_ATTRIBUTE by_app[] = { { CKA_APPLICATION, "findapp", 7 } };
	CK_ATTRIBUTE by_app_cls[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_APPLICATION, "findapp", 7 },
	};
	CK_ATTRIBUTE by_lbl[] = { { CKA_LABEL, labels[17], 0 } };
	CK_ATTRIBUTE bad_class[] = { { CKA_CLASS, &c_data, 2 } };
	CK_ATTRIBUTE null_val[] = { { CKA_LABEL, NULL, 3 } };
	CK_ATTRIBUTE session_only[] = {
		{ CKA_APPLICATION, "findapp", 7 }, { CKA_TOKEN, &F, 1 },
	};
	int i;

	for (i = 0; i < 40; i++) {
		snprintf(labels[i], sizeof labels[i], "find-%02d", i);
		t[2].pValue = labels[i];
		t[2].ulValueLen = strlen(labels[i]);
		t[1].pValue = i < 30 ? &T : &F;
		CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, t, NA(t), &o) == CKR_OK);
	}
	by_lbl[0].ulValueLen = strlen(labels[17]);
	CU_ASSERT(count(ro, by_app, 1) == 40);
	CU_ASSERT(count(ro, by_app_cls, 2) == 40);
	CU_ASSERT(count(ro, by_lbl, 1) == 1);
	CU_ASSERT(count(ro, session_only, 2) == 10);
	CU_ASSERT(count(ro, bad_class, 1) == 0);
	CU_ASSERT(pkt_f->C_FindObjectsInit(ro, null_val, 1) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_FindObjectsInit(ro, NULL, 1) == CKR_ARGUMENTS_BAD);
	/* in small batches */
	CU_ASSERT_FATAL(pkt_f->C_FindObjectsInit(ro, by_app, 1) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjectsInit(ro, by_app, 1) == CKR_OPERATION_ACTIVE);
	do {
		got = 0;
		CU_ASSERT(pkt_f->C_FindObjects(ro, buf, 3, &got) == CKR_OK);
		CU_ASSERT(got <= 3);
		total += got;
	} while (got > 0);
	CU_ASSERT(total == 40);
	CU_ASSERT(pkt_f->C_FindObjects(ro, buf, 3, NULL) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_FindObjects(ro, NULL, 3, &got) == CKR_ARGUMENTS_BAD);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(ro) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(ro) == CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_FindObjects(ro, buf, 3, &got) ==
	          CKR_OPERATION_NOT_INITIALIZED);
	CU_ASSERT(pkt_f->C_FindObjectsInit(999, by_app, 1) ==
	          CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_FindObjects(999, buf, 3, &got) ==
	          CKR_SESSION_HANDLE_INVALID);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(999) == CKR_SESSION_HANDLE_INVALID);
	/* every found handle is usable */
	CU_ASSERT_FATAL(pkt_f->C_FindObjectsInit(rw, by_app, 1) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjects(rw, buf, 64, &got) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(rw) == CKR_OK);
	CU_ASSERT(got == 40);
	for (i = 0; i < (int)got; i++)
		CU_ASSERT(pkt_f->C_DestroyObject(rw, buf[i]) == CKR_OK);
	CU_ASSERT(count(ro, by_app, 1) == 0);
}

/* Token objects persist across C_Finalize; session objects do not. */
static void t_persistence(void)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_data, sizeof c_data },
		{ CKA_TOKEN, &T, 1 },
		{ CKA_LABEL, "persist", 7 },
	};
	CK_ATTRIBUTE by_lbl[] = { { CKA_LABEL, "persist", 7 } };
	CK_OBJECT_HANDLE o, s;
	CK_OBJECT_HANDLE found[4];
	CK_ULONG n = 0;

	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, t, NA(t), &o) == CKR_OK);
	t[1].pValue = &F;
	CU_ASSERT_FATAL(pkt_f->C_CreateObject(rw, t, NA(t), &s) == CKR_OK);
	CU_ASSERT(count(rw, by_lbl, 1) == 2);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	rw = pkt_open(tok, 1);
	ro = pkt_open(tok, 0);
	CU_ASSERT_FATAL(pkt_f->C_FindObjectsInit(ro, by_lbl, 1) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjects(ro, found, 4, &n) == CKR_OK);
	CU_ASSERT(pkt_f->C_FindObjectsFinal(ro) == CKR_OK);
	CU_ASSERT_FATAL(n == 1);
	CU_ASSERT(found[0] == o);          /* handles are stable */
	CU_ASSERT(pkt_f->C_DestroyObject(rw, o) == CKR_OK);
}

int main(void)
{
	CU_pSuite s;

	pkt_setup();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("pk_object", setup, teardown);
	CU_add_test(s, "make a token", t_make_token);
	CU_add_test(s, "data objects", t_data_objects);
	CU_add_test(s, "C_GetAttributeValue conventions", t_get_attribute_conventions);
	CU_add_test(s, "template errors", t_template_errors);
	CU_add_test(s, "certificate and public keys", t_cert_and_keys);
	CU_add_test(s, "private objects and login", t_private_objects);
	CU_add_test(s, "MODIFIABLE / DESTROYABLE / COPYABLE", t_flags_policy);
	CU_add_test(s, "C_SetAttributeValue", t_set_attribute);
	CU_add_test(s, "C_CopyObject", t_copy);
	CU_add_test(s, "C_FindObjects", t_find);
	CU_add_test(s, "persistence and stable handles", t_persistence);
	return ts_run();
}
