#!/usr/bin/env python3
"""Builds the cut-out benchmark's composites: photos whose true subject mask is known.

Each composite pastes ONE soft-alpha object from the corpus' stamps/ (Tux Paint stamps, GPL-2)
over a background, alpha-composited with straight alpha, and is saved as a JPEG (quality 92)
next to the stamp's alpha as placed (the truth, an 8-bit grey PNG; the subject is truth > 127).

Three kinds of background:
  texture  plain backgrounds: linear/radial gradients, smooth multi-octave noise, and crops of
           the corpus photos blurred until only colour fields are left (sigma 25-60 px)
  blurred  a real photo, Gaussian-blurred (sigma 3-10 px at ~1024 px): shallow depth of field
  sharp    a real photo as is (resized to the frame)
Real photos: the colour and grey photographs in photos/ (scikit-image's samples; drawings,
charts and test patterns left out) and both frames of the camera MPO files in pillow/.

The stamp's longer side is 25-60% of the frame's short side; it is flipped at random and placed
fully inside the frame (80%) or up to 15% of its box outside an edge (20%). Frames are about
1024x768 (long side 960-1152; 4:3, 3:2 or 16:9; one in four portrait). A little sensor-like
noise (sigma 1.5) is added to the whole frame before JPEG encoding, so no kind is noise-free.

Everything is drawn from one seeded generator: the same corpus, count and seed give the same
files. Also writes manifest.json (parameters and one record per composite) and, unless
--no-12mp, big/12mp.jpg + big/12mp.truth.png: one 4000x3000 composite over the largest camera
photo, for the time per 12 MP photo.

usage: make_composites.py OUT [--corpus DIR] [--count N] [--seed S]
       corpus: --corpus, else $STICKER_CORPUS, else testdata-3p/ at the repo root
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

KINDS = ("texture", "blurred", "sharp")
VERSION = 1  # bump when the way composites are made changes (run.sh then rebuilds them)

# Real photographs among scikit-image's samples (left out: chessboards, logo, text, page,
# phantom, color wheel, the horse silhouette, microaneurysms (102 px)).
PHOTOS = [
    "astronaut.png", "chelsea.png", "coffee.png", "motorcycle_left.png", "motorcycle_right.png",
    "rocket.jpg", "hubble_deep_field.jpg", "retina.jpg", "ihc.png", "camera.png", "brick.png",
    "grass.png", "gravel.png", "moon.png", "coins.png", "cell.png", "clock_motion.png",
]
# Camera MPO files in Pillow's test images (left out: the tiny frame_size / ignore_frame_size
# files and the sugarshack variants that only differ in their headers).
MPOS = ["fujifilm.mpo", "frozenpond.mpo", "sugarshack.mpo"]


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def default_corpus() -> Path:
    env = os.environ.get("STICKER_CORPUS")
    return Path(env) if env else repo_root() / "testdata-3p"


# ---------------------------------------------------------------------------------------------
# Sources

def load_stamps(corpus: Path) -> list[Path]:
    """Stamps usable as subjects: big enough to scale up (longer side of the visible box >= 96
    px), mostly solid (the solid part fills >= 15% of the box) and not mostly translucent
    (pixels with 0 < alpha <= 127 at most half the solid ones: fire, smoke, lightning...)."""
    out = []
    for p in sorted((corpus / "stamps").glob("*.png")):
        a = np.asarray(Image.open(p).convert("RGBA"))[..., 3]
        solid = a > 127
        if not solid.any():
            continue
        ys, xs = np.nonzero(a)
        bh, bw = ys.max() - ys.min() + 1, xs.max() - xs.min() + 1
        fill = solid.sum() / (bh * bw)
        translucent = ((a > 0) & (a <= 127)).sum() / solid.sum()
        if max(bw, bh) >= 96 and fill >= 0.15 and translucent <= 0.5:
            out.append(p)
    return out


def load_photos(corpus: Path) -> list[tuple[str, Image.Image]]:
    out = []
    for n in PHOTOS:
        p = corpus / "photos" / n
        if p.is_file():
            out.append((f"photos/{n}", Image.open(p).convert("RGB")))
    for n in MPOS:
        p = corpus / "pillow" / n
        if not p.is_file():
            continue
        im = Image.open(p)
        for f in range(getattr(im, "n_frames", 1)):
            im.seek(f)
            out.append((f"pillow/{n}#{f}", im.convert("RGB")))
    if not out:
        sys.exit(f"no photos found under {corpus}/photos or {corpus}/pillow")
    return out


# ---------------------------------------------------------------------------------------------
# Backgrounds

def frame_size(rng: np.random.Generator) -> tuple[int, int]:
    long = int(rng.integers(960, 1153)) // 8 * 8
    aspect = [4 / 3, 3 / 2, 16 / 9][int(rng.choice(3, p=[0.6, 0.25, 0.15]))]
    short = int(round(long / aspect / 8)) * 8
    return (short, long) if rng.random() < 0.25 else (long, short)  # (w, h)


def photo_crop(rng, photo: Image.Image, w: int, h: int) -> tuple[Image.Image, dict]:
    """A random crop of the photo with the frame's aspect, covering 60-100% of the photo's
    limiting side, resized to w x h (upscaled when the photo is small: most samples are
    ~512 px), randomly mirrored."""
    pw, ph = photo.size
    frac = rng.uniform(0.6, 1.0)
    cw = min(pw, ph * w / h) * frac
    ch = cw * h / w
    x0 = rng.uniform(0, pw - cw)
    y0 = rng.uniform(0, ph - ch)
    box = (x0, y0, x0 + cw, y0 + ch)
    im = photo.resize((w, h), Image.BICUBIC, box=box, reducing_gap=3.0)
    mirror = bool(rng.random() < 0.5)
    if mirror:
        im = im.transpose(Image.FLIP_LEFT_RIGHT)
    return im, {"crop": [round(v, 1) for v in box], "upscale": round(w / cw, 3), "mirror": mirror}


def smooth_noise(rng, w: int, h: int, octaves: int) -> np.ndarray:
    """Multi-octave value noise in [0, 1], shape (h, w)."""
    acc = np.zeros((h, w), np.float32)
    amp, tot = 1.0, 0.0
    cells = int(rng.integers(2, 5))
    for _ in range(octaves):
        g = rng.random((cells + 1, cells + 1)).astype(np.float32)
        layer = np.asarray(Image.fromarray(g, mode="F").resize((w, h), Image.BICUBIC))
        acc += amp * layer
        tot += amp
        amp *= 0.5
        cells *= 2
    acc /= tot
    return (acc - acc.min()) / max(acc.max() - acc.min(), 1e-6)


def random_colour(rng) -> np.ndarray:
    return rng.uniform(0, 255, 3).astype(np.float32)


def texture_background(rng, photos, w: int, h: int) -> tuple[Image.Image, dict]:
    style = ["gradient", "radial", "noise", "blurred-photo"][int(rng.integers(4))]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if style == "gradient":
        ang = rng.uniform(0, 2 * np.pi)
        t = (xx * np.cos(ang) + yy * np.sin(ang))
        t = (t - t.min()) / (t.max() - t.min())
        c0, c1 = random_colour(rng), random_colour(rng)
        arr = c0 + (c1 - c0) * t[..., None]
        info = {"style": style, "angle": round(float(ang), 3)}
    elif style == "radial":
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        t = np.hypot(xx - cx, yy - cy)
        t = t / t.max()
        c0, c1 = random_colour(rng), random_colour(rng)
        arr = c0 + (c1 - c0) * t[..., None]
        info = {"style": style}
    elif style == "noise":
        octaves = int(rng.integers(1, 5))
        t = smooth_noise(rng, w, h, octaves)
        c0, c1 = random_colour(rng), random_colour(rng)
        arr = c0 + (c1 - c0) * t[..., None]
        info = {"style": style, "octaves": octaves}
    else:
        src, photo = photos[int(rng.integers(len(photos)))]
        im, crop = photo_crop(rng, photo, w, h)
        sigma = float(rng.uniform(25, 60))
        im = im.filter(ImageFilter.GaussianBlur(sigma))
        arr = np.asarray(im, np.float32)
        info = {"style": style, "source": src, "sigma": round(sigma, 1), **crop}
    return Image.fromarray(np.clip(arr + 0.5, 0, 255).astype(np.uint8)), info


def photo_background(rng, photos, w: int, h: int, blur: bool) -> tuple[Image.Image, dict]:
    src, photo = photos[int(rng.integers(len(photos)))]
    im, crop = photo_crop(rng, photo, w, h)
    info = {"source": src, **crop}
    if blur:
        sigma = float(rng.uniform(3, 10))
        im = im.filter(ImageFilter.GaussianBlur(sigma))
        info["sigma"] = round(sigma, 1)
    return im, info


# ---------------------------------------------------------------------------------------------
# Pasting

def place_stamp(rng, stamp: Image.Image, w: int, h: int, size_frac: float | None = None):
    """Scales, flips and positions the stamp; returns (premultiplied float RGB, alpha float in
    [0,1]) covering the whole frame, and the placement record."""
    a = np.asarray(stamp)[..., 3]
    ys, xs = np.nonzero(a)
    stamp = stamp.crop((int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1))
    frac = float(rng.uniform(0.25, 0.60)) if size_frac is None else size_frac
    sw, sh = stamp.size
    k = frac * min(w, h) / max(sw, sh)
    nw, nh = max(1, round(sw * k)), max(1, round(sh * k))
    # Resample premultiplied, so colour from fully transparent pixels never bleeds in.
    st = stamp.convert("RGBa").resize((nw, nh), Image.LANCZOS)
    flip_h, flip_v = bool(rng.random() < 0.5), bool(rng.random() < 0.15)
    if flip_h:
        st = st.transpose(Image.FLIP_LEFT_RIGHT)
    if flip_v:
        st = st.transpose(Image.FLIP_TOP_BOTTOM)
    arr = np.asarray(st, np.float32)
    inside = bool(rng.random() < 0.8)
    out_x = 0.0 if inside else 0.15 * nw
    out_y = 0.0 if inside else 0.15 * nh
    x = int(round(rng.uniform(-out_x, w - nw + out_x)))
    y = int(round(rng.uniform(-out_y, h - nh + out_y)))
    prem = np.zeros((h, w, 3), np.float32)
    alpha = np.zeros((h, w), np.float32)
    # Intersection of the stamp's box with the frame.
    fx0, fy0, fx1, fy1 = max(x, 0), max(y, 0), min(x + nw, w), min(y + nh, h)
    sx0, sy0 = fx0 - x, fy0 - y
    prem[fy0:fy1, fx0:fx1] = arr[sy0:sy0 + fy1 - fy0, sx0:sx0 + fx1 - fx0, :3]
    alpha[fy0:fy1, fx0:fx1] = arr[sy0:sy0 + fy1 - fy0, sx0:sx0 + fx1 - fx0, 3] / 255.0
    rec = {"size_frac": round(frac, 3), "stamp_size": [nw, nh], "pos": [x, y],
           "flip_h": flip_h, "flip_v": flip_v, "fully_inside": inside}
    return prem, alpha, rec


def composite(bg: Image.Image, prem: np.ndarray, alpha: np.ndarray, rng) -> tuple[Image.Image, Image.Image]:
    b = np.asarray(bg, np.float32)
    out = prem + b * (1.0 - alpha[..., None])
    out += rng.normal(0.0, 1.5, out.shape).astype(np.float32)
    img = Image.fromarray(np.clip(out + 0.5, 0, 255).astype(np.uint8), "RGB")
    truth = Image.fromarray(np.clip(alpha * 255.0 + 0.5, 0, 255).astype(np.uint8), "L")
    return img, truth


# ---------------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path, help="output folder (e.g. bench-data/cutout)")
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--count", type=int, default=40, help="composites per kind (default 40)")
    ap.add_argument("--seed", type=int, default=20240503)
    ap.add_argument("--no-12mp", action="store_true", help="skip big/12mp.jpg")
    args = ap.parse_args()
    corpus = args.corpus or default_corpus()
    if not (corpus / "stamps").is_dir():
        sys.exit(f"no stamps/ in {corpus}: run ../shared/corpus/fetch.sh DIR and set STICKER_CORPUS=DIR")

    stamps = load_stamps(corpus)
    photos = load_photos(corpus)
    rng = np.random.default_rng(args.seed)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    items = []
    for kind in KINDS:
        for i in range(args.count):
            w, h = frame_size(rng)
            if kind == "texture":
                bg, binfo = texture_background(rng, photos, w, h)
            else:
                bg, binfo = photo_background(rng, photos, w, h, blur=(kind == "blurred"))
            sp = stamps[int(rng.integers(len(stamps)))]
            prem, alpha, place = place_stamp(rng, Image.open(sp).convert("RGBA"), w, h)
            img, truth = composite(bg, prem, alpha, rng)
            name = f"{kind}-{i:03d}"
            img.save(out / f"{name}.jpg", quality=92)
            truth.save(out / f"{name}.truth.png", compress_level=1)
            items.append({
                "name": name, "kind": kind, "image": f"{name}.jpg", "truth": f"{name}.truth.png",
                "size": [w, h], "stamp": sp.name, "background": binfo, **place,
                "truth_fraction": round(float((alpha > 0.5).mean()), 4),
            })
        print(f"{kind}: {args.count} composites", file=sys.stderr)

    big = None
    if not args.no_12mp:
        # The largest camera photo, upscaled to 4000x3000, with one stamp at 45% of the short side.
        cands = [(src, p) for src, p in photos if src.startswith("pillow/")] or photos
        src, photo = max(cands, key=lambda sp: sp[1].size[0] * sp[1].size[1])
        w, h = 4000, 3000
        bg = photo.resize((w, h), Image.BICUBIC)
        sp = stamps[int(rng.integers(len(stamps)))]
        prem, alpha, place = place_stamp(rng, Image.open(sp).convert("RGBA"), w, h, size_frac=0.45)
        img, truth = composite(bg, prem, alpha, rng)
        (out / "big").mkdir(exist_ok=True)
        img.save(out / "big" / "12mp.jpg", quality=92)
        truth.save(out / "big" / "12mp.truth.png", compress_level=1)
        big = {"name": "12mp", "image": "big/12mp.jpg", "truth": "big/12mp.truth.png",
               "size": [w, h], "stamp": sp.name, "background": {"source": src}, **place}

    manifest = {
        "version": VERSION, "seed": args.seed, "count": args.count, "kinds": list(KINDS),
        "corpus_stamps": len(stamps), "corpus_photos": [s for s, _ in photos],
        "truth_threshold": 127, "jpeg_quality": 92, "items": items, "big": big,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"wrote {len(items)} composites{' + 12 MP' if big else ''} to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
