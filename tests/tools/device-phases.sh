#!/usr/bin/env bash
# tests/tools/device-phases.sh - the GPU machine's checks over a bundle made
# by tests/tools/pack-device; started by `tests/tools/run-device --bundle
# DIR` (tests/tools/README.md lists the phases and their PV_* settings).
#
# Environment (from run-device): ROOT (repo), OUT (results), BUNDLE,
# PHASES (comma list of kat ring unit e2e stress load ecprof nsys bench
# speed), SCALE.  Every phase runs with PIXELVAULT_BACKEND=cuda (the
# token's embedded vault and pvaultd boot the CUDA backend), except the CPU
# reference rows of `load` and `speed` (OpenSSL alone).  Logs:
# $OUT/logs.tgz; table: $OUT/summary.txt, printed last.
set -uo pipefail
cd "$ROOT"
BD_NAME=$(basename "$(cat "$BUNDLE/build-path")")
BD=$ROOT/$BD_NAME
L=/tmp/pv-device-logs
SYS=/tmp/pv-sysroot
rm -rf "$L"; mkdir -p "$L" "$SYS"
: > "$OUT/summary.txt"
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
has() { case ",$PHASES," in *",$1,"*) return 0 ;; esac; return 1; }

# --- setup: libraries the image lacks, and the build's absolute paths ----
for d in "$BUNDLE"/debs/*.deb; do dpkg -x "$d" "$SYS"; done
export LD_LIBRARY_PATH=$SYS/usr/lib/x86_64-linux-gnu:$SYS/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$SYS/usr/bin:$SYS/usr/sbin:$PATH
# ssh-agent starts its PKCS#11 helper from a compiled-in /usr path
[ -x "$SYS/usr/lib/openssh/ssh-pkcs11-helper" ] && export SSH_PKCS11_HELPER=$SYS/usr/lib/openssh/ssh-pkcs11-helper
[ -e "$BD" ] || ln -s "$BUNDLE/$BD_NAME" "$BD"
want=$(dirname "$(cat "$BUNDLE/build-path")")       # e.g. /work/main
if [ "$want" != "$ROOT" ] && [ ! -e "$want" ]; then
  mkdir -p "$(dirname "$want")" && ln -s "$ROOT" "$want"
fi
export PIXELVAULT_BACKEND=${PV_DEVICE_BACKEND:-cuda}   # cpu: a dry run without a GPU
MODULE=$BD/pkcs11/pixelvault-pkcs11.so
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(cat "$BUNDLE/commit") (bundle; uncommitted: $(wc -l < "$BUNDLE/dirty") files)"
  echo "host: $(uname -srm), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1
  ldd "$MODULE" | grep -i "not found" || echo "module: all libraries found"
  ldd "$(command -v pkcs11-tool)" 2>&1 | grep -i "not found" || echo "pkcs11-tool: all libraries found"
  [ -x "$SYS/usr/sbin/sshd" ] && { ldd "$SYS/usr/sbin/sshd" 2>&1 | grep -i "not found" || echo "sshd: all libraries found"; }
} | tee "$OUT/env.txt"
RT="python3 tests/tools/run-tests.py $BUNDLE/$BD_NAME/tests.json"
# p11bench: provisioning/p11bench (tests/bench/p11bench in older bundles)
P11BENCH=$BD/provisioning/p11bench/p11bench
[ -x "$P11BENCH" ] || P11BENCH=$BD/tests/bench/p11bench/p11bench

# logs come back even when the device tool's limit cuts the run short
# (not Nsight Compute's reports: their CSVs come back)
trap 'tar -C "$L/.." --exclude="*.ncu-rep" -czf "$OUT/logs.tgz" "$(basename "$L")" 2>/dev/null' EXIT

phase() {  # name, timeout, command...
  local name=$1 lim=$2; shift 2
  local s=$(date +%s)
  timeout -k 5 "$lim" "$@" > "$L/$name.log" 2>&1
  local rc=$?
  pkill -x pvaultd 2>/dev/null     # a killed test may leave its daemon
  say "$(printf '%-10s rc=%-3s %4ss  %s' "$name" "$rc" "$(( $(date +%s) - s ))" \
        "$(grep -E '^(gpu_(kat|ring): [0-9]+ passed|gpu_burn: |tests: [0-9]+ passed|Run Summary|.*wrong answers)' "$L/$name.log" | tail -1)")"
  if [ "$rc" != 0 ]; then
    # a cut test-runner phase: which tests had finished (the log's tail
    # alone hides the passes before a slow one)
    grep -E '^(OK|SKIP) ' "$L/$name.log" | cut -c1-120 | sed 's/^/    + /' | tee -a "$OUT/summary.txt"
    grep -E 'FAIL|fail|error|Error|sealed|not ok' "$L/$name.log" | head -12 | cut -c1-200 | sed 's/^/    | /' | tee -a "$OUT/summary.txt"
    tail -5 "$L/$name.log" | cut -c1-200 | sed 's/^/    $ /' | tee -a "$OUT/summary.txt"
  fi
  return $rc
}

has kat   && phase kat "${PV_KAT_LIMIT:-240}" "$BD/tests/gpu/gpu_kat"
has kat   && phase burn 60 "$BD/tests/gpu/gpu_burn"     # the vault kernel's local-memory burn
has ring  && phase ring "${PV_RING_LIMIT:-240}" "$BD/tests/gpu/gpu_ring"
sel=()   # PV_UNIT_SUITES / PV_UNIT_NAMES: which unit tests (default: the vault's suites)
for x in ${PV_UNIT_SUITES-engine pkcs11 p11crypto p11pk token daemon pvault}; do sel+=(--suite "$x"); done
for x in ${PV_UNIT_NAMES:-}; do sel+=(--name "$x"); done
has unit  && phase unit "${PV_UNIT_LIMIT:-560}" $RT "$L/unit" "${sel[@]}" \
                 --skip daemon_load_8x8_3s --timeout-scale "${PV_UNIT_TIMEOUT_SCALE:-1}"
# the e2e tests' meson PATH lacks the unpacked tools: prepend them.  The
# clients run with backend auto: the process that opens the token gets the
# GPU, a forked child (pkcs11-tool --test-fork; CUDA does not survive fork)
# falls back to the CPU, as it would for a user.
E2E=${PV_E2E:-token-basic symmetric pubkey daemon provision}
has e2e   && phase e2e "${PV_E2E_LIMIT:-400}" $RT "$L/e2e" $(printf -- '--name e2e-%s ' $E2E) \
                 --env "PATH=$BD/provisioning:$SYS/usr/bin:$SYS/usr/sbin:$PATH" \
                 --env PIXELVAULT_BACKEND=auto --env E2E_SYSROOT=$SYS
if has stress; then
  if [ -x "$BD/tests/stress/p11stress" ]; then
    phase stress "${PV_STRESS_LIMIT:-200}" "$BD/tests/stress/p11stress" --module "$MODULE" --threads "${PV_STRESS_THREADS:-64}" \
      --seconds "${PV_STRESS_SECS:-60}" ${PV_STRESS_ARGS:-}
    sed -n '/^mechanism/,$p' "$L/stress.log" | tail -n 45 | cut -c1-120 >> "$OUT/summary.txt"
  else say "stress     not in the bundle"; fi
fi
if has load; then
  for cfg in ${PV_LOAD_CFGS:-daemon:cuda:8:8 embedded:cuda:1:64 daemon:cpu:8:8}; do
    set -- ${cfg//:/ }
    # --env: meson's own environment for the test (PVD_LOAD_SECS=3) would
    # override variables set on the command line
    phase "load-$1-$2-$3x$4" "${PV_LOAD_LIMIT:-120}" $RT "$L/load-$1-$2" --name daemon_load_8x8_3s \
      --env PIXELVAULT_BACKEND=$2 --env PVD_LOAD_SECS=${PV_LOAD_SECS:-10} --env PVD_LOAD_PROCS=$3 \
      --env PVD_LOAD_THREADS=$4 --env PVD_LOAD_EMBEDDED=$([ "$1" = embedded ] && echo 1 || echo 0)
    grep -h "total" "$L/load-$1-$2"/*.log | tee -a "$OUT/summary.txt"
  done
fi
# ecprof: a P-256 signature's time by load without the ring: gpu_bench
# ecload (the signing core on the vault's warp shape; PV_ECLOAD_CARVEOUTS,
# PV_ECLOAD_DSMEM: carveouts and dynamic shared memory to try) and veload
# (the same through ve_execute: blob unwrap, request checks; PV_VELOAD_STAGGER
# and PV_VELOAD_WORK: start delays and the ring's per-request steps to
# add, gpu_bench.cu VL_*); then Nsight
# Compute on one launch of each with 1 and 8 signatures per multiprocessor
# (stall reasons, caches, issue)
if has ecprof; then
  G=$BD/tests/gpu/gpu_bench
  for cv in ${PV_ECLOAD_CARVEOUTS:--1}; do
    for ds in 0 ${PV_ECLOAD_DSMEM:-}; do
      phase "ecload$cv-$ds" "${PV_ECLOAD_LIMIT:-60}" "$G" 1 ecload "${PV_ECLOAD_N:-1,132,264,528,1056,2112}" "$cv" "$ds"
      grep -h '^BENCH' "$L/ecload$cv-$ds.log" | tee -a "$OUT/summary.txt"
    done
  done
  for st in 0 ${PV_VELOAD_STAGGER:-}; do
    for wk in ${PV_VELOAD_WORK:-0}; do
      phase "veload-$st-$wk" "${PV_ECLOAD_LIMIT:-60}" "$G" 1 veload "${PV_ECLOAD_N:-1,132,264,528,1056,2112}" "$st" "$wk"
      grep -h '^BENCH' "$L/veload-$st-$wk.log" | tee -a "$OUT/summary.txt"
    done
  done
  NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  if [ -n "$NCU" ]; then
    for k in ${PV_NCU_K:-ec ve}; do
      for n in ${PV_NCU_N:-132 1056}; do
        [ "$n" = none ] && continue
        phase "ncu-$k-$n" "${PV_NCU_LIMIT:-150}" "$NCU" --clock-control none -k regex:k_${k}2w --launch-skip 1 \
          --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
          --section MemoryWorkloadAnalysis --section InstructionStats --section Occupancy \
          --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,smsp__sass_inst_executed_op_local_ld.sum" \
          "$G" 1 ${k}load "$n" ${PV_NCU_EXTRA:-}
        cp "$L/ncu-$k-$n.log" "$OUT/ncu-$k-$n.txt"
        # PV_NCU_SOURCE=1: also the executed count of every SASS instruction
        # (which code a signature runs, and how much of it) as CSV
        if [ "${PV_NCU_SOURCE:-0}" = 1 ]; then
          phase "ncusrc-$k-$n" "${PV_NCU_LIMIT:-150}" "$NCU" --clock-control none -k regex:k_${k}2w \
            --launch-skip 1 --launch-count 1 --section SourceCounters --section InstructionStats \
            -o "$L/ncusrc-$k-$n" "$G" 1 ${k}load "$n" ${PV_NCU_EXTRA:-}
          "$NCU" --import "$L/ncusrc-$k-$n.ncu-rep" --page source --print-source sass --csv \
            > "$L/ncusrc-$k-$n.csv" 2>&1
          xz -T0 -c "$L/ncusrc-$k-$n.csv" > "$OUT/ncusrc-$k-$n.csv.xz"
          head -c 3000 "$L/ncusrc-$k-$n.csv"; echo
        fi
      done
    done
  else say "ncu        not found"; fi
fi
# nsys: Nsight Systems over p11bench through the vault - the persistent
# kernel, the CUDA calls and the host threads' system calls (osrt) - for
# PV_NSYS_MECH (p256-sign) at PV_NSYS_THREADS (1,128), PV_NSYS_SECS (2) s a
# row, without OpenSSL rows: $OUT/nsys-p11bench.nsys-rep and nsys stats'
# summaries in $OUT/nsys-stats.txt
if has nsys; then
  NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
  if [ -z "$NSYS" ]; then say "nsys       not found"
  elif [ ! -x "$P11BENCH" ]; then say "nsys       no p11bench in the bundle"
  else
    phase nsys "${PV_NSYS_LIMIT:-180}" "$NSYS" profile --trace=cuda,osrt --sample=none \
      --force-overwrite=true -o "$OUT/nsys-p11bench" "$P11BENCH" --module "$MODULE" \
      --mech "${PV_NSYS_MECH:-p256-sign}" --threads "${PV_NSYS_THREADS:-1,128}" \
      --openssl-threads none --gpu-slots 2048 --seconds "${PV_NSYS_SECS:-2}"
    "$NSYS" stats --report cuda_api_sum,cuda_gpu_kern_sum,osrt_sum "$OUT/nsys-p11bench.nsys-rep" \
      > "$OUT/nsys-stats.txt" 2>&1
  fi
fi
if has bench; then
  if [ "${PV_GPU_BENCH:-1}" != 0 ]; then
    # PV_GPU_BENCH_ONLY: gpu_bench's modes, comma-separated, one process each
    for mode in $(echo "${PV_GPU_BENCH_ONLY:-all}" | tr , ' '); do
      phase "gpu_bench-$mode" "${PV_GPU_BENCH_LIMIT:-200}" "$BD/tests/gpu/gpu_bench" "$SCALE" \
        $([ "$mode" != all ] && echo "$mode")
      grep -h '^BENCH' "$L/gpu_bench-$mode.log" | tee -a "$OUT/summary.txt"
    done
  fi
  if [ "${PV_P11BENCH:-1}" = 0 ]; then :
  elif [ -n "${PV_BENCH_SPLIT:-}" ]; then
    # one process per mechanism and thread count, each printing where its
    # requests' time went (PIXELVAULT_RING_STATS, gpu/client/pv_ringstat.h)
    for m in ${PV_BENCH_MECH//,/ }; do
      for t in ${PV_BENCH_THREADS//,/ }; do
        # PV_BENCH_TOP=S: S seconds in, the process's threads' CPU over 1 s
        # (top -H), summed by thread name: client threads (p11bench),
        # pv-watchdog / pv-waker* (gpu/cuda/pv_cuda.c)
        [ -n "${PV_BENCH_TOP:-}" ] && ( sleep "$PV_BENCH_TOP"; p=$(pgrep -n -x p11bench) &&
          top -H -b -n 2 -d 1 -w 200 -p "$p" > "$L/top-$m-$t.txt" 2>&1 ) &
        # PV_BENCH_PERF=S (with PV_PERF, a perf): S seconds in, where the
        # process's CPU time went over 1.5 s, by symbol
        [ -n "${PV_BENCH_PERF:-}" ] && ( sleep "$PV_BENCH_PERF"; p=$(pgrep -n -x p11bench) &&
          "$PV_PERF" record -e cpu-clock -F 4000 -p "$p" -o "$L/perf-$m-$t.data" -- sleep 1.5 > "$L/perf-$m-$t.rec" 2>&1 &&
          "$PV_PERF" report -i "$L/perf-$m-$t.data" --no-children --stdio --sort dso,sym 2>/dev/null |
            grep -E '^ +[0-9]' | head -45 > "$L/perf-$m-$t.txt"; rm -f "$L/perf-$m-$t.data" ) &
        PIXELVAULT_RING_STATS=1 phase "p11b-$m-$t" "${PV_P11BENCH_LIMIT:-60}" \
          "$P11BENCH" --module "$MODULE" --mech "$m" --threads "$t" \
          --openssl-threads "${PV_BENCH_OSSL:-none}" ${PV_BENCH_GPU_SLOTS:+--gpu-slots $PV_BENCH_GPU_SLOTS} \
          ${PV_BENCH_GPU_BPS:+--gpu-blocks-per-sm $PV_BENCH_GPU_BPS} ${PV_BENCH_ASYNC:+--async $PV_BENCH_ASYNC} \
          --seconds "${PV_BENCH_SECS:-2}"
        grep -hE "^\| $m |^  (total|queue|execute|notify|async split)" "$L/p11b-$m-$t.log" | tee -a "$OUT/summary.txt"
        if [ -n "${PV_BENCH_PERF:-}" ]; then
          wait; { echo "  perf $m $t:"; head -30 "$L/perf-$m-$t.txt" 2>/dev/null || tail -3 "$L/perf-$m-$t.rec"; } | tee -a "$OUT/summary.txt"
        fi
        if [ -n "${PV_BENCH_TOP:-}" ]; then
          wait
          awk '/^top -/ { f++ } f == 2 && /^%Cpu/ { cpu = $0 }
               f == 2 && $1 ~ /^[0-9]+$/ && NF >= 12 { n[$12]++; c[$12] += $9 }
               END { printf "  top: %s;", cpu; for (k in n) printf " %s x%d %.0f%%", k, n[k], c[k]; print "" }' \
            "$L/top-$m-$t.txt" | tee -a "$OUT/summary.txt"
        fi
      done
    done
  elif [ -x "$P11BENCH" ]; then
    # one p11bench over every row; PV_BENCH_OSSL (OpenSSL's thread counts,
    # default 1,16, "none" skips them) and PV_BENCH_GPU_BPS reach it as they
    # reach the split rows above
    phase p11bench "${PV_P11BENCH_LIMIT:-480}" "$P11BENCH" --module "$MODULE" \
      ${PV_BENCH_MECH:+--mech $PV_BENCH_MECH} ${PV_BENCH_GPU_SLOTS:+--gpu-slots $PV_BENCH_GPU_SLOTS} \
      ${PV_BENCH_GPU_BPS:+--gpu-blocks-per-sm $PV_BENCH_GPU_BPS} ${PV_BENCH_ASYNC:+--async $PV_BENCH_ASYNC} \
      --threads "${PV_BENCH_THREADS:-1,4,16,64,128}" --openssl-threads "${PV_BENCH_OSSL:-1,16}" \
      --seconds "${PV_BENCH_SECS:-2}" --csv "$OUT/p11bench.csv"
    cp "$L/p11bench.log" "$OUT/p11bench.txt"
  else say "p11bench   not in the bundle"; fi
fi
# speed: `openssl speed` on the host's cores (-multi PV_SPEED_MULTI, 16 by
# default), PV_SPEED_SECS (3) s a measurement, for each of p11bench's
# mechanisms (the digests and GCM at p11bench's sizes): OpenSSL's own best
# on this host, beside p11bench's OpenSSL rows (full EVP init per
# operation).  Raw output in $L/speed.log; one line a mechanism, ops/s, in
# $OUT/openssl-speed.txt.  Run it while nothing else loads the host.
if has speed; then
  if command -v openssl >/dev/null 2>&1; then
    export SPEED_MULTI=${PV_SPEED_MULTI:-16} SPEED_SECS=${PV_SPEED_SECS:-3}
    phase speed "${PV_SPEED_LIMIT:-150}" bash -c '
      for a in rsa2048 ecdsap256 sm2 ed25519; do
        echo "== $a"; openssl speed -seconds "$SPEED_SECS" -multi "$SPEED_MULTI" "$a" 2>&1
      done
      for e in sha3-256:4096 sm3:4096 sha256:4096 sha3-256:64 aes-256-gcm:1048576 aes-256-gcm:16384; do
        echo "== ${e%:*} ${e#*:}"
        openssl speed -seconds "$SPEED_SECS" -multi "$SPEED_MULTI" -bytes "${e#*:}" -evp "${e%:*}" 2>&1
      done'
    awk -v multi="$SPEED_MULTI" '
      BEGIN { split("rsa2048:rsa2048-sign ecdsap256:p256-sign sm2:sm2-sign ed25519:ed25519-sign", a, " ")
              for (i in a) { split(a[i], p, ":"); pk[p[1]] = p[2] }
              print "# openssl speed -multi " multi ": ops/s (signatures: sign/s)" }
      /^== / { alg = $2; size = $3; next }
      alg in pk && / bits / && $(NF-1) ~ /^[0-9.]+$/ { printf "%-14s %14.0f\n", pk[alg], $(NF-1); next }
      size != "" && NF == 2 && $2 ~ /^[0-9.]+k$/ {
        if (alg == "aes-256-gcm") m = size == 1048576 ? "aes256gcm-1m" : "aes256gcm-16k"
        else m = size == 64 ? alg "-64" : alg "-4k"
        printf "%-14s %14.0f\n", m, substr($2, 1, length($2) - 1) * 1000 / size }' \
      "$L/speed.log" > "$OUT/openssl-speed.txt"
    cat "$OUT/openssl-speed.txt" >> "$OUT/summary.txt"
  else say "speed      no openssl program here"; fi
fi
echo
echo "================ PixelVault GPU validation (bundle) ================"
cat "$OUT/summary.txt"
