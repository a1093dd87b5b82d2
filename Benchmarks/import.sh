#!/usr/bin/env bash
# Import throughput and peak memory: 100 generated 12-megapixel JPEGs (with EXIF), imported into
# a fresh catalog with --jobs 1 and --jobs 2; RUNS runs each, the median reported; for each model in
# MODELS ("u2net u2netp": the default model, then the fast one the figures before 2026-11-28 were
# taken with), `import --model NAME`. The issue's goal for the default model: peak RSS with --jobs 2
# at most 500 MB (checked on the u2net row).
# Environment: CATALOG_BIN, SAMPLES_BIN (release builds), COUNT (100), MEGAPIXELS (12), RUNS (3), MODELS.
# Import cuts every subject out, so the segmentation model must be installed (make model, or
# STICKER_MODEL_DIR). CPU s/photo (user + sys) holds up better than wall time on a shared machine.
set -euo pipefail
CATALOG_BIN=${CATALOG_BIN:-.build/release/catalog}
SAMPLES_BIN=${SAMPLES_BIN:-.build/release/sample-photos}
COUNT=${COUNT:-100}
MEGAPIXELS=${MEGAPIXELS:-12}
RUNS=${RUNS:-3}
MODELS=${MODELS:-u2net u2netp}
DATA=${BENCH_DATA:-bench-data}
photos="$DATA/photos-${MEGAPIXELS}mp"

mkdir -p "$photos"
have=$(find "$photos" -name 'bench-*.jpg' | wc -l)
if [ "$have" -lt "$COUNT" ]; then
  echo "generating $COUNT photos of $MEGAPIXELS MP in $photos (once) ..."
  "$SAMPLES_BIN" "$photos" --benchmark "$COUNT" --megapixels "$MEGAPIXELS" >/dev/null
fi
bytes=$(du -sb "$photos" | cut -f1)
echo "input: $COUNT JPEGs, $MEGAPIXELS MP each, $((bytes / COUNT / 1000)) KB average; $(nproc) cores; $RUNS runs each, median"
printf '%-8s %-8s %12s %12s %14s %14s\n' model jobs seconds photos/s "peak RSS MB" "CPU s/photo"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for model in $MODELS; do
for jobs in 1 2; do
  times=(); rss=(); cpu=()
  for run in $(seq "$RUNS"); do
    catalog="$DATA/bench-$jobs.sqlite"
    rm -f "$catalog" "$catalog-wal" "$catalog-shm"
    out=$( { /usr/bin/time -f '%e %M %U %S' "$CATALOG_BIN" --catalog "$catalog" import --model "$model" --jobs "$jobs" "$photos" >/dev/null; } 2>&1 | tail -1)
    read -r wall peak user sys <<<"$out"
    times+=("$wall"); rss+=("$peak"); cpu+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")
  done
  t=$(printf '%s\n' "${times[@]}" | median)
  m=$(printf '%s\n' "${rss[@]}" | median)
  c=$(printf '%s\n' "${cpu[@]}" | median)
  awk -v model="$model" -v j="$jobs" -v t="$t" -v n="$COUNT" -v m="$m" -v c="$c" 'BEGIN { printf "%-8s %-8s %12.2f %12.1f %14.0f %14.2f\n", model, j, t, n / t, m / 1024, c / n }'
  if [ "$model" = u2net ] && [ "$jobs" = 2 ]; then
    awk -v m="$m" 'BEGIN { printf "goal: peak RSS of an import with --jobs 2 (u2net) <= 500 MB (%.0f MB): %s\n", m / 1024, m / 1024 <= 500 ? "met" : "NOT MET" }'
  fi
done
done
