#!/usr/bin/env bash
# python-pkcs11 (PyPI), in a virtual environment cached in the build
# dir (BUILD/e2e-venv: exactly tests/e2e/py/requirements.txt, remade when
# that file changes):
# 1. our script (tests/e2e/clients/pv_python_pkcs11.py): open, login, AES
#    keys, digests, RSA and ECDSA key pairs through the module;
# 2. python-pkcs11's own test suite, from the pinned sdist (cached in
#    BUILD/e2e-python-pkcs11-suite), on a token directory of its own.
# Without network on the first run the fetch steps fail, saying what to do.
. "$(dirname "$0")/lib.sh" "$@"

T=$E2E_TMP
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD_ABS=$(cd "$BUILD_DIR" && pwd)
VENV=$BUILD_ABS/e2e-venv
REQS=$HERE/py/requirements.txt
PY_PKCS11_VERSION=$(sed -n 's/^python-pkcs11==//p' "$REQS")
# The sdist of that version (its tests/ is the suite): PyPI's file address
# and sha256 (pip's own `pip download --no-binary` would build Cython from
# source just to read the metadata: minutes).
SDIST_URL=https://files.pythonhosted.org/packages/3c/1e/4599d63cadc847c68af32a7d232d003563b2682af1373490727b5b3936da/python_pkcs11-0.10.1.tar.gz
SDIST_SHA256=e0d7ccede3b3145a678d7c8c59b3c64dcebeb77c9146ad3394a4b1309c4ab2a2
SDIST_CACHE=$BUILD_ABS/e2e-python-pkcs11-suite

venv_ready() { cmp -s "$REQS" "$VENV/pv-requirements.txt"; }
make_venv() {
  venv_ready && return 0
  rm -rf "$VENV" && python3 -m venv "$VENV" &&
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQS" &&
  cp "$REQS" "$VENV/pv-requirements.txt" ||
  { echo "cannot make $VENV from $REQS (is PyPI reachable?)"; return 1; }
}
ok "a venv with python-pkcs11 $PY_PKCS11_VERSION and the suite's requirements (pinned)" make_venv
venv_ready || { done_testing; exit 1; }
ok "pvault master new (the vault is unsealed)" pvault master new --out "$T/master.key"
ok "--init-token and --init-pin" init_token e2e

# the script prints its own TAP lines, numbered after ours
"$VENV/bin/python" "$HERE/clients/pv_python_pkcs11.py" "$MODULE" e2e "$USER_PIN" "$TAP_N" >"$T/py.tap" 2>"$T/py.err"
py_rc=$?
cat "$T/py.tap"
py_n=$(grep -c '^ok \|^not ok ' "$T/py.tap")
py_fail=$(grep -c '^not ok ' "$T/py.tap")
TAP_N=$((TAP_N + py_n))
TAP_FAIL=$((TAP_FAIL + py_fail))
ok "the python-pkcs11 script ran all 10 checks and exited 0" bash -c \
   "[ $py_n -eq 10 ] && [ $py_fail -eq 0 ] && [ $py_rc -eq 0 ] || { cat '$T/py.err'; exit 1; }"

# python-pkcs11's own suite (docs/clients/python-pkcs11.md).  Its own token
# directory: one token "pysuite" in slot 0 and the empty slot 1 is the layout
# its SoftHSMv2-only tests expect, which run here too (py/pv_softhsm_only.py).
S=$T/suite
mkdir -p "$S"
ok "python-pkcs11 $PY_PKCS11_VERSION's test suite from its sdist (sha256 checked, cached)" bash -c \
   "[[ '$SDIST_URL' == */python_pkcs11-$PY_PKCS11_VERSION.tar.gz ]] || { echo 'SDIST_URL is not version $PY_PKCS11_VERSION'; exit 1; }
    '$VENV/bin/python' '$HERE/py/fetch_suite.py' '$SDIST_URL' $SDIST_SHA256 '$SDIST_CACHE' '$S'"
export PIXELVAULT_CONF=$S/pixelvault.conf
cp "$T/pixelvault.conf" "$PIXELVAULT_CONF"       # relative paths: now under $S
ok "pvault master new for the suite" pvault master new --out "$S/master.key"
ok "the suite's token" init_token pysuite

# Deselected: tests of what PixelVault deliberately does not offer, or of
# SoftHSMv2's own layout (reasons also in docs/clients/python-pkcs11.md).
DESELECT=(
  # EC P-192 (prime192v1): only P-256, P-384, Ed25519 and SM2 are offered
  tests/test_ecc.py::ECCTests::test_derive_key
  # Ed448: not offered
  tests/test_ecc.py::ECCTests::test_sign_ed448
  # the certificate's RSA key has 512 bits: RSA keys under 1024 bits are refused
  tests/test_x509.py::X509Tests::test_verify_certificate_rsa
  # C_WrapKey/C_UnwrapKey with RSA-OAEP: only AES key wrap is offered
  tests/test_rsa.py::RSATests::test_key_wrap
  # SoftHSMv2 only: wants 2 tokens with CKF_RNG; PixelVault's empty slot has a
  # token that cannot be opened before C_InitToken, so it claims no flags
  tests/test_slots_and_tokens.py::SlotsAndTokensTests::test_get_tokens
)
desel=()
for d in "${DESELECT[@]}"; do desel+=(--deselect "$d"); done
# PKCS11_MODULE2 (test_multilib: two modules in one process): p11-kit's trust
# module, whose slot is the system CA bundle (ca-certificates).
MODULE2=$(pkg-config --variable=p11_module_path p11-kit-1)/p11-kit-trust.so
run_suite() {
  [ -f "$S/tests/__init__.py" ] || { echo "no suite: its fetch failed (above)"; return 1; }
  (cd "$S" && PYTHONPATH=$HERE/py PKCS11_MODULE=$MODULE PKCS11_MODULE2=$MODULE2 \
     PKCS11_TOKEN_LABEL=pysuite PKCS11_TOKEN_PIN=$USER_PIN PKCS11_TOKEN_SO_PIN=$SO_PIN \
     timeout 400 "$VENV/bin/python" -m pytest -q -rfE -p no:cacheprovider -p pv_softhsm_only \
       --junitxml="$S/suite.xml" "${desel[@]}" tests >"$S/suite.log" 2>&1)
  local rc=$?
  "$VENV/bin/python" "$HERE/py/check_suite.py" "$S/suite.xml" >"$S/check.txt" 2>&1 || rc=1
  # --deselect ignores ids that match nothing: all of ours must have matched
  grep -q " ${#DESELECT[@]} deselected in " "$S/suite.log" ||
    { echo "NOT OK pytest did not deselect all ${#DESELECT[@]} (a test renamed?)" >>"$S/check.txt"; rc=1; }
  sed -n 's/^.* \([0-9]* deselected\) in .*$/\1/p' "$S/suite.log" >>"$S/check.txt"
  sed 's/^/# /' "$S/check.txt" >&3          # the findings, pass or fail
  [ $rc -eq 0 ] || { grep -E '^(FAILED|ERROR)' "$S/suite.log"; tail -3 "$S/suite.log"; return 1; }
}
exec 3>&1
ok "python-pkcs11's own test suite: no failure, every skip a mechanism not offered" run_suite

done_testing
