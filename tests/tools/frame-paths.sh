#!/usr/bin/env bash
# frame-paths.sh NVCC ARCH SRCROOT BUILDDIR - where the vault kernel's
# stack frame comes from: compiles gpu/cuda/vault_kernel.cu separately
# (-rdc=true: every function keeps its own frame in ptxas's report, and
# the PTX's calls are the call graph; under a minute, no GPU) and prints
# frame_paths.py's table - the deepest chain, the deepest path through
# each engine job, the largest own frames, the functions with frames and
# spills.  Not the shipped cubin (the whole-program build of
# ptxas-report.sh is): its entry has its own register allocation, and
# non-inlined functions count their saved registers as spills.
#   ninja -C build cuda-frame-paths
set -euo pipefail
NVCC=$1 ARCH=$2 SRC=$3 BLD=$4
OUT=$BLD/frame-paths
mkdir -p "$OUT"
if [ ! -f "$BLD/pvc_core_all.inc" ]; then
  python3 "$SRC/gpu/cuda/gen_core_inc.py" "$BLD/pvc_core_all.inc" "$SRC" \
    $(cd "$SRC" && find gpu/core gpu/engine -name '*.c' ! -path 'gpu/core/cpu/*' | sort | sed "s|^|$SRC/|")
fi
if [ ! -f "$BLD/pvc_ec_comb_tables.h" ]; then
  python3 "$SRC/gpu/core/ec/gen_tables.py" --warp-comb > "$BLD/pvc_ec_comb_tables.h"
fi
flags=(-arch="$ARCH" -std=c++17 -rdc=true -I"$SRC" -I"$BLD" -diag-suppress 1675)
"$NVCC" "${flags[@]}" -c -Xptxas -v -o "$OUT/vault_kernel.o" "$SRC/gpu/cuda/vault_kernel.cu" \
  2> "$OUT/ptxas.txt" &
"$NVCC" "${flags[@]}" -ptx -o "$OUT/vault_kernel.ptx" "$SRC/gpu/cuda/vault_kernel.cu"
wait $!
python3 "$SRC/tests/tools/frame_paths.py" "$OUT/ptxas.txt" "$OUT/vault_kernel.ptx" | tee "$OUT/report.txt"
