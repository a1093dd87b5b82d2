#!/usr/bin/env bash
# Palette fidelity in one command (`make bench-palette` calls it): ours beside colorthief, colorgram.py and
# Pillow's MEDIANCUT / FASTOCTREE on the subjects of the cut-out benchmark's composites (known masks).
#   1. the peers' venv (PyPI, pinned; reused),
#   2. the composites: $BENCH_CUTOUT_DATA, else bench-data/cutout (made by Benchmarks/cutout/run.sh's
#      make_composites.py when missing: needs the corpus),
#   3. fidelity.py: table on stdout, everything in bench-data/palette-results.json;
# and before them, the palette's stability under lossy re-encoding (`palette-bench --twins`) on the
# corpus's photos (testdata-3p/photos, or $TWINS_PHOTOS).
# Settings: PALETTE_BENCH (the palette-bench binary, default .build/release/palette-bench), K (5),
# BENCH_PALETTE_VENV, LIMIT (first N composites only).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${BENCH_PALETTE_VENV:-$root/bench-data/palette-venv}
data=${BENCH_CUTOUT_DATA:-$root/bench-data/cutout}
bench=${PALETTE_BENCH:-$root/.build/release/palette-bench}
pins=(numpy==2.4.6 pillow==12.3.0 colorthief==0.2.1 colorgram.py==1.2.0)

twins=${TWINS_PHOTOS:-${STICKER_CORPUS:-$root/testdata-3p}/photos}
if [ -d "$twins" ]; then
  echo "== twins: each photo of $twins re-encoded as JPEG q85, WebP q80, AVIF q60"
  "$bench" --twins "${K:-5}" "$twins"
fi
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
stamp="$venv/.palette-pins"
if [ ! -f "$stamp" ] || ! grep -qxF "${pins[*]}" "$stamp"; then
  "$venv/bin/python" -m pip -q --disable-pip-version-check install "${pins[@]}"
  echo "${pins[*]}" > "$stamp"
fi
if ! ls "$data"/*.truth.png >/dev/null 2>&1; then
  cutout_venv=$("$root/Benchmarks/cutout/setup-venv.sh" | tail -n 1)
  STICKER_CORPUS=${STICKER_CORPUS:-$root/testdata-3p} "$cutout_venv/bin/python" "$root/Benchmarks/cutout/make_composites.py" "$data" --count "${COUNT:-15}" --no-12mp
fi
"$venv/bin/python" "$here/fidelity.py" "$data" "$bench" --k "${K:-5}" --limit "${LIMIT:-0}" \
  --out "${BENCH_PALETTE_RESULTS:-$root/bench-data/palette-results.json}"
