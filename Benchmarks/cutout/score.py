#!/usr/bin/env python3
"""Scores subject cut-out, per model, automatic and with a box, on the composites of make_composites.py.

Every method runs on every composite twice for each model (u2net, u2netp):
  automatic  the whole photo;
  box        guided by the truth box: the bounding box of the composite's truth mask (alpha > 127)
             grown on each side by a random 5-20 % of its width (left, right) or height (top,
             bottom), drawn from a generator seeded by the manifest's seed and the composite's
             name (so re-runs, and runs with --limit, get the same boxes), clamped to the image.
The predicted mask (byte > 127) against the truth (> 127) as IoU = |pred & truth| / |pred | truth|.
One table per model: mean IoU per kind and overall, automatic and with the box, and the median CPU
seconds per photo of each; then the ratios (ours against onnxruntime on the same model, timed the
same way; u2net against u2netp on the same method) and the issue's goals.

Methods:
  onnxruntime  rembg's own session (SimpleSession: its pre- and post-processing, the same for both
               models) over an onnxruntime session with intra_op_num_threads=1 and
               inter_op_num_threads=1, on DIR/MODEL.onnx (--onnx-dir; setup-venv.sh puts both
               there), in-process: rembg.remove(img, session, only_mask=True). With a box the peer
               does what ours does: the photo is cropped to the box plus 15 % of its width and
               height on each side (clamped to the photo; WorkingGuidance.boxMargin, rounded the
               same way), the crop is cut out, its mask pasted back into an empty frame and zeroed
               outside the box.
  grabcut      OpenCV GrabCut, 5 iterations, initialised with the frame inset by 5 % on each side,
               or with the box; the mask is GC_FGD | GC_PR_FGD. No model: scored once, in its own
               table. Full resolution unless --grabcut-max-side; the first --grabcut-limit
               composites of each kind only (2-110 s of CPU per ~1024x768 composite).
  onnxruntime-process
               the onnxruntime peer as one process a photo (rembg_once.py: imports, model loading,
               cut-out, mask PNG), to compare with a per-process command of ours.
  NAME         --command NAME=TEMPLATE: run once per image, timed per process (start-up included);
               {in} the JPEG, {out} the PNG it must write (a grey mask the size of the image; an
               alpha channel is used instead if it is not constant), {model} the model's name.
               With a box `--box X,Y,W,H` is appended.
  NAME         --server NAME=COMMAND: started once per model ({model} in COMMAND), its start-up and
               model loading not counted (as for onnxruntime). Reads "IN<TAB>OUT" lines, or
               "IN<TAB>OUT<TAB>X,Y,W,H" with a box, and answers each with a JSON line
               {"cpu": s, "wall": s} (or {"error": ...}) once it has written the mask (cutout-bench).

Runs are interleaved: for each composite, every model and method in turn, automatic then box, so a
machine whose speed drifts slows every method alike; ratios are medians of the per-photo ratios.
Timing is single-core: OMP/OpenBLAS/MKL threads are set to 1 before anything is imported,
OpenCV's to 1, and this process (and so every command it starts) is pinned to one CPU with
sched_setaffinity (--no-pin to leave it). Wall and CPU time (user + system, of the process or of
the command with its children) are both recorded; on a shared machine CPU time is the steadier
figure and the one the goals are judged on. In-process times include decoding the JPEG; every
method gets one untimed warm-up run of each mode first. The 12 MP frame (big/12mp.jpg) is timed
automatic only, --big-runs times per method, interleaved.

usage: score.py DATA [--models u2net,u2netp] [--modes automatic,box] [--methods onnxruntime,grabcut]
                     [--onnx-dir DIR] [--command NAME=TEMPLATE]... [--server NAME=COMMAND]...
                     [--json FILE] [--limit N] [--grabcut-limit N] [--grabcut-max-side PX]
                     [--big-runs 3] [--no-big] [--big-grabcut] [--masks DIR] [--no-pin]
"""
from __future__ import annotations

