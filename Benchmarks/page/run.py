"""The page at scale, in Chromium (Benchmarks/page/run.sh): how soon the first screen of stickers is
drawn, and how the virtualised grid scrolls through a large catalog.

    run.py CATALOG [--runs N]

- first screen: the page is loaded RUNS times with an empty cache; each time the page's own mark
  `first-stickers-drawn` (set once the first screen's tiles have their images decoded, see
  Web/js/grid.js) is read with the Performance API: milliseconds after navigation start.
- scrolling: the window is scrolled down continuously (one screen every 4 frames, about 2 s) while
  requestAnimationFrame records each frame's interval; then a jump to the middle of the catalog and
  the time until every tile there shows its sticker; the number of tiles in the document stays small.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

catalog_path = sys.argv[1]
runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
binary = os.environ["CATALOG_BIN"]

server = subprocess.Popen([binary, "--catalog", catalog_path, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
url = re.search(r"(https?://\S+)", server.stdout.readline()).group(1)
options = webdriver.ChromeOptions()
options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1440,900", "--hide-scrollbars"):
    options.add_argument(argument)
driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
driver.set_script_timeout(120)
result = {"catalog": catalog_path, "runs": runs}
try:
    total = json.loads(subprocess.run([binary, "--catalog", catalog_path, "stats", "--json"], capture_output=True, text=True).stdout)["ok"]
    result["stickers"] = total
    firsts = []
    for _ in range(runs):
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        driver.get(url)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            mark = driver.execute_script("return performance.getEntriesByName('first-stickers-drawn')[0]?.startTime ?? null")
            if mark is not None:
                firsts.append(mark)
                break
            time.sleep(0.05)
    result["firstScreenMs"] = {"median": statistics.median(firsts), "min": min(firsts), "max": max(firsts), "all": [round(v) for v in firsts]}
    result["tilesOnFirstScreen"] = driver.execute_script("return document.querySelectorAll('.vgrid .tile[data-entry-id]').length")

    frames = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const intervals = [];
        let last = performance.now(), frame = 0;
        function tick(now) {
          intervals.push(now - last); last = now; frame++;
          window.scrollBy(0, window.innerHeight / 4);
          if (frame < 120) requestAnimationFrame(tick); else done(intervals);
        }
        requestAnimationFrame(tick);""")
    frames = sorted(frames[1:])
    result["scrollFrameMs"] = {"median": statistics.median(frames), "p95": frames[int(len(frames) * 0.95)], "max": frames[-1],
                               "over50ms": sum(1 for f in frames if f > 50), "frames": len(frames)}
    jump = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const grid = document.querySelector('.vgrid');
        const top = grid.getBoundingClientRect().top + window.scrollY;
        const started = performance.now();
        window.scrollTo(0, top + grid.offsetHeight / 2);
        function ready() {
          const tiles = [...document.querySelectorAll('.vgrid .tile')].filter(t => {
            const r = t.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
          const ok = tiles.length > 0 && tiles.every(t => t.dataset.entryId && t.querySelector('img').complete && t.querySelector('img').naturalWidth > 0);
          if (ok) done({ms: performance.now() - started, tilesInDocument: document.querySelectorAll('.vgrid .tile').length,
                        first: Number(tiles[0].dataset.entryId)});
          else if (performance.now() - started > 60000) done({ms: null});
          else requestAnimationFrame(ready);
        }
        requestAnimationFrame(ready);""")
    result["jumpToMiddle"] = jump
finally:
    driver.quit()
    server.terminate()
    server.wait(timeout=20)
print(json.dumps(result, indent=1))
