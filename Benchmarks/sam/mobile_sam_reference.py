#!/usr/bin/env python3
"""NumPy reference of MobileSAM, reading only the converted files (mobile_sam.json + .bin written by
convert_mobile_sam.py): a specification, op by op, for the Swift port, and the source of the
reference fixtures scripts/install-model.sh writes beside the model.

Everything runs in float32 (as PyTorch does on a CPU) unless said otherwise. Shapes are written
[C, H, W] for feature maps and [N, C] for token rows (N tokens, C channels); there is no batch axis.

The constants and conventions a port must reproduce
  GELU        exact: gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2))) (torch.nn.GELU(), not the tanh form).
              Used in TinyViT (convs and MLPs), the prompt encoder's mask path and the decoder's
              output upscaling. The two-way transformer's MLP uses ReLU, and so do the hidden
              layers of the hypernetwork and IoU MLPs (their last layer has no activation).
              (Here erf is evaluated in double and GELU rounded to float32; a port's erff in
              float32 differs from it by an ulp or so, far inside the tolerances.)
  LayerNorm   over the channel axis of each token, biased variance:
              y = (x - mean) / sqrt(var + eps) * weight + bias, eps = 1e-5 (every nn.LayerNorm:
              TinyViT's attention and MLP norms, the decoder's norm1..4 and norm_final_attn).
  LayerNorm2d the same over the channels of each pixel of a [C, H, W] map, eps = 1e-6 (the neck,
              the prompt encoder's mask path, the decoder's output upscaling).
  Batch norm  none at run time: folded into the preceding convolution by the converter.
  Softmax     over the last axis (keys), max subtracted first.
  Attention   TinyViT: scores = (q @ k^T) * key_dim^-0.5 + bias; decoder: (q @ k^T) / sqrt(c_per_head).

Run it:  mobile_sam_reference.py --model PREFIX --image PHOTO --point X,Y [--point X,Y] [--exclude X,Y]
         [--box X0,Y0,X1,Y1] [--png OUT.png]       (needs Pillow to read PHOTO and write OUT.png)
         mobile_sam_reference.py --model PREFIX --fixtures OUTPREFIX   (what install-model.sh runs)
needs: numpy (and Pillow only to read or write image files)
"""
from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")  # one thread: the machine is shared

import argparse
import hashlib
import json
import math
import time
from pathlib import Path

import numpy as np

F32 = np.float32


def with_ext(prefix: Path, ext: str) -> Path:
    """PREFIX + ext, keeping any dot already in the name (mobile_sam.reference -> .reference.bin)."""
    return prefix.with_name(prefix.name + ext)

FORMAT = "sticker-nn-params"
FIXTURE_FORMAT = "sticker-nn-reference"
ALIGN = 64


# =============================================================================================
# Loading the converted model

class Model:
    """The manifest and the parameters (read-only float32 views of the .bin), by name."""

    def __init__(self, prefix: Path, verify: bool = True):
        self.manifest = json.loads(with_ext(prefix, ".json").read_text())
        m = self.manifest
        if m.get("format") != FORMAT or m.get("version") != 1:
            raise SystemExit(f"{prefix}.json: not a {FORMAT} version 1 manifest")
        raw = (prefix.parent / m["weights"]["file"]).read_bytes()
        if len(raw) != m["weights"]["bytes"]:
            raise SystemExit(f"{m['weights']['file']}: {len(raw)} bytes, the manifest says {m['weights']['bytes']}")
        if verify and hashlib.sha256(raw).hexdigest() != m["weights"]["sha256"]:
            raise SystemExit(f"{m['weights']['file']}: SHA-256 differs from the manifest's")
        self.sha256 = m["weights"]["sha256"]
        self.p = {k: np.frombuffer(raw, "<f4", v["count"], v["offset"]).reshape(v["shape"])
                  for k, v in m["params"].items()}
        self.arch = m["architecture"]

    def __getitem__(self, name: str) -> np.ndarray:
        return self.p[name]


# =============================================================================================
# Primitive ops

def _erf_table():
    """erf on [0, 6] as Chebyshev interpolants of degree 14 on 24 intervals of width 1/4, fitted
    to math.erf (double precision) at import; beyond 6, erf = 1 to double precision. The port
    uses its libm's erff; this only gives NumPy a vectorised exact-enough erf (checked below)."""
    width, deg, n = 0.25, 14, 24
    coefs = np.empty((n, deg + 1))
    for i in range(n):
        t = np.cos(np.pi * (np.arange(deg + 1) + 0.5) / (deg + 1))  # Chebyshev nodes on [-1, 1]
        x = (i + 0.5) * width + t * width / 2
        c = np.polynomial.chebyshev.chebfit(t, [math.erf(v) for v in x], deg)
        poly = np.polynomial.chebyshev.cheb2poly(c)  # may come back shorter (trailing zeros)
        coefs[i] = np.pad(poly, (0, deg + 1 - len(poly)))
    return width, coefs


_ERF_WIDTH, _ERF_COEFS = _erf_table()


