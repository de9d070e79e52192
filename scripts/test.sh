#!/usr/bin/env bash
# Installs everything the tests need on a fresh Debian machine (Chromium for the browser tests, npm packages) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
npm ci --no-audit --no-fund
export VITRINE_REQUIRE_E2E=1
npm test
