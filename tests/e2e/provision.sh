#!/usr/bin/env bash
# End to end: from an empty directory to a token that pkcs11-tool
# signs with, provisioned with pvault only; then the error paths, each of
# which must print one message, exit non-zero and leave the store unchanged.
. "$(dirname "$0")/lib.sh" "$@"

. "$(dirname "$0")/pvault_lib.sh"
pv() { "$PV" "$@"; }

ok "the token directory starts empty" bash -c '! ls "$T/tokens" 2>/dev/null | grep -q .'
ok "pvault master new writes a 0400 key file" bash -c \
   "'$PV' master new --out '$T/master.key' && test \"\$(stat -c %a '$T/master.key')\" = 400"
ok "pvault master check accepts it" pv master check "$T/master.key"
ok "pvault token init (PINs from the environment)" pv token init --label prov \
   --so-pin-env SO_PIN --pin-env USER_PIN
ok "pvault token list shows the token with the master fingerprint" bash -c \
   "fpr=\$('$PV' master check '$T/master.key' | awk '{print \$NF}'); '$PV' token list | grep -E \"prov +0 +\$fpr\""
ok "a second token with the same label is refused" bash -c \
   "! '$PV' token init --label prov --so-pin-env SO_PIN --pin-env USER_PIN"

openssl rand 32 >"$T/hmac.key"; HKEY=$(hexof "$T/hmac.key")
openssl rand 32 >"$T/aes.key"; AKEY=$(hexof "$T/aes.key")
ok "pvault key import: generic secret for HMAC" pv key import --token prov --pin-env USER_PIN \
   --type generic --in "$T/hmac.key" --label mac1 --id 01
ok "pvault key import: AES-256" pv key import --token prov --pin-env USER_PIN \
   --type aes --in "$T/aes.key" --label aes1 --id 02
ok "pvault key import refuses a used label" bash -c \
   "! '$PV' key import --token prov --pin-env USER_PIN --type aes --in '$T/aes.key' --label aes1"
ok "pvault key import refuses a bad AES length" bash -c \
   "head -c 20 /dev/urandom >'$T/bad.key'; ! '$PV' key import --token prov --pin-env USER_PIN --type aes --in '$T/bad.key' --label bad"
ok "pvault key list shows both keys" bash -c \
   "out=\$('$PV' key list --token prov --pin-env USER_PIN); echo \"\$out\" | grep -qE 'secret +GENERIC +256 +01 +mac1' && echo \"\$out\" | grep -qE 'secret +AES +256 +02 +aes1'"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout /dev/null \
  -subj "/CN=prov.example" -days 30 -out "$T/prov.crt" 2>/dev/null
ok "pvault key import --type cert beside the key with the same CKA_ID" bash -c \
   '"$PV" key import --token prov --pin-env USER_PIN --type cert --in "$T/prov.crt" --label prov-cert --id 01 |
    grep -q "beside the key"'
ok "pkcs11-tool reads the certificate back byte for byte" bash -c \
   'p11 --token-label prov --read-object --type cert --id 01 -o "$T/c.der" && openssl x509 -in "$T/prov.crt" -outform DER | cmp - "$T/c.der"'
ok "a second certificate for the same id, or a non-certificate, is refused" bash -c \
   '! "$PV" key import --token prov --pin-env USER_PIN --type cert --in "$T/prov.crt" --label c2 --id 01 &&
    ! "$PV" key import --token prov --pin-env USER_PIN --type cert --in "$T/hmac.key" --label c3 --id 03'
ok "pvault token info counts two secret keys and two blobs" bash -c \
   "'$PV' token info prov | grep -q 'secret keys 2,.*certificates 1,.*2 wrapped blobs'"
ok "pvault status: unsealed, token usable" bash -c "'$PV' status | grep -q 'usable with the loaded master key'"

head -c 3000 /dev/urandom >"$T/msg.bin"
export PV_TOKEN_LABEL=prov MODULE
export -f p11 p11_user
ok "pkcs11-tool signs with the imported HMAC key = openssl" bash -c \
   'p11_user --sign -m SHA256-HMAC --label mac1 -i "$T/msg.bin" -o "$T/mac.p11" &&
    openssl mac -digest SHA256 -macopt hexkey:'"$HKEY"' -binary -in "$T/msg.bin" HMAC | cmp - "$T/mac.p11"'
