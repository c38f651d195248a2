/*
 * pixelvault/pkcs11-vendor.h - PixelVault's vendor-defined PKCS#11
 * constants: the one definition for the module, the token layer, pvault and
 * the tests, and installed for applications (beside pkcs11.h).
 *
 * SM2/SM3/SM4 have no standard PKCS#11 values.  Ours live in the vendor
 * range under the prefix 0x8050_56xx ('P','V').  docs/mechanisms.md lists
 * them with the values some HSM vendors and toolkits use, which the module
 * accepts as aliases (PV_ALIAS_XIPKI_BASE below).
 */
#ifndef PIXELVAULT_PKCS11_VENDOR_H
#define PIXELVAULT_PKCS11_VENDOR_H

#define PV_VENDOR_BASE            0x80505600UL

/* key types */
#define CKK_PV_SM2                (PV_VENDOR_BASE | 0x01UL)
#define CKK_PV_SM4                (PV_VENDOR_BASE | 0x02UL)

/* mechanisms */
#define CKM_PV_SM2_KEY_PAIR_GEN   (PV_VENDOR_BASE | 0x01UL)
#define CKM_PV_SM2                (PV_VENDOR_BASE | 0x02UL) /* sign/verify a caller-computed e = SM3(Z||M) */
#define CKM_PV_SM2_SM3            (PV_VENDOR_BASE | 0x03UL) /* sign/verify a message: Z (default or param ID) + SM3 */
#define CKM_PV_SM2_ENCRYPT        (PV_VENDOR_BASE | 0x04UL) /* C1||C3||C2 */
#define CKM_PV_SM3                (PV_VENDOR_BASE | 0x05UL)
#define CKM_PV_SM4_KEY_GEN        (PV_VENDOR_BASE | 0x06UL)
#define CKM_PV_SM4_ECB            (PV_VENDOR_BASE | 0x07UL)
#define CKM_PV_SM4_CBC            (PV_VENDOR_BASE | 0x08UL)
#define CKM_PV_SM3_HMAC           (PV_VENDOR_BASE | 0x20UL)
#define CKM_PV_SM4_CBC_PAD        (PV_VENDOR_BASE | 0x0BUL)
#define CKM_PV_SM4_CTR            (PV_VENDOR_BASE | 0x21UL)
#define CKM_PV_SM4_GCM            (PV_VENDOR_BASE | 0x0DUL)

/* Aliases accepted on input: the generic vendor codes of the IAIK/xipki
 * PKCS#11 wrappers (0xFFFFF0xx), which several HSM configurations map to:
 * their low byte equals ours for 0x01..0x08, 0x0B and 0x0D (same meaning). */
#define PV_ALIAS_XIPKI_BASE       0xFFFFF000UL

#endif
