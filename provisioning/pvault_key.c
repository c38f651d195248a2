/* pvault_key.c - pvault key list | import | delete.
 *
 * Import reads the key file, hands the bytes to the token layer
 * (C_CreateObject semantics: the plaintext goes into the vault once and
 * comes back as a wrapped blob) and wipes every copy here. */
#include "provisioning/pvault.h"
#include "provisioning/pvault_tk.h"
#include "provisioning/pvault_cert.h"
#include "provisioning/pvault_pkey.h"
#include "token/tk_pk.h"
#include "gpu/core/kc_util.h"
#include "include/pixelvault/pkcs11-vendor.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int open_user(const char *token, const char *pin_env, CK_SLOT_ID *slot,
                     CK_SESSION_HANDLE *s, tk_admin_token *t)
{
	char *pin, fpr[17];
	const char *why;
	int r;

	if (pvault_find_token(token, t))
		return -1;
	pvault_master_fpr(fpr, &why);
	if (!fpr[0]) {
		pvault_err("the vault is sealed: master key: %s (see pvault status)", why);
		return -1;
	}
	if (t->master_fpr[0] && strcmp(fpr, t->master_fpr)) {
		pvault_err("token '%s' is wrapped under master key %s, but the loaded master key is %s",
		           t->label, t->master_fpr, fpr);
		return -1;
	}
	pin = pvault_secret(pin_env, "User PIN: ", 0);
	if (!pin) {
		pvault_err("no user PIN given (terminal or --pin-env VAR)");
		return -1;
	}
	if (pvault_tk_slot(t->serial, slot)) {
		pvault_free_secret(pin);
		return -1;
	}
	r = pvault_tk_login(*slot, CKU_USER, pin, s);
	pvault_free_secret(pin);
	if (r)
		tk_finalize();
	return r;
}

static int get_attr(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE ty,
                    void *buf, CK_ULONG cap, CK_ULONG *len)
{
	CK_ATTRIBUTE a;
	a.type = ty;
	a.pValue = buf;
	a.ulValueLen = cap;
	if (tk_get_attributes(s, o, &a, 1) != CKR_OK || a.ulValueLen == (CK_ULONG)-1)
		return -1;
	*len = a.ulValueLen;
	return 0;
}

static const char *class_name(CK_ULONG c)
{
	switch (c) {
	case CKO_SECRET_KEY: return "secret";
	case CKO_PRIVATE_KEY: return "private";
	case CKO_PUBLIC_KEY: return "public";
	case CKO_CERTIFICATE: return "cert";
	case CKO_DATA: return "data";
	default: return "other";
	}
}

static const char *type_name(CK_ULONG k)
{
	switch (k) {
	case CKK_AES: return "AES";
	case CKK_GENERIC_SECRET: return "GENERIC";
	case CKK_PV_SM4: return "SM4";
	case CKK_RSA: return "RSA";
	case CKK_EC: return "EC";
	case CKK_EC_EDWARDS: return "Ed25519";
	case 0x80505601UL: return "SM2";
	default: return "-";
	}
}

/* Every object, or those matching label/id (either may be NULL). */
static int find(CK_SESSION_HANDLE s, const char *label, const unsigned char *id, size_t idlen,
                CK_OBJECT_HANDLE *out, CK_ULONG cap, CK_ULONG *n)
{
	CK_ATTRIBUTE t[2];
	CK_ULONG nt = 0;
	CK_RV rv;
	if (label) {
		t[nt].type = CKA_LABEL; t[nt].pValue = (void *)label; t[nt].ulValueLen = strlen(label); nt++;
	}
	if (id) {
		t[nt].type = CKA_ID; t[nt].pValue = (void *)id; t[nt].ulValueLen = idlen; nt++;
	}
	rv = tk_find_init(s, nt ? t : NULL, nt);
	if (rv == CKR_OK)
		rv = tk_find(s, out, cap, n);
	tk_find_final(s);
	if (rv != CKR_OK) {
		pvault_err("finding objects: %s", pvault_ckr(rv));
		return -1;
	}
	return 0;
}

