#!/usr/bin/env python3
"""pvce_model.py - a lane-by-lane model of gpu/cuda/pvc_ec_warp.cuh.

The warp-cooperative k*G runs only on a GPU; this model follows the CUDA
code with the tables the CUDA build compiles in (pvc_ec_comb_tables.h,
parsed from the file, or from gen_tables.py --warp-comb's output):

  - lane L takes the columns s = 32 g + L, assembles idx_s from the bits of
    k at s, s + d, s + 2d, s + 3d (k big-endian, as the C code reads it),
    selects entry idx_s of its column (0: the identity (0:1:0)), and adds
    its columns with the complete formulas (Renes-Costello-Batina alg. 4,
    a = -3, transcribed from kc_ecp_add, in Montgomery arithmetic);
  - five xor-butterfly levels (16, 8, 4, 2, 1): every lane adds its
    partner's point; afterwards every lane must hold k*G.

Checked against its own reference (plain affine double-and-add with Python
integers, curve constants written out here, not read from the project) for
P-256, SM2 and P-384: edge scalars (1, 2, 3, n-1, n-2, 2^i, one bit per
column, all ones below n, 0 -> identity) and random k.  Independently, every
entry of every table is compared with 2^s * T[i] computed here.  Negative
controls: a copy of the table with one word flipped must make both the
table check and the lane model (with a k that selects that word) fail, and
so must a copy with two lanes' columns swapped.

usage: pvce_model.py HEADER | --gen GEN_TABLES_PY
"""
import random
import re
import subprocess
import sys

CURVES = {
    # name: (p, n, b, Gx, Gy, bits)
    "p256": (0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff,
             0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551,
             0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b,
             0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296,
             0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5, 256),
    "sm2": (0xfffffffeffffffffffffffffffffffffffffffff00000000ffffffffffffffff,
            0xfffffffeffffffffffffffffffffffff7203df6b21c6052b53bbf40939d54123,
            0x28e9fa9e9d9f5e344d5a9e4bcf6509a7f39789f515ab8f92ddbcbd414d940e93,
            0x32c4ae2c1f1981195f9904466a39c9948fe30bbff2660be1715a4589334c74c7,
            0xbc3736a2f4f6779c59bdcee36b692153d0a9877cc62a474002df32e52139f0a0, 256),
    "p384": (2**384 - 2**128 - 2**96 + 2**32 - 1,
             0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973,
             0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef,
             0xaa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7,
             0x3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f, 384),
}


# ---- reference: affine points, None = identity --------------------------
def aff_add(P, Q, p):
    if P is None:
        return Q
    if Q is None:
        return P
    x1, y1 = P
    x2, y2 = Q
    if x1 == x2:
        if (y1 + y2) % p == 0:
            return None
        lam = (3 * x1 * x1 - 3) * pow(2 * y1, -1, p) % p
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (lam * lam - x1 - x2) % p
    return (x3, (lam * (x1 - x3) - y1) % p)


def aff_mul(k, P, p):
    R = None
    for bit in bin(k)[2:]:
        R = aff_add(R, R, p)
        if bit == "1":
            R = aff_add(R, P, p)
    return R


# ---- the lane model ------------------------------------------------------
class Mont:
    def __init__(self, p, nl):
        self.p, self.R = p, 1 << (32 * nl)
        self.Ri = pow(self.R, -1, p)

    def mul(self, a, b):
        return a * b * self.Ri % self.p


def rcb_add(F, bm, P, Q):
    """kc_ecp_add, step by step (Montgomery field elements)."""
    p = F.p
    mul = F.mul
    add = lambda a, b: (a + b) % p
    sub = lambda a, b: (a - b) % p
    X1, Y1, Z1 = P
    X2, Y2, Z2 = Q
    t0 = mul(X1, X2); t1 = mul(Y1, Y2); t2 = mul(Z1, Z2)
    t3 = add(X1, Y1); t4 = add(X2, Y2); t3 = mul(t3, t4)
    t4 = add(t0, t1); t3 = sub(t3, t4); t4 = add(Y1, Z1)
    x3 = add(Y2, Z2); t4 = mul(t4, x3); x3 = add(t1, t2)
    t4 = sub(t4, x3); x3 = add(X1, Z1); y3 = add(X2, Z2)
    x3 = mul(x3, y3); y3 = add(t0, t2); y3 = sub(x3, y3)
    z3 = mul(bm, t2); x3 = sub(y3, z3); z3 = add(x3, x3)
    x3 = add(x3, z3); z3 = sub(t1, x3); x3 = add(t1, x3)
    y3 = mul(bm, y3); t1 = add(t2, t2); t2 = add(t1, t2)
    y3 = sub(y3, t2); y3 = sub(y3, t0); t1 = add(y3, y3)
    y3 = add(t1, y3); t1 = add(t0, t0); t0 = add(t1, t0)
    t0 = sub(t0, t2); t1 = mul(t4, y3); t2 = mul(t0, y3)
    y3 = mul(x3, z3); y3 = add(y3, t2); x3 = mul(t3, x3)
    x3 = sub(x3, t1); z3 = mul(t4, z3); t1 = mul(t3, t0)
    z3 = add(z3, t1)
    return (x3, y3, z3)


