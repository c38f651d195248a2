/*
 * tk_util.c - small helpers of the token layer: in-memory objects, object
 * handles, randomness, configuration, the model string, the signature of
 * a signature-first verification.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "gpu/core/kc_util.h"
#include "gpu/core/pv_err.h"
#include "gpu/host/pv_conf.h"
#include "gpu/host/pv_os_random.h"
#include "token/tk_crypto.h"
#include "token/tk_int.h"

const char *tk_model(void)
{
	/* The backend that serves the token (the vault, opened on first use). */
	return tk_vault_hw() ? "PixelVault GPU" : "PixelVault CPU";
}

CK_RV tk_vsig_keep(tk_vsig *v, int kind, const uint8_t *sig, size_t len)
{
	if (kind != TK_OPK_VERIFY_SIG)
		return CKR_OK;
	if (len > TK_SIG_MAX)
		return CKR_SIGNATURE_LEN_RANGE;
	v->sig = malloc(len + 1);           /* + 1: non-NULL (the style) for 0 bytes too */
	if (v->sig == NULL)
		return CKR_HOST_MEMORY;
	if (len > 0)
		memcpy(v->sig, sig, len);
	v->len = len;
	return CKR_OK;
}

int tk_vsig_fits(const tk_vsig *v, int kind)
{
	return TK_KIND(kind) != TK_OPK_VERIFY || (v->sig != NULL) == ((kind & TK_VSIG) != 0);
}

void tk_vsig_clear(tk_vsig *v)
{
	if (v->sig != NULL) {
		kc_wipe(v->sig, v->len);
		free(v->sig);
	}
	v->sig = NULL;
	v->len = 0;
}

static int tk_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void tk_hex_encode(const uint8_t *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15u];
	}
	out[2 * n] = '\0';
}

