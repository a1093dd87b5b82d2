#!/usr/bin/env bash
# The HTTP API against its OpenAPI document (API/openapi.yaml), with schemathesis from PyPI in a
# virtual environment made here (.build/api-venv): every check, the stateful phase included, reads
# and writes, against `catalog serve` on a temporary catalog of imported sample photos. `make test`
# runs it (make test-api); any failure fails it.
#
# Settings: CATALOG_BIN, SAMPLES_BIN (default .build/debug/...), STICKER_MODEL_DIR (the segmentation
# model, for imports), API_VENV, API_OUT (the catalog and the reports, default .build/api-test),
# API_EXAMPLES (cases per operation and phase, default 40), API_MAX_TIME (seconds for the whole run,
# default 100), API_SEED (the generation's seed, default 29: the same cases each run), API_SCHEMA (the
# document to test against, default the one the server serves).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${API_VENV:-$root/.build/api-venv}
catalog=${CATALOG_BIN:-$root/.build/debug/catalog}
samples=${SAMPLES_BIN:-$root/.build/debug/sample-photos}
out=${API_OUT:-$root/.build/api-test}
examples=${API_EXAMPLES:-40}
# schemathesis pinned; pip resolves what it needs.
PIN=schemathesis==4.32.5

if [ ! -x "$venv/bin/python" ]; then
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
fi
if [ "$(cat "$venv/.api-pins" 2>/dev/null)" != "$PIN" ]; then
  "$venv/bin/python" -m pip -q --disable-pip-version-check install "$PIN"
  echo "$PIN" > "$venv/.api-pins"
fi

rm -rf "$out" && mkdir -p "$out/photos" "$out/data"
"$samples" "$out/photos" >/dev/null
# The still photos only: a generated request may re-cut any entry (PUT .../guidance), and a clip's
# re-cut puts every frame through the network, longer than the client waits for one answer.
rm -f "$out/photos/magenta-star-bouncing.webp" "$out/photos/lime-ball-rolling.png" "$out/photos/green-blob-drifting.webp"
# A file that cannot become a sticker: a failed entry, as the page and the CLI show them.
printf 'this is not an image' > "$out/photos/not-a-photo.jpg"
# Imported twice, as `make demo` does: the second is a no-op that makes the pack "demo". A failed
# entry makes the first exit 1 (partly failed), which is what is wanted here.
db="$out/catalog.sqlite"
# The fast model: imports and the reprocess jobs the run starts stay short.
"$catalog" --catalog "$db" config set cutout.model u2netp >/dev/null
"$catalog" --catalog "$db" import "$out/photos" >/dev/null || [ $? -eq 1 ]
"$catalog" --catalog "$db" import "$out/photos" --pack demo >/dev/null || [ $? -eq 1 ]

# Uploads land under XDG_DATA_HOME: kept inside $out.
XDG_DATA_HOME="$out/data" "$catalog" --catalog "$db" serve --port 0 --json --jobs 1 > "$out/serve.json" 2> "$out/serve.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 300); do [ -s "$out/serve.json" ] && break; sleep 0.1; done
[ -s "$out/serve.json" ] || { echo "error: catalog serve did not start:"; cat "$out/serve.log"; exit 1; }
read -r url token < <("$venv/bin/python" -c 'import json,sys; s=json.loads(open(sys.argv[1]).readline()); print(s["url"], s["token"])' "$out/serve.json")

# Every check, enabled in schemathesis.toml, not here: a --checks option would override the one
# per-operation switch there (and why it is there). Bounded: a fixed number of cases per operation and
# phase, and a time budget for the whole run. Run from $out, where schemathesis keeps its cache.
cd "$out"
"$venv/bin/schemathesis" --config-file "$here/schemathesis.toml" run "${API_SCHEMA:-${url%/}/api/openapi.yaml}" --url "${url%/}" \
  --phases examples,coverage,fuzzing,stateful \
  --header "X-Catalog-Token: $token" \
  --max-examples "$examples" --max-time "${API_MAX_TIME:-100}" --request-timeout 20 --seed "${API_SEED:-29}" \
  --suppress-health-check all --continue-on-failure \
  --report junit --report-dir "$out/report"
