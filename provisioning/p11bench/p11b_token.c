/*
 * p11b_token.c - p11bench's side of the module: a temporary token (own
 * master key and pixelvault.conf with no backend line, so the default
 * `auto` or $PIXELVAULT_BACKEND decides), keys generated in the vault as
 * session objects, and one full token operation (Init + single part).
 */
#include <dlfcn.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "gpu/host/pv_master.h"
#include "include/pixelvault/pkcs11-vendor.h"
#include "provisioning/p11bench/p11bench.h"

const p11b_mech p11b_mechs[] = {
	{ "rsa2048-sign",  K_SIGN,   A_RSA,      CKM_SHA256_RSA_PKCS, 64 },
	{ "p256-sign",     K_SIGN,   A_P256,     CKM_ECDSA_SHA256,    64 },
	{ "sm2-sign",      K_SIGN,   A_SM2,      CKM_PV_SM2_SM3,      64 },
	{ "ed25519-sign",  K_SIGN,   A_ED25519,  CKM_EDDSA,           64 },
	{ "sha3-256-4k",   K_DIGEST, A_SHA3_256, CKM_SHA3_256,        4096 },
	{ "sm3-4k",        K_DIGEST, A_SM3,      CKM_PV_SM3,          4096 },
	{ "sha256-4k",     K_DIGEST, A_SHA256,   CKM_SHA256,          4096 },
	{ "sha3-256-64",   K_DIGEST, A_SHA3_256, CKM_SHA3_256,        64 },
	{ "aes256gcm-1m",  K_GCM,    A_AES,      CKM_AES_GCM,         1 << 20 },
	{ "aes256gcm-16k", K_GCM,    A_AES,      CKM_AES_GCM,         16384 },
};
const size_t p11b_nmechs = sizeof p11b_mechs / sizeof p11b_mechs[0];

static CK_FUNCTION_LIST *F;
static CK_FUNCTION_LIST_3_2 *F32;     /* NULL: the module has no 3.2 interface */
static void *dl;
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE setup;       /* owns the session keys for the run */
static char dir[] = "/tmp/p11bench.XXXXXX";
static int have_dir;

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb; (void)flag; (void)f;
	return remove(p);
}

static void rm_dir(void)
{
	if (have_dir)
		nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	have_dir = 0;
}

static int write_conf(unsigned gpu_slots, unsigned gpu_bps)
{
	uint8_t mk[PV_MASTER_KEY_LEN];
	char path[sizeof dir + 32];
	FILE *fp;
	int rc;

	if (mkdtemp(dir) == NULL)
		return -1;
	have_dir = 1;
	snprintf(path, sizeof path, "%s/master.key", dir);
	rc = pv_master_generate(mk) == 0 && pv_master_write(path, mk, NULL) == 0 ? 0 : -1;
	OPENSSL_cleanse(mk, sizeof mk);
	if (rc != 0)
		return -1;
	snprintf(path, sizeof path, "%s/pixelvault.conf", dir);
	if ((fp = fopen(path, "w")) == NULL)
		return -1;
	fprintf(fp, "token_dir = %s/tokens\nmaster_key = %s/master.key\n", dir, dir);
	if (gpu_slots != 0)
		fprintf(fp, "gpu_slots = %u\n", gpu_slots);
	if (gpu_bps != 0)
		fprintf(fp, "gpu_blocks_per_sm = %u\n", gpu_bps);
	if (fclose(fp) != 0)
		return -1;
	return setenv("PIXELVAULT_CONF", path, 1);
}

static int find_slot(const CK_UTF8CHAR label[32])
{
	CK_SLOT_ID slots[64];
	CK_ULONG n = 64, i;
	CK_TOKEN_INFO ti;

	if (F->C_GetSlotList(CK_TRUE, slots, &n) != CKR_OK)
		return -1;
	for (i = 0; i < n; i++)
		if (F->C_GetTokenInfo(slots[i], &ti) == CKR_OK && !memcmp(ti.label, label, 32)) {
			slot = slots[i];
			return 0;
		}
	return -1;
}

/* Length of a blank-padded PKCS#11 string field without the padding. */
static int padded_len(const CK_UTF8CHAR *s, int n)
{
	while (n > 0 && s[n - 1] == ' ')
		n--;
	return n;
}

