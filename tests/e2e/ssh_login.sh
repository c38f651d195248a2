#!/usr/bin/env bash
# Real OpenSSH logins with keys held by the token, RSA-2048
# and ECDSA P-256.  sshd runs on 127.0.0.1 at a random high port with a
# throwaway config and host key in the test's temp dir; authorized_keys holds
# only the key under test (from ssh-keygen -D); the PIN comes from SSH_ASKPASS
# (SSH_ASKPASS_REQUIRE=force, OpenSSH >= 8.4).
#  - `ssh -I MODULE` logins; a software key alone must not let the token in;
#  - a private ssh-agent started with -P (the module is not under /usr/lib*):
#    `ssh-add -s`, `ssh-add -l` lists both keys, plain `ssh` logs in through
#    the agent, `ssh-add -e` removes them (and no login after that).
# PV_E2E_MODE=daemon (ssh_login_daemon.sh) runs all of it with the module in
# daemon mode against a pvaultd of its own, from token init on, and restarts
# pvaultd under the agent (recovery: ssh-add -e, ssh-add -s).
. "$(dirname "$0")/lib.sh" "$@"

T=$E2E_TMP
PV=$BUILD_DIR/provisioning/pvault
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
MODE=${PV_E2E_MODE:-embedded}

ok "pvault master new" "$PV" master new --out "$T/master.key"
if [ "$MODE" = daemon ]; then
  ok "pvaultd starts; the module is in daemon mode" pvaultd_start
fi
ok "--init-token and --init-pin ($MODE)" init_token e2e
ok "keypairgen RSA:2048" p11_user --keypairgen --key-type rsa:2048 --id 11 --label ssh-rsa
ok "keypairgen EC:prime256v1" p11_user --keypairgen --key-type EC:prime256v1 --id 12 --label ssh-p256
ok "ssh-keygen -D lists both" bash -c \
   'ssh-keygen -D "$MODULE" >"$E2E_TMP/all.pub" && grep -q "^ssh-rsa " "$E2E_TMP/all.pub" && grep -q "^ecdsa-sha2-nistp256 " "$E2E_TMP/all.pub"'

