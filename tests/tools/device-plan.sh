#!/usr/bin/env bash
# tests/tools/device-plan.sh PLAN [PHASES] - the named runs on the GPU
# machine, over the bundle tests/tools/pack-device made on a build machine
# (tests/tools/README.md says how to get both there):
#
#   correctness    is the CUDA build right: gpu_kat and gpu_burn (every
#                  primitive of the core on the GPU against the CPU build
#                  and OpenSSL-made vectors; the kernel's local-memory
#                  burn), gpu_ring (the persistent kernel's ring, boot,
#                  wipes, errors, sealing on a GPU fault), the unit suites
#                  through the CUDA backend (engine, pkcs11, p11crypto,
#                  p11pk, token, daemon, pvault), the e2e flows of the real
#                  clients the device runs, and the 64-thread stress
#                  (p11stress, 60 s, every mechanism, every answer
#                  checked).  PHASES, a comma list of kat, ring, unit, e2e
#                  and stress, runs a part of it (e.g. to split it over
#                  calls of limited length).
#   release-bench  docs/benchmarks.md's tables: gpu_ring (the vault boots),
#                  gpu_bench's kernel-only rates, the lone-request split
#                  and RSA key generation; p11bench over every mechanism
#                  at 1, 16, 128, 512 and 1,024 threads with OpenSSL on 1
#                  and 16 threads in the same process; the async rows (64
#                  PKCS#11 3.2 async sessions on each of 8 and 12 threads,
#                  OpenSSL on 16); then `openssl speed -multi 16` on the
#                  host's cores.
#   profile        where the kernel's time goes: P-256 signatures on the
#                  vault's warp shape without the ring (gpu_bench ecload,
#                  and veload through the engine's ve_execute) at 1 to 16
#                  per multiprocessor, Nsight Compute over one launch of
#                  each at 1 and 8 per multiprocessor and over a lone
#                  RSA-2048 signature (sections, and every SASS
#                  instruction's count and stall samples as CSV), then
#                  Nsight Systems over p11bench through the vault.
#
# Each plan prints a short table last and leaves in $OUT (default
# build-device/) that table (PLAN.txt), env.txt, logs.tgz (every log) and
# its data files: at most 8 files.  PV_BUNDLE names another bundle than
# build-devpack/bundle.tar.xz.  PV_PLAN_LIMIT (default 580 s) bounds the
# whole plan, so that it ends inside a 10-minute call (0: no bound).  The
# PV_* settings of device-phases.sh (README.md) change a plan's phases.
set -uo pipefail
cd "$(dirname "$(readlink -f "$0")")/../.."
ROOT=$PWD
PLAN=${1:-}
B=${PV_BUNDLE:-build-devpack/bundle.tar.xz}
RES=${OUT:-$ROOT/build-device}
W=/tmp/pv-plan             # each call's results, packed into logs.tgz at the end
UNPACKED=/tmp/pv-bundle    # where run-device unpacks the bundle
T0=$(date +%s)
LIMIT=${PV_PLAN_LIMIT:-580}

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2; }
case "$PLAN" in correctness|release-bench|profile) ;; *) usage ;; esac
[ -f "$B" ] || [ -d "$B" ] || { echo "device-plan: no bundle $B (tests/tools/pack-device makes it)" >&2; exit 2; }
mkdir -p "$RES"
rm -rf "$W" && mkdir -p "$W"