def k_bit(kb, pos):
    """bit pos of k (big-endian bytes), as the CUDA code reads it."""
    return (kb[len(kb) - 1 - (pos >> 3)] >> (pos & 7)) & 1


def warp_mulgen(name, tab, k):
    """tab[g][i][coord][limb][lane] (Montgomery words); returns the 32
    lanes' projective points (Montgomery)."""
    p, n, b, gx, gy, bits = CURVES[name]
    nl, d = bits // 32, bits // 4
    ng = d // 32
    F = Mont(p, nl)
    bm = b * F.R % p
    one = F.R % p
    inf = (0, one, 0)
    kb = k.to_bytes(bits // 8, "big")

    def word(g, i, coord, lane):
        return sum(tab[g][i][coord][w][lane] << (32 * w) for w in range(nl))

    acc = []
    for L in range(32):
        a = None
        for g in range(ng):
            s = 32 * g + L
            idx = sum(k_bit(kb, s + j * d) << j for j in range(4))
            t = inf if idx == 0 else (word(g, idx - 1, 0, L), word(g, idx - 1, 1, L), one)
            a = t if g == 0 else rcb_add(F, bm, a, t)
        acc.append(a)
    off = 16
    while off:
        acc = [rcb_add(F, bm, acc[L], acc[L ^ off]) for L in range(32)]
        off >>= 1
    return acc, F


def to_affine(F, P):
    X, Y, Z = (F.mul(v, 1) for v in P)          # out of Montgomery form
    if Z == 0:
        return None
    zi = pow(Z, -1, F.p)
    return (X * zi % F.p, Y * zi % F.p)


def check_k(name, tab, k):
    p, n, b, gx, gy, bits = CURVES[name]
    lanes, F = warp_mulgen(name, tab, k)
    ref = aff_mul(k % n, (gx, gy), p) if k % n else None   # k < 2^bits, any
    ok = all(to_affine(F, P) == ref for P in lanes)
    same = all(P == lanes[0] for P in lanes)
    return ok, same


# ---- the table itself ----------------------------------------------------
def check_table(name, tab):
    """Every entry = 2^s * T[i], T[i] = sum of 2^(d j) G over the bits j of i+1."""
    p, n, b, gx, gy, bits = CURVES[name]
    nl, d = bits // 32, bits // 4
    R = 1 << (32 * nl)
    dbl = [(gx, gy)]
    for _ in range(1, bits):
        dbl.append(aff_add(dbl[-1], dbl[-1], p))
    bad = 0
    for s in range(d):
        g, L = divmod(s, 32)
        for i in range(15):
            want = None
            for j in range(4):
                if (i + 1) >> j & 1:
                    want = aff_add(want, dbl[s + d * j], p)
            got = tuple(sum(tab[g][i][c][w][L] << (32 * w) for w in range(nl)) * pow(R, -1, p) % p
                        for c in range(2))
            if got != want:
                bad += 1
    return bad


# ---- parsing -------------------------------------------------------------
def parse(text):
    tabs = {}
    for m in re.finditer(r"pvce_comb_(\w+)\[(\d+)\]\[15\]\[2\]\[(\d+)\]\[32\]\s*=\s*\{(.*?)\};", text, re.S):
        name, ng, nl, body = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        words = [int(x, 16) for x in re.findall(r"0x[0-9a-fA-F]+", body)]
        assert len(words) == ng * 15 * 2 * nl * 32, (name, len(words))
        it = iter(words)
        tabs[name] = [[[[[next(it) for _ in range(32)] for _ in range(nl)] for _ in range(2)]
                       for _ in range(15)] for _ in range(ng)]
    return tabs


def copy_tab(t):
    return [[[[list(l) for l in c] for c in i] for i in g] for g in t]


def edge_scalars(name):
    p, n, b, gx, gy, bits = CURVES[name]
    d = bits // 4
    ks = [1, 2, 3, 15, 16, n - 1, n - 2, (n - 1) // 2, (n + 1) // 2, 0]
    ks += [1 << i for i in (0, 31, 32, d - 1, d, 2 * d - 1, 3 * d, bits - 2)]
    ks += [(1 << bits) - 1, n, n + 1]            # >= n: the comb reads any bits
    for s in (0, 5, 31, 32, d - 1):              # all 4 teeth of one column
        ks.append(sum(1 << (s + j * d) for j in range(4)))
    return ks


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--gen":
        text = subprocess.run([sys.executable, sys.argv[2], "--warp-comb"], check=True,
                              capture_output=True, text=True).stdout
    elif len(sys.argv) == 2:
        text = open(sys.argv[1]).read()
    else:
        sys.exit(__doc__)
    tabs = parse(text)
    assert sorted(tabs) == sorted(CURVES), sorted(tabs)
    rng = random.Random(0x5eed)
    fails = 0
    for name in ("p256", "sm2", "p384"):
        p, n, b, gx, gy, bits = CURVES[name]
        tab = tabs[name]
        bad = check_table(name, tab)
        if bad:
            print("FAIL %s: %d table entries wrong" % (name, bad))
            fails += 1
        ks = edge_scalars(name) + [rng.randrange(1, n) for _ in range(40)]
        nbad = nsame = 0
        for k in ks:
            ok, same = check_k(name, tab, k)
            nbad += not ok
            nsame += same
        if nbad:
            print("FAIL %s: %d of %d scalars wrong" % (name, nbad, len(ks)))
            fails += 1
        print("%s: table %s, %d scalars: lane model = reference for %d, "
              "all lanes the same projective point for %d" %
              (name, "ok" if not bad else "WRONG", len(ks), len(ks) - nbad, nsame))

        # negative controls: one flipped word; two lanes' columns swapped
        nl, d = bits // 32, bits // 4
        ng = d // 32
        g, i, c, w, L = rng.randrange(ng), rng.randrange(15), rng.randrange(2), rng.randrange(nl), rng.randrange(32)
        broken = copy_tab(tab)
        broken[g][i][c][w][L] ^= 1 << rng.randrange(32)
        s = 32 * g + L                           # a k whose column s selects entry i
        teeth = sum(1 << (s + j * d) for j in range(4))
        k = (rng.randrange(1, n) & ~teeth) | sum(((i + 1) >> j & 1) << (s + j * d) for j in range(4))
        ok, _ = check_k(name, broken, k)
        tbad = check_table(name, broken)
        neg = 0
        if ok or tbad != 1:
            print("FAIL %s: a flipped word (g %d, i %d, coord %d, limb %d, lane %d) went unnoticed "
                  "(lane model ok=%s, table check %d wrong)" % (name, g, i, c, w, L, ok, tbad))
            neg += 1
        # columns 3 and 4 swapped: visible to a k whose idx_3 != idx_4
        # (with equal indices the two swapped terms just trade places)
        swapped = copy_tab(tab)
        for ii in range(15):
            for cc in range(2):
                for ww in range(nl):
                    row = swapped[0][ii][cc][ww]
                    row[3], row[4] = row[4], row[3]
        t3, t4 = sum(1 << (3 + j * d) for j in range(4)), sum(1 << (4 + j * d) for j in range(4))
        k = (rng.randrange(1, n) & ~(t3 | t4)) | t3     # idx_3 = 15, idx_4 = 0
        ok, _ = check_k(name, swapped, k)
        if ok or check_table(name, swapped) == 0:
            print("FAIL %s: swapped lanes went unnoticed" % name)
            neg += 1
        if not neg:
            print("%s: negative controls (flipped word, swapped lanes) detected" % name)
        fails += neg
    if fails:
        print("pvce_model: %d FAILED" % fails)
        sys.exit(1)
    print("pvce_model: OK")


if __name__ == "__main__":
    main()
