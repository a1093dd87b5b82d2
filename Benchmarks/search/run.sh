#!/usr/bin/env bash
# Colour search at scale in one command (`make bench-search` calls it):
#   1. search-bench fills bench-data/search/catalog.sqlite with COUNT (1,000,000) synthetic stickers x 5
#      palette colours through CatalogRepository.recordProcessed(batch:) (kept between runs; an
#      interrupted fill resumes), then times `search` (R*Tree) and `searchByFullScan` in-process;
#   2. the `catalog search` binary is run RUNS times per query as a whole process (start, open,
#      search, print, exit), wall and CPU time per run;
#   3. one table on stdout; everything in bench-data/search/results.json.
# Settings: CATALOG_BIN, SEARCH_BENCH (default .build/release/...), COUNT, RUNS (25), BENCH_SEARCH_DATA.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${CATALOG_BIN:-$root/.build/release/catalog}
bench=${SEARCH_BENCH:-$root/.build/release/search-bench}
data=${BENCH_SEARCH_DATA:-$root/bench-data/search}
count=${COUNT:-1000000}
runs=${RUNS:-25}
mkdir -p "$data"
if [ -z "${SKIP_INPROCESS:-}" ]; then
  "$bench" "$data/catalog.sqlite" --count "$count" --runs "$runs" > "$data/inprocess.json"
fi
python3 - "$bin" "$data" "$runs" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
bin, data, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
catalog = os.path.join(data, "catalog.sqlite")
inproc = json.load(open(os.path.join(data, "inprocess.json")))
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round((len(values) - 1) * p))]
whole = []
for q in inproc["queries"]:
    args = [bin, "--catalog", catalog, "search"] + [a.strip("'") for a in q["arguments"].split()] + ["--ids"]
    subprocess.run(args, check=True, capture_output=True)  # warm the page cache
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        wall.append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    whole.append({"name": q["name"], "ids": len(out.split()), "processP50Ms": pct(wall, 0.5), "processP95Ms": pct(wall, 0.95),
                  "processCpuP50Ms": pct(cpu, 0.5)})
print(f"Colour search over {inproc['stickers']:,} synthetic stickers ({inproc['colors']:,} palette colours), "
      f"{runs} runs per query; catalog {inproc['fileBytes'] / 1e6:,.0f} MB "
      f"({inproc['fileBytesPerMillion'] / 1e6:,.0f} MB per million stickers)")
if inproc.get("fillSeconds"):
    print(f"fill: {inproc['fillSeconds']:.0f} s, {inproc['fillStickersPerSecond']:,.0f} stickers/s (batches of 20,000 through the repository)")
print(f"{'query':22} {'in-process p50':>14} {'p95':>7} {'cpu p50':>8} {'full scan':>10} {'speed-up':>9} {'same':>5} {'process p50':>12} {'p95':>7} {'cpu p50':>8}")
for q, w in zip(inproc["queries"], whole):
    print(f"{q['name']:22} {q['indexP50Ms']:11.2f} ms {q['indexP95Ms']:7.2f} {q['indexCpuP50Ms']:8.2f} {q['fullScanP50Ms']:10.0f} "
          f"{q['speedup']:8.0f}x {'yes' if q['sameResults'] else 'NO':>5} {w['processP50Ms']:9.1f} ms {w['processP95Ms']:7.1f} {w['processCpuP50Ms']:8.1f}")
sizes = inproc.get("tableBytes", {})
index = sum(v for k, v in sizes.items() if k.startswith("palette_index"))
print(f"space: R*Tree {index / 1e6:,.0f} MB, palette_color {(sizes.get('palette_color', 0) + sizes.get('sqlite_autoindex_palette_color_1', 0)) / 1e6:,.0f} MB "
      f"(the synthetic stickers' PNGs are 8 bytes: real ones add ~200 KB each)")
json.dump({"inProcess": inproc, "wholeProcess": whole}, open(os.path.join(data, "results.json"), "w"), indent=1)
PY
