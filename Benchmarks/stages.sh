#!/usr/bin/env bash
# Where an import's CPU goes: per photo and per stage, for generated 12 MP and 24 MP JPEGs, 8 MP PNGs
# and 12 MP HEICs. Each kind is imported into a
# fresh catalog with STICKER_STAGE_TIMES set, which makes the pipeline time its stages with the
# thread's own CPU clock; "outside the stages" is the process's CPU (user + sys) minus their sum
# (start-up, model load, task scheduling, the walk).
# MODEL (u2net, the default; the tables before 2026-11-28 were taken with u2netp: MODEL=u2netp
# compares with them) is `import --model MODEL`.
# Environment: CATALOG_BIN, SAMPLES_BIN, COUNT (20 a kind), JOBS (1), MODEL, BENCH_DATA (bench-data).
set -euo pipefail
CATALOG_BIN=${CATALOG_BIN:-.build/release/catalog}
SAMPLES_BIN=${SAMPLES_BIN:-.build/release/sample-photos}
COUNT=${COUNT:-20}
JOBS=${JOBS:-1}
MODEL=${MODEL:-u2net}
DATA=${BENCH_DATA:-bench-data}
work="$DATA/stages"
mkdir -p "$work"

photos() {  # kind folder: makes COUNT photos of the kind once
  local kind=$1 dir=$2
  mkdir -p "$dir"
  case $kind in
    jpeg12) "$SAMPLES_BIN" "$dir" --benchmark "$COUNT" --megapixels 12 >/dev/null ;;
    jpeg24) "$SAMPLES_BIN" "$dir" --benchmark "$COUNT" --megapixels 24 >/dev/null ;;
    png8) "$SAMPLES_BIN" "$dir" --benchmark "$COUNT" --megapixels 8 --variant png >/dev/null ;;
    heic12) "$SAMPLES_BIN" "$dir" --benchmark "$COUNT" --megapixels 12 --variant heic >/dev/null ;;
  esac
}

kinds=(jpeg12 jpeg24 png8 heic12)
names=("JPEG 12 MP" "JPEG 24 MP" "PNG 8 MP" "HEIC 12 MP")
columns=()
for i in "${!kinds[@]}"; do
  kind=${kinds[$i]}
  dir="$work/$kind"
  photos "$kind" "$dir" 
  catalog="$work/$kind.sqlite"
  rm -f "$catalog" "$catalog-wal" "$catalog-shm"
  out=$( { STICKER_STAGE_TIMES="$work/$kind.tsv" /usr/bin/time -f '%e %M %U %S' \
           "$CATALOG_BIN" --catalog "$catalog" import --model "$MODEL" --jobs "$JOBS" "$dir" >/dev/null || true; } 2>&1 | tail -1)
  read -r wall peak user sys <<<"$out"
  imported=$(awk -F'\t' '$1 == "photos" { print $2 }' "$work/$kind.tsv" 2>/dev/null || echo 0)
  if [ "${imported:-0}" -eq 0 ]; then echo "note: ${names[$i]} skipped (this build imported none of them)"; continue; fi
  printf 'process\t%s\nwall\t%s\npeak\t%s\n' "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$wall" "$peak" >> "$work/$kind.tsv"
  columns+=("${names[$i]}=$work/$kind.tsv")
done

python3 - "$JOBS" "$MODEL" "${columns[@]}" <<'PY'
import sys
jobs, model, columns = sys.argv[1], sys.argv[2], [c.split("=", 1) for c in sys.argv[3:]]
tables = []
for name, path in columns:
    rows = dict(line.rstrip("\n").split("\t") for line in open(path))
    tables.append((name, rows))
order = [k for k in tables[0][1] if k not in ("photos", "process", "wall", "peak")]
print(f"CPU per photo and stage, ms (share of the process's CPU); import --model {model} --jobs {jobs}, "
      + ", ".join(f"{n}: {int(r['photos'])} photos" for n, r in tables))
print(f"{'stage':26}" + "".join(f"{n:>20}" for n, _ in tables))
for stage in order + ["outside the stages", "process CPU", "network : rest"]:
    cells = []
    for _, r in tables:
        n = int(r["photos"])
        process = float(r["process"]) * 1000 / n
        staged = sum(float(r[k]) for k in order) * 1000 / n
        if stage == "outside the stages":
            ms = process - staged
        elif stage == "process CPU":
            ms = process
        elif stage == "network : rest":
            net = float(r["network"]) * 1000 / n
            cells.append(f"{'1 : %.2f' % ((process - net) / net) if net else '-':>20}")
            continue
        else:
            ms = float(r[stage]) * 1000 / n
        cells.append(f"{ms:10.1f} ({100 * ms / process:4.1f} %)")
    print(f"{stage:26}" + "".join(f"{c:>20}" for c in cells))
print(f"{'wall s / peak RSS MB':26}" + "".join(f"{float(r['wall']):>11.1f} / {int(r['peak']) // 1024:<5}" for _, r in tables))
PY
