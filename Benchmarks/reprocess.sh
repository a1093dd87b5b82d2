#!/usr/bin/env bash
# Reprocess throughput and peak memory: COUNT (200) generated 12-megapixel JPEGs are imported once,
# then every entry is reprocessed (`reprocess --all`) on a fresh copy of that catalog with --jobs 1
# and --jobs 2, RUNS (3) runs each; the medians of wall time, CPU time per photo and peak RSS, and
# the speed-up of --jobs 2 over --jobs 1 are printed.
# Environment: CATALOG_BIN, SAMPLES_BIN (release builds), COUNT, MEGAPIXELS (12), RUNS, BENCH_DATA.
set -euo pipefail
CATALOG_BIN=${CATALOG_BIN:-.build/release/catalog}
SAMPLES_BIN=${SAMPLES_BIN:-.build/release/sample-photos}
COUNT=${COUNT:-200}
MEGAPIXELS=${MEGAPIXELS:-12}
RUNS=${RUNS:-3}
DATA=${BENCH_DATA:-bench-data}
photos="$DATA/photos-${MEGAPIXELS}mp-$COUNT"
base="$DATA/reprocess-base-$COUNT.sqlite"

mkdir -p "$photos"
have=$(find "$photos" -name 'bench-*.jpg' | wc -l)
if [ "$have" -lt "$COUNT" ]; then
  echo "generating $COUNT photos of $MEGAPIXELS MP in $photos (once) ..."
  "$SAMPLES_BIN" "$photos" --benchmark "$COUNT" --megapixels "$MEGAPIXELS" >/dev/null
fi
if [ ! -s "$base" ]; then
  echo "importing them into $base (once) ..."
  rm -f "$base" "$base-wal" "$base-shm"
  "$CATALOG_BIN" --catalog "$base" import --jobs "$(nproc)" "$photos" >/dev/null
fi
bytes=$(du -sb "$photos" | cut -f1)
echo "input: $COUNT imported JPEGs, $MEGAPIXELS MP each, $((bytes / COUNT / 1000)) KB average; $(nproc) cores; $RUNS runs each, median"
echo "(wall time and speed-up depend on what else runs on the machine; CPU time per photo does not)"
printf '%-6s %10s %10s %16s %13s   %s\n' jobs seconds photos/s "CPU ms/photo" "peak RSS MB" "(wall seconds of each run)"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A wall
for jobs in 1 2; do
  times=(); cpu=(); rss=()
  for run in $(seq "$RUNS"); do
    catalog="$DATA/reprocess-$jobs.sqlite"
    rm -f "$catalog" "$catalog-wal" "$catalog-shm"
    cp "$base" "$catalog"
    [ -f "$base-wal" ] && cp "$base-wal" "$catalog-wal"
    out=$( { /usr/bin/time -f '%e %U %S %M' "$CATALOG_BIN" --catalog "$catalog" reprocess --all --jobs "$jobs" >/dev/null; } 2>&1 | tail -1)
    read -r e u s m <<<"$out"
    times+=("$e"); cpu+=("$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')"); rss+=("$m")
  done
  t=$(printf '%s\n' "${times[@]}" | median)
  c=$(printf '%s\n' "${cpu[@]}" | median)
  m=$(printf '%s\n' "${rss[@]}" | median)
  wall[$jobs]=$t
  awk -v j="$jobs" -v t="$t" -v n="$COUNT" -v c="$c" -v m="$m" -v runs="${times[*]}" \
    'BEGIN { printf "%-6s %10.2f %10.1f %16.1f %13.0f   (%s)\n", j, t, n / t, 1000 * c / n, m / 1024, runs }'
done
awk -v a="${wall[1]}" -v b="${wall[2]}" 'BEGIN { printf "speed-up, --jobs 2 over --jobs 1: %.2fx (target >= 1.8x on 2 idle cores)\n", a / b }'
