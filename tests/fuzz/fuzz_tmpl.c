/*
 * fuzz_tmpl.c - libFuzzer harness for the module's attribute templates:
 * every input is one PKCS#11 call whose template the input spells out,
 * through the module's entry points (C_GetFunctionList of the pkcs11/
 * library linked into the harness: in the fuzz build pkcs11/, token/ and
 * the vault carry the coverage counters), on one token with a logged-in
 * read/write session and a read-only one (fz_token.c).
 *
 * Input: byte 0 picks the call (C_CreateObject, C_GenerateKey,
 * C_GenerateKeyPair (P-256), C_FindObjects*, C_SetAttributeValue,
 * C_GetAttributeValue, C_CopyObject, C_DestroyObject, C_GetObjectSize,
 * C_WrapKey / C_UnwrapKey with AES key wrap), byte 1 its options (which
 * session, which earlier object), then the template: a count, and per
 * attribute a type (one of the attributes the token knows, or any 32-bit
 * value), how its value is given (raw bytes, a CK_ULONG, a CK_BBOOL, or
 * NULL with a length), a length and the value bytes.  Every buffer the
 * harness passes is as long as the length it states: what is fuzzed is
 * what an application may legally pass, and what it may pass wrongly
 * that the module can see (NULL values, wrong lengths, unknown types,
 * contradictions).
 *
 * Besides the sanitizers' reports, a call fails the run (abort) when it
 * answers CKR_GENERAL_ERROR, CKR_FUNCTION_FAILED or CKR_DEVICE_ERROR - a
 * template, however wrong, must get a precise CK_RV - or when an object
 * it reports created cannot be read back.
 *
 *   any build: fuzz_replay replays the corpus and random inputs (test
 *   p11_fuzz_tmpl); the fuzz build (docs/testing.md): the libFuzzer binary
 *   build-fuzz/tests/fuzz/fuzz_tmpl.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz_token.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FT_MAX_ATTRS 24
#define FT_MAX_VALUE 304       /* a multiple of 8: every value aligned */
#define FT_KEEP 16           /* objects kept for the calls that take one */

/* The attributes the token knows, and a few it does not. */
static const CK_ATTRIBUTE_TYPE ft_types[] = {
	CKA_CLASS, CKA_TOKEN, CKA_PRIVATE, CKA_LABEL, CKA_APPLICATION, CKA_VALUE,
	CKA_OBJECT_ID, CKA_CERTIFICATE_TYPE, CKA_ISSUER, CKA_SERIAL_NUMBER, CKA_TRUSTED,
	CKA_CERTIFICATE_CATEGORY, CKA_CHECK_VALUE, CKA_KEY_TYPE, CKA_SUBJECT, CKA_ID,
	CKA_SENSITIVE, CKA_ENCRYPT, CKA_DECRYPT, CKA_WRAP, CKA_UNWRAP, CKA_SIGN,
	CKA_SIGN_RECOVER, CKA_VERIFY, CKA_VERIFY_RECOVER, CKA_DERIVE, CKA_START_DATE,
	CKA_END_DATE, CKA_MODULUS, CKA_MODULUS_BITS, CKA_PUBLIC_EXPONENT,
	CKA_PRIVATE_EXPONENT, CKA_PRIME_1, CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2,
	CKA_COEFFICIENT, CKA_PUBLIC_KEY_INFO, CKA_VALUE_LEN, CKA_EXTRACTABLE, CKA_LOCAL,
	CKA_NEVER_EXTRACTABLE, CKA_ALWAYS_SENSITIVE, CKA_KEY_GEN_MECHANISM, CKA_MODIFIABLE,
	CKA_COPYABLE, CKA_DESTROYABLE, CKA_EC_PARAMS, CKA_EC_POINT, CKA_ALWAYS_AUTHENTICATE,
	CKA_WRAP_WITH_TRUSTED, CKA_WRAP_TEMPLATE, CKA_UNWRAP_TEMPLATE, CKA_ALLOWED_MECHANISMS,
	CKA_UNIQUE_ID, CKA_URL, CKA_HASH_OF_SUBJECT_PUBLIC_KEY, CKA_HASH_OF_ISSUER_PUBLIC_KEY,
	CKA_NAME_HASH_ALGORITHM, CKA_VALUE_BITS, CKA_HW_FEATURE_TYPE, CKA_VENDOR_DEFINED,
	CKA_VENDOR_DEFINED + 1, 0x7fffffffUL, (CK_ATTRIBUTE_TYPE)-1,
};
#define FT_NTYPES (sizeof ft_types / sizeof ft_types[0])

