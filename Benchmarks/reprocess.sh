#!/usr/bin/env bash
# Reprocess throughput and peak memory: COUNT (200) generated 12-megapixel JPEGs are imported once,
# then every entry is reprocessed (`reprocess --all`) on a fresh copy of that catalog with --jobs 1
# and --jobs 2, RUNS (3) runs each; the medians of wall time, CPU time per photo and peak RSS, and
# the speed-up of --jobs 2 over --jobs 1 are printed.
# Beside ours, the machine's own ceiling for this work: two independent `--jobs 1` processes at once,
# each reprocessing half of the photos in its own catalog (imported once too). Their speed-up over one
# process is what the machine allows (shared caches, memory bandwidth, the hypervisor), so a shortfall
# of ours is ours only as far as it is below that. Runs are interleaved (1, 2, pair, 1, 2, pair, ...)
# so a change of load on the machine hits every mode alike.
# MODEL (u2netp, pinned: the figures and the 1.8x target were measured with it; MODEL=u2net for the
# default model, ~3x the CPU a photo) is the model of the imports and of `reprocess --model MODEL`.
# Environment: CATALOG_BIN, SAMPLES_BIN (release builds), COUNT, MEGAPIXELS (12), RUNS (0: only prepare
# the photos and catalogs), MODEL, BENCH_DATA.
set -euo pipefail
CATALOG_BIN=${CATALOG_BIN:-.build/release/catalog}
SAMPLES_BIN=${SAMPLES_BIN:-.build/release/sample-photos}
COUNT=${COUNT:-200}
MEGAPIXELS=${MEGAPIXELS:-12}
RUNS=${RUNS:-3}
MODEL=${MODEL:-u2netp}
DATA=${BENCH_DATA:-bench-data}
photos="$DATA/photos-${MEGAPIXELS}mp-$COUNT"
base="$DATA/reprocess-base-$COUNT-$MODEL.sqlite"

mkdir -p "$photos"
have=$(find "$photos" -name 'bench-*.jpg' | wc -l)
if [ "$have" -lt "$COUNT" ]; then
  echo "generating $COUNT photos of $MEGAPIXELS MP in $photos (once) ..."
  "$SAMPLES_BIN" "$photos" --benchmark "$COUNT" --megapixels "$MEGAPIXELS" >/dev/null
fi
mapfile -t files < <(find "$photos" -name 'bench-*.jpg' | sort | head -n "$COUNT")
half=$((COUNT / 2))
# import_once CATALOG PATHS...: CATALOG with PATHS (photos or a folder) imported, made once
import_once() {
  local catalog=$1; shift
  if [ ! -s "$catalog" ]; then
    echo "importing into $catalog (once) ..."
    rm -f "$catalog" "$catalog-wal" "$catalog-shm"
    "$CATALOG_BIN" --catalog "$catalog" import --model "$MODEL" --jobs "$(nproc)" "$@" >/dev/null
  fi
}
import_once "$base" "$photos"
import_once "$DATA/reprocess-base-$COUNT-$MODEL-a.sqlite" "${files[@]:0:half}"
import_once "$DATA/reprocess-base-$COUNT-$MODEL-b.sqlite" "${files[@]:half}"
if [ "$RUNS" -eq 0 ]; then echo "RUNS=0: the photos and catalogs are ready in $DATA"; exit 0; fi

# fresh SOURCE DEST: a copy of catalog SOURCE (with its WAL) at DEST
fresh() {
  rm -f "$2" "$2-wal" "$2-shm"
  cp "$1" "$2"
  if [ -f "$1-wal" ]; then cp "$1-wal" "$2-wal"; fi
}
# timed CATALOG JOBS OUT: reprocess --all, `wall user sys maxrss-KB` into OUT
timed() {
  /usr/bin/time -o "$3" -f '%e %U %S %M' "$CATALOG_BIN" --catalog "$1" reprocess --all --model "$MODEL" --jobs "$2" >/dev/null
}

bytes=$(du -sb "$photos" | cut -f1)
echo "input: $COUNT imported JPEGs, $MEGAPIXELS MP each, $((bytes / COUNT / 1000)) KB average; $(nproc) cores; model $MODEL; $RUNS runs each, median"
echo "(wall time and speed-up depend on what else runs on the machine; CPU time per photo less so)"
declare -A walls cpus rsss
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for run in $(seq "$RUNS"); do
  for mode in 1 2 pair; do
    if [ "$mode" = pair ]; then
      fresh "$DATA/reprocess-base-$COUNT-$MODEL-a.sqlite" "$DATA/reprocess-a.sqlite"
      fresh "$DATA/reprocess-base-$COUNT-$MODEL-b.sqlite" "$DATA/reprocess-b.sqlite"
      start=$(date +%s.%N)
      timed "$DATA/reprocess-a.sqlite" 1 "$out/a" &
      first=$!
      timed "$DATA/reprocess-b.sqlite" 1 "$out/b"
      wait "$first"
      end=$(date +%s.%N)
      read -r _ ua sa ma <"$out/a"
      read -r _ ub sb mb <"$out/b"
      walls[$mode]+="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') "
      cpus[$mode]+="$(awk -v a="$ua" -v b="$sa" -v c="$ub" -v d="$sb" 'BEGIN { print a + b + c + d }') "
      rsss[$mode]+="$((ma > mb ? ma : mb)) "
    else
      fresh "$base" "$DATA/reprocess-$mode.sqlite"
      timed "$DATA/reprocess-$mode.sqlite" "$mode" "$out/t"
      read -r e u s m <"$out/t"
      walls[$mode]+="$e "
      cpus[$mode]+="$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') "
      rsss[$mode]+="$m "
    fi
  done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-6s %10s %10s %16s %13s   %s\n' jobs seconds photos/s "CPU ms/photo" "peak RSS MB" "(wall seconds of each run)"
declare -A wall
for mode in 1 2 pair; do
  t=$(median <<<"${walls[$mode]}")
  c=$(median <<<"${cpus[$mode]}")
  m=$(median <<<"${rsss[$mode]}")
  wall[$mode]=$t
  label=$mode
  [ "$mode" = pair ] && label="2 x 1"
  awk -v j="$label" -v t="$t" -v n="$COUNT" -v c="$c" -v m="$m" -v runs="${walls[$mode]% }" \
    'BEGIN { printf "%-6s %10.2f %10.1f %16.1f %13.0f   (%s)\n", j, t, n / t, 1000 * c / n, m / 1024, runs }'
done
echo "(2 x 1: two --jobs 1 processes at once, half the photos each in its own catalog; peak RSS of one)"
awk -v a="${wall[1]}" -v b="${wall[2]}" -v p="${wall[pair]}" 'BEGIN {
  printf "speed-up, --jobs 2 over --jobs 1: %.2fx (target >= 1.8x on 2 idle cores)\n", a / b
  printf "ceiling, two --jobs 1 processes over one: %.2fx; ours / ceiling: %.2f\n", a / p, (a / b) / (a / p)
}'
