#!/usr/bin/env bash
# End to end: key pairs generated in the vault through pkcs11-tool
# (RSA-2048, EC P-256, Ed25519), signatures checked by pkcs11-tool and by
# OpenSSL against the token's public objects, RSA decryption of an OpenSSL
# ciphertext, ssh-keygen -D, pkcs11-tool --test and --test-ec.
. "$(dirname "$0")/lib.sh" "$@"

T=$E2E_TMP
PV=$BUILD_DIR/provisioning/pvault
ok "pvault master new (the vault is unsealed)" "$PV" master new --out "$T/master.key"
ok "--init-token and --init-pin" init_token e2e
printf 'sign me, pixelvault\n' >"$T/msg"

# RSA-2048
ok "keypairgen RSA:2048" p11_user --keypairgen --key-type rsa:2048 --id 01 --label rsa
ok "private and public objects share CKA_ID 01" bash -c \
   'p11_user --list-objects --type privkey | grep -q "ID: *01" && p11_user --list-objects --type pubkey | grep -q "ID: *01"'
ok "export the RSA public key" bash -c \
   'p11 --token-label e2e --read-object --type pubkey --id 01 -o "$E2E_TMP/rsa.der" &&
    openssl pkey -pubin -inform DER -in "$E2E_TMP/rsa.der" -out "$E2E_TMP/rsa.pem"'
ok "sign SHA256-RSA-PKCS" p11_user --sign --id 01 -m SHA256-RSA-PKCS -i "$T/msg" -o "$T/rsa.sig"
ok "OpenSSL verifies the RSA signature" \
   openssl dgst -sha256 -verify "$T/rsa.pem" -signature "$T/rsa.sig" "$T/msg"
ok "pkcs11-tool --verify the RSA signature" \
   p11_user --verify --id 01 -m SHA256-RSA-PKCS -i "$T/msg" --signature-file "$T/rsa.sig"
ok "sign SHA256-RSA-PKCS-PSS" p11_user --sign --id 01 -m SHA256-RSA-PKCS-PSS -i "$T/msg" -o "$T/pss.sig"
ok "OpenSSL verifies the PSS signature" \
   openssl dgst -sha256 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:-1 \
     -verify "$T/rsa.pem" -signature "$T/pss.sig" "$T/msg"
ok "OpenSSL encrypts (PKCS#1 v1.5), the token decrypts" bash -c \
   'openssl pkeyutl -encrypt -pubin -inkey "$E2E_TMP/rsa.pem" -in "$E2E_TMP/msg" -out "$E2E_TMP/ct" &&
    p11_user --decrypt --id 01 -m RSA-PKCS -i "$E2E_TMP/ct" -o "$E2E_TMP/pt" && cmp "$E2E_TMP/msg" "$E2E_TMP/pt"'
ok "OpenSSL encrypts (OAEP SHA-256), the token decrypts" bash -c \
   'openssl pkeyutl -encrypt -pubin -inkey "$E2E_TMP/rsa.pem" -pkeyopt rsa_padding_mode:oaep \
      -pkeyopt rsa_oaep_md:sha256 -pkeyopt rsa_mgf1_md:sha256 -in "$E2E_TMP/msg" -out "$E2E_TMP/ct2" &&
    p11_user --decrypt --id 01 -m RSA-PKCS-OAEP --hash-algorithm SHA256 --mgf MGF1-SHA256 \
      -i "$E2E_TMP/ct2" -o "$E2E_TMP/pt2" && cmp "$E2E_TMP/msg" "$E2E_TMP/pt2"'

# EC P-256
ok "keypairgen EC:prime256v1" p11_user --keypairgen --key-type EC:prime256v1 --id 02 --label p256
ok "export the P-256 public key" bash -c \
   'pubkey_pem e2e 02 "$E2E_TMP/p256.pem" "$USER_PIN" &&
    openssl pkey -pubin -in "$E2E_TMP/p256.pem" -noout -text | grep -q "NIST CURVE: P-256"'
ok "sign ECDSA-SHA256" p11_user --sign --id 02 -m ECDSA-SHA256 --signature-format openssl \
   -i "$T/msg" -o "$T/ec.sig"
ok "OpenSSL verifies the ECDSA signature" \
   openssl dgst -sha256 -verify "$T/p256.pem" -signature "$T/ec.sig" "$T/msg"
ok "pkcs11-tool --verify the ECDSA signature" \
   p11_user --verify --id 02 -m ECDSA-SHA256 --signature-format openssl -i "$T/msg" --signature-file "$T/ec.sig"

# Ed25519
ok "keypairgen EC:edwards25519" p11_user --keypairgen --key-type EC:edwards25519 --id 03 --label ed
ok "sign EDDSA" p11_user --sign --id 03 -m EDDSA -i "$T/msg" -o "$T/ed.sig"
ok "pkcs11-tool --verify the EdDSA signature" \
   p11_user --verify --id 03 -m EDDSA -i "$T/msg" --signature-file "$T/ed.sig"
# (OpenSSL's check of token Ed25519 signatures is in the p11pk unit suite:
# pkcs11-tool 0.23 cannot export a CKA_EC_POINT that is the raw 32 bytes.)

# OpenSSH and the built-in self test
ok "ssh-keygen -D prints the RSA and ECDSA keys" bash -c \
   'ssh-keygen -D "$MODULE" >"$E2E_TMP/keys.pub" 2>/dev/null; grep -q "^ssh-rsa " "$E2E_TMP/keys.pub" && grep -q "^ecdsa-sha2-nistp256 " "$E2E_TMP/keys.pub"'
ok "pkcs11-tool --test --login" p11_user --test
# --test-ec makes token key pairs: pkcs11-tool 0.23 needs --session-rw for it
ok "pkcs11-tool --test-ec" bash -c \
   'p11_user --session-rw --test-ec --id 77 --key-type EC:prime256v1 2>&1 | tee "$E2E_TMP/test-ec.log" | grep -q "==> OK"'

done_testing