# call NAME PHASES [ARGS]: run-device over the bundle (the archive the
# first time, the unpacked copy after) with ARGS, its results in $W/NAME;
# the call's time is what is left of PV_PLAN_LIMIT less RESERVE seconds for
# what follows it.  Its status: run-device's, or 1 if a phase failed.
FIRST=1
call() {
  local name=$1 phases=$2 src=$B lim=0 rc
  shift 2
  [ $FIRST = 0 ] && src=$UNPACKED
  FIRST=0
  if [ "$LIMIT" != 0 ]; then
    lim=$(( LIMIT - ($(date +%s) - T0) - ${RESERVE:-15} ))
    if [ $lim -lt 20 ]; then
      echo "$name: not run (PV_PLAN_LIMIT reached)" | tee "$W/$name.cut"
      return 1
    fi
  fi
  mkdir -p "$W/$name"
  OUT=$W/$name timeout -k 5 $lim bash tests/tools/run-device --bundle "$src" --phases "$phases" \
    "$@" > "$W/$name/run-device.log" 2>&1
  rc=$?
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    echo "$name: cut at ${lim} s (PV_PLAN_LIMIT)" | tee "$W/$name.cut"
    # the phases' logs, which run-device packs only when it ends by itself
    [ -f "$W/$name/logs.tgz" ] || tar -C /tmp -czf "$W/$name/logs.tgz" pv-device-logs 2>/dev/null
  fi
  [ -f "$W/$name/env.txt" ] && [ ! -f "$RES/env.txt" ] && cp "$W/$name/env.txt" "$RES/env.txt"
  if [ $rc = 0 ] && grep -qE '^[a-z][a-z0-9_.+-]* +rc=[1-9]' "$W/$name/summary.txt" 2>/dev/null; then
    rc=1
  fi
  return $rc
}

# The phase lines of a call's summary ("name rc=N  Ts  result", or why a
# phase did not run), and the failures' excerpts under them.
phase_lines() {
  grep -E '^[a-z][a-z0-9_.+-]* +(rc=|not |no )|^    [-+|$] ' "$W/$1/summary.txt" 2>/dev/null
  cat "$W/$1.cut" 2>/dev/null
}

# finish FILE...: keep FILE... (paths under $W, each under 16 MiB) in
# $OUT, pack everything else into $OUT/logs.tgz (not the Nsight reports)
finish() {
  local f
  for f in "$@"; do
    [ -f "$W/$f" ] && [ "$(stat -c %s "$W/$f")" -lt 16000000 ] && cp "$W/$f" "$RES/$(basename "$f")"
  done
  tar -C "$W" --exclude='*.ncu-rep' --exclude='*.nsys-rep' --exclude='*.sqlite' -czf "$RES/logs.tgz" .
}

header() {
  echo "== $PLAN: $(grep -h '^commit:' "$RES/env.txt" 2>/dev/null | head -1)"
  grep -h -m1 -E 'H100|H200|NVIDIA|GeForce|Tesla|RTX' "$RES/env.txt" 2>/dev/null | sed 's/^/== /'
}

case "$PLAN" in
correctness)
  # the clients' e2e flows that the device machine can run (firefox and
  # python-pkcs11 are not in the bundle)
  export PV_E2E=${PV_E2E:-token-basic symmetric pubkey openssl ssh-login ssh-login-daemon nss gnutls daemon provision}
  call checks "${2:-kat,ring,unit,e2e,stress}"
  rc=$?
  {
    header
    echo
    phase_lines checks
    echo
    if [ $rc = 0 ]; then echo "correctness: PASS"; else echo "correctness: FAIL (logs.tgz has every log)"; fi
  } > "$W/correctness.txt"
  finish correctness.txt checks/summary.txt
  cat "$RES/correctness.txt"
  exit $rc ;;

