#!/usr/bin/env bash
# pvault backup / restore.  A restored token signs as before; a
# truncated or corrupted backup, a backup from another vault and an
# unwritable token directory each give one message, a non-zero exit and an
# unchanged store (hashed before and after).
. "$(dirname "$0")/lib.sh" "$@"

. "$(dirname "$0")/pvault_lib.sh"
export MODULE
export PV_TOKEN_LABEL=bk
export -f p11 p11_user

"$PV" master new --out "$T/master.key" >/dev/null
ok "token init" "$PV" token init --label bk --so-pin-env SO_PIN --pin-env USER_PIN
openssl rand 32 >"$T/k"; K=$(hexof "$T/k")
ok "import an HMAC key" "$PV" key import --token bk --pin-env USER_PIN --type generic --in "$T/k" --label mac1 --id 01
head -c 500 /dev/urandom >"$T/msg"
openssl mac -digest SHA256 -macopt hexkey:$K -binary -in "$T/msg" HMAC >"$T/mac.ref"
signs() { p11_user --sign -m SHA256-HMAC --id 01 -i "$T/msg" -o "$T/mac" >/dev/null 2>&1 && cmp -s "$T/mac" "$T/mac.ref"; }
export -f signs

ok "pvault backup" "$PV" backup --token bk --out "$T/bk.pvbk"
ok "the backup is mode 0600 and holds no key bytes in the clear" bash -c \
   'test "$(stat -c %a "$T/bk.pvbk")" = 600 && ! hexof "$T/bk.pvbk" | grep -qF "$(hexof "$T/k")"'
ok "pvault backup refuses to overwrite a file" bash -c '! "$PV" backup --token bk --out "$T/bk.pvbk"'
ok "pvault restore --check describes it" bash -c '"$PV" restore --check "$T/bk.pvbk" | grep -q "valid backup of token"'
ok "delete the key" "$PV" key delete --token bk --pin-env USER_PIN --label mac1
ok "the key is gone" bash -c '! signs'
ok "pvault restore replaces the token" bash -c '"$PV" restore "$T/bk.pvbk" | grep -q "replaced"'
ok "the restored key signs = OpenSSL" signs
ok "pvault token delete, then restore into the empty directory" bash -c \
   '"$PV" token delete --yes --so-pin-env SO_PIN bk && "$PV" restore "$T/bk.pvbk" && "$PV" token list | grep -q " bk "'
ok "the key signs after a restore from nothing" signs
# the token directory's lock (held by C_InitToken, delete, restore and
# migrate): a restore and a delete wait while another program holds it
ok "restore waits for the token directory's lock" bash -c '
  flock "$T/tokens/.lock" sleep 2 & sleep 0.3
  s=$(date +%s%N); "$PV" restore "$T/bk.pvbk" >/dev/null; rc=$?; e=$(date +%s%N); wait
  [ $rc -eq 0 ] && [ $(( (e - s) / 1000000 )) -ge 1200 ]'
ok "token delete waits for it too" bash -c '
  flock "$T/tokens/.lock" sleep 2 & sleep 0.3
  s=$(date +%s%N); "$PV" token delete --yes --so-pin-env SO_PIN bk >/dev/null; rc=$?; e=$(date +%s%N); wait
  [ $rc -eq 0 ] && [ $(( (e - s) / 1000000 )) -ge 1200 ] && "$PV" restore "$T/bk.pvbk" >/dev/null'

# ---- refusals ----
size=$(stat -c %s "$T/bk.pvbk")
head -c $((size - 100)) "$T/bk.pvbk" >"$T/trunc.pvbk"
unchanged "truncated backup" "truncated" "$PV" restore "$T/trunc.pvbk"
head -c 40 "$T/bk.pvbk" >"$T/trunc2.pvbk"
unchanged "backup truncated inside the header" "truncated" "$PV" restore "$T/trunc2.pvbk"
cp "$T/bk.pvbk" "$T/flip.pvbk"
perl -0777 -pi -e 'substr($_, 5000, 1) ^= "\x01"' "$T/flip.pvbk"
unchanged "one flipped bit in the store image" "SHA-256 check failed" "$PV" restore "$T/flip.pvbk"
printf 'not a backup at all\n' >"$T/junk.pvbk"
unchanged "not a backup" "not a PixelVault backup" "$PV" restore "$T/junk.pvbk"

# another vault: its own configuration, master key and token
mkdir -p "$T/other"
sed -e "s|^token_dir .*|token_dir = $T/other/tokens|" -e "s|^master_key .*|master_key = $T/other/master.key|" \
    "$PIXELVAULT_CONF" >"$T/other/pixelvault.conf"
ok "another vault with a token of its own" bash -c \
   'export PIXELVAULT_CONF=$T/other/pixelvault.conf; "$PV" master new --out "$T/other/master.key" >/dev/null &&
    "$PV" token init --label bk --so-pin-env SO_PIN --pin-env USER_PIN >/dev/null &&
    "$PV" backup --token bk --out "$T/other.pvbk" >/dev/null'
unchanged "backup from another vault" "not the loaded master key" "$PV" restore "$T/other.pvbk"
ro_setup
unchanged "token directory without write permission" "not writable" as_ro "$PV" restore "$T/bk.pvbk"
ro_teardown
ok "after the refusals the key still signs" signs
done_testing
