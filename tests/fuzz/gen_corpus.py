#!/usr/bin/env python3
"""gen_corpus.py - writes the seed corpora of fuzz_blob, fuzz_conf and
fuzz_pkey (tests/fuzz/corpus/{blob,conf,pkey}); fuzz_tmpl's come from
gen_tmpl_corpus.py.  The key files are new keys from `openssl` each time it
runs: run it only to change the seeds, and commit what it wrote.

blob: fuzz_blob.c's encoding (flags, then a raw blob or the header fields
      and payload the harness seals): each key type sealed with the payload
      length its parser takes, used in a request, rewrapped; raw blobs
      with a good and a bad header.
conf: byte 0 = 0 then a pixelvault.conf; byte 0 = 1 or 3 then a master
      key file (plain, passphrase-protected, damaged).
pkey: private key files as `pvault key import --type pkey` takes them."""
import hashlib
import os
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def put(d, name, data):
    p = os.path.join(HERE, 'corpus', d)
    os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, name), 'wb') as f:
        f.write(data)


# ---- blob ------------------------------------------------------------------
# fb_types index: AES 0, SM4 1, GENERIC 2, RSA 3, P256 4, P384 5, ED25519 6, SM2 7
# fb_ops index: 0 GCM, 1 CBC_PAD, 2 CMAC, 3 HMAC, 4 SM4 CTR, 5 RSA PKCS,
# 6 PSS, 7 X.509, 8 ECDSA, 9 EdDSA, 10 SM2 sign, 11 SM2 decrypt,
# 12 ECDH, 13 HKDF, 14 KWP wrap, 15 KW unwrap
def sealed(flags, sel, tidx, payload, ver=1, use=b'\xff\x00'):
    return bytes([flags | 1, sel, ver, tidx, 0, 0, 0, 0]) + use + payload


P256_D = bytes.fromhex('c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721')
P256_PUB = bytes.fromhex('0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6'
                         '7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299')
for name, flags, sel, tidx, pay, ver in [
        ('aes128_gcm', 0x12, 0, 0, bytes(range(16)), 1),
        ('aes_cbcpad', 0x12, 1, 0, bytes(16), 1),
        ('aes_cmac', 0x12, 2, 0, bytes(16), 1),
        ('sm4_ctr', 0x12, 4, 1, bytes(range(16)), 1),
        ('generic_hmac', 0x12, 3, 2, b'k' * 32, 1),
        ('generic_hkdf', 0x12, 13, 2, b'k' * 32, 1),
        ('generic_wrongid', 0x16, 3, 2, b'k' * 32, 1),
        ('aes_rewrap', 0x22, 0, 0, bytes(range(16)), 1),
        ('aes_wrap', 0x12, 14, 0, bytes(range(16)), 1),
        ('aes_unwrap', 0x12, 15, 0, bytes(range(16)), 1),
        ('p256_ecdsa', 0x12, 8, 4, P256_D + P256_PUB, 1),
        ('p256_ecdh', 0x12, 12, 4, P256_D + P256_PUB, 1),
        ('p384_ecdsa', 0x12, 8, 5, bytes(range(1, 49)) + b'\x04' + bytes(96), 1),
        ('ed25519', 0x12, 9, 6, bytes(range(64)), 1),
        ('sm2_sign', 0x12, 10, 7, P256_D + P256_PUB, 1),
        ('sm2_decrypt', 0x12, 11, 7, P256_D + P256_PUB, 1),
        ('rsa_v1_2048', 0x12, 5, 3, struct.pack('>II', 2048, 65537) + bytes(range(256)) * 5, 1),
        ('rsa_v2_1024_pss', 0x12, 6, 3, struct.pack('>II', 1024, 3) + b'\x80' + bytes(600), 2),
        ('rsa_max_x509', 0x52, 7, 3, struct.pack('>II', 4096, 65537) + b'\xc3' * 64, 2),
        ('rsa_v2_rewrap', 0x22, 7, 3, struct.pack('>II', 2048, 65537) + b'\x11' * 900, 2),
        ('untyped', 0x02, 0, 8, bytes(40), 1),
        ('want_type', 0x0a, 0, 0, bytes(range(16)), 1)]:
    put('blob', name, sealed(flags, sel, tidx, pay, ver))
