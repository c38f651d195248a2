#!/usr/bin/env bash
# pvault bench: runs p11bench (the build tree's, from the build tree's
# pvault) on its own temporary token.  A quick run prints a token row and
# leaves the operator's token store alone; a bad option is pvault's usage
# error, not p11bench's.
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/pvault_lib.sh"

"$PV" master new --out "$T/master.key" >/dev/null
ok "token init (the operator's token)" "$PV" token init --label e2e --so-pin-env SO_PIN --pin-env USER_PIN
BEFORE=$(store_hash)
export BEFORE

ok "pvault --help lists bench" bash -c '"$PV" --help | grep -Eq "^  +bench +measure"'
ok "pvault bench --help: usage, backend, own token" bash -c \
  '"$PV" bench --help >"$T/help" && grep -q "^usage: pvault bench" "$T/help" &&
   grep -q PIXELVAULT_BACKEND=cpu "$T/help" && grep -q "never" "$T/help"'
# the smallest run: one mechanism, one thread, 0.25 s, no OpenSSL rows
ok "pvault bench --quick --threads 1 --mech sha256-4k --openssl-threads none" bash -c \
  'PIXELVAULT_BACKEND=cpu "$PV" bench --quick --threads 1 --mech sha256-4k --openssl-threads none \
     --csv "$T/b.csv" >"$T/out" &&
   cat "$T/out" && grep -q "^p11bench: token .*(backend cpu)" "$T/out" &&
   grep -Eq "^\| sha256-4k +\| token +\| +1 \| +[0-9]+ \|" "$T/out" &&
   ! grep -q "| openssl " "$T/out" && grep -q "^token,cpu,sha256-4k,1," "$T/b.csv"'
# what a request costs the host: CPU (user + system) per operation, its
# system part, context switches; a token row that hashed for 0.25 s used
# some CPU, and the system part is part of it
ok "the row's host CPU per operation (table and CSV)" bash -c \
  'grep -Eq "\| +[0-9.]+ \| +[0-9.]+ \| +[0-9.]+ \|$" "$T/out" &&
   head -1 "$T/b.csv" | grep -q ",p999_us,cpu_us_op,sys_us_op,csw_op$" &&
   awk -F, "\$1 == \"token\" { n++; if (NF != 13 || \$11 <= 0 || \$12 < 0 || \$12 > \$11 || \$13 < 0) bad++ }
            END { exit !(n == 1 && !bad) }" "$T/b.csv"'
ok "the operator's token store is unchanged" bash -c '[ "$(store_hash)" = "$BEFORE" ]'
ok "--opt=value works too" bash -c \
  'PIXELVAULT_BACKEND=cpu "$PV" bench --quick --lone --mech=sha256-4k --openssl-threads=none >"$T/out2" &&
   grep -Eq "^\| sha256-4k +\| token +\| +1 \|" "$T/out2"'
ok "--gpu-slots reaches the token's configuration (the CPU backend ignores it)" bash -c \
  'PIXELVAULT_BACKEND=cpu "$PV" bench --quick --lone --mech sha256-4k --openssl-threads none \
     --gpu-slots 1024 >"$T/out3" && grep -Eq "^\| sha256-4k +\| token +\| +1 \|" "$T/out3"'
ok "--gpu-slots 100: the token refuses the configuration" bash -c \
  'PIXELVAULT_BACKEND=cpu "$PV" bench --quick --lone --mech sha256-4k --openssl-threads none \
     --gpu-slots 100 >/dev/null 2>"$T/e3"; [ $? -ne 0 ]'
ok "--gpu-blocks-per-sm reaches the token's configuration (the CPU backend ignores it)" bash -c \
  'PIXELVAULT_BACKEND=cpu "$PV" bench --quick --lone --mech sha256-4k --openssl-threads none \
     --gpu-blocks-per-sm 4 >"$T/out4" && grep -Eq "^\| sha256-4k +\| token +\| +1 \|" "$T/out4"'
ok "--gpu-blocks-per-sm 33: p11bench refuses it" bash -c \
  'PIXELVAULT_BACKEND=cpu "$PV" bench --quick --lone --mech sha256-4k --openssl-threads none \
     --gpu-blocks-per-sm 33 >/dev/null 2>"$T/e4"; [ $? -ne 0 ]'
ok "--async 4: the token's rows come from async sessions" bash -c \
  'PIXELVAULT_BACKEND=cpu "$PV" bench --quick --threads 1 --mech sha256-4k --openssl-threads none \
     --async 4 >"$T/out5" && grep -Eq "^\| sha256-4k +\| async +\| +1 \| +[0-9]+ \|" "$T/out5" &&
   ! grep -q "| token " "$T/out5"'
ok "pvault bench --bogus: exit 2, pvault's usage message" bash -c \
  '"$PV" bench --bogus >"$T/o" 2>"$T/e"; rc=$?; cat "$T/e"; [ $rc -eq 2 ] && [ ! -s "$T/o" ] &&
   grep -q "^pvault: bench: unknown option .--bogus." "$T/e" && ! grep -q p11bench "$T/e"'
ok "pvault bench --module x: not an operator option" bash -c \
  '"$PV" bench --module /x >/dev/null 2>"$T/e"; [ $? -eq 2 ] && grep -q "unknown option" "$T/e"'
ok "pvault bench --threads (no value): usage error" bash -c \
  '"$PV" bench --threads >/dev/null 2>"$T/e"; [ $? -eq 2 ] && grep -q "needs a value" "$T/e"'
ok "pvault bench --quick=1: usage error" bash -c \
  '"$PV" bench --quick=1 >/dev/null 2>"$T/e"; [ $? -eq 2 ] && grep -q "takes no value" "$T/e"'
ok "a bad value is p11bench's usage error (exit 2)" bash -c \
  '"$PV" bench --mech nope >/dev/null 2>"$T/e"; [ $? -eq 2 ] && grep -q "unknown mechanism nope" "$T/e"'
done_testing
