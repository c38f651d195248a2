#!/usr/bin/env python3
"""
gen_tables.py - generate gpu/core/ec/kc_ec_tables.h (curve constants and the
fixed-base comb tables) with Python integers, independently of the C code.

    python3 gpu/core/ec/gen_tables.py > gpu/core/ec/kc_ec_tables.h

All field constants are stored as little-endian 32-bit limbs, padded to
KC_EC_MAXL (12) limbs.  Values marked "(Montgomery)" are x*R mod p with
R = 2^(32*nl).  The comb table for a curve of `bits` bits with 4 teeth and
spacing d = bits/4 holds, for i = 1..15,
    T[i-1] = sum over j with bit j of i set of 2^(d*j) * G    (affine)

    python3 gpu/core/ec/gen_tables.py --warp-comb > pvc_ec_comb_tables.h

writes instead the per-column tables of the warp-cooperative comb
(gpu/cuda/pvc_ec_warp.cuh; generated at build time by gpu/cuda/meson.build,
used only by the CUDA vault kernel): for every column s = 0..d-1 and
i = 1..15 the affine point 2^s * T[i-1] in Montgomery form, laid out as
    pvce_comb_<curve>[g][i-1][coord][limb][lane],   s = 32 g + lane,
coord 0 = x, 1 = y, limb 0..nl-1 (little-endian 32-bit words), so that the
32 lanes of a warp, lane L reading column 32 g + L, load 32 consecutive
words per instruction.  tests/tools/pvce_model.py checks it.

    python3 gpu/core/ec/gen_tables.py --host-comb > kc_cpu_comb_tables.h

writes the same points for the host's comb (gpu/core/cpu/kc_cpu_ec.c;
generated at build time by gpu/core/cpu/meson.build, host build only) in
the order one thread reads them:
    kc_cpu_comb_<curve>[s][i-1][coord][limb].
"""
import sys

CURVES = {
    "p256": dict(
        p=0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff,
        n=0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551,
        b=0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b,
        gx=0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296,
        gy=0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5,
        bits=256),
    "p384": dict(
        p=0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff,
        n=0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973,
        b=0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef,
        gx=0xaa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7,
        gy=0x3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f,
        bits=384),
    "sm2": dict(
        p=0xfffffffeffffffffffffffffffffffffffffffff00000000ffffffffffffffff,
        n=0xfffffffeffffffffffffffffffffffff7203df6b21c6052b53bbf40939d54123,
        b=0x28e9fa9e9d9f5e344d5a9e4bcf6509a7f39789f515ab8f92ddbcbd414d940e93,
        gx=0x32c4ae2c1f1981195f9904466a39c9948fe30bbff2660be1715a4589334c74c7,
        gy=0xbc3736a2f4f6779c59bdcee36b692153d0a9877cc62a474002df32e52139f0a0,
        bits=256),
}

TEETH = 4
MAXL = 12


def inv(a, m):
    return pow(a, m - 2, m)


def ec_add(P, Q, p):
    if P is None:
        return Q
    if Q is None:
        return P
    (x1, y1), (x2, y2) = P, Q
    if x1 == x2:
        if (y1 + y2) % p == 0:
            return None
        lam = (3 * x1 * x1 - 3) * inv(2 * y1, p) % p
    else:
        lam = (y2 - y1) * inv(x2 - x1, p) % p
    x3 = (lam * lam - x1 - x2) % p
    return (x3, (lam * (x1 - x3) - y1) % p)


def ec_mul(k, P, p):
    R = None
    for bit in bin(k)[2:]:
        R = ec_add(R, R, p)
        if bit == "1":
            R = ec_add(R, P, p)
    return R


def limbs(v):
    out = []
    for _ in range(MAXL):
        out.append(v & 0xffffffff)
        v >>= 32
    assert v == 0
    return out


def arr(v):
    ls = limbs(v)
    return "{" + ", ".join("0x%08xu" % x for x in ls) + "}"


def mod_block(name, m, nl):
    R = 1 << (32 * nl)
    m0i = (-pow(m, -1, 1 << 32)) % (1 << 32)
    lines = []
    lines.append("\t\t/* %s */" % name)
    lines.append("\t\t{ %du, 0x%08xu," % (nl, m0i))
    lines.append("\t\t  %s," % arr(m))
    lines.append("\t\t  %s, /* R^2 mod m */" % arr(R * R % m))
    lines.append("\t\t  %s, /* R mod m */" % arr(R % m))
    lines.append("\t\t  %s } /* m - 2 */" % arr(m - 2))
    return "\n".join(lines)


