"""pytest plugin (-p pv_softhsm_only): python-pkcs11's "SoftHSMv2 only" tests
run against PixelVault too.

The suite gates them on the module's file name (Only.softhsm2 in its
tests/__init__.py) because it has SO credentials and a known slot layout
only for SoftHSMv2 in its own CI.  We give it both (docs/clients/
python-pkcs11.md), so the gate becomes a no-op before any test module is
imported; the tests whose expectations are SoftHSMv2's own are deselected
in tests/e2e/python_pkcs11.sh with their reasons.
"""


def pytest_configure(config):
    import tests  # the suite's package, from the current directory

    tests.Only.softhsm2 = lambda test: test