ok "pkcs11-tool verifies the MAC" p11_user --verify -m SHA256-HMAC --label mac1 \
   -i "$T/msg.bin" --signature-file "$T/mac.p11"
ok "pkcs11-tool AES-CBC-PAD with the imported key = openssl" bash -c \
   'IV=$(openssl rand -hex 16);
    p11_user --encrypt -m AES-CBC-PAD --id 02 --iv $IV -i "$T/msg.bin" -o "$T/ct.p11" &&
    openssl enc -aes-256-cbc -K '"$AKEY"' -iv $IV -in "$T/msg.bin" | cmp - "$T/ct.p11"'

# ---- error paths: one message, non-zero exit, store unchanged ----
# (a wrong PIN is counted in the store, as PKCS#11 lockout requires)
ok "wrong user PIN: one clear message, non-zero exit" bash -c \
   "out=\$(USER_PIN=00000000 '$PV' key import --token prov --pin-env USER_PIN --type aes --in '$T/aes.key' --label x1 2>&1); [ \$? -ne 0 ] && [ \"\$out\" = 'pvault: login as user: wrong PIN' ]"
cp "$T/master.key" "$T/master.good"
chmod 600 "$T/master.key"
perl -0777 -pi -e 'substr($_, 20, 1) ^= "\xff"' "$T/master.key"   # flip one key byte
unchanged "corrupted master key file: master check" "corrupt|checksum" "$PV" master check "$T/master.key"
unchanged "corrupted master key file: token init refuses" "master key" \
   "$PV" token init --label other --so-pin-env SO_PIN --pin-env USER_PIN
unchanged "corrupted master key file: key import refuses (vault sealed)" "sealed|vault" \
   "$PV" key import --token prov --pin-env USER_PIN --type aes --in "$T/aes.key" --label x2
rm -f "$T/master.key"; "$PV" master new --out "$T/master.key" >/dev/null
ok "wrong master key: pvault status exits 1 and names the key the token needs" bash -c \
   "before=\$(store_hash); '$PV' status >'$T/st.out'; rc=\$?; [ \$rc -eq 1 ] && [ \"\$before\" = \"\$(store_hash)\" ] &&
    grep -q \"NOT usable\" '$T/st.out' && grep -q \"master \$('$PV' master check '$T/master.good' | awk '{print \$NF}')\" '$T/st.out'"
unchanged "wrong master key: key import refuses" "master key" \
   "$PV" key import --token prov --pin-env USER_PIN --type aes --in "$T/aes.key" --label x3
rm -f "$T/master.key"; cp "$T/master.good" "$T/master.key"
cp "$T/master.good" "$T/master.pass.src"
rm -f "$T/master.pp"; MPASS=right "$PV" master new --out "$T/master.pp" --passphrase-env MPASS >/dev/null
unchanged "wrong passphrase: master check" "passphrase" env MPASS=wrong "$PV" master check --passphrase-env MPASS "$T/master.pp"
sed "s|^master_key .*|master_key = $T/master.pp|" "$PIXELVAULT_CONF" >"$T/pp.conf"
unchanged "wrong passphrase of the configured master key: key import refuses" "wrong passphrase" \
   env PIXELVAULT_CONF="$T/pp.conf" PIXELVAULT_MASTER_PASSPHRASE=wrong \
   "$PV" key import --token prov --pin-env USER_PIN --type aes --in "$T/aes.key" --label x4
unchanged "no passphrase for a protected master key: token init refuses" "passphrase" \
   env PIXELVAULT_CONF="$T/pp.conf" "$PV" token init --label pp --so-pin-env SO_PIN --pin-env USER_PIN
ro_setup
unchanged "token directory without write permission: token init" "not writable" \
   as_ro "$PV" token init --label ro --so-pin-env SO_PIN --pin-env USER_PIN
unchanged "token directory without write permission: token delete" "not writable" \
   as_ro "$PV" token delete --yes --so-pin-env SO_PIN prov
ro_teardown
ok "the token still works after the failures" bash -c \
   'p11_user --sign -m SHA256-HMAC --label mac1 -i "$T/msg.bin" -o "$T/mac2.p11" && cmp "$T/mac.p11" "$T/mac2.p11"'
