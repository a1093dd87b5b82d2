#!/usr/bin/env bash
# The cut-out quality benchmark in one command (`make bench-cutout` calls it):
#   1. the peers' venv (setup-venv.sh; reused),
#   2. the corpus ($STICKER_CORPUS, default testdata-3p/ at the repo root; fetched with
#      ../shared/corpus/fetch.sh when it has no stamps/),
#   3. the composites in bench-data/cutout/ (made when missing or made with other settings),
#   4. the scores: the u2netp and GrabCut peers, and our CLI when $CATALOG_BIN is set and has a
#      `cutout` command; table on stdout, everything in bench-data/cutout-results.json.
#
# Settings (environment): COUNT composites per kind (40), SEED, METHODS peers to run
# ("u2netp,grabcut"), GRABCUT_LIMIT GrabCut on the first N composites of each kind only (5:
# it takes 2-110 s of CPU, median 26 s, per ~1024x768 composite; 0 = all),
# CATALOG_BIN, CATALOG_CUTOUT_ARGS (default: cutout {in} -o {out} --mask-only --no-crop),
# CUTOUT_BENCH (the cutout-bench executable: the same cut-out timed per photo in one process),
# BENCH_VENV, BENCH_CUTOUT_DATA. Other arguments go to score.py (e.g. --limit 5, --no-big).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${STICKER_CORPUS:-$root/testdata-3p}
data=${BENCH_CUTOUT_DATA:-$root/bench-data/cutout}
results=${BENCH_CUTOUT_RESULTS:-$(dirname "$data")/cutout-results.json}
count=${COUNT:-40}
seed=${SEED:-20240503}
methods=${METHODS-u2netp,grabcut}
grabcut_limit=${GRABCUT_LIMIT:-5}
default_args='cutout {in} -o {out} --mask-only --no-crop'
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

# The peer as one process a photo too (start-up and model loading counted, as for our CLI).
if [[ ",$methods," == *",u2netp,"* ]]; then
  cmd+=(--command "u2netp-process=$(printf '%q' "$py") $(printf '%q' "$here/u2netp_once.py") {in} {out}")
fi

# The same cut-out in one long-running process (model loaded once), timed as the in-process peer is.
if [ -n "${CUTOUT_BENCH:-}" ]; then
  cmd+=(--server "catalog-warm=$(printf '%q' "$CUTOUT_BENCH")")
fi

mkdir -p "$(dirname "$results")"
exec "$py" "$here/score.py" "$data" --methods "$methods" --grabcut-limit "$grabcut_limit" ${cmd[@]+"${cmd[@]}"} --json "$results" "$@"
