#!/usr/bin/env bash
# `catalog serve` at scale in one command (`make bench-serve` calls it):
#   1. search-bench fills bench-data/serve/catalog.sqlite with COUNT (100,000) synthetic stickers x 5
#      palette colours (kept between runs);
#   2. `catalog serve --port 0 --json` is started on it; over HTTP on loopback, RUNS requests each of
#      GET /api/entries?limit=100 and colour searches, timed by the server itself (its Server-Timing
#      header: from the request's arrival at the router to the answer, JSON encoded) and by the client;
#   3. a client pages through every entry (limit=100) while the server's resident memory (VmRSS of
#      its process) is sampled, to show it stays flat;
#   4. one table on stdout; everything in bench-data/serve/results.json.
# Settings: CATALOG_BIN, SEARCH_BENCH (default .build/release/...), COUNT, RUNS (200), BENCH_SERVE_DATA.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${CATALOG_BIN:-$root/.build/release/catalog}
bench=${SEARCH_BENCH:-$root/.build/release/search-bench}
data=${BENCH_SERVE_DATA:-$root/bench-data/serve}
count=${COUNT:-100000}
runs=${RUNS:-200}
mkdir -p "$data"
# Fill only (one search run, no full scans): the catalog is what matters here.
"$bench" "$data/catalog.sqlite" --count "$count" --runs 1 --no-scan > "$data/fill.json"
python3 - "$bin" "$data" "$runs" <<'PY'
import json, os, subprocess, sys, time, urllib.request
bin, data, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
catalog = os.path.join(data, "catalog.sqlite")
server = subprocess.Popen([bin, "--catalog", catalog, "serve", "--port", "0", "--json"], stdout=subprocess.PIPE, text=True)
try:
    address = json.loads(server.stdout.readline())
    base = address["url"].rstrip("/")
    def rss_kb():
        for line in open(f"/proc/{server.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    def get(path):
        start = time.perf_counter()
        with urllib.request.urlopen(base + path) as response:
            body = response.read()
            timing = response.headers["Server-Timing"]
        client = (time.perf_counter() - start) * 1000
        return float(timing.split("dur=")[1]), client, body
    def pct(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, round((len(values) - 1) * p))]
    queries = {
        "entries limit=100": "/api/entries?limit=100",
        "entries deep page": "/api/entries?limit=100&offset=99000",
        "search orange": "/api/search?color=orange",
        "search #ff8800 teal": "/api/search?color=%23ff8800&color=teal&within=20",
        "search camera+date": "/api/search?color=navy&camera=canon&taken-after=2022-01-01",
        "stats": "/api/stats",
    }
    rows = []
    for name, path in queries.items():
        for _ in range(5): get(path)  # warm the page cache and the server
        server_ms, client_ms = [], []
        for _ in range(runs):
            s, c, _ = get(path)
            server_ms.append(s); client_ms.append(c)
        rows.append({"name": name, "path": path, "serverP50Ms": pct(server_ms, 0.5), "serverP95Ms": pct(server_ms, 0.95),
                     "clientP50Ms": pct(client_ms, 0.5)})
    total = json.loads(get("/api/entries?limit=1")[2])["total"]
    samples, offset, pages, start = [], 0, 0, time.perf_counter()
    samples.append({"page": 0, "rssKB": rss_kb()})
    while offset < total:
        get(f"/api/entries?limit=100&offset={offset}")
        offset += 100; pages += 1
        if pages % 50 == 0: samples.append({"page": pages, "rssKB": rss_kb()})
    samples.append({"page": pages, "rssKB": rss_kb()})
    paging_seconds = time.perf_counter() - start
finally:
    server.terminate()
    status = server.wait()
print(f"catalog serve over {total:,} synthetic entries, {runs} requests per query on loopback (server time: its Server-Timing header)")
print(f"{'request':24} {'server p50':>11} {'p95':>8} {'client p50':>11}")
for r in rows:
    print(f"{r['name']:24} {r['serverP50Ms']:8.2f} ms {r['serverP95Ms']:8.2f} {r['clientP50Ms']:8.2f} ms")
rss = [s["rssKB"] for s in samples]
after_warm = rss[1:] if len(rss) > 2 else rss
print(f"paging through all {total:,} entries ({pages} pages of 100) took {paging_seconds:.1f} s; server RSS: start {rss[0] / 1024:.1f} MB, "
      f"after 50 pages {after_warm[0] / 1024:.1f} MB, max {max(rss) / 1024:.1f} MB, end {rss[-1] / 1024:.1f} MB")
print(f"server stopped by SIGTERM, exit status {status}")
json.dump({"entries": total, "runs": runs, "requests": rows, "paging": {"pages": pages, "seconds": paging_seconds, "rssSamples": samples},
           "exitStatus": status}, open(os.path.join(data, "results.json"), "w"), indent=1)
PY
