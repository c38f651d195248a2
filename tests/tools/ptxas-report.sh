#!/usr/bin/env bash
# ptxas-report.sh NVCC ARCH SRCROOT BUILDDIR [OBJECT PTXAS_LOG]
# Compiles the vault kernel to a cubin with -Xptxas -v and prints the
# evidence recorded in docs/gpu-kernel.md: registers, stack frame, spill
# stores/loads, shared memory, the kernel's code size, and the number of
# local-memory instructions (LDL/STL) in its SASS, and whether the
# local-memory burn covers every callee (exit 1 if not).  With OBJECT and
# PTXAS_LOG (an already built vault_kernel.cu.o and the ptxas -v output of
# that build) it analyses those instead of compiling again.
set -euo pipefail
NVCC=$1 ARCH=$2 SRC=$3 BLD=$4
CUDA_BIN=$(dirname "$(readlink -f "$(command -v "$NVCC")")")
OUT=$BLD/ptxas-report
mkdir -p "$OUT"
CUOBJDUMP=$(command -v cuobjdump || ls "$CUDA_BIN/cuobjdump" 2>/dev/null || true)
if [ $# -ge 6 ]; then
  cp "$6" "$OUT/ptxas.txt"
  # the cubin embedded in the object: the ELF of machine EM_CUDA (190)
  # holding .text.pvc_vault_kernel (no cuobjdump needed)
  python3 - "$5" "$OUT/vault_kernel.cubin" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
i = 0
while True:
    i = data.find(b'\x7fELF\x02\x01', i + 1)
    if i < 0:
        sys.exit('no cubin with pvc_vault_kernel in ' + sys.argv[1])
    if struct.unpack_from('<H', data, i + 18)[0] != 190:
        continue
    shoff, = struct.unpack_from('<Q', data, i + 40)
    phoff, = struct.unpack_from('<Q', data, i + 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from('<HHHH', data, i + 54)
    size = max(shoff + shentsize * shnum, phoff + phentsize * phnum)
    blob = data[i:i + size]
    if b'.text.pvc_vault_kernel' in blob:
        open(sys.argv[2], 'wb').write(blob)
        break
PY
fi
if [ ! -f "$BLD/pvc_core_all.inc" ]; then
  python3 "$SRC/gpu/cuda/gen_core_inc.py" "$BLD/pvc_core_all.inc" "$SRC" \
    $(cd "$SRC" && find gpu/core gpu/engine -name '*.c' ! -path 'gpu/core/cpu/*' | sort | sed "s|^|$SRC/|")
fi
if [ ! -f "$BLD/pvc_ec_comb_tables.h" ]; then
  python3 "$SRC/gpu/core/ec/gen_tables.py" --warp-comb > "$BLD/pvc_ec_comb_tables.h"
fi
# the local-memory burn (gpu/cuda/pvc_burn.cuh) covers the entry's callees
# while it is their deepest call: then 128 more bytes of burn make the
# kernel's cumulative stack 128 bytes larger (compiled beside the kernel).
# 128: one step of the burn's loop unrolled by 8 (16 more bytes left a
# remainder loop, whose registers grew the entry's own frame by 16)
burn=$(sed -n 's/^#define PVC_BURN_BYTES \([0-9]*\)u$/\1/p' "$SRC/gpu/cuda/pvc_burn.cuh")
if [ -z "$burn" ] || [ $((burn % 128)) != 0 ]; then
  echo "ptxas-report: PVC_BURN_BYTES (gpu/cuda/pvc_burn.cuh) must be a multiple of 128" >&2
  exit 1
fi
kcompile() {  # cubin, ptxas log, extra nvcc flags...
  local cubin=$1 log=$2; shift 2
  "$NVCC" -arch="$ARCH" -std=c++17 -cubin -Xptxas -v -I"$SRC" -I"$BLD" -diag-suppress 1675 "$@" \
    -o "$cubin" "$SRC/gpu/cuda/vault_kernel.cu" 2> "$log"
}
kcompile "$OUT/burn128.cubin" "$OUT/ptxas-burn128.txt" -DPVC_BURN_BYTES=$((burn + 128))u &
burn_job=$!
[ $# -ge 6 ] || kcompile "$OUT/vault_kernel.cubin" "$OUT/ptxas.txt"
wait "$burn_job"
if [ -n "$CUOBJDUMP" ]; then
  "$CUOBJDUMP" --dump-sass "$OUT/vault_kernel.cubin" > "$OUT/vault_kernel.sass"
else
  echo "no cuobjdump here" > "$OUT/vault_kernel.sass"
fi
# the kernel entry's own lines
awk '/Compiling entry function .pvc_vault_kernel./{f=1} f&&/Used [0-9]+ registers/{print; exit} f' \
  "$OUT/ptxas.txt" > "$OUT/kernel.txt"
regs=$(grep -o 'Used [0-9]* registers' "$OUT/kernel.txt" | grep -o '[0-9]*')
stack=$(grep -o '[0-9]* bytes stack frame' "$OUT/kernel.txt" | head -1 | grep -o '^[0-9]*')
sst=$(grep -o '[0-9]* bytes spill stores' "$OUT/kernel.txt" | head -1 | grep -o '^[0-9]*')
sld=$(grep -o '[0-9]* bytes spill loads' "$OUT/kernel.txt" | head -1 | grep -o '^[0-9]*')
smem=$(grep -o '[0-9]* bytes smem' "$OUT/kernel.txt" | head -1 | grep -o '^[0-9]*')
# every function of the TU (the non-inlined callees spill too; their frames
# are folded into the entry's stack frame, their spills are not)
read -r fsp sst_all sld_all < <(awk '/bytes stack frame/{s+=$5; l+=$9; if ($5>0||$9>0) n++}
  END{print n+0, s+0, l+0}' "$OUT/ptxas.txt")
read -r text text_all < <(readelf -SW "$OUT/vault_kernel.cubin" 2>/dev/null | python3 -c '
import re, sys
k = a = 0
for line in sys.stdin:
    m = re.search(r"\]\s+(\.text\.\S+)\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)", line)
    if m:
        n = int(m.group(2), 16)
        a += n
        if m.group(1) == ".text.pvc_vault_kernel":
            k = n
print(k, a)')
cubin=$(stat -c %s "$OUT/vault_kernel.cubin")
cum=$(grep -o '[0-9]* bytes cumulative stack size' "$OUT/kernel.txt" | head -1 | grep -o '^[0-9]*')
cum128=$(awk '/Compiling entry function .pvc_vault_kernel./{f=1} f&&/cumulative stack size/{print; exit}' \
  "$OUT/ptxas-burn128.txt" | grep -o '[0-9]* bytes cumulative' | grep -o '^[0-9]*')
if [ "$((cum128 - cum))" = 128 ]; then burn_ok=yes; else burn_ok=NO; fi
if [ -n "$CUOBJDUMP" ]; then
  ldl=$(grep -c '\bLDL\b' "$OUT/vault_kernel.sass" || true)
  stl=$(grep -c '\bSTL\b' "$OUT/vault_kernel.sass" || true)
else
  ldl="n/a (no cuobjdump here)"; stl="n/a (no cuobjdump here)"
fi
{
  echo "nvcc: $("$NVCC" --version | tail -1)"
  echo "arch: $ARCH"
  echo "kernel: pvc_vault_kernel"
  echo "registers/thread: $regs"
  echo "stack frame bytes: $stack"
  echo "spill stores bytes: $sst"
  echo "spill loads bytes: $sld"
  echo "spill stores/loads bytes, all functions: $sst_all / $sld_all ($fsp functions spill)"
  echo "static smem bytes: $smem"
  echo "kernel .text bytes: $text"
  echo "all .text bytes (kernel + non-inlined callees): $text_all"
  echo "cubin bytes: $cubin"
  echo "SASS LDL instructions: $ldl"
  echo "SASS STL instructions: $stl"
  echo "local-memory burn bytes: $burn (entry's own frame: $((cum - burn)) B)"
  echo "burn covers every callee: $burn_ok (cumulative stack $cum B; $cum128 B with 128 more bytes of burn)"
} | tee "$OUT/summary.txt"
if [ "$burn_ok" != yes ]; then
  echo "ptxas-report: the burn no longer covers the deepest callee: raise PVC_BURN_BYTES in gpu/cuda/pvc_burn.cuh" >&2
  exit 1
fi
