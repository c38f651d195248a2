#!/usr/bin/env python3
"""Run tests of a meson build from its `meson introspect --tests` JSON, where
meson itself is absent or of another version (the GPU machine).

usage: run-tests.py TESTS_JSON LOGDIR [--suite S]... [--name N]... [--skip N]...
                    [--timeout-scale X] [--env K=V]...

Each test runs with its own command, working directory and environment
(plus --env overrides); stdout+stderr go to LOGDIR/<name>.log.  Exit codes
as meson reads them: 0 pass, 77 skip, anything else (or a timeout) fail;
`should_fail` tests are inverted.  Prints one line per test and a summary
line "tests: N passed, N failed, N skipped"; exits 1 if any failed.
"""
import argparse
import json
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tests_json")
    ap.add_argument("logdir")
    ap.add_argument("--suite", action="append", default=[])
    ap.add_argument("--name", action="append", default=[])
    ap.add_argument("--skip", action="append", default=[])
    ap.add_argument("--timeout-scale", type=float, default=1.0)
    ap.add_argument("--env", action="append", default=[])
    a = ap.parse_args()

    with open(a.tests_json) as f:
        tests = json.load(f)
    extra = dict(kv.split("=", 1) for kv in a.env)
    os.makedirs(a.logdir, exist_ok=True)
    passed = failed = skipped = 0
    for t in tests:
        suites = [s.split(":")[-1] for s in t.get("suite", [])]
        if a.suite and not any(s in a.suite for s in suites) and t["name"] not in a.name:
            continue
        if not a.suite and a.name and t["name"] not in a.name:
            continue
        if t["name"] in a.skip:
            continue
        env = dict(os.environ)
        for k, v in (t.get("env") or {}).items():
            # a search path the test sets goes in front of the inherited one
            # (on the device, the unpacked Debian libraries and tools)
            if k in ("LD_LIBRARY_PATH", "PATH") and os.environ.get(k):
                v = v + ":" + os.environ[k]
            env[k] = v
        env.update(extra)
        timeout = (t.get("timeout") or 30) * a.timeout_scale
        log = os.path.join(a.logdir, t["name"].replace("/", "_") + ".log")
        start = time.time()
        with open(log, "w") as out:
            try:
                p = subprocess.run(t["cmd"], cwd=t.get("workdir") or None, env=env,
                                   stdout=out, stderr=subprocess.STDOUT,
                                   timeout=timeout)
                rc = p.returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
            except OSError as e:
                out.write("cannot run: %s\n" % e)
                rc = "oserror"
        took = time.time() - start
        if rc == 77:
            verdict = "SKIP"
            skipped += 1
        elif (rc == 0) != bool(t.get("should_fail")) and rc not in ("timeout", "oserror"):
            verdict = "OK"
            passed += 1
        else:
            verdict = "FAIL"
            failed += 1
        print("%-4s %-40s %7.1f s  rc=%s" % (verdict, t["name"], took, rc), flush=True)
        if verdict == "FAIL":
            with open(log, errors="replace") as f:
                tail = f.read()[-1500:]
            print("     | " + tail.replace("\n", "\n     | "), flush=True)
    print("tests: %d passed, %d failed, %d skipped" % (passed, failed, skipped), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
