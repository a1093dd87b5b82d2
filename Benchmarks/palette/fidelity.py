#!/usr/bin/env python3
"""Palette fidelity: how well k colours stand for a subject's pixels, ours beside the usual tools.

For each composite of the cut-out benchmark (NAME.jpg + NAME.truth.png; the subject is truth > 127),
the subject's pixels are given to every method, and each pixel is charged the colour difference to
the nearest colour of that method's palette; the figure is the mean over the subject's pixels
(every pixel counts once), averaged over the composites. Two differences are reported: CIEDE2000
(CIELAB, D65) and Oklab ΔE (100 x Euclidean distance in Oklab, the unit the catalog searches in).

Methods, all on the same pixels and with k colours asked for:
  ours         `palette-bench k CUTOUT.png` (PaletteExtractor on the RGBA cut-out: transparent outside)
  colorthief   ColorThief(strip).get_palette(color_count=k, quality=1)
  colorgram    colorgram.extract(strip, k)
  mediancut    Pillow strip.quantize(k, method=MEDIANCUT), the palette entries in use
  fastoctree   Pillow strip.quantize(k, method=FASTOCTREE), the palette entries in use
(strip: the subject's pixels as a 1-pixel-high RGB image, so nothing else is in it.)

usage: fidelity.py DATA PALETTE_BENCH [--k 5] [--out results.json] [--limit N]
"""
from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

import colorgram
from colorthief import ColorThief


