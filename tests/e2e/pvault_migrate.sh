#!/usr/bin/env bash
# pvault token migrate.  A token made by today's pvault is turned into a
# store of the format before token keys by pv_mklegacy (PBKDF2 verifiers,
# schema 1, key blobs of versions 1, 2 and 3 written with OpenSSL under
# the master key alone, CKA_ALLOWED_MECHANISMS as a plain attribute); the
# module refuses it.  Migrated: the same PINs log in, every key gives
# OpenSSL's result with the original key bytes, the allowed lists are
# enforced (also after the store is edited), objects and slot are the
# same, the old store is kept byte for byte.  Refusals (wrong PINs, the
# token open in a process, an unusable master key) change nothing.  Then
# the migration is killed with SIGKILL before, during and after the swap,
# and run again: the token is migrated, once, every time.  Last, a token
# is migrated in daemon mode (pvaultd makes its token key and seals keys).
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/pvault_lib.sh"

MK=$BUILD_DIR/tests/e2e/pv_mklegacy
KILLS=${PV_MIGRATE_KILLS:-12}
# the old verifiers' PBKDF2 count (each row stores its own): small, so that
# the runs after the kills stay quick; the new records get the product's
ITER=20000
export PV_TOKEN_LABEL=mig MK MODULE ITER
export -f p11 p11_user

ok "master key, token, seven keys imported by today's pvault" bash -c '
  "$PV" master new --out "$T/master.key" >/dev/null &&
  "$PV" token init --label mig --so-pin-env SO_PIN --pin-env USER_PIN >/dev/null &&
  openssl rand 16 >"$T/aes1" && openssl rand 32 >"$T/aes2" && openssl rand 32 >"$T/mac1" &&
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$T/ec1.pem" 2>/dev/null &&
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$T/ec2.pem" 2>/dev/null &&
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$T/rsa1.pem" 2>/dev/null &&
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072 -out "$T/rsa2.pem" 2>/dev/null &&
  imp() { "$PV" key import --token mig --pin-env USER_PIN "$@" >/dev/null; } &&
  imp --type aes --in "$T/aes1" --label aes1 --id 01 &&
  imp --type pkey --in "$T/ec1.pem" --label ec1 --id 02 &&
  imp --type pkey --in "$T/rsa1.pem" --label rsa1 --id 03 &&
  imp --type pkey --in "$T/ec2.pem" --label ec2 --id 04 &&
  imp --type aes --in "$T/aes2" --label aes2 --id 05 &&
  imp --type generic --in "$T/mac1" --label mac1 --id 06 &&
  imp --type pkey --in "$T/rsa2.pem" --label rsa2 --id 07'