static void print_obj(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE o)
{
	CK_ULONG cls = 0, kt = (CK_ULONG)-1, vlen = 0, l, i;
	unsigned char id[128], label[256];
	char idhex[260] = "-";

	get_attr(s, o, CKA_CLASS, &cls, sizeof cls, &l);
	if (get_attr(s, o, CKA_KEY_TYPE, &kt, sizeof kt, &l))
		kt = (CK_ULONG)-1;
	if (get_attr(s, o, CKA_VALUE_LEN, &vlen, sizeof vlen, &l))
		vlen = 0;
	if (!get_attr(s, o, CKA_ID, id, sizeof id, &l) && l > 0) {
		for (i = 0; i < l; i++)
			snprintf(idhex + 2 * i, 3, "%02x", id[i]);
	}
	if (get_attr(s, o, CKA_LABEL, label, sizeof label - 1, &l))
		l = 0;
	label[l] = 0;
	printf("%-8s %-8s %5lu  %-20s %s\n", class_name(cls), type_name(kt),
	       (unsigned long)(vlen * 8), idhex, label);
}

static int key_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "token", required_argument, NULL, 't' },
		{ "pin-env", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 } };
	const char *token = NULL, *pin_env = NULL;
	CK_OBJECT_HANDLE h[4096];
	CK_ULONG n, i;
	CK_SLOT_ID slot;
	CK_SESSION_HANDLE s;
	tk_admin_token t;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:", opts, NULL)) != -1) {
		if (c == 't') token = optarg;
		else if (c == 'p') pin_env = optarg;
		else return PVAULT_EXIT_USAGE;
	}
	if (!token || optind != argc) {
		pvault_err("key list: --token TOKEN is required");
		return PVAULT_EXIT_USAGE;
	}
	if (open_user(token, pin_env, &slot, &s, &t))
		return 1;
	if (find(s, NULL, NULL, 0, h, 4096, &n)) {
		tk_finalize();
		return 1;
	}
	printf("%-8s %-8s %5s  %-20s %s\n", "CLASS", "TYPE", "BITS", "ID", "LABEL");
	for (i = 0; i < n; i++)
		print_obj(s, h[i]);
	tk_finalize();
	return 0;
}

static int parse_usage(const char *list, CK_BBOOL u[7])
{
	static const char *const names[7] = { "encrypt", "decrypt", "sign", "verify",
	                                      "wrap", "unwrap", "derive" };
	char buf[256], *tok, *save = NULL;
	int i;
	snprintf(buf, sizeof buf, "%s", list);
	for (i = 0; i < 7; i++)
		u[i] = CK_FALSE;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < 7 && strcmp(tok, names[i]); i++)
			;
		if (i == 7) {
			pvault_err("key import: unknown usage '%s' (encrypt, decrypt, sign, verify, wrap, unwrap, derive)", tok);
			return -1;
		}
		u[i] = CK_TRUE;
	}
	return 0;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;
	size_t n;
	if (!f) {
		pvault_err("key import: %s: %s", path, strerror(errno));
		return NULL;
	}
	b = malloc(4096);
	n = b ? fread(b, 1, 4096, f) : 0;
	if (b && (n == 0 || !feof(f))) {
		pvault_err("key import: %s: empty or larger than 4096 bytes", path);
		kc_wipe(b, 4096);
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = n;
	return b;
}

