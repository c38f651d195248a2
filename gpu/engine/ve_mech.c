/*
 * ve_mech.c - what each vault mechanism needs: hash, block cipher, mode,
 * key type.  Branches on the (public) mechanism number only.
 */
#include "ve_internal.h"

KC_API uint32_t ve_mech_hash(uint32_t mech)
{
	uint32_t lo = mech & 0xffu;
	uint32_t hi = mech & 0xff00u;

	if ((hi == 0x0300u || hi == 0x0400u) && lo >= (uint32_t)KC_HASH_SHA1 &&
	    lo <= (uint32_t)KC_HASH_SM3)
		return lo;
	return 0u;
}

KC_API uint32_t ve_mech_bc(uint32_t mech)
{
	switch (mech & 0xff00u) {
	case 0x0100u: return (uint32_t)KC_BC_AES;
	case 0x0200u: return (uint32_t)KC_BC_SM4;
	default: return 0u;
	}
}

KC_API uint32_t ve_mech_mode(uint32_t mech)
{
	switch (mech) {
	case PV_MECH_AES_ECB: case PV_MECH_SM4_ECB: return VE_MODE_ECB;
	case PV_MECH_AES_CBC: case PV_MECH_SM4_CBC: return VE_MODE_CBC;
	case PV_MECH_AES_CBC_PAD: case PV_MECH_SM4_CBC_PAD: return VE_MODE_CBC_PAD;
	case PV_MECH_AES_CTR: case PV_MECH_SM4_CTR: return VE_MODE_CTR;
	case PV_MECH_AES_CFB128: case PV_MECH_SM4_CFB128: return VE_MODE_CFB;
	case PV_MECH_AES_GCM: case PV_MECH_SM4_GCM: return VE_MODE_GCM;
	case PV_MECH_AES_KEY_WRAP: return VE_MODE_KW;
	case PV_MECH_AES_KEY_WRAP_KWP: return VE_MODE_KWP;
	case PV_MECH_AES_CMAC: case PV_MECH_SM4_CMAC: return VE_MODE_CMAC;
	case PV_MECH_AES_KEY_GEN: case PV_MECH_SM4_KEY_GEN:
	case PV_MECH_GENERIC_KEY_GEN: return VE_MODE_KEYGEN;
	case PV_MECH_HKDF: return VE_MODE_HKDF;
	default:
		break;
	}
	if (ve_mech_hash(mech) != 0u)
		return (mech & 0xff00u) == 0x0300u ? VE_MODE_DIGEST : VE_MODE_HMAC;
	return VE_MODE_NONE;
}

KC_API uint32_t ve_mech_key_type(uint32_t mech)
{
	switch (ve_mech_mode(mech)) {
	case VE_MODE_ECB: case VE_MODE_CBC: case VE_MODE_CBC_PAD: case VE_MODE_CTR:
	case VE_MODE_CFB: case VE_MODE_GCM: case VE_MODE_KW: case VE_MODE_KWP:
	case VE_MODE_CMAC: case VE_MODE_KEYGEN:
		if (mech == PV_MECH_GENERIC_KEY_GEN)
			return PV_KEY_GENERIC;
		return ve_mech_bc(mech) == (uint32_t)KC_BC_AES ? PV_KEY_AES : PV_KEY_SM4;
	case VE_MODE_HMAC: case VE_MODE_HKDF:
		return PV_KEY_GENERIC;
	default:
		return 0u;
	}
}