/* Loads the module and makes a fresh token; model gets "model, manufacturer, slot". */
int p11b_token_open(const char *module, unsigned gpu_slots, unsigned gpu_bps, char *model, size_t modelcap)
{
	CK_C_INITIALIZE_ARGS ia = { NULL, NULL, NULL, NULL, CKF_OS_LOCKING_OK, NULL };
	CK_C_GetFunctionList gfl;
	CK_C_GetInterface gif;
	CK_VERSION v32 = { 3, 2 };
	CK_INTERFACE *ifc = NULL;
	CK_SLOT_ID slots[64];
	CK_ULONG n = 64;
	CK_UTF8CHAR label[32];
	CK_TOKEN_INFO ti;
	CK_SLOT_INFO si;
	CK_BYTE rnd[16];
	CK_RV rv = CKR_OK;

	atexit(rm_dir);
	if (write_conf(gpu_slots, gpu_bps) != 0) {
		perror("p11bench: temporary token directory");
		return -1;
	}
	dl = dlopen(module, RTLD_NOW | RTLD_LOCAL);
	if (dl == NULL) {
		fprintf(stderr, "p11bench: %s\n", dlerror());
		return -1;
	}
	gfl = (CK_C_GetFunctionList)dlsym(dl, "C_GetFunctionList");
	gif = (CK_C_GetInterface)dlsym(dl, "C_GetInterface");
	if (gif != NULL && gif((CK_UTF8CHAR_PTR)"PKCS 11", &v32, &ifc, 0) == CKR_OK)
		F32 = ifc->pFunctionList;
	if (gfl == NULL || gfl(&F) != CKR_OK || F->C_Initialize(&ia) != CKR_OK ||
	    F->C_GetSlotList(CK_FALSE, slots, &n) != CKR_OK || n == 0) {
		fprintf(stderr, "p11bench: %s: cannot initialize the module\n", module);
		return -1;
	}
	memset(label, ' ', sizeof label);
	memcpy(label, "p11bench", 8);
	if (F->C_InitToken(slots[0], (CK_UTF8CHAR_PTR)"87654321", 8, label) != CKR_OK ||
	    find_slot(label) != 0 ||
	    F->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL,
	                     &setup) != CKR_OK) {
		fprintf(stderr, "p11bench: cannot make the temporary token\n");
		return -1;
	}
	/* The vault opens on first use: use it before asking which backend. */
	if ((rv = F->C_GenerateRandom(setup, rnd, sizeof rnd)) != CKR_OK ||
	    F->C_GetTokenInfo(slot, &ti) != CKR_OK || F->C_GetSlotInfo(slot, &si) != CKR_OK) {
		fprintf(stderr, "p11bench: the vault does not answer (CK_RV 0x%lx; backend?)\n",
		        (unsigned long)rv);
		return -1;
	}
	snprintf(model, modelcap, "%.*s, %.*s, %.*s", padded_len(ti.model, 16), ti.model,
	         padded_len(ti.manufacturerID, 32), ti.manufacturerID,
	         padded_len(si.slotDescription, 64), si.slotDescription);
	return 0;
}

void p11b_token_close(void)
{
	if (F != NULL) {
		F->C_CloseSession(setup);
		F->C_Finalize(NULL);
		F = NULL;
	}
	rm_dir();
}

int p11b_token_session(CK_SESSION_HANDLE *s, int async)
{
	CK_FLAGS fl = CKF_SERIAL_SESSION | (async ? CKF_ASYNC_SESSION : 0);

	if (async && F32 == NULL)
		return -1;
	return F->C_OpenSession(slot, fl, NULL, NULL, s) == CKR_OK ? 0 : -1;
}

CK_RV p11b_token_complete(CK_SESSION_HANDLE s, const p11b_state *st, p11b_out *o)
{
	static const char *const fn[] = { [K_SIGN] = "C_Sign", [K_DIGEST] = "C_Digest",
	                                  [K_GCM] = "C_Encrypt" };
	CK_ASYNC_DATA res = { 0, NULL, 0, 0, 0 };
	CK_RV rv = F32->C_AsyncComplete(s, (CK_UTF8CHAR_PTR)fn[st->m->kind], &res);

	if (rv == CKR_OK)
		o->len = res.ulValue;
	return rv;
}

void p11b_token_end_session(CK_SESSION_HANDLE s)
{
	F->C_CloseSession(s);
}

static int get_attr(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE t, uint8_t *buf, size_t *len)
{
	CK_ATTRIBUTE a = { t, buf, *len };

	if (F->C_GetAttributeValue(setup, o, &a, 1) != CKR_OK)
		return -1;
	*len = a.ulValueLen;
	return 0;
}

/* CKA_EC_POINT may be a DER OCTET STRING (short form) around the point. */
static void strip_octet_string(const uint8_t **p, size_t *len)
{
	if (*len >= 2 && (*p)[0] == 0x04 && (*p)[1] == *len - 2 && *len - 2 < 0x80 &&
	    (*len - 2 == 32 || *len - 2 == 65)) {
		*p += 2;
		*len -= 2;
	}
}