hdr = b'PVK\x01' + struct.pack('>III', 2, 0xff, 16)
put('blob', 'raw_aes', b'\x20\x00' + hdr + bytes(12 + 16 + 16))
put('blob', 'raw_badlen', b'\x00\x00' + b'PVK\x01' + struct.pack('>III', 2, 0xff, 99) + bytes(44))
put('blob', 'raw_rsa_v2', b'\x00\x00' + b'PVK\x02' + struct.pack('>III', 0x10, 0xff, 1160) + bytes(1160 + 28))

# ---- conf ------------------------------------------------------------------
for name, text in [
        ('full', 'token_dir = tokens\nmaster_key = /media/key/master.key\nbackend = cpu\n'
                 'mode = daemon\nsocket = /run/pvault.sock\ncpu_exec = workers\nworkers = 4\n'
                 'gpu_device = 0\ngpu_slots = 256\ngpu_blocks_per_sm = 4\n'),
        ('comments', '# a comment\n\n   token_dir=/var/lib/pv # trailing\nbackend = auto\n'),
        ('bad_line', 'token_dir\n'),
        ('unknown', 'colour = blue\n'),
        ('bad_number', 'workers = 12x\n'),
        ('big_number', 'gpu_slots = 99999999999999999999\n'),
        ('long_path', 'token_dir = ' + 'a/' * 2100 + '\n'),
        ('long_socket', 'socket = /' + 's' * 120 + '\n'),
        ('bad_backend', 'backend = tpu\nmode = both\ncpu_exec = never\n')]:
    put('conf', name, b'\x00' + text.encode())


def mk_check(b):
    return hashlib.sha256(b'PixelVault master key file v1' + b).digest()[:16]


plain = b'PVMK\x01\x00\x00\x00' + bytes(range(32))
put('conf', 'master_plain', b'\x01' + plain + mk_check(plain))
pw = b'PVMK\x01\x01\x00\x00' + bytes(16) + struct.pack('>I', 1000) + bytes(12) + bytes(32) + bytes(16)
put('conf', 'master_pass', b'\x03' + pw + mk_check(pw))
put('conf', 'master_badsum', b'\x01' + plain + bytes(16))

# ---- pkey ------------------------------------------------------------------
def ossl(*args, inp=None):
    return subprocess.run(['openssl'] + list(args), input=inp, check=True,
                          capture_output=True).stdout


with tempfile.TemporaryDirectory() as t:
    k = {}
    for name, args in [('rsa1024', ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024']),
                       ('p256', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256']),
                       ('p384', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384']),
                       ('ed25519', ['-algorithm', 'ED25519']),
                       ('sm2', ['-algorithm', 'SM2']),
                       ('x25519', ['-algorithm', 'X25519'])]:
        k[name] = ossl('genpkey', *args)
        put('pkey', name + '.pem', k[name])
        put('pkey', name + '.p8.der', ossl('pkey', '-outform', 'DER', inp=k[name]))
    put('pkey', 'rsa1024.pkcs1.pem', ossl('rsa', '-traditional', inp=k['rsa1024']))
    put('pkey', 'p256.sec1.der', ossl('ec', '-outform', 'DER', inp=k['p256']))
    put('pkey', 'p256.enc.p8.der', ossl('pkcs8', '-topk8', '-outform', 'DER', '-v2', 'aes-128-cbc',
                                        '-iter', '1', '-passout', 'pass:fuzz', inp=k['p256']))
    kp = os.path.join(t, 'k.pem')
    with open(kp, 'wb') as f:
        f.write(k['p256'])
    cert = ossl('req', '-new', '-x509', '-key', kp, '-subj', '/CN=fuzz', '-days', '1')
    put('pkey', 'p256.cert.pem', cert)
    cp = os.path.join(t, 'c.pem')
    with open(cp, 'wb') as f:
        f.write(cert)
    put('pkey', 'p256.p12', ossl('pkcs12', '-export', '-inkey', kp, '-in', cp, '-passout', 'pass:fuzz',
                                 '-iter', '1', '-maciter', '-keypbe', 'AES-128-CBC',
                                 '-certpbe', 'AES-128-CBC'))
    put('pkey', 'p256.explicit.der', ossl('ec', '-outform', 'DER', '-param_enc', 'explicit', inp=k['p256']))
