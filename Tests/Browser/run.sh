#!/usr/bin/env bash
# The browser tests of `catalog serve`'s page: Debian's chromium and chromium-driver, driven by
# selenium from PyPI in a virtual environment made here (.build/browser-venv). `make test-browser`
# (called by `make test`) runs it; without chromium it says so and passes nothing off as tested.
#
#   Tests/Browser/run.sh [STEP ...]     (STEP: part of a step's name, e.g. fix_the_cutout; none: all)
# Settings: CATALOG_BIN, SAMPLES_BIN (default .build/debug/...), STICKER_MODEL_DIR (the
# segmentation model, for imports), BROWSER_VENV, BROWSER_OUT (screenshots and downloads,
# default .build/browser-test), CHROMIUM, CHROMEDRIVER.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${BROWSER_VENV:-$root/.build/browser-venv}
chromium=${CHROMIUM:-$(command -v chromium || true)}
driver=${CHROMEDRIVER:-$(command -v chromedriver || true)}
if [ -z "$chromium" ] || [ -z "$driver" ]; then
  echo "note: chromium or chromedriver not found; the browser tests are skipped (make test-deps installs them)"
  exit 0
fi

venv=$("$here/setup-venv.sh" "$venv")

export CATALOG_BIN=${CATALOG_BIN:-$root/.build/debug/catalog}
export SAMPLES_BIN=${SAMPLES_BIN:-$root/.build/debug/sample-photos}
export BROWSER_OUT=${BROWSER_OUT:-$root/.build/browser-test}
export CHROMIUM=$chromium CHROMEDRIVER=$driver
exec "$venv/bin/python" "$here/page_test.py" "$@"
