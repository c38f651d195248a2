# tests/e2e/lib.sh - shared setup for the end-to-end tests (sourced).
# Usage in a test:  . "$(dirname "$0")/lib.sh" "$@"
# Arguments: $1 = path of pixelvault-pkcs11.so, $2 = build dir (optional).
# Gives: a private temp dir with its own pixelvault.conf, token dir, HOME and
# p11-kit user config; TAP helpers; cleanup on every exit path.
set -uo pipefail

MODULE=$(readlink -f "${1:?usage: $0 MODULE [BUILD_DIR]}")
BUILD_DIR=${2:-$(dirname "$(dirname "$MODULE")")}
E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/pv-e2e.XXXXXX")
export PIXELVAULT_CONF=$E2E_TMP/pixelvault.conf
export HOME=$E2E_TMP/home
export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share
mkdir -p "$HOME/.config/pkcs11/modules"
unset XDG_RUNTIME_DIR

# A PIXELVAULT_MASTER_KEY-free demo: 32 random bytes (the vault's format is
# documented in docs/vault-engine.md; pvault master new writes the same).
cat >"$PIXELVAULT_CONF" <<CONF
token_dir  = tokens
master_key = master.key
backend    = ${PV_BACKEND:-cpu}
mode       = embedded
CONF

SO_PIN=87654321
USER_PIN=12345678
TAP_N=0
TAP_FAIL=0
_cleanup_hooks=()

on_exit() { _cleanup_hooks+=("$1"); }
_cleanup() {
  local rc=$?
  local h
  for h in "${_cleanup_hooks[@]+"${_cleanup_hooks[@]}"}"; do eval "$h" || true; done
  if [ "${PV_E2E_KEEP:-0}" = 1 ]; then echo "# kept $E2E_TMP" >&2; else rm -rf "$E2E_TMP"; fi
  exit $rc
}
trap _cleanup EXIT

# ok DESC CMD...  : run CMD, TAP line by its exit status, log on failure
ok() {
  local desc=$1; shift
  TAP_N=$((TAP_N + 1))
  local log=$E2E_TMP/step$TAP_N.log
  if "$@" >"$log" 2>&1; then
    echo "ok $TAP_N - $desc"
  else
    echo "not ok $TAP_N - $desc"
    sed 's/^/#   /' "$log" | tail -25
    TAP_FAIL=$((TAP_FAIL + 1))
  fi
}
# fails DESC CMD... : the command must fail
fails() {
  local desc=$1; shift
  ok "$desc" bash -c '! "$@"' _ "$@"
}
done_testing() {
  echo "1..$TAP_N"
  [ "$TAP_FAIL" -eq 0 ]
}

p11() { pkcs11-tool --module "$MODULE" "$@"; }
p11_user() { p11 --token-label "${PV_TOKEN_LABEL:-e2e}" --login --pin "$USER_PIN" "$@"; }
# A public key object as PEM, through GnuTLS's p11tool: pkcs11-tool 0.23's
# EC export under OpenSSL 3.0 (Debian 12) fails or works with the heap
# layout ("cannot create EVP_PKEY", OpenSC issue 3200).
# pubkey_pem TOKEN-LABEL ID-HEX OUT.pem [PIN]
pubkey_pem() {
  p11tool --provider "$MODULE" ${4:+--login --set-pin "$4"} --outfile "$3.p11tool" \
    --export-pubkey "pkcs11:token=$1;id=%$2;type=public" &&
    openssl pkey -pubin -in "$3.p11tool" -out "$3"
}
# steps run commands through `bash -c`: give them the helpers and settings
export MODULE BUILD_DIR E2E_TMP SO_PIN USER_PIN
export -f p11 p11_user pubkey_pem

