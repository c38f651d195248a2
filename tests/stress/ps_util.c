/*
 * ps_util.c - p11stress helpers: the per-thread PRNG, sizes and chunks,
 * failure reports, and the single-/multi-part PKCS#11 call wrappers.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "ps.h"

#define PS_MAX_REPORTS 40

uint64_t ps_rand(ps_thr *t)
{
	uint64_t x = t->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	t->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

uint32_t ps_below(ps_thr *t, uint32_t n)
{
	return n ? (uint32_t)((ps_rand(t) >> 32) % n) : 0;
}

void ps_fill(ps_thr *t, void *p, size_t n)
{
	uint8_t *b = p;
	uint64_t r;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		r = ps_rand(t);
		memcpy(b + i, &r, 8);
	}
	r = ps_rand(t);
	memcpy(b + i, &r, n - i);
}

size_t ps_len(ps_thr *t, size_t max)
{
	size_t n;

	switch (ps_below(t, 8)) {
	case 0:  n = ps_below(t, 17); break;                /* tiny, incl. 0 */
	case 1:  n = 16 * ps_below(t, 9); break;           /* block multiples */
	case 2:  n = ps_below(t, 65537); break;             /* large */
	default: n = ps_below(t, 2049); break;
	}
	return n > max ? max : n;
}

size_t ps_chunk(ps_thr *t, size_t left)
{
	size_t c;

	switch (ps_below(t, 4)) {
	case 0:  c = ps_below(t, 17); break;
	case 1:  c = 16 * ps_below(t, 5); break;
	default: c = ps_below(t, (uint32_t)left + 1); break;
	}
	return c > left ? left : c;
}

int ps_fail(ps_thr *t, const ps_op *o, int code, const char *fmt, ...)
{
	static atomic_int reports;
	va_list ap;

	if (atomic_fetch_add(&reports, 1) >= PS_MAX_REPORTS)
		return code;
	flockfile(stderr);
	fprintf(stderr, "FAIL thread %d %s (%s): ", t->id, o->name,
	        code == PS_WRONG ? "wrong answer" : "unexpected CK_RV");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
	return code;
}

CK_RV ps_crypt(ps_thr *t, CK_MECHANISM *m, CK_OBJECT_HANDLE k, int enc, int multi,
               const uint8_t *in, size_t n, uint8_t *out, CK_ULONG *outl)
{
	size_t done = 0, pos = 0, cap = *outl;
	CK_ULONG l;
	CK_RV rv = enc ? F->C_EncryptInit(t->s, m, k) : F->C_DecryptInit(t->s, m, k);

	if (rv != CKR_OK)
		return rv;
	if (!multi)
		return enc ? F->C_Encrypt(t->s, (CK_BYTE_PTR)in, n, out, outl)
		           : F->C_Decrypt(t->s, (CK_BYTE_PTR)in, n, out, outl);
	while (pos < n) {
		size_t c = ps_chunk(t, n - pos);
		l = cap - done;
		rv = enc ? F->C_EncryptUpdate(t->s, (CK_BYTE_PTR)in + pos, c, out + done, &l)
		         : F->C_DecryptUpdate(t->s, (CK_BYTE_PTR)in + pos, c, out + done, &l);
		if (rv != CKR_OK)
			return rv;
		done += l;
		pos += c;
	}
	l = cap - done;
	rv = enc ? F->C_EncryptFinal(t->s, out + done, &l)
	         : F->C_DecryptFinal(t->s, out + done, &l);
	if (rv == CKR_OK)
		*outl = done + l;
	return rv;
}

CK_RV ps_sign(ps_thr *t, CK_MECHANISM *m, CK_OBJECT_HANDLE k, int multi,
              const uint8_t *in, size_t n, uint8_t *sig, CK_ULONG *sl)
{
	size_t pos = 0;
	int dig = k == CK_INVALID_HANDLE;          /* a digest, no key */
	CK_RV rv = dig ? F->C_DigestInit(t->s, m) : F->C_SignInit(t->s, m, k);

	if (rv != CKR_OK)
		return rv;
	if (!multi)
		return dig ? F->C_Digest(t->s, (CK_BYTE_PTR)in, n, sig, sl)
		           : F->C_Sign(t->s, (CK_BYTE_PTR)in, n, sig, sl);
	while (pos < n) {
		size_t c = ps_chunk(t, n - pos);
		rv = dig ? F->C_DigestUpdate(t->s, (CK_BYTE_PTR)in + pos, c)
		         : F->C_SignUpdate(t->s, (CK_BYTE_PTR)in + pos, c);
		if (rv != CKR_OK)
			return rv;
		pos += c;
	}
	return dig ? F->C_DigestFinal(t->s, sig, sl) : F->C_SignFinal(t->s, sig, sl);
}

