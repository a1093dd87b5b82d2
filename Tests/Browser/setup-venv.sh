#!/usr/bin/env bash
# Makes (or reuses) the Python virtual environment that drives Chromium for the page's browser tests
# and its benchmark: selenium from PyPI, pinned, and axe-core (the accessibility engine) as PyPI ships
# it. Prints the venv's path.
#
#   Tests/Browser/setup-venv.sh [VENV]        VENV defaults to .build/browser-venv
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${1:-${BROWSER_VENV:-$root/.build/browser-venv}}
# Pins: selenium and what it needs, as they install on CPython 3.11.
PINS=(
  selenium==4.50.0
  certifi==2026.10.18
  urllib3==2.8.0
  trio==0.35.0
  trio-websocket==0.12.2
  websocket-client==1.9.2
  typing_extensions==4.16.0
)
# axe-core 4.12 as bundled in axe-playwright-python: the tests inject its axe.min.js with selenium, so
# playwright itself is not needed (--no-deps). axe-selenium-python's last release for this Python
# (2.1.6) bundles axe-core 3.1, which predates WCAG 2.2 and most of 2.1's rules.
AXE=axe-playwright-python==0.1.8
if [ ! -x "$venv/bin/python" ]; then
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv" >&2
fi
stamp="$venv/.browser-pins"
if [ ! -f "$stamp" ] || ! grep -qxF "${PINS[*]} $AXE" "$stamp"; then
  "$venv/bin/python" -m pip -q --disable-pip-version-check install "${PINS[@]}" >&2
  "$venv/bin/python" -m pip -q --disable-pip-version-check install --no-deps "$AXE" >&2
  echo "${PINS[*]} $AXE" > "$stamp"
fi
echo "$venv"