def curve_block(cname, c):
    p, n, bits = c["p"], c["n"], c["bits"]
    nl = bits // 32
    R = 1 << (32 * nl)
    G = (c["gx"], c["gy"])
    # sanity: G on curve, n*G = O
    assert (G[1] ** 2 - (G[0] ** 3 - 3 * G[0] + c["b"])) % p == 0
    assert ec_mul(n, G, p) is None
    assert p % 4 == 3
    d = bits // TEETH
    base = [ec_mul(1 << (d * j), G, p) for j in range(TEETH)]
    comb = []
    for i in range(1, 1 << TEETH):
        P = None
        for j in range(TEETH):
            if i >> j & 1:
                P = ec_add(P, base[j], p)
        comb.append(P)
    out = []
    out.append("\t{ /* %s */" % cname)
    out.append("\t\t%du, %du, %du, /* nl, flen, comb spacing */" % (nl, bits // 8, d))
    out.append(mod_block("p", p, nl) + ",")
    out.append(mod_block("n", n, nl) + ",")
    out.append("\t\t%s, /* (p+1)/4 */" % arr((p + 1) // 4))
    out.append("\t\t%s, /* b (Montgomery) */" % arr(c["b"] * R % p))
    out.append("\t\t%s, /* Gx (Montgomery) */" % arr(G[0] * R % p))
    out.append("\t\t%s, /* Gy (Montgomery) */" % arr(G[1] * R % p))
    out.append("\t\t{ /* comb: T[i-1], i = 1..15 (affine, Montgomery) */")
    for P in comb:
        out.append("\t\t\t{ %s," % arr(P[0] * R % p))
        out.append("\t\t\t  %s }," % arr(P[1] * R % p))
    out.append("\t\t}")
    out.append("\t}")
    return "\n".join(out)


def column_tables(c):
    """tab[s][i-1] = 2^s * T[i-1] (affine, plain integers), s < bits/4."""
    p, bits = c["p"], c["bits"]
    d = bits // TEETH
    G = (c["gx"], c["gy"])
    dbl = [G]                        # dbl[j] = 2^j G, j < bits
    for _ in range(1, bits):
        dbl.append(ec_add(dbl[-1], dbl[-1], p))
    tab = []
    for s in range(d):
        row = []
        for i in range(1, 1 << TEETH):
            P = None
            for j in range(TEETH):
                if i >> j & 1:
                    P = ec_add(P, dbl[s + d * j], p)
            row.append(P)
        tab.append(row)
    return tab


def comb_curves():
    """Per curve: its name, limbs, columns d and col(s, i, coord), the
    coordinate of 2^s T[i] (affine) in Montgomery form."""
    for name in ("p256", "p384", "sm2"):
        c = CURVES[name]
        p, bits = c["p"], c["bits"]
        nl = bits // 32
        R = 1 << (32 * nl)
        tab = column_tables(c)
        yield name, nl, bits // TEETH, (lambda s, i, coord, tab=tab, R=R, p=p:
                                        tab[s][i][coord] * R % p)


def word(v, limb):
    return "0x%08x" % ((v >> (32 * limb)) & 0xffffffff)


def warp_comb_main():
    print("/* Generated by gpu/core/ec/gen_tables.py --warp-comb - do not edit. */")
    print("/* Included only by gpu/cuda/pvc_ec_warp.cuh (CUDA build). */")
    print("/* pvce_comb_<curve>[g][i-1][coord][limb][lane]: 2^(32g+lane) T[i-1], */")
    print("/* affine, Montgomery form (x: coord 0, y: coord 1). */")
    print("#ifndef PVC_EC_COMB_TABLES_H")
    print("#define PVC_EC_COMB_TABLES_H")
    for name, nl, d, col in comb_curves():
        ng = d // 32
        assert d % 32 == 0
        print("#define PVCE_NG_%s %du" % (name.upper(), ng))
        print("__device__ const uint32_t pvce_comb_%s[%d][15][2][%d][32] = {" % (name, ng, nl))
        for g in range(ng):
            print("{")
            for i in range(15):
                print("{")
                for coord in range(2):
                    print("{")
                    for limb in range(nl):
                        print("{" + ",".join(word(col(32 * g + lane, i, coord), limb)
                                             for lane in range(32)) + "},")
                    print("},")
                print("},")
            print("},")
        print("};")
    print("#endif")


def host_comb_main():
    print("/* Generated by gpu/core/ec/gen_tables.py --host-comb - do not edit. */")
    print("/* Included only by gpu/core/cpu/kc_cpu_ec.c (host build). */")
    print("/* kc_cpu_comb_<curve>[s][i-1][coord][limb]: 2^s T[i-1], affine, */")
    print("/* Montgomery form (x: coord 0, y: coord 1). */")
    for name, nl, d, col in comb_curves():
        print("static const uint32_t kc_cpu_comb_%s[%d][15][2][%d] = {" % (name, d, nl))
        for s in range(d):
            print("{" + ",\n".join(
                "{" + ",".join("{" + ",".join(word(col(s, i, coord), limb) for limb in range(nl)) + "}"
                               for coord in range(2)) + "}"
                for i in range(15)) + "},")
        print("};")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--warp-comb":
        warp_comb_main()
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--host-comb":
        host_comb_main()
        return
    print("/* Generated by gpu/core/ec/gen_tables.py - do not edit. */")
    print("/* Included only by kc_ec_curves.c, inside kc_ec_params(). */")
    blocks = [curve_block(k, CURVES[k]) for k in ("p256", "p384", "sm2")]
    print("static const kc_ec_params kc_ec_tab[3] = {")
    print(",\n".join(blocks))
    print("};")


if __name__ == "__main__":
    main()