/* A certificate object beside a key: same CKA_ID. */
static int cert_import(const char *token, const char *pin_env, const char *in,
                       const char *label, const unsigned char *id, size_t idlen)
{
	pvault_cert pc;
	CK_OBJECT_CLASS cls = CKO_CERTIFICATE;
	CK_CERTIFICATE_TYPE ct = CKC_X_509;
	CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	CK_ATTRIBUTE tmpl[10];
	CK_ULONG nt = 0, dup, nkeys = 0;
	CK_OBJECT_HANDLE h, hs[8];
	CK_SLOT_ID slot;
	CK_SESSION_HANDLE s;
	tk_admin_token t;
	CK_RV rv;
	int r, ret = 1;

	r = pvault_cert_parse(in, &pc);
	if (r) {
		pvault_err("key import: %s: %s", in, r == -1 ? "cannot read the file" :
		           "not a PEM or DER X.509 certificate");
		return 1;
	}
	if (open_user(token, pin_env, &slot, &s, &t)) {
		pvault_cert_clear(&pc);
		return 1;
	}
	if (find(s, label, NULL, 0, hs, 2, &dup))
		goto out;
	if (dup) {
		pvault_err("key import: token '%s' already has an object labelled '%s'", t.label, label);
		goto out;
	}
	if (find(s, NULL, id, idlen, hs, 8, &nkeys))
		goto out;
	for (dup = 0; dup < nkeys; dup++) {
		CK_ULONG c = 0, l;
		if (!get_attr(s, hs[dup], CKA_CLASS, &c, sizeof c, &l) && c == CKO_CERTIFICATE) {
			pvault_err("key import: token '%s' already has a certificate with this id", t.label);
			goto out;
		}
	}
#define A(ty, p, l) do { tmpl[nt].type = (ty); tmpl[nt].pValue = (void *)(p); \
		tmpl[nt].ulValueLen = (CK_ULONG)(l); nt++; } while (0)
	A(CKA_CLASS, &cls, sizeof cls);
	A(CKA_CERTIFICATE_TYPE, &ct, sizeof ct);
	A(CKA_TOKEN, &yes, 1);
	A(CKA_PRIVATE, &no, 1);
	A(CKA_LABEL, label, strlen(label));
	A(CKA_ID, id, idlen);
	A(CKA_SUBJECT, pc.subject, pc.subject_len);
	A(CKA_ISSUER, pc.issuer, pc.issuer_len);
	A(CKA_SERIAL_NUMBER, pc.serial, pc.serial_len);
	A(CKA_VALUE, pc.der, pc.der_len);
#undef A
	rv = tk_create_object(s, tmpl, nt, &h);
	if (rv != CKR_OK) {
		pvault_err("key import: certificate: %s (0x%lx)", pvault_ckr(rv), (unsigned long)rv);
		goto out;
	}
	printf("imported certificate '%s' into token '%s'%s\n", label, t.label,
	       nkeys ? " beside the key with the same id" : " (no key with this id yet)");
	ret = 0;
out:
	tk_finalize();
	pvault_cert_clear(&pc);
	return ret;
}

static CK_RV create_cert(CK_SESSION_HANDLE s, const pvault_cert *pc, const char *label,
                         const unsigned char *id, size_t idlen, CK_OBJECT_HANDLE *h)
{
	CK_OBJECT_CLASS cls = CKO_CERTIFICATE;
	CK_CERTIFICATE_TYPE ct = CKC_X_509;
	CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	CK_ATTRIBUTE t[10] = {
		{ CKA_CLASS, &cls, sizeof cls }, { CKA_CERTIFICATE_TYPE, &ct, sizeof ct },
		{ CKA_TOKEN, &yes, 1 }, { CKA_PRIVATE, &no, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) }, { CKA_ID, (void *)id, idlen },
		{ CKA_SUBJECT, pc->subject, pc->subject_len }, { CKA_ISSUER, pc->issuer, pc->issuer_len },
		{ CKA_SERIAL_NUMBER, pc->serial, pc->serial_len }, { CKA_VALUE, pc->der, pc->der_len } };
	return tk_create_object(s, t, 10, h);
}

/* A private key file: private key object, public key object and (from
 * PKCS#12 or --cert) the certificate, all with the same CKA_ID.  Created
 * in that order; a failure destroys what was created. */
