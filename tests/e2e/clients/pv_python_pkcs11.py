#!/usr/bin/env python3
"""python-pkcs11 (PyPI) against PixelVault: prints TAP lines on stdout.

Usage: pv_python_pkcs11.py MODULE TOKEN_LABEL USER_PIN FIRST_TEST_NUMBER
Independent checks: hashlib for digests, the openssl command for AES-CBC
ciphertexts made with a key imported by value, the token's own verify for
signatures (OpenSSL checks of those are in pubkey.sh / openssl.sh).
"""
import hashlib
import os
import subprocess
import sys
import traceback

import pkcs11
from pkcs11 import Attribute, KeyType, Mechanism, ObjectClass
from pkcs11.mechanisms import GCMParams

module, label, pin, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
failed = 0


def check(desc, fn):
    global n, failed
    n += 1
    try:
        ok = fn()
    except Exception:
        ok = False
        for line in traceback.format_exc().splitlines():
            print("#   " + line)
    print(("ok" if ok else "not ok") + " %d - python-pkcs11: %s" % (n, desc))
    if not ok:
        failed += 1


lib = pkcs11.lib(module)
st = {}


def token():
    st["token"] = lib.get_token(token_label=label)
    return st["token"].label == label


def login():
    st["s"] = st["token"].open(user_pin=pin, rw=True)
    return True


def wrong_pin():
    try:
        st["token"].open(user_pin="00000000")
    except pkcs11.exceptions.PinIncorrect:
        return True
    return False


def aes_generate():
    key = st["s"].generate_key(KeyType.AES, 256, label="py-aes", store=False)
    data = os.urandom(1000)
    iv = st["s"].generate_random(128)
    ct = key.encrypt(data, mechanism_param=iv)
    return len(ct) == 1008 and ct[:len(data)] != data and key.decrypt(ct, mechanism_param=iv) == data


def aes_vs_openssl():
    k, iv, data = os.urandom(32), os.urandom(16), os.urandom(777)
    key = st["s"].create_object({
        Attribute.CLASS: ObjectClass.SECRET_KEY, Attribute.KEY_TYPE: KeyType.AES,
        Attribute.VALUE: k, Attribute.TOKEN: False, Attribute.ENCRYPT: True,
        Attribute.DECRYPT: True, Attribute.LABEL: "py-aes-import"})
    ct = key.encrypt(data, mechanism=Mechanism.AES_CBC_PAD, mechanism_param=iv)
    ref = subprocess.run(["openssl", "enc", "-aes-256-cbc", "-K", k.hex(), "-iv", iv.hex()],
                         input=data, capture_output=True, check=True).stdout
    return ct == ref and key.decrypt(ct, mechanism=Mechanism.AES_CBC_PAD, mechanism_param=iv) == data


def aes_gcm():
    key = st["s"].generate_key(KeyType.AES, 128, store=False)
    nonce, data = os.urandom(12), os.urandom(300)
    param = GCMParams(nonce, b"aad", 128)
    ct = key.encrypt(data, mechanism=Mechanism.AES_GCM, mechanism_param=param)
    return len(ct) == 316 and key.decrypt(ct, mechanism=Mechanism.AES_GCM, mechanism_param=param) == data


def digests():
    data = os.urandom(5000)
    return (st["s"].digest(data, mechanism=Mechanism.SHA256) == hashlib.sha256(data).digest() and
            st["s"].digest(data, mechanism=Mechanism.SHA512) == hashlib.sha512(data).digest() and
            st["s"].digest(iter([data[:100], data[100:]]), mechanism=Mechanism.SHA256)
            == hashlib.sha256(data).digest())


def rsa():
    pub, priv = st["s"].generate_keypair(KeyType.RSA, 2048, store=False)
    msg = b"python-pkcs11 signs"
    sig = priv.sign(msg, mechanism=Mechanism.SHA256_RSA_PKCS)
    return len(sig) == 256 and pub.verify(msg, sig, mechanism=Mechanism.SHA256_RSA_PKCS) and \
        not pub.verify(msg + b"!", sig, mechanism=Mechanism.SHA256_RSA_PKCS)


def ecdsa():
    from pkcs11.util.ec import encode_named_curve_parameters
    params = st["s"].create_domain_parameters(KeyType.EC, {
        Attribute.EC_PARAMS: encode_named_curve_parameters("secp256r1")}, local=True)
    pub, priv = params.generate_keypair(store=False)
    msg = b"python-pkcs11 signs with P-256"
    sig = priv.sign(msg, mechanism=Mechanism.ECDSA_SHA256)
    return len(sig) == 64 and pub.verify(msg, sig, mechanism=Mechanism.ECDSA_SHA256) and \
        not pub.verify(msg + b"!", sig, mechanism=Mechanism.ECDSA_SHA256)


def random_bytes():
    a, b = st["s"].generate_random(256), st["s"].generate_random(256)
    return len(a) == 32 and a != b


check("lib.get_token finds the token by label", token)
check("a wrong PIN raises PinIncorrect", wrong_pin)
check("open a R/W session with the user PIN", login)
check("generate_key AES-256, encrypt/decrypt (AES-CBC-PAD)", aes_generate)
check("imported AES-256 key: CBC-PAD ciphertext equals openssl enc", aes_vs_openssl)
check("AES-128-GCM encrypt/decrypt with AAD", aes_gcm)
check("digest SHA-256/SHA-512 (one part and iterated) equals hashlib", digests)
check("generate_keypair RSA-2048, SHA256_RSA_PKCS sign/verify", rsa)
check("EC P-256 domain parameters, generate_keypair, ECDSA_SHA256 sign/verify", ecdsa)
check("generate_random", random_bytes)
if "s" in st:
    st["s"].close()
from importlib.metadata import version
print("# python-pkcs11 %s" % version("python-pkcs11"))
sys.exit(1 if failed else 0)
