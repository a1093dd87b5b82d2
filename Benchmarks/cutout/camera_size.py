"""The cut-out at a camera's size: each composite of bench-data/cutout enlarged to a 12 MP
camera's long side, 4032 pixels (Lanczos, aspect kept, JPEG quality 92, 4:2:0), its truth enlarged
to the same size (bilinear, PNG), cut out by one or more `catalog` binaries (`cutout --mask-only
--no-crop`, run by score.py's Command) and scored by IoU per kind, as score.py scores the composites. It also counts,
against the first binary, the masks that differ in more than 0.1 % of their pixels and those whose
IoU moved by more than 0.05 either way (each of those is printed).
The composites themselves are ~600-1150 pixels, where a JPEG is decoded at scale 1/1 or 7/8: this
is the check for a change that touches the scaled decode of large JPEGs or the network's input
from it. The enlarged photos are cached in DATA/camera-size and made again when their composite
is newer.

    python camera_size.py DATA NAME=CATALOG_BIN [NAME=CATALOG_BIN ...]
"""
import json
import shlex
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

from score import KINDS, Command, fit, iou

LONG_SIDE = 4032


def enlarged(data: Path, item: dict) -> tuple[Path, np.ndarray]:
    out = data / "camera-size"
    out.mkdir(exist_ok=True)
    source = data / item["image"]
    photo = out / (Path(item["image"]).stem + ".jpg")
    truth_path = out / (Path(item["image"]).stem + ".truth.png")
    stale = not photo.exists() or not truth_path.exists() or photo.stat().st_mtime < source.stat().st_mtime
    if stale:
        image = Image.open(source).convert("RGB")
        scale = LONG_SIDE / max(image.size)
        size = (round(image.width * scale), round(image.height * scale))
        image.resize(size, Image.LANCZOS).save(photo, quality=92, subsampling=2)
        Image.open(data / item["truth"]).convert("L").resize(size, Image.BILINEAR).save(truth_path)
    return photo, np.asarray(Image.open(truth_path))


def main() -> None:
    data = Path(sys.argv[1])
    binaries = dict(arg.split("=", 1) for arg in sys.argv[2:])
    items = json.load(open(data / "manifest.json"))["items"]
    scores = {name: {k: [] for k in KINDS} for name in binaries}
    changed = {name: 0 for name in binaries}
    # Masks whose IoU moved by more than 0.05 from the first binary's: better, worse.
    moved = {name: [0, 0] for name in binaries}
    first = next(iter(binaries))
    with tempfile.TemporaryDirectory() as tmp:
        methods = {name: Command(name, f"{shlex.quote(binary)} cutout {{in}} -o {{out}} --mask-only --no-crop", Path(tmp))
                   for name, binary in binaries.items()}
        for item in items:
            photo, truth = enlarged(data, item)
            masks = {name: fit(method.run(photo), truth.shape)[0] for name, method in methods.items()}
            ious = {name: iou(mask, truth) for name, mask in masks.items()}
            for name in binaries:
                scores[name][item["kind"]].append(ious[name])
                if name == first:
                    continue
                if ((masks[name] > 127) != (masks[first] > 127)).mean() > 0.001:
                    changed[name] += 1
                delta = ious[name] - ious[first]
                if abs(delta) > 0.05:
                    moved[name][0 if delta > 0 else 1] += 1
                    print(f"{item['image']}: {name} {ious[name]:.3f}, {first} {ious[first]:.3f}")
    print(f"{len(items)} composites at {LONG_SIDE} pixels on the long side: mean IoU per kind")
    print("binary".ljust(12) + "".join(k.rjust(10) for k in KINDS) + "all".rjust(10)
          + f"   masks differing from {first}'s in > 0.1 % of pixels; IoU > 0.05 better / worse")
    for name in binaries:
        per = [np.mean(scores[name][k]) for k in KINDS]
        every = np.mean([v for k in KINDS for v in scores[name][k]])
        print(name.ljust(12) + "".join(f"{v:10.4f}" for v in per) + f"{every:10.4f}"
              + f"   {changed[name]}; {moved[name][0]} / {moved[name][1]}")


if __name__ == "__main__":
    main()