SERIAL=$(sqlite3 "$T"/tokens/*/token.db "SELECT serial FROM token_info")
LIVE=$T/tokens/$SERIAL
export SERIAL LIVE
# ec2 may sign with ECDSA-SHA256 only (0x1044), aes2 encrypt with
# AES-CBC-PAD only (0x1085); rsa1 has d last (version 2), rsa2 the first
# layout (version 1, every number 4096 bits wide)
ok "pv_mklegacy: the store in the format before token keys" "$MK" legacify "$LIVE/token.db" \
   "$T/master.key" "$ITER" "$SO_PIN" "$USER_PIN" 01:"$T/aes1":1 02:"$T/ec1.pem":1 \
   03:"$T/rsa1.pem":2 04:"$T/ec2.pem":1:1044 05:"$T/aes2":1:1085 06:"$T/mac1":3 07:"$T/rsa2.pem":1w
# the old store as pv_mklegacy wrote it (schema 1): every kill round starts
# from it (the module's first open brings a store to schema 2)
cp -a "$LIVE" "$T/legacy.bak"
objs() { sqlite3 "$LIVE/token.db" "SELECT oid, class, hex(id), hex(label), private FROM objects ORDER BY oid;
  SELECT slot_no, serial, hex(label) FROM token_info"; }
objs >"$T/objs.before"
export -f objs

head -c 1000 /dev/urandom >"$T/msg"
IV=000102030405060708090a0b0c0d0e0f
openssl enc -aes-128-cbc -K "$(hexof "$T/aes1")" -iv $IV -in "$T/msg" >"$T/aes1.ref"
openssl enc -aes-256-cbc -K "$(hexof "$T/aes2")" -iv $IV -in "$T/msg" >"$T/aes2.ref"
openssl mac -digest SHA256 -macopt hexkey:"$(hexof "$T/mac1")" -binary -in "$T/msg" HMAC >"$T/mac1.ref"
for k in ec1 ec2 rsa1 rsa2; do openssl pkey -in "$T/$k.pem" -pubout -out "$T/$k.pub"; done
export IV

ok "the module refuses the old store and names pvault token migrate" bash -c \
   '! p11_user --list-objects >"$T/out" 2>&1 && grep -q "pvault token migrate" "$T/out"'

ok "pvault status, token info and token list name the command" bash -c '
  ! "$PV" status >"$T/st" && grep -q "NOT usable: an older format (\`pvault token migrate $SERIAL\`)" "$T/st" &&
  "$PV" token info mig | grep -q "^format: *older.*pvault token migrate $SERIAL" &&
  "$PV" token list | grep -q "(older format: pvault token migrate)"'

# ---- refusals: one message, non-zero exit, the store unchanged ----
unchanged "a wrong SO PIN: refused, nothing changed" "wrong SO PIN; nothing was changed" \
  env SO_PIN=00000000 "$PV" token migrate mig --so-pin-env SO_PIN --pin-env USER_PIN
unchanged "a wrong user PIN: refused, nothing changed" "wrong user PIN; nothing was changed" \
  env USER_PIN=00000000 "$PV" token migrate mig --so-pin-env SO_PIN --pin-env USER_PIN
ok "a process with the token open: refused, nothing changed" bash -c '
  "$MK" hold "$MODULE" 20 >"$T/hold.out" 2>&1 & pid=$!
  for i in $(seq 100); do grep -q ready "$T/hold.out" && break; sleep 0.1; done
  before=$(store_hash); out=$("$PV" token migrate mig --so-pin-env SO_PIN --pin-env USER_PIN 2>&1); rc=$?
  kill $pid; wait $pid 2>/dev/null
  echo "$out"; [ $rc -ne 0 ] && [ "$before" = "$(store_hash)" ] && echo "$out" | grep -q "has token $SERIAL open"'
chmod 644 "$T/master.key"
unchanged "a master key file others may read: refused with the reason, nothing changed" \
  "master key must be readable here.*(group|others)" \
  "$PV" token migrate mig --so-pin-env SO_PIN --pin-env USER_PIN
chmod 400 "$T/master.key"
ok "the old store is still refused (nothing was migrated)" bash -c '! p11_user --list-objects'

# ---- the migration ----
# The old store's attributes are not authenticated, its blobs' headers
# are: an edit that makes aes1 extractable must not reach the new blob.
blobuse() { sqlite3 "$LIVE/token.db" "SELECT hex(substr(a.value, 9, 4)) FROM attributes a
  JOIN attributes i ON i.oid = a.oid AND i.type = 258 AND i.value = x'01'
  WHERE a.type = 3495358465"; }
export -f blobuse
ok "the store edited: aes1 says CKA_EXTRACTABLE, its old blob does not allow it" bash -c '
  u=$(blobuse) && echo "usage $u" && [ $((0x$u & 0x80)) -eq 0 ] &&
  sqlite3 "$LIVE/token.db" "INSERT OR REPLACE INTO attributes(oid, type, value)
    SELECT oid, 354, x'\''01'\'' FROM attributes WHERE type = 258 AND value = x'\''01'\''"'
cp "$LIVE/token.db" "$T/pre.db"
ok "pvault token migrate" bash -c '
  "$PV" token migrate mig --so-pin-env SO_PIN --pin-env USER_PIN >"$T/mig.out" && cat "$T/mig.out" &&
  grep -q "7 key(s) sealed again" "$T/mig.out" && grep -q "kept at $T/tokens/.legacy-$SERIAL" "$T/mig.out"'
ok "the old store is kept byte for byte; no work directory is left" bash -c '
  cmp "$T/pre.db" "$T/tokens/.legacy-$SERIAL/token.db" && ! ls -d "$T"/tokens/.mig-* 2>/dev/null'
ok "today's format: PIN records, schema 2, no verifier left" bash -c '
  [ "$(sqlite3 "$LIVE/token.db" "PRAGMA user_version; SELECT group_concat(alg || length(verifier)) FROM pins")" = \
    "$(printf "2\npbkdf2-vault-record128,pbkdf2-vault-record128")" ]'
ok "aes1 is sealed no more usable than its old blob: not extractable, and says so" bash -c '
  u=$(blobuse) && echo "usage $u" && [ $((0x$u & 0x80)) -eq 0 ] &&
  [ "$(sqlite3 "$LIVE/token.db" "SELECT hex(value) FROM attributes WHERE type = 354 AND oid =
     (SELECT oid FROM attributes WHERE type = 258 AND value = x'\''01'\'')")" = 00 ]'
ok "same objects (handles), slot, serial and label" bash -c 'objs | cmp - "$T/objs.before"'
ok "pvault status: the token is usable" bash -c '
  "$PV" status >"$T/st" && grep -q "usable with the loaded master key" "$T/st" && ! grep -q "older" "$T/st"'
ok "run again: already in the current format" bash -c '
  ! "$PV" token migrate mig --so-pin-env SO_PIN --pin-env USER_PIN 2>"$T/err" && grep -q "already in the current format" "$T/err"'

keys_work() {
  p11_user --encrypt -m AES-CBC-PAD --id 01 --iv $IV -i "$T/msg" -o "$T/o1" && cmp "$T/o1" "$T/aes1.ref" &&
  p11_user --sign -m ECDSA-SHA256 --id 02 -i "$T/msg" -o "$T/o2" --signature-format openssl &&
  openssl dgst -sha256 -verify "$T/ec1.pub" -signature "$T/o2" "$T/msg" &&
  p11_user --sign -m SHA256-RSA-PKCS --id 03 -i "$T/msg" -o "$T/o3" &&
  openssl dgst -sha256 -verify "$T/rsa1.pub" -signature "$T/o3" "$T/msg" &&
  p11_user --sign -m ECDSA-SHA256 --id 04 -i "$T/msg" -o "$T/o4" --signature-format openssl &&
  openssl dgst -sha256 -verify "$T/ec2.pub" -signature "$T/o4" "$T/msg" &&
  p11_user --encrypt -m AES-CBC-PAD --id 05 --iv $IV -i "$T/msg" -o "$T/o5" && cmp "$T/o5" "$T/aes2.ref" &&
  p11_user --sign -m SHA256-HMAC --id 06 -i "$T/msg" -o "$T/o6" && cmp "$T/o6" "$T/mac1.ref" &&
  p11_user --sign -m SHA384-RSA-PKCS-PSS --id 07 -i "$T/msg" -o "$T/o7" &&
  openssl dgst -sha384 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:-1 \
    -verify "$T/rsa2.pub" -signature "$T/o7" "$T/msg"
}
# one key, round robin (each pkcs11-tool login costs a 600,000-iteration PBKDF2)
key_works() {
  case $1 in
  0) p11_user --encrypt -m AES-CBC-PAD --id 01 --iv $IV -i "$T/msg" -o "$T/o1" && cmp "$T/o1" "$T/aes1.ref" ;;
  1) p11_user --sign -m SHA256-RSA-PKCS --id 03 -i "$T/msg" -o "$T/o3" &&
     openssl dgst -sha256 -verify "$T/rsa1.pub" -signature "$T/o3" "$T/msg" ;;
  2) p11_user --sign -m SHA256-HMAC --id 06 -i "$T/msg" -o "$T/o6" && cmp "$T/o6" "$T/mac1.ref" ;;
  esac
}
export -f keys_work key_works
ok "the same user PIN logs in; every key gives OpenSSL's result with the original bytes" keys_work
ok "the keys are private: without a login none is found" bash -c '
  ! p11 --token-label mig --encrypt -m AES-CBC-PAD --id 01 --iv $IV -i "$T/msg" -o "$T/x"'
ok "ec2 (ECDSA-SHA256 only) refuses ECDSA-SHA384" bash -c '
  ! p11_user --sign -m ECDSA-SHA384 --id 04 -i "$T/msg" -o "$T/x" >"$T/out" 2>&1 &&
  grep -q CKR_MECHANISM_INVALID "$T/out"'
ok "aes2 (AES-CBC-PAD only) refuses AES-ECB" bash -c '
  head -c 16 "$T/msg" >"$T/blk"; ! p11_user --encrypt -m AES-ECB --id 05 -i "$T/blk" -o "$T/x" >"$T/out" 2>&1 &&
  grep -q CKR_MECHANISM_INVALID "$T/out"'
ok "the lists are sealed in the blobs: with them removed from the store, ec2 signs nothing" bash -c '
  cp -a "$LIVE" "$T/live.bak" &&
  sqlite3 "$LIVE/token.db" "DELETE FROM attributes WHERE type IN (1073743360, 3495358467)
    AND oid = (SELECT oid FROM objects WHERE label = x'\''656332'\'' AND class = 3)" &&
  ! p11_user --sign -m ECDSA-SHA384 --id 04 -i "$T/msg" -o "$T/x" &&
  ! p11_user --sign -m ECDSA-SHA256 --id 04 -i "$T/msg" -o "$T/x"; rc=$?
  rm -rf "$LIVE" && mv "$T/live.bak" "$LIVE"; exit $rc'
ok "the SO PIN logs in and sets the user PIN again; the keys stay usable" bash -c '
  p11 --token-label mig --login --login-type so --so-pin "$SO_PIN" --init-pin --pin "$USER_PIN" && key_works 1'

# ---- a store without a user PIN, set to need no login ----
ok "a second token: no user PIN, the old no-login row, a public key" bash -c '
  "$PV" token init --label mig2 --so-pin-env SO_PIN --pin-env USER_PIN >/dev/null &&
  "$PV" key import --token mig2 --pin-env USER_PIN --type aes --in "$T/aes1" --label k --id 01 >/dev/null &&
  s=$("$PV" token info mig2 | awk "/^serial:/{print \$2}") &&
  "$MK" legacify "$T/tokens/$s/token.db" "$T/master.key" "$ITER" "$SO_PIN" x --no-user --no-login 01:"$T/aes1":1p'
ok "migrated with the SO PIN alone; the no-login claim is not carried over" bash -c '
  "$PV" token migrate mig2 --so-pin-env SO_PIN >"$T/out" && grep -q "not carried over" "$T/out" &&
  grep -q "1 of the keys are not CKA_PRIVATE" "$T/out" &&
  "$PV" token info mig2 | grep -q "user PIN: *not set" && "$PV" token info mig2 | grep -q "login: *required"'
ok "its public key is sealed under the master key, not the token key, as before" bash -c '
  s=$("$PV" token info mig2 | awk "/^serial:/{print \$2}") &&
  p=$(sqlite3 "$T/tokens/$s/token.db" "SELECT hex(substr(value, 17, 4)) FROM attributes
      WHERE type = 3495358465") && echo "policy $p" && [ -n "$p" ] && [ $((0x$p & 1)) -eq 0 ]'
ok "the SO sets a user PIN; its key works with it" bash -c '
  p11 --token-label mig2 --login --login-type so --so-pin "$SO_PIN" --init-pin --pin "$USER_PIN" &&
  PV_TOKEN_LABEL=mig2 p11_user --encrypt -m AES-CBC-PAD --id 01 --iv $IV -i "$T/msg" -o "$T/o1" &&
  cmp "$T/o1" "$T/aes1.ref"'

# ---- SIGKILL before, during and after the swap ----
# Each round starts from the old store; the killed run pauses
# PVAULT_TEST_MIGRATE_DELAY_US after each key and around the swap.  Kill
# points by round: 0 early (random, up to 0.3 s), 1 once the new store is
# being built, 2 once it is swapped in (the old one waits in .mig-), 3 at
# random over the whole run.  Then the command runs again: it must end with
# the token migrated, the old store kept once, byte for byte, no .mig- left,
# and the keys working.
restart=0; finish=0; already=0; bad=0
mig_state() {   # prints the kill point reached
  local w=$T/tokens/.mig-$SERIAL/token.db
  if [ -e "$w" ] && cmp -s "$w" "$T/legacy.bak/token.db"; then echo swapped
  elif [ -e "$w" ]; then echo building
  else echo none; fi
}
for i in $(seq 1 "$KILLS"); do
  rm -rf "$LIVE" "$T"/tokens/.mig-* "$T"/tokens/.legacy-*; cp -a "$T/legacy.bak" "$LIVE"
  PVAULT_TEST_MIGRATE_DELAY_US=150000 "$PV" token migrate mig --so-pin-env SO_PIN --pin-env USER_PIN \
      >/dev/null 2>&1 &
  pid=$!
  case $((i % 4)) in
  0) sleep "0.$(printf '%03d' $((RANDOM % 300)))" ;;
  1) for j in $(seq 500); do [ "$(mig_state)" = building ] && break; sleep 0.01; done ;;
  2) for j in $(seq 500); do [ "$(mig_state)" = swapped ] && break; sleep 0.01; done ;;
  3) sleep "$((RANDOM % 2)).$(printf '%03d' $((RANDOM % 1000)))" ;;
  esac
  at=$(mig_state)
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  out=$("$PV" token migrate mig --so-pin-env SO_PIN --pin-env USER_PIN 2>&1); rc=$?
  case $rc:$out in
  0:*"now finished"*) finish=$((finish + 1)) ;;
  0:*migrated*) restart=$((restart + 1)) ;;
  1:*"already in the current format"*) already=$((already + 1)) ;;
  *) echo "# kill $i ($at): rerun said ($rc) $out"; bad=$((bad + 1)); continue ;;
  esac
  n=$(ls -d "$T"/tokens/.legacy-* 2>/dev/null | wc -l)
  if ls -d "$T"/tokens/.mig-* >/dev/null 2>&1 || [ "$n" -ne 1 ] ||
     ! cmp -s "$T/tokens/.legacy-$SERIAL/token.db" "$T/legacy.bak/token.db" ||
     ! objs | cmp -s - "$T/objs.before" || ! key_works $((i % 3)) >/dev/null 2>&1; then
    echo "# kill $i ($at): state after the rerun is wrong"; bad=$((bad + 1))
  fi
done
echo "# $KILLS kills: $restart reruns migrated from the start, $finish finished after the swap, $already found it done"
ok "$KILLS migrations killed with SIGKILL: run again, the token is migrated once, every time" test "$bad" -eq 0
ok "the kills hit before and after the swap" test "$restart" -gt 0 -a "$finish" -gt 0
ok "after the last round every key works" keys_work

# ---- daemon mode: pvaultd seals the keys again ----
ok "a third token, turned old" bash -c '
  "$PV" token init --label mig3 --so-pin-env SO_PIN --pin-env USER_PIN >/dev/null &&
  "$PV" key import --token mig3 --pin-env USER_PIN --type pkey --in "$T/ec1.pem" --label e --id 02 >/dev/null &&
  s=$("$PV" token info mig3 | awk "/^serial:/{print \$2}") &&
  "$MK" legacify "$T/tokens/$s/token.db" "$T/master.key" "$ITER" "$SO_PIN" "$USER_PIN" 02:"$T/ec1.pem":1'
ok "pvaultd started (mode = daemon)" pvaultd_start
ok "migrated through pvaultd; the key signs through pvaultd under its old public key" bash -c '
  "$PV" token migrate mig3 --so-pin-env SO_PIN --pin-env USER_PIN &&
  PV_TOKEN_LABEL=mig3 p11_user --sign -m ECDSA-SHA256 --id 02 -i "$T/msg" -o "$T/o2" --signature-format openssl &&
  openssl dgst -sha256 -verify "$T/ec1.pub" -signature "$T/o2" "$T/msg"'
done_testing