# pvault token set-login: SO PIN checked, pv_meta login row switched; a
# wrong SO PIN changes nothing but the SO failed-tries counter (lockout).
login_is() { # required|none: pvault token info and the token flags agree
  local want=$1 info flags
  info=$("$PV" token info prov | sed -n 's/^login: *//p'); flags=$(p11 --token-label prov -T | grep -i 'token flags')
  echo "info: $info; $flags"
  case $want in
    required) [ "$info" = required ] && echo "$flags" | grep -q 'login required' ;;
    none) echo "$info" | grep -q '^not required' && ! echo "$flags" | grep -q 'login required' ;;
  esac
}
export -f login_is
SERIAL=$("$PV" token info prov | sed -n 's/^serial: *//p'); export SERIAL
ok "token set-login: the token starts with login required" login_is required
ok "token set-login with a wrong SO PIN: exit 1, 'wrong PIN', login still required, one SO failure counted" bash -c '
  out=$(SO_PIN=11111111 "$PV" token set-login --label prov --so-pin-env SO_PIN none 2>&1); rc=$?
  echo "$out"; [ $rc -eq 1 ] && [ "$out" = "pvault: login as SO: wrong PIN" ] && login_is required &&
  "$PV" token info prov | grep -q "SO PIN: *failed tries 1"'
ok "token set-login: bad command lines exit 2 and change nothing" bash -c '
  for a in "--label prov maybe" "--label prov --serial $SERIAL none" "none" "--label prov"; do
    "$PV" token set-login --so-pin-env SO_PIN $a 2>/dev/null; [ $? -eq 2 ] || { echo "$a: not 2"; exit 1; }
  done; login_is required'
ok "token set-login --serial names a serial, not a label" bash -c \
   '! "$PV" token set-login --serial prov --so-pin-env SO_PIN none && login_is required'
ok "token set-login --label prov none: no login required, SO failures reset" bash -c '
  "$PV" token set-login --label prov --so-pin-env SO_PIN none | grep -q "no login required" && login_is none &&
  "$PV" token info prov | grep -q "SO PIN: *failed tries 0"'
ok "no login: pkcs11-tool signs with the private HMAC key without a PIN" bash -c \
   'p11 --token-label prov --sign -m SHA256-HMAC --label mac1 -i "$T/msg.bin" -o "$T/mac.nl" && cmp "$T/mac.p11" "$T/mac.nl"'
ok "token set-login --serial SERIAL required: login required again" bash -c \
   '"$PV" token set-login --serial "$SERIAL" --so-pin-env SO_PIN required | grep -q "login required" && login_is required'
ok "login required: the private key is not usable without a login" bash -c \
   '! p11 --token-label prov --sign -m SHA256-HMAC --label mac1 -i "$T/msg.bin" -o "$T/mac.nl2"'
# Private key files (PEM PKCS#8, encrypted PKCS#8, PKCS#12): each imported
# key pair signs with pkcs11-tool and verifies with OpenSSL's public key; a
# PKCS#12's certificate lands beside its key with the same CKA_ID.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$T/ec.pem" 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$T/ec2.pem" 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$T/rsa.pem" 2>/dev/null
openssl pkcs8 -topk8 -in "$T/rsa.pem" -passout pass:pw -out "$T/rsa-enc.pem"
openssl req -x509 -key "$T/ec2.pem" -subj /CN=ec -days 3 -out "$T/ec2.crt"
openssl pkcs12 -export -inkey "$T/ec2.pem" -in "$T/ec2.crt" -passout pass:pw -out "$T/ec2.p12"
for k in ec ec2 rsa; do openssl pkey -in "$T/$k.pem" -pubout -out "$T/$k.pub"; done
pkey_case() { # FILE ID MECH PUB
  KPASS=pw "$PV" key import --token prov --pin-env USER_PIN --type pkey --in "$1" \
     --passphrase-env KPASS --label "pk$2" --id "$2" &&
  p11_user --sign -m "$3" --id "$2" --signature-format openssl -i "$T/msg.bin" -o "$T/sig$2" &&
  openssl dgst -sha256 -verify "$4" -signature "$T/sig$2" "$T/msg.bin"
}
export -f pkey_case
ok "private key import: PKCS#8 PEM EC P-256, pkcs11-tool signs, openssl verifies" \
   pkey_case "$T/ec.pem" 0a ECDSA-SHA256 "$T/ec.pub"
