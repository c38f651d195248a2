#!/usr/bin/env python3
"""Fetch python-pkcs11's own test suite: the pinned sdist, checked by sha256.

Usage: fetch_suite.py URL SHA256 CACHE_DIR DEST_DIR

URL is the sdist's file on files.pythonhosted.org (PyPI never changes a
file behind its address).  It is downloaded once into CACHE_DIR and reused
while its sha256 matches; then its tests/ is extracted into DEST_DIR/tests.  No build backend runs
(`pip download --no-binary :all:` would build Cython from source to prepare
metadata: minutes).  On an offline machine, put the file at the cache path
by hand; a wrong file is refused either way.  Exit 1 with the reason on
any failure.
"""
import hashlib
import os
import sys
import tarfile
import tempfile
import time
import urllib.request

ATTEMPTS, TIMEOUT_S = 3, 60


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def download(url, path):
    """url -> path through a temp file in the same directory; raises on failure."""
    last = None
    for attempt in range(1, ATTEMPTS + 1):
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".part")
        try:
            with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=TIMEOUT_S) as r:
                while block := r.read(1 << 16):
                    out.write(block)
            os.replace(tmp, path)
            return
        except OSError as e:  # URLError, HTTPError and timeouts are OSErrors
            last = e
            os.unlink(tmp)
            print(f"attempt {attempt}/{ATTEMPTS}: {url}: {e}", file=sys.stderr)
            time.sleep(2 * attempt)
    raise last


def main(url, sha256, cache_dir, dest_dir):
    name = os.path.basename(url)
    sdist = os.path.join(cache_dir, name)
    os.makedirs(cache_dir, exist_ok=True)
    if not (os.path.exists(sdist) and sha256_of(sdist) == sha256):
        try:
            start = time.monotonic()
            download(url, sdist)
            print(f"fetched {url} in {time.monotonic() - start:.1f} s")
        except OSError as e:
            sys.exit(f"cannot fetch python-pkcs11's test suite from {url}: {e}\n"
                     f"(offline: put that file at {sdist})")
        got = sha256_of(sdist)
        if got != sha256:
            os.unlink(sdist)
            sys.exit(f"{url}: sha256 {got}, expected {sha256}: refused")
    prefix = name.removesuffix(".tar.gz") + "/tests/"
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(prefix) and m.isfile()]
        if not members:
            sys.exit(f"{sdist} holds no {prefix}")
        for m in members:
            rel = m.name[len(prefix):]
            if rel.startswith("/") or ".." in rel.split("/"):
                sys.exit(f"{sdist}: unsafe member {m.name}")
            out = os.path.join(dest_dir, "tests", rel)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with tar.extractfile(m) as src, open(out, "wb") as dst:
                dst.write(src.read())
    print(f"{len(members)} files of {prefix} in {dest_dir}/tests")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
