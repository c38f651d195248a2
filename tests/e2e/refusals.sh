#!/usr/bin/env bash
# Every refusal names its cause and the next step.  For each state that
# keeps keys out of reach - no configuration, a master key file missing,
# corrupted, unreadable, open to others or passphrase-protected without
# the passphrase, pvaultd not running, a token store this user may read
# but not write, a locked PIN - the module's one warning (stderr), what
# pkcs11-tool -L shows, pvault's message, that C_InitToken is refused
# where it must be, and that no store changed.
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/pvault_lib.sh"

MK=$T/master.key
W='pixelvault: warning:'
SEALED_SLOT='PixelVault slot 0 (vault sealed: see pvault status)'
export MK W SEALED_SLOT

# has FILE TEXT: FILE holds TEXT (fixed string), else show FILE
has() { grep -qF -- "$2" "$1" || { echo "expected: $2"; echo "got:"; cat "$1"; return 1; }; }
# module_says DESC TEXT P11-ARGS...: pkcs11-tool fails, its stderr holds
# TEXT exactly once, and the store is unchanged
module_says() {
  local desc=$1 text=$2; shift 2
  ok "$desc" bash -c '
    text=$1; shift
    before=$(store_hash); p11 "$@" >"$T/out" 2>&1; rc=$?; after=$(store_hash)
    [ $rc -ne 0 ] || { echo "exit 0"; cat "$T/out"; exit 1; }
    [ "$before" = "$after" ] || { echo "store changed"; exit 1; }
    n=$(grep -cF -- "$text" "$T/out")
    [ "$n" -eq 1 ] || { echo "expected once: $text"; cat "$T/out"; exit 1; }' _ "$text" "$@"
}
export -f has module_says

# ---- no configuration at all: built-in per-user paths ----
ok "no configuration: pkcs11-tool -L marks the slot sealed, warns once" bash -c '
  mkdir -p "$T/bare" &&
  env -u PIXELVAULT_CONF -u XDG_CONFIG_HOME -u XDG_DATA_HOME HOME="$T/bare" \
    pkcs11-tool --module "$MODULE" -L >"$T/out" 2>&1 &&
  has "$T/out" "Slot 0 (0x0): $SEALED_SLOT" &&
  has "$T/out" "$W vault sealed: the master key file $T/bare/.config/pixelvault/master.key does not exist: attach the medium that holds it, or make a first key with \`pvault master new --out $T/bare/.config/pixelvault/master.key\` (a new key cannot open tokens made under another)" &&
  [ "$(grep -c "^pixelvault:" "$T/out")" -eq 1 ]'
ok "no configuration: C_InitToken refused, nothing written" bash -c '
  ! env -u PIXELVAULT_CONF -u XDG_CONFIG_HOME -u XDG_DATA_HOME HOME="$T/bare" \
    pkcs11-tool --module "$MODULE" --init-token --label x --so-pin "$SO_PIN" >"$T/out" 2>&1 &&
  has "$T/out" "CKR_DEVICE_ERROR" && has "$T/out" "$W vault sealed: the master key file" &&
  [ ! -e "$T/bare/.local/share/pixelvault" ] && [ ! -e "$T/bare/.config/pixelvault" ]'
ok "no configuration: pvault token init refuses with the same cause" bash -c '
  ! env -u PIXELVAULT_CONF -u XDG_CONFIG_HOME -u XDG_DATA_HOME HOME="$T/bare" \
    "$PV" token init --label x --so-pin-env SO_PIN --pin-env USER_PIN >"$T/out" 2>&1 &&
  has "$T/out" "pvault: token init: the vault has no usable master key: the master key file $T/bare/.config/pixelvault/master.key does not exist" &&
  [ "$(wc -l <"$T/out")" -eq 1 ] &&
  [ ! -e "$T/bare/.local/share/pixelvault" ] && [ ! -e "$T/bare/.config/pixelvault" ]'

# ---- a token, then its master key goes wrong in every way ----
ok "pvault master new + token init" bash -c \
  '"$PV" master new --out "$MK" >/dev/null && "$PV" token init --label e2e --so-pin-env SO_PIN --pin-env USER_PIN'
