#!/usr/bin/env bash
# Issue 4: a real OpenSSH login with keys held by the token.  sshd runs on
# 127.0.0.1 at a random high port with a throwaway config and host key in
# the test's temp dir; authorized_keys comes from ssh-keygen -D; the client
# is `ssh -I MODULE`, the PIN comes from SSH_ASKPASS (SSH_ASKPASS_REQUIRE=
# force, OpenSSH >= 8.4).  One login with the RSA key, one with the P-256
# key (authorized_keys holds only the key under test each time).
. "$(dirname "$0")/lib.sh" "$@"

T=$E2E_TMP
PV=$BUILD_DIR/provisioning/pvault
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
ok "pvault master new" "$PV" master new --out "$T/master.key"
ok "--init-token and --init-pin" init_token e2e
ok "keypairgen RSA:2048" p11_user --keypairgen --key-type rsa:2048 --id 11 --label ssh-rsa
ok "keypairgen EC:prime256v1" p11_user --keypairgen --key-type EC:prime256v1 --id 12 --label ssh-p256
ok "ssh-keygen -D lists both" bash -c \
   'ssh-keygen -D "$MODULE" >"$E2E_TMP/all.pub" && grep -q "^ssh-rsa " "$E2E_TMP/all.pub" && grep -q "^ecdsa-sha2-nistp256 " "$E2E_TMP/all.pub"'

ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey" >/dev/null
PORT=$((20000 + RANDOM % 30000))
cat >"$T/sshd_config" <<CONF
Port $PORT
ListenAddress 127.0.0.1
HostKey $T/hostkey
AuthorizedKeysFile $T/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin yes
StrictModes no
PidFile $T/sshd.pid
LogLevel VERBOSE
CONF
printf '#!/bin/sh\necho %s\n' "$USER_PIN" >"$T/askpass"
chmod 700 "$T/askpass"
mkdir -p /run/sshd 2>/dev/null || true
"$SSHD" -D -e -f "$T/sshd_config" 2>"$T/sshd.log" &
SSHD_PID=$!
on_exit "kill $SSHD_PID 2>/dev/null; wait $SSHD_PID 2>/dev/null"
for _ in $(seq 50); do grep -q "Server listening" "$T/sshd.log" && break; sleep 0.1; done
ok "sshd listens on 127.0.0.1:$PORT" grep -q "Server listening" "$T/sshd.log"

login() {   # login TYPE-PREFIX: authorize only that key, log in, check the log
  grep "^$1 " "$E2E_TMP/all.pub" >"$E2E_TMP/authorized_keys" &&
  SSH_ASKPASS="$E2E_TMP/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=:0 \
    ssh -F /dev/null -n -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
      -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no \
      -o ConnectTimeout=20 -I "$MODULE" -p "$PORT" "$(id -un)@127.0.0.1" \
      'echo pixelvault-login-ok' </dev/null | grep -q pixelvault-login-ok &&
  grep -q "Accepted publickey .* $2 " "$E2E_TMP/sshd.log"
}
export -f login
export PORT
ok "ssh -I login with the RSA key" login ssh-rsa RSA
ok "ssh -I login with the P-256 key" login ecdsa-sha2-nistp256 ECDSA
# only a software key is authorized: the token's keys must not get in
ssh-keygen -q -t ed25519 -N '' -f "$T/other" >/dev/null
cp "$T/other.pub" "$T/all.pub.other"
fails "no login when none of the token's keys is authorized" bash -c \
  'cp "$E2E_TMP/other.pub" "$E2E_TMP/authorized_keys" &&
   SSH_ASKPASS="$E2E_TMP/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=:0 \
     ssh -F /dev/null -n -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
       -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no -o IdentitiesOnly=yes \
       -o ConnectTimeout=20 -I "$MODULE" -p "$PORT" "$(id -un)@127.0.0.1" true </dev/null'

done_testing