import os
import resource

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

KINDS = ("texture", "blurred", "sharp")
MODES = ("automatic", "box")
MODELS = ("u2net", "u2netp")
BOX_MARGIN = 0.15          # our cut-out's margin around a box (WorkingGuidance.boxMargin)
TRUTH_MARGIN = (0.05, 0.20)  # the truth box's random margin per side, a share of its width/height

# Which peer each of ours is compared with (timed the same way), and the issue's goals.
PEER_OF = {"cutout-bench": "onnxruntime", "catalog": "onnxruntime-process"}
OURS_IN_PROCESS = "cutout-bench"
GOALS = {"automatic_iou": 0.875, "box_iou": 0.92, "vs_onnxruntime": 0.5, "vs_u2netp": 3.2}


def log(*a) -> None:
    print(*a, file=sys.stderr, flush=True)


def default_onnx_dir() -> Path:
    return Path(sys.prefix) / "models"  # setup-venv.sh: VENV/models/{u2net,u2netp}.onnx


def half_up(v: float) -> int:
    """Swift's Double.rounded() for v >= 0 (halves away from zero; Python's round() goes to even)."""
    return int(math.floor(v + 0.5))


# ---------------------------------------------------------------------------------------------
# Boxes: (x, y, w, h) in pixels of the image.

def truth_box(truth: np.ndarray, name: str, seed: int) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(truth > 127)
    h, w = truth.shape
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
    bw, bh = x1 - x0, y1 - y0
    left, top, right, bottom = np.random.default_rng([seed, zlib.crc32(name.encode())]).uniform(*TRUTH_MARGIN, 4)
    x0, y0 = max(0, math.floor(x0 - left * bw)), max(0, math.floor(y0 - top * bh))
    x1, y1 = min(w, math.ceil(x1 + right * bw)), min(h, math.ceil(y1 + bottom * bh))
    return x0, y0, x1 - x0, y1 - y0


def box_text(box) -> str:
    return ",".join(map(str, box))


def with_margin(box, width: int, height: int) -> tuple[int, int, int, int]:
    """The region our cut-out shows the network for a box (WorkingGuidance.sourceCrop at full size):
    (left, top, right, bottom)."""
    x, y, w, h = box
    mx, my = half_up(w * BOX_MARGIN), half_up(h * BOX_MARGIN)
    return max(0, x - mx), max(0, y - my), min(width, x + w + mx), min(height, y + h + my)


def inside_box(mask: np.ndarray, box) -> np.ndarray:
    x, y, w, h = box
    out = np.zeros_like(mask)
    out[y:y + h, x:x + w] = mask[y:y + h, x:x + w]
    return out


# ---------------------------------------------------------------------------------------------
# Methods: .name, .model (None for GrabCut) and .run(path, box) -> uint8 mask (h, w), 255 = subject.

class Onnxruntime:
    name = "onnxruntime"

    def __init__(self, model: str, onnx_dir: Path) -> None:
        import onnxruntime as ort
        import rembg
        from rembg.session_simple import SimpleSession

        self._remove = rembg.remove
        path = onnx_dir / f"{model}.onnx"
        if not path.is_file():
            raise SystemExit(f"{path} is missing: Benchmarks/cutout/setup-venv.sh puts both models there")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        inner = ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
        self.session = SimpleSession(model, inner)
        self.model = model
        self.path = str(path)

    def run(self, path: Path, box=None) -> np.ndarray:
        img = Image.open(path).convert("RGB")
        if box is None:
            return np.asarray(self._remove(img, session=self.session, only_mask=True).convert("L"))
        left, top, right, bottom = with_margin(box, *img.size)
        part = self._remove(img.crop((left, top, right, bottom)), session=self.session, only_mask=True)
        frame = np.zeros((img.size[1], img.size[0]), np.uint8)
        frame[top:bottom, left:right] = np.asarray(part.convert("L"))
        return inside_box(frame, box)


