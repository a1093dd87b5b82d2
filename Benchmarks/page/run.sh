#!/usr/bin/env bash
# The page at scale (`make bench-page`): the first screen of stickers and scrolling, in Chromium,
# on a catalog of COUNT (100,000) entries whose stickers are real PNGs.
#   1. the demo's sample photos are imported into bench-data/page/source.sqlite (needs the model);
#   2. grow-catalog.py copies its entries until bench-data/page/catalog.sqlite holds COUNT (kept
#      between runs: about 8 GB at 100,000, the stickers being 512 px PNGs of 70-110 KB);
#   3. run.py serves it with `catalog serve --port 0` and measures in the browser (RUNS page loads).
# Settings: CATALOG_BIN, SAMPLES_BIN (default .build/release/...), STICKER_MODEL_DIR, COUNT, RUNS (5),
# BENCH_PAGE_DATA. The source import uses the default model (u2net; $STICKER_MODEL to change it):
# nothing measured depends on it (the stickers are 512 px PNGs either way), and source.sqlite is kept
# between runs, so a catalog made with u2netp before serves as well.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${CATALOG_BIN:-$root/.build/release/catalog}
samples=${SAMPLES_BIN:-$root/.build/release/sample-photos}
data=${BENCH_PAGE_DATA:-$root/bench-data/page}
count=${COUNT:-100000}
runs=${RUNS:-5}
mkdir -p "$data"
if [ ! -s "$data/source.sqlite" ]; then
  rm -rf "$data/photos"
  "$samples" "$data/photos" >/dev/null
  "$bin" --catalog "$data/source.sqlite" import "$data/photos"
fi
have=$("$bin" --catalog "$data/catalog.sqlite" stats --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])' || echo 0)
if [ "$have" != "$count" ]; then
  rm -f "$data/catalog.sqlite" "$data/catalog.sqlite-wal" "$data/catalog.sqlite-shm"
  python3 "$here/grow-catalog.py" "$data/source.sqlite" "$data/catalog.sqlite" "$count"
fi
venv=$("$root/Tests/Browser/setup-venv.sh")
CATALOG_BIN="$bin" "$venv/bin/python" "$here/run.py" "$data/catalog.sqlite" --runs "$runs" | tee "$data/results.json"
