# tests/e2e/pvault_lib.sh - error-path helpers of the pvault tests
# (provision.sh, pvault_backup.sh), sourced after lib.sh.  Sets T (the
# test's temp dir) and PV (the pvault binary) and exports them.
T=$E2E_TMP
export PV=${PVAULT:-$BUILD_DIR/provisioning/pvault} T SO_PIN USER_PIN

# The store's content: every file but SQLite's shared-memory index and an
# empty WAL (a read-only SQLite connection leaves both behind; neither
# holds data).
store_hash() { (cd "$T/tokens" && find . -type f ! -name '*.db-shm' ! \( -name '*.db-wal' -empty \) -print0 |
                sort -z | xargs -0 sha256sum; find . -type d | sort) | sha256sum; }
export -f store_hash

# unchanged DESC EXPECTED-MESSAGE-REGEX CMD...: non-zero exit, exactly one
# line of output matching the regex, the store unchanged.
unchanged() {
  local desc=$1 re=$2; shift 2
  ok "$desc" bash -c '
    before=$(store_hash); out=$("$@" 2>&1); rc=$?; after=$(store_hash)
    [ $rc -ne 0 ] || { echo "exit 0: $out"; exit 1; }
    [ "$before" = "$after" ] || { echo "store changed"; exit 1; }
    [ "$(printf "%s\n" "$out" | grep -c .)" -eq 1 ] || { echo "not one line: $out"; exit 1; }
    printf "%s\n" "$out" | grep -Eq "$0" || { echo "message: $out"; exit 1; }' "$re" "$@"
}

# An operator without write permission on the token directory.  As a normal
# user: the directory is made read-only.  As root (which ignores modes):
# the command runs as nobody, with the store readable but nothing writable
# and a copy of the master key of its own (the vault takes no key file that
# others may read or another user owns).
ro_setup() {
  if [ "$(id -u)" = 0 ]; then
    chmod a+rx "$T" "$T/tokens" "$T"/tokens/* 2>/dev/null
    chmod a+r "$T"/tokens/*/* "$T/tokens/.lock" 2>/dev/null
    install -o 65534 -m 400 "$T/master.key" "$T/master.ro" 2>/dev/null
    sed "s|^master_key .*|master_key = $T/master.ro|" "$PIXELVAULT_CONF" >"$T/ro.conf"
    chmod a+r "$T/ro.conf" "$T"/*.pvbk 2>/dev/null
    # the build tree may not be readable by nobody (e.g. under /root)
    cp "$PV" "$T/pvault-ro" && chmod 755 "$T/pvault-ro"
  else
    chmod a-w "$T/tokens"
  fi
}
ro_teardown() { [ "$(id -u)" = 0 ] || chmod u+w "$T/tokens"; }
as_ro() {
  if [ "$(id -u)" = 0 ]; then
    [ "$1" = "$PV" ] && { shift; set -- "$T/pvault-ro" "$@"; }
    PIXELVAULT_CONF=$T/ro.conf HOME=/nonexistent setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
  else
    "$@"
  fi
}
export -f as_ro