static int pkey_import(const char *token, const char *pin_env, const char *in,
                       const char *label, const unsigned char *id, size_t idlen,
                       const char *certfile, const char *pass_env)
{
	pvault_pkey k;
	pvault_cert pc;
	CK_OBJECT_CLASS pcls = CKO_PRIVATE_KEY, qcls = CKO_PUBLIC_KEY;
	CK_KEY_TYPE kt;
	CK_BBOOL yes = CK_TRUE, no = CK_FALSE, dec, der;
	CK_ATTRIBUTE t[24];
	CK_ULONG nt, dup;
	CK_OBJECT_HANDLE hp = 0, hc = 0, hs[2];
	CK_SLOT_ID slot;
	CK_SESSION_HANDLE s;
	tk_admin_token tok;
	const char *pass = pass_env ? getenv(pass_env) : NULL;
	CK_RV rv;
	int r, i, ret = 1, have_cert;

	memset(&pc, 0, sizeof pc);
	r = pvault_pkey_parse(in, pass, &k);
	if (r) {
		pvault_err("key import: %s: %s", in, r == -1 ? "cannot read the file" : r == -2 ?
		           "not a PEM/DER/PKCS#8/PKCS#12 private key (or a wrong passphrase: --passphrase-env VAR)" :
		           "key type or curve not supported (RSA, EC P-256/P-384, Ed25519, SM2)");
		return 1;
	}
	if (certfile && (r = pvault_cert_parse(certfile, &pc)) != 0) {
		pvault_err("key import: %s: %s", certfile, r == -1 ? "cannot read the file" :
		           "not a PEM or DER X.509 certificate");
		pvault_pkey_clear(&k);
		return 1;
	}
	have_cert = certfile != NULL || k.has_cert;
	if (open_user(token, pin_env, &slot, &s, &tok))
		goto out_noses;
	if (find(s, label, NULL, 0, hs, 2, &dup) == 0 && dup == 0)
		r = find(s, NULL, id, idlen, hs, 2, &dup);
	else
		r = -1;
	if (r || dup) {
		if (!r)
			pvault_err("key import: token '%s' already has an object with this label or id", tok.label);
		goto out;
	}
	kt = k.key_type;
	dec = k.key_type == CKK_RSA || k.key_type == (0x80505600UL | 0x01UL) ? CK_TRUE : CK_FALSE;
	der = k.key_type == CKK_EC ? CK_TRUE : CK_FALSE;
#define A(ty, p, l) do { t[nt].type = (ty); t[nt].pValue = (void *)(p); \
		t[nt].ulValueLen = (CK_ULONG)(l); nt++; } while (0)
	nt = 0;
	A(CKA_CLASS, &pcls, sizeof pcls); A(CKA_KEY_TYPE, &kt, sizeof kt);
	A(CKA_TOKEN, &yes, 1); A(CKA_PRIVATE, &yes, 1); A(CKA_SENSITIVE, &yes, 1);
	A(CKA_EXTRACTABLE, &no, 1); A(CKA_SIGN, &yes, 1); A(CKA_DECRYPT, &dec, 1);
	A(CKA_DERIVE, &der, 1);
	A(CKA_LABEL, label, strlen(label)); A(CKA_ID, id, idlen);
	for (i = 0; i < k.np; i++)
		A(k.ptype[i], k.pval[i], k.plen[i]);
	/* private keys go to the vault through tk_pk_import (as C_CreateObject
	 * does in pkcs11/pk_object.c), which also makes the public object */
	rv = tk_pk_import(s, t, nt, &hp);
	kc_wipe(t, sizeof t);
	if (rv != CKR_OK) {
		pvault_err("key import: the token refused the %s private key: %s (0x%lx)", k.name,
		           pvault_ckr(rv), (unsigned long)rv);
		goto out;
	}
#undef A
	(void)qcls;
	if (have_cert)
		rv = create_cert(s, certfile ? &pc : &k.cert, label, id, idlen, &hc);
	if (rv != CKR_OK) {
		pvault_err("key import: public key or certificate refused: %s (0x%lx); nothing imported",
		           pvault_ckr(rv), (unsigned long)rv);
		/* the key pair tk_pk_import made: the only objects with this id */
		if (find(s, NULL, id, idlen, hs, 2, &dup) == 0)
			for (i = 0; (CK_ULONG)i < dup && i < 2; i++)
				tk_destroy_object(s, hs[i]);
		tk_destroy_object(s, hp);
		goto out;
	}
	printf("imported %s key '%s' (%u bits, private + public%s) into token '%s'\n", k.name,
	       label, k.bits, have_cert ? " + certificate" : "", tok.label);
	ret = 0;
out:
	tk_finalize();
out_noses:
	pvault_pkey_clear(&k);
	pvault_cert_clear(&pc);
	return ret;
}

