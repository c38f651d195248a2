#!/usr/bin/env bash
# NSS: the module added to a fresh NSS database with modutil, the
# token, its certificate and its private keys listed by certutil (NSS 3.87).
. "$(dirname "$0")/lib.sh" "$@"

T=$E2E_TMP
DB=sql:$T/nssdb
ok "pvault master new (the vault is unsealed)" pvault master new --out "$T/master.key"
ok "--init-token and --init-pin" init_token e2e
ok "keypairgen RSA:2048 on the token" p11_user --keypairgen --key-type rsa:2048 --id 01 --label nss-rsa
ok "keypairgen EC:prime256v1 on the token" p11_user --keypairgen --key-type EC:prime256v1 --id 02 --label nss-p256
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$T/k.pem" \
  -subj /CN=pixelvault-nss -days 2 -outform DER -out "$T/cert.der" 2>/dev/null
ok "write a certificate to the token" p11_user --write-object "$T/cert.der" --type cert --id 0a --label nss-cert

# a fresh NSS database; the token's user PIN in a password file for -f
mkdir -p "$T/nssdb"
printf '%s\n' "$USER_PIN" >"$T/pin.txt"
ok "certutil -N creates an empty NSS database" certutil -N -d "$DB" --empty-password
ok "modutil -add loads the module" \
   modutil -dbdir "$DB" -add pixelvault -libfile "$MODULE" -force
ok "modutil -list shows the module and the token" bash -c \
   "modutil -dbdir '$DB' -list pixelvault >'$T/modlist' && grep -q 'Token Name: e2e' '$T/modlist' && grep -q 'Library file: $MODULE' '$T/modlist'"
ok "certutil -L -h e2e lists the token's certificate" bash -c \
   "certutil -L -d '$DB' -h e2e -f '$T/pin.txt' | grep -q 'e2e:nss-cert'"
ok "certutil -L -n exports it byte for byte" bash -c \
   "certutil -L -d '$DB' -h e2e -n e2e:nss-cert -f '$T/pin.txt' -r -o '$T/cert.out' && cmp '$T/cert.der' '$T/cert.out'"
ok "certutil -K -h e2e lists the RSA and the EC private keys" bash -c \
   "certutil -K -d '$DB' -h e2e -f '$T/pin.txt' >'$T/keys' && grep -q 'rsa.*nss-rsa' '$T/keys' && grep -q 'ec.*nss-p256' '$T/keys'"
fails "certutil -K with a wrong PIN is refused" bash -c \
   "printf '00000000\n' >'$T/bad.txt'; certutil -K -d '$DB' -h e2e -f '$T/bad.txt'"
ok "modutil -delete removes the module" bash -c \
   "modutil -dbdir '$DB' -delete pixelvault -force && ! modutil -dbdir '$DB' -list | grep -q pixelvault"

done_testing
