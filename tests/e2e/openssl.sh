#!/usr/bin/env bash
# Issue 8, OpenSSL 3.0 through libp11's pkcs11 engine (Debian 12 has no
# pkcs11-provider): openssl pkeyutl -sign with pkcs11: URIs (RSA, ECDSA P-256)
# checked by OpenSSL with the exported public keys, a certificate signed by
# the token key, and an openssl s_server whose private key is on the token
# serving one TLS handshake to openssl s_client on 127.0.0.1.
. "$(dirname "$0")/lib.sh" "$@"

T=$E2E_TMP
# (E2E_SYSROOT: where tests/tools/device-phases.sh unpacked the Debian
# packages on the GPU machine, which has no libengine-pkcs11-openssl)
ENGINE=$(ls ${E2E_SYSROOT:+"$E2E_SYSROOT"/usr/lib/*/engines-3/pkcs11.so} /usr/lib/*/engines-3/pkcs11.so 2>/dev/null | head -1)
ok "libp11's engine is installed (libengine-pkcs11-openssl)" test -n "$ENGINE"
# the engine, its module and nothing else, in an OpenSSL config of our own
cat >"$T/openssl.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
engines = engine_section
[engine_section]
pkcs11 = pkcs11_section
[pkcs11_section]
engine_id = pkcs11
dynamic_path = $ENGINE
MODULE_PATH = $MODULE
init = 0
[req]
distinguished_name = dn
[dn]
CNF
export OPENSSL_CONF=$T/openssl.cnf
ENG=(-engine pkcs11 -keyform engine)
RSA_URI="pkcs11:token=e2e;object=ossl-rsa;type=private;pin-value=$USER_PIN"
EC_URI="pkcs11:token=e2e;object=ossl-p256;type=private;pin-value=$USER_PIN"

ok "pvault master new (the vault is unsealed)" pvault master new --out "$T/master.key"
ok "--init-token and --init-pin" init_token e2e
ok "keypairgen RSA:2048 on the token" p11_user --keypairgen --key-type rsa:2048 --id 21 --label ossl-rsa
ok "keypairgen EC:prime256v1 on the token" p11_user --keypairgen --key-type EC:prime256v1 --id 22 --label ossl-p256
ok "export both public keys" bash -c \
   'pubkey_pem e2e 21 "$E2E_TMP/rsa.pem" "$USER_PIN" && pubkey_pem e2e 22 "$E2E_TMP/p256.pem" "$USER_PIN"'

head -c 1000 /dev/urandom >"$T/msg"
openssl dgst -sha256 -binary -out "$T/msg.sha256" "$T/msg"
ok "pkeyutl -sign (RSA PKCS#1, SHA-256) with a pkcs11: URI" \
   openssl pkeyutl -sign "${ENG[@]}" -inkey "$RSA_URI" -pkeyopt digest:sha256 -in "$T/msg.sha256" -out "$T/rsa.sig"
ok "OpenSSL verifies the RSA signature with the public key" \
   openssl dgst -sha256 -verify "$T/rsa.pem" -signature "$T/rsa.sig" "$T/msg"
ok "pkeyutl -sign (ECDSA P-256) with a pkcs11: URI" \
   openssl pkeyutl -sign "${ENG[@]}" -inkey "$EC_URI" -in "$T/msg.sha256" -out "$T/ec.sig"
ok "OpenSSL verifies the ECDSA signature with the public key" \
   openssl dgst -sha256 -verify "$T/p256.pem" -signature "$T/ec.sig" "$T/msg"
fails "pkeyutl -sign with a wrong PIN is refused" \
   openssl pkeyutl -sign "${ENG[@]}" -inkey "pkcs11:token=e2e;object=ossl-rsa;type=private;pin-value=00000000" \
     -pkeyopt digest:sha256 -in "$T/msg.sha256" -out "$T/bad.sig"

# TLS: a self-signed certificate made with the token key, s_server with the
# key on the token, s_client checks the chain; one connection, bounded time.
tls_case() {  # NAME URI PUBPEM
  local name=$1 uri=$2 pub=$3
  ok "$name: req -x509 signs a certificate with the token key" \
     openssl req -new -x509 "${ENG[@]}" -key "$uri" -subj "/CN=127.0.0.1" -days 2 -sha256 -out "$T/$name.crt"
  ok "$name: the certificate carries the token's public key" bash -c \
     "openssl x509 -in '$T/$name.crt' -noout -pubkey | cmp - '$pub'"
  local port=$((20000 + RANDOM % 20000))
  timeout 60 openssl s_server "${ENG[@]}" -key "$uri" -cert "$T/$name.crt" \
    -accept "127.0.0.1:$port" -naccept 1 -www >"$T/$name.srv" 2>&1 &
  local srv=$!
  on_exit "kill $srv 2>/dev/null"
  local i
  for i in $(seq 100); do grep -q ACCEPT "$T/$name.srv" && break; kill -0 $srv 2>/dev/null || break; sleep 0.1; done
  ok "$name: s_server with the key on the token is listening" grep -q ACCEPT "$T/$name.srv"
  ok "$name: s_client completes the handshake and verifies the server" bash -c \
     "printf 'GET / HTTP/1.0\r\n\r\n' | timeout 30 openssl s_client -connect 127.0.0.1:$port -CAfile '$T/$name.crt' \
        -verify_return_error -ign_eof >'$T/$name.cli' 2>&1;
      grep -q 'Verify return code: 0 (ok)' '$T/$name.cli' && grep -q 'HTTP/1.0 200 ok' '$T/$name.cli'"
  wait $srv 2>/dev/null
  ok "$name: s_server exited after the one connection" bash -c "! kill -0 $srv 2>/dev/null"
}
tls_case rsa "$RSA_URI" "$T/rsa.pem"
tls_case p256 "$EC_URI" "$T/p256.pem"

done_testing