static int key_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "token", required_argument, NULL, 't' },
		{ "pin-env", required_argument, NULL, 'p' },
		{ "type", required_argument, NULL, 'T' },
		{ "in", required_argument, NULL, 'i' },
		{ "label", required_argument, NULL, 'l' },
		{ "id", required_argument, NULL, 'd' },
		{ "usage", required_argument, NULL, 'u' },
		{ "extractable", no_argument, NULL, 'x' },
		{ "cert", required_argument, NULL, 'C' },
		{ "passphrase-env", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 } };
	const char *certfile = NULL, *pass_env = NULL;
	const char *token = NULL, *pin_env = NULL, *type = NULL, *in = NULL, *label = NULL,
	           *idhex = NULL, *usage = NULL;
	CK_BBOOL u[7], yes = CK_TRUE, no = CK_FALSE, extractable = CK_FALSE;
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt;
	CK_ATTRIBUTE tmpl[20];
	CK_ULONG nt = 0, dup;
	CK_OBJECT_HANDLE h, hs[2];
	CK_SLOT_ID slot;
	CK_SESSION_HANDLE s;
	tk_admin_token t;
	unsigned char *key = NULL, *id = NULL;
	size_t keylen = 0, idlen = 0;
	CK_RV rv;
	int c, ret = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:", opts, NULL)) != -1) {
		switch (c) {
		case 't': token = optarg; break;
		case 'p': pin_env = optarg; break;
		case 'T': type = optarg; break;
		case 'i': in = optarg; break;
		case 'l': label = optarg; break;
		case 'd': idhex = optarg; break;
		case 'u': usage = optarg; break;
		case 'x': extractable = CK_TRUE; break;
		case 'C': certfile = optarg; break;
		case 'P': pass_env = optarg; break;
		default: return PVAULT_EXIT_USAGE;
		}
	}
	if (!token || !type || !in || !label || optind != argc) {
		pvault_err("key import: --token, --type, --in and --label are required");
		return PVAULT_EXIT_USAGE;
	}
	if (!strcmp(type, "pkey")) {
		if (!idhex || !(id = pvault_unhex(idhex, &idlen))) {
			pvault_err("key import: a private key needs --id HEX (shared by the key pair and certificate)");
			free(id);
			return PVAULT_EXIT_USAGE;
		}
		c = pkey_import(token, pin_env, in, label, id, idlen, certfile, pass_env);
		free(id);
		return c;
	}
	if (!strcmp(type, "cert")) {
		if (!idhex || !(id = pvault_unhex(idhex, &idlen))) {
			pvault_err("key import: a certificate needs --id HEX (the CKA_ID of its key)");
			free(id);
			return PVAULT_EXIT_USAGE;
		}
		c = cert_import(token, pin_env, in, label, id, idlen);
		free(id);
		return c;
	}
	if (!strcmp(type, "aes")) kt = CKK_AES;
	else if (!strcmp(type, "sm4")) kt = CKK_PV_SM4;
	else if (!strcmp(type, "generic") || !strcmp(type, "hmac")) kt = CKK_GENERIC_SECRET;
	else {
		pvault_err("key import: --type must be aes, sm4, generic, pkey or cert");
		return PVAULT_EXIT_USAGE;
	}
	if (!usage)
		usage = kt == CKK_GENERIC_SECRET ? "sign,verify,derive" : "encrypt,decrypt,wrap,unwrap";
	if (parse_usage(usage, u))
		return PVAULT_EXIT_USAGE;
	if (idhex && !(id = pvault_unhex(idhex, &idlen))) {
		pvault_err("key import: --id must be an even number of hex digits");
		return PVAULT_EXIT_USAGE;
	}
	if (!(key = read_file(in, &keylen)))
		goto out_noses;
	if ((kt == CKK_AES && keylen != 16 && keylen != 24 && keylen != 32) ||
	    (kt == CKK_PV_SM4 && keylen != 16) || keylen > 512) {
		pvault_err("key import: %s: %zu bytes is not a valid %s key length", in, keylen, type);
		goto out_noses;
	}
	if (open_user(token, pin_env, &slot, &s, &t))
		goto out_noses;
	/* refuse a duplicate label or id: keys are found by them */
	if (find(s, label, NULL, 0, hs, 2, &dup))
		goto out;
	if (dup) {
		pvault_err("key import: token '%s' already has an object labelled '%s'", t.label, label);
		goto out;
	}
	if (id) {
		if (find(s, NULL, id, idlen, hs, 2, &dup))
			goto out;
		if (dup) {
			pvault_err("key import: token '%s' already has an object with id %s", t.label, idhex);
			goto out;
		}
	}
