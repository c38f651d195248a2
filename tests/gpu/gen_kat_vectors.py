#!/usr/bin/env python3
"""Generate tests/gpu/kat_vectors.h: fixed known answers for the GPU KATs,
computed by independent implementations (Python hashlib = OpenSSL, and the
'cryptography' package = OpenSSL), never by our own core.

usage: python3 tests/gpu/gen_kat_vectors.py > tests/gpu/kat_vectors.h"""
import hashlib, hmac
from cryptography.hazmat.primitives import hashes, cmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.keywrap import aes_key_wrap, aes_key_wrap_with_padding
from cryptography.hazmat.primitives.padding import PKCS7
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, utils
from cryptography.hazmat.primitives import serialization

# names must match kat_ops.h / kc_hash.h / kc_sym.h / kc_ec.h
J = dict(HASH=1, HMAC=2, HKDF=3, ECB_ENC=4, CBC_PAD_ENC=5, CBC_PAD_DEC=6, CTR=7,
         GCM_SEAL=8, GCM_OPEN=9, CMAC=10, KW_WRAP=11, KWP_WRAP=12, ED_PUB=13,
         ED_SIGN=14, EC_PUB=15, ECDH=16, ECDSA_SIGN=17, ECDSA_VERIFY=18)
H = dict(SHA1=1, SHA224=2, SHA256=3, SHA384=4, SHA512=5, SHA3_224=6, SHA3_256=7,
         SHA3_384=8, SHA3_512=9, SM3=10, SHAKE128=11, SHAKE256=12)
HL = {'SHA1': 'sha1', 'SHA224': 'sha224', 'SHA256': 'sha256', 'SHA384': 'sha384',
      'SHA512': 'sha512', 'SHA3_224': 'sha3_224', 'SHA3_256': 'sha3_256',
      'SHA3_384': 'sha3_384', 'SHA3_512': 'sha3_512', 'SM3': 'sm3'}
AES, SM4 = 1, 2
P256, P384 = 1, 2

def pat(n, m=7, a=1):
    return bytes(((i * m + a) & 0xff) for i in range(n))

V = []
def add(name, t, alg, key=b'', iv=b'', aad=b'', data=b'', out=b'', rc=0, outlen=None):
    V.append((name, J[t], alg, key, iv, aad, data, out, rc, len(out) if outlen is None else outlen))

for msg in (b'abc', b'', pat(1000)):
    for h, n in HL.items():
        add('%s(%d)' % (h, len(msg)), 'HASH', H[h], data=msg, out=hashlib.new(n, msg).digest())
    for h, f in (('SHAKE128', hashlib.shake_128), ('SHAKE256', hashlib.shake_256)):
        add('%s(%d)' % (h, len(msg)), 'HASH', H[h], data=msg, out=f(msg).digest(64))
for h in ('SHA1', 'SHA256', 'SHA512', 'SM3', 'SHA3_256', 'SHA3_512'):
    for kl in (20, 200):
        k = pat(kl, 3, 5); m = pat(100, 11, 2)
        add('HMAC-%s(k%d)' % (h, kl), 'HMAC', H[h], key=k, data=m,
            out=hmac.new(k, m, HL[h]).digest())
ikm, salt, info = pat(22, 1, 0x0b), pat(13), pat(10, 1, 0xf0)
for h, hc in (('SHA256', hashes.SHA256()), ('SHA512', hashes.SHA512())):
    okm = HKDF(algorithm=hc, length=82, salt=salt, info=info).derive(ikm)
    add('HKDF-%s' % h, 'HKDF', H[h], key=ikm, iv=salt, aad=info, out=okm)

def enc(alg, mode, key, data):
    c = Cipher(alg(key), mode).encryptor()
    return c.update(data) + c.finalize()

for kl in (16, 24, 32):
    k = pat(kl, 5, 9); d = pat(48, 13)
    add('AES%d-ECB' % (kl * 8), 'ECB_ENC', AES, key=k, data=d, out=enc(algorithms.AES, modes.ECB(), k, d))
    iv = pat(16, 3)
    for dl in (0, 37, 64):
        d = pat(dl, 17, 3)
        p = PKCS7(128).padder(); pd = p.update(d) + p.finalize()
        ct = enc(algorithms.AES, modes.CBC(iv), k, pd)
        add('AES%d-CBC-PAD(%d)' % (kl * 8, dl), 'CBC_PAD_ENC', AES, key=k, iv=iv, data=d, out=ct)
        add('AES%d-CBC-PAD-DEC(%d)' % (kl * 8, dl), 'CBC_PAD_DEC', AES, key=k, iv=iv, data=ct, out=d)
    ctr = bytes(12) + b'\xff\xff\xff\xfe'
    d = pat(77, 9)
    add('AES%d-CTR' % (kl * 8), 'CTR', AES, key=k, iv=ctr, data=d, out=enc(algorithms.AES, modes.CTR(ctr), k, d))
    for ivl, al, dl in ((12, 20, 60), (12, 0, 0), (8, 5, 33), (60, 16, 16)):
        iv = pat(ivl, 7, 4); a = pat(al, 3, 1); d = pat(dl, 5, 8)
        ct = AESGCM(k).encrypt(iv, d, a) if ivl >= 8 else None
        add('AES%d-GCM(iv%d,a%d,p%d)' % (kl * 8, ivl, al, dl), 'GCM_SEAL', AES, key=k, iv=iv, aad=a, data=d, out=ct)
        add('AES%d-GCM-OPEN(iv%d,a%d,p%d)' % (kl * 8, ivl, al, dl), 'GCM_OPEN', AES, key=k, iv=iv, aad=a, data=ct, out=d)
        bad = bytearray(ct); bad[-1] ^= 1
        add('AES%d-GCM-OPEN-BAD(iv%d)' % (kl * 8, ivl), 'GCM_OPEN', AES, key=k, iv=iv, aad=a, data=bytes(bad), out=b'', rc=-10)
    for dl in (0, 16, 40):
        d = pat(dl, 3, 3)
        c = cmac.CMAC(algorithms.AES(k)); c.update(d)
        add('AES%d-CMAC(%d)' % (kl * 8, dl), 'CMAC', AES, key=k, data=d, out=c.finalize())
    kd = pat(32, 11, 7)
    add('AES%d-KW' % (kl * 8), 'KW_WRAP', AES, key=k, data=kd, out=aes_key_wrap(k, kd))
    for dl in (1, 20, 32):
        kd = pat(dl, 11, 7)
        add('AES%d-KWP(%d)' % (kl * 8, dl), 'KWP_WRAP', AES, key=k, data=kd, out=aes_key_wrap_with_padding(k, kd))