def srgb_to_linear(rgb8: np.ndarray) -> np.ndarray:
    c = rgb8.astype(np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def oklab(rgb8: np.ndarray) -> np.ndarray:
    lin = srgb_to_linear(rgb8)
    m1 = np.array([[0.4122214708, 0.5363325363, 0.0514459929],
                   [0.2119034982, 0.6806995451, 0.1073969566],
                   [0.0883024619, 0.2817188376, 0.6299787005]])
    m2 = np.array([[0.2104542553, 0.7936177850, -0.0040720468],
                   [1.9779984951, -2.4285922050, 0.4505937099],
                   [0.0259040371, 0.7827717662, -0.8086757660]])
    return np.cbrt(lin @ m1.T) @ m2.T


def cielab(rgb8: np.ndarray) -> np.ndarray:
    lin = srgb_to_linear(rgb8)
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 (Sharma, Wu, Dalal 2005), kL = kC = kH = 1, broadcasting over leading axes."""
    L1, a1, b1 = np.moveaxis(lab1, -1, 0)
    L2, a2, b2 = np.moveaxis(lab2, -1, 0)
    C1, C2 = np.hypot(a1, b1), np.hypot(a2, b2)
    Cm = (C1 + C2) / 2
    G = 0.5 * (1 - np.sqrt(Cm ** 7 / (Cm ** 7 + 25.0 ** 7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dLp = L2 - L1
    dCp = C2p - C1p
    zero = (C1p * C2p) == 0
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(zero, 0, dh)
    dHp = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dh / 2))
    Lpm = (L1 + L2) / 2
    Cpm = (C1p + C2p) / 2
    hsum = h1p + h2p
    hpm = np.where(zero, hsum,
                   np.where(np.abs(h1p - h2p) <= 180, hsum / 2,
                            np.where(hsum < 360, (hsum + 360) / 2, (hsum - 360) / 2)))
    T = (1 - 0.17 * np.cos(np.radians(hpm - 30)) + 0.24 * np.cos(np.radians(2 * hpm))
         + 0.32 * np.cos(np.radians(3 * hpm + 6)) - 0.20 * np.cos(np.radians(4 * hpm - 63)))
    dtheta = 30 * np.exp(-(((hpm - 275) / 25) ** 2))
    Rc = 2 * np.sqrt(Cpm ** 7 / (Cpm ** 7 + 25.0 ** 7))
    Sl = 1 + 0.015 * (Lpm - 50) ** 2 / np.sqrt(20 + (Lpm - 50) ** 2)
    Sc = 1 + 0.045 * Cpm
    Sh = 1 + 0.015 * Cpm * T
    Rt = -np.sin(np.radians(2 * dtheta)) * Rc
    return np.sqrt((dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh))


# Pairs from Sharma, Wu and Dalal's CIEDE2000 test data (pairs 1-4, 7, 17-20, 25, 26).
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
]


def check_ciede2000() -> None:
    for first, second, expected in SHARMA:
        got = float(ciede2000(np.array(first), np.array(second)))
        assert abs(got - expected) < 1e-4, f"CIEDE2000{first}{second} = {got}, expected {expected}"


def errors(pixels: np.ndarray, counts: np.ndarray, palette: list[tuple[int, int, int]]) -> tuple[float, float]:
    """Mean over pixels (unique colours weighted by count) of the difference to the nearest palette colour."""
    if not palette:
        return float("nan"), float("nan")
    pal = np.array(palette, dtype=np.uint8)
    lab_p, lab_c = cielab(pixels)[:, None, :], cielab(pal)[None, :, :]
    ok_p, ok_c = oklab(pixels)[:, None, :], oklab(pal)[None, :, :]
    d00 = ciede2000(lab_p, lab_c).min(axis=1)
    dok = 100 * np.linalg.norm(ok_p - ok_c, axis=-1).min(axis=1)
    w = counts / counts.sum()
    return float((d00 * w).sum()), float((dok * w).sum())


def strip_png(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(pixels.reshape(1, -1, 3)).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def quantized(strip: Image.Image, k: int, method) -> list[tuple[int, int, int]]:
    q = strip.quantize(colors=k, method=method)
    flat = q.getpalette() or []
    return [tuple(flat[3 * i:3 * i + 3]) for _, i in sorted(q.getcolors(k * 4) or [], reverse=True)]


def peers(pixels: np.ndarray, k: int) -> dict[str, tuple[list, float]]:
    out = {}
    strip = Image.fromarray(pixels.reshape(1, -1, 3))
    png = strip_png(pixels)

    def timed(name, fn):
        start = time.process_time()
        palette = [tuple(int(v) for v in c) for c in fn()][:k]
        out[name] = (palette, (time.process_time() - start) * 1000)

    timed("colorthief", lambda: ColorThief(io.BytesIO(png)).get_palette(color_count=k, quality=1))
    timed("colorgram", lambda: [c.rgb for c in colorgram.extract(strip, k)])
    timed("mediancut", lambda: quantized(strip, k, Image.Quantize.MEDIANCUT))
    timed("fastoctree", lambda: quantized(strip, k, Image.Quantize.FASTOCTREE))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", type=Path)
    parser.add_argument("palette_bench")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    check_ciede2000()

    composites = sorted(p for p in args.data.glob("*.jpg") if p.with_suffix(".truth.png").exists())
    if args.limit:
        composites = composites[: args.limit]
    if not composites:
        sys.exit(f"no composites (NAME.jpg + NAME.truth.png) in {args.data}")
    methods = ["ours", "colorthief", "colorgram", "mediancut", "fastoctree"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        subjects = {}
        for jpg in composites:
            rgb = np.asarray(Image.open(jpg).convert("RGB"))
            mask = np.asarray(Image.open(jpg.with_suffix(".truth.png")).convert("L")) > 127
            cut = np.dstack([rgb, (mask * 255).astype(np.uint8)])
            path = Path(tmp) / (jpg.stem + ".png")
            Image.fromarray(cut, "RGBA").save(path, compress_level=1)
            subjects[jpg.stem] = (rgb[mask], path)
        run = subprocess.run([args.palette_bench, str(args.k)] + [str(p) for _, p in subjects.values()],
                             check=True, capture_output=True, text=True)
        ours = {Path(d["file"]).stem: d for d in map(json.loads, run.stdout.splitlines())}
        for name, (pixels, _) in subjects.items():
            unique, counts = np.unique(pixels, axis=0, return_counts=True)
            palettes = {"ours": ([tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for h in ours[name]["colors"]], ours[name]["ms"])}
            palettes.update(peers(pixels, args.k))
            row = {"composite": name, "pixels": int(len(pixels))}
            for method in methods:
                palette, ms = palettes[method]
                d00, dok = errors(unique, counts, palette)
                row[method] = {"de2000": d00, "deok": dok, "colors": len(palette), "ms": ms}
            rows.append(row)
            print(f"{name:14} " + "  ".join(f"{m} {row[m]['de2000']:5.2f}" for m in methods), file=sys.stderr)

    def mean(method, key):
        return statistics.fmean(r[method][key] for r in rows)

    summary = {}
    print(f"\nPalette fidelity, k={args.k}, {len(rows)} composites' subjects "
          f"(mean over subject pixels of the difference to the nearest palette colour; lower is better)")
    print(f"{'method':12} {'CIEDE2000':>10} {'Oklab ΔE':>9} {'colours':>8} {'ours better on':>15} {'ms/image (median)':>18}")
    for method in methods:
        wins = sum(r["ours"]["de2000"] < r[method]["de2000"] for r in rows)
        summary[method] = {
            "de2000": mean(method, "de2000"), "deok": mean(method, "deok"),
            "colors": mean(method, "colors"), "ms_median": statistics.median(r[method]["ms"] for r in rows),
            "ours_better_de2000": wins,
        }
        s = summary[method]
        better = "-" if method == "ours" else f"{wins}/{len(rows)}"
        print(f"{method:12} {s['de2000']:10.2f} {s['deok']:9.2f} {s['colors']:8.1f} {better:>15} {s['ms_median']:18.1f}")
    print("(ms: CPU time of the palette step only; ours is PaletteExtractor in Swift, best of 3; peers once, in Python)")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"k": args.k, "summary": summary, "composites": rows}, indent=1))


if __name__ == "__main__":
    main()
