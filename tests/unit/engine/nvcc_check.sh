#!/usr/bin/env bash
# nvcc_check.sh - compile the portable engine (with the gpu/core files it
# uses) as one CUDA translation unit, the way the CUDA backend includes it,
# and print ptxas resource usage of a probe kernel calling ve_execute.
# Usage: tests/unit/engine/nvcc_check.sh [arch]   (from the repository root)
set -euo pipefail
ARCH=${1:-sm_90}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
TU=$(mktemp --suffix=.cu)
trap 'rm -f "$TU" "${TU%.cu}.o"' EXIT
{
  for mb in $(find gpu/core -name meson.build | sort); do
    d=$(dirname "$mb")
    for f in $(grep -o "'[a-z_0-9]*\.c'" "$mb" | tr -d "'"); do
      echo "#include \"$d/$f\""; done
  done
  for f in $(grep -o "'ve_[a-z_0-9]*\.c'" gpu/engine/meson.build | tr -d "'"); do
    echo "#include \"gpu/engine/$f\""; done
  cat <<'K'
__global__ void ve_probe(const ve_vault *v, ve_worker *w, const ve_desc *d,
                         uint8_t *a, uint32_t n, ve_result *r)
{
	ve_execute(v, w, d, a, n, r);
}
K
} > "$TU"
"$NVCC" -arch="$ARCH" -std=c++17 -x cu -I"$PWD" -Xptxas -v -c "$TU" -o "${TU%.cu}.o" 2>&1 \
  | grep -vE 'declared but never referenced|^$|Remark: The warnings' || true
test -s "${TU%.cu}.o" && echo "nvcc_check: OK ($ARCH)"
