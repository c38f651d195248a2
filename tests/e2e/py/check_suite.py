#!/usr/bin/env python3
"""Judge a python-pkcs11 suite run from pytest's JUnit XML report.

Usage: check_suite.py SUITE.xml   (run with the venv's python: names
mechanisms through pkcs11.Mechanism)

Passes when no test failed or errored, at least one passed, and every skip
is the suite's own @requires() finding a mechanism missing from the token's
list that PixelVault deliberately does not offer (NOT_OFFERED; the same
list, with reasons, is in docs/clients/python-pkcs11.md).  Any other skip
(a mechanism we do offer, a vendor gate, a missing environment variable)
fails the check.  Prints one line per finding.
"""
import re
import sys
import xml.etree.ElementTree as ET

from pkcs11 import Mechanism

NOT_OFFERED = {
    "DES2_KEY_GEN": "DES/3DES: obsolete",
    "DES3_KEY_GEN": "DES/3DES: obsolete",
    "DES3_CBC_PAD": "DES/3DES: obsolete",
    "DSA_PARAMETER_GEN": "DSA: not offered",
    "DSA_KEY_PAIR_GEN": "DSA: not offered",
    "DSA_SHA1": "DSA: not offered",
    "DH_PKCS_PARAMETER_GEN": "finite-field DH: not offered (ECDH is)",
    "DH_PKCS_KEY_PAIR_GEN": "finite-field DH: not offered (ECDH is)",
    "DH_PKCS_DERIVE": "finite-field DH: not offered (ECDH is)",
    "ML_KEM_KEY_PAIR_GEN": "ML-KEM: not offered",
    "ML_KEM": "ML-KEM: not offered",
    "ML_DSA_KEY_PAIR_GEN": "ML-DSA: not offered",
    "ML_DSA": "ML-DSA: not offered",
    "AES_MAC": "AES-MAC (CBC-MAC): not offered, CMAC is",
    "AES_ECB_ENCRYPT_DATA": "AES_*_ENCRYPT_DATA derivation: not offered",
    "AES_CBC_ENCRYPT_DATA": "AES_*_ENCRYPT_DATA derivation: not offered",
}


def mechanism_name(number):
    try:
        return Mechanism(number).name
    except ValueError:
        return hex(number)


def skipped_mechanisms(message):
    """The mechanisms a skip names if all are NOT_OFFERED, else None.

    The suite's @requires() skips with "Requires " and the numbers of the
    mechanisms it needs that the token does not list (only those)."""
    m = re.fullmatch(r"Requires ((?:\d+, )*\d+)", message.strip())
    if not m:
        return None
    names = [mechanism_name(int(n)) for n in m.group(1).split(", ")]
    return names if all(n in NOT_OFFERED for n in names) else None


def main(path):
    passed, skips, bad = 0, 0, []
    skipped = {}  # reason -> mechanisms
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        skip = case.find("skipped")
        if problem is not None:
            bad.append(f"{name}: {problem.get('message', '')[:200]}")
        elif skip is not None:
            message = skip.get("message", "")
            names = skipped_mechanisms(message)
            if names is None:
                bad.append(f"{name}: skipped for a reason not documented: {message}")
                continue
            skips += 1
            for n in names:
                skipped.setdefault(NOT_OFFERED[n], set()).add(n)
        else:
            passed += 1
    for reason, names in sorted(skipped.items()):
        print(f"skipped: {reason} ({', '.join(sorted(names))})")
    for line in bad:
        print(f"NOT OK {line}")
    print(f"suite: {passed} passed, {skips} skipped (mechanisms not offered), "
          f"{len(bad)} failed or skipped without a documented reason")
    return 0 if passed > 0 and not bad else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
