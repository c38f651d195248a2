#!/usr/bin/env python3
"""ncu-by-function.py CSV[.xz] OBJECT KERNEL - a kernel's Nsight Compute
source page by function.

CSV: `ncu --import R.ncu-rep --page source --print-source sass --csv` of
one launch (device-phases.sh's PV_NCU_SOURCE=1 writes it as
$OUT/ncusrc-*.csv.xz).  OBJECT: the host object or binary holding the
same build's cubin (e.g. build-dev/tests/gpu/gpu_bench.p/gpu_bench.cu.o for
k_ve2w, build-dev/gpu/cuda/libpv_cuda.a.p/vault_kernel.cu.o for
pvc_vault_kernel).  KERNEL: the kernel's name as it appears in its
section, e.g. k_ve2w.  The kernel's non-inlined callees live in its own
.text section; each FUNC symbol of that section (readelf) gives a range
of offsets from the first SASS address of the CSV.  Prints, per function,
the executed warp instructions and the stall samples with their leading
reasons.  Needs readelf (binutils); no CUDA tool.
"""
import collections
import csv
import lzma
import re
import struct
import subprocess
import sys
import tempfile


def cubin_of(obj, kernel):
    """The embedded ELF of machine EM_CUDA (190) with the kernel's section."""
    data = open(obj, 'rb').read()
    i = 0
    while True:
        i = data.find(b'\x7fELF\x02\x01', i + 1)
        if i < 0:
            sys.exit('no cubin with %s in %s' % (kernel, obj))
        if struct.unpack_from('<H', data, i + 18)[0] != 190:
            continue
        shoff, = struct.unpack_from('<Q', data, i + 40)
        phoff, = struct.unpack_from('<Q', data, i + 32)
        phentsize, phnum, shentsize, shnum = struct.unpack_from('<HHHH', data, i + 54)
        blob = data[i:i + max(shoff + shentsize * shnum, phoff + phentsize * phnum)]
        if re.search(rb'\.text\.[^\x00]*' + kernel.encode(), blob):
            return blob


def functions(cubin, kernel):
    with tempfile.NamedTemporaryFile(suffix='.cubin') as f:
        f.write(cubin)
        f.flush()
        secs = subprocess.run(['readelf', '-SW', f.name], capture_output=True, text=True).stdout
        syms = subprocess.run(['readelf', '-sW', f.name], capture_output=True, text=True).stdout
    idx = None
    for line in secs.split('\n'):
        m = re.search(r'\[\s*(\d+)\]\s+\.text\.\S*' + kernel, line)
        if m:
            idx = m.group(1)
    out = []
    for line in syms.split('\n'):
        p = line.split()
        if len(p) >= 8 and p[3] == 'FUNC' and p[6] == idx:
            name = p[7].split('$')[-1]
            name = re.sub(r'_ZN\d+_INTERNAL_\w+?_cu_[0-9a-f]+', '', name)
            out.append((int(p[1], 16), int(p[2], 0), name))
    return sorted(out)


def main():
    csvf, obj, kernel = sys.argv[1:4]
    funcs = functions(cubin_of(obj, kernel), kernel)
    rows = list(csv.reader((lzma.open if csvf.endswith('.xz') else open)(csvf, 'rt')))
    h = [k for k, r in enumerate(rows) if r and r[0] == 'Address'][0]
    hdr = rows[h]
    data = [r for r in rows[h + 1:] if len(r) == len(hdr)]
    ia, iex = hdr.index('Address'), hdr.index('Instructions Executed')
    ist = hdr.index('Warp Stall Sampling (All Samples)')
    reasons = [(k, c[6:]) for k, c in enumerate(hdr) if c.startswith('stall_') and 'Not Issued' not in c]
    base = int(data[0][ia], 16)
    ex, smp = collections.Counter(), collections.Counter()
    why = collections.defaultdict(collections.Counter)
    for r in data:
        off = int(r[ia], 16) - base
        f = next((n for a, s, n in funcs if a <= off < a + max(s, 1)), kernel)
        ex[f] += int(r[iex] or 0)
        smp[f] += int(r[ist] or 0)
        for k, c in reasons:
            if r[k].isdigit():
                why[f][c] += int(r[k])
    te, ts = sum(ex.values()), max(sum(smp.values()), 1)
    print('%d executed warp instructions, %d stall samples' % (te, sum(smp.values())))
    for f, e in ex.most_common(40):
        top = ', '.join('%s %d' % x for x in why[f].most_common(4))
        print('%9d %5.1f%% %6d %5.1f%%  %-44s %s' % (e, 100.0 * e / te, smp[f], 100.0 * smp[f] / ts, f[:44], top))


if __name__ == '__main__':
    main()
