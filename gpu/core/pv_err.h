/*
 * pv_err.h - the one error-code header of PixelVault.
 *
 * Internal functions of every layer return 0 (PV_OK) or one of these
 * negative codes.  The PKCS#11 CK_RV is produced from them in exactly one
 * place: token/tk_rv.c (tk_rv_from_pv).  Lives in gpu/core because that is
 * the lowest layer that returns errors.
 */
#ifndef PV_ERR_H
#define PV_ERR_H

#define PV_OK                 0
#define PV_ERR_GENERAL       -1   /* internal error, should not happen        */
#define PV_ERR_NOMEM         -2   /* allocation failed                        */
#define PV_ERR_ARGS          -3   /* bad argument from the caller             */
#define PV_ERR_MECHANISM     -4   /* mechanism / op unsupported               */
#define PV_ERR_MECH_PARAM    -5   /* bad mechanism parameter (IV, nonce, ...) */
#define PV_ERR_KEY_SIZE      -6   /* key length out of range                  */
#define PV_ERR_KEY_TYPE      -7   /* key type does not fit the mechanism      */
#define PV_ERR_DATA_LEN      -8   /* plaintext / input length invalid         */
#define PV_ERR_ENC_LEN       -9   /* ciphertext length invalid                */
#define PV_ERR_ENC_INVALID  -10   /* ciphertext / padding / tag invalid       */
#define PV_ERR_SIG_INVALID  -11   /* signature does not verify                */
#define PV_ERR_SIG_LEN      -12   /* signature length invalid                 */
#define PV_ERR_BUF_SMALL    -13   /* output buffer too small                  */
#define PV_ERR_WRAPPED      -14   /* wrapped key / blob invalid               */
#define PV_ERR_SEALED       -15   /* vault sealed (no master key / GPU error) */
#define PV_ERR_DEVICE       -16   /* backend device failure                   */
#define PV_ERR_IO           -17   /* file / socket I/O                        */
#define PV_ERR_CONFIG       -18   /* configuration invalid                    */
#define PV_ERR_PERM         -19   /* permission denied                        */
#define PV_ERR_BUSY         -20   /* resource busy / contention, retry        */
#define PV_ERR_NOT_FOUND    -21   /* no such object / key / slot              */
#define PV_ERR_CORRUPT      -22   /* stored data fails its integrity check    */
#define PV_ERR_PUBKEY       -23   /* public key / point invalid               */
#define PV_ERR_DOMAIN       -24   /* curve / parameter set not supported      */
#define PV_ERR_RANDOM       -25   /* DRBG not seeded / entropy failure        */
#define PV_ERR_STATE        -26   /* operation state invalid / unsaveable     */
#define PV_ERR_CANCELED     -27   /* request cancelled                        */
#define PV_ERR_REMOVED      -28   /* daemon gone / connection lost            */
#define PV_ERR_PROTOCOL     -29   /* malformed request or message             */
#define PV_ERR_NOT_LOGGED_IN -30  /* a token-bound key without the user's login */
#define PV_ERR_PIN_INCORRECT -31  /* a PIN record does not open with that PIN */
#define PV_ERR_FULL         -32   /* storage full (disk, store size limit)    */
#define PV_ERR_LOCKED       -33   /* PIN locked: too many failed tries        */
#define PV_ERR_INSECURE     -34   /* secret file open to others / wrong owner */
#define PV_ERR_PASSPHRASE   -35   /* passphrase-protected file, none given    */

#endif /* PV_ERR_H */
