#!/usr/bin/env bash
# GnuTLS 3.7: p11tool through p11-kit (the module registered in the
# user's p11-kit config): --list-all, the private keys after login, and
# --test-sign with RSA and ECDSA P-256 keys generated on the token.
. "$(dirname "$0")/lib.sh" "$@"

T=$E2E_TMP
ok "pvault master new (the vault is unsealed)" pvault master new --out "$T/master.key"
ok "--init-token and --init-pin" init_token e2e
ok "keypairgen RSA:2048 on the token" p11_user --keypairgen --key-type rsa:2048 --id 11 --label gt-rsa
ok "keypairgen EC:prime256v1 on the token" p11_user --keypairgen --key-type EC:prime256v1 --id 12 --label gt-p256
register_p11kit

ok "p11tool --list-tokens shows the token" bash -c \
   'as_user p11tool --list-tokens | grep -q "Label: e2e"'
ok "p11tool --list-all shows the public keys" bash -c \
   "as_user p11tool --list-all 'pkcs11:token=e2e' | tee '$T/all' | grep -q 'object=gt-rsa' && grep -q 'object=gt-p256' '$T/all'"
ok "p11tool --list-all does not show private keys without login" bash -c \
   "! grep -q 'type=private' '$T/all'"
ok "p11tool --login --list-all-privkeys shows both private keys" bash -c \
   "as_user p11tool --login --set-pin='$USER_PIN' --list-all-privkeys 'pkcs11:token=e2e' | tee '$T/priv' | grep -q 'object=gt-rsa;type=private' && grep -q 'object=gt-p256;type=private' '$T/priv'"
ok "p11tool --test-sign with the RSA key" bash -c \
   "as_user p11tool --login --set-pin='$USER_PIN' --test-sign 'pkcs11:token=e2e;object=gt-rsa' 2>&1 | tee '$T/ts1'; grep -q 'Signing using.*\.\.\. ok' '$T/ts1' && grep -q 'Verifying against public key in the token\.\.\. ok' '$T/ts1'"
ok "p11tool --test-sign with the ECDSA P-256 key" bash -c \
   "as_user p11tool --login --set-pin='$USER_PIN' --test-sign 'pkcs11:token=e2e;object=gt-p256' 2>&1 | tee '$T/ts2'; grep -q 'Signing using.*\.\.\. ok' '$T/ts2' && grep -q 'Verifying against public key in the token\.\.\. ok' '$T/ts2'"
fails "p11tool --test-sign with a wrong PIN is refused" bash -c \
   "as_user p11tool --login --set-pin=00000000 --test-sign 'pkcs11:token=e2e;object=gt-rsa'"

done_testing
