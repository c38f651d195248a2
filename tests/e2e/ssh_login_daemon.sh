#!/usr/bin/env bash
# ssh_login.sh with the module in daemon mode (pvaultd of its own).
PV_E2E_MODE=daemon exec "$(dirname "$0")/ssh_login.sh" "$@"
