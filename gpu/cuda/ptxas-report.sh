#!/usr/bin/env bash
# ptxas-report.sh NVCC ARCH SRCROOT BUILDDIR
# Compiles the vault kernel to a cubin with -Xptxas -v and prints the
# evidence recorded in docs/gpu-kernel.md: registers, stack frame, spill
# stores/loads, shared memory, the kernel's code size, and the number of
# local-memory instructions (LDL/STL) in its SASS.
set -euo pipefail
NVCC=$1 ARCH=$2 SRC=$3 BLD=$4
CUDA_BIN=$(dirname "$(readlink -f "$(command -v "$NVCC")")")
OUT=$BLD/ptxas-report
mkdir -p "$OUT"
if [ ! -f "$BLD/pvc_core_all.inc" ]; then
  python3 "$SRC/gpu/cuda/gen_core_inc.py" "$BLD/pvc_core_all.inc" "$SRC" \
    $(cd "$SRC" && find gpu/core -name '*.c' | sort | sed "s|^|$SRC/|")
fi
"$NVCC" -arch="$ARCH" -std=c++17 -cubin -Xptxas -v -I"$SRC" -I"$BLD" \
  -o "$OUT/vault_kernel.cubin" "$SRC/gpu/cuda/vault_kernel.cu" 2> "$OUT/ptxas.txt"
"$CUDA_BIN/cuobjdump" --dump-sass "$OUT/vault_kernel.cubin" > "$OUT/vault_kernel.sass"
# the kernel entry's own lines
awk '/Compiling entry function .pvc_vault_kernel./{f=1} f&&/Used [0-9]+ registers/{print; exit} f' \
  "$OUT/ptxas.txt" > "$OUT/kernel.txt"
regs=$(grep -o 'Used [0-9]* registers' "$OUT/kernel.txt" | grep -o '[0-9]*')
stack=$(grep -o '[0-9]* bytes stack frame' "$OUT/kernel.txt" | head -1 | grep -o '^[0-9]*')
sst=$(grep -o '[0-9]* bytes spill stores' "$OUT/kernel.txt" | head -1 | grep -o '^[0-9]*')
sld=$(grep -o '[0-9]* bytes spill loads' "$OUT/kernel.txt" | head -1 | grep -o '^[0-9]*')
smem=$(grep -o '[0-9]* bytes smem' "$OUT/kernel.txt" | head -1 | grep -o '^[0-9]*')
text=$(readelf -SW "$OUT/vault_kernel.cubin" | awk '$2 ~ /^\.text\.pvc_vault_kernel$/ {print strtonum("0x"$6)}')
text_all=$(readelf -SW "$OUT/vault_kernel.cubin" | awk '$2 ~ /^\.text\./ {s+=strtonum("0x"$6)} END {print s+0}')
ldl=$(grep -c '\bLDL\b' "$OUT/vault_kernel.sass" || true)
stl=$(grep -c '\bSTL\b' "$OUT/vault_kernel.sass" || true)
cubin=$(stat -c %s "$OUT/vault_kernel.cubin")
{
  echo "nvcc: $("$NVCC" --version | tail -1)"
  echo "arch: $ARCH"
  echo "kernel: pvc_vault_kernel"
  echo "registers/thread: $regs"
  echo "stack frame bytes: $stack"
  echo "spill stores bytes: $sst"
  echo "spill loads bytes: $sld"
  echo "static smem bytes: $smem"
  echo "kernel .text bytes: $text"
  echo "all .text bytes (kernel + non-inlined callees): $text_all"
  echo "cubin bytes: $cubin"
  echo "SASS LDL instructions: $ldl"
  echo "SASS STL instructions: $stl"
} | tee "$OUT/summary.txt"
