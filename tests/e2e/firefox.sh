#!/usr/bin/env bash
# Firefox: Firefox ESR headless, with the module loaded into its
# profile, completes a TLS handshake that requires a client certificate whose
# key is on the token, against openssl s_server -Verify on 127.0.0.1; the
# server log shows the verified client certificate.  The token is made with
# `pvault token init --no-login`, so Firefox needs no PIN prompt.  The same
# visit with a profile that lacks the module sends no certificate.
. "$(dirname "$0")/lib.sh" "$@"

T=$E2E_TMP
CLIENT_CN=pixelvault-firefox-client
export MOZ_HEADLESS=1

ok "firefox-esr is installed" command -v firefox-esr
ok "pvault master new (the vault is unsealed)" pvault master new --out "$T/master.key"
ok "pvault token init --no-login" env SO="$SO_PIN" PIN="$USER_PIN" \
   pvault token init --label ff --so-pin-env SO --pin-env PIN --no-login
ok "pvault token info says no login is required" bash -c \
   "pvault token info ff | grep -q '^login: *not required'"
ok "the token does not announce CKF_LOGIN_REQUIRED" bash -c \
   "p11 -T >'$T/tokinfo' && grep -q 'token label *: ff' '$T/tokinfo' && ! grep -q 'login required' '$T/tokinfo'"
ok "keypairgen EC:prime256v1 on the token, no login" \
   p11 --token-label ff --keypairgen --key-type EC:prime256v1 --id 31 --label ff-key
ok "export the public key" bash -c \
   "pubkey_pem ff 31 '$T/pub.pem'"

# A test CA; the client certificate carries the token's public key (the
# CSR's throw-away key is replaced with -force_pubkey); a server certificate.
csr() {  # CN KEYOUT CSROUT
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$2" \
    -subj "/CN=$1" -out "$3"
}
issue() {  # CSR OUT EXTENSIONS [openssl x509 options]
  local csr=$1 out=$2
  printf '%b' "$3" >"$T/ext.cnf"; shift 3
  openssl x509 -req -in "$csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" -CAcreateserial \
    -days 2 -sha256 -extfile "$T/ext.cnf" -out "$out" "$@"
}
make_ca_and_server() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$T/ca.key" \
    -subj "/CN=PixelVault test CA" -days 2 -out "$T/ca.pem" &&
  csr 127.0.0.1 "$T/srv.key" "$T/srv.csr" &&
  issue "$T/srv.csr" "$T/srv.pem" 'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n'
}
make_client_cert() {
  csr "$CLIENT_CN" "$T/throwaway.key" "$T/cli.csr" &&
  issue "$T/cli.csr" "$T/cli.der" 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n' \
    -force_pubkey "$T/pub.pem" -outform DER &&
  openssl x509 -inform DER -in "$T/cli.der" -noout -pubkey | cmp - "$T/pub.pem" &&
  p11 --token-label ff --write-object "$T/cli.der" --type cert --id 31 --label ff-cert
}
ok "a test CA and a server certificate for 127.0.0.1" make_ca_and_server
ok "a client certificate for the token key, on the token with the key's CKA_ID" make_client_cert

# A Firefox profile: an NSS database trusting the test CA, prefs that pick a
# client certificate without asking and keep Firefox off the network.
make_profile() {  # DIR
  mkdir -p "$1" &&
  certutil -N -d "sql:$1" --empty-password &&
  certutil -A -d "sql:$1" -n pv-test-ca -t "C,," -i "$T/ca.pem" &&
  cat >"$1/user.js" <<'PREFS'
user_pref("security.default_personal_cert", "Select Automatically");
user_pref("security.enterprise_roots.enabled", false);
user_pref("security.OCSP.enabled", 0);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.healthreport.uploadEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("app.update.auto", false);
user_pref("app.normandy.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("services.settings.server", "http://127.0.0.1:1/");
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("browser.safebrowsing.malware.enabled", false);
user_pref("browser.safebrowsing.phishing.enabled", false);
PREFS
}
ok "a Firefox profile trusting the test CA" make_profile "$T/prof"
ok "modutil -add loads the module into it" \
   modutil -dbdir "sql:$T/prof" -add pixelvault -libfile "$MODULE" -force
ok "NSS sees the token's certificate and key without a PIN" bash -c \
   "certutil -L -d 'sql:$T/prof' -h ff | grep -q 'ff:ff-cert' && certutil -K -d 'sql:$T/prof' -h ff | grep -q 'ec.*ff-key'"
ok "a second profile, without the module" make_profile "$T/noprof"

# s_server requiring a client certificate; its log tells what it verified.
start_server() {  # NAME -> sets PORT
  PORT=$((20000 + RANDOM % 20000))
  timeout 120 openssl s_server -accept "127.0.0.1:$PORT" -cert "$T/srv.pem" -key "$T/srv.key" \
    -CAfile "$T/ca.pem" -Verify 1 -www >"$T/$1.srv" 2>&1 &
  on_exit "kill $! 2>/dev/null"
  local i
  for i in $(seq 100); do grep -q ACCEPT "$T/$1.srv" && break; sleep 0.1; done
}
# Firefox in its own process group (content processes included) until
# DONE_CMD holds or 60 s pass; then the group is killed.  Status: DONE_CMD's.
visit() {  # PROFILE SHOT DONE_CMD
  setsid firefox-esr --headless --no-remote --profile "$1" --screenshot "$2" \
    "https://127.0.0.1:$PORT/" >"$2.log" 2>&1 &
  local pg=$! i rc=1
  on_exit "kill -9 -- -$pg 2>/dev/null"
  for i in $(seq 600); do
    if eval "$3"; then rc=0; break; fi
    sleep 0.1
  done
  kill -- -$pg 2>/dev/null; sleep 0.5; kill -9 -- -$pg 2>/dev/null
  return $rc
}
verified() {  # SERVER_LOG: the client certificate was received and verified
  grep -A1 "^depth=0 CN = $CLIENT_CN\$" "$1" | grep -q '^verify return:1$'
}

start_server with
ok "s_server -Verify 1 is listening" grep -q ACCEPT "$T/with.srv"
ok "Firefox headless (module loaded) loads the page and exits" \
   visit "$T/prof" "$T/with.png" '! kill -0 $pg 2>/dev/null'
ok "the server verified the client certificate of the token key" verified "$T/with.srv"
ok "Firefox wrote the screenshot of the served page" test -s "$T/with.png"

start_server without
ok "s_server -Verify 1 is listening (second run)" grep -q ACCEPT "$T/without.srv"
ok "Firefox headless (no module) reaches the server, which asks for a certificate" \
   visit "$T/noprof" "$T/without.png" "grep -q 'peer did not return a certificate' '$T/without.srv'"
ok "without the module no client certificate reached the server" bash -c \
   "! grep -q 'CN = $CLIENT_CN' '$T/without.srv'"

done_testing