class GrabCut:
    name = "grabcut"
    model = None

    def __init__(self, max_side: int = 0, iterations: int = 5) -> None:
        import cv2

        cv2.setNumThreads(1)
        self.cv2 = cv2
        self.max_side = max_side
        self.iterations = iterations

    def run(self, path: Path, box=None) -> np.ndarray:
        cv2 = self.cv2
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        h0, w0 = img.shape[:2]
        k = 1.0
        if self.max_side and max(h0, w0) > self.max_side:
            k = self.max_side / max(h0, w0)
            img = cv2.resize(img, (round(w0 * k), round(h0 * k)), interpolation=cv2.INTER_AREA)
        h, w = img.shape[:2]
        if box is None:
            dx, dy = round(w * 0.05), round(h * 0.05)
            rect = (dx, dy, w - 2 * dx, h - 2 * dy)
        else:  # the box, leaving GrabCut at least a pixel of background on each side
            x0, y0 = max(1, round(box[0] * k)), max(1, round(box[1] * k))
            x1, y1 = min(w - 1, round((box[0] + box[2]) * k)), min(h - 1, round((box[1] + box[3]) * k))
            rect = (x0, y0, max(1, x1 - x0), max(1, y1 - y0))
        mask = np.zeros((h, w), np.uint8)
        bgd = np.zeros((1, 65), np.float64)
        fgd = np.zeros((1, 65), np.float64)
        cv2.grabCut(img, mask, rect, bgd, fgd, self.iterations, cv2.GC_INIT_WITH_RECT)
        out = np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
        if (h, w) != (h0, w0):
            out = cv2.resize(out, (w0, h0), interpolation=cv2.INTER_LINEAR)
        return out if box is None else inside_box(out, box)


class Command:
    """An external command run once per image; writes a mask PNG at {out}."""

    def __init__(self, name: str, template: str, workdir: Path, model: str | None = None) -> None:
        self.name = name
        self.model = model
        self.argv = [a.replace("{model}", model) if model else a for a in shlex.split(template)]
        if not any("{in}" in a for a in self.argv) or not any("{out}" in a for a in self.argv):
            raise SystemExit(f"--command {name}: the template needs both {{in}} and {{out}}")
        self.workdir = workdir / (model or "-") / name
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.wall: float | None = None  # wall time of the last process, set by run()
        self.cpu: float | None = None   # its CPU time (user + system, with its children)
        self.last_error = ""

    def run(self, path: Path, box=None) -> np.ndarray:
        out = self.workdir / (path.stem + ".png")
        out.unlink(missing_ok=True)
        argv = [a.replace("{in}", str(path)).replace("{out}", str(out)) for a in self.argv]
        if box is not None:
            argv += ["--box", box_text(box)]
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

    def __init__(self, name: str, command: str, workdir: Path, model: str | None = None) -> None:
        self.name = name
        self.model = model
        self.argv = [a.replace("{model}", model) if model else a for a in shlex.split(command)]
        self.workdir = workdir / (model or "-") / name
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.wall: float | None = None  # as the command reports it for the last image
        self.cpu: float | None = None
        self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def run(self, path: Path, box=None) -> np.ndarray:
        out = self.workdir / (path.stem + ".png")
        out.unlink(missing_ok=True)
        if self.process.poll() is not None:
            raise RuntimeError(f"{self.name} exited with {self.process.returncode}")
        self.process.stdin.write(f"{path}\t{out}" + ("" if box is None else f"\t{box_text(box)}") + "\n")
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


def timed(method, path: Path, box) -> tuple[np.ndarray, float, float]:
    """(mask, wall seconds, CPU seconds). CPU time is what the method itself used, so it
    holds up when other work shares the core; wall time is what a user waits."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    m = method.run(path, box)
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


def key(m) -> str:
    """A method instance's name in the results: MODEL/METHOD (GrabCut: -/grabcut)."""
    return f"{m.model or '-'}/{m.name}"