#define A(ty, p, l) do { tmpl[nt].type = (ty); tmpl[nt].pValue = (void *)(p); \
		tmpl[nt].ulValueLen = (CK_ULONG)(l); nt++; } while (0)
	A(CKA_CLASS, &cls, sizeof cls);
	A(CKA_KEY_TYPE, &kt, sizeof kt);
	A(CKA_TOKEN, &yes, sizeof yes);
	A(CKA_PRIVATE, &yes, sizeof yes);
	A(CKA_SENSITIVE, &yes, sizeof yes);
	A(CKA_EXTRACTABLE, extractable ? &yes : &no, 1);
	A(CKA_LABEL, label, strlen(label));
	if (id)
		A(CKA_ID, id, idlen);
	A(CKA_ENCRYPT, &u[0], 1);
	A(CKA_DECRYPT, &u[1], 1);
	A(CKA_SIGN, &u[2], 1);
	A(CKA_VERIFY, &u[3], 1);
	A(CKA_WRAP, &u[4], 1);
	A(CKA_UNWRAP, &u[5], 1);
	A(CKA_DERIVE, &u[6], 1);
	A(CKA_VALUE, key, keylen);
#undef A
	rv = tk_create_object(s, tmpl, nt, &h);
	if (rv != CKR_OK) {
		pvault_err("key import: %s (0x%lx)", pvault_ckr(rv), (unsigned long)rv);
		goto out;
	}
	printf("imported %s key '%s' (%zu bits) into token '%s'\n", type_name(kt), label,
	       keylen * 8, t.label);
	ret = 0;
out:
	tk_finalize();
out_noses:
	if (key) {
		kc_wipe(key, 4096);
		free(key);
	}
	free(id);
	return ret;
}

static int key_delete(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "token", required_argument, NULL, 't' },
		{ "pin-env", required_argument, NULL, 'p' },
		{ "label", required_argument, NULL, 'l' },
		{ "id", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 } };
	const char *token = NULL, *pin_env = NULL, *label = NULL, *idhex = NULL;
	CK_OBJECT_HANDLE h[64];
	CK_ULONG n, i;
	CK_SLOT_ID slot;
	CK_SESSION_HANDLE s;
	tk_admin_token t;
	unsigned char *id = NULL;
	size_t idlen = 0;
	CK_RV rv = CKR_OK;
	int c, ret = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:", opts, NULL)) != -1) {
		if (c == 't') token = optarg;
		else if (c == 'p') pin_env = optarg;
		else if (c == 'l') label = optarg;
		else if (c == 'd') idhex = optarg;
		else return PVAULT_EXIT_USAGE;
	}
	if (!token || (!label && !idhex) || optind != argc) {
		pvault_err("key delete: --token and --label or --id are required");
		return PVAULT_EXIT_USAGE;
	}
	if (idhex && !(id = pvault_unhex(idhex, &idlen))) {
		pvault_err("key delete: --id must be an even number of hex digits");
		return PVAULT_EXIT_USAGE;
	}
	if (open_user(token, pin_env, &slot, &s, &t)) {
		free(id);
		return 1;
	}
	if (find(s, label, id, idlen, h, 64, &n))
		goto out;
	if (n == 0) {
		pvault_err("key delete: no object matches in token '%s'", t.label);
		goto out;
	}
	for (i = 0; i < n && rv == CKR_OK; i++)
		rv = tk_destroy_object(s, h[i]);
	if (rv != CKR_OK) {
		pvault_err("key delete: %s (%lu of %lu deleted)", pvault_ckr(rv),
		           (unsigned long)(i - 1), (unsigned long)n);
		goto out;
	}
	printf("deleted %lu object(s) from token '%s'\n", (unsigned long)n, t.label);
	ret = 0;
out:
	tk_finalize();
	free(id);
	return ret;
}