ok "a key to sign with" p11_user --keypairgen --key-type EC:prime256v1 --label ec1 --id 01
printf 'refusals\n' >"$T/msg"
SIGN=(--token-label e2e --login --pin "$USER_PIN" --sign --mechanism ECDSA-SHA256 --id 01 -i "$T/msg" -o "$T/sig")
cp "$MK" "$T/master.good"

mv "$MK" "$T/master.away"
module_says "missing master key: signing fails, the cause and next step logged" \
  "$W vault sealed: the master key file $MK does not exist: attach the medium that holds it, or make a first key with \`pvault master new --out $MK\` (a new key cannot open tokens made under another)" \
  "${SIGN[@]}"
ok "missing master key: -L marks the slots sealed" bash -c \
  'p11 -L >"$T/out" 2>&1; has "$T/out" "Slot 0 (0x0): $SEALED_SLOT"'
module_says "missing master key: C_InitToken of the free slot refused" \
  "$W vault sealed: the master key file $MK does not exist" \
  --slot 1 --init-token --label x --so-pin "$SO_PIN"
ok "missing master key: pvault status says the same, exit 1" bash -c '
  ! "$PV" status >"$T/out" 2>&1 &&
  has "$T/out" "sealed:       yes: the master key file $MK does not exist: attach the medium"'
mv "$T/master.away" "$MK"

head -c 72 /dev/urandom >"$T/junk" && install -m 400 "$T/junk" "$T/master.bad"
mv "$MK" "$T/master.away"; mv "$T/master.bad" "$MK"
module_says "corrupted master key: the cause and next step logged" \
  "$W vault sealed: the master key file $MK is corrupted (bad format or checksum): put back its backup copy; \`pvault master check FILE\` verifies a copy" \
  "${SIGN[@]}"
ok "corrupted master key: pvault status says the same" bash -c '
  ! "$PV" status >"$T/out" 2>&1 && has "$T/out" "sealed:       yes: the master key file $MK is corrupted"'
rm -f "$MK"; mv "$T/master.away" "$MK"

chmod 640 "$MK"
module_says "group-readable master key: refused, the fix named" \
  "$W vault sealed: permissions 0640 for '$MK' are too open: a master key file must not be accessible by group or others; fix it with: chmod 600 $MK" \
  "${SIGN[@]}"
chmod 400 "$MK"

ok "passphrase-protected master key without the passphrase: the cause named" bash -c '
  PP=correct-horse "$PV" master new --out "$T/master.pp" --passphrase-env PP >/dev/null &&
  sed "s|^master_key .*|master_key = $T/master.pp|" "$PIXELVAULT_CONF" >"$T/pp.conf" &&
  ! PIXELVAULT_CONF="$T/pp.conf" pkcs11-tool --module "$MODULE" "${@}" >"$T/out" 2>&1 &&
  has "$T/out" "$W vault sealed: the master key file $T/master.pp is passphrase-protected and no passphrase was given: set PIXELVAULT_MASTER_PASSPHRASE for the program that opens the vault"' \
  _ "${SIGN[@]}"

# unreadable: as root, the key file stays root's (0400) and the module
# runs as nobody; as a user, the file is made unreadable to its owner
if [ "$(id -u)" = 0 ]; then
  ok "unreadable master key: permission named, not a passphrase" bash -c '
    chmod a+rx "$T" && chmod -R a+rX "$T/tokens" "$T/home" && chmod a+r "$PIXELVAULT_CONF" &&
    ! setpriv --reuid=65534 --regid=65534 --clear-groups \
      pkcs11-tool --module "$MODULE" -O >"$T/out" 2>&1 </dev/null; cat "$T/out" >/dev/null;
    has "$T/out" "$W vault sealed: this user (uid 65534) may not read the master key file $MK: run as the user who owns it, or let pvaultd hold the key for every user (mode = daemon in pixelvault.conf)"'
