/*
 * find_bench.c - C_FindObjects on a token holding 10,000 objects, by
 * CKA_ID, by CKA_LABEL, and by CKA_CLASS + CKA_ID, through the module's
 * real ABI.  One lookup = C_FindObjectsInit + C_FindObjects +
 * C_FindObjectsFinal, finding exactly one object (checked).
 *
 *   find_bench [objects] [lookups]      (defaults 10000, 5000)
 *
 * Populating the token costs one durable transaction per object
 * (C_CreateObject); that rate is printed too.  Results go in
 * docs/bench/find-objects.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pkt.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static CK_OBJECT_CLASS c_pub = CKO_PUBLIC_KEY, c_cert = CKO_CERTIFICATE;
static CK_KEY_TYPE k_ec = CKK_EC;
static CK_BYTE p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static CK_BBOOL T = CK_TRUE;
static CK_CERTIFICATE_TYPE x509 = CKC_X_509;

enum { BY_ID, BY_LABEL, BY_CLASS_ID };
static const char *const kind_name[] = {
	"CKA_ID", "CKA_LABEL", "CKA_CLASS+CKA_ID",
};

static int run(CK_SESSION_HANDLE h, int kind, unsigned nobj, unsigned nlook,
               double *lat)
{
	unsigned k;

	for (k = 0; k < nlook; k++) {
		unsigned i = (unsigned)rand() % nobj;
		CK_BYTE id[4] = { (CK_BYTE)(i >> 24), (CK_BYTE)(i >> 16),
		                  (CK_BYTE)(i >> 8), (CK_BYTE)i };
		char lbl[32];
		CK_ATTRIBUTE t[2];
		CK_ULONG n = 0, cnt = 0;
		CK_OBJECT_HANDLE out[4];
		double t0;

		snprintf(lbl, sizeof lbl, "bench-object-%06u", i);
		switch (kind) {
		case BY_ID:
			t[0].type = CKA_ID; t[0].pValue = id; t[0].ulValueLen = 4;
			n = 1;
			break;
		case BY_LABEL:
			t[0].type = CKA_LABEL; t[0].pValue = lbl;
			t[0].ulValueLen = strlen(lbl);
			n = 1;
			break;
		default:
			t[0].type = CKA_CLASS; t[0].pValue = (i % 2) ? &c_cert : &c_pub;
			t[0].ulValueLen = sizeof(CK_OBJECT_CLASS);
			t[1].type = CKA_ID; t[1].pValue = id; t[1].ulValueLen = 4;
			n = 2;
		}
		t0 = now_us();
		if (pkt_f->C_FindObjectsInit(h, t, n) != CKR_OK ||
		    pkt_f->C_FindObjects(h, out, 4, &cnt) != CKR_OK ||
		    pkt_f->C_FindObjectsFinal(h) != CKR_OK)
			return -1;
		lat[k] = now_us() - t0;
		if (cnt != 1)
			return -2;
	}
	return 0;
}

static unsigned nobj = 10000, nlook = 5000;

/* Runs as one CUnit test so the setup helpers' assertions count. */
static void bench(void)
{
	double *lat = calloc(nlook, sizeof *lat), t0, tcreate;
	CK_SESSION_HANDLE h;
	CK_SLOT_ID slot;
	CK_BYTE der[600];
	unsigned i;
	int kind;

	CU_ASSERT_FATAL(lat != NULL);
	CU_ASSERT_FATAL(pkt_f->C_Initialize(NULL) == CKR_OK);
	slot = pkt_new_token("bench", 0);
	h = pkt_open(slot, 1);
	memset(der, 0x30, sizeof der);

	/* populate: half EC public keys, half certificates, each pair of
	 * lookups' targets with its own CKA_ID and label */
	t0 = now_us();
	for (i = 0; i < nobj; i++) {
		CK_BYTE id[4] = { (CK_BYTE)(i >> 24), (CK_BYTE)(i >> 16),
		                  (CK_BYTE)(i >> 8), (CK_BYTE)i };
		char lbl[32];
		CK_OBJECT_HANDLE o;
		CK_ATTRIBUTE data[] = {
			{ CKA_CLASS, &c_pub, sizeof c_pub }, { CKA_TOKEN, &T, 1 },
			{ CKA_KEY_TYPE, &k_ec, sizeof k_ec },
			{ CKA_ID, id, 4 }, { CKA_LABEL, lbl, 0 },
			{ CKA_EC_PARAMS, p256, sizeof p256 },
			{ CKA_EC_POINT, der, 67 },
		};
		CK_ATTRIBUTE cert[] = {
			{ CKA_CLASS, &c_cert, sizeof c_cert }, { CKA_TOKEN, &T, 1 },
			{ CKA_CERTIFICATE_TYPE, &x509, sizeof x509 },
			{ CKA_ID, id, 4 }, { CKA_LABEL, lbl, 0 },
			{ CKA_SUBJECT, "subject", 7 }, { CKA_VALUE, der, sizeof der },
		};
		snprintf(lbl, sizeof lbl, "bench-object-%06u", i);
		data[4].ulValueLen = cert[4].ulValueLen = strlen(lbl);
		if ((i % 2 ? pkt_f->C_CreateObject(h, cert, 7, &o)
		           : pkt_f->C_CreateObject(h, data, 7, &o)) != CKR_OK) {
			CU_FAIL_FATAL("C_CreateObject failed");
		}
	}
	tcreate = now_us() - t0;
	printf("populate: %u objects in %.1f s (%.0f C_CreateObject/s, one"
	       " durable transaction each)\n", nobj, tcreate / 1e6,
	       nobj / (tcreate / 1e6));
	srand(12345);
	for (kind = BY_ID; kind <= BY_CLASS_ID; kind++) {
		double sum = 0;
		int r = run(h, kind, nobj, nlook, lat);
		if (r != 0) {
			fprintf(stderr, "lookup by %s failed (%d)\n", kind_name[kind], r);
			CU_FAIL("lookup failed or found a wrong number of objects");
			continue;
		}
		for (i = 0; i < nlook; i++)
			sum += lat[i];
		qsort(lat, nlook, sizeof *lat, cmp_d);
		printf("find by %-17s %u lookups on %u objects: mean %.1f us,"
		       " median %.1f us, p99 %.1f us\n", kind_name[kind], nlook,
		       nobj, sum / nlook, lat[nlook / 2], lat[nlook * 99 / 100]);
	}
	CU_ASSERT(pkt_f->C_CloseSession(h) == CKR_OK);
	CU_ASSERT(pkt_f->C_Finalize(NULL) == CKR_OK);
	free(lat);
}

int main(int argc, char **argv)
{
	CU_pSuite s;

	if (argc > 1)
		nobj = (unsigned)atoi(argv[1]);
	if (argc > 2)
		nlook = (unsigned)atoi(argv[2]);
	if (nobj == 0 || nlook == 0)
		return 2;
	pkt_setup();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("find_bench", NULL, NULL);
	CU_add_test(s, "C_FindObjects on a large token", bench);
	return ts_run();
}