k = bytes.fromhex('0123456789abcdeffedcba9876543210')
d = k + pat(16)
add('SM4-ECB', 'ECB_ENC', SM4, key=k, data=d, out=enc(algorithms.SM4, modes.ECB(), k, d))
iv = pat(16, 3)
d = pat(45, 7)
p = PKCS7(128).padder(); pd = p.update(d) + p.finalize()
add('SM4-CBC-PAD', 'CBC_PAD_ENC', SM4, key=k, iv=iv, data=d, out=enc(algorithms.SM4, modes.CBC(iv), k, pd))
add('SM4-CTR', 'CTR', SM4, key=k, iv=iv, data=pat(50), out=enc(algorithms.SM4, modes.CTR(iv), k, pat(50)))
try:
    iv = pat(12); a = pat(9); d = pat(40, 3)
    c = Cipher(algorithms.SM4(k), modes.GCM(iv)).encryptor()
    c.authenticate_additional_data(a)
    ct = c.update(d) + c.finalize() + c.tag
    add('SM4-GCM', 'GCM_SEAL', SM4, key=k, iv=iv, aad=a, data=d, out=ct)
except Exception:
    pass
for i in range(3):
    seed = pat(32, 5 + 2 * i, i)
    sk = ed25519.Ed25519PrivateKey.from_private_bytes(seed)
    pub = sk.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    m = pat(33 * i, 3)
    add('Ed25519-PUB-%d' % i, 'ED_PUB', 0, key=seed, out=pub)
    add('Ed25519-SIGN-%d' % i, 'ED_SIGN', 0, key=seed, data=m, out=sk.sign(m))
for cv, curve, hc, fl in ((P256, ec.SECP256R1(), hashes.SHA256(), 32), (P384, ec.SECP384R1(), hashes.SHA384(), 48)):
    for i in range(2):
        d = int.from_bytes(hashlib.sha512(b'pv-gpu-kat-%d-%d' % (cv, i)).digest(), 'big') % (2 ** (8 * fl - 8)) + 1
        sk = ec.derive_private_key(d, curve)
        pub = sk.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        priv = d.to_bytes(fl, 'big')
        add('EC%d-PUB-%d' % (fl * 8, i), 'EC_PUB', cv, key=priv, out=pub)
        peer = ec.derive_private_key(d + 12345, curve)
        ppub = peer.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        add('EC%d-ECDH-%d' % (fl * 8, i), 'ECDH', cv, key=priv, iv=ppub, out=sk.exchange(ec.ECDH(), peer.public_key()))
        h = hashlib.new('sha256' if fl == 32 else 'sha384', b'msg %d' % i).digest()
        der = sk.sign(h, ec.ECDSA(utils.Prehashed(hc), deterministic_signing=True))
        r, s = utils.decode_dss_signature(der)
        sig = r.to_bytes(fl, 'big') + s.to_bytes(fl, 'big')
        add('EC%d-ECDSA-SIGN-%d' % (fl * 8, i), 'ECDSA_SIGN', cv, key=priv, data=h, out=sig)
        add('EC%d-ECDSA-VERIFY-%d' % (fl * 8, i), 'ECDSA_VERIFY', cv, key=pub, iv=sig, data=h, out=b'')
        bad = bytearray(sig); bad[5] ^= 0x40
        add('EC%d-ECDSA-VERIFY-BAD-%d' % (fl * 8, i), 'ECDSA_VERIFY', cv, key=pub, iv=bytes(bad), data=h, out=b'', rc=-11)

print('/* generated by tests/gpu/gen_kat_vectors.py (hashlib / cryptography %s,'
      % __import__('cryptography').__version__)
print(' * i.e. OpenSSL): do not edit. */')
print('static const kat_vec kat_vectors[] = {')
for (name, t, alg, key, iv, aad, data, out, rc, ol) in V:
    inp = key + iv + aad + data
    print('\t{ "%s", %d, %d, %d, %d, %d, %d, %d, %d,\n\t  "%s",\n\t  "%s" },'
          % (name, t, alg, len(key), len(iv), len(aad), len(data), ol, rc, inp.hex(), out.hex()))
print('};')
