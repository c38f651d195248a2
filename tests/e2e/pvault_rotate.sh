#!/usr/bin/env bash
# pvault master rotate, and rotation killed with SIGKILL at random
# points 30 times.  After every kill, `pvault status` names the master key
# the token is under; with that key configured, every key signs / encrypts
# and the results equal OpenSSL's with the original key bytes.
. "$(dirname "$0")/lib.sh" "$@"


T=$E2E_TMP
export PV=${PVAULT:-$BUILD_DIR/provisioning/pvault} T SO_PIN USER_PIN MODULE
export PV_TOKEN_LABEL=rot
export -f p11 p11_user
KILLS=${PV_ROTATE_KILLS:-30}

fpr_of() { "$PV" master check "$1" | awk '{print $NF}'; }
use_key() { sed -i "s|^master_key .*|master_key = $1|" "$PIXELVAULT_CONF"; }

"$PV" master new --out "$T/A.key" >/dev/null
"$PV" master new --out "$T/B.key" >/dev/null
FA=$(fpr_of "$T/A.key"); FB=$(fpr_of "$T/B.key")
use_key "$T/A.key"
ok "token init under master key A" "$PV" token init --label rot --so-pin-env SO_PIN --pin-env USER_PIN
openssl rand 32 >"$T/k1"; K1=$(hexof "$T/k1")
openssl rand 48 >"$T/k2"; K2=$(hexof "$T/k2")
openssl rand 16 >"$T/k3"; K3=$(hexof "$T/k3")
ok "import three keys" bash -c \
  '"$PV" key import --token rot --pin-env USER_PIN --type generic --in "$T/k1" --label mac1 --id 01 &&
   "$PV" key import --token rot --pin-env USER_PIN --type generic --in "$T/k2" --label mac2 --id 02 &&
   "$PV" key import --token rot --pin-env USER_PIN --type aes --in "$T/k3" --label aes1 --id 03'
head -c 1000 /dev/urandom >"$T/msg"
IV=000102030405060708090a0b0c0d0e0f
openssl mac -digest SHA256 -macopt hexkey:$K1 -binary -in "$T/msg" HMAC >"$T/mac1.ref"
openssl mac -digest SHA384 -macopt hexkey:$K2 -binary -in "$T/msg" HMAC >"$T/mac2.ref"
openssl enc -aes-128-cbc -K $K3 -iv $IV -in "$T/msg" >"$T/aes.ref"
export IV

# every key works with the configured master key
keys_work() {
  p11_user --sign -m SHA256-HMAC --id 01 -i "$T/msg" -o "$T/mac1" >/dev/null 2>&1 && cmp -s "$T/mac1" "$T/mac1.ref" &&
  p11_user --verify -m SHA384-HMAC --id 02 -i "$T/msg" --signature-file "$T/mac2.ref" >/dev/null 2>&1 &&
  p11_user --encrypt -m AES-CBC-PAD --id 03 --iv $IV -i "$T/msg" -o "$T/aes" >/dev/null 2>&1 && cmp -s "$T/aes" "$T/aes.ref"
}
# one key, round robin (a pkcs11-tool login costs a 600,000-iteration
# PBKDF2, so checking all three after each of 30 kills would be slow)
key_works() {
  case $1 in
  0) p11_user --sign -m SHA256-HMAC --id 01 -i "$T/msg" -o "$T/mac1" >/dev/null 2>&1 && cmp -s "$T/mac1" "$T/mac1.ref" ;;
  1) p11_user --verify -m SHA384-HMAC --id 02 -i "$T/msg" --signature-file "$T/mac2.ref" >/dev/null 2>&1 ;;
  2) p11_user --encrypt -m AES-CBC-PAD --id 03 --iv $IV -i "$T/msg" -o "$T/aes" >/dev/null 2>&1 && cmp -s "$T/aes" "$T/aes.ref" ;;
  esac
}
export -f keys_work key_works

ok "keys work under A" keys_work
ok "rotation A -> B" "$PV" master rotate --old "$T/A.key" --new "$T/B.key"
ok "pvault status: under B, not usable with A loaded" bash -c \
   '! "$PV" status >"$T/st" && grep -q "master '"$FB"': NOT usable" "$T/st"'
ok "keys do not work with A once the token is under B" bash -c '! keys_work'
use_key "$T/B.key"
ok "pvault status: usable with B" bash -c '"$PV" status | grep -q "master '"$FB"': usable"'
ok "keys work under B" keys_work
ok "rotate again with the same keys: nothing to do" bash -c \
   '"$PV" master rotate --old "$T/A.key" --new "$T/B.key" | grep -q "1 already under the new key"'
"$PV" master new --out "$T/C.key" >/dev/null
ok "rotate from a key the token is not under: refused, nothing changed" bash -c \
   'h=$(sha256sum "$T"/tokens/*/token.db); ! "$PV" master rotate --old "$T/A.key" --new "$T/C.key" 2>"$T/err" &&
    grep -q "neither --old" "$T/err" && [ "$h" = "$(sha256sum "$T"/tokens/*/token.db)" ]'

# ---- SIGKILL at random points ----
cur=B; other=A; under_old=0; under_new=0; bad=0
for i in $(seq 1 "$KILLS"); do
  PVAULT_TEST_ROTATE_DELAY_US=15000 "$PV" master rotate --old "$T/$cur.key" --new "$T/$other.key" \
      >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(printf '%03d' $((RANDOM % 90)))"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  # which key does status name?
  "$PV" status >"$T/st" 2>&1
  f=$(awk '/^  slot/ && / rot /{for (j = 1; j <= NF; j++) if ($j == "master") {sub(":", "", $(j+1)); print $(j+1); exit}}' "$T/st")
  if [ "$f" = "$(fpr_of "$T/$other.key")" ]; then
    under_new=$((under_new + 1)); use_key "$T/$other.key"; t=$cur; cur=$other; other=$t
  elif [ "$f" = "$(fpr_of "$T/$cur.key")" ]; then
    under_old=$((under_old + 1)); use_key "$T/$cur.key"
  else
    echo "# kill $i: status names '$f'"; bad=$((bad + 1)); continue
  fi
  if ! "$PV" status >/dev/null 2>&1 || ! key_works $((i % 3)); then
    echo "# kill $i: keys do not work under $cur ($f)"; bad=$((bad + 1))
  fi
done
echo "# $KILLS kills: $under_old left the token under the old key, $under_new under the new one"
ok "$KILLS rotations killed with SIGKILL: status names the right key and every key works every time" \
   test "$bad" -eq 0
ok "after the last kill every key works under the key status names" keys_work
ok "on a terminal, rotation shows progress" bash -c \
   'script -qec "\"$PV\" master rotate --old \"$T/'"$cur"'.key\" --new \"$T/'"$other"'.key\"" /dev/null >"$T/tty.out" &&
    grep -q "re-wrapping token .rot.: 3/3" "$T/tty.out"'
ok "not on a terminal, it stays quiet (stderr empty)" bash -c \
   '"$PV" master rotate --old "$T/'"$other"'.key" --new "$T/'"$cur"'.key" >/dev/null 2>"$T/err" && ! [ -s "$T/err" ]'
ok "and the token is back under the configured key" bash -c '"$PV" status >/dev/null'
ok "the kills hit both before and after the commit" test "$under_old" -gt 0 -a "$under_new" -gt 0
done_testing