# p11-kit ignores user configuration in programs running as root: run the
# p11-kit/GnuTLS steps as an unprivileged user then (the temp dir is opened
# up for it; the token store needs write access for SQLite's WAL files).
# The vault refuses a master key file that others may read or another user
# owns: the configured one stays root's, and the step reads a copy owned
# by nobody through a configuration of its own.
as_user() {
  if [ "$(id -u)" -eq 0 ]; then
    local conf=$PIXELVAULT_CONF mk mode=
    mk=$(sed -n 's/^master_key *= *//p' "$PIXELVAULT_CONF" | tail -1)
    case $mk in ""|/*) ;; *) mk=$(dirname "$PIXELVAULT_CONF")/$mk ;; esac
    [ -n "$mk" ] && [ -f "$mk" ] && mode=$(stat -c %a "$mk")
    chmod -R a+rwX "$E2E_TMP"
    chmod a+x "$(dirname "$E2E_TMP")" 2>/dev/null || true
    if [ -n "$mode" ]; then
      chmod "$mode" "$mk"
      install -o nobody -m 400 "$mk" "$E2E_TMP/master.nobody"
      sed "s|^master_key .*|master_key = $E2E_TMP/master.nobody|" "$PIXELVAULT_CONF" \
        >"$E2E_TMP/nobody.conf"
      chmod a+r "$E2E_TMP/nobody.conf"
      conf=$E2E_TMP/nobody.conf
    fi
    setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env \
      env HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_DATA_HOME="$XDG_DATA_HOME" \
          PIXELVAULT_CONF="$conf" PATH="$PATH" \
          ${PIXELVAULT_BACKEND:+PIXELVAULT_BACKEND="$PIXELVAULT_BACKEND"} \
          ${LD_LIBRARY_PATH:+LD_LIBRARY_PATH="$LD_LIBRARY_PATH"} "$@"
  else
    "$@"
  fi
}
export -f as_user

# Lowercase hex of a file's bytes (od: coreutils, always present).
hexof() { od -An -v -tx1 "$1" | tr -d ' \n'; }
export -f hexof

# Register the module with p11-kit through the user config.
register_p11kit() {
  printf 'module: %s\ncritical: yes\n' "$MODULE" >"$HOME/.config/pkcs11/modules/pixelvault.module"
}

# A token labelled $1 (default e2e) with SO and user PINs set.
init_token() {
  local label=${1:-e2e}
  local empty
  empty=$(p11 -L 2>/dev/null | awk '/^Slot [0-9]+/{slot=$2} /token state:.*uninitialized/{print slot; exit}')
  [ -n "$empty" ] || { echo "no uninitialized slot" >&2; return 1; }
  p11 --slot "$empty" --init-token --label "$label" --so-pin "$SO_PIN" &&
  p11 --token-label "$label" --login --login-type so --so-pin "$SO_PIN" --init-pin --pin "$USER_PIN"
}

# --- pvaultd: run the module in daemon mode (ssh_login.sh, daemon.sh) ---
# pvaultd_start: this test's config switches to `mode = daemon` with a socket
# in the temp dir, pvaultd starts on it (log: $E2E_TMP/pvaultd.log) and is
# stopped with SIGTERM on exit.  Needs the master key in place first.
PVAULTD_SOCK=$E2E_TMP/run/pvaultd.sock
PVAULTD_PID=
pvaultd_stop() {
  [ -n "$PVAULTD_PID" ] || return 0
  kill -TERM "$PVAULTD_PID" 2>/dev/null && wait "$PVAULTD_PID"
  local rc=$?
  PVAULTD_PID=
  return $rc
}
pvaultd_start() {
  grep -q '^socket ' "$PIXELVAULT_CONF" || echo "socket = $PVAULTD_SOCK" >>"$PIXELVAULT_CONF"
  sed -i 's|^mode .*|mode = daemon|' "$PIXELVAULT_CONF"
  on_exit pvaultd_stop
  "$BUILD_DIR/gpu/daemon/pvaultd" -c "$PIXELVAULT_CONF" </dev/null >/dev/null 2>>"$E2E_TMP/pvaultd.log" &
  PVAULTD_PID=$!
  local _
  for _ in $(seq 100); do [ -S "$PVAULTD_SOCK" ] && return 0; sleep 0.05; done
  return 1
}