/* CK_ULONG values worth more than random ones: classes, key types,
 * certificate types, small lengths. */
static const CK_ULONG ft_ulongs[] = {
	CKO_DATA, CKO_CERTIFICATE, CKO_PUBLIC_KEY, CKO_PRIVATE_KEY, CKO_SECRET_KEY,
	CKO_HW_FEATURE, CKO_MECHANISM, CKK_RSA, CKK_EC, CKK_AES, CKK_GENERIC_SECRET,
	CKK_SHA256_HMAC, CKK_EC_EDWARDS, CKK_HKDF, CKK_PV_SM2, CKK_PV_SM4, CKC_X_509,
	0, 1, 15, 16, 24, 32, 33, 64, 4096, (CK_ULONG)-1,
};
#define FT_NULONGS (sizeof ft_ulongs / sizeof ft_ulongs[0])

static CK_FUNCTION_LIST *ft_f;
static CK_SESSION_HANDLE ft_rw, ft_ro;
static CK_OBJECT_HANDLE ft_obj[FT_KEEP];
static unsigned ft_nobj;
static uint8_t ft_nested[FT_MAX_ATTRS][2][16] __attribute__((aligned(8)));
static unsigned long ft_calls[11], ft_ok[11];   /* per call: made, CKR_OK */

/* The input, read front to back; past its end every byte reads 0. */
typedef struct ft_in {
	const uint8_t *p;
	size_t n;
} ft_in;

static uint8_t ft_byte(ft_in *in)
{
	uint8_t b = 0;
	if (in->n > 0) {
		b = *in->p++;
		in->n--;
	}
	return b;
}

static void ft_die(const char *what, CK_RV rv)
{
	fprintf(stderr, "fuzz_tmpl: %s answered 0x%lx\n", what, (unsigned long)rv);
	abort();
}

/* A template's failure must be precise. */
static CK_RV ft_rv(const char *what, CK_RV rv)
{
	if (rv == CKR_GENERAL_ERROR || rv == CKR_FUNCTION_FAILED || rv == CKR_DEVICE_ERROR)
		ft_die(what, rv);
	return rv;
}

/* Counts per call, at exit (before fz_token.c's handler removes the token
 * directory). */
static void ft_report(void)
{
	static const char *names[11] = { "create", "generate", "pair", "find", "set", "get", "copy",
		"destroy", "size", "wrap", "unwrap" };
	int i;

	fprintf(stderr, "fuzz_tmpl: calls (CKR_OK):");
	for (i = 0; i < 11; i++)
		fprintf(stderr, " %s %lu (%lu)", names[i], ft_calls[i], ft_ok[i]);
	fprintf(stderr, "\n");
	if (ft_f != NULL)
		(void)ft_f->C_Finalize(NULL);
}

static void ft_must(const char *what, CK_RV rv)
{
	if (rv != CKR_OK)
		ft_die(what, rv);
}

static void ft_setup(void)
{
	CK_SLOT_ID slot;

	ft_f = fz_token(&slot, &ft_rw, &ft_ro);
	atexit(ft_report);
}

