#!/usr/bin/env bash
# Issue 8, python-pkcs11 (PyPI) in a virtual environment cached in the build
# dir (created with pip on first use): open, login, AES keys, digests, RSA
# and ECDSA key pairs through the module (tests/e2e/clients/pv_python_pkcs11.py).
. "$(dirname "$0")/lib.sh" "$@"

T=$E2E_TMP
VENV=$BUILD_DIR/e2e-venv
PY_PKCS11_VERSION=${PY_PKCS11_VERSION:-0.10.1}
PY_CHECK="import importlib.metadata as m; assert m.version('python-pkcs11') == '$PY_PKCS11_VERSION'"
ok "a venv with python-pkcs11 $PY_PKCS11_VERSION" bash -c \
   "'$VENV/bin/python' -c \"$PY_CHECK\" 2>/dev/null || { rm -rf '$VENV' && python3 -m venv '$VENV' &&
      '$VENV/bin/pip' install -q 'python-pkcs11==$PY_PKCS11_VERSION' && '$VENV/bin/python' -c \"$PY_CHECK\"; }"
ok "pvault master new (the vault is unsealed)" pvault master new --out "$T/master.key"
ok "--init-token and --init-pin" init_token e2e

# the script prints its own TAP lines, numbered after ours
"$VENV/bin/python" "$(dirname "$0")/clients/pv_python_pkcs11.py" "$MODULE" e2e "$USER_PIN" "$TAP_N" >"$T/py.tap" 2>"$T/py.err"
py_rc=$?
cat "$T/py.tap"
py_n=$(grep -c '^ok \|^not ok ' "$T/py.tap")
py_fail=$(grep -c '^not ok ' "$T/py.tap")
TAP_N=$((TAP_N + py_n))
TAP_FAIL=$((TAP_FAIL + py_fail))
ok "the python-pkcs11 script ran all 10 checks and exited 0" bash -c \
   "[ $py_n -eq 10 ] && [ $py_fail -eq 0 ] && [ $py_rc -eq 0 ] || { cat '$T/py.err'; exit 1; }"

done_testing
