#!/usr/bin/env python3
"""gen_tmpl_corpus.py - writes tests/fuzz/corpus/tmpl: seed inputs for
fuzz_tmpl.c that reach each call with a template the token accepts (a data
object, an AES key made and generated, a P-256 pair, a certificate, a
search, reads, writes, a copy, a wrap and an unwrap), so that the replay
and the mutations start from deep paths.  The encoding is fuzz_tmpl.c's:
op, options, attribute count, then per attribute a type index (into
ft_types), a mode (0 raw, 1 CK_ULONG from ft_ulongs, 2 CK_BBOOL, 3 NULL),
a length byte and, for raw values, the bytes."""
import os

T = dict(CLASS=0, TOKEN=1, PRIVATE=2, LABEL=3, VALUE=5, CERTIFICATE_TYPE=7,
         KEY_TYPE=13, SUBJECT=14, ID=15, SENSITIVE=16, ENCRYPT=17, DECRYPT=18,
         WRAP=19, UNWRAP=20, SIGN=21, VERIFY=23, VALUE_LEN=38, EXTRACTABLE=39,
         EC_PARAMS=47, WRAP_TEMPLATE=51)
U = dict(DATA=0, CERTIFICATE=1, SECRET_KEY=4, AES=9, X_509=16, L32=22)
P256 = bytes.fromhex('06082a8648ce3d030107')


def raw(t, v):
    return bytes([T[t], 0, len(v)]) + v


def ul(t, u):
    return bytes([T[t], 1, U[u]])


def flag(t, b):
    return bytes([T[t], 2, 1 if b else 0])


def null(t, n):
    return bytes([T[t], 3, n])


def tmpl(*attrs):
    return bytes([len(attrs)]) + b''.join(attrs)


def call(op, opt, *parts):
    return bytes([op, opt]) + b''.join(parts)


aes = tmpl(ul('CLASS', 'SECRET_KEY'), ul('KEY_TYPE', 'AES'), raw('VALUE', bytes(range(16))),
           flag('ENCRYPT', 1), flag('WRAP', 1), flag('UNWRAP', 1), flag('EXTRACTABLE', 1),
           flag('SENSITIVE', 0))
SEEDS = {
    'create_data': call(0, 0, tmpl(ul('CLASS', 'DATA'), flag('TOKEN', 1), raw('LABEL', b'seed'),
                                   raw('VALUE', b'\x01\x02\x03\x04\x05'))),
    'create_aes': call(0, 0, aes),
    'create_cert': call(0, 0, tmpl(ul('CLASS', 'CERTIFICATE'), ul('CERTIFICATE_TYPE', 'X_509'),
                                   raw('VALUE', bytes(40)), raw('SUBJECT', b'0\x00'))),
    'create_wrap_template': call(0, 0, tmpl(ul('CLASS', 'SECRET_KEY'), ul('KEY_TYPE', 'AES'),
                                            raw('VALUE', bytes(32)), bytes([T['WRAP_TEMPLATE'], 0, 2, 0, 8, 13, 8]))),
    'generate_aes': call(1, 0, tmpl(ul('VALUE_LEN', 'L32'), flag('TOKEN', 0), flag('WRAP', 1),
                                    flag('UNWRAP', 1), flag('EXTRACTABLE', 1))),
    'generate_p256': call(2, 0, tmpl(raw('EC_PARAMS', P256), flag('VERIFY', 1)),
                          tmpl(flag('SIGN', 1), flag('TOKEN', 0))),
    'find_secret': call(3, 0, tmpl(ul('CLASS', 'SECRET_KEY'))),
    'get_value': call(5, 0x10, tmpl(raw('VALUE', bytes(32)), ul('CLASS', 'DATA'), null('LABEL', 0))),
    'set_label': call(4, 0x20, tmpl(raw('LABEL', b'renamed'))),
    'copy': call(6, 0x10, tmpl(flag('TOKEN', 0))),
    'wrap': call(9, 0x12, tmpl()),
    'unwrap': call(10, 0x12, tmpl(ul('CLASS', 'SECRET_KEY'), ul('KEY_TYPE', 'AES')), bytes([2]) + bytes(24)),
    'size': call(8, 0x30, tmpl()),
    'destroy': call(7, 0x40, tmpl()),
}

if __name__ == '__main__':
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'tmpl')
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