release-bench)
  # 1. the vault boots; gpu_bench's default run (kernel-only rates, the
  #    ring, PCIe), the lone-request split (sig) and key generation
  #    (keygen); p11bench's sweep over every mechanism
  (export PV_RING_LIMIT=${PV_RING_LIMIT:-60} PV_GPU_BENCH_ONLY=${PV_GPU_BENCH_ONLY:-all,sig,keygen} \
     PV_GPU_BENCH_LIMIT=${PV_GPU_BENCH_LIMIT:-200} PV_BENCH_SECS=${PV_BENCH_SECS:-2} \
     PV_BENCH_THREADS=${PV_BENCH_THREADS:-1,16,128,512,1024} PV_BENCH_OSSL=${PV_BENCH_OSSL:-1,16} \
     PV_BENCH_GPU_SLOTS=${PV_BENCH_GPU_SLOTS:-2048} PV_P11BENCH_LIMIT=${PV_P11BENCH_LIMIT:-330}
   RESERVE=150 call sweep ring,bench --scale 0.3)
  rc=$?
  # 2. the async rows (mechanisms whose calls pend), then openssl speed
  (export PV_GPU_BENCH=0 PV_BENCH_SECS=${PV_BENCH_SECS:-2} PV_BENCH_ASYNC=64 \
     PV_BENCH_MECH=${PV_ASYNC_MECH:-sha3-256-4k,sm3-4k,sha3-256-64,aes256gcm-16k,p256-sign} \
     PV_BENCH_THREADS=${PV_ASYNC_THREADS:-8,12} PV_BENCH_OSSL=16 PV_BENCH_GPU_SLOTS=2048 \
     PV_P11BENCH_LIMIT=100
   FIRST=0 call async bench,speed) || rc=1
  [ -f "$W/async/p11bench.csv" ] && mv "$W/async/p11bench.csv" "$W/async/p11bench-async.csv"
  [ -f "$W/async/p11bench.txt" ] && mv "$W/async/p11bench.txt" "$W/async/p11bench-async.txt"
  grep -h '^BENCH .* kernel-only ' "$W/sweep/summary.txt" > "$W/gpu_bench-kernel-only.txt" 2>/dev/null
  {
    header
    echo
    phase_lines sweep
    phase_lines async
    echo
    # per mechanism: the token's lone latency and best rate (and at which
    # thread count), the async rate, OpenSSL's on 16 threads in the same
    # process, the ratio, and openssl speed's
    python3 - "$W/sweep/p11bench.csv" "$W/async/p11bench-async.csv" "$W/async/openssl-speed.txt" <<'PY'
import csv, os, sys
def rows(p):
    return list(csv.DictReader(open(p))) if os.path.exists(p) else []
sweep, asy = rows(sys.argv[1]), rows(sys.argv[2])
speed = {}
if os.path.exists(sys.argv[3]):
    for line in open(sys.argv[3]):
        f = line.split()
        if len(f) == 2 and not line.startswith('#'):
            speed[f[0]] = float(f[1])
mechs = []
for r in sweep + asy:
    if r['mech'] not in mechs:
        mechs.append(r['mech'])
def best(rs):
    return max(rs, key=lambda r: float(r['ops_s'])) if rs else None
print('%-14s %10s %16s %16s %12s %7s %14s' % ('mechanism', 'lone p50', 'token ops/s (T)',
      'async ops/s (T)', 'OpenSSL-16', 'ratio', 'openssl speed'))
for m in mechs:
    tok = [r for r in sweep if r['mech'] == m and r['impl'] == 'token']
    lone = [r for r in tok if r['threads'] == '1']
    bt, ba = best(tok), best([r for r in asy if r['mech'] == m and r['impl'] != 'openssl'])
    o16 = best([r for r in sweep + asy if r['mech'] == m and r['impl'] == 'openssl'
                and r['threads'] == '16'])
    top = max([float(x['ops_s']) for x in (bt, ba) if x] or [0])
    print('%-14s %10s %16s %16s %12s %7s %14s' % (m,
          '%.1f us' % float(lone[0]['p50_us']) if lone else '-',
          '%.0f (%s)' % (float(bt['ops_s']), bt['threads']) if bt else '-',
          '%.0f (%s)' % (float(ba['ops_s']), ba['threads']) if ba else '-',
          '%.0f' % float(o16['ops_s']) if o16 else '-',
          '%.2fx' % (top / float(o16['ops_s'])) if o16 and top else '-',
          '%.0f' % speed[m] if m in speed else '-'))
PY
    echo
    echo "kernel-only (gpu_bench, CUDA events):"
    sed 's/^BENCH /  /; s/  (.*//' "$W/gpu_bench-kernel-only.txt"
    echo
    if [ $rc = 0 ]; then echo "release-bench: done"; else echo "release-bench: FAILED (logs.tgz)"; fi
  } > "$W/release-bench.txt"
  finish release-bench.txt sweep/p11bench.csv sweep/p11bench.txt async/p11bench-async.csv \
    async/openssl-speed.txt gpu_bench-kernel-only.txt
  cat "$RES/release-bench.txt"
  exit $rc ;;

