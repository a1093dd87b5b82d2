#!/usr/bin/env bash
# Runs the "Scaling out on one machine" section of CONTRIBUTING.md (a walk-through of a shared catalog) as it
# is written: every ```sh block of that section, in order, in one bash (-e -u -o pipefail), in a new temporary
# folder laid out like a source tree after `make demo`:
#
#   .build/release/catalog, .build/release/sample-photos   the binaries under test (symlinks)
#   scripts/local-postgres.sh                               the repository's script (a copy)
#   demo/photos, demo/catalog.sqlite                        made here as `make demo` makes them: the sample
#                                                           photos, imported twice (the second time into
#                                                           the pack `demo`); make demo's searches,
#                                                           exports and preview are left out (the section
#                                                           reads none of them)
#
# TMPDIR points into that folder, so the section's server lives there too; whatever the section leaves
# running when it fails is stopped on the way out. `make test-readme` (called by `make test`) runs it with
# the debug build. Without PostgreSQL's server or the segmentation model it says so and skips.
#
# Settings: CATALOG_BIN, SAMPLES_BIN (default .build/debug/...), STICKER_MODEL_DIR (the model), README (the page
# that holds the section, default CONTRIBUTING.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
catalog_bin=$(realpath "${CATALOG_BIN:-$root/.build/debug/catalog}")
samples_bin=$(realpath "${SAMPLES_BIN:-$root/.build/debug/sample-photos}")
readme=${README:-$root/CONTRIBUTING.md}
section="## Scaling out on one machine"

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then
  echo "note: PostgreSQL's server is not installed; the section \"Scaling out on one machine\" of CONTRIBUTING.md is not run (make test-deps installs it)"
  exit 0
fi
model=${STICKER_MODEL_DIR:-}
if [ -z "$model" ] || [ ! -s "$model/u2netp.bin" ]; then
  echo "note: no segmentation model (STICKER_MODEL_DIR); the section \"Scaling out on one machine\" of CONTRIBUTING.md is not run"
  exit 0
fi

# The section: from its heading to the next heading of the same level; its ```sh blocks, in order.
script=$(awk -v section="$section" '
  /^## / { inside = ($0 == section) }
  inside && /^```/ { if (block) { block = 0; print "" } else if ($0 == "```sh") { block = 1 }; next }
  inside && block { print }
' "$readme")
if [ -z "$script" ]; then
  echo "error: $readme has no \"$section\" section with \`\`\`sh blocks" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sc-readme-XXXXXX")
# Reachable by the postgres user, who runs the section's server when the tests run as root.
chmod 755 "$work"
cleanup() {
  local status=$?
  # A server the section left running (it failed before its last step) is stopped.
  for data in "$work"/tmp/*/data; do
    [ -f "$data/postmaster.pid" ] || continue
    "$root/scripts/local-postgres.sh" stop "$(dirname "$data")" || true
  done
  if [ "$status" -eq 0 ]; then rm -rf "$work"; else echo "the section's folder is kept: $work" >&2; fi
}
trap cleanup EXIT

mkdir -p "$work/.build/release" "$work/scripts" "$work/tmp" "$work/demo"
chmod 755 "$work/tmp"
ln -s "$catalog_bin" "$work/.build/release/catalog"
ln -s "$samples_bin" "$work/.build/release/sample-photos"
cp "$root/scripts/local-postgres.sh" "$work/scripts/"

cd "$work"
export STICKER_MODEL_DIR=$model TMPDIR=$work/tmp
# The section is about sharing a catalog, not about cut-outs: a centred ellipse stands in for the
# network in every import and worker (the same in both catalogs, so the comparisons still hold), as
# in the other tests that need entries and not masks. The commands run as they are written.
export STICKER_TEST_PREDICTOR=centre
unset CATALOG_PATH PGUSER PGPASSWORD PGHOST PGPORT PGDATABASE
echo "== make demo's catalog (sample photos, imported, the pack demo)"
"$samples_bin" demo/photos >/dev/null
"$catalog_bin" --catalog demo/catalog.sqlite import demo/photos --quiet
"$catalog_bin" --catalog demo/catalog.sqlite import demo/photos --pack demo --quiet

echo "== the section \"${section#'## '}\" of $readme"
printf '%s\n' "$script" >section.sh
start=$(date +%s)
bash -euo pipefail -x section.sh
# What the section compared was there to compare (an empty diff of two empty outputs proves nothing).
check() { if ! eval "$1"; then echo "error: after the section, expected: $1" >&2; exit 1; fi; }
check 'grep -q entriesSHA256 demo/checksums-postgres.txt'
check '[ "$(find demo/new-photos -type f | wc -l)" -ge 1 ]'
check 'grep -q "\"path\"" demo/search-postgres.json'
check '[ "$(ls demo/export-postgres/demo/*.png | wc -l)" -ge 2 ]'
check '[ "$(ls demo/export-postgres/new/*.png | wc -l)" -eq "$(find demo/new-photos -type f | wc -l)" ]'
check '! ls tmp/*/data/postmaster.pid 2>/dev/null'
echo "== the section \"${section#'## '}\" of $readme ran as written ($(( $(date +%s) - start )) s)"