# A loopback sshd of this test; sets SSHD_PORT, logs (appending) to sshd.log.
start_sshd() {
  ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey" >/dev/null || return 1
  SSHD_PORT=$((20000 + RANDOM % 30000))
  cat >"$T/sshd_config" <<CONF
Port $SSHD_PORT
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
  mkdir -p /run/sshd 2>/dev/null || true
  # sshd needs its privilege-separation user.  A system without one (e.g.
  # openssh-server unpacked, not installed) gets it from
  # nss_wrapper, which adds it to a copy of the passwd and group files
  # for sshd alone (PV_E2E_NSS_WRAPPER=1 forces this, for testing it).
  local env=()
  if ! getent passwd sshd >/dev/null || [ "${PV_E2E_NSS_WRAPPER:-0}" = 1 ]; then
    local w
    w=$(ls ${E2E_SYSROOT:+"$E2E_SYSROOT"/usr/lib/*/libnss_wrapper.so} /usr/lib/*/libnss_wrapper.so 2>/dev/null | head -1)
    if [ -z "$w" ]; then echo "no sshd user and no libnss_wrapper.so" >&2; return 1; fi
    { getent passwd | grep -v '^sshd:'; echo "sshd:x:65533:65533:sshd privsep:/run/sshd:/usr/sbin/nologin"; } >"$T/passwd"
    { getent group | grep -v '^sshd:'; echo "sshd:x:65533:"; } >"$T/group"
    env=(env LD_PRELOAD="$w" NSS_WRAPPER_PASSWD="$T/passwd" NSS_WRAPPER_GROUP="$T/group")
    echo "sshd's privsep user from nss_wrapper ($w)" >&2
  fi
  "${env[@]}" "$SSHD" -D -e -f "$T/sshd_config" </dev/null >/dev/null 2>>"$T/sshd.log" &
  local pid=$!
  on_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
  local _
  for _ in $(seq 50); do grep -q "Server listening" "$T/sshd.log" 2>/dev/null && return 0; sleep 0.1; done
  tail -5 "$T/sshd.log" >&2     # why it did not come up
  return 1
}
ok "sshd listens on 127.0.0.1" start_sshd
printf '#!/bin/sh\necho %s\n' "$USER_PIN" >"$T/askpass"
chmod 700 "$T/askpass"
export SSHD_PORT SSH_ASKPASS=$T/askpass SSH_ASKPASS_REQUIRE=force DISPLAY=:0

# ssh_to SSH-OPTION...: run a command on the loopback sshd, no config file,
# no password methods; succeeds when the remote command's output came back.
ssh_to() {
  ssh -F /dev/null -n -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
    -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no \
    -o ConnectTimeout=20 "$@" -p "$SSHD_PORT" "$(id -un)@127.0.0.1" \
    'echo pixelvault-login-ok' </dev/null | grep -qx pixelvault-login-ok
}
# login KEY-TYPE SSH-OPTION...: authorize only the token key of that type,
# log in, and sshd's new log lines accept exactly that key's fingerprint.
login() {
  local type=$1 fpr lines; shift
  grep "^$type " "$E2E_TMP/all.pub" >"$E2E_TMP/authorized_keys" || return 1
  fpr=$(ssh-keygen -lf "$E2E_TMP/authorized_keys" | awk '{print $2}')
  [ -n "$fpr" ] || return 1
  lines=$(wc -l <"$E2E_TMP/sshd.log")
  ssh_to "$@" || return 1
  sleep 0.2   # the log line and the command output come from different processes
  tail -n +"$((lines + 1))" "$E2E_TMP/sshd.log" | grep "Accepted publickey" | tee /dev/stderr | grep -qF " $fpr"
}
export -f ssh_to login

ok "ssh -I login with the RSA key" login ssh-rsa -I "$MODULE"
ok "ssh -I login with the P-256 key" login ecdsa-sha2-nistp256 -I "$MODULE"
# only a software key is authorized: the token's keys must not get in
ssh-keygen -q -t ed25519 -N '' -f "$T/other" >/dev/null
fails "no login when none of the token's keys is authorized" bash -c \
  'cp "$E2E_TMP/other.pub" "$E2E_TMP/authorized_keys" && ssh_to -o IdentitiesOnly=yes -I "$MODULE"'

# ssh-agent refuses providers outside its allow-list (default /usr/lib*/*,
# /usr/local/lib*/*): the pitfall docs/clients/openssh.md describes.
start_agent() {   # start_agent SOCKET [AGENT-OPTION...]
  local sock=$1 _; shift
  ssh-agent -D -a "$sock" "$@" </dev/null >/dev/null 2>>"$T/agent.log" &
  on_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
  # the socket file exists before listen(): wait until ssh-add can talk
  # (exit 2 = no agent; 0 or 1 = identities or none)
  for _ in $(seq 50); do
    SSH_AUTH_SOCK=$sock ssh-add -l >/dev/null 2>&1; [ $? -ne 2 ] && return 0; sleep 0.1
  done
  return 1
}
case $MODULE in
  /usr/lib*/* | /usr/local/lib*/*) ;;   # an installed module is allowed anyway
  *)
    ok "a default ssh-agent starts" start_agent "$T/agent-default.sock"
    ok "default ssh-agent refuses ssh-add -s of a build-tree module" bash -c \
      '! SSH_AUTH_SOCK="$E2E_TMP/agent-default.sock" ssh-add -s "$MODULE" 2>"$E2E_TMP/refused" &&
       cat "$E2E_TMP/refused" && grep -q "agent refused operation" "$E2E_TMP/refused"' ;;
esac

ok "ssh-agent -P '$(dirname "$MODULE")/*' starts" start_agent "$T/agent.sock" -P "$(dirname "$MODULE")/*"
export SSH_AUTH_SOCK=$T/agent.sock
ok "ssh-add -s MODULE (PIN from SSH_ASKPASS)" ssh-add -s "$MODULE"
ok "ssh-add -L lists both token keys" bash -c '
  ssh-add -L >"$E2E_TMP/agent.pub" && cat "$E2E_TMP/agent.pub" &&
  [ "$(wc -l <"$E2E_TMP/agent.pub")" -eq 2 ] &&
  while read -r type blob _; do grep -qF " $blob " "$E2E_TMP/agent.pub" || exit 1; done <"$E2E_TMP/all.pub"'
ok "agent login with the RSA key (no -I)" login ssh-rsa
ok "agent login with the P-256 key (no -I)" login ecdsa-sha2-nistp256
if [ "$MODE" = daemon ]; then
  # the agent's helper keeps the module loaded: after a pvaultd restart,
  # removing and re-adding the provider is the documented recovery
  ok "pvaultd restarts (SIGTERM, start)" eval 'pvaultd_stop && pvaultd_start'
  ok "ssh-add -e, ssh-add -s after the restart" bash -c 'ssh-add -e "$MODULE" && ssh-add -s "$MODULE"'
  ok "agent login with the P-256 key after the restart" login ecdsa-sha2-nistp256
fi
ok "ssh-add -e MODULE removes the token keys" bash -c \
  'ssh-add -e "$MODULE" && { ssh-add -l; [ $? -eq 1 ]; }'
fails "no agent login after ssh-add -e" login ecdsa-sha2-nistp256

if [ "$MODE" = daemon ]; then
  ok "pvaultd SIGTERM: exits 0" pvaultd_stop
  ok "the restarted pvaultd executed requests (its exit line counts them)" bash -c \
     'grep "stopped (" "$E2E_TMP/pvaultd.log" | tail -n 1 | grep -Eq "stopped \([1-9][0-9]* requests completed"'
fi
done_testing
