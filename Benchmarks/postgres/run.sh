#!/usr/bin/env bash
# The PostgreSQL back end beside SQLite, in one command (`make bench-postgres` calls it). One PostgreSQL
# server of its own (scripts/local-postgres.sh: socket only, PostgreSQL's default settings otherwise, fsync
# on) in BENCH_PG_DIR (default /var/tmp/sticker-bench-postgres; as root the `postgres` user must reach it),
# kept between runs for its 1M-sticker database, and stopped at the end.
#
#   1. Import: COUNT (30) generated MEGAPIXELS (12) MP JPEGs imported with `--jobs 2` into a new SQLite file
#      and into a new PostgreSQL database. 2. Workers: the same photos enqueued into a new database, then
#      processed by one `catalog work --jobs 1` or by two at once. Rounds of the four (RUNS, 3) are
#      interleaved, so a change of load on the machine hits each alike; medians. Wall time, the catalog
#      processes' CPU (user + system) and the server's CPU (its processes' and their ended children's,
#      from /proc).
#   3. The queue's own cost: work-bench claims and commits QUEUE_COUNT (2,000) synthetic results (200 KB
#      stickers) one at a time on a new database and on a new SQLite file, as `catalog work --jobs 1` does
#      (each commit claims the next file): wall time of claim + commit a photo, CPU per photo of the client
#      and of the server, commits/s.
#   4. Colour search at SEARCH_COUNT (1,000,000) synthetic stickers (5 random colours each, as search-bench
#      makes them) in the database search_N, filled once by SQL (generate_series, the GiST index built
#      after; about 9 minutes) and kept; search-bench times the queries in-process (SEARCH_RUNS, 5; with
#      3 full scans each to check the results unless SEARCH_SCAN=0), and `catalog search` is timed as a
#      whole process.
#
# Settings: CATALOG_BIN, SAMPLES_BIN, WORK_BENCH, SEARCH_BENCH (release builds), COUNT, MEGAPIXELS, RUNS,
# QUEUE_COUNT, QUEUE_STICKER_KB (200), SEARCH_COUNT, SEARCH_RUNS, SEARCH_SCAN, BENCH_DATA (bench-data), BENCH_PG_DIR, BENCH_PG_PORT (5499),
# PARTS (default "import queue search": which parts to run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
CATALOG_BIN=$(realpath "${CATALOG_BIN:-$root/.build/release/catalog}")
SAMPLES_BIN=$(realpath "${SAMPLES_BIN:-$root/.build/release/sample-photos}")
WORK_BENCH=$(realpath "${WORK_BENCH:-$root/.build/release/work-bench}")
SEARCH_BENCH=$(realpath "${SEARCH_BENCH:-$root/.build/release/search-bench}")
COUNT=${COUNT:-30}
MEGAPIXELS=${MEGAPIXELS:-12}
RUNS=${RUNS:-3}
QUEUE_COUNT=${QUEUE_COUNT:-2000}
SEARCH_COUNT=${SEARCH_COUNT:-1000000}
SEARCH_RUNS=${SEARCH_RUNS:-5}
SEARCH_SCAN=${SEARCH_SCAN:-1}
QUEUE_STICKER_KB=${QUEUE_STICKER_KB:-200}
DATA=$(realpath -m "${BENCH_DATA:-$root/bench-data}")
PGDIR=${BENCH_PG_DIR:-/var/tmp/sticker-bench-postgres}
PORT=${BENCH_PG_PORT:-5499}
PARTS=${PARTS:-import queue search}
out=$DATA/postgres
mkdir -p "$out"
scratch=$(mktemp -d)
chmod 755 "$scratch"

