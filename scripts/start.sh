#!/usr/bin/env bash
# Installs Vitrine's packages (building it) when needed and starts the headless workstation: gateway + UI in the browser.
set -euo pipefail
cd "$(dirname "$0")/.."
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
if [ ! -f dist/main/headless.js ] || [ ! -d node_modules ]; then npm ci --no-audit --no-fund; fi
exec ./bin/vitrine serve --open "$@"
