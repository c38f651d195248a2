#!/bin/sh
# run-fuzz.sh HARNESS CORPUS_DIR - one fuzz build test (tests/fuzz/meson.build):
# replay every seed of CORPUS_DIR, then fuzz for $PV_FUZZ_SECS seconds
# (default 10).  New inputs go to a scratch directory, never into the tree;
# a crash, a sanitizer report, a leak or a 10-second input fails the test,
# and the input that did it is kept under $PV_FUZZ_ARTIFACTS (default: the
# build directory's fuzz-artifacts/) for `HARNESS FILE` to run again.
set -eu
exe=$1 corpus=$2
secs=${PV_FUZZ_SECS:-10}
arts=${PV_FUZZ_ARTIFACTS:-$PWD/fuzz-artifacts}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pv-fuzz-corpus.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$arts"
"$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$arts/$(basename "$exe")-" "$scratch" "$corpus"
