/* ts_ossl.c - see ts_ossl.h. */
#include "ts_ossl.h"

int ts_ossl_crypt(const EVP_CIPHER *c, int enc, int pad, const uint8_t *k,
                  const uint8_t *iv, size_t ivl, const uint8_t *aad,
                  size_t al, size_t tl, const uint8_t *in, size_t n,
                  uint8_t *out, size_t *ol)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ok, gcm = EVP_CIPHER_get_mode(c) == EVP_CIPH_GCM_MODE;

	ok = x != NULL && EVP_CipherInit_ex(x, c, NULL, NULL, NULL, enc);
	if (ok && gcm)
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IVLEN, (int)ivl, NULL);
	ok = ok && EVP_CipherInit_ex(x, NULL, NULL, k, iv, enc);
	ok = ok && EVP_CIPHER_CTX_set_padding(x, pad);
	if (ok && gcm && al > 0)
		ok = EVP_CipherUpdate(x, NULL, &l1, aad, (int)al);
	if (ok && gcm && !enc) {
		if (n < tl) {
			ok = 0;
		} else {
			n -= tl;
			ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_TAG, (int)tl,
			                         (void *)(in + n));
		}
	}
	ok = ok && EVP_CipherUpdate(x, out, &l1, in, (int)n);
	ok = ok && EVP_CipherFinal_ex(x, out + l1, &l2);
	*ol = (size_t)(l1 + l2);
	if (ok && gcm && enc) {
		ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, (int)tl, out + *ol);
		*ol += tl;
	}
	EVP_CIPHER_CTX_free(x);
	return ok;
}