profile)
  # 1. P-256: ecload / veload at 1 to 16 per multiprocessor, Nsight
  #    Compute over k_ec2w and k_ve2w at 1 and 8 per multiprocessor
  (export PV_NCU_K=${PV_NCU_K:-ec ve} PV_NCU_N=${PV_NCU_N:-132 1056} PV_NCU_SOURCE=${PV_NCU_SOURCE:-1}
   RESERVE=260 call p256 ecprof)
  rc=$?
  # 2. a lone RSA-2048 signature through ve_execute (veload work 32),
  #    then Nsight Systems over p11bench through the vault
  (export PV_ECLOAD_N=1 PV_VELOAD_WORK=32 PV_NCU_K=ve PV_NCU_N=1 PV_NCU_EXTRA="0 32" PV_NCU_SOURCE=1
   FIRST=0 call rsa ecprof,nsys) || rc=1
  for f in "$W"/p256/ncusrc-*.csv.xz; do [ -f "$f" ] && mv "$f" "${f%.csv.xz}-p256.csv.xz"; done
  for f in "$W"/rsa/ncusrc-*.csv.xz; do [ -f "$f" ] && mv "$f" "${f%.csv.xz}-rsa.csv.xz"; done
  # the lone RSA signature's SASS by function (ncu-by-function.py; the
  # bundle's gpu_bench holds the cubin that ran)
  G=$UNPACKED/$(basename "$(cat "$UNPACKED/build-path" 2>/dev/null)")/tests/gpu/gpu_bench
  if [ -f "$W/rsa/ncusrc-ve-1-rsa.csv.xz" ] && [ -f "$G" ]; then
    python3 tests/tools/ncu-by-function.py "$W/rsa/ncusrc-ve-1-rsa.csv.xz" "$G" k_ve2w \
      > "$W/rsa-by-function.txt" 2>&1 || mv "$W/rsa-by-function.txt" "$W/rsa-by-function.err"
  fi
  {
    header
    echo
    phase_lines p256 | grep -v '^ncusrc' || true
    phase_lines rsa | grep -v '^ncusrc' || true
    echo
    grep -h '^BENCH' "$W"/p256/summary.txt "$W"/rsa/summary.txt 2>/dev/null | sed 's/^BENCH /  /'
    echo
    # one line per Nsight Compute report: the launch's time, SM and memory
    # throughput, occupancy, registers
    for f in "$W"/p256/ncu-*.txt "$W"/rsa/ncu-*.txt; do
      [ -f "$f" ] || continue
      awk -v n="$(basename "$(dirname "$f")")/$(basename "$f" .txt)" '
        $1 == "Duration" { d = $(NF-1) " " $NF }
        /Compute \(SM\) Throughput/ { sm = $NF "%" }
        $1 == "Memory" && $2 == "Throughput" && $3 == "%" { mem = $NF "%" }
        /Achieved Occupancy/ { occ = $NF "%" }
        /Registers Per Thread/ { reg = $NF }
        END { printf "  %-18s duration %s, SM %s, memory %s, occupancy %s, %s registers\n",
                     n, d, sm, mem, occ, reg }' "$f"
    done
    if [ -s "$W/rsa-by-function.txt" ]; then
      echo
      echo "lone RSA-2048 by function (ncu-by-function.py):"
      head -15 "$W/rsa-by-function.txt" | sed 's/^/  /'
    fi
    if [ -s "$W/rsa/nsys-stats.txt" ]; then
      echo
      echo "Nsight Systems over p11bench (nsys-stats.txt, nsys-p11bench.nsys-rep):"
      grep -A6 -i 'cuda_gpu_kern_sum' "$W/rsa/nsys-stats.txt" | cut -c1-150 | sed 's/^/  /'
    fi
    echo
    if [ $rc = 0 ]; then echo "profile: done"; else echo "profile: FAILED (logs.tgz)"; fi
  } > "$W/profile.txt"
  finish profile.txt p256/ncusrc-ve-1056-p256.csv.xz p256/ncusrc-ec-1056-p256.csv.xz \
    rsa/ncusrc-ve-1-rsa.csv.xz rsa/nsys-stats.txt rsa/nsys-p11bench.nsys-rep
  cat "$RES/profile.txt"
  exit $rc ;;
esac
