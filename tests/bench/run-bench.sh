#!/usr/bin/env bash
# run-bench.sh BUILD [p11bench options] - `./run bench`: runs p11bench (the
# PKCS#11 benchmark, token vs OpenSSL, thread sweep) from the build
# directory and plots throughput against threads.  Results in BUILD/bench/:
# p11bench.txt (the table), p11bench.csv, p11bench.svg.  Options go to
# p11bench unchanged, e.g. `./run bench --quick` or
# `./run bench --threads 1,2,4 --seconds 2 --mech p256-sign,sha256-4k`.
set -euo pipefail
BUILD=$(readlink -f "${1:?usage: run-bench.sh BUILD [p11bench options]}")
shift
HERE=$(dirname "$(readlink -f "$0")")
OUT=$BUILD/bench
mkdir -p "$OUT"
"$BUILD/provisioning/p11bench/p11bench" --csv "$OUT/p11bench.csv" "$@" | tee "$OUT/p11bench.txt"
python3 "$HERE/plot-threads.py" "$OUT/p11bench.csv" -o "$OUT/p11bench.svg"
echo "results: $OUT/p11bench.txt, p11bench.csv, p11bench.svg"
