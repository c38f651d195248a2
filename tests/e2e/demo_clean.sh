#!/usr/bin/env bash
# demo_clean.sh MODULE BUILD_DIR - `./run demo` reads clean when its output
# is not a terminal: tests/e2e/demo.sh runs twice (the second run starts
# over in the same directory) with its output piped, and each time
#   - it succeeds;
#   - no ANSI escape reaches the pipe;
#   - every warning or error a client prints is explained: the first time
#     a line of that text appears, a ">>" line follows before the next
#     command;
#   - the keys' usages, as pkcs11-tool prints them, are what the demo asks
#     for: AES encrypt/decrypt, HMAC sign/verify (pkcs11-tool 0.23 shows
#     that as "verify"), EC sign (private) and verify (public).
. "$(dirname "$0")/lib.sh" "$@"
DEMO_SH=$(dirname "$(readlink -f "$0")")/demo.sh

# unexplained LOG: the warning lines nothing explains (none: success)
unexplained() {
  awk '
    /^\$ / || /^== / { open = ""; next }
    /^>> / { if (open != "") explained[open] = 1; open = ""; next }
    tolower($0) ~ /warn|error|fail|ckr_/ {
      if (!(($0) in seen)) { seen[$0] = 1; order[++n] = $0 }
      if (!(($0) in explained)) open = $0
    }
    END { for (i = 1; i <= n; i++) if (!(order[i] in explained)) { print order[i]; bad = 1 }
          exit bad }' "$1"
}
usages() { sed -n 's/^  Usage: *//p' "$1" | paste -sd '|'; }
usages_asked() {
  case $(usages "$1") in
    "encrypt, decrypt|verify|sign|verify") return 0 ;;        # pkcs11-tool 0.23
    "encrypt, decrypt|sign, verify|sign|verify") return 0 ;;  # later versions
    *) echo "usages: $(usages "$1")"; return 1 ;;
  esac
}

# demo LOG: the demo with stdout and stderr into LOG (not a terminal)
demo() { PV_DEMO_DIR=$E2E_TMP/demo "$DEMO_SH" "$BUILD_DIR" >"$1" 2>&1; }

for i in 1 2; do
  log=$E2E_TMP/demo$i.log
  ok "run $i: the demo succeeds, its output piped" demo "$log"
  ok "run $i: it reaches its end" grep -q '^== Done\.' "$log"
  ok "run $i: no ANSI escape sequences" bash -c '! grep -q $'"'"'\033'"'"' "$1"' _ "$log"
  ok "run $i: every client warning is explained" unexplained "$log"
  ok "run $i: key usages as asked" usages_asked "$log"
done
done_testing
