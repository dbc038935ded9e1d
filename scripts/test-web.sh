#!/usr/bin/env bash
# The web page's browser test: builds the page (scripts/build-web.sh), installs Debian's
# Chromium and playwright-core (web/tests/package.json) where missing, and runs
# web/tests/browser.mjs against the `texgraph` CLI the Rust tests built (built here if
# missing). Screenshots go to target/web-test/.
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
if ! command -v chromium >/dev/null; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
(cd web/tests && npm ci --silent --no-audit --no-fund)
installed=$SECONDS

scripts/build-web.sh target/web
cli=target/debug/texgraph
if [ ! -x "$cli" ]; then
    cargo build -p texgraph-cli
fi
built=$SECONDS
node web/tests/browser.mjs target/web "$cli" target/web-test
echo "web test times (s): chromium and playwright $((installed - start)), page build (with wasm-bindgen-cli) $((built - installed)), browser checks $((SECONDS - built))"