def score_one(m, data: Path, it: dict, truth: np.ndarray, box, mode: str, masks: Path | None) -> dict:
    err, resized = None, False
    try:
        pred, dt, cpu = timed(m, data / it["image"], box)
        pred, resized = fit(pred, truth.shape)
        score = iou(pred, truth)
        if masks is not None:
            folder = masks / (m.model or "-") / m.name / mode
            folder.mkdir(parents=True, exist_ok=True)
            Image.fromarray(pred).save(folder / f"{it['name']}.png", compress_level=1)
    except Exception as e:  # noqa: BLE001
        err, score, dt, cpu = str(e), 0.0, float("nan"), float("nan")
    log(f"  {key(m)} {mode} {it['name']}: IoU {score:.3f}"
        + (f" {dt:.2f}s (cpu {cpu:.2f}s)" if dt == dt else f" FAILED: {err}"))
    return {"name": it["name"], "kind": it["kind"], "iou": round(score, 4),
            "seconds": None if dt != dt else round(dt, 4),
            "cpu_seconds": None if cpu != cpu else round(cpu, 4),
            **({"error": err} if err else {}), **({"resized": True} if resized else {})}


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


def run_all(methods, data: Path, items: list[dict], big, boxes: dict, args) -> dict:
    """Interleaved: per composite, each method, automatic then box. Returns {key: {mode: summary, "big": ...}}."""
    first = data / items[0]["image"]
    for m in methods:  # untimed warm-up of each mode (model caches, page cache, dynamic linking)
        for mode in args.modes:
            try:
                m.run(first, boxes[items[0]["name"]] if mode == "box" else None)
            except Exception as e:  # noqa: BLE001
                log(f"  {key(m)}: {mode} warm-up failed: {e}")
    grabcut_items = {it["name"] for k in KINDS for it in [i for i in items if i["kind"] == k][: args.grabcut_limit or None]}
    rows = {key(m): {mode: [] for mode in args.modes} for m in methods}
    for n, it in enumerate(items, 1):
        log(f"{n}/{len(items)} {it['name']} (box {box_text(boxes[it['name']])})")
        truth = np.asarray(Image.open(data / it["truth"]).convert("L"))
        for m in methods:
            if m.name == "grabcut" and it["name"] not in grabcut_items:
                continue
            for mode in args.modes:
                box = boxes[it["name"]] if mode == "box" else None
                rows[key(m)][mode].append(score_one(m, data, it, truth, box, mode, args.masks))
    results = {k: {mode: summarise(r) for mode, r in v.items()} for k, v in rows.items()}
    if big:
        timed_big = [m for m in methods if m.name != "grabcut" or args.big_grabcut]
        path = data / big["image"]
        truth = np.asarray(Image.open(data / big["truth"]).convert("L"))
        runs = {key(m): {"times": [], "cpus": [], "iou": None} for m in timed_big}
        for m in timed_big:
            try:
                m.run(path, None)  # warm-up
            except Exception as e:  # noqa: BLE001
                runs[key(m)]["error"] = str(e)
        for _ in range(args.big_runs):
            for m in timed_big:
                r = runs[key(m)]
                if "error" in r:
                    continue
                try:
                    pred, dt, cpu = timed(m, path, None)
                    r["times"].append(dt)
                    r["cpus"].append(cpu)
                    r["iou"] = round(iou(fit(pred, truth.shape)[0], truth), 4)
                except Exception as e:  # noqa: BLE001
                    r["error"] = str(e)
        for k, r in runs.items():
            results[k]["big"] = ({"error": r["error"]} if "error" in r else {
                "median_seconds": round(statistics.median(r["times"]), 4),
                "median_cpu_seconds": round(statistics.median(r["cpus"]), 4),
                "runs": [round(t, 4) for t in r["times"]], "cpu_runs": [round(t, 4) for t in r["cpus"]],
                "iou": r["iou"]})
            log(f"  {k} 12 MP: {results[k]['big']}")
    return results