def erf(x: np.ndarray) -> np.ndarray:
    """erf(x) in float64 for a float array; |error| < 1e-14 (asserted in selfcheck())."""
    a = np.abs(x.astype(np.float64))
    idx = np.minimum((a / _ERF_WIDTH).astype(np.int64), len(_ERF_COEFS) - 1)
    t = (a - (idx + 0.5) * _ERF_WIDTH) / (_ERF_WIDTH / 2)
    acc = np.take(_ERF_COEFS[:, -1], idx)
    for k in range(_ERF_COEFS.shape[1] - 2, -1, -1):
        acc = acc * t + np.take(_ERF_COEFS[:, k], idx)
    acc = np.where(a >= _ERF_WIDTH * len(_ERF_COEFS), 1.0, acc)
    return np.copysign(acc, x)


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU, 0.5 * x * (1 + erf(x / sqrt(2))), computed in chunks (the maps are large)."""
    out = np.empty_like(x, F32)
    flat, res = x.reshape(-1), out.reshape(-1)
    step = 1 << 20
    for s in range(0, flat.size, step):
        v = flat[s:s + step].astype(np.float64)
        res[s:s + step] = 0.5 * v * (1.0 + erf(v * (1.0 / math.sqrt(2.0))))
    return out


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, F32(0))


def layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    """Over the last axis, biased variance."""
    mu = x.mean(-1, keepdims=True, dtype=F32)
    d = x - mu
    var = (d * d).mean(-1, keepdims=True, dtype=F32)
    return d / np.sqrt(var + F32(eps)) * w + b


def layer_norm2d(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """SAM's LayerNorm2d: over the channels (axis 0) of each pixel of [C, H, W], biased variance."""
    mu = x.mean(0, keepdims=True, dtype=F32)
    d = x - mu
    var = (d * d).mean(0, keepdims=True, dtype=F32)
    return w[:, None, None] * (d / np.sqrt(var + F32(eps))) + b[:, None, None]


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def linear(x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    """nn.Linear: weight [out, in]; y = x @ w^T + b over the last axis."""
    y = x @ w.T
    return y + b if b is not None else y


def conv2d(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, stride: int = 1, pad: int = 0,
           groups: int = 1) -> np.ndarray:
    """[C, H, W] -> [O, Ho, Wo]; weight [O, C / groups, k, k]; zero padding `pad` on every side;
    Ho = (H + 2 pad - k) // stride + 1. groups is 1 (a matrix product over im2col columns) or C
    (depthwise: each channel with its own k x k kernel)."""
    C, H, W = x.shape
    O, cg, kh, kw = w.shape
    Ho = (H + 2 * pad - kh) // stride + 1
    Wo = (W + 2 * pad - kw) // stride + 1
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad))) if pad else x

    def tap(i, j):
        return xp[:, i:i + stride * (Ho - 1) + 1:stride, j:j + stride * (Wo - 1) + 1:stride]

    if groups == 1:
        if kh == kw == 1 and stride == 1:
            y = w.reshape(O, C) @ x.reshape(C, H * W)
        else:
            cols = np.empty((C, kh, kw, Ho, Wo), F32)
            for i in range(kh):
                for j in range(kw):
                    cols[:, i, j] = tap(i, j)
            y = w.reshape(O, C * kh * kw) @ cols.reshape(C * kh * kw, Ho * Wo)
        y = y.reshape(O, Ho, Wo)
    elif groups == C == O and cg == 1:
        y = np.zeros((O, Ho, Wo), F32)
        for i in range(kh):
            for j in range(kw):
                y += w[:, 0, i, j][:, None, None] * tap(i, j)
    else:
        raise NotImplementedError(f"conv2d with {groups} groups of {C} channels")
    return y + b[:, None, None] if b is not None else y