#define EXIT_TEXT "\nEXIT STATUS\n  0 success; 1 the operation failed (a message says why; nothing was\n" \
                  "  changed); 2 bad command line.\n"

const pv_cmd pv_key_cmds[] = {
	{ "key", "list", "list the objects of a token",
	  "pvault key list --token TOKEN [--pin-env VAR]\n\n"
	  "DESCRIPTION\n"
	  "  Logs in as the user (PIN from the terminal or VAR) and lists every object:\n"
	  "  class, key type, size in bits, CKA_ID (hex) and label.  Key values are\n"
	  "  never shown.\n"
	  EXIT_TEXT "\nEXAMPLE\n  pvault key list --token web\n",
	  key_list },
	{ "key", "import", "import a key into a token (wrapped by the vault)",
	  "pvault key import --token TOKEN --type aes|sm4|generic|pkey|cert --in FILE\n"
	  "                         --label LABEL [--id HEX] [--usage LIST] [--extractable]\n"
	  "                         [--cert FILE] [--passphrase-env VAR] [--pin-env VAR]\n\n"
	  "DESCRIPTION\n"
	  "  Imports the raw key bytes of FILE as a token secret key: the plaintext\n"
	  "  goes to the vault once, comes back wrapped under the master key, and every\n"
	  "  copy in this process is wiped.  The key is sensitive and private.\n"
	  "  Remove FILE afterwards (shred).  With --type cert, FILE is an X.509\n"
	  "  certificate (PEM or DER), stored as a public certificate object with the\n"
	  "  CKA_ID of its key (--id required), where clients (OpenSSH, NSS, TLS\n"
	  "  servers) look for it.  With --type pkey, FILE is a private key (PEM,\n"
	  "  DER, PKCS#8, encrypted PKCS#8 or PKCS#12; RSA, EC P-256/P-384, Ed25519,\n"
	  "  SM2): a private key object, its public key object and the certificate\n"
	  "  (from the PKCS#12 file or --cert) are created with the same --id.  This\n"
	  "  needs a token build that accepts imported private keys (being wired);\n"
	  "  until then the token refuses and nothing is created.\n\n"
	  "OPTIONS\n"
	  "  --type T       aes (16/24/32 bytes), sm4 (16 bytes), generic (1..512 bytes,\n"
	  "                 for HMAC and HKDF; 'hmac' is an alias), pkey (private key\n"
	  "                 file), cert (X.509)\n"
	  "  --in FILE      raw key bytes, or the certificate\n"
	  "  --label LABEL  CKA_LABEL (must be unused in the token)\n"
	  "  --id HEX       CKA_ID (must be unused in the token)\n"
	  "  --usage LIST   comma-separated: encrypt,decrypt,sign,verify,wrap,unwrap,derive\n"
	  "                 (default: encrypt,decrypt,wrap,unwrap for aes/sm4;\n"
	  "                 sign,verify,derive for generic)\n"
	  "  --extractable  allow wrapping the key out (CKA_EXTRACTABLE)\n"
	  "  --cert FILE    (pkey) the key's X.509 certificate, PEM or DER\n"
	  "  --passphrase-env VAR  (pkey) passphrase of an encrypted key or PKCS#12 file\n"
	  "  --pin-env VAR  read the user PIN from VAR (default: terminal)\n"
	  EXIT_TEXT
	  "\nEXAMPLE\n  openssl rand 32 > hmac.key\n"
	  "  pvault key import --token web --type generic --in hmac.key --label mac1 --id 01\n"
	  "  shred -u hmac.key\n"
	  "  pvault key import --token web --type cert --in web.crt --label web-cert --id 02\n",
	  key_import },
	{ "key", "delete", "delete objects of a token by label or id",
	  "pvault key delete --token TOKEN (--label LABEL | --id HEX) [--pin-env VAR]\n\n"
	  "DESCRIPTION\n"
	  "  Logs in as the user and destroys every object matching the label and/or\n"
	  "  the id (a key together with its certificate when they share an id).\n"
	  EXIT_TEXT "\nEXAMPLE\n  pvault key delete --token web --label mac1\n",
	  key_delete },
	{ NULL, NULL, NULL, NULL, NULL }
};
