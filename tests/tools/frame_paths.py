#!/usr/bin/env python3
"""frame_paths.py PTXAS_LOG PTX [--top N] - where the vault kernel's stack
frame comes from, function by function and path by path.

Inputs are a separate compile of gpu/cuda/vault_kernel.cu (frame-paths.sh
makes both): PTXAS_LOG is `nvcc -rdc=true -c -Xptxas -v`'s output, which
gives every function its own frame and spills (the whole-program build
gives every function the entry's cumulative frame), and PTX is the
`-rdc=true -ptx` output, whose `call` instructions are the call graph (the
kernel makes no indirect calls: a call through a pointer fails the script).

Prints, in bytes: the entry's cumulative frame (own frame plus its deepest
callee chain) and that chain; the deepest path through each engine job and
core operation (JOBS below: the longest chain from the entry down to the
function plus the function's own deepest chain); the largest own frames;
and the counts of functions with a frame and with spills.  The goal is 0
bytes of stack and 0 spills (docs/gpu-kernel.md, "The 0 B goal"): every
line here is a part of the gap to it.
"""
import re
import subprocess
import sys

# the functions whose deepest path is reported: the engine's jobs and the
# core operations below them (demangled names without their parameters)
JOBS = [
    "ve_op_pk", "kc_rsa_keygen", "ve_pk_rsa_sign", "ve_pk_rsa_crypt", "ve_pk_ec_sign",
    "ve_pk_eddsa", "ve_pk_ecdh", "ve_pk_sm2_crypt", "ve_op_cipher", "ve_op_mac",
    "ve_op_digest", "ve_op_keygen", "ve_op_import", "ve_op_wrap", "ve_op_unwrap",
    "ve_op_derive", "ve_op_random", "ve_op_seed", "ve_idle", "ve_boot",
]

PROPS = re.compile(r"Function properties for (\S+)\s*\n\s*(\d+) bytes stack frame, "
                   r"(\d+) bytes spill stores, (\d+) bytes spill loads")
HEADER = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)*\.(?:func|entry)\s+(?:\([^)]*\)\s*)?"
                    r"([A-Za-z_$][\w$]*)\s*\(?", re.M)
CALL = re.compile(r"\bcall(?:\.uni)?\s*(?:\(\s*retval\d+\s*\)\s*,)?\s*([A-Za-z_$%][\w$]*)")


def frames(log):
    own = {}
    for name, stack, st, ld in PROPS.findall(log):
        own[name] = (int(stack), int(st), int(ld))
    return own


def call_graph(ptx):
    """{function: set of callees} from the function bodies of the PTX."""
    graph = {}
    pos = 0
    while True:
        m = HEADER.search(ptx, pos)
        if m is None:
            return graph
        name = m.group(1)
        brace = ptx.find("{", m.end())
        semi = ptx.find(";", m.end())
        if brace < 0 or (0 <= semi < brace):          # a declaration only
            pos = m.end()
            continue
        end = ptx.find("\n}", brace)
        body = ptx[brace:end]
        callees = set()
        for c in CALL.findall(body):
            if c.startswith("%"):
                sys.exit("frame_paths: an indirect call in " + name)
            callees.add(c)
        graph[name] = callees
        pos = end


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                             text=True, check=True).stdout.split("\n")
        return dict(zip(names, out))
    except (OSError, subprocess.CalledProcessError):
        return {n: n for n in names}


def short(d):
    """a demangled name without its parameter list or the anonymous
    namespace of the translation unit's static functions"""
    d = d.split("(")[0]
    return re.sub(r"^_INTERNAL_\w+::", "", d)


def main():
    args = sys.argv[1:]
    top = 15
    if "--top" in args:
        i = args.index("--top")
        top = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    own = frames(open(args[0]).read())
    graph = call_graph(open(args[1]).read())
    entry = "pvc_vault_kernel"
    if entry not in graph or entry not in own:
        sys.exit("frame_paths: no %s in the inputs" % entry)
    names = sorted(set(graph) | set(own))
    dm = demangle(names)

    def frame(f):
        return own.get(f, (0, 0, 0))[0]

    depth, best = {}, {}
    state = {}

    def down(f):                  # own frame + the deepest callee chain
        if state.get(f) == 1:
            sys.exit("frame_paths: recursion through " + dm.get(f, f))
        if f in depth:
            return depth[f]
        state[f] = 1
        d, b = 0, None
        for c in sorted(graph.get(f, ())):     # ties: the same path every run
            x = down(c)
            if x > d:
                d, b = x, c
        state[f] = 2
        depth[f], best[f] = frame(f) + d, b
        return depth[f]

    down(entry)
    # pre[f]: the largest sum of frames from the entry down to f's caller
    order, seen = [], set()

    def topo(f):
        if f in seen:
            return
        seen.add(f)
        for c in graph.get(f, ()):
            topo(c)
        order.append(f)

    topo(entry)
    order.reverse()
    pre, via = {entry: 0}, {entry: None}
    for f in order:
        if f not in pre:
            continue
        for c in graph.get(f, ()):
            x = pre[f] + frame(f)
            if x > pre.get(c, -1):
                pre[c], via[c] = x, f

    def chain_down(f):
        out = []
        while f is not None:
            out.append(f)
            f = best.get(f)
        return out

    def chain_up(f):
        out = []
        f = via.get(f)
        while f is not None:
            out.append(f)
            f = via.get(f)
        return list(reversed(out))

    def fmt(path):
        return " > ".join("%s %d" % (short(dm.get(f, f)), frame(f)) for f in path)

    o = own[entry]
    print("entry %s: %d B cumulative frame (own %d B, spills %d / %d B in the entry)"
          % (entry, depth[entry], o[0], o[1], o[2]))
    print("  deepest chain: " + fmt(chain_down(entry)))
    work = max((c for c in sorted(graph[entry]) if short(dm.get(c, c)) != "pvc_burn"), key=down)
    print("  without the burn: %d B: %s" % (frame(entry) + depth[work],
                                          fmt([entry] + chain_down(work))))
    print()
    print("deepest path through each job (B: entry down to it + its own deepest chain)")
    for job in JOBS:
        hits = [f for f in pre if short(dm.get(f, f)) == job]
        for f in sorted(hits, key=lambda f: -(pre[f] + depth[f])):
            print("  %-22s %6d  %s" % (short(dm.get(f, f)), pre[f] + depth[f],
                                      fmt(chain_up(f) + chain_down(f))))
    print()
    print("largest own frames (B; stores / loads of spills)")
    reach = [f for f in pre]
    for f in sorted(reach, key=lambda f: -frame(f))[:top]:
        s = own.get(f, (0, 0, 0))
        print("  %6d  %4d / %4d  %s" % (s[0], s[1], s[2], short(dm.get(f, f))))
    nz = [f for f in reach if frame(f) > 0]
    sp = [f for f in reach if own.get(f, (0, 0, 0))[1] or own.get(f, (0, 0, 0))[2]]
    st = sum(own.get(f, (0, 0, 0))[1] for f in reach)
    ld = sum(own.get(f, (0, 0, 0))[2] for f in reach)
    print()
    print("%d functions reachable from the entry: %d with a frame, %d with spills "
          "(%d B stored / %d B loaded in all)" % (len(reach), len(nz), len(sp), st, ld))


if __name__ == "__main__":
    main()