# ---------------------------------------------------------------------------------------------
# Reporting

def fmt(v, spec=".3f", none="-") -> str:
    return none if v is None else format(v, spec)


def paired_ratio(a: dict, b: dict) -> tuple[float | None, int]:
    """Median over the photos both timed of a's CPU time / b's (the same photo, minutes apart at most)."""
    bt = {r["name"]: r["cpu_seconds"] for r in b["images"] if r["cpu_seconds"]}
    ratios = [r["cpu_seconds"] / bt[r["name"]] for r in a["images"] if r["cpu_seconds"] and r["name"] in bt]
    return (round(statistics.median(ratios), 3) if ratios else None), len(ratios)


def table(results: dict, model: str, modes) -> list[str]:
    names = [k for k in results if k.split("/")[0] == model]
    if not names:
        return []
    head = ["method"]
    for mode in modes:
        head += [f"{k[:3]} {mode[:4]}" for k in KINDS] + [f"all {mode[:4]}"]
    head += [f"cpu s {mode[:4]}" for mode in modes] + ["12MP cpu s", "12MP IoU", "fails"]
    lines = [head]
    for name in names:
        r = results[name]
        row = [name.split("/", 1)[1]]
        for mode in modes:
            s = r[mode]
            row += [fmt(s["kinds"].get(k, {}).get("mean_iou")) for k in KINDS] + [fmt(s["mean_iou"])]
        row += [fmt(r[mode]["median_cpu_seconds"]) for mode in modes]
        b = r.get("big")
        row += [fmt((b or {}).get("median_cpu_seconds"), ".3f", "skip" if b is None else "err"),
                fmt((b or {}).get("iou"), ".3f", "-"), str(sum(r[mode]["failures"] for mode in modes))]
        lines.append(row)
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    out = [f"model {model}" if model != "-" else "no model (GrabCut)"]
    for i, row in enumerate(lines):
        out.append("  ".join(c.ljust(widths[j]) if j == 0 else c.rjust(widths[j]) for j, c in enumerate(row)))
        if i == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def comparisons(results: dict, modes) -> list[str]:
    """Ours against the peer timed the same way on the same model; u2net against u2netp; the goals."""
    out = []
    for name, r in results.items():
        model, method = name.split("/", 1)
        peer = PEER_OF.get(method)
        if peer and f"{model}/{peer}" not in results:
            peer = "onnxruntime"  # a per-process command against the in-process peer if that is all there is
        if not peer or f"{model}/{peer}" not in results:
            continue
        p = results[f"{model}/{peer}"]
        for mode in modes:
            ratio, n = paired_ratio(r[mode], p[mode])
            d = r[mode]["mean_iou"] - p[mode]["mean_iou"]
            out.append(f"{model} {mode}: {method} / {peer} CPU time {fmt(ratio, '.2f')}x "
                       f"(median of {n} photos; {fmt(r[mode]['median_cpu_seconds'], '.3f')} against "
                       f"{fmt(p[mode]['median_cpu_seconds'], '.3f')} s), IoU {r[mode]['mean_iou']:.3f} "
                       f"against {p[mode]['mean_iou']:.3f} ({d:+.3f})")
    for name, r in results.items():
        model, method = name.split("/", 1)
        if model != "u2net" or f"u2netp/{method}" not in results:
            continue
        for mode in modes:
            ratio, n = paired_ratio(r[mode], results[f"u2netp/{method}"][mode])
            out.append(f"{method} {mode}: u2net / u2netp CPU time {fmt(ratio, '.2f')}x (median of {n} photos)")
    ours, peer, small = (results.get(f"{m}/{x}") for m, x in
                         (("u2net", OURS_IN_PROCESS), ("u2net", "onnxruntime"), ("u2netp", OURS_IN_PROCESS)))
    if ours:
        def goal(ok, text):
            out.append(f"goal: {text}: {'met' if ok else 'NOT MET'}")
        if "automatic" in ours:
            v = ours["automatic"]["mean_iou"]
            goal(v >= GOALS["automatic_iou"], f"u2net automatic mean IoU {v:.3f} >= {GOALS['automatic_iou']}")
        if "box" in ours:
            v = ours["box"]["mean_iou"]
            goal(v >= GOALS["box_iou"], f"u2net mean IoU with a box {v:.3f} >= {GOALS['box_iou']}")
        for mode in modes:
            if peer:
                ratio, _ = paired_ratio(ours[mode], peer[mode])
                goal(ratio is not None and ratio <= GOALS["vs_onnxruntime"],
                     f"u2net {mode}, {OURS_IN_PROCESS} / onnxruntime CPU {fmt(ratio, '.2f')}x <= {GOALS['vs_onnxruntime']} (2x faster)")
            if small:
                ratio, _ = paired_ratio(ours[mode], small[mode])
                goal(ratio is not None and ratio <= GOALS["vs_u2netp"],
                     f"u2net {mode}, {OURS_IN_PROCESS} u2net / u2netp CPU {fmt(ratio, '.2f')}x <= {GOALS['vs_u2netp']}")
    return out