static int gen_pair(p11b_state *st)
{
	static const uint8_t oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	static const uint8_t oid_ed[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
	CK_BBOOL f = CK_FALSE, t = CK_TRUE;
	CK_ULONG bits = 2048;
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[2] = { { CKA_VERIFY, &t, sizeof t } };
	CK_ATTRIBUTE sk[2] = { { CKA_PRIVATE, &f, sizeof f }, { CKA_SIGN, &t, sizeof t } };
	CK_ULONG pn = 2;
	CK_OBJECT_HANDLE pub;
	uint8_t a[600], b[16];
	size_t al = sizeof a, bl = sizeof b;
	const uint8_t *pa = a;
	enum p11b_alg alg = st->m->alg;

	if (alg == A_RSA) {
		m.mechanism = CKM_RSA_PKCS_KEY_PAIR_GEN;
		pt[1] = (CK_ATTRIBUTE){ CKA_MODULUS_BITS, &bits, sizeof bits };
	} else if (alg == A_P256) {
		pt[1] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)oid_p256, sizeof oid_p256 };
	} else if (alg == A_ED25519) {
		m.mechanism = CKM_EC_EDWARDS_KEY_PAIR_GEN;
		pt[1] = (CK_ATTRIBUTE){ CKA_EC_PARAMS, (void *)oid_ed, sizeof oid_ed };
	} else {
		m.mechanism = CKM_PV_SM2_KEY_PAIR_GEN;
		pn = 1;
	}
	if (F->C_GenerateKeyPair(setup, &m, pt, pn, sk, 2, &pub, &st->tok_priv) != CKR_OK)
		return -1;
	if (alg == A_RSA) {
		if (get_attr(pub, CKA_MODULUS, a, &al) || get_attr(pub, CKA_PUBLIC_EXPONENT, b, &bl))
			return -1;
	} else {
		if (get_attr(pub, CKA_EC_POINT, a, &al))
			return -1;
		strip_octet_string(&pa, &al);
		bl = 0;
	}
	st->tok_pub = p11b_ossl_pub(alg, pa, al, b, bl);
	return st->tok_pub != NULL ? 0 : -1;
}

/* An extractable AES-256 key made in the vault; its value is read back so
 * OpenSSL can check the token's ciphertexts (and encrypts with the same key). */
static int gen_aes(p11b_state *st)
{
	CK_BBOOL f = CK_FALSE, t = CK_TRUE;
	CK_ULONG vl = 32;
	CK_MECHANISM m = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_ATTRIBUTE kt[] = {
		{ CKA_VALUE_LEN, &vl, sizeof vl }, { CKA_PRIVATE, &f, sizeof f },
		{ CKA_SENSITIVE, &f, sizeof f }, { CKA_EXTRACTABLE, &t, sizeof t },
		{ CKA_ENCRYPT, &t, sizeof t }, { CKA_DECRYPT, &t, sizeof t },
	};
	size_t len = sizeof st->aes;

	if (F->C_GenerateKey(setup, &m, kt, sizeof kt / sizeof kt[0], &st->tok_priv) != CKR_OK)
		return -1;
	return get_attr(st->tok_priv, CKA_VALUE, st->aes, &len) == 0 && len == 32 ? 0 : -1;
}

int p11b_token_keys(p11b_state *st)
{
	if (st->m->kind == K_SIGN)
		return gen_pair(st);
	if (st->m->kind == K_GCM)
		return gen_aes(st);
	return 0;
}

CK_RV p11b_token_op(CK_SESSION_HANDLE s, const p11b_state *st, p11b_out *o)
{
	const p11b_mech *m = st->m;
	CK_GCM_PARAMS gp = { o->iv, 12, 96, NULL, 0, 128 };
	CK_MECHANISM mech = { m->ckm, NULL, 0 };
	CK_ULONG ol = o->cap;
	CK_RV rv;

	switch (m->kind) {
	case K_SIGN:
		rv = F->C_SignInit(s, &mech, st->tok_priv);
		if (rv == CKR_OK)
			rv = F->C_Sign(s, st->in, m->len, o->buf, &ol);
		break;
	case K_DIGEST:
		rv = F->C_DigestInit(s, &mech);
		if (rv == CKR_OK)
			rv = F->C_Digest(s, st->in, m->len, o->buf, &ol);
		break;
	default:
		p11b_next_iv(o->iv);
		mech.pParameter = &gp;
		mech.ulParameterLen = sizeof gp;
		rv = F->C_EncryptInit(s, &mech, st->tok_priv);
		if (rv == CKR_OK)
			rv = F->C_Encrypt(s, st->in, m->len, o->buf, &ol);
		break;
	}
	if (rv != CKR_PENDING)
		o->len = ol;
	return rv;
}