int tk_hex_decode(const char *hex, uint8_t *out, size_t n)
{
	size_t i;
	int hi, lo;

	if (hex == NULL || strlen(hex) != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		hi = tk_hex_digit(hex[2 * i]);
		lo = tk_hex_digit(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

int tk_random(void *p, size_t n)
{
	return pv_os_random(p, n);
}

int tk_conf_token_dir(char *out, size_t cap)
{
	pv_conf c;
	int rc = pv_conf_load(&c);

	if (rc < 0)
		return rc;
	if (c.token_dir[0] == '\0' || strlen(c.token_dir) >= cap)
		return PV_ERR_CONFIG;
	memcpy(out, c.token_dir, strlen(c.token_dir) + 1);
	return PV_OK;
}

/* ---- handles ---- */
#define TK_OID_BITS 40

CK_OBJECT_HANDLE tk_handle_token(const tk_slot *s, int64_t oid)
{
	return ((CK_OBJECT_HANDLE)(s->id & 0xffffu) << TK_OID_BITS) |
	       (CK_OBJECT_HANDLE)oid;
}

int tk_handle_is_session(CK_OBJECT_HANDLE h)
{
	return (h & TK_HANDLE_SESSION_BIT) != 0;
}

int64_t tk_handle_oid(const tk_slot *s, CK_OBJECT_HANDLE h)
{
	if (tk_handle_is_session(h))
		return 0;
	if ((h >> TK_OID_BITS) != (s->id & 0xffffu))
		return 0;
	return (int64_t)(h & (((CK_OBJECT_HANDLE)1 << TK_OID_BITS) - 1));
}

/* ---- objects ---- */
tk_obj *tk_obj_new(void)
{
	tk_obj *o = calloc(1, sizeof *o);

	if (o != NULL)
		o->refs = 1;
	return o;
}

tk_obj *tk_obj_ref(tk_obj *o)
{
	__atomic_add_fetch(&o->refs, 1, __ATOMIC_RELAXED);
	return o;
}

void tk_obj_free(tk_obj *o)
{
	size_t i;

	if (o == NULL)
		return;
	/* release: this holder's reads happen before the last holder frees */
	if (__atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	for (i = 0; i < o->n; i++)
		free(o->a[i].val);
	free(o->a);
	free(o);
}

tk_attr *tk_obj_attr(const tk_obj *o, CK_ATTRIBUTE_TYPE t)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (o->a[i].type == t)
			return &o->a[i];
	return NULL;
}

CK_BBOOL tk_obj_bool(const tk_obj *o, CK_ATTRIBUTE_TYPE t, CK_BBOOL dflt)
{
	const tk_attr *a = tk_obj_attr(o, t);

	if (a == NULL || a->len != sizeof(CK_BBOOL))
		return dflt;
	return a->val[0] ? CK_TRUE : CK_FALSE;
}

CK_ULONG tk_obj_ulong(const tk_obj *o, CK_ATTRIBUTE_TYPE t, CK_ULONG dflt)
{
	const tk_attr *a = tk_obj_attr(o, t);
	CK_ULONG v;

	if (a == NULL || a->len != sizeof(CK_ULONG))
		return dflt;
	memcpy(&v, a->val, sizeof v);
	return v;
}

int tk_obj_set(tk_obj *o, CK_ATTRIBUTE_TYPE t, const void *v, CK_ULONG len)
{
	tk_attr *a = tk_obj_attr(o, t);
	uint8_t *copy = NULL;

	if (len > 0) {
		copy = malloc(len);
		if (copy == NULL)
			return PV_ERR_NOMEM;
		memcpy(copy, v, len);
	}
	if (a == NULL) {
		tk_attr *na = realloc(o->a, (o->n + 1) * sizeof *na);
		if (na == NULL) {
			free(copy);
			return PV_ERR_NOMEM;
		}
		o->a = na;
		a = &o->a[o->n++];
	} else {
		free(a->val);
	}
	a->type = t;
	a->len = len;
	a->val = copy;
	return PV_OK;
}

/* (o's attributes are distinct: copied in one pass, the array allocated
 * once) */
tk_obj *tk_obj_dup(const tk_obj *o)
{
	tk_obj *c = tk_obj_new();
	size_t i;

	if (c == NULL)
		return NULL;
	c->h = o->h;
	c->owner = o->owner;
	memcpy(c->uid, o->uid, sizeof c->uid);
	if (o->n > 0 && (c->a = calloc(o->n, sizeof *c->a)) == NULL) {
		free(c);
		return NULL;
	}
	for (i = 0; i < o->n; i++, c->n++) {
		c->a[i].type = o->a[i].type;
		c->a[i].len = o->a[i].len;
		if (o->a[i].len > 0) {
			if ((c->a[i].val = malloc(o->a[i].len)) == NULL) {
				tk_obj_free(c);
				return NULL;
			}
			memcpy(c->a[i].val, o->a[i].val, o->a[i].len);
		}
	}
	return c;
}

int tk_tmpl_has_dup(const CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_ULONG i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (t[i].type == t[j].type)
				return 1;
	return 0;
}

int tk_obj_match(const tk_obj *o, const CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_ULONG i;

	for (i = 0; i < n; i++) {
		const tk_attr *a = tk_obj_attr(o, t[i].type);
		if (a == NULL || a->len != t[i].ulValueLen)
			return 0;
		if (a->len > 0 && (t[i].pValue == NULL ||
		                   memcmp(a->val, t[i].pValue, a->len) != 0))
			return 0;
	}
	return 1;
}

void tk_dirname(const char *path, char *out, size_t cap)
{
	char *sl;

	snprintf(out, cap, "%s", path);
	sl = strrchr(out, '/');
	if (sl == NULL)
		snprintf(out, cap, ".");
	else if (sl == out)
		sl[1] = '\0';
	else
		*sl = '\0';
}

int tk_dir_lock(const char *token_dir, int wait_ms, int *fd)
{
	char p[4400];
	int waited = 0, busy;

	snprintf(p, sizeof p, "%s/.lock", token_dir);
	*fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (*fd < 0)
		return errno == EACCES || errno == EPERM || errno == EROFS ? PV_ERR_PERM : PV_ERR_IO;
	while (flock(*fd, wait_ms == TK_DIR_LOCK_BLOCK ? LOCK_EX : LOCK_EX | LOCK_NB) != 0) {
		busy = errno == EWOULDBLOCK;
		if (!busy || waited >= wait_ms) {
			close(*fd);
			*fd = -1;
			return busy ? PV_ERR_BUSY : PV_ERR_IO;
		}
		usleep(100000);
		waited += 100;
	}
	return PV_OK;
}

void tk_dir_unlock(int fd)
{
	if (fd >= 0)
		close(fd);                  /* releases the flock */
}