def report(results: dict, modes, big_size, boxes_n: int) -> list[str]:
    out = []
    for model in (*MODELS, "-"):
        t = table(results, model, modes)
        if t:
            out += t + [""]
    out.append(f"IoU: mask > 127 vs truth (stamp alpha > 127), mean per kind and overall; box: the truth's "
               f"bounding box grown by a seeded random 5-20 % a side ({boxes_n} boxes); cpu s: median CPU "
               f"seconds per photo on one pinned core (in-process: decode + cut-out; commands: the whole "
               f"process); 12MP: " + ("x".join(map(str, big_size)) + ", automatic, median of runs." if big_size else "skipped."))
    for name, r in results.items():
        n = sum(r[m]["resized"] for m in modes)
        if n:
            out.append(f"note: {name} wrote {n} masks of the wrong size (resized to score)")
    return out + [""] + comparisons(results, modes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", type=Path, help="folder made by make_composites.py")
    ap.add_argument("--models", default=",".join(MODELS), help="models to score (u2net,u2netp)")
    ap.add_argument("--modes", default=",".join(MODES), help="automatic,box")
    ap.add_argument("--methods", default="onnxruntime,grabcut",
                    help="in-process peers: onnxruntime, grabcut, onnxruntime-process ('' for none)")
    ap.add_argument("--onnx-dir", type=Path, default=default_onnx_dir(), help="where MODEL.onnx are")
    ap.add_argument("--command", action="append", default=[], metavar="NAME=TEMPLATE")
    ap.add_argument("--server", action="append", default=[], metavar="NAME=COMMAND",
                    help="a command started once per model that answers IN<TAB>OUT[<TAB>X,Y,W,H] lines (cutout-bench)")
    ap.add_argument("--json", type=Path, help="write all results (per image too) here")
    ap.add_argument("--limit", type=int, default=0, help="only the first N composites of each kind")
    ap.add_argument("--big-runs", type=int, default=3)
    ap.add_argument("--no-big", action="store_true", help="skip the 12 MP timing")
    ap.add_argument("--big-grabcut", action="store_true", help="also time GrabCut at 12 MP (minutes)")
    ap.add_argument("--grabcut-limit", type=int, default=0,
                    help="score GrabCut on the first N composites of each kind only (it is slow)")
    ap.add_argument("--grabcut-max-side", type=int, default=0,
                    help="run GrabCut on a copy downscaled to this long side (0: full size)")
    ap.add_argument("--masks", type=Path, help="save every predicted mask under DIR/MODEL/METHOD/MODE/")
    ap.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    args = ap.parse_args()
    models = [m for m in (s.strip() for s in args.models.split(",")) if m]
    args.modes = [m for m in (s.strip() for s in args.modes.split(",")) if m]
    for m in models:
        if m not in MODELS:
            raise SystemExit(f"unknown model {m!r} ({', '.join(MODELS)})")
    for m in args.modes:
        if m not in MODES:
            raise SystemExit(f"unknown mode {m!r} ({', '.join(MODES)})")

    data = args.data
    manifest = json.loads((data / "manifest.json").read_text())
    items = manifest["items"]
    if args.limit:
        items = [it for k in KINDS for it in [i for i in items if i["kind"] == k][: args.limit]]
    big = None if args.no_big else manifest.get("big")
    boxes = {it["name"]: truth_box(np.asarray(Image.open(data / it["truth"]).convert("L")), it["name"], manifest["seed"])
             for it in items}

    cpu = None
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        cpu = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    log(f"{len(items)} composites, models {models}, modes {args.modes}"
        + (f", pinned to CPU {cpu}" if cpu is not None else ""))

    work = Path(tempfile.mkdtemp(prefix="cutout-score-"))
    here = Path(__file__).resolve().parent
    methods = []
    try:
        peers = [s.strip() for s in args.methods.split(",") if s.strip()]
        for p in peers:
            if p not in ("onnxruntime", "grabcut", "onnxruntime-process"):
                raise SystemExit(f"unknown method {p!r} (onnxruntime, grabcut, onnxruntime-process; others via --command)")
        for model in models:
            if "onnxruntime" in peers:
                methods.append(Onnxruntime(model, args.onnx_dir))
            for c in args.server:
                name, sep, command = c.partition("=")
                if not sep or not name:
                    raise SystemExit(f"--server wants NAME=COMMAND, got {c!r}")
                methods.append(Server(name, command, work, model))
            for c in args.command:
                name, sep, template = c.partition("=")
                if not sep or not name:
                    raise SystemExit(f"--command wants NAME=TEMPLATE, got {c!r}")
                methods.append(Command(name, template, work, model))
            if "onnxruntime-process" in peers:
                once = f"{shlex.quote(sys.executable)} {shlex.quote(str(here / 'rembg_once.py'))} {{in}} {{out}} " \
                       f"--model {shlex.quote(str(args.onnx_dir / (model + '.onnx')))}"
                methods.append(Command("onnxruntime-process", once, work, model))
        if "grabcut" in peers:
            methods.append(GrabCut(args.grabcut_max_side))
        if not methods:
            raise SystemExit("no method to score")
        results = run_all(methods, data, items, big, boxes, args)
    finally:
        for m in methods:
            if isinstance(m, Server):
                m.close()
        shutil.rmtree(work, ignore_errors=True)

    lines = report(results, args.modes, big and big["size"], len(boxes))
    print("\n".join(lines))
    if args.json:
        meta = {k: manifest[k] for k in ("version", "seed", "count") if k in manifest}
        args.json.write_text(json.dumps({
            "composites": {**meta, "scored_per_kind": {k: sum(1 for i in items if i["kind"] == k) for k in KINDS}},
            "pinned_cpu": cpu, "grabcut_max_side": args.grabcut_max_side, "models": models, "modes": args.modes,
            "boxes": {name: list(b) for name, b in boxes.items()},
            "commands": {key(m): m.argv for m in methods if isinstance(m, (Command, Server))},
            "onnx": {m.model: m.path for m in methods if isinstance(m, Onnxruntime)},
            "results": results, "comparisons": comparisons(results, args.modes),
        }, indent=1) + "\n")
        log(f"wrote {args.json}")


if __name__ == "__main__":
    main()