CK_RV ps_verify(ps_thr *t, CK_MECHANISM *m, CK_OBJECT_HANDLE k, int multi,
                const uint8_t *in, size_t n, const uint8_t *sig, size_t sl)
{
	size_t pos = 0;
	CK_RV rv = F->C_VerifyInit(t->s, m, k);

	if (rv != CKR_OK)
		return rv;
	if (!multi)
		return F->C_Verify(t->s, (CK_BYTE_PTR)in, n, (CK_BYTE_PTR)sig, sl);
	while (pos < n) {
		size_t c = ps_chunk(t, n - pos);
		if ((rv = F->C_VerifyUpdate(t->s, (CK_BYTE_PTR)in + pos, c)) != CKR_OK)
			return rv;
		pos += c;
	}
	return F->C_VerifyFinal(t->s, (CK_BYTE_PTR)sig, sl);
}

long ps_attr(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE a,
             uint8_t *out, size_t cap)
{
	CK_ATTRIBUTE at = { a, out, cap };

	if (F->C_GetAttributeValue(s, o, &at, 1) != CKR_OK)
		return -1;
	return (long)at.ulValueLen;
}

long ps_value(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE k, uint8_t *out, size_t cap)
{
	return ps_attr(s, k, CKA_VALUE, out, cap);
}

/* ---- OpenSSL algorithms fetched once (OpenSSL 3.0's implicit fetch takes a
 * global lock per operation; explicitly fetched objects skip it) ---------- */

static const char *const md_names[] = {
	"SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "SHA3-224", "SHA3-256",
	"SHA3-384", "SHA3-512", "SM3",
};
static const char *const cipher_names[] = {
	"AES-128-ECB", "AES-192-ECB", "AES-256-ECB", "AES-128-CBC", "AES-192-CBC",
	"AES-256-CBC", "AES-128-CTR", "AES-192-CTR", "AES-256-CTR", "AES-128-CFB",
	"AES-192-CFB", "AES-256-CFB", "AES-128-GCM", "AES-192-GCM", "AES-256-GCM",
	"SM4-ECB", "SM4-CBC", "SM4-CTR", "id-aes128-wrap", "id-aes192-wrap",
	"id-aes256-wrap", "id-aes128-wrap-pad", "id-aes192-wrap-pad", "id-aes256-wrap-pad",
};
#define NMDS (sizeof md_names / sizeof md_names[0])
#define NCIPHERS (sizeof cipher_names / sizeof cipher_names[0])
static EVP_MD *md_objs[NMDS];
static EVP_CIPHER *cipher_objs[NCIPHERS];
static EVP_MAC *mac_objs[2];

int ps_ossl_init(void)
{
	size_t i;

	for (i = 0; i < NMDS; i++)
		if ((md_objs[i] = EVP_MD_fetch(NULL, md_names[i], NULL)) == NULL)
			return -1;
	for (i = 0; i < NCIPHERS; i++)
		if ((cipher_objs[i] = EVP_CIPHER_fetch(NULL, cipher_names[i], NULL)) == NULL)
			return -1;
	mac_objs[0] = EVP_MAC_fetch(NULL, "HMAC", NULL);
	mac_objs[1] = EVP_MAC_fetch(NULL, "CMAC", NULL);
	return mac_objs[0] && mac_objs[1] ? 0 : -1;
}

void ps_ossl_free(void)
{
	size_t i;

	for (i = 0; i < NMDS; i++)
		EVP_MD_free(md_objs[i]);
	for (i = 0; i < NCIPHERS; i++)
		EVP_CIPHER_free(cipher_objs[i]);
	EVP_MAC_free(mac_objs[0]);
	EVP_MAC_free(mac_objs[1]);
}

const EVP_MD *ps_md(const char *name)
{
	size_t i;

	for (i = 0; i < NMDS; i++)
		if (strcmp(md_names[i], name) == 0)
			return md_objs[i];
	return NULL;
}

const EVP_CIPHER *ps_cipher(const char *name)
{
	size_t i;

	for (i = 0; i < NCIPHERS; i++)
		if (strcmp(cipher_names[i], name) == 0)
			return cipher_objs[i];
	return NULL;
}

EVP_MAC *ps_mac(int cmac)
{
	return mac_objs[cmac ? 1 : 0];
}
