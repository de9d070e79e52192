#!/usr/bin/env bash
# Installs everything the tests need on a fresh Debian machine (Chromium for the browser tests, npm packages) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
# Debian's Chromium for the browser tests and Debian's PostgreSQL server binaries for the pkgscan storage tests
# (each of those test files starts a private cluster of its own and stops it).
need=""
[ -x /usr/bin/chromium ] || need="$need chromium"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$need postgresql"
if [ -n "$need" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
fi
npm ci --no-audit --no-fund
export VITRINE_REQUIRE_E2E=1
# In CI every oracle peer .ci/run installs (tshark, yara, evtxexport, python3-evtx, pefile, pev, sklearn, xgboost,
# bandit) must be present: a peer that failed to install fails test/oracles.test.ts instead of skipping its tests.
if [ "${CI:-}" = "true" ]; then export VITRINE_REQUIRE_ORACLES=1; fi
npm test
