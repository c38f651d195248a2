#!/usr/bin/env bash
# End to end: pkcs11-tool, p11-kit and GnuTLS p11tool against the
# built module, on a fresh token directory.
. "$(dirname "$0")/lib.sh" "$@"

# the vault makes each token's key: a master key first
ok "pvault master new (the vault is unsealed)" pvault master new --out "$E2E_TMP/master.key"

ok "pkcs11-tool -I shows the module" bash -c 'p11 -I | grep -q PixelVault'
ok "pkcs11-tool -L lists an uninitialized slot" bash -c 'p11 -L | grep -q "uninitialized"'
ok "--init-token and --init-pin" init_token e2e
ok "token is listed initialized with a login requirement" \
   bash -c 'p11 -L | grep -A12 "token label *: e2e" | grep -q "login required"'
ok "a new uninitialized slot is still offered" bash -c 'p11 -L | grep -q "uninitialized"'
ok "login with the user PIN" p11_user --list-objects
fails "login with a wrong PIN fails" p11 --token-label e2e --login --pin 00000000 --list-objects

printf 'hello pixelvault\n' >"$E2E_TMP/data.bin"
ok "write a data object" p11_user --write-object "$E2E_TMP/data.bin" --type data \
   --label greeting --application-label demo
ok "read the data object back" bash -c \
   'p11_user --read-object --type data --label greeting --application-label demo -o "$E2E_TMP/out.bin" && cmp "$E2E_TMP/data.bin" "$E2E_TMP/out.bin"'

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$E2E_TMP/k.pem" \
  -subj /CN=pixelvault-e2e -days 2 -outform DER -out "$E2E_TMP/cert.der" 2>/dev/null
ok "write a certificate" p11_user --write-object "$E2E_TMP/cert.der" --type cert --id 0a0b --label cert1
ok "read the certificate back byte for byte" bash -c \
   'p11_user --read-object --type cert --id 0a0b -o "$E2E_TMP/cert.out" && cmp "$E2E_TMP/cert.der" "$E2E_TMP/cert.out"'
ok "list objects shows both" bash -c 'p11_user --list-objects | grep -q greeting && p11_user --list-objects | grep -q cert1'
ok "delete the data object" p11_user --delete-object --type data --label greeting --application-label demo
fails "the data object is gone" p11_user --read-object --type data --label greeting --application-label demo -o "$E2E_TMP/gone.bin"

# p11-kit and GnuTLS through the .module file
register_p11kit
ok "p11-kit list-modules shows the token" bash -c 'as_user p11-kit list-modules | grep -A20 "^pixelvault" | grep -q "token: e2e"'
# Debian 12's p11-kit (0.24) has no list-objects; p11-kit-proxy.so is how
# applications reach registered modules, so read the objects through it.
PROXY=$(ls ${E2E_SYSROOT:+"$E2E_SYSROOT"/usr/lib/*/p11-kit-proxy.so} /usr/lib/*/p11-kit-proxy.so 2>/dev/null | head -1)
ok "objects visible through p11-kit-proxy.so" bash -c \
   "as_user pkcs11-tool --module '$PROXY' --token-label e2e --list-objects | grep -q cert1"
ok "GnuTLS p11tool --list-tokens shows the token" bash -c 'as_user p11tool --list-tokens | grep -q "Label: e2e"'
ok "GnuTLS p11tool lists the certificate" bash -c 'as_user p11tool --list-all-certs "pkcs11:token=e2e" | grep -q cert1'

done_testing
