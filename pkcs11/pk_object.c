/*
 * pk_object.c - object management: C_CreateObject, C_CopyObject,
 * C_DestroyObject, C_GetObjectSize, C_GetAttributeValue,
 * C_SetAttributeValue, C_FindObjectsInit, C_FindObjects,
 * C_FindObjectsFinal.
 */
#include "pkcs11/pk_int.h"
#include "token/tk_pk.h"

CK_RV C_CreateObject(CK_SESSION_HANDLE h, CK_ATTRIBUTE_PTR t, CK_ULONG n,
                     CK_OBJECT_HANDLE_PTR out)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(out != NULL && (t != NULL || n == 0));
	{
		CK_ULONG i;                   /* private keys: token/tk_pk.c */
		for (i = 0; i < n; i++)
			if (t[i].type == CKA_CLASS && t[i].pValue != NULL &&
			    t[i].ulValueLen == sizeof(CK_OBJECT_CLASS) &&
			    *(const CK_OBJECT_CLASS *)t[i].pValue == CKO_PRIVATE_KEY)
				return tk_pk_import(h, t, n, out);
	}
	return tk_create_object(h, t, n, out);
}

CK_RV C_CopyObject(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o, CK_ATTRIBUTE_PTR t,
                   CK_ULONG n, CK_OBJECT_HANDLE_PTR out)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(out != NULL && (t != NULL || n == 0));
	return tk_copy_object(h, o, t, n, out);
}

CK_RV C_DestroyObject(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	return tk_destroy_object(h, o);
}

CK_RV C_GetObjectSize(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o,
                      CK_ULONG_PTR size)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(size != NULL);
	return tk_object_size(h, o, size);
}

CK_RV C_GetAttributeValue(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o,
                          CK_ATTRIBUTE_PTR t, CK_ULONG n)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(t != NULL || n == 0);
	return tk_get_attributes(h, o, t, n);
}

CK_RV C_SetAttributeValue(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o,
                          CK_ATTRIBUTE_PTR t, CK_ULONG n)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(t != NULL || n == 0);
	return tk_set_attributes(h, o, t, n);
}

CK_RV C_FindObjectsInit(CK_SESSION_HANDLE h, CK_ATTRIBUTE_PTR t, CK_ULONG n)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(t != NULL || n == 0);
	return tk_find_init(h, t, n);
}

CK_RV C_FindObjects(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE_PTR out,
                    CK_ULONG max, CK_ULONG_PTR count)
{
	PK_CHECK_INIT();
	PK_CHECK_SESSION(h);
	PK_CHECK_ARG(out != NULL && count != NULL);
	return tk_find(h, out, max, count);
}

CK_RV C_FindObjectsFinal(CK_SESSION_HANDLE h)
{
	PK_CHECK_INIT();
	return tk_find_final(h);
}