ok "private key import: PKCS#8 PEM RSA-2048, pkcs11-tool signs, openssl verifies" \
   pkey_case "$T/rsa.pem" 0b SHA256-RSA-PKCS "$T/rsa.pub"
ok "private key import: encrypted PKCS#8 RSA-2048 signs, openssl verifies" \
   pkey_case "$T/rsa-enc.pem" 0d SHA256-RSA-PKCS "$T/rsa.pub"
ok "private key import: PKCS#12 EC P-256 + certificate signs, openssl verifies" \
   pkey_case "$T/ec2.p12" 0e ECDSA-SHA256 "$T/ec2.pub"
ok "PKCS#12: its certificate is on the token with the key's CKA_ID, byte for byte" bash -c \
   'p11_user --read-object --type cert --id 0e -o "$T/ec2.p11.der" &&
    openssl x509 -in "$T/ec2.crt" -outform DER -out "$T/ec2.der" && cmp "$T/ec2.der" "$T/ec2.p11.der"'
unchanged "private key import: an unsupported curve (P-521)" "not supported" bash -c \
   'openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-521 -out "$T/p521.pem" 2>/dev/null &&
    "$PV" key import --token prov --pin-env USER_PIN --type pkey --in "$T/p521.pem" --label p521 --id 0c'
# A locked user PIN: pvault says so and how to unlock it, and the command it
# names (the SO's C_InitPIN through pkcs11-tool) does.
ok "10 wrong user PINs lock it: token info says locked and how to unlock" bash -c '
  for i in $(seq 10); do USER_PIN=00000000 "$PV" key list --token prov --pin-env USER_PIN >/dev/null 2>&1; done
  "$PV" token info prov | grep "^user PIN" | grep -q "set, locked (10 failed tries): the SO unlocks it .*--init-pin"'
ok "locked: the right user PIN is refused with the way to unlock" bash -c '
  out=$("$PV" key list --token prov --pin-env USER_PIN 2>&1); rc=$?; echo "$out"; [ $rc -ne 0 ] &&
  echo "$out" | grep -q "login as user: PIN locked after too many failed tries; the SO unlocks it"'
ok "the SO unlocks it as the message says (pkcs11-tool --init-pin)" bash -c '
  p11 --token-label prov --login --login-type so --so-pin "$SO_PIN" --init-pin --new-pin "$USER_PIN" &&
  "$PV" token info prov | grep -q "^user PIN: *set (failed tries 0)" &&
  "$PV" key list --token prov --pin-env USER_PIN >/dev/null'
ok "pvault key delete" pv key delete --token prov --pin-env USER_PIN --label aes1
ok "pvault token delete needs --yes" bash -c "! '$PV' token delete --so-pin-env SO_PIN prov"
ok "pvault token delete with a wrong SO PIN fails, the token stays" bash -c \
   "! SO_PIN=11111111 '$PV' token delete --yes --so-pin-env SO_PIN prov && '$PV' token info prov >/dev/null"
ok "pvault token delete" pv token delete --yes --so-pin-env SO_PIN prov
ok "the token is gone" bash -c "! '$PV' token list | grep -q prov"
# every command documents itself like a manual page
ok "pvault --help lists every command with exit status and an example" bash -c \
   '"$PV" --help >"$T/h" && grep -q "EXIT STATUS" "$T/h" && grep -q EXAMPLE "$T/h" &&
    [ "$(grep -cE "^  (master|token|key|) +[a-z]+ +" "$T/h")" -ge 13 ]'
for cmd in status "master new" "master check" "master rotate" "token init" "token list" "token info" \
           "token set-login" "token delete" "key list" "key import" "key delete" backup restore; do
  ok "pvault $cmd --help: usage, description, exit status, example" bash -c \
     '"$PV" '"$cmd"' --help >"$T/h" && head -1 "$T/h" | grep -q "^usage: pvault '"$cmd"'" &&
      grep -q "^DESCRIPTION" "$T/h" && grep -q "^EXIT STATUS" "$T/h" && grep -q "^EXAMPLE" "$T/h"'
done
ok "unknown commands exit 2" bash -c '"$PV" frobnicate 2>/dev/null; [ $? -eq 2 ] && { "$PV" token frob 2>/dev/null; [ $? -eq 2 ]; }'
done_testing