else
  chmod 000 "$MK"
  module_says "unreadable master key: permission named, not a passphrase" \
    "$W vault sealed: this user (uid $(id -u)) may not read the master key file $MK" \
    "${SIGN[@]}"
  chmod 400 "$MK"
fi
ok "with the key back, the token signs" p11 "${SIGN[@]}"

# ---- daemon mode, pvaultd not running ----
cp "$PIXELVAULT_CONF" "$T/embedded.conf"
printf 'mode = daemon\nsocket = %s\n' "$T/run/none.sock" >>"$PIXELVAULT_CONF"
sed -i '0,/^mode .*embedded/s///' "$PIXELVAULT_CONF"
module_says "pvaultd not running: the cause and next step logged" \
  "$W no vault: pvaultd is not running (nothing answers at $T/run/none.sock): start it (pvaultd, or its service), then check with \`pvault status\`" \
  "${SIGN[@]}"
ok "pvaultd not running: -L marks the slot" bash -c \
  'p11 -L >"$T/out" 2>&1; has "$T/out" "(no vault: see pvault status)"'
ok "pvaultd not running: pvault status says so, exit 1" bash -c '
  ! "$PV" status >"$T/out" 2>&1 &&
  has "$T/out" "vault:        cannot open: pvaultd is not running (nothing answers at $T/run/none.sock)"'
cp "$T/embedded.conf" "$PIXELVAULT_CONF"

# ---- a store this user may read but not write ----
ro_setup
ok "read-only store: listed (not hidden), write-protected, slot marked" bash -c '
  as_ro pkcs11-tool --module "$MODULE" -L >"$T/out" 2>&1 &&
  has "$T/out" "PixelVault slot 0 (token store read-only for this user)" &&
  has "$T/out" "token label        : e2e" && has "$T/out" "readonly"'
ok "read-only store: login refused, the directory and fix named; store unchanged" bash -c '
  before=$(store_hash)
  ! as_ro pkcs11-tool --module "$MODULE" --token-label e2e --login --pin "$USER_PIN" -O >"$T/out" 2>&1 &&
  [ "$before" = "$(store_hash)" ] && has "$T/out" "may read but not write its store" &&
  has "$T/out" "a PIN try cannot be counted there, so no login is possible"'
ok "unwritable token directory: C_InitToken refused, the directory named" bash -c '
  before=$(store_hash)
  ! as_ro pkcs11-tool --module "$MODULE" --slot 1 --init-token --label x --so-pin "$SO_PIN" >"$T/out" 2>&1 &&
  [ "$before" = "$(store_hash)" ] && has "$T/out" "$W cannot make a token in $T/tokens: this user"'
ok "read-only store: pvault token list marks it" bash -c '
  as_ro "$PV" token list >"$T/out" 2>&1; has "$T/out" "(read-only for this user)"'
ro_teardown

# ---- a locked user PIN ----
ok "10 wrong user PINs lock the PIN" bash -c '
  for i in $(seq 10); do p11 --token-label e2e --login --pin 99999999 -O >/dev/null 2>&1; done
  p11 -L | grep -q "user PIN locked"'
module_says "locked PIN: the way to unlock it logged" \
  "the user PIN is locked after 10 failed tries: the SO unlocks it by setting a new user PIN (C_InitPIN), e.g. \`pkcs11-tool --module pixelvault-pkcs11.so --token-label LABEL --login --login-type so --init-pin\`" \
  --token-label e2e --login --pin "$USER_PIN" -O
ok "locked PIN: pvault token info says locked" bash -c '
  "$PV" token info e2e >"$T/out" 2>&1; has "$T/out" "user PIN:     set, locked (10 failed tries)"'
ok "a PIN of impossible length spends no try (the SO can still unlock)" bash -c '
  ! p11 --token-label e2e --login --login-type so --so-pin 12 -O >/dev/null 2>&1 &&
  p11 --token-label e2e --login --login-type so --so-pin "$SO_PIN" --init-pin --pin "$USER_PIN" &&
  p11 "${@}"' _ "${SIGN[@]}"

done_testing