def conv_transpose2x2(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """nn.ConvTranspose2d(kernel 2, stride 2), weight [C, O, 2, 2]: every input pixel writes its
    own 2 x 2 block, y[o, 2i + a, 2j + c] = b[o] + sum_ch x[ch, i, j] * w[ch, o, a, c]."""
    C, H, W = x.shape
    O = w.shape[1]
    y = w.reshape(C, O * 4).T @ x.reshape(C, H * W)               # [O*2*2, H*W]
    y = y.reshape(O, 2, 2, H, W).transpose(0, 3, 1, 4, 2).reshape(O, 2 * H, 2 * W)
    return y + b[:, None, None]


def resize_bilinear(x: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """F.interpolate(mode="bilinear", align_corners=False), no antialiasing, on [C, H, W]:
    src = (dst + 0.5) * in / out - 0.5, clamped below at 0; linear between floor(src) and the
    next (clamped to in - 1)."""
    C, H, W = x.shape
    Ho, Wo = size

    def axis(n_in, n_out):
        src = (np.arange(n_out, dtype=np.float64) + 0.5) * (n_in / n_out) - 0.5
        src = np.maximum(src, 0.0)
        i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
        i1 = np.minimum(i0 + 1, n_in - 1)
        return i0, i1, (src - i0).astype(F32)

    y0, y1, fy = axis(H, Ho)
    x0, x1, fx = axis(W, Wo)
    rows0, rows1 = x[:, y0], x[:, y1]
    top = rows0[:, :, x0] * (1 - fx) + rows0[:, :, x1] * fx
    bot = rows1[:, :, x0] * (1 - fx) + rows1[:, :, x1] * fx
    return top * (1 - fy)[None, :, None] + bot * fy[None, :, None]


def resize_pil_bilinear(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """What SAM's ResizeLongestSide.apply_image does (torchvision's resize of a PIL image, i.e.
    Pillow's Image.resize(..., BILINEAR)), on an [H, W, 3] uint8 image, to (new_h, new_w):

    for each axis, scale = in / out and fs = max(scale, 1) (the filter widens when shrinking:
    antialiasing); output index i has centre c = (i + 0.5) * scale and takes the inputs j in
    [max(int(c - fs + 0.5), 0), min(int(c + fs + 0.5), in)) with weight tri((j + 0.5 - c) / fs),
    tri(t) = max(0, 1 - |t|), normalised to sum 1 (float64). The weights become integers,
    int(0.5 + w * 2^22); a pass sums pixel * weight over the window plus 2^21, shifts right by 22
    and clamps to 0...255. The horizontal pass runs first (when the width changes), writing 8-bit
    values, then the vertical pass on them (when the height changes)."""
    H, W, _ = img.shape
    Ho, Wo = size

    def weights(n_in, n_out):
        scale = n_in / n_out
        fs = max(scale, 1.0)
        rows = []
        for i in range(n_out):
            c = (i + 0.5) * scale
            j0 = max(int(c - fs + 0.5), 0)
            j1 = min(int(c + fs + 0.5), n_in)
            j = np.arange(j0, j1)
            k = np.maximum(0.0, 1.0 - np.abs((j + 0.5 - c) / fs))
            s = k.sum()
            if s != 0:
                k = k / s
            rows.append((j, np.floor(0.5 + k * (1 << 22)).astype(np.int64)))
        return rows

    def apply(a, rows, axis):  # a: int64 array, resampled along axis
        a = np.moveaxis(a, axis, 0)
        out = np.empty((len(rows),) + a.shape[1:], np.int64)
        for i, (j, k) in enumerate(rows):
            acc = np.tensordot(k, a[j], axes=(0, 0)) + (1 << 21)
            out[i] = np.clip(acc >> 22, 0, 255)
        return np.moveaxis(out, 0, axis)

    a = img.astype(np.int64)
    if Wo != W:
        a = apply(a, weights(W, Wo), 1)
    if Ho != H:
        a = apply(a, weights(H, Ho), 0)
    return a.astype(np.uint8)


# =============================================================================================
# Image preprocessing (SamPredictor.set_image, Sam.preprocess)

def preprocess_shape(h: int, w: int, long_side: int = 1024) -> tuple[int, int]:
    """ResizeLongestSide.get_preprocess_shape: scale = long_side / max(h, w), each side
    int(side * scale + 0.5)."""
    scale = long_side * 1.0 / max(h, w)
    return int(h * scale + 0.5), int(w * scale + 0.5)


def preprocess(model: Model, img: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """[H, W, 3] uint8 RGB -> (the resized uint8 image, the [3, 1024, 1024] input, (new_h, new_w)):
    resized (resize_pil_bilinear), (x - mean) / std per channel, zero-padded right and bottom."""
    pre = model.manifest["preprocess"]
    size = model.arch["image_encoder"]["img_size"]
    nh, nw = preprocess_shape(img.shape[0], img.shape[1], size)
    resized = resize_pil_bilinear(img, (nh, nw))
    mean = np.array(pre["pixel_mean"], F32)
    std = np.array(pre["pixel_std"], F32)
    x = np.zeros((3, size, size), F32)
    x[:, :nh, :nw] = (resized.astype(F32).transpose(2, 0, 1) - mean[:, None, None]) / std[:, None, None]
    return resized, x, (nh, nw)


# =============================================================================================
# Image encoder: TinyViT-5M + SAM neck. [3, 1024, 1024] -> [256, 64, 64]

def conv_bn(m: Model, p: str, x, stride=1, pad=0, groups=1):
    """A TinyViT Conv2d_BN, its batch norm folded in: a convolution with a bias."""
    return conv2d(x, m[f"{p}.weight"], m[f"{p}.bias"], stride, pad, groups)


def mbconv(m: Model, p: str, x):
    """Stage 0 block: 1x1 expand (x4) + GELU, 3x3 depthwise + GELU, 1x1 project, + input, GELU."""
    y = gelu(conv_bn(m, f"{p}.conv1", x))
    y = gelu(conv_bn(m, f"{p}.conv2", y, pad=1, groups=y.shape[0]))
    y = conv_bn(m, f"{p}.conv3", y)
    return gelu(y + x)


def patch_merging(m: Model, p: str, x, stride: int):
    """[C, H, W] -> [C', H / stride, W / stride]: 1x1 conv + GELU, 3x3 depthwise (stride 2, or 1
    into the last stage) + GELU, 1x1 conv (no activation after it)."""
    y = gelu(conv_bn(m, f"{p}.conv1", x))
    y = gelu(conv_bn(m, f"{p}.conv2", y, stride=stride, pad=1, groups=y.shape[0]))
    return conv_bn(m, f"{p}.conv3", y)


def bias_matrix(biases: np.ndarray, window: int) -> np.ndarray:
    """TinyViT's attention bias for a window of window x window tokens (row-major positions):
    [heads, N, N] with entry [h, a, b] = biases[h, |ya - yb| * window + |xa - xb|]."""
    ys, xs = np.divmod(np.arange(window * window), window)
    idx = np.abs(ys[:, None] - ys[None, :]) * window + np.abs(xs[:, None] - xs[None, :])
    return biases[:, idx]


def tinyvit_attention(m: Model, p: str, x, heads: int, window: int):
    """[nW, N, C] windows -> [nW, N, C]. LayerNorm (1e-5), qkv = Linear(C, 3C) whose output is
    split per head as [q (kd), k (kd), v (kd)] with kd = C / heads, scores = q k^T * kd^-0.5 +
    bias, softmax over keys, heads concatenated head-major, proj = Linear(C, C)."""
    nW, N, C = x.shape
    kd = C // heads
    x = layer_norm(x, m[f"{p}.norm.weight"], m[f"{p}.norm.bias"], 1e-5)
    qkv = linear(x, m[f"{p}.qkv.weight"], m[f"{p}.qkv.bias"]).reshape(nW, N, heads, 3 * kd)
    q = qkv[..., :kd].transpose(0, 2, 1, 3)
    k = qkv[..., kd:2 * kd].transpose(0, 2, 1, 3)
    v = qkv[..., 2 * kd:].transpose(0, 2, 1, 3)
    attn = (q @ k.transpose(0, 1, 3, 2)) * F32(kd ** -0.5) + bias_matrix(m[f"{p}.attention_biases"], window)
    out = softmax(attn) @ v                                        # [nW, heads, N, kd]
    return linear(out.transpose(0, 2, 1, 3).reshape(nW, N, C), m[f"{p}.proj.weight"], m[f"{p}.proj.bias"])


def tinyvit_block(m: Model, p: str, x, heads: int, window: int):
    """[H, W, C] -> [H, W, C].
    1. Windowed attention with a residual: the map is zero-padded at the bottom and right to a
       multiple of the window (pad = (window - H % window) % window), cut into windows in
       row-major order (each window's tokens row-major), attended, put back, cropped. The padded
       tokens are zeros *before* the attention's LayerNorm (so they become its bias) and are
       attended to like any token: there is no mask. (A map exactly one window in size is one
       window, the same thing.)
    2. local_conv: 3x3 depthwise conv (pad 1, batch norm folded) over [C, H, W], no residual,
       no activation.
    3. MLP with a residual: LayerNorm (1e-5), fc1 (C -> 4C), GELU, fc2 (4C -> C)."""
    H, W, C = x.shape
    ph, pw = (window - H % window) % window, (window - W % window) % window
    xp = np.pad(x, ((0, ph), (0, pw), (0, 0)))
    nh, nw = (H + ph) // window, (W + pw) // window
    win = xp.reshape(nh, window, nw, window, C).transpose(0, 2, 1, 3, 4).reshape(nh * nw, window * window, C)
    att = tinyvit_attention(m, f"{p}.attn", win, heads, window)
    att = att.reshape(nh, nw, window, window, C).transpose(0, 2, 1, 3, 4).reshape(H + ph, W + pw, C)[:H, :W]
    x = x + att
    x = conv_bn(m, f"{p}.local_conv", x.transpose(2, 0, 1), pad=1, groups=C).transpose(1, 2, 0)
    h = layer_norm(x, m[f"{p}.mlp.norm.weight"], m[f"{p}.mlp.norm.bias"], 1e-5)
    h = linear(gelu(linear(h, m[f"{p}.mlp.fc1.weight"], m[f"{p}.mlp.fc1.bias"])),
               m[f"{p}.mlp.fc2.weight"], m[f"{p}.mlp.fc2.bias"])
    return np.ascontiguousarray(x + h)


def image_encoder(m: Model, x: np.ndarray, stages: dict | None = None) -> np.ndarray:
    """[3, 1024, 1024] -> the image embedding [256, 64, 64].
    patch_embed: conv 3x3 s2 (3 -> 32) + GELU, conv 3x3 s2 (32 -> 64): [64, 256, 256].
    layers.0: 2 MBConv at 256x256, then patch merging (64 -> 128, stride 2): [128, 128, 128].
    layers.1: 2 TinyViT blocks (128, 4 heads, window 7), merging (128 -> 160, s2): [160, 64, 64].
    layers.2: 6 blocks (160, 5 heads, window 14), merging (160 -> 320, stride 1): [320, 64, 64].
    layers.3: 2 blocks (320, 10 heads, window 7): [320, 64, 64].
    neck: conv 1x1 (320 -> 256, no bias), LayerNorm2d, conv 3x3 pad 1 (no bias), LayerNorm2d.
    `stages`, when given, receives each layer's output as [C, H, W]."""
    enc = m.arch["image_encoder"]
    x = gelu(conv_bn(m, "image_encoder.patch_embed.seq.0", x, stride=2, pad=1))
    x = conv_bn(m, "image_encoder.patch_embed.seq.2", x, stride=2, pad=1)
    for b in range(enc["depths"][0]):
        x = mbconv(m, f"image_encoder.layers.0.blocks.{b}", x)
    x = patch_merging(m, "image_encoder.layers.0.downsample", x, enc["patch_merging_strides"][0])
    if stages is not None:
        stages["layers.0"] = x
    for i in (1, 2, 3):
        t = np.ascontiguousarray(x.transpose(1, 2, 0))            # [H, W, C] tokens
        for b in range(enc["depths"][i]):
            t = tinyvit_block(m, f"image_encoder.layers.{i}.blocks.{b}", t, enc["num_heads"][i], enc["window_sizes"][i])
        x = np.ascontiguousarray(t.transpose(2, 0, 1))
        if i < 3:
            x = patch_merging(m, f"image_encoder.layers.{i}.downsample", x, enc["patch_merging_strides"][i])
        if stages is not None:
            stages[f"layers.{i}"] = x
    x = conv2d(x, m["image_encoder.neck.0.weight"], None)
    x = layer_norm2d(x, m["image_encoder.neck.1.weight"], m["image_encoder.neck.1.bias"], 1e-6)
    x = conv2d(x, m["image_encoder.neck.2.weight"], None, pad=1)
    return layer_norm2d(x, m["image_encoder.neck.3.weight"], m["image_encoder.neck.3.bias"], 1e-6)


# =============================================================================================
# Prompt encoder

def pe_encoding(m: Model, coords01: np.ndarray) -> np.ndarray:
    """Random-Fourier positional encoding of [N, 2] points (x, y) normalised to [0, 1]:
    c = 2 * coords - 1; c = c @ G (G = positional_encoding_gaussian_matrix [2, 128]);
    c = 2 * pi * c; [sin(c), cos(c)] -> [N, 256]."""
    g = m["prompt_encoder.pe_layer.positional_encoding_gaussian_matrix"]
    c = (F32(2) * coords01.astype(F32) - F32(1)) @ g
    c = F32(2 * np.pi) * c
    return np.concatenate([np.sin(c), np.cos(c)], -1)


def dense_pe(m: Model) -> np.ndarray:
    """The image's positional encoding [256, 64, 64]: pixel (i, j) of the 64 x 64 grid is the point
    x = (j + 0.5) / 64, y = (i + 0.5) / 64."""
    h, w = m.arch["prompt_encoder"]["image_embedding_size"]
    ys = (np.arange(h, dtype=F32) + F32(0.5)) / F32(h)
    xs = (np.arange(w, dtype=F32) + F32(0.5)) / F32(w)
    grid = np.stack(np.broadcast_arrays(xs[None, :], ys[:, None]), -1).reshape(-1, 2)
    return pe_encoding(m, grid).reshape(h, w, -1).transpose(2, 0, 1)


def sparse_embeddings(m: Model, points: np.ndarray, labels: np.ndarray, box: np.ndarray | None) -> np.ndarray:
    """Point and box prompts, already in the resized image's pixel coordinates (x, y), -> [N, 256].
    The points come first, then the box as two corner points labelled 2 (x0, y0) and 3 (x1, y1);
    when there is no box a padding point (label -1) is appended. Each point: coords + 0.5 (the
    pixel's centre), divided by 1024 (x by the input width, y by its height), pe_encoding, then
    label -1: the encoding is replaced by not_a_point_embed;
    label 0, 1, 2, 3: point_embeddings.{label} is added to it."""
    pts = [np.asarray(points, F32).reshape(-1, 2)]
    labs = [np.asarray(labels, np.int64).reshape(-1)]
    if box is None:
        pts.append(np.zeros((1, 2), F32))
        labs.append(np.array([-1]))
    else:
        pts.append(np.asarray(box, F32).reshape(2, 2))
        labs.append(np.array([2, 3]))
    pts, labs = np.concatenate(pts), np.concatenate(labs)
    ih, iw = m.arch["prompt_encoder"]["input_image_size"]
    c = pts + F32(0.5)
    c = c / np.array([iw, ih], F32)
    emb = pe_encoding(m, c)
    for i, lab in enumerate(labs):
        if lab == -1:
            emb[i] = m["prompt_encoder.not_a_point_embed.weight"][0]
        elif lab in (0, 1, 2, 3):
            emb[i] += m[f"prompt_encoder.point_embeddings.{lab}.weight"][0]
        else:
            raise ValueError(f"point label {lab} (must be -1, 0, 1, 2 or 3)")
    return emb


def dense_embeddings(m: Model, mask_input: np.ndarray | None) -> np.ndarray:
    """[256, 64, 64]: without a mask, no_mask_embed at every pixel. With a low-res mask (logits
    [256, 256], e.g. a previous answer's): conv 2x2 s2 (1 -> 4) + LayerNorm2d + GELU, conv 2x2 s2
    (4 -> 16) + LayerNorm2d + GELU, conv 1x1 (16 -> 256), each conv with its bias."""
    h, w = m.arch["prompt_encoder"]["image_embedding_size"]
    if mask_input is None:
        return np.broadcast_to(m["prompt_encoder.no_mask_embed.weight"][0][:, None, None], (256, h, w)).astype(F32)
    p = "prompt_encoder.mask_downscaling"
    x = np.asarray(mask_input, F32).reshape(1, 4 * h, 4 * w)
    x = conv2d(x, m[f"{p}.0.weight"], m[f"{p}.0.bias"], stride=2)
    x = gelu(layer_norm2d(x, m[f"{p}.1.weight"], m[f"{p}.1.bias"], 1e-6))
    x = conv2d(x, m[f"{p}.3.weight"], m[f"{p}.3.bias"], stride=2)
    x = gelu(layer_norm2d(x, m[f"{p}.4.weight"], m[f"{p}.4.bias"], 1e-6))
    return conv2d(x, m[f"{p}.6.weight"], m[f"{p}.6.bias"])


# =============================================================================================
# Mask decoder: two-way transformer, output upscaling, hypernetworks, IoU head

def attention(m: Model, p: str, q, k, v, heads: int = 8):
    """SAM's Attention: q_proj, k_proj, v_proj (256 -> 256 for self-attention, 256 -> 128 for the
    cross attentions: downsample rate 2), split into 8 heads (channel c of head h is h * d + c,
    d = 32 or 16), scores = q k^T / sqrt(d), softmax over keys, heads concatenated, out_proj."""
    q = linear(q, m[f"{p}.q_proj.weight"], m[f"{p}.q_proj.bias"])
    k = linear(k, m[f"{p}.k_proj.weight"], m[f"{p}.k_proj.bias"])
    v = linear(v, m[f"{p}.v_proj.weight"], m[f"{p}.v_proj.bias"])
    d = q.shape[-1] // heads

    def split(t):
        return t.reshape(t.shape[0], heads, d).transpose(1, 0, 2)  # [heads, N, d]

    attn = (split(q) @ split(k).transpose(0, 2, 1)) / F32(math.sqrt(d))
    out = (softmax(attn) @ split(v)).transpose(1, 0, 2).reshape(q.shape[0], heads * d)
    return linear(out, m[f"{p}.out_proj.weight"], m[f"{p}.out_proj.bias"])


def norm(m: Model, p: str, x):
    return layer_norm(x, m[f"{p}.weight"], m[f"{p}.bias"], 1e-5)


def two_way_transformer(m: Model, src: np.ndarray, pos: np.ndarray, tokens: np.ndarray):
    """src, pos [256, 64, 64] -> keys [4096, 256] (pixel rows, row-major); tokens [T, 256] are the
    queries and also their positional encoding (query_pe). Each of the 2 layers:
      layer 0: queries = self_attn(queries, queries, queries)  (no PE, no residual)
      layer 1: queries = queries + self_attn(queries + qpe, queries + qpe, queries)
      queries = norm1(queries)
      queries = norm2(queries + cross_attn_token_to_image(queries + qpe, keys + kpe, keys))
      queries = norm3(queries + lin2(relu(lin1(queries))))                 (MLP 256 -> 2048 -> 256)
      keys    = norm4(keys + cross_attn_image_to_token(keys + kpe, queries + qpe, queries))
    then queries = norm_final_attn(queries + final_attn_token_to_image(queries + qpe, keys + kpe, keys))."""
    p = "mask_decoder.transformer"
    keys = src.reshape(src.shape[0], -1).T.copy()
    kpe = pos.reshape(pos.shape[0], -1).T.copy()
    qpe = tokens
    queries = tokens
    for i in range(m.arch["mask_decoder"]["transformer_depth"]):
        lp = f"{p}.layers.{i}"
        if i == 0:
            queries = attention(m, f"{lp}.self_attn", queries, queries, queries)
        else:
            q = queries + qpe
            queries = queries + attention(m, f"{lp}.self_attn", q, q, queries)
        queries = norm(m, f"{lp}.norm1", queries)
        queries = norm(m, f"{lp}.norm2", queries + attention(m, f"{lp}.cross_attn_token_to_image",
                                                             queries + qpe, keys + kpe, keys))
        h = linear(relu(linear(queries, m[f"{lp}.mlp.lin1.weight"], m[f"{lp}.mlp.lin1.bias"])),
                   m[f"{lp}.mlp.lin2.weight"], m[f"{lp}.mlp.lin2.bias"])
        queries = norm(m, f"{lp}.norm3", queries + h)
        keys = norm(m, f"{lp}.norm4", keys + attention(m, f"{lp}.cross_attn_image_to_token",
                                                       keys + kpe, queries + qpe, queries))
    queries = norm(m, f"{p}.norm_final_attn", queries + attention(m, f"{p}.final_attn_token_to_image",
                                                                  queries + qpe, keys + kpe, keys))
    return queries, keys


def mlp(m: Model, p: str, x, layers: int = 3):
    """SAM's MLP: Linear layers with ReLU between them, none after the last."""
    for i in range(layers):
        x = linear(x, m[f"{p}.layers.{i}.weight"], m[f"{p}.layers.{i}.bias"])
        if i < layers - 1:
            x = relu(x)
    return x


def mask_decoder(m: Model, embedding: np.ndarray, sparse: np.ndarray, dense: np.ndarray):
    """-> (masks [4, 256, 256] low-res logits, iou_predictions [4]); mask 0 is the single-mask
    answer, 1-3 the multimask ones.
    tokens = [iou_token (1), mask_tokens (4), sparse prompts (N)]; src = embedding + dense;
    the transformer gives hs (tokens) and keys; keys -> [256, 64, 64];
    upscaled = GELU(convT 2x2 s2 (64 -> 32) of GELU(LayerNorm2d(convT 2x2 s2 (256 -> 64) of keys)))
    [32, 256, 256]; mask i = MLP_i(hs[1 + i]) (256 -> 256 -> 256 -> 32) @ upscaled (32 x 65536);
    iou = iou_prediction_head(hs[0]) (256 -> 256 -> 256 -> 4)."""
    p = "mask_decoder"
    tokens = np.concatenate([m[f"{p}.iou_token.weight"], m[f"{p}.mask_tokens.weight"], sparse], 0).astype(F32)
    src = embedding + dense
    hs, keys = two_way_transformer(m, src, dense_pe(m), tokens)
    C, H, W = src.shape
    x = keys.T.reshape(C, H, W)
    x = conv_transpose2x2(x, m[f"{p}.output_upscaling.0.weight"], m[f"{p}.output_upscaling.0.bias"])
    x = gelu(layer_norm2d(x, m[f"{p}.output_upscaling.1.weight"], m[f"{p}.output_upscaling.1.bias"], 1e-6))
    x = gelu(conv_transpose2x2(x, m[f"{p}.output_upscaling.3.weight"], m[f"{p}.output_upscaling.3.bias"]))
    n = m.arch["mask_decoder"]["num_mask_tokens"]
    hyper = np.stack([mlp(m, f"{p}.output_hypernetworks_mlps.{i}", hs[1 + i]) for i in range(n)])
    c, h, w = x.shape
    masks = (hyper @ x.reshape(c, h * w)).reshape(n, h, w)
    iou = mlp(m, f"{p}.iou_prediction_head", hs[0])
    return masks, iou


# =============================================================================================
# The predictor: prompts in photo pixels -> a mask of the photo's size

def predict(m: Model, embedding: np.ndarray, photo_size: tuple[int, int], points=(), labels=(),
            box=None, mask_input=None) -> dict:
    """SamPredictor.predict, with the multimask rule: exactly one point and no box -> the three
    multimask outputs (1, 2, 3), the one with the highest predicted IoU (the first on a tie);
    otherwise the single-mask output 0. Points (x, y) and the box (x0, y0, x1, y1) are in photo
    pixels; they are scaled to the resized image first (x * new_w / w, y * new_h / h, in double,
    then float32). The chosen low-res logits [256, 256] are resized (resize_bilinear) to
    1024 x 1024, cropped to the resized image [new_h, new_w], resized to the photo [h, w]; the
    mask is logit > 0."""
    h, w = photo_size
    nh, nw = preprocess_shape(h, w, m.arch["image_encoder"]["img_size"])
    sx, sy = nw / w, nh / h
    pts = np.asarray(points, np.float64).reshape(-1, 2) * [sx, sy]
    labs = np.asarray(labels, np.int64).reshape(-1)
    if len(pts) != len(labs):
        raise ValueError("one label per point")
    bx = None if box is None else (np.asarray(box, np.float64).reshape(2, 2) * [sx, sy]).astype(F32)
    if len(pts) == 0 and bx is None:
        raise ValueError("a prompt needs a point or a box")
    sparse = sparse_embeddings(m, pts.astype(F32), labs, bx)
    dense = dense_embeddings(m, mask_input)
    masks, iou = mask_decoder(m, embedding, sparse, dense)
    multimask = len(pts) == 1 and bx is None
    chosen = 1 + int(np.argmax(iou[1:])) if multimask else 0
    size = m.arch["image_encoder"]["img_size"]
    up = resize_bilinear(masks[chosen][None], (size, size))[:, :nh, :nw]
    logits = resize_bilinear(np.ascontiguousarray(up), (h, w))[0]
    return {"masks": masks, "iou_predictions": iou, "multimask": multimask, "chosen": chosen,
            "low_res_logits": masks[chosen], "logits": logits, "mask": logits > 0}


def encode(m: Model, img: np.ndarray, stages: dict | None = None) -> dict:
    """Preprocess and encode an [H, W, 3] uint8 RGB photo."""
    resized, x, input_size = preprocess(m, img)
    return {"resized": resized, "input": x, "input_size": input_size,
            "embedding": image_encoder(m, x, stages)}


# =============================================================================================
# Fixtures for the Swift port's tests

def synthetic_image(width: int = 640, height: int = 480) -> np.ndarray:
    """Two flat discs on a smooth gradient, exact in integers: background
    R = 40 + 120 x / (W - 1), G = 60 + 100 y / (H - 1), B = 150 (floored); a red disc (220, 40, 40)
    centred (200, 240), radius 90, and a yellow one (240, 200, 30) centred (470, 220), radius 70
    (a pixel is inside when (x - cx)^2 + (y - cy)^2 <= r^2, pixel centres at integer x, y)."""
    y, x = np.mgrid[0:height, 0:width]
    img = np.stack([40 + (120 * x) // (width - 1), 60 + (100 * y) // (height - 1),
                    np.full_like(x, 150)], -1)
    for (cx, cy, r, rgb) in ((200, 240, 90, (220, 40, 40)), (470, 220, 70, (240, 200, 30))):
        img[(x - cx) ** 2 + (y - cy) ** 2 <= r * r] = rgb
    return img.astype(np.uint8)


FIXTURE_PROMPTS = [
    {"name": "one_point", "points": [[200, 240]], "labels": [1], "box": None},
    {"name": "two_points_exclude", "points": [[450, 220], [500, 200], [200, 240]], "labels": [1, 1, 0], "box": None},
    {"name": "box", "points": [], "labels": [], "box": [100, 140, 300, 340]},
]


def write_fixtures(m: Model, out: Path) -> dict:
    """OUT.bin: raw arrays, each at a 64-byte aligned offset; OUT.json: what they are."""
    t0 = time.perf_counter()
    img = synthetic_image()
    stages: dict = {}
    enc = encode(m, img, stages)
    t_enc = time.perf_counter() - t0
    arrays: dict[str, np.ndarray] = {"image": img, "resized": enc["resized"]}
    arrays.update({f"stage.{k}": v for k, v in stages.items()})
    arrays["embedding"] = enc["embedding"]
    prompts = []
    t1 = time.perf_counter()
    for pr in FIXTURE_PROMPTS:
        r = predict(m, enc["embedding"], img.shape[:2], pr["points"], pr["labels"], pr["box"])
        n = pr["name"]
        arrays[f"{n}.masks"] = r["masks"]
        arrays[f"{n}.mask"] = r["mask"].astype(np.uint8)
        prompts.append({**pr, "multimask": r["multimask"], "chosen": r["chosen"],
                        "iou_predictions": [float(v) for v in r["iou_predictions"]],
                        "masks": f"{n}.masks", "mask": f"{n}.mask", "mask_pixels": int(r["mask"].sum())})
    t_dec = (time.perf_counter() - t1) / len(FIXTURE_PROMPTS)
    blob = bytearray()
    index = {}
    for name, arr in arrays.items():
        blob += b"\0" * ((-len(blob)) % ALIGN)
        a = np.ascontiguousarray(arr)
        dtype = {np.dtype(np.float32): "f32le", np.dtype(np.uint8): "u8"}[a.dtype]
        index[name] = {"offset": len(blob), "shape": list(a.shape), "dtype": dtype}
        blob += a.astype("<f4").tobytes() if dtype == "f32le" else a.tobytes()
    binp = with_ext(out, ".bin")
    doc = {
        "format": FIXTURE_FORMAT, "version": 1, "model": "mobile_sam",
        "model_weights_sha256": m.sha256,
        "file": binp.name, "bytes": len(blob), "sha256": hashlib.sha256(blob).hexdigest(),
        "image": {"width": img.shape[1], "height": img.shape[0], "recipe": synthetic_image.__doc__.strip()},
        "input_size": list(enc["input_size"]),
        "arrays": index,
        "arrays_doc": {
            "image": "[H, W, 3] uint8 RGB, the photo (synthetic_image)",
            "resized": "[new_h, new_w, 3] uint8, after the longest-side resize (Pillow bilinear)",
            "stage.layers.N": "[C, H, W] float32, the image encoder after layers.N (its patch merging included)",
            "embedding": "[256, 64, 64] float32, the image embedding",
            "NAME.masks": "[4, 256, 256] float32, the decoder's low-res logits (0: single, 1-3: multimask)",
            "NAME.mask": "[H, W] uint8 0/1, the final mask of the chosen output",
        },
        "prompts": prompts,
        "seconds": {"encoder": round(t_enc, 2), "decoder_and_mask": round(t_dec, 2)},
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    binp.write_bytes(blob)
    with_ext(out, ".json").write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def selfcheck() -> None:
    """The vectorised erf against math.erf, and the transposed convolution's layout."""
    xs = np.linspace(-8, 8, 200001)
    err = np.abs(erf(xs) - np.array([math.erf(v) for v in xs])).max()
    assert err < 1e-14, err
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 2, 2)).astype(F32)
    w = rng.standard_normal((3, 2, 2, 2)).astype(F32)
    y = conv_transpose2x2(x, w, np.zeros(2, F32))
    want = np.einsum("cij,coab->oiajb", x, w).reshape(2, 4, 4)
    assert np.allclose(y, want, atol=1e-5)


# =============================================================================================

def _xy(s: str) -> list[float]:
    return [float(v) for v in s.split(",")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, required=True, help="prefix of mobile_sam.json / .bin")
    ap.add_argument("--fixtures", type=Path, help="write the reference fixtures OUT.bin + OUT.json and exit")
    ap.add_argument("--image", type=Path, help="a photo (read with Pillow)")
    ap.add_argument("--point", action="append", default=[], type=_xy, metavar="X,Y")
    ap.add_argument("--exclude", action="append", default=[], type=_xy, metavar="X,Y")
    ap.add_argument("--box", type=_xy, metavar="X0,Y0,X1,Y1")
    ap.add_argument("--png", type=Path, help="write the photo with the mask over it")
    args = ap.parse_args()
    selfcheck()
    m = Model(args.model)
    if args.fixtures:
        doc = write_fixtures(m, args.fixtures)
        print(f"wrote {with_ext(args.fixtures, '.bin')} ({doc['bytes']:,} bytes) and {with_ext(args.fixtures, '.json')}: "
              f"encoder {doc['seconds']['encoder']} s, a prompt {doc['seconds']['decoder_and_mask']} s; "
              + ", ".join(f"{p['name']} {p['mask_pixels']} px" for p in doc["prompts"]))
        return
    if not args.image:
        ap.error("--image or --fixtures")
    from PIL import Image

    img = np.asarray(Image.open(args.image).convert("RGB"))
    t0 = time.perf_counter()
    enc = encode(m, img)
    t1 = time.perf_counter()
    pts = args.point + args.exclude
    r = predict(m, enc["embedding"], img.shape[:2], pts, [1] * len(args.point) + [0] * len(args.exclude), args.box)
    t2 = time.perf_counter()
    print(f"{args.image.name} {img.shape[1]}x{img.shape[0]}: encoder {t1 - t0:.1f} s, decoder {t2 - t1:.2f} s; "
          f"output {r['chosen']} of iou {np.round(r['iou_predictions'], 3).tolist()}, mask {int(r['mask'].sum())} px")
    if args.png:
        over = img.astype(F32)
        over[r["mask"]] = over[r["mask"]] * 0.45 + np.array([0, 255, 0], F32) * 0.55
        over[~r["mask"]] *= 0.5
        for x, y in pts:
            over[max(int(y) - 4, 0):int(y) + 5, max(int(x) - 4, 0):int(x) + 5] = (255, 0, 255)
        Image.fromarray(over.astype(np.uint8)).save(args.png)


if __name__ == "__main__":
    main()