/* A template from the input: values in vals (FT_MAX_VALUE bytes each). */
static CK_ULONG ft_template(ft_in *in, CK_ATTRIBUTE *t, uint8_t (*vals)[FT_MAX_VALUE])
{
	CK_ULONG n = ft_byte(in) % (FT_MAX_ATTRS + 1), i;

	for (i = 0; i < n; i++) {
		const uint8_t ts = ft_byte(in), mode = ft_byte(in);
		size_t len = ft_byte(in), k;

		if (ts < 0xf0) {
			t[i].type = ft_types[ts % FT_NTYPES];
		} else {
			CK_ULONG v = 0;
			for (k = 0; k < 4; k++)
				v = (v << 8) | ft_byte(in);
			t[i].type = v;
		}
		t[i].pValue = vals[i];
		if ((t[i].type & CKF_ARRAY_ATTRIBUTE) != 0u && t[i].type != CKA_ALLOWED_MECHANISMS) {
			/* a template in a template: its own attributes point at
			 * valid bytes, as an application's would */
			CK_ATTRIBUTE *a = (CK_ATTRIBUTE *)(void *)vals[i];
			const size_t na = len % 3u;
			for (k = 0; k < na; k++) {
				a[k].type = ft_types[ft_byte(in) % FT_NTYPES] & ~CKF_ARRAY_ATTRIBUTE;
				a[k].pValue = ft_nested[i][k];
				a[k].ulValueLen = ft_byte(in) % (sizeof ft_nested[i][k] + 1u);
			}
			t[i].ulValueLen = (CK_ULONG)(na * sizeof *a);
			continue;
		}
		switch (mode & 3u) {
		case 0:                          /* raw bytes */
			for (k = 0; k < len; k++)
				vals[i][k] = ft_byte(in);
			t[i].ulValueLen = len;
			break;
		case 1: {                        /* a CK_ULONG, maybe a short one */
			CK_ULONG v = ft_ulongs[len % FT_NULONGS];
			memcpy(vals[i], &v, sizeof v);
			t[i].ulValueLen = (mode & 4u) ? (CK_ULONG)(len % 9u) : sizeof v;
			break;
		}
		case 2:                          /* a CK_BBOOL, maybe not 0 / 1 */
			vals[i][0] = (mode & 4u) ? (uint8_t)len : (uint8_t)(len & 1u);
			t[i].ulValueLen = (mode & 8u) ? (CK_ULONG)(len % 3u) : 1u;
			break;
		default:                         /* NULL with a length */
			t[i].pValue = NULL;
			t[i].ulValueLen = len;
			break;
		}
	}
	return n;
}

/* An object the input names: one kept from earlier inputs, or a handle
 * the token never gave out. */
static CK_OBJECT_HANDLE ft_pick(uint8_t opt)
{
	if (ft_nobj == 0 || (opt & 0xf0u) == 0xf0u)
		return (CK_OBJECT_HANDLE)(opt * 7919u + 3u);
	return ft_obj[(opt >> 4) % (ft_nobj < FT_KEEP ? ft_nobj : FT_KEEP)];
}