address=$("$root/scripts/local-postgres.sh" start "$PGDIR" "$PORT")
cleanup() {
  "$root/scripts/local-postgres.sh" stop "$PGDIR" || true
  rm -rf "$scratch"
}
trap cleanup EXIT
# db NAME: the address of database NAME on the server
db() { echo "${address/\/stickers\?//$1?}"; }
export PGOPTIONS="-c client_min_messages=warning"
sql() { psql -X -q -A -t -v ON_ERROR_STOP=1 -h "$PGDIR" -p "$PORT" -U "${PGUSER:-$(id -un)}" -d "${2:-postgres}" -c "$1"; }
fresh_db() { sql "DROP DATABASE IF EXISTS $1" && sql "CREATE DATABASE $1"; }
ticks=$(getconf CLK_TCK)
# The server's CPU seconds so far: the postmaster's own and its ended children's (cutime, cstime), plus the
# live children's. Backends end with their connection, so between measurements everything is counted.
server_cpu() {
  local main children
  main=$(head -1 "$PGDIR/data/postmaster.pid")
  children=$(pgrep -P "$main" | tr '\n' ' ')
  # shellcheck disable=SC2086
  (awk '{ print $14 + $15 + $16 + $17 }' "/proc/$main/stat"; for c in $children; do awk '{ print $14 + $15 }' "/proc/$c/stat" 2>/dev/null || true; done) |
    awk -v t="$ticks" '{ s += $1 } END { printf "%.3f", s / t }'
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
now() { date +%s.%N; }
# timed OUT COMMAND...: COMMAND's `user system` CPU seconds into OUT
timed() {
  local file=$1; shift
  /usr/bin/time -o "$file" -f '%U %S' "$@" >/dev/null
}
cpu_of() { awk '{ s += $1 + $2 } END { printf "%.3f", s }' "$@"; }

echo "$(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); PostgreSQL $(sql 'SHOW server_version'); $(date -u +%FT%TZ)"
echo "(the figures that carry over from a machine that is not idle are CPU times and the ratios of one interleaved run)"

if [[ " $PARTS " == *" import "* ]]; then
  photos="$DATA/photos-${MEGAPIXELS}mp-$COUNT"
  mkdir -p "$photos"
  if [ "$(find "$photos" -name 'bench-*.jpg' | wc -l)" -lt "$COUNT" ]; then
    echo "generating $COUNT photos of $MEGAPIXELS MP in $photos (once) ..."
    "$SAMPLES_BIN" "$photos" --benchmark "$COUNT" --megapixels "$MEGAPIXELS" >/dev/null
  fi
  declare -A walls cpus servers
  for run in $(seq "$RUNS"); do
    for mode in sqlite postgres work1 work2; do
      rm -f "$scratch"/*.time
      case $mode in
      sqlite)
        rm -f "$scratch/import.sqlite"*
        s0=$(server_cpu); t0=$(now)
        timed "$scratch/a.time" "$CATALOG_BIN" --catalog "$scratch/import.sqlite" import --jobs 2 --quiet "$photos"
        ;;
      postgres)
        fresh_db bench_import
        s0=$(server_cpu); t0=$(now)
        timed "$scratch/a.time" "$CATALOG_BIN" --catalog "$(db bench_import)" import --jobs 2 --quiet "$photos"
        ;;
      work1 | work2)
        fresh_db bench_work
        "$CATALOG_BIN" --catalog "$(db bench_work)" import --enqueue "$photos" >/dev/null
        s0=$(server_cpu); t0=$(now)
        if [ "$mode" = work1 ]; then
          timed "$scratch/a.time" "$CATALOG_BIN" --catalog "$(db bench_work)" work --jobs 1 --quiet
        else
          timed "$scratch/a.time" "$CATALOG_BIN" --catalog "$(db bench_work)" work --jobs 1 --quiet &
          first=$!
          timed "$scratch/b.time" "$CATALOG_BIN" --catalog "$(db bench_work)" work --jobs 1 --quiet
          wait "$first"
        fi
        done_count=$(sql "SELECT count(*) FROM work_item WHERE state = 'done'" bench_work)
        [ "$done_count" -eq "$COUNT" ] || { echo "error: $mode finished $done_count of $COUNT photos" >&2; exit 1; }
        ;;
      esac
      t1=$(now); s1=$(server_cpu)
      walls[$mode]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') "
      cpus[$mode]+="$(cpu_of "$scratch"/*.time) "
      servers[$mode]+="$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.3f", b - a }') "
    done
    echo "round $run of $RUNS done" >&2
  done
  bytes=$(du -sb "$photos" | cut -f1)
  echo
  echo "Import and workers: $COUNT JPEGs of $MEGAPIXELS MP ($((bytes / COUNT / 1000)) KB each), $RUNS interleaved rounds, medians"
  printf '%-38s %9s %9s %15s %15s   %s\n' "" seconds photos/s "catalog CPU/ph" "server CPU/ph" "(wall of each round)"
  declare -A wall cpu server
  for mode in sqlite postgres work1 work2; do
    wall[$mode]=$(median <<<"${walls[$mode]}")
    cpu[$mode]=$(median <<<"${cpus[$mode]}")
    server[$mode]=$(median <<<"${servers[$mode]}")
    case $mode in
    sqlite) label="import --jobs 2, SQLite" ;;
    postgres) label="import --jobs 2, PostgreSQL" ;;
    work1) label="one work --jobs 1, PostgreSQL" ;;
    work2) label="two work --jobs 1 at once, PostgreSQL" ;;
    esac
    awk -v l="$label" -v t="${wall[$mode]}" -v n="$COUNT" -v c="${cpu[$mode]}" -v s="${server[$mode]}" -v r="${walls[$mode]% }" \
      'BEGIN { printf "%-38s %9.2f %9.2f %12.0f ms %12.1f ms   (%s)\n", l, t, n / t, 1000 * c / n, 1000 * s / n, r }'
  done
  awk -v ws="${wall[sqlite]}" -v wp="${wall[postgres]}" -v cs="${cpu[sqlite]}" -v cp="${cpu[postgres]}" -v sp="${server[postgres]}" \
      -v w1="${wall[work1]}" -v w2="${wall[work2]}" -v c1="${cpu[work1]}" -v c2="${cpu[work2]}" 'BEGIN {
    printf "import throughput, PostgreSQL / SQLite: %.3f by wall time; CPU a photo, catalog + server: %.3f of SQLite (target: within 5%%)\n", ws / wp, (cp + sp) / cs
    printf "two workers / one: %.2fx by wall time (target >= 1.8x on 2 idle cores); CPU a photo, two / one: %.3f\n", w1 / w2, c2 / c1
  }'
fi

if [[ " $PARTS " == *" queue "* ]]; then
  echo
  echo "The queue's own cost: $QUEUE_COUNT claims + commits one at a time (work-bench, $QUEUE_STICKER_KB KB stickers)"
  printf '%-12s %16s %18s %12s %16s %16s %12s\n' "" "claim+commit p50" "commit+claim p95" "mean" "client CPU/ph" "server CPU/ph" "commits/s"
  for backend in postgres sqlite; do
    if [ "$backend" = postgres ]; then
      fresh_db bench_queue
      target=$(db bench_queue)
    else
      rm -f "$scratch/queue.sqlite"*
      target=$scratch/queue.sqlite
    fi
    s0=$(server_cpu)
    "$WORK_BENCH" "$target" --count "$QUEUE_COUNT" --sticker-kb "$QUEUE_STICKER_KB" >"$out/queue-$backend.json"
    s1=$(server_cpu)
    python3 - "$out/queue-$backend.json" "$backend" "$s0" "$s1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
server = (float(sys.argv[4]) - float(sys.argv[3])) * 1000 / r["photos"] if sys.argv[2] == "postgres" else 0
r["serverCpuPerPhotoMs"] = server
json.dump(r, open(sys.argv[1], "w"), indent=1, sort_keys=True)
print(f"{sys.argv[2]:12} {r['perPhotoP50Ms']:13.2f} ms {r['commitP95Ms']:15.2f} ms {r['perPhotoMeanMs']:9.2f} ms "
      f"{r['clientCpuPerPhotoMs']:13.2f} ms {server:13.2f} ms {r['commitsPerSecond']:12.0f}")
PY
  done
  echo "(server CPU per photo includes enqueueing it; enqueueing $QUEUE_COUNT took $(python3 -c "import json; print(round(json.load(open('$out/queue-postgres.json'))['enqueueSeconds'], 2))") s on PostgreSQL)"
fi

if [[ " $PARTS " == *" search "* ]]; then
  name=search_$SEARCH_COUNT
  target=$(db "$name")
  if [ "$(sql "SELECT count(*) FROM pg_database WHERE datname = '$name'")" = 0 ]; then
    sql "CREATE DATABASE $name"
  fi
  # The schema, made by the catalog itself (a setting written at its default).
  "$CATALOG_BIN" --catalog "$target" config set palette.colors 5 >/dev/null
  have=$(sql "SELECT count(*) FROM photo" "$name")
  if [ "$have" -ne "$SEARCH_COUNT" ]; then
    [ "$have" -lt "$SEARCH_COUNT" ] || { echo "error: $name holds $have stickers, not $SEARCH_COUNT" >&2; exit 1; }
    echo "filling $name from $have to $SEARCH_COUNT stickers (once; kept in $PGDIR) ..." >&2
    fill_start=$(now)
    sql "DROP INDEX IF EXISTS palette_color_oklab_share" "$name"
    step=100000
    for ((low = have + 1; low <= SEARCH_COUNT; low += step)); do
      high=$((low + step - 1 > SEARCH_COUNT ? SEARCH_COUNT : low + step - 1))
      # 5 random sRGB colours a sticker, shares from sorted random weights (as search-bench makes them), in
      # Oklab (Ottosson's matrices, as Processing converts); a camera and a date in 2020-2025.
      psql -X -q -v ON_ERROR_STOP=1 -h "$PGDIR" -p "$PORT" -U "${PGUSER:-$(id -un)}" -d "$name" <<SQL
BEGIN;
CREATE FUNCTION pg_temp.linear(c double precision) RETURNS double precision IMMUTABLE LANGUAGE sql
    AS 'SELECT CASE WHEN c <= 0.04045 THEN c / 12.92 ELSE power((c + 0.055) / 1.055, 2.4) END';
INSERT INTO photo (id, sha256, path, file_size, file_mtime, format, width, height, status, imported_at, updated_at, decoder_version)
SELECT i, lpad(to_hex(i), 64, '0'), '/synthetic/' || (i / 1000) || '/sticker-' || i || '.jpg', 3000000, 1700000000, 'jpeg',
       4000, 3000, 'ok', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1
FROM generate_series($low, $high) i;
INSERT INTO exif (photo_id, make, model, taken_at, taken_at_utc)
SELECT i, (ARRAY['Canon', 'NIKON CORPORATION', 'FUJIFILM', 'Apple', 'SONY'])[1 + i % 5],
       (ARRAY['EOS R5', 'NIKON Z 6', 'X100V', 'iPhone 15', 'ILCE-7M4'])[1 + i % 5], d, d
FROM (SELECT i, to_char(date '2020-01-01' + (random() * 2189)::int, 'YYYY-MM-DD') || 'T12:00:00' AS d
      FROM generate_series($low, $high) i) dated;
INSERT INTO sticker (photo_id, width, height, bytes, pipeline_version, settings_json, created_at)
SELECT i, 512, 384, 8, 3, '{}', '2026-01-01T00:00:00Z' FROM generate_series($low, $high) i;
INSERT INTO sticker_png (photo_id, png) SELECT i, '\x89504e470d0a1a0a'::bytea FROM generate_series($low, $high) i;
WITH raw AS (
    SELECT p, random() + 0.02 AS w, floor(random() * 256)::int AS r, floor(random() * 256)::int AS g, floor(random() * 256)::int AS bl
    FROM generate_series($low, $high) p, generate_series(1, 5) k
), ranked AS (
    SELECT p, w / sum(w) OVER (PARTITION BY p) AS share, row_number() OVER (PARTITION BY p ORDER BY w DESC) - 1 AS rank, r, g, bl,
           pg_temp.linear(r / 255.0) AS lr, pg_temp.linear(g / 255.0) AS lg, pg_temp.linear(bl / 255.0) AS lb
    FROM raw
), cone AS (
    SELECT *, cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb) AS l_,
              cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb) AS m_,
              cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb) AS s_
    FROM ranked
)
INSERT INTO palette_color (photo_id, rank, hex, l, a, b, share)
SELECT p, rank, '#' || lpad(to_hex(r), 2, '0') || lpad(to_hex(g), 2, '0') || lpad(to_hex(bl), 2, '0'),
       0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
       1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
       0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_, share
FROM cone;
COMMIT;
SQL
      echo "  $high / $SEARCH_COUNT" >&2
    done
    psql -X -q -o /dev/null -v ON_ERROR_STOP=1 -h "$PGDIR" -p "$PORT" -U "${PGUSER:-$(id -un)}" -d "$name" <<SQL
SELECT setval(pg_get_serial_sequence('photo', 'id'), (SELECT max(id) FROM photo));
SELECT setval(pg_get_serial_sequence('palette_color', 'id'), (SELECT max(id) FROM palette_color));
SET maintenance_work_mem = '512MB';
CREATE INDEX palette_color_oklab_share ON palette_color USING gist (oklab_share);
VACUUM ANALYZE;
SQL
    echo "fill: $(awk -v a="$fill_start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s" | tee "$out/search-fill.txt"
  fi
  echo
  scan=()
  [ "$SEARCH_SCAN" = 1 ] || scan=(--no-scan)
  "$SEARCH_BENCH" "$target" --count "$SEARCH_COUNT" --runs "$SEARCH_RUNS" "${scan[@]}" >"$out/search-inprocess.json"
  python3 - "$CATALOG_BIN" "$target" "$out" "$SEARCH_RUNS" <<'PY'
import json, os, resource, subprocess, sys, time
bin, target, out, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
inproc = json.load(open(os.path.join(out, "search-inprocess.json")))
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round((len(values) - 1) * p))]
print(f"Colour search on PostgreSQL over {inproc['stickers']:,} synthetic stickers ({inproc['colors']:,} palette colours), {runs} runs a query")
print(f"{'query':22} {'in-process p50':>14} {'p95':>7} {'cpu p50':>8} {'full scan':>10} {'same':>5} {'process p50':>12} {'cpu p50':>8}")
whole = []
for q in inproc["queries"]:
    args = [bin, "--catalog", target, "search"] + [a.strip("'") for a in q["arguments"].split()] + ["--ids"]
    subprocess.run(args, check=True, capture_output=True)
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        wall.append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    whole.append({"name": q["name"], "processP50Ms": pct(wall, 0.5), "processCpuP50Ms": pct(cpu, 0.5)})
    print(f"{q['name']:22} {q['indexP50Ms']:11.2f} ms {q['indexP95Ms']:7.2f} {q['indexCpuP50Ms']:8.2f} {q['fullScanP50Ms']:10.0f} "
          f"{('-' if q['fullScanP50Ms'] == 0 else 'yes' if q['sameResults'] else 'NO'):>5} {pct(wall, 0.5):9.1f} ms {pct(cpu, 0.5):8.1f}")
sizes = inproc.get("tableBytes", {})
print(f"space: palette_color with its indexes {sizes.get('palette_color', 0) / 1e6:,.0f} MB, of which the GiST index {sizes.get('palette_color_oklab_share', 0) / 1e6:,.0f} MB")
json.dump({"inProcess": inproc, "wholeProcess": whole}, open(os.path.join(out, "search-results.json"), "w"), indent=1)
PY
fi
