#!/usr/bin/env python3
"""The u2netp peer as one process a photo, like `catalog cutout`: u2netp_once.py IN OUT.

Imports rembg and onnxruntime, loads the model (one thread), cuts the photo out exactly as
score.py's in-process U2netp does and writes the grey mask to OUT. score.py times it with
--command like our CLI, so the whole-process figures compare start-up and model loading too."""
import os
import sys

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_v] = "1"

from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from score import U2netp  # noqa: E402
from PIL import Image  # noqa: E402

if len(sys.argv) != 3:
    raise SystemExit("usage: u2netp_once.py IN OUT")
Image.fromarray(U2netp().run(Path(sys.argv[1]))).save(sys.argv[2], compress_level=1)
