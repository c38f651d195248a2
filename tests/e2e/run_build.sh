#!/usr/bin/env bash
# run_build.sh SRCROOT SCRATCH - `./run build` tells what went wrong.
# Copies the source tree (the files git knows, committed or not) to a
# throwaway directory under SCRATCH, then, with a build directory of its own
# (PV_BUILD_DIR) and only the one small library that holds the edited file:
#   - a warning in a C file is shown, counted, and the build succeeds;
#   - a syntax error shows the compiler's error (file and line) and the
#     build exits non-zero;
#   - a broken meson.build shows meson's error and exits non-zero, both
#     where ninja re-configures and where meson setup runs afresh;
# and none of this output carries ANSI escapes (it is not a terminal).
# A fresh configure and one compile each: seconds with or without ccache.
set -uo pipefail
SRC=$(readlink -f "${1:?usage: $0 SRCROOT SCRATCH}")
SCRATCH=${2:?usage: $0 SRCROOT SCRATCH}
mkdir -p "$SCRATCH"
T=$(mktemp -d "$SCRATCH/run-build-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
TREE=$T/tree
LIB=gpu/cpu/libpv_cpu.a          # one source file: gpu/cpu/pv_cpu.c
FILE=gpu/cpu/pv_cpu.c

N=0 FAIL=0
check() {                        # check DESC CMD...
  local desc=$1
  shift
  N=$((N + 1))
  if "$@"; then echo "ok $N - $desc"; else echo "not ok $N - $desc"; FAIL=$((FAIL + 1)); fi
}
has() { grep -qF -- "$2" "$1"; }
no_ansi() { ! grep -q $'\033' "$1"; }
show() { sed 's/^/#   /' "$1" | tail -30; }

if ! git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "1..0 # SKIP $SRC is not a git checkout"
  exit 0
fi
mkdir -p "$TREE"
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard \
   | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$TREE" \
  || { echo "Bail out! cannot copy the tree"; exit 1; }

build() {                        # build LOG BUILDDIR [TARGET...]: run's status
  local log=$1 dir=$2
  shift 2
  (cd "$TREE" && PV_BUILD_DIR=$dir ./run build "$@") >"$log" 2>&1
}

# 1. a warning: visible, counted, not fatal in the main build
printf '\nint pv_run_build_test(void) { int unused_here; return 0; }\n' >>"$TREE/$FILE"
build "$T/warn.log" "$TREE/build" "$LIB"; rc=$?
check "a warning: ./run build succeeds" test "$rc" -eq 0
check "a warning: the compiler's warning is shown" has "$T/warn.log" "$FILE:"
check "a warning: ... naming the flag" has "$T/warn.log" "warning: unused variable"
check "a warning: run counts it" has "$T/warn.log" "[run] 1 compiler warning(s) above"
check "a warning: no ANSI escapes" no_ansi "$T/warn.log"
[ "$FAIL" -eq 0 ] || show "$T/warn.log"

# 2. a syntax error
printf '\nint pv_run_build_test_broken(void) { return 0 }\n' >>"$TREE/$FILE"
build "$T/error.log" "$TREE/build" "$LIB"; rc=$?
f=$FAIL
check "a syntax error: ./run build exits non-zero" test "$rc" -ne 0
check "a syntax error: the compiler's error is shown" has "$T/error.log" "$FILE:"
check "a syntax error: ... as an error" has "$T/error.log" "error: expected"
check "a syntax error: run says the build failed" has "$T/error.log" "[run] build failed in"
check "a syntax error: no ANSI escapes" no_ansi "$T/error.log"
[ "$FAIL" -eq "$f" ] || show "$T/error.log"

# 3. a broken meson.build: ninja's re-configure fails in the configured
#    directory, meson setup in a new one
printf '\nthis is not meson(\n' >>"$TREE/meson.build"
for d in build build-setup; do
  build "$T/$d.log" "$TREE/$d"; rc=$?
  f=$FAIL
  case $d in
    build) what="re-configuring"; says="[run] build failed in" ;;
    *)     what="a new build dir"; says="[run] meson setup failed in" ;;
  esac
  check "a broken meson.build, $what: ./run build exits non-zero" test "$rc" -ne 0
  check "a broken meson.build, $what: meson's error is shown" has "$T/$d.log" "meson.build:"
  check "a broken meson.build, $what: ... as an error" has "$T/$d.log" "ERROR: Expecting"
  check "a broken meson.build, $what: run says so" has "$T/$d.log" "$says"
  check "a broken meson.build, $what: no ANSI escapes" no_ansi "$T/$d.log"
  [ "$FAIL" -eq "$f" ] || show "$T/$d.log"
done

echo "1..$N"
[ "$FAIL" -eq 0 ]
