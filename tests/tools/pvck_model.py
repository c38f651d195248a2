#!/usr/bin/env python3
"""pvck_model.py - a lane-by-lane model of gpu/cuda/pvc_keccak_warp.cuh.

The warp-cooperative Keccak-f[1600] runs only on a GPU; this model follows
the CUDA code step for step (32 lanes, lane L = x + 5 y holds the state's
lane (x, y), lanes 25..31 mirror lanes 0..6 and their results are unused,
the shuffles as list indexing) and checks the sponge it drives against
Python's hashlib (FIPS 202: SHA3-224/256/384/512, SHAKE128/256) on random
messages of every length around the block boundaries.  It checks the
lane algorithm (the rho offsets, the pi sources, the theta and chi
neighbours), so a change to it is made here first; the CUDA code itself
is checked on the device (gpu_ring's digests against the CPU engine, the
PKCS#11 suites).
"""
import hashlib
import random

M64 = (1 << 64) - 1
RC = [0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
      0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
      0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
      0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
      0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
      0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008]
# rho offsets by lane x + 5 y (pvck_rho in the .cuh)
RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
       41, 45, 15, 21, 8, 18, 2, 61, 56, 14]


def rotl(v, n):
    n &= 63
    return ((v << n) | (v >> ((64 - n) & 63))) & M64


def xy(L):
    i = L if L < 25 else L - 25
    return i % 5, i // 5


def shfl(v, src):
    """__shfl_sync: every lane L reads v[src[L]]."""
    return [v[src[L]] for L in range(32)]


def permute(v):
    """One Keccak-f[1600] on the warp; v[L] is lane L's register."""
    X = [xy(L)[0] for L in range(32)]
    Y = [xy(L)[1] for L in range(32)]
    col = [[X[L] + 5 * ((Y[L] + k) % 5) for L in range(32)] for k in range(1, 5)]
    left = [(X[L] + 4) % 5 + 5 * Y[L] for L in range(32)]
    right = [(X[L] + 1) % 5 + 5 * Y[L] for L in range(32)]
    right2 = [(X[L] + 2) % 5 + 5 * Y[L] for L in range(32)]
    # pi: lane (X, Y) takes lane ((X + 3 Y) mod 5, X)
    pisrc = [(X[L] + 3 * Y[L]) % 5 + 5 * X[L] for L in range(32)]
    rho = [RHO[X[L] + 5 * Y[L]] for L in range(32)]
    for r in range(24):
        # theta
        c = list(v)
        for s in col:
            t = shfl(v, s)
            c = [c[L] ^ t[L] for L in range(32)]
        cl, cr = shfl(c, left), shfl(c, right)
        v = [v[L] ^ cl[L] ^ rotl(cr[L], 1) for L in range(32)]
        # rho in the source lane, pi by one shuffle
        t = [rotl(v[L], rho[L]) for L in range(32)]
        v = shfl(t, pisrc)
        # chi
        b1, b2 = shfl(v, right), shfl(v, right2)
        v = [v[L] ^ (~b1[L] & M64 & b2[L]) for L in range(32)]
        # iota
        v[0] ^= RC[r]
    return v


def absorb(state, data, rate):
    """pvck_absorb: full blocks of rate bytes, lanes < rate / 8 load."""
    v = [state[xy(L)[0] + 5 * xy(L)[1]] for L in range(32)]
    for b in range(len(data) // rate):
        blk = data[b * rate:(b + 1) * rate]
        for L in range(32):
            if L < rate // 8:
                v[L] ^= int.from_bytes(blk[8 * L:8 * L + 8], 'little')
        v = permute(v)
    return [v[i] for i in range(25)]      # the gather: lane i to a[i]


def sponge(msg, rate, ds, outlen):
    """kc_sha3's sponge with every permutation on the warp model."""
    st = [0] * 25
    full = len(msg) - len(msg) % rate
    st = absorb(st, msg[:full], rate)
    last = bytearray(msg[full:]) + bytes(rate - (len(msg) - full))
    last[len(msg) - full] ^= ds
    last[rate - 1] ^= 0x80
    st = absorb(st, bytes(last), rate)
    out = b''
    while True:
        out += b''.join(st[i].to_bytes(8, 'little') for i in range(rate // 8))
        if len(out) >= outlen:
            return out[:outlen]
        st = [permute([st[xy(L)[0] + 5 * xy(L)[1]] for L in range(32)])[i] for i in range(25)]


def main():
    rng = random.Random(20261201)
    algs = [('sha3_224', 144, 0x06, 28), ('sha3_256', 136, 0x06, 32),
            ('sha3_384', 104, 0x06, 48), ('sha3_512', 72, 0x06, 64),
            ('shake_128', 168, 0x1f, 200), ('shake_256', 136, 0x1f, 300)]
    n = 0
    for name, rate, ds, outlen in algs:
        lens = [0, 1, rate - 1, rate, rate + 1, 2 * rate, 3 * rate - 1] + \
               [rng.randrange(0, 5000) for _ in range(3)]
        for ln in lens:
            msg = bytes(rng.randrange(256) for _ in range(ln))
            h = hashlib.new(name, msg)
            want = h.digest(outlen) if name.startswith('shake') else h.digest()
            got = sponge(msg, rate, ds, outlen)
            if got != want:
                print(f'FAIL {name} len {ln}')
                raise SystemExit(1)
            n += 1
    print(f'pvck_model: {n} messages over 6 functions equal to hashlib')


if __name__ == '__main__':
    main()
