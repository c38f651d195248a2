#!/usr/bin/env bash
# End to end: the module as a thin client of pvaultd (mode = daemon).
# pkcs11-tool --test --login in daemon mode; --test-fork and --test-threads
# in both modes; a pvaultd restart (the application-level sequence: the
# next pkcs11-tool run works again); pvaultd SIGTERM exits 0.
. "$(dirname "$0")/lib.sh" "$@"

# pvaultd_start / pvaultd_stop (lib.sh): the daemon on $PVAULTD_SOCK, log in
# $E2E_TMP/pvaultd.log, stopped on exit; pvaultd_start also sets mode = daemon.
PVAULTD=$BUILD_DIR/gpu/daemon/pvaultd
PV=$BUILD_DIR/provisioning/pvault
T=$E2E_TMP
mode() { sed -i "s|^mode .*|mode = $1|" "$PIXELVAULT_CONF"; }
# the socket from the start: daemon mode without pvaultd must fail on it
echo "socket = $PVAULTD_SOCK" >>"$PIXELVAULT_CONF"
export -f mode

ok "pvault master new" "$PV" master new --out "$T/master.key"
ok "init token + PIN (embedded)" init_token e2e
ok "an AES key (embedded)" p11_user --keygen --key-type AES:32 --label aes1 --id 01
ok "pkcs11-tool --test-fork (embedded)" p11 --test-fork
ok "pkcs11-tool --test-threads IN (embedded)" p11 --test-threads IN -L
ok "pkcs11-tool --test-threads ILGISLT0 (embedded)" p11 --test-threads ILGISLT0 -L

mode daemon
printf 'through the daemon\n' >"$T/msg"
fails "daemon mode without pvaultd: crypto fails" p11_user --encrypt --mechanism AES-CBC-PAD \
   --iv 000102030405060708090a0b0c0d0e0f --id 01 -i "$T/msg" -o "$T/c.none"
ok "pvaultd starts" pvaultd_start
ok "pkcs11-tool --test --login (daemon)" p11_user --test
ok "pkcs11-tool --test-fork (daemon)" p11 --test-fork
ok "pkcs11-tool --test-threads IN (daemon)" p11 --test-threads IN -L
ok "pkcs11-tool --test-threads ILGISLT0 (daemon)" p11 --test-threads ILGISLT0 -L
ok "HMAC/AES with the embedded-made key through pvaultd equals embedded" bash -c '
  p11_user --encrypt --mechanism AES-CBC-PAD --iv 000102030405060708090a0b0c0d0e0f --id 01 -i "$E2E_TMP/msg" -o "$E2E_TMP/c.daemon" &&
  mode embedded &&
  p11_user --encrypt --mechanism AES-CBC-PAD --iv 000102030405060708090a0b0c0d0e0f --id 01 -i "$E2E_TMP/msg" -o "$E2E_TMP/c.embedded";
  rc=$?; mode daemon; [ $rc = 0 ] && cmp "$E2E_TMP/c.daemon" "$E2E_TMP/c.embedded"'
ok "pvault status prints pvaultd's counters (completed requests, per-mechanism counts)" bash -c "
  '$PV' status >'$T/status.txt' 2>&1; cat '$T/status.txt'
  grep -Eq '^pvaultd: +pid [0-9]+' '$T/status.txt' &&
  grep -Eq '^requests: +[1-9][0-9]* completed, [0-9]+ errors, queue depth [0-9]+' '$T/status.txt' &&
  grep -Eq '^  op [0-9]+ +mech 0x[0-9a-f]{8} +[1-9][0-9]* ok' '$T/status.txt'"
ok "pvaultd SIGTERM: drains and exits 0" pvaultd_stop
ok "pvaultd executed the requests (its exit line counts them)" \
   grep -Eq "stopped \([1-9][0-9]* requests completed" "$T/pvaultd.log"
fails "no daemon: crypto fails" p11_user --test
ok "pvaultd restarted (stale socket replaced)" pvaultd_start
ok "the next login works again" p11_user --test
ok "pvaultd SIGTERM again" pvaultd_stop
if command -v systemd-socket-activate >/dev/null; then
  rm -f "$PVAULTD_SOCK"
  systemd-socket-activate --seqpacket -l "$PVAULTD_SOCK" "$PVAULTD" -c "$PIXELVAULT_CONF" 2>>"$T/pvaultd.log" &
  PVAULTD_PID=$!              # pvaultd_stop (lib.sh) stops it
  # it binds the socket before the first client (not a fixed sleep: a
  # loaded CI machine took longer than 0.3 s)
  for _ in $(seq 200); do [ -S "$PVAULTD_SOCK" ] && break; sleep 0.05; done
  ok "socket activation (LISTEN_FDS): first client starts pvaultd, login works" p11_user --test
  ok "socket-activated pvaultd SIGTERM" pvaultd_stop
else
  TAP_N=$((TAP_N + 1)); echo "ok $TAP_N # SKIP socket activation: systemd-socket-activate not installed"
fi
done_testing
