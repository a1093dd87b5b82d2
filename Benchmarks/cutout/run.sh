#!/usr/bin/env bash
# The cut-out benchmark in one command (`make bench-cutout` calls it):
#   1. the peers' venv with both of rembg's models (setup-venv.sh; reused),
#   2. the corpus ($STICKER_CORPUS, default testdata-3p/ at the repo root; fetched with
#      ../shared/corpus/fetch.sh when it has no stamps/),
#   3. the composites in bench-data/cutout/ (made when missing or made with other settings),
#   4. the scores, per model (u2net, u2netp), automatic and with a box (the truth box with a
#      random 5-20 % margin): onnxruntime with rembg's session on the same model, our
#      cutout-bench ($CUTOUT_BENCH: the cut-out in one process, model loaded once) and our CLI
#      ($CATALOG_BIN: `catalog cutout` as one process a photo), interleaved photo by photo on one
#      pinned core; tables and the issue's goals on stdout, everything in
#      bench-data/cutout-results.json.
#
# Settings (environment): COUNT composites per kind (15: 45 composites, ~10 min on an idle core;
# COUNT=40 is the bigger set, ~25 min), SEED, MODELS ("u2net,u2netp"), MODES ("automatic,box"),
# METHODS in-process peers ("onnxruntime"; add "grabcut" for OpenCV GrabCut on the first
# GRABCUT_LIMIT (5) composites of each kind — 2-110 s of CPU each — and "onnxruntime-process" for
# the peer as one process a photo), CATALOG_BIN, CATALOG_CUTOUT_ARGS (default: cutout {in} -o {out}
# --mask-only --no-crop --model {model}; `--box X,Y,W,H` is appended with a box), CUTOUT_BENCH,
# STICKER_MODEL_DIR (where our binaries find the models), BENCH_VENV, BENCH_CUTOUT_DATA,
# BENCH_CUTOUT_RESULTS. Other arguments go to score.py (e.g. --limit 5, --no-big, --big-runs 5).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${STICKER_CORPUS:-$root/testdata-3p}
data=${BENCH_CUTOUT_DATA:-$root/bench-data/cutout}
results=${BENCH_CUTOUT_RESULTS:-$(dirname "$data")/cutout-results.json}
count=${COUNT:-15}
seed=${SEED:-20240503}
models=${MODELS:-u2net,u2netp}
modes=${MODES:-automatic,box}
methods=${METHODS-onnxruntime}
grabcut_limit=${GRABCUT_LIMIT:-5}
default_args='cutout {in} -o {out} --mask-only --no-crop --model {model}'
cutout_args=${CATALOG_CUTOUT_ARGS:-$default_args}

if [ ! -d "$corpus/stamps" ]; then
  fetch="$root/../shared/corpus/fetch.sh"
  [ -f "$fetch" ] || { echo "no corpus at $corpus and no $fetch: set STICKER_CORPUS" >&2; exit 1; }
  echo "fetching the corpus into $corpus" >&2
  bash "$fetch" "$corpus"
fi

venv=$("$here/setup-venv.sh" | tail -n 1)
py="$venv/bin/python"

# Composites: reuse unless missing or made with another count, seed or generator version.
if ! "$py" - "$data/manifest.json" "$count" "$seed" "$here/make_composites.py" <<'PY'
import json, re, sys
m, count, seed, gen = sys.argv[1:]
try:
    d = json.load(open(m))
    v = int(re.search(r"^VERSION = (\d+)", open(gen).read(), re.M).group(1))
    ok = d["count"] == int(count) and d["seed"] == int(seed) and d["version"] == v
except Exception:
    ok = False
sys.exit(0 if ok else 1)
PY
then
  rm -rf "$data"
  STICKER_CORPUS=$corpus "$py" "$here/make_composites.py" "$data" --count "$count" --seed "$seed"
fi

cmd=()
if [ -n "${CATALOG_BIN:-}" ]; then
  if "$CATALOG_BIN" cutout --help >/dev/null 2>&1; then
    cmd=(--command "catalog=$(printf '%q' "$CATALOG_BIN") $cutout_args")
  else
    echo "note: $CATALOG_BIN has no working 'cutout' command; scoring the peers only" >&2
  fi
fi

# The same cut-out in one long-running process (model loaded once), timed as the in-process peer is.
if [ -n "${CUTOUT_BENCH:-}" ]; then
  cmd+=(--server "cutout-bench=$(printf '%q' "$CUTOUT_BENCH") --model {model}")
fi

mkdir -p "$(dirname "$results")"
exec "$py" "$here/score.py" "$data" --models "$models" --modes "$modes" --methods "$methods" \
  --onnx-dir "$venv/models" --grabcut-limit "$grabcut_limit" ${cmd[@]+"${cmd[@]}"} --json "$results" "$@"