/* Keep a new object; every one the token reports created has a class. */
static void ft_keep(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o)
{
	CK_OBJECT_CLASS cls = (CK_OBJECT_CLASS)-1;
	CK_ATTRIBUTE a = { CKA_CLASS, &cls, sizeof cls };

	ft_must("C_GetAttributeValue (CKA_CLASS of a new object)", ft_f->C_GetAttributeValue(s, o, &a, 1));
	if (ft_nobj >= FT_KEEP)          /* the oldest goes: the token stays small */
		(void)ft_f->C_DestroyObject(ft_rw, ft_obj[ft_nobj % FT_KEEP]);
	ft_obj[ft_nobj % FT_KEEP] = o;
	ft_nobj++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static CK_ATTRIBUTE t[FT_MAX_ATTRS], t2[FT_MAX_ATTRS];
	static uint8_t vals[FT_MAX_ATTRS][FT_MAX_VALUE] __attribute__((aligned(8)));
	static uint8_t vals2[FT_MAX_ATTRS][FT_MAX_VALUE] __attribute__((aligned(8)));
	ft_in in = { data, size };
	CK_OBJECT_HANDLE o = CK_INVALID_HANDLE, o2 = CK_INVALID_HANDLE, list[8];
	CK_ULONG n, n2, got, sz;
	CK_RV rv;
	uint8_t op, opt;
	CK_SESSION_HANDLE s;

	if (ft_f == NULL)
		ft_setup();
	op = ft_byte(&in);
	opt = ft_byte(&in);
	s = (opt & 1u) ? ft_ro : ft_rw;
	n = ft_template(&in, t, vals);
	ft_calls[op % 11u]++;
	rv = CKR_FUNCTION_NOT_SUPPORTED;
	switch (op % 11u) {
	case 0:
		rv = ft_rv("C_CreateObject", ft_f->C_CreateObject(s, t, n, &o));
		if (rv == CKR_OK)
			ft_keep(s, o);
		break;
	case 1: {
		CK_MECHANISM m = { (opt & 2u) ? CKM_GENERIC_SECRET_KEY_GEN : CKM_AES_KEY_GEN, NULL, 0 };
		rv = ft_rv("C_GenerateKey", ft_f->C_GenerateKey(s, &m, t, n, &o));
		if (rv == CKR_OK)
			ft_keep(s, o);
		break;
	}
	case 2: {
		CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
		n2 = ft_template(&in, t2, vals2);
		rv = ft_rv("C_GenerateKeyPair", ft_f->C_GenerateKeyPair(s, &m, t, n, t2, n2, &o, &o2));
		if (rv == CKR_OK) {
			ft_keep(s, o);
			ft_keep(s, o2);
		}
		break;
	}
	case 3:
		rv = ft_rv("C_FindObjectsInit", ft_f->C_FindObjectsInit(s, t, n));
		if (rv == CKR_OK) {
			do {
				rv = ft_rv("C_FindObjects", ft_f->C_FindObjects(s, list, 8, &got));
			} while (rv == CKR_OK && got > 0);
			ft_must("C_FindObjectsFinal", ft_f->C_FindObjectsFinal(s));
		}
		break;
	case 4:
		rv = ft_rv("C_SetAttributeValue", ft_f->C_SetAttributeValue(s, ft_pick(opt), t, n));
		break;
	case 5:
		rv = ft_rv("C_GetAttributeValue", ft_f->C_GetAttributeValue(s, ft_pick(opt), t, n));
		break;
	case 6:
		rv = ft_rv("C_CopyObject", ft_f->C_CopyObject(s, ft_pick(opt), t, n, &o));
		if (rv == CKR_OK)
			ft_keep(s, o);
		break;
	case 7:
		rv = ft_rv("C_DestroyObject", ft_f->C_DestroyObject(s, ft_pick(opt)));
		break;
	case 8:
		rv = ft_rv("C_GetObjectSize", ft_f->C_GetObjectSize(s, ft_pick(opt), &sz));
		break;
	case 9: {                            /* wrap an object with another */
		CK_MECHANISM m = { (opt & 2u) ? CKM_AES_KEY_WRAP_PAD : CKM_AES_KEY_WRAP, NULL, 0 };
		CK_BYTE wrapped[600];
		CK_ULONG wl = (opt & 4u) ? 8u : sizeof wrapped;
		rv = ft_rv("C_WrapKey", ft_f->C_WrapKey(s, &m, ft_pick(opt), ft_pick((uint8_t)(opt * 5u)),
		                                         wrapped, &wl));
		break;
	}
	default: {                           /* unwrap input bytes under a template */
		CK_MECHANISM m = { (opt & 2u) ? CKM_AES_KEY_WRAP_PAD : CKM_AES_KEY_WRAP, NULL, 0 };
		CK_BYTE wrapped[64];
		CK_ULONG wl = 8u * (1u + ft_byte(&in) % 8u), k;
		for (k = 0; k < wl; k++)
			wrapped[k] = ft_byte(&in);
		rv = ft_rv("C_UnwrapKey", ft_f->C_UnwrapKey(s, &m, ft_pick(opt), wrapped, wl, t, n, &o));
		if (rv == CKR_OK)
			ft_keep(s, o);
		break;
	}
	}
	if (rv == CKR_OK)
		ft_ok[op % 11u]++;
	return 0;
}
